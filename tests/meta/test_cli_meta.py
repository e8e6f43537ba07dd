"""``checkpoints meta`` end to end: JSON shape (docs/architecture.md and the command's --help), table, one-line errors, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from checkpoints.cli import main
from checkpoints.io.mqm import read_mqm


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    out, err = capsys.readouterr()
    return int(caught.value.code or 0), out, err


@pytest.mark.usefixtures("test_metrics")
def test_mqm_system_level_json(meta_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tsv = meta_data / "mqm_ted_ende.small.tsv"
    code, out, err = run(
        ["meta", "--mqm", str(tsv), "--reference-system", "ref", "-m", "TEST-len", "-g", "sys", "--format", "json"],
        capsys,
    )
    assert code == 0, err
    document = json.loads(out)
    assert document["level"] == "sys"
    assert document["n"] == 13
    result = document["results"]["TEST-len"]
    assert set(result) == {"pearson", "spearman", "kendall"}
    assert set(result["pearson"]) == {"r", "ci"} and len(result["pearson"]["ci"]) == 2
    assert result["kendall"]["ci"] is None
    # Independent recomputation: mean token count and mean MQM score over the three segments.
    data = read_mqm(tsv)
    scores = data.segment_scores()
    systems = [name for name in data.systems if name != "ref"]
    x = [np.mean([len(data.outputs[s][seg].split()) for seg in data.segments]) for s in systems]
    y = [np.mean([scores[(s, seg)] for seg in data.segments]) for s in systems]
    assert result["pearson"]["r"] == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-12)
    assert result["kendall"]["r"] == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)
    # The points the correlations were computed on, for the report's scatter plot.
    points = document["points"]
    assert list(points["human"]) == systems
    assert [points["human"][s] for s in systems] == pytest.approx(y, abs=1e-12)
    assert [points["metrics"]["TEST-len"][s] for s in systems] == pytest.approx(x, abs=1e-12)


@pytest.mark.usefixtures("test_metrics")
def test_mqm_scores_file_segment_level_and_exclusion(meta_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        [
            "meta", "--mqm", str(meta_data / "mqm_ted_zhen.small.tsv"),
            "--mqm-scores", str(meta_data / "mqm_ted_zhen.small.avg_seg_scores.tsv"),
            "--reference-system", "ref", "--exclude-system", "refB",
            "-m", "TEST-len,TEST-hits", "-g", "seg", "--criteria", "pearson,kendall-wmt",
            "--ci", "paired-bootstrap", "--samples", "50", "--format", "json",
        ],
        capsys,
    )
    assert code == 0, err
    document = json.loads(out)
    assert document["level"] == "seg" and document["n"] == 13 * 3
    assert document["grouped"]["by"] == "item" and document["grouped"]["n"] == 3
    assert set(document["results"]) == {"TEST-len", "TEST-hits"}
    assert set(document["results"]["TEST-len"]) == {"pearson", "kendall-wmt"}
    assert document["samples"] == 50
    assert set(document["paired"]["kendall-wmt"]["TEST-len"]) == {"TEST-hits"}
    assert "TEST-hits" in document["signatures"]
    assert "points" not in document  # segment level: thousands of points, no scatter


@pytest.mark.usefixtures("test_metrics")
def test_table_output(meta_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["meta", "--mqm", str(meta_data / "mqm_ted_ende.small.tsv"), "--reference-system", "ref",
         "-m", "TEST-len", "-g", "seg"],
        capsys,
    )
    assert code == 0, err
    assert "seg level, n = 39, mqm, ci = fisher" in out
    assert "grouped by item (3 segments)" in out
    assert "TEST-len" in out and "signature: level:seg" in out


@pytest.mark.usefixtures("test_metrics")
def test_assessments_raw_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ref.txt").write_text("a b c d\na b c\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("a b c\na\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("a\na b c d e\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("a b\na b\n", encoding="utf-8")
    (tmp_path / "human.csv").write_text("# systemId, score\na, 3\nb, 1\nc, 2\n", encoding="utf-8")
    code, out, err = run(
        ["meta", "--reference", str(tmp_path / "ref.txt"), "--system", f"a={tmp_path / 'a.txt'}",
         "--system", f"b={tmp_path / 'b.txt'}", "--system", f"c={tmp_path / 'c.txt'}",
         "--assessments", str(tmp_path / "human.csv"), "-m", "TEST-len", "--criteria", "pearson", "--format", "json"],
        capsys,
    )
    assert code == 0, err
    document = json.loads(out)
    # token means: a 2, b 3, c 2 against 3, 1, 2
    expected = stats.pearsonr([2.0, 3.0, 2.0], [3.0, 1.0, 2.0]).statistic
    assert document["n"] == 3
    assert document["results"]["TEST-len"]["pearson"]["r"] == pytest.approx(expected, abs=1e-12)


def test_mqm_with_bleu_equals_sacrebleu(meta_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sacrebleu

    tsv = meta_data / "mqm_ted_ende.small.tsv"
    code, out, err = run(
        ["meta", "--mqm", str(tsv), "--reference-system", "ref", "-m", "BLEU", "--criteria", "pearson",
         "--format", "json"],
        capsys,
    )
    assert code == 0, err
    data = read_mqm(tsv)
    scores = data.segment_scores()
    systems = [name for name in data.systems if name != "ref"]
    references = [[data.outputs["ref"][seg] for seg in data.segments]]
    bleu = [sacrebleu.corpus_bleu([data.outputs[s][seg] for seg in data.segments], references).score for s in systems]
    human = [np.mean([scores[(s, seg)] for seg in data.segments]) for s in systems]
    # Pearson is scale-invariant, so BLEU in [0, 1] or [0, 100] gives the same r.
    assert json.loads(out)["results"]["BLEU"]["pearson"]["r"] == pytest.approx(
        stats.pearsonr(bleu, human).statistic, abs=1e-6
    )


@pytest.mark.usefixtures("test_metrics")
@pytest.mark.parametrize(
    ("arguments", "code", "message"),
    [
        (["-m", "TEST-len"], 2, "checkpoints: error: give human judgments: --mqm FILE or --assessments FILE"),
        (["--mqm", "{ende}", "-m", "TEST-len"], 2, "checkpoints: error: --mqm needs --reference-system NAME"),
        (["--mqm", "{ende}", "--reference-system", "human", "-m", "TEST-len"], 2,
         "checkpoints: error: reference system 'human' is not in"),
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "NOPE"], 2, "checkpoints: error: unknown metric 'NOPE'"),
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "TEST-len", "--criteria", "tau"], 2,
         "checkpoints: error: unknown criterion 'tau'"),
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "TEST-len", "--alpha", "2"], 2,
         "checkpoints: error: --alpha must lie strictly between 0 and 1, not 2.0"),
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "TEST-len", "--format", "xml"], 2,
         "checkpoints: error: --format 'xml': choose table or json"),
        (["--mqm", "{ende}", "--assessments", "{ende}", "--reference-system", "ref", "-m", "TEST-len"], 2,
         "checkpoints: error: --mqm holds systems, source and references"),
        (["--assessments", "{ende}", "--reference-system", "ref", "-m", "TEST-len"], 2,
         "checkpoints: error: --mqm-scores, --reference-system and --exclude-system go with --mqm"),
        (["--assessments", "{ende}", "-m", "TEST-len"], 2,
         "checkpoints: error: --assessments needs at least one --reference FILE"),
        (["--mqm", "{bad}", "--reference-system", "ref", "-m", "TEST-len"], 1,
         "checkpoints: error: {bad}:3: unknown severity 'Fatal'"),
        (["--mqm", "{ende}", "--mqm-scores", "{bad}", "--reference-system", "ref", "-m", "TEST-len"], 1,
         "checkpoints: error: {bad}:1: expected 'system score seg_id', found 9 fields"),
        # Enum-valued options: one line like every other option, not click's four-line box.
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "TEST-len", "-g", "bogus"], 2,
         "checkpoints: error: --granularity 'bogus': choose sys, doc or seg\n"),
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "TEST-len", "--ci", "jackknife"], 2,
         "checkpoints: error: --ci 'jackknife': choose none, fisher, bootstrap or paired-bootstrap\n"),
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "TEST-len", "--samples", "0"], 2,
         "checkpoints: error: --samples must be at least 1, not 0\n"),
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "TEST-len", "--exclude-system", "nobody"], 2,
         "checkpoints: error: excluded system 'nobody' is not in"),
        # MQM files do not say their language: METEOR and ROUGE need it named, never assumed.
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "BLEU,METEOR-st,ROUGE-L"], 2,
         "checkpoints: error: METEOR-st, ROUGE-L depend on the target language: give --tgt-lang LANG\n"),
        (["--mqm", "{ende}", "--reference-system", "ref", "-m", "TEST-len", "--output", "{missing}/out.json"], 1,
         "checkpoints: error: {missing}/out.json: folder {missing} does not exist\n"),
    ],
    ids=["no-judgments", "no-reference-system", "unknown-reference", "unknown-metric", "criterion", "alpha",
         "format", "mqm-and-assessments", "mqm-options-without-mqm", "assessments-without-files", "bad-tsv",
         "bad-scores", "granularity", "ci", "samples", "exclude-system", "target-lang", "output-folder"],
)
def test_errors_are_one_line(
    meta_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], code: int, message: str
) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text(
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
        "A\td\t1\t1\tr\ts\tt\tNo-error\tNo-error\n"
        "A\td\t1\t2\tr\ts\tt\tStyle/Awkward\tFatal\n",
        encoding="utf-8",
    )
    paths = {"ende": str(meta_data / "mqm_ted_ende.small.tsv"), "bad": str(bad), "missing": str(tmp_path / "missing")}
    argv = ["meta", *(argument.format(**paths) for argument in arguments)]
    got_code, out, err = run(argv, capsys)
    assert got_code == code
    assert out == ""
    assert err.startswith(message.format(**paths))
    assert err.count("\n") == 1


@pytest.mark.usefixtures("test_metrics")
def test_mismatched_line_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ref.txt").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("a\n", encoding="utf-8")
    (tmp_path / "human.csv").write_text("a, 1\n", encoding="utf-8")
    code, _out, err = run(
        ["meta", "--reference", str(tmp_path / "ref.txt"), "--system", f"a={tmp_path / 'a.txt'}",
         "--assessments", str(tmp_path / "human.csv"), "-m", "TEST-len"],
        capsys,
    )
    assert code == 1
    assert _out == ""
    assert err == f"checkpoints: error: {tmp_path / 'a.txt'} (system a) has 1 lines but {tmp_path / 'ref.txt'} has 2\n"


@pytest.mark.usefixtures("test_metrics")
def test_output_file(meta_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "meta.json"
    code, out, err = run(
        ["meta", "--mqm", str(meta_data / "mqm_ted_ende.small.tsv"), "--reference-system", "ref", "-m", "TEST-len",
         "--format", "json", "--output", str(target)],
        capsys,
    )
    assert (code, out) == (0, ""), err
    assert json.loads(target.read_text(encoding="utf-8"))["n"] == 13


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["meta", "--help"], capsys)
    assert code == 0
    assert "Examples" in out and "--reference-system ref" in out and "--mqm-scores" in out


def test_table_values_never_show_a_negative_zero() -> None:
    from checkpoints.report.meta_report import format_value

    assert format_value(-0.00001, (-0.00002, 0.5)) == "0.0000 [0.0000, 0.5000]"
    assert format_value(-0.25, None) == "-0.2500"
    assert format_value(None, None) == "undefined"
