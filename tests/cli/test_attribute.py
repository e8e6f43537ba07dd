"""``checkpoints attribute`` on real MQM data: segments 10, 47 and 244 of WMT 2021 TED en→de.

The suite is built from those three segments' sources and reference (parsed
by the repository's English and German models, ``tests/data/attribution``);
the MQM rows are the release's own (``tests/data/meta/mqm_ted_ende.small.tsv``).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "data"
ATTRIBUTION = DATA / "attribution"
MQM = DATA / "meta" / "mqm_ted_ende.small.tsv"
ONLINE_W = [  # Online-W's outputs of segments 10, 47, 244 as rated in MQM
    "Nun möchten wir in der Lage sein, zu einer Art glorreichen visuellen Komposition, die wir vom Universum haben, "
    "eine Klangkomposition hinzuzufügen.",
    "Wir würden einen Schatten dieses schwarzen Lochs vor den hundert Milliarden Sternen in der Milchstraßengalaxie "
    "und ihren leuchtenden Staubspuren sehen.",
    "Er befindet sich etwa 40 Meter über dem Wasser.",
]


@pytest.fixture(scope="module")
def ted_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from checkpoints.service.build import BuildRequest, build_suite
    from checkpoints.service.store import store_new_suite

    db = tmp_path_factory.mktemp("attribute") / "ted.db"
    request = BuildRequest(
        source_lang="en", target_lang="de", source_conllu=ATTRIBUTION / "ted-ende.source.conllu",
        reference_conllu=[ATTRIBUTION / "ted-ende.reference.conllu"], alignments=[ATTRIBUTION / "ted-ende.align"],
        name="ted3",
    )
    store_new_suite(db, build_suite(request).suite)
    return db


@pytest.fixture()
def online_w(tmp_path: Path) -> Path:
    path = tmp_path / "online-w.txt"
    path.write_text("\n".join(ONLINE_W) + "\n", encoding="utf-8")
    return path


def test_pharaoh_links_attribute_the_rated_span_exactly(run_cli, ted_db: Path, online_w: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.service.store import load_stored_suite

    # "composition" (source word 15 of segment 10) → "Komposition," (whitespace token 12); nothing else linked
    links = tmp_path / "online-w.pharaoh"
    links.write_text("15-12\n\n\n", encoding="utf-8")
    code, out, err = run_cli("attribute", "--db", ted_db, "--mqm", MQM, "--system", f"Online-W={online_w}",
                             "--alignment", f"Online-W={links}", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["systems"] == ["Online-W"] and "links:pharaoh" in data["signature"]
    suite = load_stored_suite(ted_db)
    first = suite.pairs[0].id
    every = suite.checkpoints
    linked = [cp for cp in every if cp.pair_id == first and 15 in cp.source_indices]
    assert linked  # "composition" is a Noun, and part of phrases
    errors = {row["category"]: row for row in data["errors"]}
    overall = errors["all categories"]
    # segment 10's one error (Minor Style/Awkward over the whole sentence but the full stop) lies on every linked
    # check-point; the other two segments are rated without errors
    assert overall["checkpoints"] == len(every)
    assert overall["errors_per_100"] == pytest.approx(round(100 * len(linked) / len(every), 4))
    assert overall["by_severity"] == {"Major": 0.0, "Minor": overall["errors_per_100"]}
    assert overall["by_type"] == {"Style": overall["errors_per_100"]}
    assert overall["unlinked"] == pytest.approx(round(1 - len(linked) / len(every), 4))
    assert overall["penalty"] == pytest.approx(round(1 / 3, 4))  # one Minor error (1) over three rated segments
    assert errors["Noun"]["penalty"] == overall["penalty"]
    validity = {row["category"]: row for row in data["validity"]}
    total = validity["all categories"]
    assert total["missed"] + total["matched"] == len(linked)
    assert total["missed_in_error"] + total["matched_in_error"] == len(linked)
    assert "P(error | missed) from" in " ".join(total["warnings"])


def test_eflomal_links_every_system_and_leave_out_the_reference(run_cli, ted_db: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    output = tmp_path / "ted.csv"
    code, out, err = run_cli("attribute", "--db", ted_db, "--mqm", MQM, "--format", "csv", "-o", output)
    assert code == 0 and out == "", err
    validity, errors = output.read_text(encoding="utf-8").split("\n\n")
    rows = list(csv.DictReader(io.StringIO(errors)))
    systems = {row["system"] for row in rows}
    assert len(systems) == 13 and "ref" not in systems  # the suite's own reference is not attributed
    for row in csv.DictReader(io.StringIO(validity)):
        for column in ("p_error_missed", "p_error_matched"):
            assert row[column] == "" or 0.0 <= float(row[column]) <= 1.0
    code, out, err = run_cli("attribute", "--db", ted_db, "--mqm", MQM)
    assert code == 0, err
    assert "Do missed check-points mean real errors?" in out and "all categories" in out and "errors/100" in out
    assert "from fewer than 30 check-points" in out


def test_alternatives_change_the_signature(run_cli, ted_db: Path, online_w: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    links = tmp_path / "links.pharaoh"
    links.write_text("15-12\n\n\n", encoding="utf-8")
    common = ("attribute", "--db", ted_db, "--mqm", MQM, "--system", f"Online-W={online_w}",
              "--alignment", f"Online-W={links}", "--format", "json")
    plain = json.loads(run_cli(*common)[1])
    alternatives = json.loads(run_cli(*common, "--alternatives")[1])
    assert "alternatives:no" in plain["signature"]
    assert "alternatives:dict+stem" in alternatives["signature"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("segments", "has 2 segments but suite 'ted3' has 3 sentence pairs"),
        ("source", "segment 47's source is not the source of suite 'ted3''s pair 2"),
    ],
)
def test_an_mqm_file_of_other_segments_is_refused(run_cli, ted_db: Path, tmp_path: Path, change: str, message: str) -> None:  # type: ignore[no-untyped-def]
    lines = MQM.read_text(encoding="utf-8").split("\n")
    if change == "segments":
        kept = [lines[0]] + [line for line in lines[1:] if line and line.split("\t")[3] != "244"]
    else:
        kept = [lines[0]] + [line.replace("We would see", "We saw") for line in lines[1:] if line]
    path = tmp_path / "other.tsv"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    code, _, err = run_cli("attribute", "--db", ted_db, "--mqm", path)
    assert code != 0 and message in err and err.count("\n") == 1


def test_bad_inputs_are_one_line_errors(run_cli, ted_db: Path, online_w: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("\n".join([ONLINE_W[0], "Etwas anderes.", ONLINE_W[2]]) + "\n", encoding="utf-8")
    far = tmp_path / "far.pharaoh"
    far.write_text("15-99\n\n\n", encoding="utf-8")
    cases = [
        (("--mqm", tmp_path / "missing.tsv"), "missing.tsv: no such file"),
        (("--mqm", MQM, "--system", "Nobody=" + str(online_w)), "system 'Nobody' is not in"),
        (("--mqm", MQM, "--system", f"Online-W={wrong}"), f"{wrong}:2: not the output of 'Online-W'"),
        (("--mqm", MQM, "--system", f"Online-W={online_w}", "--alignment", f"Nemo={far}"),
         "--alignment names system 'Nemo', which is not attributed"),
        (("--mqm", MQM, "--system", f"Online-W={online_w}", "--alignment", f"Online-W={far}"),
         f"{far}:1: link 15-99: target index 99 out of range"),
        (("--mqm", MQM, "--format", "xml"), "xml"),
        (("--mqm", MQM, "--system", "Online-W"), "expected NAME=FILE"),
    ]
    for arguments, message in cases:
        code, out, err = run_cli("attribute", "--db", ted_db, *arguments)
        assert code != 0 and out == "", arguments
        assert message in err, (arguments, err)
        assert err.count("\n") == 1, err


def test_help_shows_examples(run_cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_cli("attribute", "--help")
    assert code == 0 and "--mqm" in out and "checkpoints attribute --db ted.db --mqm mqm_ted_ende.tsv" in out
