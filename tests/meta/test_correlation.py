"""Correlation coefficients: oracle values from the references named in each test."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.correlation import (
    Criterion,
    asiya_ranks,
    correlate,
    kendall,
    kendall_wmt,
    parse_criteria,
    pearson,
    spearman,
    spearman_asiya,
)

# iqmt-koehn-reference B.3: IQMT Table 10 BLEU-3 against Table 12 QUEEN.
IQMT_X = [0.50, 0.56, 0.66, 0.66]
IQMT_Y = [0.31, 0.39, 0.45, 0.46]


def test_pearson_koehn_b3_vector() -> None:
    assert pearson(IQMT_X, IQMT_Y) == pytest.approx(0.982350, abs=5e-7)


def test_spearman_average_ranks_c8_vector() -> None:
    # iqmt-koehn-reference C.8: with ties, Pearson on average ranks gives 0.948683.
    assert spearman(IQMT_X, IQMT_Y) == pytest.approx(0.948683, abs=5e-7)


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [([1, 2, 3, 4], [1, 3, 2, 4], 0.8), ([1, 1, 2], [1, 2, 3], 1.0)],
    ids=["no-ties", "tie-later-index-ranks-higher"],
)
def test_spearman_asiya_derived_vectors(x: list[float], y: list[float], expected: float) -> None:
    # asiya-reference §16.2 (Asiya Spearman without tie averaging).
    assert spearman_asiya(x, y) == pytest.approx(expected, abs=1e-12)


def test_spearman_asiya_differs_from_average_ranks_on_ties() -> None:
    # §16.2: the textbook average-rank Spearman of ([1,1,2],[1,2,3]) is 0.8660.
    assert spearman([1, 1, 2], [1, 2, 3]) == pytest.approx(0.8660254, abs=1e-7)


def test_asiya_ranks_descending_with_index_tie_break() -> None:
    assert asiya_ranks([1, 1, 2]).tolist() == [3.0, 2.0, 1.0]
    assert asiya_ranks([5, 7, 5, 5]).tolist() == [4.0, 1.0, 3.0, 2.0]


def test_spearman_asiya_degenerate_sizes() -> None:
    assert spearman_asiya([3.0], [1.0]) == 0.0  # Asiya: n = 1 → 0
    assert math.isnan(spearman_asiya([], []))


# Hand-worked example (pairs i<j of five items):
#   x (metric) = .1 .4 .4 .8 .3 ; y (human) = 1 2 3 3 0
#   concordant: (0,1) (0,2) (0,3) (1,3) (1,4) (2,4) (3,4) = 7
#   discordant: (0,4) = 1 ; metric tie, human not: (1,2) = 1 ; human tie: (2,3), left out
WMT_X = [0.1, 0.4, 0.4, 0.8, 0.3]
WMT_Y = [1, 2, 3, 3, 0]


def test_kendall_wmt_hand_worked_metric_ties_penalized() -> None:
    assert kendall_wmt(WMT_X, WMT_Y) == pytest.approx(5 / 9, abs=1e-12)  # (7 − 1 − 1) / 9


def test_kendall_wmt_hand_worked_metric_ties_ignored() -> None:
    assert kendall_wmt(WMT_X, WMT_Y, penalize_metric_ties=False) == pytest.approx(6 / 8, abs=1e-12)


def test_kendall_tau_b_hand_worked_and_equal_to_scipy() -> None:
    # tau-b = (C − D) / sqrt((n0 − n1)(n0 − n2)) = 6 / sqrt(9 · 9)
    assert kendall(WMT_X, WMT_Y) == pytest.approx(2 / 3, abs=1e-12)
    assert kendall(WMT_X, WMT_Y) == stats.kendalltau(WMT_X, WMT_Y, variant="b").statistic


def _brute_wmt(x: list[int], y: list[int], penalize: bool) -> float:
    concordant = discordant = metric_ties = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        if y[i] == y[j]:
            continue
        sign = (x[i] - x[j]) * (y[i] - y[j])
        if sign > 0:
            concordant += 1
        elif sign < 0:
            discordant += 1
        else:
            metric_ties += 1
    if penalize:
        total = concordant + discordant + metric_ties
        return (concordant - discordant - metric_ties) / total if total else math.nan
    total = concordant + discordant
    return (concordant - discordant) / total if total else math.nan


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=2, max_size=12),
    st.booleans(),
)
def test_kendall_wmt_equals_pair_counting(pairs: list[tuple[int, int]], penalize: bool) -> None:
    x = [p[0] for p in pairs]
    y = [p[1] for p in pairs]
    expected = _brute_wmt(x, y, penalize)
    got = kendall_wmt(x, y, penalize_metric_ties=penalize)
    assert (math.isnan(expected) and math.isnan(got)) or got == pytest.approx(expected, abs=1e-12)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(-5, 5), st.floats(-5, 5)), min_size=3, max_size=20))
def test_scipy_coefficients_are_scipy(pairs: list[tuple[float, float]]) -> None:
    x = np.array([p[0] for p in pairs])
    y = np.array([p[1] for p in pairs])
    if np.all(x == x[0]) or np.all(y == y[0]):
        return
    assert kendall(x, y) == stats.kendalltau(x, y, variant="b").statistic
    assert spearman(x, y) == stats.spearmanr(x, y).statistic


@pytest.mark.parametrize("criterion", [Criterion.PEARSON, Criterion.SPEARMAN, Criterion.KENDALL])
def test_undefined_is_nan(criterion: Criterion) -> None:
    assert math.isnan(correlate(criterion, [1, 2, 3], [2, 2, 2]))
    assert math.isnan(correlate(criterion, [1], [2]))


def test_kendall_wmt_all_human_ties_is_nan_and_constant_metric_is_minus_one() -> None:
    assert math.isnan(kendall_wmt([1, 2, 3], [5, 5, 5]))
    assert kendall_wmt([1, 1, 1], [1, 2, 3]) == -1.0


def test_length_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="different lengths"):
        pearson([1, 2], [1, 2, 3])


def test_parse_criteria() -> None:
    assert parse_criteria("kendall, pearson,kendall") == (Criterion.KENDALL, Criterion.PEARSON)
    with pytest.raises(UsageError, match="unknown criterion 'tau'"):
        parse_criteria("pearson,tau")
    with pytest.raises(UsageError, match=r"^criteria ' , ' name no criterion$"):
        parse_criteria(" , ")
