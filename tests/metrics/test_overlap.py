"""Ol, Pl, Rl, Fl: Asiya's lexical overlap family.

Sources: asiya-reference.md §4.1, §4.4, §5.1 (definitions, lower-casing,
max over references, mean of segment maxima) and §16.2 (derived vectors);
iqmt-koehn-reference.md B.2.1 / D.1 #1 (precision, recall, F) and D.1 #15
(clipped overlap).
"""

from __future__ import annotations

import numpy as np
import pytest

from checkpoints.errors import CorpusMismatch, UsageError
from checkpoints.evaluate.metrics.base import Aggregation, MetricOptions
from checkpoints.evaluate.metrics.overlap import LexicalOverlap, overlap_counts
from checkpoints.evaluate.metrics.registry import get_metric

CAT_HYP = "the cat sat on the mat"
CAT_REF = "the cat is on the mat"


def score(name: str, hypothesis: str, references: list[str], **options: object) -> float:
    metric = get_metric(name, MetricOptions(**options))  # type: ignore[arg-type]
    return metric.scalar(metric.segment_stats(hypothesis, references))


def test_asiya_derived_vector() -> None:
    """§16.2: hits 5 (the×2, cat, on, mat), union 7 → Ol = 5/7 = 0.71428571; Pl = Rl = Fl = 5/6."""
    from collections import Counter

    assert overlap_counts(Counter(CAT_HYP.split()), Counter(CAT_REF.split())) == (5, 6, 6, 7)
    assert score("Ol", CAT_HYP, [CAT_REF]) == 5 / 7
    assert round(score("Ol", CAT_HYP, [CAT_REF]), 8) == 0.71428571
    assert score("Pl", CAT_HYP, [CAT_REF]) == 5 / 6
    assert score("Rl", CAT_HYP, [CAT_REF]) == 5 / 6
    assert score("Fl", CAT_HYP, [CAT_REF]) == pytest.approx(5 / 6, abs=1e-15)


@pytest.mark.parametrize(("hypothesis", "precision", "recall", "f_measure"), [
    ("Israeli officials responsibility of airport safety", 3 / 6, 3 / 7, 6 / 13),
    ("airport security Israeli officials are responsible", 6 / 6, 6 / 7, 12 / 13),
])
def test_koehn_precision_recall_f(hypothesis: str, precision: float, recall: float, f_measure: float) -> None:
    """Koehn eqs. 8.2–8.5 (D.1 #1, the derived bag-of-words values)."""
    reference = "Israeli officials are responsible for airport security"
    assert score("Pl", hypothesis, [reference]) == precision
    assert score("Rl", hypothesis, [reference]) == recall
    assert score("Fl", hypothesis, [reference]) == pytest.approx(f_measure, abs=1e-15)


def test_overlap_clips_repeated_tokens() -> None:
    """D.1 #15: {the:3} vs {the:1, cat:1} → min/max multiset Jaccard 1/4 (the literal set version would say 3/4)."""
    assert score("Ol", "the the the", ["the cat"]) == 0.25


def test_items_are_always_lower_cased() -> None:
    """Asiya sets LC = 1 for these measures whatever the case option."""
    assert score("Ol", "The CAT", ["the cat"], case="cs") == 1.0
    assert get_metric("Ol").signature()["case"] == "lc"


def test_multiple_references_and_system_mean() -> None:
    """Segment = max over references (Overlap::computeMultiOl); system = mean of the segment maxima."""
    metric = get_metric("Ol")
    assert metric.aggregation is Aggregation.MEAN
    stats = metric.corpus_stats(["a b", "a b c d"], [["a b", "x"], ["y", "a b"]])
    assert stats[:, 0].tolist() == [1.0, 0.5]  # segment 2: second reference, 2 hits of 4
    assert metric.system_score(stats) == 0.75
    assert score("Fl", "a b c", ["a", "a b c d e f"]) == pytest.approx(max(2 * 1 * (1 / 3) / (4 / 3), 2 * 1 * 0.5 / 1.5), abs=1e-15)


def test_empty_segments_score_zero() -> None:
    """Safe division: an empty side gives 0, both empty give 0."""
    for name in ("Ol", "Pl", "Rl", "Fl"):
        assert score(name, "", ["a"]) == 0.0
        assert score(name, "", [""]) == 0.0


def test_tokenizer_option() -> None:
    """13a splits the period off "mat."; with tokenize=none the tokens differ."""
    assert score("Ol", "the mat.", ["the mat ."]) == 1.0
    assert score("Ol", "the mat.", ["the mat ."], tokenize="none") == 1 / 4


def test_score_is_vectorised() -> None:
    metric = get_metric("Pl")
    stats = metric.corpus_stats([CAT_HYP, "a b"], [[CAT_REF, "a c"]])
    # Resampled sums (samples, k): both segments, the first twice, the second alone.
    sums = np.stack([stats.sum(axis=0), 2 * stats[0], stats[1]])
    np.testing.assert_array_equal(metric.score(sums), [(5 / 6 + 1 / 2) / 2, 5 / 6, 1 / 2])


def test_bad_input() -> None:
    with pytest.raises(UsageError, match="unknown overlap measure 'Xl'"):
        LexicalOverlap("Xl")
    with pytest.raises(UsageError, match="unknown case option 'mixed'"):
        get_metric("Ol", MetricOptions(case="mixed"))
    with pytest.raises(CorpusMismatch, match="reference set 1 has 0 segments but the system output has 1"):
        get_metric("Rl").corpus_stats(["a"], [[]])
