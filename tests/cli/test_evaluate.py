"""`evaluate`, `compare`, `show` and `demo` end to end, with Zhou Tables 8–9 through XML import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from checkpoints.db.session import open_engine, transaction
from checkpoints.db.tables import CheckpointResultRow, RunRow


def count(db: Path, model: type) -> int:
    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        value = session.scalar(select(func.count(model.id)))
    engine.dispose()
    return int(value or 0)


@pytest.fixture
def table8(run_cli, tmp_path: Path, table8_inputs: dict[str, Path]) -> dict[str, Path]:  # type: ignore[no-untyped-def]
    """Zhou Table 8 imported into a database, with Table 9's systems A and B."""
    db = tmp_path / "t8.db"
    code, _out, err = run_cli("import", "--db", db, table8_inputs["xml"])
    assert code == 0, err
    return {"db": db, "a": table8_inputs["a"], "b": table8_inputs["b"], "xml": table8_inputs["xml"]}


def test_table9_through_xml_import(run_cli, table8: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    """Zhou Table 9: system A matches 1/6 of both references (score 0.17), B 2/6 and 6/6 (score 1)."""
    code, out, err = run_cli("evaluate", "--db", table8["db"], "--system", f"A={table8['a']}",
                             "--system", f"B={table8['b']}", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    category = "Preposition-object phrase"
    a, b = report["systems"]["A"], report["systems"]["B"]
    # recall (3) over one check-point: 0.5·1 / (0.5·6) = 1/6; the translations are not longer than
    # the references (17 and 18 tokens against 18: the default tokenizer cuts "Dex-in" into
    # three and "search." into two), so the penalty (4) is 1
    assert a["categories"][category] == {"score": 1 / 6, "recall": 1 / 6, "penalty": 1.0, "checkpoints": 1}
    assert b["categories"][category] == {"score": 1.0, "recall": 1.0, "penalty": 1.0, "checkpoints": 1}
    assert round(a["score"], 2) == 0.17 and b["score"] == 1.0
    assert a["groups"] == {"phrase": 1 / 6}
    assert report["match"] == "normal" and report["tokenize"] == "words" and report["max_order"] == "4"
    assert report["bleu_tokenize"] == "13a"
    assert report["signature"].startswith("suite:") and "|taxonomy:zh@1|" in report["signature"]
    assert set(report["bleu"]) == {"A", "B"}

    code, out, err = run_cli("show", "--db", table8["db"], "--checkpoint", "1", "--format", "json")
    assert code == 0, err
    (item,) = json.loads(out)["checkpoints"]
    assert item["marked_source"] == "不过 泰国 总理 戴克辛 誓言 将 继续 [在] [其] [国内] 进行 搜寻 。"
    assert [(r["tokens"], r["dm"]) for r in item["references"]] == [("in this country", 0.5), ("in his country", 0.5)]
    shown_a = item["systems"]["A"]
    assert [(r["matched"], r["total"], r["matched_ngrams"]) for r in shown_a["references"]] == [
        (1, 6, ["in"]), (1, 6, ["in"])]
    assert shown_a["score"] == 1 / 6
    shown_b = item["systems"]["B"]
    assert [(r["matched"], r["total"], r["chosen"]) for r in shown_b["references"]] == [(2, 6, False), (6, 6, True)]
    assert sorted(shown_b["references"][0]["matched_ngrams"]) == ["country", "in"]
    assert shown_b["score"] == 1.0

    code, out, err = run_cli("show", "--db", table8["db"], "--checkpoint", "1")
    assert code == 0, err
    assert "[在] [其] [国内]" in out and "(DM = 0.50)" in out and "6/6 matched" in out and "← r*" in out


def test_lower_and_stem_matching_change_scores(run_cli, table8: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    shouting = tmp_path / "upper.txt"
    shouting.write_text("But the search went on IN HIS COUNTRIES.\n", encoding="utf-8")
    scores = {}
    for mode in ("normal", "lower", "stem"):
        code, out, err = run_cli("evaluate", "--db", table8["db"], "--system", f"U={shouting}", "--match", mode, "--format", "json")
        assert code == 0, err
        scores[mode] = json.loads(out)["systems"]["U"]["categories"]["Preposition-object phrase"]["recall"]
    # normal: nothing; lower: in, his, in his (3/6); stem: countries → countri = country → 6/6
    assert scores == {"normal": 0.0, "lower": 0.5, "stem": 1.0}


def test_csv_and_table_outputs(run_cli, table8: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "report.csv"
    code, _out, err = run_cli("evaluate", "--db", table8["db"], "--system", f"A={table8['a']}", "--format", "csv", "--output", target)
    assert code == 0, err
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "system,scope,name,checkpoints,recall,penalty,score"
    assert "A,category,Preposition-object phrase,1,0.166667,1.000000,0.166667" in lines
    code, out, err = run_cli("evaluate", "--db", table8["db"], "--system", f"A={table8['a']}", "--system", f"B={table8['b']}")
    assert code == 0, err
    assert "SYSTEM (BLEU)" in out and "PHRASES" in out and "1.0000*" in out


def test_every_evaluation_is_stored_as_a_run(run_cli, table8: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    for _ in range(2):
        assert run_cli("evaluate", "--db", table8["db"], "--system", f"A={table8['a']}")[0] == 0
    assert count(table8["db"], RunRow) == 2
    assert count(table8["db"], CheckpointResultRow) == 2


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--system", "A={short}"], 1, "{short}: 2 lines, but suite 'table8' has 1 sentence pairs (one translation per line, in pair order)"),
        (["--system", "A={a}", "--category", "Idiom"], 1, "no check-points to evaluate in categories Idiom of suite 'table8'"),
        (["--system", "A={a}", "--category", "Nope"], 1, "no category 'Nope' in suite 'table8'"),
        (["--system", "A={a}", "--suite", "other"], 1, "no suite named 'other' in this database (suites: table8)"),
        (["--system", "A={a}", "--match", "fuzzy"], 2, "unknown match mode 'fuzzy'"),
        (["--system", "A={a}", "--tokenize", "moses"], 2, "unknown tokenizer 'moses'"),
        (["--system", "A"], 2, "--system 'A': expected NAME=FILE"),
        (["--system", "A={a}", "--system", "A={b}"], 2, "--system: system name 'A' given twice"),
        (["--system", "A={missing}"], 1, "{missing}: no such file"),
        (["--system", "A={a}", "--format", "xml"], 2, "--format 'xml': choose table, json or csv"),
    ],
)
def test_evaluate_bad_inputs(run_cli, table8: dict[str, Path], tmp_path: Path, args: list[str], code: int, message: str) -> None:  # type: ignore[no-untyped-def]
    short = tmp_path / "short.txt"
    short.write_text("one\ntwo\n", encoding="utf-8")
    paths = {"a": table8["a"], "b": table8["b"], "short": short, "missing": tmp_path / "missing.txt"}
    status, _out, err = run_cli("evaluate", "--db", table8["db"], *[a.format(**paths) for a in args])
    assert status == code
    assert err.startswith("checkpoints: error: " + message.format(**paths)), err
    assert err.count("\n") == 1
    assert count(table8["db"], RunRow) == 0


def test_empty_suite_and_missing_database(run_cli, tmp_path: Path, table8: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    empty = tmp_path / "empty.xml"
    table8_xml = table8["xml"].read_text(encoding="utf-8")
    empty.write_text(table8_xml.split("    <checkpoint")[0] + "  </pair>\n</suite>\n", encoding="utf-8")
    db = tmp_path / "empty.db"
    assert run_cli("import", "--db", db, empty)[0] == 0
    code, _out, err = run_cli("evaluate", "--db", db, "--system", f"A={table8['a']}")
    assert code == 1
    assert err == "checkpoints: error: suite 'table8' has no check-points: nothing to evaluate\n"
    code, _out, err = run_cli("evaluate", "--db", tmp_path / "nope.db", "--system", f"A={table8['a']}")
    assert code == 1 and "no such database" in err
    assert not (tmp_path / "nope.db").exists()


def test_compare_errors(run_cli, table8: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    assert run_cli("evaluate", "--db", table8["db"], "--system", f"A={table8['a']}")[0] == 0
    code, _out, err = run_cli("compare", "--db", table8["db"], "--system", "A", "--system", "Z")
    assert code == 1
    assert err.startswith("checkpoints: error: system 'Z' has not been evaluated on this suite (evaluated: A)")
    code, _out, err = run_cli("compare", "--db", table8["db"], "--system", "A")
    assert (code, err) == (2, "checkpoints: error: a comparison needs at least two systems (the baseline counts as one)\n")
    code, _out, err = run_cli("compare", "--db", table8["db"], "--system", "A", "--system", f"B={table8['b']}",
                              "--baseline", "C")
    # the baseline counts as a system, so an unknown one is a system never evaluated
    assert code == 1 and "system 'C' has not been evaluated on this suite" in err
    code, _out, err = run_cli("compare", "--db", table8["db"], "--system", "A", "--system", "A")
    assert (code, err) == (2, "checkpoints: error: a system is named twice\n")
    code, _out, err = run_cli("compare", "--db", table8["db"], "--system", "A", "--system", "B", "--method", "t-test")
    assert (code, err) == (2, "checkpoints: error: --method 't-test': choose bootstrap or ar\n")


def test_compare_tiny_suite_never_flags(run_cli, table8: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("compare", "--db", table8["db"], "--system", f"A={table8['a']}",
                             "--system", f"B={table8['b']}", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    (pair,) = report["comparisons"]
    result = pair["categories"]["Preposition-object phrase"]
    assert result["too_few"] is True and result["significant"] is False and result["adjusted_p"] is None
    assert result["difference"] == pytest.approx(5 / 6)
    assert report["correction"] == "holm" and report["samples"] == 1000 and report["seed"] == 12345
    assert "resample:bootstrap|samples:1000|seed:12345|correction:holm" in report["signature"]


def test_show_errors(run_cli, table8: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run_cli("show", "--db", table8["db"], "--checkpoint", "7")
    assert (code, err) == (1, "checkpoints: error: no check-point 7 in suite 'table8' (ids run from 1 to 1)\n")
    code, _out, err = run_cli("show", "--db", table8["db"], "--category", "Idiom")
    assert (code, err) == (1, "checkpoints: error: suite 'table8' has no check-points of category 'Idiom'\n")
    code, out, err = run_cli("show", "--db", table8["db"])
    assert code == 0 and "reference 2" in out and "in his country" in out


def test_demo_runs_offline_and_compares(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "demo.db"
    code, out, err = run_cli("demo", "--db", db, "--samples", "200")
    assert code == 0, err
    assert "SYSTEM (BLEU)" in out and "pivot vs direct" in out and "significant" in out
    assert "Explore further" in out and f"checkpoints show --db {db}" in out
    # a second run replaces the demo suite instead of failing on the existing name
    code, _out, err = run_cli("demo", "--db", db, "--samples", "50")
    assert code == 0, err
    code, out, err = run_cli("compare", "--db", db, "--system", "direct", "--system", "pivot",
                             "--samples", "400", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    # BLEU on the pairs that carry check-points: the three shifted pairs 577-579 are left out
    assert report["bleu"]["direct"] == pytest.approx(21.68, abs=0.01)
    categories = report["comparisons"][0]["categories"]
    assert len(categories) == 20 and categories["Hyperbaton"]["too_few"] is True
    assert "warning" not in report
    # 19 eligible categories: Holm needs p ≤ 0.05/19, out of reach with 1/(100+1)
    code, out, err = run_cli("compare", "--db", db, "--system", "direct", "--system", "pivot", "--samples", "100",
                             "--format", "json")
    assert code == 0
    expected = ("with 100 samples the smallest p-value is 1/101; after holm over 19 categories no category "
                "can reach 0.05: use 379 samples or more")
    assert json.loads(out)["warning"] == expected
    assert " ".join(err.split()) == f"warning: {expected}"
