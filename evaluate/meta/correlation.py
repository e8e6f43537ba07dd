"""Correlation coefficients between metric scores and human judgments.

The textbook coefficients come from scipy (Pearson, Spearman with average
ranks, Kendall tau-b); this module adds only what scipy lacks:

* :func:`kendall_wmt` — WMT's pairwise "Kendall tau-like" coefficient
  (Callison-Burch et al. 2010; Bojar et al. 2017–2020 for DARR), which ignores
  pairs the humans tied and, by default, counts pairs the *metric* tied as
  discordant, so a metric cannot gain by giving up on fine distinctions.
* :func:`spearman_asiya` — Asiya's Spearman (``IQ::MetaScoring::Statistics``):
  the no-ties formula ``1 − 6Σd²/(n(n²−1))`` on descending ranks *without* tie
  averaging, where among equal values the later item ranks higher. It exists
  to reproduce Asiya's numbers (asiya-reference §9.2, §16.2); the default
  ``spearman`` averages ties as every statistics package does.
* ``pairwise-accuracy`` and ``acc-eq`` — the WMT / mt-metrics-eval pairwise
  accuracies, defined in :mod:`checkpoints.evaluate.meta.pairwise` (with SPA,
  PCE and the significance clusters, which are not functions of one pair of
  vectors and so are not in :data:`CORRELATIONS`).

Every function returns ``nan`` where the coefficient is undefined (fewer than
two pairs, or a constant vector for Pearson/Spearman/Kendall); callers report
that as "undefined" instead of Asiya's silent 0 (asiya-reference §9.2), so an
undefined correlation is never mistaken for "no agreement".
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
from scipy import stats

from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.criteria import DEFAULT_CRITERIA, Criterion
from checkpoints.evaluate.meta.pairwise import acc_eq, pairwise_accuracy

__all__ = ["CORRELATIONS", "DEFAULT_CRITERIA", "Criterion", "correlate"]

Correlation = Callable[[np.ndarray, np.ndarray], float]




def _pair(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(x, dtype=np.float64).ravel()
    b = np.asarray(y, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"correlation of vectors of different lengths ({a.size} and {b.size})")
    return a, b


def _constant(values: np.ndarray) -> bool:
    return values.size == 0 or bool(np.all(values == values[0]))


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r (Koehn 2010, eq. 8.10); ``nan`` for n < 2 or a constant vector."""
    a, b = _pair(x, y)
    if a.size < 2 or _constant(a) or _constant(b):
        return math.nan
    return float(stats.pearsonr(a, b).statistic)


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho with average ranks for ties; ``nan`` for n < 2 or a constant vector."""
    a, b = _pair(x, y)
    if a.size < 2 or _constant(a) or _constant(b):
        return math.nan
    return float(stats.spearmanr(a, b).statistic)


def kendall(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b; ``nan`` for n < 2 or a constant vector."""
    a, b = _pair(x, y)
    if a.size < 2 or _constant(a) or _constant(b):
        return math.nan
    return float(stats.kendalltau(a, b, variant="b").statistic)


def _tied_pairs(*columns: np.ndarray) -> int:
    """Number of unordered pairs equal in every given column.

    Sorting and measuring runs of equal rows is several times faster than
    ``np.unique(axis=0)``, which matters inside the bootstrap.
    """
    rows = np.column_stack(columns)[np.lexsort(columns[::-1])]
    starts = np.flatnonzero(np.concatenate(([True], np.any(rows[1:] != rows[:-1], axis=1), [True])))
    runs = np.diff(starts)
    return int((runs * (runs - 1) // 2).sum())


def kendall_wmt(x: np.ndarray, y: np.ndarray, *, penalize_metric_ties: bool = True) -> float:
    """WMT's pairwise tau ``(C − D) / (C + D)`` of metric ``x`` against human ``y``.

    Pairs the humans tied are left out. A pair the metric tied (and the humans
    did not) counts as discordant when ``penalize_metric_ties`` (WMT 2017–2020),
    otherwise it is left out too (WMT 2010). ``nan`` when no pair is left.

    ``C − D`` is the numerator of tau-b, so it is recovered from scipy's
    O(n log n) tau-b and the tie counts instead of comparing all n² pairs —
    which matters at segment level, where n runs to thousands and the
    bootstrap repeats the computation a thousand times.
    """
    a, b = _pair(x, y)
    n = a.size
    if n < 2:
        return math.nan
    all_pairs = n * (n - 1) // 2
    tied_x = _tied_pairs(a)
    tied_y = _tied_pairs(b)
    tied_both = _tied_pairs(a, b)
    untied_human = all_pairs - tied_y
    if untied_human == 0:
        return math.nan
    if tied_x == all_pairs:
        difference = 0.0
    else:
        tau_b = float(stats.kendalltau(a, b, variant="b").statistic)
        # tau_b = (C − D) / sqrt((n0 − n1)(n0 − n2)); C − D is an integer.
        difference = float(np.rint(tau_b * math.sqrt((all_pairs - tied_x) * untied_human)))
    metric_ties = tied_x - tied_both
    if penalize_metric_ties:
        return (difference - metric_ties) / untied_human
    decided = untied_human - metric_ties
    return difference / decided if decided else math.nan


def asiya_ranks(values: np.ndarray) -> np.ndarray:
    """Asiya's descending ranks (1 = highest); among equal values the later item ranks higher."""
    array = np.asarray(values, dtype=np.float64).ravel()
    index = np.arange(array.size)
    order = np.lexsort((-index, -array))
    ranks = np.empty(array.size, dtype=np.float64)
    ranks[order] = np.arange(1, array.size + 1)
    return ranks


def spearman_asiya(x: np.ndarray, y: np.ndarray) -> float:
    """Asiya's ``1 − 6Σd²/(n(n²−1))`` on :func:`asiya_ranks`; 0 for n = 1 (as Asiya), ``nan`` for n = 0.

    Never undefined for constant vectors: the index tie-break turns them into
    a ranking, which is exactly Asiya's behaviour (asiya-reference §9.2).
    """
    a, b = _pair(x, y)
    n = a.size
    if n == 0:
        return math.nan
    if n == 1:
        return 0.0
    d = asiya_ranks(a) - asiya_ranks(b)
    return float(1.0 - 6.0 * float(np.dot(d, d)) / (n * (n * n - 1)))


CORRELATIONS: dict[Criterion, Correlation] = {
    Criterion.PEARSON: pearson,
    Criterion.SPEARMAN: spearman,
    Criterion.KENDALL: kendall,
    Criterion.KENDALL_WMT: kendall_wmt,
    Criterion.SPEARMAN_ASIYA: spearman_asiya,
    Criterion.PAIRWISE_ACCURACY: pairwise_accuracy,
    Criterion.ACC_EQ: acc_eq,
}


def correlate(criterion: Criterion, x: np.ndarray, y: np.ndarray) -> float:
    """The coefficient ``criterion`` of metric scores ``x`` against human scores ``y``.

    Pairs where either side is NaN are left out first: a check-point metric
    has no score on a segment without a check-point of its scope, and a 0
    there would say nothing about the translation.

    Raises:
        ValueError: for SPA and PCE, which need every system's segment scores
            (:func:`checkpoints.evaluate.meta.pairwise.soft_pairwise_accuracy`).
    """
    if criterion not in CORRELATIONS:
        raise ValueError(f"{criterion.value} is not a correlation of two vectors")
    with warnings.catch_warnings():
        # Constant inputs are handled above; scipy's warnings for near-constant
        # floating input would only repeat that the value is nan.
        warnings.simplefilter("ignore", RuntimeWarning)
        a, b = _pair(x, y)
        keep = ~(np.isnan(a) | np.isnan(b))
        if not keep.all():
            a, b = a[keep], b[keep]
        return CORRELATIONS[criterion](a, b)


def parse_criteria(text: str) -> tuple[Criterion, ...]:
    """``pearson,kendall`` → criteria, in the order given, without duplicates."""
    chosen: list[Criterion] = []
    for token in (part.strip().lower() for part in text.split(",")):
        if not token:
            continue
        try:
            criterion = Criterion(token)
        except ValueError:
            known = ", ".join(c.value for c in Criterion)
            raise UsageError(f"unknown criterion {token!r} (choose from {known})") from None
        if criterion not in chosen:
            chosen.append(criterion)
    if not chosen:
        raise UsageError(f"criteria {text!r} name no criterion")
    return tuple(chosen)
