"""Significance clusters of metrics (WMT metrics task), for any meta-evaluation criterion.

Following mt-metrics-eval (``tasks``/``data.ComputeSigMatrix``, ``stats.PermutationSigDiff``,
``AssignRanks``): metrics sorted by decreasing correlation; for each pair
(higher i, lower j), the PERM-BOTH test of Deutsch et al. 2021
(arXiv 2104.00054): both metrics' score vectors are z-scored, each
permutation swaps the two metrics' scores on a random half of the referents,
and ``p = #(C(perm_i) − C(perm_j) ≥ C(i) − C(j)) / permutations``. Ranks:
walking down the sorted list, a metric starts a new cluster when some metric
from the current cluster's first member up to it beats it with ``p ≤ α``.
mt-metrics-eval stops early at multiples of 1000 permutations when p < 0.02
or p > 0.5; that only matters beyond 1000 permutations and is not done here.

The statistic of a batch of metric vectors is vectorised for Pearson,
Spearman and pairwise accuracy and falls back to
:func:`checkpoints.evaluate.meta.correlation.correlate` for the others. Permutation
masks come from :func:`checkpoints.evaluate.meta.pairwise.permutation_signs`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import rankdata

from checkpoints.evaluate.meta.correlation import correlate
from checkpoints.evaluate.meta.criteria import Criterion
from checkpoints.evaluate.meta.pairwise import BLOCK_CELLS, tie_calibration_grouped

BatchStatistic = Callable[[np.ndarray], np.ndarray]


def _row_pearson(xs: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc = xs - xs.mean(axis=1, keepdims=True)
    yc = y - y.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (xc @ yc) / np.sqrt((xc * xc).sum(axis=1) * float(yc @ yc))
    constant = np.all(xs == xs[:, :1], axis=1) | bool(np.all(y == y[0]))
    return np.where(constant, np.nan, np.clip(r, -1.0, 1.0))


def _row_statistic(criterion: Criterion, xs: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The criterion of every row of ``xs`` against ``y``; vectorised where the formula allows."""
    if y.size < 2:
        return np.full(xs.shape[0], np.nan)
    if criterion is Criterion.PEARSON:
        return _row_pearson(xs, y)
    if criterion is Criterion.SPEARMAN:
        return _row_pearson(rankdata(xs, axis=1), rankdata(y))
    if criterion is Criterion.PAIRWISE_ACCURACY and xs.shape[0] * y.size * y.size <= 4 * BLOCK_CELLS:
        i, j = np.triu_indices(y.size, k=1)
        agree = np.sign(xs[:, i] - xs[:, j]) == np.sign(y[i] - y[j])[None, :]
        return agree.mean(axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.array([correlate(criterion, row, y) for row in xs])


def batch_statistic(criterion: Criterion, y: np.ndarray, groups: Sequence[np.ndarray] | None) -> BatchStatistic:
    """``C(X)`` for a batch of metric vectors ``X (k, n)`` against the human ``y``.

    Without groups, the criterion over all referents; with groups (segment
    level by item), the mean of the per-group values that are defined (0 if
    none is, as mt-metrics-eval's ``PermutationSigDiff``), except acc-eq,
    whose ε is shared by the groups and re-optimised for every vector.
    """
    human = np.asarray(y, dtype=np.float64)
    if criterion in (Criterion.SPA, Criterion.PCE):
        raise ValueError(f"{criterion.value} has no significance clusters")

    def pooled(xs: np.ndarray) -> np.ndarray:
        return _row_statistic(criterion, xs, human)

    if groups is None:
        return pooled

    def grouped(xs: np.ndarray) -> np.ndarray:
        if criterion is Criterion.ACC_EQ:
            out = [tie_calibration_grouped([(row[g], human[g]) for g in groups]).value for row in xs]
            return np.nan_to_num(np.array(out, dtype=np.float64))
        values = np.stack([_row_statistic(criterion, xs[:, g], human[g]) for g in groups], axis=1)
        defined = ~np.isnan(values)
        count = defined.sum(axis=1)
        return np.where(count > 0, np.where(defined, values, 0.0).sum(axis=1) / np.maximum(count, 1), 0.0)

    return grouped


def _zscore(values: np.ndarray) -> np.ndarray:
    """scipy.stats.zscore with ddof 0, as ``PermutationSigDiff`` normalises both metrics before mixing them."""
    spread = values.std()
    return (values - values.mean()) / spread if spread > 0 else np.full(values.shape, np.nan)


def permutation_sig_diff(
    statistic: BatchStatistic, better: np.ndarray, worse: np.ndarray, swaps: np.ndarray
) -> tuple[float, float]:
    """p-value that ``better`` correlates better than ``worse``, and the observed difference.

    PERM-BOTH (Deutsch et al. 2021; mt-metrics-eval ``PermutationSigDiff``):
    z-score both, swap them on the referents ``swaps`` marks, count the
    permutations whose difference is at least the observed one.
    """
    a, b = _zscore(np.asarray(better, dtype=np.float64)), _zscore(np.asarray(worse, dtype=np.float64))
    observed = statistic(np.stack([a, b]))
    delta = float(observed[0] - observed[1])
    first = np.where(swaps, b[None, :], a[None, :])
    second = np.where(swaps, a[None, :], b[None, :])
    differences = statistic(first) - statistic(second)
    return float(np.count_nonzero(differences >= delta) / swaps.shape[0]), delta


def assign_ranks(p_values: np.ndarray, alpha: float) -> list[int]:
    """mt-metrics-eval ``AssignRanks``: metric i (sorted best first) opens a new cluster when one of the
    metrics from the current cluster's first up to i − 1 beats it with ``p ≤ alpha``."""
    ranks: list[int] = []
    rank, start = 1, 0
    for i in range(p_values.shape[0]):
        if np.any(p_values[start:i, i] <= alpha):
            rank += 1
            start = i
        ranks.append(rank)
    return ranks


@dataclass(frozen=True, slots=True)
class Clusters:
    """Metrics best first with their value and cluster rank, and ``p_values[higher][lower]``."""

    criterion: Criterion
    ranking: list[tuple[str, float | None, int]]
    p_values: dict[str, dict[str, float]]

    def to_json(self) -> dict[str, object]:
        return {
            "criterion": self.criterion.value,
            "ranking": [{"metric": name, "r": r, "rank": rank} for name, r, rank in self.ranking],
            "p_values": self.p_values,
        }


def significance_clusters(
    criterion: Criterion,
    metric_scores: Mapping[str, np.ndarray],
    human: np.ndarray,
    swaps: np.ndarray,
    alpha: float,
    groups: Sequence[np.ndarray] | None = None,
) -> Clusters:
    """Rank metrics into significance clusters for ``criterion`` (WMT metrics task, see the module docstring)."""
    statistic = batch_statistic(criterion, human, groups)
    names = list(metric_scores)
    values = {name: float(statistic(np.asarray(metric_scores[name], dtype=np.float64)[None, :])[0]) for name in names}
    order = sorted(names, key=lambda name: -values[name] if not math.isnan(values[name]) else math.inf)
    n = len(order)
    matrix = np.ones((n, n))
    p_values: dict[str, dict[str, float]] = {name: {} for name in order}
    for i in range(n):
        for j in range(i + 1, n):
            p, _ = permutation_sig_diff(statistic, metric_scores[order[i]], metric_scores[order[j]], swaps)
            matrix[i, j] = p
            p_values[order[i]][order[j]] = p
    ranks = assign_ranks(matrix, alpha)
    ranking = [(name, None if math.isnan(values[name]) else values[name], rank) for name, rank in zip(order, ranks, strict=True)]
    return Clusters(criterion, ranking, p_values)
