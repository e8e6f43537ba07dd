"""``checkpoints qarla`` end to end: formats, --optimize, --tie, --trans-topic, one-line errors.

Most tests use the test-only EXACT metric (1 when the candidate equals the
one reference, tests/toy_metrics.py) on a test bed small enough to work out
QUEEN, KING and JACK by hand (see :func:`files`). The last tests run real
metrics on the TED zh-en systems bundled under tests/data/metrics/ted, which
have two references (so trans-topic mode).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from toy_metrics import ExactMatch, UnigramPrecision

from checkpoints.evaluate.metrics import registry
from checkpoints.evaluate.metrics.base import Metric, MetricOptions
from checkpoints.evaluate.metrics.registry import MetricEntry

TED = Path(__file__).parent.parent / "data" / "metrics" / "ted" / "zh-en"


def language_metric(options: MetricOptions) -> Metric:
    return ExactMatch(options)


@pytest.fixture
def test_only_metrics(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = {
        "EXACT": MetricEntry(ExactMatch.description, ExactMatch),
        "P1": MetricEntry(UnigramPrecision.description, UnigramPrecision),
        "NEEDS-LANG": MetricEntry("depends on the language (test metric)", language_metric, language=True),
    }
    monkeypatch.setattr(registry, "_entries", lambda: entries)


@pytest.fixture
def files(write_texts: Callable[[dict[str, str]], dict[str, Path]]) -> dict[str, Path]:
    """Three references, two systems, two segments.

    With EXACT (x = 1 when equal, else 0), IQMT manual §3.1 / digest A.1.1 (|Ω| = 18):
    segment 1: refs "a b", "a b", "a x"; ref pairs (R0,R1) = (R1,R0) = 1, the other four 0.
      A = "a b": x = 1, 1, 0 -> 6 + 6 + 4 = 16/18.  B = "z": x = 0, 0, 0 -> 4 + 4 + 4 = 12/18.
    segment 2: refs "c d", "c e", "c d"; ref pairs (R0,R2) = (R2,R0) = 1, the other four 0.
      A = B = "c d": x = 1, 0, 1 -> 6 + 4 + 6 = 16/18.
    QUEEN(A) = 16/18 = 0.8889, QUEEN(B) = 28/36 = 0.7778.
    KING (6 trials): when the two remaining references are 0 apart everyone passes both pairs (a tie:
    seg 1 R0 or R1 out, seg 2 R0 or R2 out); when they are 1 apart (seg 1 R2 out, seg 2 R1 out) the held-out
    reference matches neither (0/4) while A matches both (4/4). ge: 4/6, gt: 0/6.
    JACK: segment 1, x(A,B) = 0 <= x(A,r) for all three r; segment 2, x(A,B) = 1 <= x(A,r) for R0 and R2
    only (and x(B,A) alike): 5/6.
    """
    contents = {
        "R0.txt": "a b\nc d\n",
        "R1.txt": "a b\nc e\n",
        "R2.txt": "a x\nc d\n",
        "A.txt": "a b\nc d\n",
        "B.txt": "z\nc d\n",
        "short.txt": "a b\n",
    }
    return write_texts(contents)


def bed(files: dict[str, Path], *extra: object) -> list[object]:
    return ["qarla", "-r", files["R0.txt"], "-r", files["R1.txt"], "-r", files["R2.txt"],
            "-s", f"A={files['A.txt']}", "-s", f"B={files['B.txt']}", *extra]


def test_json_hand_worked(run_cli, test_only_metrics, files) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(*bed(files, "-m", "EXACT", "--format", "json"))
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "metrics": ["EXACT"],
        "queen": {"A": pytest.approx(16 / 18), "B": pytest.approx(28 / 36)},
        "king": pytest.approx(4 / 6),
        "jack": pytest.approx(5 / 6),
    }


def test_tie_gt(run_cli, test_only_metrics, files) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_cli(*bed(files, "-m", "EXACT", "--tie", "gt", "-f", "json"))
    assert code == 0
    assert json.loads(out)["king"] == 0.0  # every success under ge was a tie


def test_table(run_cli, test_only_metrics, files) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_cli(*bed(files, "-m", "EXACT"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "metric set: {EXACT}"
    assert "reference pairs: per segment" in lines[1]
    rows = [line for line in lines if line.startswith("│")]
    assert [cell.strip() for cell in rows[0].split("│")[1:3]] == ["A", "0.8889"]  # best QUEEN first
    assert "0.7778" in rows[1]
    assert any("KING (tie ge)" in row and "0.6667" in row for row in rows)
    assert any("JACK" in row and "0.8333" in row for row in rows)


def test_optimize(run_cli, test_only_metrics, files) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.evaluate.meta.qarla import king
    from checkpoints.evaluate.metrics.base import MetricOptions as Options
    from checkpoints.io.testsets import InputFormat, load_testbed
    from checkpoints.service.qarla import compute_similarities

    code, out, _ = run_cli(*bed(files, "-m", "P1,EXACT", "--optimize", "-f", "json"))
    assert code == 0
    document = json.loads(out)
    assert list(document) == ["metrics", "queen", "king", "jack", "optimal_set", "optimal_king"]
    testbed = load_testbed(InputFormat.RAW, [files["R0.txt"], files["R1.txt"], files["R2.txt"]],
                           [("A", files["A.txt"]), ("B", files["B.txt"])])
    sims = compute_similarities(testbed, ["P1", "EXACT"], Options(tokenize="none"))
    single = {name: king(sims, [name]) for name in ("P1", "EXACT")}
    assert single["EXACT"] == pytest.approx(4 / 6)
    first = sorted(single, key=lambda name: (-single[name], name))[0]  # A.1.5: best single KING first
    assert document["optimal_set"][0] == first
    assert document["optimal_king"] == pytest.approx(king(sims, document["optimal_set"]))
    code, out, _ = run_cli(*bed(files, "-m", "P1,EXACT", "--optimize"))
    assert code == 0 and "optimal set: {" in out and "KING alone" in out


def test_trans_topic_with_two_references(run_cli, test_only_metrics, files) -> None:  # type: ignore[no-untyped-def]
    # Manual §6.3: pairs pooled over both segments: (R0,R1) = (R1,R0) = 1 in segment 1, 0 in segment 2.
    # A, segment 1: x = 1, 1 passes all 4 pairs each: 8/8; segment 2: x = 1 (R0) passes 4, x = 0 (R1) passes
    # the 2 zeros: 6/8. QUEEN(A) = 14/16. B: segment 1 x = 0, 0: 2 + 2 = 4/8; segment 2 as A, 6/8: 10/16.
    args = ["qarla", "-r", files["R0.txt"], "-r", files["R1.txt"], "-s", f"A={files['A.txt']}",
            "-s", f"B={files['B.txt']}", "-m", "EXACT", "--trans-topic", "-f", "json"]
    code, out, err = run_cli(*args)
    assert (code, err) == (0, "")
    assert json.loads(out)["queen"] == {"A": pytest.approx(14 / 16), "B": pytest.approx(10 / 16)}


def test_output_file(run_cli, test_only_metrics, files, tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "qarla.json"
    code, out, _ = run_cli(*bed(files, "-m", "EXACT", "-f", "json", "--output", target))
    assert (code, out) == (0, "")
    assert json.loads(target.read_text(encoding="utf-8"))["metrics"] == ["EXACT"]


def test_help_has_examples(run_cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_cli("qarla", "--help")
    assert code == 0
    assert "Examples:" in out and "checkpoints qarla -r ref0.txt" in out and "--trans-topic" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tie", "eq"], "--tie 'eq': choose ge or gt"),
        (["--format", "csv"], "--format 'csv': choose table or json"),
        (["--case", "xx"], "--case 'xx': choose cs or ci"),
        (["--tokenize", "bogus"], "--tokenize 'bogus': choose "),
        (["-m", " , "], "no metric requested: give -m NAMES (see `checkpoints metrics --list`)"),
        (["-m", "BLUE"], "unknown metric 'BLUE' (see `checkpoints metrics --list`)"),
        (["-m", "NEEDS-LANG"], "NEEDS-LANG depends on the target language: give --tgt-lang LANG"),
    ],
)
def test_usage_errors(run_cli, test_only_metrics, files, args, message) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(*bed(files, *(["-m", "EXACT"] if "-m" not in args else []), *args))
    assert (code, out) == (2, "")
    assert err.startswith(f"checkpoints: error: {message}") and err.count("\n") == 1


def test_missing_options_and_too_few_references(run_cli, test_only_metrics, files) -> None:  # type: ignore[no-untyped-def]
    r0, r1, a = files["R0.txt"], files["R1.txt"], f"A={files['A.txt']}"
    cases = [
        (["qarla", "-r", r0, "-r", r1, "-s", a], "no metric requested: give -m NAMES (see `checkpoints metrics --list`)"),
        (["qarla", "-r", r0, "-r", r1, "-s", a, "-m", "EXACT"],
         "QARLA needs at least three --reference FILE, not 2 (or two with --trans-topic)"),
        (["qarla", "-r", r0, "-s", a, "-m", "EXACT", "--trans-topic"], "--trans-topic needs at least two --reference FILE, not 1"),
        (["qarla", "-r", r0, "-r", r1, "-m", "EXACT", "--trans-topic"], "at least one --system NAME=FILE is required"),
        (["qarla", "-r", r0, "-r", r1, "-s", str(files["A.txt"]), "-m", "EXACT", "--trans-topic"],
         f"--system '{files['A.txt']}': expected NAME=FILE"),
        (["qarla", "-r", r0, "-r", r1, "-s", a, "-s", a, "-m", "EXACT", "--trans-topic"],
         "--system: system name 'A' given twice"),
        (["qarla", "-r", r0, "-r", r1, "-s", a, "-m", "EXACT", "--trans-topic", "--bogus"], "No such option: --bogus"),
    ]
    for args, message in cases:
        code, out, err = run_cli(*args)
        assert (code, out) == (2, ""), args
        assert err.startswith(f"checkpoints: error: {message}"), err
        assert err.count("\n") == 1


def test_one_segment_is_too_few_for_trans_topic(run_cli, test_only_metrics, files, tmp_path) -> None:  # type: ignore[no-untyped-def]
    one = {name: tmp_path / f"one-{name}" for name in ("R0", "R1", "A")}
    for path in one.values():
        path.write_text("a b\n", encoding="utf-8")
    code, _, err = run_cli("qarla", "-r", one["R0"], "-r", one["R1"], "-s", f"A={one['A']}", "-m", "EXACT", "--trans-topic")
    assert code == 2
    assert err == "checkpoints: error: trans-topic mode with two references needs at least two segments\n"


def test_input_errors_exit_1(run_cli, test_only_metrics, files, tmp_path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run_cli(*bed(files, "-s", f"C={files['short.txt']}", "-m", "EXACT"))
    assert code == 1
    assert err == f"checkpoints: error: {files['short.txt']}: 1 lines, expected 2\n"
    missing = tmp_path / "missing.txt"
    code, _, err = run_cli(*bed(files, "-s", f"C={missing}", "-m", "EXACT"))
    assert code == 1
    assert err.startswith("checkpoints: error: ") and str(missing) in err and err.count("\n") == 1


# -- real metrics on TED zh-en (two references: trans-topic) ------------------------------------


@pytest.fixture(scope="module")
def ted_json() -> dict[str, object]:
    from checkpoints.report.qarla_report import qarla_json
    from checkpoints.service.qarla import QarlaRequest, qarla_evaluate

    request = QarlaRequest(
        references=[TED / "ref.txt", TED / "refB.txt"],
        systems=[("NiuTrans", TED / "sys" / "NiuTrans.txt"), ("Online-W", TED / "sys" / "Online-W.txt")],
        metrics=["BLEU", "chrF", "-TER"],
        trans_topic=True,
        optimize=True,
    )
    return json.loads(qarla_json(qarla_evaluate(request)))


def test_ted_zh_en_with_real_metrics(ted_json) -> None:  # type: ignore[no-untyped-def]
    assert ted_json["metrics"] == ["BLEU", "chrF", "-TER"]
    assert set(ted_json["queen"]) == {"NiuTrans", "Online-W"}
    for value in [*ted_json["queen"].values(), ted_json["king"], ted_json["jack"], ted_json["optimal_king"]]:
        assert 0.0 < value < 1.0
    assert set(ted_json["optimal_set"]) <= {"BLEU", "chrF", "-TER"}
    assert ted_json["optimal_king"] >= ted_json["king"] or len(ted_json["optimal_set"]) < 3


def test_ted_zh_en_needs_trans_topic_on_the_command_line(run_cli) -> None:  # type: ignore[no-untyped-def]
    args = ["qarla", "-r", TED / "ref.txt", "-r", TED / "refB.txt", "-s", f"NiuTrans={TED / 'sys' / 'NiuTrans.txt'}", "-m", "BLEU"]
    code, _, err = run_cli(*args)
    assert code == 2 and "at least three --reference FILE, not 2" in err
    code, out, err = run_cli(*args, "--trans-topic", "--tie", "gt", "-f", "json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["jack"] is None  # one system: no pair
    assert 0.0 < document["queen"]["NiuTrans"] < 1.0


# -- --check-references --------------------------------------------------------------------------


def test_check_references_hand_worked(run_cli, test_only_metrics, files) -> None:  # type: ignore[no-untyped-def]
    """Each reference against the two others (|Ω| = 2·2 = 4), systems against the same two.

    R0 out: (R1,R2) are 0 apart in segment 1 and 0 in segment 2, so every peer passes: all 1.
    R1 out: segment 1 pairs (R0,R2) = 0: all pass; segment 2 pairs (R0,R2) = 1: R1 "c e" matches
      neither (0/4), A and B "c d" match both (4/4). R1 0.5, A 1, B 1: both systems above, flagged.
    R2 out: segment 1 pairs (R0,R1) = 1: R2 "a x" 0/4, A "a b" 4/4, B "z" 0/4; segment 2 all pass.
      R2 0.5, A 1, B 0.5: one system of two above, not "most": not flagged.
    """
    code, out, err = run_cli(*bed(files, "-m", "EXACT", "--check-references", "--format", "json"))
    assert (code, err) == (0, "")
    checks = json.loads(out)["reference_check"]
    assert len(checks) == 3 and all(f"R{i}" in check["reference"] for i, check in enumerate(checks))
    assert [(c["queen"], c["systems_above"], c["systems"], c["flagged"]) for c in checks] == [
        (1.0, 0, 2, False), (0.5, 2, 2, True), (0.5, 1, 2, False),
    ]
    assert checks[2]["systems_median"] == 0.75 and checks[2]["systems_queen"] == {"A": 1.0, "B": 0.5}
    code, out, err = run_cli(*bed(files, "-m", "EXACT", "--check-references"))
    assert (code, err) == (0, "")
    assert "reference check" in out and "less human-like than most systems" in out and "2/2" in out
    code, out, _ = run_cli(*bed(files, "-m", "EXACT", "--format", "json"))
    assert "reference_check" not in json.loads(out)


@pytest.fixture
def chrf_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry with chrF alone, so that a family module under construction cannot break this test."""
    from checkpoints.evaluate.metrics import chrf

    monkeypatch.setattr(registry, "_entries", lambda: dict(chrf.METRICS))


def test_ted_zh_en_check_singles_out_ref(chrf_only) -> None:  # type: ignore[no-untyped-def]
    """MQM rates ``ref`` −5.52 against −2.99…−1.65 for the 13 systems and ``refB`` −0.42.

    Under chrF, ``ref`` scored against ``refB`` has a lower QUEEN than every system scored
    against ``refB``; ``refB`` scored against ``ref`` is above the median system.
    """
    from checkpoints.evaluate.meta.qarla import check_references
    from checkpoints.evaluate.metrics.base import MetricOptions
    from checkpoints.io.testsets import InputFormat, load_testbed
    from checkpoints.service.qarla import compute_similarities

    systems = [(path.stem, path) for path in sorted((TED / "sys").glob("*.txt"))]
    testbed = load_testbed(InputFormat.RAW, [TED / "ref.txt", TED / "refB.txt"], systems, None)
    similarities = compute_similarities(testbed, ["chrF"], MetricOptions(), system_pairs=False)
    ref, ref_b = check_references(similarities, trans_topic=True)
    assert len(ref.systems) == 13
    assert ref.flagged and ref.above == 13
    assert not ref_b.flagged and ref_b.queen > ref_b.median
    assert ref.queen == pytest.approx(0.4964, abs=1e-4)
    assert ref_b.queen == pytest.approx(0.5043, abs=1e-4)


@pytest.mark.parametrize("extra", [["--db", "suite.db"], ["--suite", "suite.db"], ["--suite-name", "demo"]])
def test_suite_is_refused_with_the_reason(run_cli, test_only_metrics, files, extra) -> None:  # type: ignore[no-untyped-def]
    # QARLA's x(a, r) scores a candidate against one chosen reference (IQMT manual §3.1); an LC score is
    # always taken against the suite's check-points, so LC metrics are no similarities (service.qarla).
    code, out, err = run_cli(*bed(files, "-m", "EXACT", *extra))
    assert (code, out) == (2, "")
    assert err == ("checkpoints: error: --db: check-point (LC) metrics cannot serve as QARLA similarities: "
                   "QARLA scores a candidate against one chosen reference and references against each other, "
                   "and a check-point score is always taken against the suite's check-points\n")
