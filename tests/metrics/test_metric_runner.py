"""Many metrics × many systems from per-segment statistics; significance through the one resampling engine.

The metrics here are small test-only ones whose values are easy to check by
hand: clipped unigram precision (a corpus-level metric: statistics summed,
then divided) and exact match (a mean-of-segments metric). Oracle values are
worked out in the comments.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from toy_metrics import ExactMatch, UnigramPrecision

from checkpoints.errors import ResourceNotAvailable, UsageError
from checkpoints.evaluate import metric_runner
from checkpoints.evaluate.metric_runner import (
    SignificanceRequest,
    aggregate,
    compare_systems,
    comparison_pairs,
    report_signature,
    run_metrics,
    segment_statistics,
)
from checkpoints.evaluate.metrics import registry
from checkpoints.evaluate.metrics.base import (
    Granularity,
    MeanOfSegments,
    Metric,
    MetricOptions,
    parse_granularity,
)
from checkpoints.evaluate.metrics.registry import MetricEntry
from checkpoints.evaluate.resample import Method, Resampler, ResampleSpec, paired_test
from checkpoints.evaluate.significance import Correction, adjust_p_values
from checkpoints.io import testsets
from checkpoints.io.testsets import SetKind, TextSet


class SourceLength(MeanOfSegments):
    """Records which source a metric receives."""

    name = "SRCLEN"
    description = "source length in words (test metric)"

    def segment_score(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> float:
        return float(len((source or "").split()))


def needs_wordnet(options: MetricOptions) -> Metric:
    raise ResourceNotAvailable("WordNet not found (test)")


@pytest.fixture(autouse=True)
def registered_test_metrics(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = {
        "P1": MetricEntry(UnigramPrecision.description, UnigramPrecision),
        "EXACT": MetricEntry(ExactMatch.description, ExactMatch),
        "SRCLEN": MetricEntry(SourceLength.description, SourceLength),
        "NEEDS-WN": MetricEntry("needs WordNet (test metric)", needs_wordnet),
    }
    monkeypatch.setattr(registry, "_entries", lambda: entries)


DOCS = ("d1", "d1", "d2")
R1 = ("a b c d", "e f", "g h i")
R2 = ("a b c e", "e f g", "g h i")
SYSTEMS = {
    "A": ("a b x", "e f", "g z z z"),
    "B": ("a b c d", "f e", "q"),
    "C": ("a b c d", "e f", "g h i"),
}


def text_set(name: str, kind: SetKind, segments: Sequence[str]) -> TextSet:
    return TextSet(
        name=name,
        kind=kind,
        path=f"{name}.txt",
        doc_ids=DOCS,
        seg_ids=("1", "2", "1"),
        segments=tuple(segments),
        lines=(1, 2, 3),
    )


def make_testbed(references=(("R1", R1),), systems=("A", "B"), source: Sequence[str] | None = None) -> testsets.Testbed:
    return testsets.Testbed(
        doc_ids=DOCS,
        seg_ids=("1", "2", "1"),
        references=tuple(text_set(name, SetKind.REFERENCE, segments) for name, segments in references),
        systems=tuple(text_set(name, SetKind.SYSTEM, SYSTEMS[name]) for name in systems),
        source=None if source is None else text_set("src", SetKind.SOURCE, source),
    )


def test_parse_granularity() -> None:
    assert parse_granularity("all") == (Granularity.SYS, Granularity.DOC, Granularity.SEG)
    assert parse_granularity("doc") == (Granularity.DOC,)
    with pytest.raises(UsageError, match=r"^granularity 'system': choose sys, doc, seg or all$"):
        parse_granularity("system")


def test_corpus_metric_sums_statistics_at_every_level() -> None:
    # A against R1: seg1 "a b x" 2/3, seg2 "e f" 2/2, seg3 "g z z z" 1/4.
    stats = segment_statistics(UnigramPrecision(), make_testbed())["A"]
    assert stats.tolist() == [[2, 3], [2, 2], [1, 4]]
    scores = aggregate(UnigramPrecision(), stats, DOCS)
    assert scores.system == pytest.approx(5 / 9)  # (2+2+1)/(3+2+4), not the mean of 2/3, 1, 1/4
    assert scores.documents == pytest.approx({"d1": 4 / 5, "d2": 1 / 4})
    assert scores.segments == pytest.approx((2 / 3, 1.0, 1 / 4))


def test_mean_metric_averages_segment_scores() -> None:
    # A's exact matches: 0, 1, 0
    scores = aggregate(ExactMatch(), segment_statistics(ExactMatch(), make_testbed())["A"], DOCS)
    assert scores.system == pytest.approx(1 / 3)
    assert scores.documents == pytest.approx({"d1": 0.5, "d2": 0.0})
    assert scores.segments == (0.0, 1.0, 0.0)


def test_documents_need_not_be_contiguous() -> None:
    stats = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    scores = aggregate(UnigramPrecision(), stats, ("x", "y", "x"))
    assert list(scores.documents) == ["x", "y"]
    assert scores.documents == pytest.approx({"x": 6 / 8, "y": 3 / 4})


def test_run_metrics_report() -> None:
    report = run_metrics(make_testbed(), ["P1", "EXACT", "P1"])
    assert report.metrics == ("P1", "EXACT")  # repeated names count once
    assert report.systems == ("A", "B")
    assert report.references == ("R1",)
    assert report.reference_set == "R1"
    assert report.test_set == "R1"
    # B against R1: 4/4, 2/2 ("f e" matches e and f), 0/1 → 6/7; exact: 1, 0, 0
    assert report.scores["B"]["P1"].system == pytest.approx(6 / 7)
    assert report.scores["B"]["P1"].documents == pytest.approx({"d1": 1.0, "d2": 0.0})
    assert report.scores["B"]["EXACT"].system == pytest.approx(1 / 3)
    assert report.aggregations == {"P1": "corpus", "EXACT": "mean"}
    assert report.signatures["P1"] == "nrefs:1|metric:P1|agg:corpus|tok:13a|case:mixed|version:0.1.0"
    assert report.significance is None
    assert report.statistics["P1"]["B"].tolist() == [[4, 4], [2, 2], [0, 1]]


def test_options_reach_the_metrics() -> None:
    report = run_metrics(make_testbed(), ["P1"], MetricOptions(tokenize="none", case="ci"))
    assert report.signatures["P1"] == "nrefs:1|metric:P1|agg:corpus|tok:none|case:lc|version:0.1.0"


def test_include_refs_scores_each_reference_against_the_others() -> None:
    bed = make_testbed(references=(("R1", R1), ("R2", R2)))
    report = run_metrics(bed, ["P1"], include_refs=True)
    assert report.systems == ("A", "B", "R1", "R2")
    # R1 against R2: "a b c d" 3/4, "e f" 2/2, "g h i" 3/3 → 8/9
    assert report.scores["R1"]["P1"].system == pytest.approx(8 / 9)
    # R2 against R1: "a b c e" 3/4, "e f g" 2/3, "g h i" 3/3 → 8/10
    assert report.scores["R2"]["P1"].system == pytest.approx(0.8)
    # systems still see both references: A 5/9 as before (x, z are in neither)
    assert report.scores["A"]["P1"].system == pytest.approx(5 / 9)
    assert report.signatures["P1"].startswith("nrefs:2|")


def test_include_refs_needs_two_references() -> None:
    with pytest.raises(UsageError, match=r"^scoring the references needs at least two of them"):
        run_metrics(make_testbed(), ["P1"], include_refs=True)


def test_a_missing_source_is_none_not_a_reference() -> None:
    """Asiya gives source-reading metrics the first reference instead; a confidence measure of one
    translation against another measures nothing it claims to, so metrics see that there is none."""
    without = run_metrics(make_testbed(references=(("R1", R1), ("R2", R2))), ["SRCLEN"])
    assert without.scores["A"]["SRCLEN"].segments == (0.0, 0.0, 0.0)
    given = run_metrics(make_testbed(source=("one", "one two", "one two three four five")), ["SRCLEN"])
    assert given.scores["A"]["SRCLEN"].segments == (1.0, 2.0, 5.0)


def test_unknown_metric_fails_before_scoring() -> None:
    with pytest.raises(UsageError, match=r"unknown metric 'p1' \(did you mean P1\?\)"):
        run_metrics(make_testbed(), ["EXACT", "p1"])


def test_unavailable_metric_of_a_set_is_skipped() -> None:
    report = run_metrics(make_testbed(), ["P1", "NEEDS-WN"], optional={"NEEDS-WN"})
    assert report.metrics == ("P1",)
    assert report.skipped == {"NEEDS-WN": "WordNet not found (test)"}


def test_skip_reason_does_not_repeat_the_metric_name() -> None:
    # "METEOR-sy skipped: METEOR-sy: no synonym matching ..." named the metric twice.
    def unavailable(options: MetricOptions) -> Metric:
        raise UsageError("NEEDS-DE: no synonym matching for target language 'de'")

    registry._entries()["NEEDS-DE"] = MetricEntry("test metric", unavailable)
    report = run_metrics(make_testbed(), ["P1", "NEEDS-DE"], optional={"NEEDS-DE"})
    assert report.skipped == {"NEEDS-DE": "no synonym matching for target language 'de'"}
    assert metric_runner.skip_reason("METEOR-sy", ResourceNotAvailable("METEOR-sy needs WordNet: gone")) == (
        "needs WordNet: gone"
    )


def test_metrics_of_one_run_share_one_cache() -> None:
    seen = []

    class Spy(UnigramPrecision):
        def corpus_stats(self, hypotheses, references, sources=None):  # type: ignore[no-untyped-def]
            seen.append(self.cache)
            return super().corpus_stats(hypotheses, references, sources)

    registry._entries()["SPY1"] = MetricEntry("test metric", Spy)
    registry._entries()["SPY2"] = MetricEntry("test metric", Spy)
    run_metrics(make_testbed(), ["SPY1", "SPY2"])
    assert len(seen) == 4 and all(cache is seen[0] for cache in seen)  # 2 metrics × 2 systems
    run_metrics(make_testbed(), ["SPY1"])
    assert seen[-1] is not seen[0]  # a new run, a new cache: nothing outlives its run


def test_unavailable_metric_asked_for_by_name_fails() -> None:
    with pytest.raises(ResourceNotAvailable, match=r"WordNet not found \(test\)"):
        run_metrics(make_testbed(), ["P1", "NEEDS-WN"])


def test_nothing_available() -> None:
    with pytest.raises(UsageError, match=r"none of the requested metrics is available \(WordNet not found \(test\)\)"):
        run_metrics(make_testbed(), ["NEEDS-WN"], optional={"NEEDS-WN"})


def test_no_metric() -> None:
    with pytest.raises(UsageError, match=r"no metric requested"):
        run_metrics(make_testbed(), [])


def test_track_wraps_the_metric_loop() -> None:
    seen = []

    def track(items):
        seen.append(list(items))
        return items

    run_metrics(make_testbed(), ["P1", "EXACT"], track=track)
    assert seen == [["P1", "EXACT"]]


# --- significance ------------------------------------------------------------------------------


def test_comparison_pairs() -> None:
    assert comparison_pairs(["A", "B", "C"], "B", False) == [("B", "A"), ("B", "C")]
    assert comparison_pairs(["A", "B", "C"], None, True) == [("A", "B"), ("A", "C"), ("B", "C")]
    assert comparison_pairs(["A", "B", "C"], "C", True) == [("C", "A"), ("C", "B"), ("A", "B")]


def test_unknown_baseline() -> None:
    with pytest.raises(UsageError, match=r"unknown baseline 'Z' \(systems: A, B\)$"):
        run_metrics(make_testbed(), ["P1"], significance=SignificanceRequest(baseline="Z"))


def test_significance_needs_two_systems() -> None:
    with pytest.raises(UsageError, match=r"significance needs at least two systems"):
        run_metrics(make_testbed(systems=("A",)), ["P1"], significance=SignificanceRequest(baseline="A"))


def test_significance_request_checks() -> None:
    with pytest.raises(UsageError, match=r"^a significance test needs a baseline system or all pairs$"):
        SignificanceRequest()
    with pytest.raises(UsageError, match=r"^alpha must be between 0 and 1, not 1.5$"):
        SignificanceRequest(baseline="A", alpha=1.5)
    with pytest.raises(UsageError, match=r"^samples must be at least 1, not 0$"):
        ResampleSpec(samples=0)


@pytest.mark.parametrize("method", [Method.BOOTSTRAP, Method.AR])
def test_batched_comparisons_equal_single_paired_tests(method: Method) -> None:
    """One code path: the report's numbers are exactly those of resample.paired_test on each pair."""
    bed = make_testbed(systems=("A", "B", "C"))
    spec = ResampleSpec(method=method, samples=200, seed=3)
    report = run_metrics(bed, ["P1", "EXACT"], significance=SignificanceRequest(baseline="A", spec=spec))
    assert [(c.metric, c.baseline, c.system) for c in report.significance.comparisons] == [
        ("P1", "A", "B"), ("P1", "A", "C"), ("EXACT", "A", "B"), ("EXACT", "A", "C"),
    ]
    for comparison in report.significance.comparisons:
        metric = UnigramPrecision() if comparison.metric == "P1" else ExactMatch()
        stats = report.statistics[comparison.metric]
        single = paired_test(stats["A"], stats[comparison.system], metric.score, Resampler(3, spec))
        assert comparison.outcome == single


def test_observed_differences_and_holm_correction() -> None:
    bed = make_testbed(systems=("A", "B", "C"))
    request = SignificanceRequest(baseline="A", spec=ResampleSpec(samples=300, seed=11))
    report = run_metrics(bed, ["P1"], significance=request)
    first, second = report.significance.comparisons
    # P1: A 5/9, B 6/7, C 9/9 against R1
    assert first.outcome.score_a == pytest.approx(5 / 9)
    assert first.outcome.difference == pytest.approx(6 / 7 - 5 / 9)
    assert second.outcome.difference == pytest.approx(1 - 5 / 9)
    raw = [first.outcome.p_value, second.outcome.p_value]
    assert [first.p_adjusted, second.p_adjusted] == adjust_p_values(raw, Correction.HOLM)
    assert first.significant == (first.p_adjusted <= 0.05)
    lo, hi = first.outcome.interval
    assert lo <= first.outcome.difference <= hi


def test_correction_none_keeps_raw_p_values() -> None:
    request = SignificanceRequest(all_pairs=True, spec=ResampleSpec(samples=100, seed=1), correction=Correction.NONE)
    report = run_metrics(make_testbed(systems=("A", "B", "C")), ["P1"], significance=request)
    assert [(c.baseline, c.system) for c in report.significance.comparisons] == [("A", "B"), ("A", "C"), ("B", "C")]
    assert all(c.p_adjusted == c.outcome.p_value for c in report.significance.comparisons)


def test_identical_systems_do_not_differ() -> None:
    stats = {"P1": {"X": np.array([[1.0, 2.0], [3.0, 3.0]]), "Y": np.array([[1.0, 2.0], [3.0, 3.0]])}}
    result = compare_systems({"P1": UnigramPrecision()}, stats, ["X", "Y"], SignificanceRequest(baseline="X"))
    (comparison,) = result.comparisons
    assert comparison.outcome.difference == 0.0
    assert comparison.outcome.p_value == 1.0
    assert comparison.outcome.interval == (0.0, 0.0)
    assert not comparison.significant


def test_same_seed_same_results_other_seed_other_resamples() -> None:
    bed = make_testbed(systems=("A", "B"))

    def run(seed: int):
        request = SignificanceRequest(baseline="A", spec=ResampleSpec(samples=200, seed=seed))
        return run_metrics(bed, ["P1"], significance=request).significance.comparisons[0].outcome

    assert run(5) == run(5)
    assert run(5).interval != run(6).interval or run(5).p_value != run(6).p_value


def test_signatures_carry_the_resampling() -> None:
    request = SignificanceRequest(baseline="A", spec=ResampleSpec(Method.AR, samples=100, seed=9), correction=Correction.BH, alpha=0.01)
    report = run_metrics(make_testbed(), ["P1"], significance=request)
    assert report.signatures["P1"] == (
        "nrefs:1|metric:P1|agg:corpus|tok:13a|case:mixed|resample:ar|samples:100|seed:9|correction:bh|alpha:0.01|version:0.1.0"
    )
    assert report.significance.signature() == "resample:ar|samples:100|seed:9|correction:bh|alpha:0.01"
    assert report_signature(UnigramPrecision(), 3) == "nrefs:3|metric:P1|agg:corpus|tok:13a|case:mixed|version:0.1.0"


def test_references_stay_out_of_significance() -> None:
    bed = make_testbed(references=(("R1", R1), ("R2", R2)), systems=("A", "B"))
    request = SignificanceRequest(all_pairs=True, spec=ResampleSpec(samples=50))
    report = run_metrics(bed, ["P1"], include_refs=True, significance=request)
    assert [(c.baseline, c.system) for c in report.significance.comparisons] == [("A", "B")]


def test_module_exports_one_engine() -> None:
    """The runner resamples with checkpoints.evaluate.resample, not a copy of it."""
    from checkpoints.evaluate import resample

    assert metric_runner.Resampler is resample.Resampler
    assert metric_runner.paired_tests is resample.paired_tests
