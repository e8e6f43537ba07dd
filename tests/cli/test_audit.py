"""``checkpoints audit`` and the audit line of ``checkpoints build``, on the gold en→es PUD suite."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def pud_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from importlib import resources

    from checkpoints.service.build import BuildRequest, build_suite
    from checkpoints.service.store import store_new_suite

    demo = Path(str(resources.files("checkpoints"))) / "data" / "demo"
    db = tmp_path_factory.mktemp("audit") / "pud.db"
    request = BuildRequest(
        source_lang="en", target_lang="es", source_conllu=demo / "en_pud.conllu.gz",
        reference_conllu=[demo / "es_pud.conllu.gz"], alignments=[demo / "en-es.align"], name="pud",
    )
    store_new_suite(db, build_suite(request).suite)
    return db


def test_audit_table_json_and_csv_agree(run_cli, pud_db: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("audit", "--db", pud_db)
    assert code == 0, err
    assert "audit of suite pud" in out and "Preposition" in out and "sensitivity" in out
    assert err.strip().startswith("audit: the reference text scores 1.000")
    code, out, err = run_cli("audit", "--db", pud_db, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["suite"] == "pud" and data["seed"] == 12345
    rows = {row["category"]: row for row in data["categories"]}
    assert rows["Noun"]["own_class"] == "NOUN" and rows["Noun"]["reference_score"] == 1.0
    # the build kept the same audit with the suite
    from checkpoints.service.store import load_stored_suite

    assert load_stored_suite(pud_db).summary["audit"] == data
    output = tmp_path / "audit.csv"
    code, out, err = run_cli("audit", "--db", pud_db, "--format", "csv", "-o", output)
    assert code == 0 and out == ""
    table = list(csv.DictReader(io.StringIO(output.read_text(encoding="utf-8"))))
    assert [row["category"] for row in table] == list(rows)
    assert float(table[0]["sensitivity"]) == rows[table[0]["category"]]["sensitivity"]
    assert "drop_NOUN" in table[0]


def test_audit_seed_changes_the_draw(run_cli, pud_db: Path) -> None:  # type: ignore[no-untyped-def]
    first = json.loads(run_cli("audit", "--db", pud_db, "--format", "json", "--seed", "1")[1])
    again = json.loads(run_cli("audit", "--db", pud_db, "--format", "json", "--seed", "1")[1])
    other = json.loads(run_cli("audit", "--db", pud_db, "--format", "json", "--seed", "2")[1])
    assert first == again and first["seed"] == 1
    assert [r["drops"] for r in first["categories"]] != [r["drops"] for r in other["categories"]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--format", "xml"), "--format"),
        (("--suite", "nope"), "nope"),
    ],
)
def test_audit_bad_input_is_one_line(run_cli, pud_db: Path, args: tuple[str, ...], message: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("audit", "--db", pud_db, *args)
    assert code != 0 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_audit_of_a_missing_database(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run_cli("audit", "--db", tmp_path / "none.db")
    assert code != 0 and "none.db" in err
    assert not (tmp_path / "none.db").exists()


def test_build_prints_the_audit_line_and_can_skip_it(run_cli, tmp_path: Path, demo_dir: Path) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.service.store import load_stored_suite

    args = ("--src-lang", "en", "--tgt-lang", "es", "--source-conllu", demo_dir / "en_pud.conllu.gz",
            "--reference-conllu", demo_dir / "es_pud.conllu.gz", "--alignment", demo_dir / "en-es.align")
    code, _out, err = run_cli("build", "--db", tmp_path / "a.db", *args)
    assert code == 0, err
    assert "audit: the reference text scores 1.000" in " ".join(err.split())
    code, _out, err = run_cli("build", "--db", tmp_path / "b.db", "--no-audit", *args)
    assert code == 0 and "audit:" not in err
    assert "audit" not in load_stored_suite(tmp_path / "b.db").summary


def test_no_complete_keeps_the_references_as_the_links_give_them(run_cli, tmp_path: Path, demo_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """Pair 13, "the NoMa station, which opened in 2004" → "que fue inaugurada en 2004": completed,
    the Verb reference holds the passive auxiliary ("fue inaugurada"); with --no-complete only what
    the alignment links ("inaugurada"), and the option is kept with the suite."""
    from checkpoints.service.store import load_stored_suite

    args = ("--src-lang", "en", "--tgt-lang", "es", "--source-conllu", demo_dir / "en_pud.conllu.gz",
            "--reference-conllu", demo_dir / "es_pud.conllu.gz", "--alignment", demo_dir / "en-es.align",
            "--no-audit")
    references = {}
    for flag, db in (("--complete", "c.db"), ("--no-complete", "n.db")):
        code, _out, err = run_cli("build", "--db", tmp_path / db, flag, *args)
        assert code == 0, err
        suite = load_stored_suite(tmp_path / db)
        assert suite.options["complete"] is (flag == "--complete")
        verb = next(cp for cp in suite.checkpoints if cp.pair_id == 13 and cp.category == "Verb" and cp.source_indices == [17])
        references[flag] = verb.references[0].tokens
    assert references == {"--complete": ["fue", "inaugurada"], "--no-complete": ["inaugurada"]}
