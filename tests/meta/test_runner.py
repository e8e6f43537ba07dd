"""Meta-evaluation runner: referents, aggregation, pooled and grouped correlations, intervals.

Metric values of the test-only metrics (conftest) are worked out by hand in the
comments; the coefficients themselves come from scipy, the independent oracle.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from checkpoints.errors import CheckpointsError, UsageError
from checkpoints.evaluate.meta.correlation import Criterion
from checkpoints.evaluate.meta.intervals import fisher_interval, resample_correlations, summarize
from checkpoints.evaluate.meta.judged import (
    JudgedSet,
    judged_from_assessments,
    judged_from_mqm,
    referents,
)
from checkpoints.evaluate.meta.runner import CIMethod, MetaOptions, run_meta
from checkpoints.evaluate.metrics.base import Granularity, Metric
from checkpoints.evaluate.resample import Resampler, ResampleSpec
from checkpoints.io.assessments import read_assessments
from checkpoints.io.mqm import read_avg_seg_scores, read_mqm

REFERENCE = ("a b c d", "a b c d e", "a b", "a b c")
OUTPUTS = {
    # token counts per segment: A 3 2 4 1 ; B 1 5 2 3 ; C 4 3 1 2
    "A": ("a b c", "a b", "a b c d", "a"),
    "B": ("a", "a b c d e", "a b", "a b c"),
    "C": ("a b c d", "a b c", "a", "a b"),
}
HUMAN = {"A": (-1.0, 0.0, -2.0, -5.0), "B": (-3.0, -1.0, 0.0, None), "C": (0.0, -2.0, -1.0, -1.0)}


@pytest.fixture
def judged() -> JudgedSet:
    return JudgedSet(
        judgments="test",
        documents=("d1", "d1", "d2", "d2"),
        segment_ids=("1", "2", "3", "4"),
        references=(REFERENCE,),
        sources=None,
        outputs=OUTPUTS,
        segment_scores={
            (system, position): score
            for system, scores in HUMAN.items()
            for position, score in enumerate(scores)
            if score is not None
        },
    )


def test_system_level_uses_the_judged_segments(judged: JudgedSet, token_count: Metric) -> None:
    result = run_meta(judged, [token_count], MetaOptions(level=Granularity.SYS))
    # A: metric mean(3,2,4,1) = 2.5, human mean(-1,0,-2,-5) = -2
    # B: segment 4 unrated → metric mean(1,5,2) = 8/3, human mean(-3,-1,0) = -4/3
    # C: metric mean(4,3,1,2) = 2.5, human mean(0,-2,-1,-1) = -1
    x, y = [2.5, 8 / 3, 2.5], [-2.0, -4 / 3, -1.0]
    assert result.n == 3
    got = result.results["TEST-len"]
    assert got[Criterion.PEARSON].r == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-12)
    assert got[Criterion.SPEARMAN].r == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)
    assert got[Criterion.KENDALL].r == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)
    assert got[Criterion.PEARSON].ci == fisher_interval(got[Criterion.PEARSON].r, 3)  # n ≤ 3 → (−1, 1)
    assert got[Criterion.KENDALL].ci is None  # Fisher applies to Pearson only
    assert [u.key for u in referents(judged, Granularity.SYS)] == ["A", "B", "C"]


def test_document_level_keys_and_values(judged: JudgedSet, token_count: Metric) -> None:
    units = referents(judged, Granularity.DOC)
    assert [u.key for u in units] == ["A@@d1", "A@@d2", "B@@d1", "B@@d2", "C@@d1", "C@@d2"]
    assert [u.human for u in units] == pytest.approx([-0.5, -3.5, -2.0, 0.0, -1.0, -1.0])
    assert [u.positions.tolist() for u in units][3] == [2]  # B@@d2: only the rated segment
    result = run_meta(judged, [token_count], MetaOptions(level=Granularity.DOC, criteria=(Criterion.PEARSON,)))
    x = [2.5, 2.5, 3.0, 2.0, 3.5, 1.5]
    y = [-0.5, -3.5, -2.0, 0.0, -1.0, -1.0]
    assert result.n == 6
    assert result.results["TEST-len"][Criterion.PEARSON].r == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-12)


def test_segment_level_pooled_and_grouped(judged: JudgedSet, token_count: Metric) -> None:
    options = MetaOptions(level=Granularity.SEG, criteria=(Criterion.PEARSON, Criterion.KENDALL), ci=CIMethod.NONE)
    result = run_meta(judged, [token_count], options)
    units = referents(judged, Granularity.SEG)
    assert result.n == 11
    assert units[0].key == "A@@d1@@1"
    x = [3, 2, 4, 1, 1, 5, 2, 4, 3, 1, 2]
    y = [-1, 0, -2, -5, -3, -1, 0, 0, -2, -1, -1]
    assert result.results["TEST-len"][Criterion.PEARSON].r == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-12)
    # Grouped by item: per segment, across the systems that were rated on it.
    items = [([3, 1, 4], [-1, -3, 0]), ([2, 5, 3], [0, -1, -2]), ([4, 2, 1], [-2, 0, -1]), ([1, 2], [-5, -1])]
    grouped = result.grouped
    assert grouped is not None and grouped.n == 4
    expected = np.mean([stats.pearsonr(a, b).statistic for a, b in items])
    pearson = grouped.results["TEST-len"][Criterion.PEARSON]
    assert pearson.r == pytest.approx(expected, abs=1e-12)
    assert pearson.items == 4
    kendall = np.mean([stats.kendalltau(a, b).statistic for a, b in items])
    assert grouped.results["TEST-len"][Criterion.KENDALL].r == pytest.approx(kendall, abs=1e-12)


def test_grouped_items_with_constant_human_scores_are_left_out(token_count: Metric) -> None:
    judged = JudgedSet(
        judgments="test",
        documents=("d", "d"),
        segment_ids=("1", "2"),
        references=(("a b", "a b"),),
        sources=None,
        outputs={"A": ("a", "a b"), "B": ("a b c", "a")},
        segment_scores={("A", 0): -1.0, ("B", 0): -1.0, ("A", 1): 0.0, ("B", 1): -2.0},
    )
    result = run_meta(judged, [token_count], MetaOptions(level=Granularity.SEG, criteria=(Criterion.PEARSON,)))
    pearson = result.grouped.results["TEST-len"][Criterion.PEARSON]  # type: ignore[union-attr]
    # Segment 1: humans tie → undefined, left out; segment 2: x = (2, 1), y = (0, −2) → 1.
    assert pearson.items == 1
    assert pearson.r == pytest.approx(1.0)


def test_corpus_aggregation_comes_from_summed_statistics(unigram_hits: Metric) -> None:
    judged = JudgedSet(
        judgments="test",
        documents=("d", "d"),
        segment_ids=("1", "2"),
        references=(("a b c d", "a b c d"),),
        sources=None,
        outputs={"A": ("a x", "a b c d"), "B": ("x y", "a b")},
        segment_scores={("A", 0): 1.0, ("A", 1): 2.0, ("B", 0): 0.0, ("B", 1): 1.0},
    )
    from checkpoints.evaluate.meta.runner import metric_values, segment_statistics

    units = referents(judged, Granularity.SYS)
    values = metric_values(unigram_hits, segment_statistics(judged, unigram_hits), units, Granularity.SYS)
    # A: hits (1 + 4) / tokens (2 + 4) = 5/6, not the segment mean 0.75; B: (0 + 2) / (2 + 2) = 0.5.
    assert values.tolist() == pytest.approx([5 / 6, 0.5])


def test_bootstrap_reports_the_median_and_the_observed_value(judged: JudgedSet, token_count: Metric) -> None:
    options = MetaOptions(level=Granularity.SEG, criteria=(Criterion.PEARSON,), ci=CIMethod.BOOTSTRAP, samples=200, seed=9)
    result = run_meta(judged, [token_count], options)
    pearson = result.results["TEST-len"][Criterion.PEARSON]
    plain = run_meta(judged, [token_count], MetaOptions(level=Granularity.SEG, criteria=(Criterion.PEARSON,)))
    assert pearson.observed == plain.results["TEST-len"][Criterion.PEARSON].r
    x = np.array([3, 2, 4, 1, 1, 5, 2, 4, 3, 1, 2], dtype=float)
    y = np.array([-1, 0, -2, -5, -3, -1, 0, 0, -2, -1, -1], dtype=float)
    samples = resample_correlations({"m": x}, y, [Criterion.PEARSON], Resampler(11, ResampleSpec(samples=200, seed=9)))
    summary = summarize(samples["m"][Criterion.PEARSON], 0.05)
    assert summary is not None
    assert pearson.r == summary.median
    assert pearson.ci == summary.interval
    grouped = result.grouped.results["TEST-len"][Criterion.PEARSON]  # type: ignore[union-attr]
    assert grouped.ci is not None and grouped.observed is not None


def test_paired_bootstrap_matrix(judged: JudgedSet, token_count: Metric, unigram_hits: Metric) -> None:
    options = MetaOptions(level=Granularity.SEG, criteria=(Criterion.PEARSON,), ci=CIMethod.PAIRED_BOOTSTRAP, samples=100)
    result = run_meta(judged, [token_count, unigram_hits], options)
    assert result.paired is not None
    matrix = result.paired[Criterion.PEARSON]
    assert set(matrix) == {"TEST-len", "TEST-hits"}
    forward, backward = matrix["TEST-len"]["TEST-hits"], matrix["TEST-hits"]["TEST-len"]
    assert forward is not None and backward is not None
    assert 0.0 <= forward <= 1.0 and forward + backward <= 1.0 + 1e-12
    document = result.to_json()
    assert set(document["paired"]["pearson"]) == {"TEST-len", "TEST-hits"}  # type: ignore[index]
    assert "paired" in document["grouped"]  # type: ignore[operator]


def test_json_shape(judged: JudgedSet, token_count: Metric) -> None:
    document = run_meta(judged, [token_count], MetaOptions(criteria=(Criterion.PEARSON, Criterion.KENDALL))).to_json()
    assert document["level"] == "sys" and document["n"] == 3
    pearson = document["results"]["TEST-len"]["pearson"]  # type: ignore[index]
    assert set(pearson) == {"r", "ci"} and len(pearson["ci"]) == 2
    assert document["results"]["TEST-len"]["kendall"]["ci"] is None  # type: ignore[index]
    assert document["signature"].startswith("level:sys|criteria:pearson,kendall|ci:fisher")  # type: ignore[union-attr]
    assert "grouped" not in document


def test_undefined_correlation_is_none(token_count: Metric) -> None:
    judged = JudgedSet(
        judgments="test",
        documents=("d",),
        segment_ids=("1",),
        references=(("a",),),
        sources=None,
        outputs={"A": ("a",), "B": ("a b",)},
        segment_scores={("A", 0): -1.0, ("B", 0): -1.0},
    )
    result = run_meta(judged, [token_count], MetaOptions(criteria=(Criterion.PEARSON,)))
    assert result.results["TEST-len"][Criterion.PEARSON].r is None
    assert result.to_json()["results"]["TEST-len"]["pearson"] == {"r": None, "ci": None}  # type: ignore[index]


def test_nothing_to_correlate_is_an_error(token_count: Metric) -> None:
    judged = JudgedSet(
        judgments="test", documents=("d",), segment_ids=("1",), references=(("a",),), sources=None,
        outputs={"A": ("a",)}, segment_scores={},
    )
    with pytest.raises(CheckpointsError, match="no sys-level human score matches a system output"):
        run_meta(judged, [token_count], MetaOptions())


def test_options_validation() -> None:
    with pytest.raises(UsageError, match=r"^alpha must lie strictly between 0 and 1"):
        MetaOptions(alpha=1.0)
    with pytest.raises(UsageError, match=r"^samples must be at least 1, not 0$"):
        MetaOptions(samples=0)


def test_given_system_and_document_scores_cover_all_segments(tmp_path: Path, token_count: Metric) -> None:
    path = tmp_path / "human.csv"
    path.write_text(
        "systemId, documentId, segmentId, score\n"
        "A, , , 0.9\nB, , , 0.1\nC, UNKNOWN_DOC, 1, 0.5\nC, UNKNOWN_DOC, 2, 0.3\nZ, , , 0.0\n",
        encoding="utf-8",
    )
    judged = judged_from_assessments(
        read_assessments(path), [["a b c", "a b"]], {"A": ["a b c", "a b c d"], "B": ["a", "a"], "C": ["a b", "a"]}
    )
    units = referents(judged, Granularity.SYS)
    # A and B: given scores, metric over both segments; C: mean of its segments; Z has no output.
    assert [(u.key, u.human, u.positions.tolist()) for u in units] == [
        ("A", 0.9, [0, 1]), ("B", 0.1, [0, 1]), ("C", pytest.approx(0.4), [0, 1]),
    ]
    assert [u.key for u in referents(judged, Granularity.SEG)] == ["C@@UNKNOWN_DOC@@1", "C@@UNKNOWN_DOC@@2"]


def test_judged_from_mqm(meta_data: Path, token_count: Metric) -> None:
    data = read_mqm(meta_data / "mqm_ted_ende.small.tsv")
    judged = judged_from_mqm(data, "ref")
    assert "ref" not in judged.outputs and len(judged.outputs) == 13
    assert judged.references == (tuple(data.outputs["ref"][seg] for seg in (10, 47, 244)),)
    assert judged.sources == tuple(data.sources[seg] for seg in (10, 47, 244))
    assert judged.segment_scores[("metricsystem3", 0)] == -10.0
    from_file = judged_from_mqm(
        data, "ref", scores=read_avg_seg_scores(meta_data / "mqm_ted_ende.small.avg_seg_scores.tsv", data.systems)
    )
    assert set(from_file.segment_scores) == set(judged.segment_scores)
    for key, value in judged.segment_scores.items():
        assert from_file.segment_scores[key] == pytest.approx(value, abs=1e-9)
    excluded = judged_from_mqm(data, "ref", exclude=["Nemo", "UEdin"])
    assert len(excluded.outputs) == 11
    result = run_meta(judged, [token_count], MetaOptions(level=Granularity.DOC))
    assert result.n == 13 * 2  # documents talk.1 and talk.3


def test_judged_from_mqm_errors(meta_data: Path) -> None:
    data = read_mqm(meta_data / "mqm_ted_zhen.small.tsv")
    with pytest.raises(UsageError, match=r"reference system 'ref-A' is not in .*mqm_ted_zhen\.small\.tsv"):
        judged_from_mqm(data, "ref-A")
    with pytest.raises(UsageError, match=r"^excluded system 'nobody' is not in"):
        judged_from_mqm(data, "ref", exclude=["nobody"])
    zh = judged_from_mqm(data, "ref", exclude=["refB"])
    assert "refB" not in zh.outputs and len(zh.outputs) == 13
    assert not math.isnan(zh.segment_scores[("SMU", 0)])
