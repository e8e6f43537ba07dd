"""Report writers: Asiya XML (manual Table 2, test vector TV-1), mmatrix, smatrix, NIST, JSON, CSV.

TV-1 (asiya-reference §16.1): BLEU of system05 against reference01, two
documents, five segments, scores printed with Asiya's 8 decimals; segment
numbers are absolute over the set (document 2 holds segments 3-5).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest

from checkpoints.errors import InputError, UsageError
from checkpoints.evaluate.metric_runner import (
    MetricComparison,
    MetricReport,
    Scores,
    SignificanceReport,
    SignificanceRequest,
)
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.evaluate.resample import Method, PairedOutcome, ResampleSpec
from checkpoints.evaluate.significance import Correction
from checkpoints.report.asiya_xml import (
    AsiyaDocument,
    AsiyaScoreSet,
    asiya_sets,
    read_asiya_xml,
    write_asiya_set,
)
from checkpoints.report.formats import OutputFormat, asiya_number
from checkpoints.report.metric_data import CSV_COLUMNS
from checkpoints.report.metric_formats import render
from checkpoints.report.metric_text import render_mmatrix, render_nist, render_smatrix

DATA = Path(__file__).parent.parent / "data" / "metrics" / "formats"
DOC1, DOC2 = "AFP_ARB.20060206.0155", "AFP_ARB.20060207.0030"

TV1 = AsiyaScoreSet(
    metric="BLEU",
    hypothesis="system05",
    reference="reference01",
    score=0.40442589,
    documents=(
        AsiyaDocument(DOC1, 1, 0.29500965, ((1, 0.22033597), (2, 0.31347640))),
        AsiyaDocument(DOC2, 2, 0.46204650, ((3, 0.15106877), (4, 0.56761755), (5, 0.35930885))),
    ),
)

SIGNATURES = {
    "BLEU": "nrefs:1|metric:BLEU|agg:corpus|tok:13a|case:mixed|version:0.1.0",
    "-TER": "nrefs:1|metric:-TER|agg:corpus|tok:13a|case:mixed|version:0.1.0",
}


def tv1_report(significance: SignificanceReport | None = None) -> MetricReport:
    """TV-1's numbers as a report, plus a second system and metric to fill the matrices."""
    return MetricReport(
        metrics=("BLEU", "-TER"),
        systems=("system05", "system07"),
        references=("reference01",),
        reference_set="reference01",
        test_set="sample",
        doc_ids=(DOC1, DOC1, DOC2, DOC2, DOC2),
        seg_ids=("1", "2", "1", "2", "3"),
        scores={
            "system05": {
                "BLEU": Scores(0.40442589, {DOC1: 0.29500965, DOC2: 0.46204650}, (0.22033597, 0.31347640, 0.15106877, 0.56761755, 0.35930885)),
                "-TER": Scores(-0.5, {DOC1: -0.25, DOC2: -0.75}, (-0.2, -0.3, -0.5, -1.0, -0.75)),
            },
            "system07": {
                "BLEU": Scores(0.25, {DOC1: 0.125, DOC2: 0.375}, (0.1, 0.15, 0.2, 0.5, 0.4)),
                "-TER": Scores(-0.625, {DOC1: -0.5, DOC2: -0.75}, (-0.5, -0.5, -0.75, -0.5, -1.0)),
            },
        },
        signatures=SIGNATURES,
        aggregations={"BLEU": "corpus", "-TER": "corpus"},
        significance=significance,
    )


def significance_fixture() -> SignificanceReport:
    request = SignificanceRequest(
        baseline="system05", spec=ResampleSpec(Method.BOOTSTRAP, samples=1000, seed=7), correction=Correction.HOLM
    )
    comparisons = (
        MetricComparison("BLEU", "system05", "system07", PairedOutcome(0.40442589, 0.25, -0.15442589, (-0.3, -0.01), -2.5, 0.012), 0.012, True),
        MetricComparison("-TER", "system05", "system07", PairedOutcome(-0.5, -0.625, -0.125, (-0.4, 0.1), -1.0, 0.3), 0.3, False),
    )
    return SignificanceReport(request=request, comparisons=comparisons)


# --- Asiya XML -----------------------------------------------------------------------


def test_tv1_reads_with_the_exact_numbers() -> None:
    (score_set,) = read_asiya_xml(DATA / "tv1-bleu.xml")
    assert score_set == TV1
    assert score_set.n_segments == 5


def test_tv1_writes_back_byte_for_byte() -> None:
    assert write_asiya_set(TV1) == (DATA / "tv1-bleu.xml").read_text(encoding="utf-8")


def test_report_to_asiya_sets_numbers_segments_over_the_whole_set() -> None:
    sets = asiya_sets(tv1_report())
    assert [(s.hypothesis, s.metric) for s in sets] == [
        ("system05", "BLEU"), ("system05", "-TER"), ("system07", "BLEU"), ("system07", "-TER"),
    ]
    assert dataclasses.replace(sets[0], signature=None) == TV1
    assert sets[0].signature == SIGNATURES["BLEU"]


def test_included_reference_is_scored_against_the_others() -> None:
    """With --include-refs a reference is a hypothesis; its <SET ref> names the other references."""
    report = dataclasses.replace(
        tv1_report(), references=("reference01", "system07"), reference_set="reference01_system07"
    )
    refs = {(s.hypothesis, s.metric): s.reference for s in asiya_sets(report)}
    assert refs[("system05", "BLEU")] == "reference01_system07"
    assert refs[("system07", "BLEU")] == "reference01"


def test_asiya_report_round_trip_with_significance(tmp_path: Path) -> None:
    path = tmp_path / "report.xml"
    path.write_text(render(tv1_report(significance_fixture()), OutputFormat.ASIYA_XML, [Granularity.SYS]), encoding="utf-8")
    sets = read_asiya_xml(path)
    assert next(dataclasses.replace(s, signature=None) for s in sets) == TV1
    assert sets[3].score == -0.625
    assert sets[3].documents[1].segments == ((3, -0.75), (4, -0.5), (5, -1.0))
    text = path.read_text(encoding="utf-8")
    assert '<COMPARISON metric="BLEU" baseline="system05" system="system07" baseline_score="0.40442589" score="0.25000000" ' \
           'difference="-0.15442589" ci_low="-0.30000000" ci_high="-0.01000000" p_value="0.012000" p_adjusted="0.012000" ' \
           'significant="yes"/>' in text
    assert 'signature="resample:bootstrap|samples:1000|seed:7|correction:holm|alpha:0.05"' in text


def test_manual_table2_as_printed_is_not_well_formed(tmp_path: Path) -> None:
    """The manual closes <SEG> with </S> (asiya-reference §17, erratum 11): reported with its line."""
    text = (DATA / "tv1-bleu.xml").read_text(encoding="utf-8").replace("</SEG>", "</S>")
    path = tmp_path / "table2.xml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=r"table2\.xml:5: not well-formed XML: .*SEG"):
        read_asiya_xml(path)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('n_segments="5"', 'n_segments="6"', r":3: n_segments=6 but 5 <SEG> elements$"),
        ('n_docs="2"', 'n_docs="3"', r":3: n_docs=3 but 2 <DOC> elements$"),
        ('<DOC id="AFP_ARB.20060207.0030" n="2" n_segments="3"', '<DOC id="AFP_ARB.20060207.0030" n="2" n_segments="2"', r":8: n_segments=2 but 3 <SEG> elements$"),
        ('<SEG n="4">0.56761755</SEG>', '<SEG n="4">high</SEG>', r":10: <SEG> segment score 'high' is not a number$"),
        ('<SEG n="4">', '<SEG>', r":10: <SEG> without a n attribute$"),
        (' hyp="system05"', "", r":3: <SET> without a hyp attribute$"),
        ('n="2" n_segments="3"', 'n="two" n_segments="3"', r":8: <DOC> n='two' is not an integer$"),
        ('score="0.40442589"', 'score=""', r":3: <SET> score '' is not a number$"),
    ],
    ids=["set-segments", "set-docs", "doc-segments", "seg-score", "seg-n", "set-hyp", "doc-n", "set-score"],
)
def test_asiya_xml_reader_errors(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = (DATA / "tv1-bleu.xml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bad.xml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_asiya_xml(path)


def test_asiya_xml_wrong_root(tmp_path: Path) -> None:
    path = tmp_path / "other.xml"
    path.write_text("<?xml version='1.0'?>\n<scores/>\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"other\.xml:2: root element <scores>, expected <SET> or <ASIYA_REPORT>$"):
        read_asiya_xml(path)


# --- text matrices ---------------------------------------------------------------------

TITLE = "# {g}-level scores; test set sample: 5 segments in 2 documents; references: reference01\n"


def test_mmatrix_sys() -> None:
    assert render_mmatrix(tv1_report(), Granularity.SYS) == TITLE.format(g="sys") + (
        "SYSTEM          BLEU         -TER\n"
        "system05  0.40442589  -0.50000000\n"
        "system07  0.25000000  -0.62500000\n"
    )


def test_negative_zero_prints_as_zero() -> None:
    # -TER of a perfect output is -0.0; "-0.00000000" read as a score below zero.
    assert [asiya_number(value) for value in (-0.0, -1e-12, 0.0, -0.5, -6e-9)] == [
        "0.00000000", "0.00000000", "0.00000000", "-0.50000000", "-0.00000001",
    ]
    report = tv1_report()
    report.scores["system05"]["-TER"] = Scores(-0.0, {DOC1: -0.0, DOC2: -1e-12}, (-0.0,) * 5)
    assert "system05  0.40442589   0.00000000" in render_mmatrix(report, Granularity.SYS)
    assert "-0.00000000" not in render(report, OutputFormat.NIST, [Granularity.SYS, Granularity.DOC, Granularity.SEG])
    assert '"-TER": 0.0' in render(report, OutputFormat.JSON, [Granularity.SYS])
    assert "-0.0," not in render(report, OutputFormat.CSV, [Granularity.SEG])


def test_mmatrix_doc_and_seg() -> None:
    assert render_mmatrix(tv1_report(), Granularity.DOC).splitlines()[1:4] == [
        "SYSTEM    DOCUMENT                     BLEU         -TER",
        "system05  AFP_ARB.20060206.0155  0.29500965  -0.25000000",
        "system05  AFP_ARB.20060207.0030  0.46204650  -0.75000000",
    ]
    seg = render_mmatrix(tv1_report(), Granularity.SEG).splitlines()
    assert len(seg) == 1 + 1 + 10
    assert seg[4] == "system05  AFP_ARB.20060207.0030  1        0.15106877  -0.50000000"


def test_smatrix_sys_and_doc() -> None:
    assert render_smatrix(tv1_report(), Granularity.SYS) == TITLE.format(g="sys") + (
        "METRIC     system05     system07\n"
        "BLEU     0.40442589   0.25000000\n"
        "-TER    -0.50000000  -0.62500000\n"
    )
    assert render_smatrix(tv1_report(), Granularity.DOC).splitlines()[2] == (
        "BLEU    AFP_ARB.20060206.0155   0.29500965   0.12500000"
    )


def test_nist_lines() -> None:
    sys_lines = render_nist(tv1_report(), Granularity.SYS).splitlines()
    assert sys_lines == [
        "BLEU\tsample\tsystem05\t0.40442589",
        "BLEU\tsample\tsystem07\t0.25000000",
        "-TER\tsample\tsystem05\t-0.50000000",
        "-TER\tsample\tsystem07\t-0.62500000",
    ]
    assert render_nist(tv1_report(), Granularity.DOC).splitlines()[1] == "BLEU\tsample\tsystem05\tAFP_ARB.20060207.0030\t0.46204650"
    seg_lines = render_nist(tv1_report(), Granularity.SEG).splitlines()
    assert len(seg_lines) == 2 * 2 * 5
    assert seg_lines[2] == "BLEU\tsample\tsystem05\tAFP_ARB.20060207.0030\t1\t0.15106877"


def test_text_formats_end_with_signatures_and_significance() -> None:
    text = render(tv1_report(significance_fixture()), OutputFormat.MMATRIX, [Granularity.SYS])
    comments = [line for line in text.splitlines() if line.startswith("#")][1:]
    assert comments[:3] == [
        "# signatures",
        "#   BLEU  nrefs:1|metric:BLEU|agg:corpus|tok:13a|case:mixed|version:0.1.0",
        "#   -TER  nrefs:1|metric:-TER|agg:corpus|tok:13a|case:mixed|version:0.1.0",
    ]
    assert comments[3] == (
        "# significance: paired bootstrap resampling, 1000 samples, seed 7; 95% intervals of the difference; "
        "Holm's correction over the comparisons of each metric; significant when the adjusted p-value <= 0.05"
    )
    assert comments[6].split() == [
        "#", "BLEU", "system05", "system07", "0.40442589", "0.25000000", "-0.15442589", "-0.30000000", "-0.01000000",
        "0.0120", "0.0120", "yes",
    ]
    nist = render(tv1_report(significance_fixture()), OutputFormat.NIST, [Granularity.SYS])
    assert all(line.count("\t") == 3 for line in nist.splitlines() if line and not line.startswith("#"))
    assert "#   BLEU  nrefs:1|metric:BLEU" in nist


def test_all_granularities_follow_each_other() -> None:
    text = render(tv1_report(), OutputFormat.MMATRIX, [Granularity.SYS, Granularity.DOC, Granularity.SEG])
    titles = [line for line in text.splitlines() if line.endswith("references: reference01")]
    assert [title.split("-level")[0] for title in titles] == ["# sys", "# doc", "# seg"]


def test_no_granularity_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        render(tv1_report(), OutputFormat.JSON, [])


# --- JSON ---------------------------------------------------------------------------------


def test_json_sys_has_the_documented_shape() -> None:
    payload = json.loads(render(tv1_report(), OutputFormat.JSON, [Granularity.SYS]))
    assert payload["granularity"] == "sys"
    assert payload["metrics"] == ["BLEU", "-TER"]
    assert payload["scores"] == {
        "system05": {"BLEU": 0.40442589, "-TER": -0.5},
        "system07": {"BLEU": 0.25, "-TER": -0.625},
    }
    assert payload["signature"] == SIGNATURES
    assert payload["aggregation"] == {"BLEU": "corpus", "-TER": "corpus"}
    assert "significance" not in payload


def test_json_doc_and_seg() -> None:
    doc = json.loads(render(tv1_report(), OutputFormat.JSON, [Granularity.DOC]))
    assert doc["scores"]["system05"]["BLEU"] == {DOC1: 0.29500965, DOC2: 0.46204650}
    seg = json.loads(render(tv1_report(), OutputFormat.JSON, [Granularity.SEG]))
    assert seg["scores"]["system07"]["BLEU"] == [0.1, 0.15, 0.2, 0.5, 0.4]
    assert seg["segments"][2] == {"doc": DOC2, "seg": "1"}


def test_json_undefined_scores_are_null() -> None:
    report = tv1_report()
    report.scores["system07"]["BLEU"] = Scores(float("nan"), {DOC1: float("nan"), DOC2: 0.5}, (float("nan"), 0.1, 0.2, 0.3, 0.4))
    payload = json.loads(render(report, OutputFormat.JSON, [Granularity.SYS]))
    assert payload["scores"]["system07"]["BLEU"] is None
    seg = json.loads(render(report, OutputFormat.JSON, [Granularity.SEG]))
    assert seg["scores"]["system07"]["BLEU"][:2] == [None, 0.1]
    doc = json.loads(render(report, OutputFormat.JSON, [Granularity.DOC]))
    assert doc["scores"]["system07"]["BLEU"] == {DOC1: None, DOC2: 0.5}


def test_json_all_is_a_list_of_three() -> None:
    payload = json.loads(render(tv1_report(), OutputFormat.JSON, [Granularity.SYS, Granularity.DOC, Granularity.SEG]))
    assert [item["granularity"] for item in payload] == ["sys", "doc", "seg"]


def test_json_significance() -> None:
    payload = json.loads(render(tv1_report(significance_fixture()), OutputFormat.JSON, [Granularity.SYS]))
    significance = payload["significance"]
    assert {key: significance[key] for key in ("baseline", "method", "samples", "seed", "alpha", "correction")} == {
        "baseline": "system05", "method": "bootstrap", "samples": 1000, "seed": 7, "alpha": 0.05, "correction": "holm",
    }
    assert significance["comparisons"][0] == {
        "metric": "BLEU",
        "baseline": "system05",
        "system": "system07",
        "score": 0.25,
        "baseline_score": 0.40442589,
        "difference": -0.15442589,
        "interval": [-0.3, -0.01],
        "t": -2.5,
        "p_value": 0.012,
        "p_adjusted": 0.012,
        "significant": True,
    }


# --- CSV ----------------------------------------------------------------------------------


def test_csv_rows() -> None:
    text = render(tv1_report(significance_fixture()), OutputFormat.CSV, [Granularity.SYS, Granularity.SEG])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [(r["level"], r["metric"], r["signature"]) for r in rows[:2]] == [
        ("signature", "BLEU", SIGNATURES["BLEU"]),
        ("signature", "-TER", SIGNATURES["-TER"]),
    ]
    sys_rows = [r for r in rows if r["level"] == "sys"]
    assert [(r["system"], r["metric"], float(r["score"])) for r in sys_rows] == [
        ("system05", "BLEU", 0.40442589), ("system05", "-TER", -0.5), ("system07", "BLEU", 0.25), ("system07", "-TER", -0.625),
    ]
    seg_rows = [r for r in rows if r["level"] == "seg"]
    assert len(seg_rows) == 2 * 2 * 5
    assert (seg_rows[3]["document"], seg_rows[3]["segment"], float(seg_rows[3]["score"])) == (DOC2, "2", 0.56761755)
    comparison = next(r for r in rows if r["level"] == "significance")
    assert {key: comparison[key] for key in ("system", "baseline", "metric", "difference", "ci_low", "ci_high", "p_adjusted", "significant")} == {
        "system": "system07", "baseline": "system05", "metric": "BLEU", "difference": "-0.15442589",
        "ci_low": "-0.3", "ci_high": "-0.01", "p_adjusted": "0.012", "significant": "yes",
    }
