"""The WMT / mt-metrics-eval pairwise statistics: pairwise accuracy, acc-eq, SPA and PCE.

Definitions follow google-research/mt-metrics-eval (``stats.py``,
``tau_optimization.py``, ``pce.py``, ``tasks.py``); the facts are restated
here, the code is this project's own and vectorised with numpy:

* **Pairwise accuracy** (Kocmi et al. 2021, "To ship or not to ship";
  mt-metrics-eval ``stats.Agreement``): over all unordered pairs of referents,
  the share where ``sign(metric_i − metric_j) == sign(human_i − human_j)``. A
  pair tied on both sides agrees; a pair tied on one side only disagrees.
* **acc-eq**, pairwise accuracy with tie calibration (Deutsch et al. 2023,
  "Ties Matter", arXiv 2305.14324; mt-metrics-eval ``KendallWithTiesOpt`` with
  variant ``acc23``): a metric difference ``|m_i − m_j| ≤ ε`` counts as a
  metric tie, and the statistic is ``(concordant + tied on both sides) / all
  pairs``. ε is chosen to maximise it among ``0`` and every pairwise metric
  difference ``|m_i − m_j|``; where several give the maximum the smallest is
  taken (numpy ``nanargmax`` over thresholds in increasing order, as
  ``tau_optimization``). Grouped by item, one ε is shared by every item and the
  quantity maximised is the mean of the per-item accuracies (items with at
  least one pair). mt-metrics-eval's ``Correlation.KendallWithTiesOpt`` samples
  10% of the pairs by default (``sample_rate=0.1``) to save time; this module
  always uses every pair (``sample_rate=1``), so it is deterministic.
* **SPA**, soft pairwise accuracy (Thompson et al. 2024, "Improving
  statistical significance in human evaluation of automatic metrics via soft
  pairwise accuracy"; mt-metrics-eval ``pce.py``): for every pair of systems
  i < j, the one-sided p-value that system i is better than system j, from a
  paired permutation test on segment scores (system score = *sum* of segment
  scores; each permutation swaps the two systems' scores on a random half of
  the segments; ``p = #(null delta ≥ observed delta) / permutations``), once
  from human and once from metric segment scores, with the same permutations.
  ``SPA = 1 − mean over pairs |p_human − p_metric|``.
* **PCE**, pairwise confidence error (the same paper; mt-metrics-eval
  ``pce.compute_one_minus_pce``, whose docstring defines it): the mean over
  pairs i < j of ``|p_human − p_metric|`` from the same p-values, so
  ``PCE = 1 − SPA``; an error, lower is better (0: the metric is exactly as
  confident as the humans about every pair; 1: certain the other way round
  every time). mt-metrics-eval itself reports ``1 − PCE`` under the name
  ``stats.PairwiseConfidenceError`` (task ``corr_fcn='pce'``), which is SPA.

Randomness: permutation masks come from ``numpy.random.default_rng(seed)``
(:func:`permutation_signs`), the project's seeding convention, so a seed gives
the same masks for humans and every metric. mt-metrics-eval uses seed 4 and
``rng.random`` rounded for SPA and the global ``np.random`` for
PermutationSigDiff: p-values agree in definition, not draw for draw.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

BLOCK_CELLS = 4_000_000
"""Pair differences are built in row blocks of about this many cells, bounding memory at O(n) per block."""

__all__ = [
    "SoftPairwiseAccuracy",
    "TieCalibration",
    "acc_eq",
    "pairwise_accuracy",
    "pairwise_confidence_error",
    "pairwise_p_values",
    "permutation_signs",
    "soft_pairwise_accuracy",
    "tie_calibration",
    "tie_calibration_grouped",
]


def _vectors(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(x, dtype=np.float64).ravel()
    b = np.asarray(y, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"statistic of vectors of different lengths ({a.size} and {b.size})")
    return a, b


def _pair_blocks(x: np.ndarray, y: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(x_i − x_j, y_i − y_j)`` for all pairs i < j, in blocks of rows, so memory stays bounded."""
    n = x.size
    rows = max(1, BLOCK_CELLS // max(n, 1))
    for start in range(0, n - 1, rows):
        stop = min(start + rows, n - 1)
        keep = np.arange(start, n)[None, :] > np.arange(start, stop)[:, None]
        dx = (x[start:stop, None] - x[None, start:])[keep]
        dy = (y[start:stop, None] - y[None, start:])[keep]
        yield dx, dy


def pairwise_accuracy(x: np.ndarray, y: np.ndarray) -> float:
    """Share of pairs where metric ``x`` and human ``y`` differences have the same sign (ties included).

    mt-metrics-eval ``stats.Agreement`` (Kocmi et al. 2021). ``nan`` for fewer than 2 referents.
    """
    a, b = _vectors(x, y)
    if a.size < 2:
        return math.nan
    agree = sum(int(np.count_nonzero(np.sign(dx) == np.sign(dy))) for dx, dy in _pair_blocks(a, b))
    return agree / (a.size * (a.size - 1) // 2)


@dataclass(frozen=True, slots=True)
class TieCalibration:
    """acc-eq and the tie threshold ε that maximises it."""

    value: float
    epsilon: float
    item_values: tuple[float, ...] = ()
    """Grouped by item: each item's accuracy at the shared ε."""


def _best_threshold(distance: np.ndarray, change: np.ndarray, base: float, tolerance: float) -> tuple[float, float]:
    """Maximise ``base + Σ_{distance ≤ ε} change`` over ε ∈ {0} ∪ distances; the smallest ε on ties.

    At a candidate ε every pair with ``|Δmetric| ≤ ε`` becomes a metric tie, so
    its term switches from "agrees" to "humans tied" (``change`` = the
    difference). Sorting once and taking the cumulative sum at the end of each
    run of equal distances gives the statistic at every candidate in O(P log P).
    """
    order = np.argsort(distance, kind="stable")
    sorted_distance = distance[order]
    running = np.cumsum(change[order])
    ends = np.flatnonzero(np.concatenate((sorted_distance[1:] != sorted_distance[:-1], [True]))) if distance.size else []
    thresholds = np.concatenate(([0.0], sorted_distance[ends]))
    values = base + np.concatenate(([0.0], running[ends]))
    best = int(np.flatnonzero(values >= values.max() - tolerance)[0])
    return float(values[best]), float(thresholds[best])


def tie_calibration(x: np.ndarray, y: np.ndarray) -> TieCalibration:
    """acc-eq of metric ``x`` against human ``y`` over all pairs, with its ε; ``nan`` for n < 2.

    Counts are integers here, so the maximum and the smallest ε reaching it are exact.
    Pooled segment level has millions of pairs (13 systems × 529 segments: 23.6
    million), so only the pairs whose term changes when the metric calls them
    tied are kept: *gains* (the humans tied, the metric did not) and *losses*
    (both agreed on a strict order). The statistic at ε is the agreements plus
    the gains minus the losses at distance ≤ ε; it rises only at a gain's
    distance, so the smallest maximising ε is 0 or one of those, and two sorts
    and two ``searchsorted`` evaluate every candidate.
    """
    a, b = _vectors(x, y)
    if a.size < 2:
        return TieCalibration(math.nan, math.nan)
    gains: list[np.ndarray] = []
    losses: list[np.ndarray] = []
    agreements = 0
    for dx, dy in _pair_blocks(a, b):
        agrees = np.sign(dx) == np.sign(dy)
        human_tie = dy == 0
        distance = np.abs(dx)
        gains.append(distance[human_tie & ~agrees])
        losses.append(distance[agrees & ~human_tie])
        agreements += int(np.count_nonzero(agrees))
    gain = np.sort(np.concatenate(gains))
    loss = np.sort(np.concatenate(losses))
    candidates = np.concatenate(([0.0], gain))
    values = (
        agreements
        + np.searchsorted(gain, candidates, side="right")
        - np.searchsorted(loss, candidates, side="right")
    )
    best = int(np.argmax(values))  # the first maximum: candidates are ascending
    return TieCalibration(int(values[best]) / (a.size * (a.size - 1) // 2), float(candidates[best]))


def tie_calibration_grouped(groups: Sequence[tuple[np.ndarray, np.ndarray]]) -> TieCalibration:
    """acc-eq grouped by item: one ε for all items, maximising the mean per-item accuracy.

    Items with fewer than two referents have no pair and are left out, as in
    ``tau_optimization``. Each pair weighs ``1 / (items · pairs of its item)``;
    values within 1e-12 of the maximum count as the maximum (float sums of
    those weights are not exact), the smallest such ε is taken.
    """
    by_size: dict[int, list[int]] = {}
    vectors = [_vectors(x, y) for x, y in groups]
    for index, (a, _) in enumerate(vectors):
        if a.size >= 2:
            by_size.setdefault(a.size, []).append(index)
    if not by_size:
        return TieCalibration(math.nan, math.nan)
    items = sum(len(members) for members in by_size.values())
    # Items of one size are stacked, so each size's pairs are one array operation: (items, pairs).
    blocks = []
    for size, members in by_size.items():
        first, second = np.triu_indices(size, 1)
        x = np.stack([vectors[i][0] for i in members])
        y = np.stack([vectors[i][1] for i in members])
        dx, dy = x[:, first] - x[:, second], y[:, first] - y[:, second]
        blocks.append((members, np.abs(dx), np.sign(dx) == np.sign(dy), dy == 0, 1.0 / (items * first.size)))
    distance = np.concatenate([d.ravel() for _, d, _, _, _ in blocks])
    agrees = np.concatenate([a.ravel() for _, _, a, _, _ in blocks])
    human_tie = np.concatenate([t.ravel() for _, _, _, t, _ in blocks])
    weight = np.concatenate([np.full(d.size, w) for _, d, _, _, w in blocks])
    change = weight * (human_tie.astype(np.float64) - agrees.astype(np.float64))
    _, epsilon = _best_threshold(distance, change, float(weight[agrees].sum()), 1e-12)
    per_item = np.empty(len(vectors))
    for members, d, agree, tied, _ in blocks:
        per_item[members] = np.mean(np.where(d <= epsilon, tied, agree), axis=1)
    kept = tuple(float(per_item[i]) for i in sorted(i for members in by_size.values() for i in members))
    return TieCalibration(float(np.mean(kept)), epsilon, kept)


def acc_eq(x: np.ndarray, y: np.ndarray) -> float:
    """The acc-eq value alone (for the generic correlation table and the bootstrap)."""
    return tie_calibration(x, y).value


def permutation_signs(samples: int, items: int, seed: int) -> np.ndarray:
    """``(samples, items)`` booleans: where each permutation swaps the two sides, from ``default_rng(seed)``."""
    return np.random.default_rng(seed).integers(0, 2, size=(samples, items)).astype(bool)


def pairwise_p_values(segment_scores: np.ndarray, swaps: np.ndarray) -> np.ndarray:
    """One-sided permutation p-values ``P[i, j]`` (i < j) that system i beats system j; ``nan`` elsewhere.

    mt-metrics-eval ``pce.compute_pairwise_p_values``: with ``s = ±1`` per
    segment (−1 where swapped), the permuted delta of a pair is ``s · (a − b)``,
    so one matrix product ``s @ scores.T`` serves every pair. Deltas equal up
    to 1e-9 of the score scale count as equal (so a permutation that swaps
    nothing always reaches the observed delta, whatever the summation order).
    """
    scores = np.asarray(segment_scores, dtype=np.float64)
    signs = np.where(swaps, -1.0, 1.0)
    partial = signs @ scores.T  # (permutations, systems)
    totals = scores.sum(axis=1)
    tolerance = 1e-9 * max(1.0, float(np.abs(scores).sum(axis=1).max(initial=0.0)))
    null = partial[:, :, None] - partial[:, None, :]
    observed = totals[:, None] - totals[None, :]
    counts = (null >= observed[None] - tolerance).sum(axis=0)
    p = counts / swaps.shape[0]
    upper = np.triu(np.ones(p.shape, dtype=bool), k=1)
    return np.where(upper, p, np.nan)


def pairwise_confidence_error(human_p: np.ndarray, metric_p: np.ndarray) -> float:
    """PCE: mean over system pairs i < j of ``|human_p[i, j] − metric_p[i, j]|``; ``nan`` for fewer than two systems.

    mt-metrics-eval ``pce.compute_one_minus_pce`` (which returns 1 − this):
    the upper triangles of the two :func:`pairwise_p_values` matrices.
    """
    upper = np.triu_indices(human_p.shape[0], k=1)
    return float(np.mean(np.abs(human_p - metric_p)[upper])) if upper[0].size else math.nan


@dataclass(frozen=True, slots=True)
class SoftPairwiseAccuracy:
    """SPA (``value``) and PCE (``pce``, ``= 1 − value``) of one metric, and the p-values both come from."""

    value: float
    human_p: np.ndarray
    metric_p: np.ndarray
    pce: float


def soft_pairwise_accuracy(human: np.ndarray, metric: np.ndarray, swaps: np.ndarray) -> SoftPairwiseAccuracy:
    """SPA = 1 − PCE = 1 − mean over system pairs of ``|p_human − p_metric|`` (Thompson et al. 2024, ``pce.py``).

    ``human`` and ``metric`` are ``(systems, segments)`` segment scores on the
    same segments; ``swaps`` the shared permutation masks. One pair of
    p-value matrices gives both statistics. ``nan`` for fewer than two systems.
    """
    human_p = pairwise_p_values(human, swaps)
    metric_p = pairwise_p_values(metric, swaps)
    pce = pairwise_confidence_error(human_p, metric_p)
    return SoftPairwiseAccuracy(1.0 - pce, human_p, metric_p, pce)
