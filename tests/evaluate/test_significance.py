"""The shared resampling engine and the multiple-comparison corrections, against hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from checkpoints.errors import UsageError
from checkpoints.evaluate.resample import (
    Method,
    Resampler,
    ResampleSpec,
    paired_test,
    paired_tests,
    percentile_interval,
)
from checkpoints.evaluate.significance import (
    Correction,
    adjust_p_values,
    format_clusters,
    significance_clusters,
)

# -- corrections --------------------------------------------------------------------


def test_holm_by_hand() -> None:
    """Sorted 0.005, 0.01, 0.03, 0.04 × (4, 3, 2, 1) = 0.02, 0.03, 0.06, 0.04 → running max
    0.02, 0.03, 0.06, 0.06, back in input order."""
    assert adjust_p_values([0.01, 0.04, 0.03, 0.005], Correction.HOLM) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one() -> None:
    assert adjust_p_values([0.5, 0.6], Correction.HOLM) == [1.0, 1.0]


def test_benjamini_hochberg_by_hand() -> None:
    """p·m/rank = 0.02, 0.02, 0.04, 0.04 for sorted 0.005, 0.01, 0.03, 0.04; running min from the top."""
    assert adjust_p_values([0.01, 0.04, 0.03, 0.005], Correction.BH) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert adjust_p_values([0.01, 0.02, 0.03, 0.5], Correction.BH) == pytest.approx([0.04, 0.04, 0.04, 0.5])


def test_no_correction_and_empty_family() -> None:
    assert adjust_p_values([0.01, 0.04], Correction.NONE) == [0.01, 0.04]
    assert adjust_p_values([], Correction.HOLM) == []


# -- clusters -----------------------------------------------------------------------


def test_clusters_join_systems_not_different_from_the_cluster_best() -> None:
    scores = {"A": 0.5, "B": 0.4, "C": 0.45, "D": 0.2}
    different = {frozenset(p) for p in [("A", "B"), ("A", "D"), ("C", "D"), ("B", "D")]}
    clusters = significance_clusters(scores, lambda a, b: frozenset((a, b)) in different)
    assert clusters == [["A", "C"], ["B"], ["D"]]
    assert format_clusters(clusters) == "{A, C} > {B} > {D}"


def test_equal_scores_order_by_name() -> None:
    assert significance_clusters({"b": 1.0, "a": 1.0}, lambda a, b: True) == [["a"], ["b"]]


# -- resampling ---------------------------------------------------------------------


def test_percentile_interval_drops_alpha_half_from_each_tail() -> None:
    """Koehn 2004: 1000 sorted values, drop 25 from each end → the 26th and 975th."""
    values = np.arange(1000, 0, -1, dtype=float)
    assert percentile_interval(values) == (26.0, 975.0)
    assert percentile_interval(values, alpha=0.1) == (51.0, 950.0)


def test_bootstrap_resamples_are_full_size_and_seeded() -> None:
    stats = np.arange(1, 8, dtype=float)[:, None]
    resampler = Resampler(7, ResampleSpec(samples=250, seed=5))
    counts = resampler.bootstrap_sums(np.ones((7, 1)))
    assert counts.shape == (250, 1) and np.all(counts == 7)
    first = resampler.bootstrap_sums(stats)
    assert np.array_equal(first, resampler.bootstrap_sums(stats))  # cached draws
    assert np.array_equal(first, Resampler(7, ResampleSpec(samples=250, seed=5)).bootstrap_sums(stats))
    assert not np.array_equal(first, Resampler(7, ResampleSpec(samples=250, seed=6)).bootstrap_sums(stats))


def test_randomization_keeps_the_pooled_sums() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.random((20, 3)), rng.random((20, 3))
    out_a, out_b = Resampler(20, ResampleSpec(Method.AR, samples=50)).swapped_sums(a, b)
    assert np.allclose(out_a + out_b, a.sum(axis=0) + b.sum(axis=0))


def ratio(stats: np.ndarray) -> np.ndarray:
    return stats[..., 0] / stats[..., 1]


def test_identical_systems_have_p_one() -> None:
    stats = np.column_stack([np.arange(10.0), np.full(10, 10.0)])
    for method in Method:
        outcome = paired_test(stats, stats, ratio, Resampler(10, ResampleSpec(method, samples=100)))
        assert (outcome.difference, outcome.p_value, outcome.t) == (0.0, 1.0, 0.0)


def test_precomputed_resamples_give_the_same_outcomes() -> None:
    rng = np.random.default_rng(1)
    a = np.stack([rng.integers(0, 5, (40, 3)), np.full((40, 3), 5)], axis=-1).astype(float)
    b = np.stack([rng.integers(0, 5, (40, 3)), np.full((40, 3), 5)], axis=-1).astype(float)
    resampler = Resampler(40, ResampleSpec(samples=200, seed=9))
    plain = paired_tests(a, b, ratio, resampler)
    cached = paired_tests(
        a, b, ratio, resampler,
        resampled_a=ratio(resampler.bootstrap_sums(a)), resampled_b=ratio(resampler.bootstrap_sums(b)),
    )  # fmt: skip
    assert plain == cached


def test_bad_resampling_requests() -> None:
    with pytest.raises(UsageError, match=r"^samples must be at least 1, not 0$"):
        ResampleSpec(samples=0)
    with pytest.raises(UsageError, match="no items"):
        Resampler(0, ResampleSpec())
