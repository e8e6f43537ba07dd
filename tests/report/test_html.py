"""Building the report without a browser: the data model, escaping, embedding, size, options."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from checkpoints.errors import InputError, OutputError
from checkpoints.report.html.embed import script_json
from checkpoints.report.html.inputs import read_meta_json, read_metrics_json

HOSTILE = ['</script><script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "a\u2028b\u2029c", "&amp; <!--"]


def embedded_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_script_json_hides_markup_and_line_separators_and_round_trips() -> None:
    encoded = script_json({"names": HOSTILE})
    for character in "<>&\u2028\u2029":
        assert character not in encoded
    assert json.loads(encoded) == {"names": HOSTILE}


def test_demo_report_is_small_offline_and_matches_compare(demo: dict[str, Any]) -> None:
    page = demo["report"].read_text(encoding="utf-8")
    assert len(page.encode("utf-8")) < 15_000_000
    assert ("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
            "style-src 'unsafe-inline'; img-src data:\">") in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    data = embedded_data(page)
    compared = demo["compare"]
    assert data["systems"] == ["direct", "pivot"] and data["reference"] == "direct"
    assert data["signature"] == compared["signature"]
    pair = compared["comparisons"][0]
    for row in data["categories"]:
        result = pair["categories"][row["name"]]
        assert row["size"] == result["checkpoints"] == len(data["checkpoints"][data["categories"].index(row)])
        assert row["diff"][1] == pytest.approx(result["difference"], abs=1e-4)
        assert row["sig"] == [False, result["significant"]]
        assert row["tooFew"] == result["too_few"]
        low, high = row["ci"][0]
        assert low <= row["scores"][0] <= high
    # check-point 8 is pair 1's Noun "Schulman", matched by both systems
    nouns = data["checkpoints"][[r["name"] for r in data["categories"]].index("Noun")]
    eight = next(cp for cp in nouns if cp[0] == 8)
    assert data["pairs"]["source"][eight[1]][eight[2][0]] == "Schulman"
    assert [system[2][0][2] for system in eight[4]] == [["Schulman"], ["Schulman"]]
    assert "checkpoints compare --db" in page and "--baseline direct" in page
    # the suite's audit, kept by the build, embedded as it is stored
    audit = data["audit"]
    assert [row["category"] for row in audit["categories"]] == [r["name"] for r in data["categories"]]
    assert audit["reference_score"] == 1.0 and audit["summary"].startswith("audit: the reference text scores")


def test_hostile_names_and_translations_are_escaped(hostile_report: Path) -> None:
    page = hostile_report.read_text(encoding="utf-8")
    assert "window.pwned" in page  # it is there, but only as escaped text
    assert "<script>window.pwned" not in page
    assert "<img src=x" not in page
    assert "&lt;b&gt;sys&lt;/b&gt;" in page and "<b>sys</b>" not in page
    data = embedded_data(page)
    assert "<b>sys</b>" in data["systems"]
    assert data["pairs"]["translations"][1][0].endswith(' <script>window.pwned=1</script> "><img src=x onerror="window.pwned=2"> \u2028</script>')


def test_metrics_json_is_checked(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match=r"broken\.json: not a metrics JSON \(Expecting"):
        read_metrics_json(broken)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"metrics": ["BLEU"]}), encoding="utf-8")
    with pytest.raises(InputError, match=r"other\.json: not a metrics JSON \(\"scores\" must map"):
        read_metrics_json(other)
    every = tmp_path / "all.json"
    levels = [{"granularity": g, "metrics": ["BLEU"], "scores": {"a": {"BLEU": 0.2}}} for g in ("sys", "doc", "seg")]
    every.write_text(json.dumps(levels), encoding="utf-8")
    assert read_metrics_json(every)["scores"] == {"a": {"BLEU": 0.2}}
    with pytest.raises(InputError, match=r"missing\.json: cannot read the meta JSON"):
        read_meta_json(tmp_path / "missing.json")
    with pytest.raises(InputError, match=r"all\.json: not a meta JSON \(a JSON list, not an object\)"):
        read_meta_json(every)


def test_report_with_metrics_and_meta_embeds_them(demo: dict[str, Any], tmp_path: Path) -> None:
    from checkpoints.service.report import ReportRequest, write_report

    metrics = tmp_path / "metrics.json"
    metrics.write_text(json.dumps({"granularity": "sys", "metrics": ["BLEU"], "scores": {
        "direct": {"BLEU": 0.216}, "pivot": {"BLEU": 0.203}}}), encoding="utf-8")
    meta = tmp_path / "meta.json"
    meta.write_text(json.dumps({"level": "sys", "n": 2, "criteria": ["pearson"], "results": {
        "BLEU": {"pearson": {"r": 1.0, "ci": None}}}, "points": {
        "human": {"direct": -1.0, "pivot": -2.0}, "metrics": {"BLEU": {"direct": 0.216, "pivot": 0.203}}}}),
        encoding="utf-8")
    output = tmp_path / "r.html"
    result = write_report(ReportRequest(demo["db"], output, metrics=metrics, meta=meta))
    assert result.comparison_run is not None  # the demo stored its comparison
    data = embedded_data(output.read_text(encoding="utf-8"))
    assert data["metrics"]["scores"]["pivot"] == {"BLEU": 0.203}
    assert data["meta"]["points"]["human"] == {"direct": -1.0, "pivot": -2.0}


def test_cli_checks_output_before_reading_anything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from checkpoints.cli import main

    missing = tmp_path / "no-such-folder" / "r.html"
    with pytest.raises(SystemExit) as exit_:
        main(["report", "--db", str(tmp_path / "absent.db"), "--output", str(missing)])
    assert exit_.value.code == 1
    assert capsys.readouterr().err.strip() == f"checkpoints: error: {missing}: folder {missing.parent} does not exist"
    with pytest.raises(OutputError):
        from checkpoints.service.report import ReportRequest, write_report

        write_report(ReportRequest(tmp_path / "absent.db", missing))


def test_cli_names_a_bad_metrics_file(demo: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from checkpoints.cli import main

    bad = tmp_path / "m.json"
    bad.write_text("[]", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["report", "--db", str(demo["db"]), "--metrics", str(bad), "--output", str(tmp_path / "r.html")])
    assert exit_.value.code == 1
    assert capsys.readouterr().err.strip() == (
        f"checkpoints: error: {bad}: not a metrics JSON (no system-level (sys) report in the list)")
    assert not (tmp_path / "r.html").exists()


def test_check_points_described_in_a_child_are_described_as_here(demo: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The report describes half of its check-points in a forked child where it can: the page's
    data is the same as when this process describes them all, in the same order."""
    from pathlib import Path

    from checkpoints import workers
    from checkpoints.service.report import ReportRequest, report_model

    if not workers.can_fork():
        pytest.skip("only Linux forks here")
    request = ReportRequest(demo["db"], Path("unused.html"), ("direct", "pivot"), baseline="direct")
    monkeypatch.setattr(workers, "can_run_beside", lambda: False)
    alone, _ = report_model(request)
    monkeypatch.setattr(workers, "can_run_beside", workers.can_fork)
    forked, _ = report_model(request)
    assert sum(map(len, alone["checkpoints"])) > 10_000
    assert forked == alone


def test_cli_report_embeds_the_attribution(run_cli, ted_attribution: dict[str, Any], demo: dict[str, Any],  # type: ignore[no-untyped-def]
                                           tmp_path: Path) -> None:
    output = tmp_path / "ted.html"
    code, out, err = run_cli("report", "--db", ted_attribution["db"], "--attribution", ted_attribution["attribution"],
                             "--output", output)
    assert code == 0, err
    assert out.startswith(f"wrote {output}")
    data = embedded_data(output.read_text(encoding="utf-8"))
    attribution = data["attribution"]
    assert attribution == ted_attribution["data"]  # embedded as `checkpoints attribute` wrote it
    assert attribution["suite"] == data["suite"] == "ted3"
    assert [row["category"] for row in attribution["validity"]] == [*attribution["categories"], "all categories"]
    assert attribution["examples"] and all(example["errors"] for example in attribution["examples"])
    assert f"--attribution {ted_attribution['attribution']}" in data["commands"][-1]
    # without the option the report has no attribution
    assert embedded_data(demo["report"].read_text(encoding="utf-8")).get("attribution") is None


@pytest.mark.parametrize("case", ["missing", "not json", "not an object", "another suite"])
def test_cli_names_a_bad_attribution_file(run_cli, demo: dict[str, Any], tmp_path: Path, case: str) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.service.demo import DEMO_SUITE

    path = tmp_path / "attribution.json"
    expected = {
        "missing": "cannot read the attribution JSON (No such file or directory)",
        "not json": "not an attribution JSON (Expecting property name enclosed in double quotes at line 1)",
        "not an object": "not an attribution JSON (a JSON list, not an object); "
                         "write one with `checkpoints attribute --format json`",
        "another suite": f"an attribution of suite 'ted3', not of the report's suite {DEMO_SUITE!r}",
    }[case]
    if case == "not json":
        path.write_text("{suite: ted3}\n", encoding="utf-8")
    elif case == "not an object":
        path.write_text("[]\n", encoding="utf-8")
    elif case == "another suite":
        path.write_text(json.dumps({"suite": "ted3", "systems": ["a"], "categories": [], "words_in_errors": 0.1,
                                    "signature": "s", "options": {}, "validity": [], "errors": [], "examples": []}),
                        encoding="utf-8")
    output = tmp_path / "r.html"
    code, _, err = run_cli("report", "--db", demo["db"], "--attribution", path, "--output", output)
    assert code == 1
    assert err.strip().splitlines() == [f"checkpoints: error: {path}: {expected}"]
    assert not output.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == (["attribution.json"] if case != "missing" else [])


@pytest.mark.parametrize(
    ("which", "content", "message"),
    [
        ("gate", "[]", "not a gate JSON (a JSON list, not an object)"),
        ("gate", '{"suite": "pud-en-es-demo", "baseline": "a", "candidate": "b", "signature": "s", "passed": true}',
         'not a gate JSON ("verdicts" must be a list of rules'),
        ("gate", '{"suite": "other", "baseline": "a", "candidate": "b", "signature": "s", "passed": true, "verdicts": []}',
         "a gate of suite 'other', not of the report's suite 'pud-en-es-demo'"),
        ("challenge", '{"suite": "pud-en-es-demo", "items": 3, "metrics": [], "accuracy": []}',
         "no metric scored it"),
        ("challenge", '{"suite": "pud-en-es-demo", "items": 3, "metrics": ["BLEU"], "accuracy": [{"metric": "BLEU"}]}',
         '"accuracy" must be a list of rows'),
        ("challenge", "{", "not a challenge JSON (Expecting property name enclosed in double quotes at line 1)"),
    ],
)
def test_cli_names_a_bad_gate_or_challenge_file(run_cli, demo: dict[str, Any], tmp_path: Path, which: str,  # type: ignore[no-untyped-def]
                                                content: str, message: str) -> None:
    bad = tmp_path / f"{which}.json"
    bad.write_text(content, encoding="utf-8")
    code, _, err = run_cli("report", "--db", demo["db"], "--output", tmp_path / "r.html", f"--{which}", bad)
    assert code == 1 and f"{bad}: " in err and message in err
    assert not (tmp_path / "r.html").exists()
