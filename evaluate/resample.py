"""One resampling engine for every significance test in the project.

Check-point comparisons (``checkpoints compare``) and metric comparisons
(``checkpoints metrics --significance``) both reduce a system to a matrix of
per-item sufficient statistics (items = sentence pairs or segments, columns =
whatever the score needs). A score is a function of *summed* statistics, so a
resample is a weighted sum of rows, and a whole batch of resamples is one
matrix product: ``counts (samples × items) @ stats (items × k)``.

Paired bootstrap (Koehn 2004): full-size resamples of the items drawn with
replacement; the same draws serve every system and every category, which is
what makes the comparison paired. Approximate randomization (Riezler and
Maxwell 2005): each trial swaps the two systems' statistics on a random half of
the items.

Draws come from ``numpy.random.default_rng(seed)`` in fixed-size batches, so a
seed gives the same resamples whatever the number of systems or categories.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.defaults import DEFAULT_SAMPLES, DEFAULT_SEED
from checkpoints.signature import Signature

BATCH = 100
"""Resamples generated per batch: bounds memory at ``BATCH × items`` counts."""

CACHE_BYTES = 256 * 1024 * 1024
"""Bootstrap counts up to this size are kept and reused for every system."""


ScoreFunction = Callable[[np.ndarray], np.ndarray]
"""Maps summed statistics ``(..., k)`` to scores ``(...)``, vectorised over leading axes."""


class Method(StrEnum):
    BOOTSTRAP = "bootstrap"
    AR = "ar"


@dataclass(frozen=True, slots=True)
class ResampleSpec:
    method: Method = Method.BOOTSTRAP
    samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise UsageError(f"samples must be at least 1, not {self.samples}")

    def signature_fields(self) -> dict[str, object]:
        """``resample``, ``samples`` and ``seed``, in that order, to extend a
        :class:`~checkpoints.signature.Signature` with (``signature.with_fields(spec.signature_fields())``)."""
        return {"resample": self.method.value, "samples": self.samples, "seed": self.seed}

    def signature(self) -> Signature:
        """The same fields as a :class:`~checkpoints.signature.Signature`, to extend."""
        return Signature(self.signature_fields())


class Resampler:
    """Generates the resamples of ``items`` items once and applies them to any statistics."""

    def __init__(self, items: int, spec: ResampleSpec) -> None:
        if items < 1:
            raise UsageError("nothing to resample: no items")
        self.items = items
        self.spec = spec
        self._cache: list[np.ndarray] | None = None

    def bootstrap_counts(self) -> Iterator[np.ndarray]:
        """The bootstrap draws as ``(batch, items)`` count matrices, in sample order.

        For statistics that are not sums of per-item rows (a correlation over
        the resampled items, say): the caller weights items by these counts
        and sees exactly the resamples every other test with this seed sees.
        """
        yield from self._bootstrap_batches()

    def _bootstrap_batches(self) -> Iterator[np.ndarray]:
        if self._cache is not None:
            yield from self._cache
            return
        keep = self.spec.samples * self.items * 8 <= CACHE_BYTES
        kept: list[np.ndarray] = []
        for counts in self._draw_bootstrap():
            if keep:
                kept.append(counts)
            yield counts
        if keep:
            self._cache = kept

    def _draw_bootstrap(self) -> Iterator[np.ndarray]:
        rng = np.random.default_rng(self.spec.seed)
        remaining = self.spec.samples
        n = self.items
        while remaining > 0:
            size = min(BATCH, remaining)
            draws = rng.integers(0, n, size=(size, n))
            offsets = (np.arange(size) * n)[:, None]
            counts = np.bincount((draws + offsets).ravel(), minlength=size * n).reshape(size, n)
            yield counts.astype(np.float64)
            remaining -= size

    def _ar_batches(self) -> Iterator[np.ndarray]:
        rng = np.random.default_rng(self.spec.seed)
        remaining = self.spec.samples
        while remaining > 0:
            size = min(BATCH, remaining)
            yield rng.integers(0, 2, size=(size, self.items)).astype(np.float64)
            remaining -= size

    def bootstrap_sums(self, stats: np.ndarray) -> np.ndarray:
        """Summed statistics under each bootstrap resample: ``(samples, *stats.shape[1:])``.

        ``stats`` has items on its first axis; further axes (categories,
        statistics) are kept, so one call resamples a whole report.
        """
        flat = _as_items_matrix(stats, self.items)
        out = np.empty((self.spec.samples, flat.shape[1]))
        start = 0
        for counts in self._bootstrap_batches():
            out[start : start + len(counts)] = counts @ flat
            start += len(counts)
        return out.reshape((self.spec.samples, *stats.shape[1:]))

    def swapped_sums(self, stats_a: np.ndarray, stats_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Summed statistics of the two pseudo-systems of each randomization trial."""
        a = _as_items_matrix(stats_a, self.items)
        b = _as_items_matrix(stats_b, self.items)
        delta = b - a
        total_a, total_b = a.sum(axis=0), b.sum(axis=0)
        out_a = np.empty((self.spec.samples, a.shape[1]))
        out_b = np.empty_like(out_a)
        start = 0
        for swaps in self._ar_batches():
            moved = swaps @ delta
            out_a[start : start + len(swaps)] = total_a + moved
            out_b[start : start + len(swaps)] = total_b - moved
            start += len(swaps)
        shape = (self.spec.samples, *stats_a.shape[1:])
        return out_a.reshape(shape), out_b.reshape(shape)


def _as_items_matrix(stats: np.ndarray, items: int) -> np.ndarray:
    array = np.asarray(stats, dtype=np.float64)
    if array.shape[0] != items:
        raise ValueError(f"statistics have {array.shape[0]} items, the resampler {items}")
    return array.reshape(items, -1)


@dataclass(frozen=True, slots=True)
class PairedOutcome:
    """A paired comparison of system B against system A (``difference = B − A``).

    ``t`` is the difference divided by the standard deviation of the resampled
    differences (the bootstrap standard error), the statistic Zhou et al. 2008
    (§6) report as "paired t"; ``p_value`` is two-sided with the +1 correction
    of Moses' bootstrap script and multeval. ``interval`` is the 95% (or
    1−alpha) percentile interval of the resampled differences; under
    approximate randomization it is taken from a bootstrap with the same seed.
    """

    score_a: float
    score_b: float
    difference: float
    interval: tuple[float, float]
    t: float
    p_value: float


def percentile_interval(values: np.ndarray, alpha: float = 0.05) -> tuple[float, float]:
    """Koehn (2004)'s interval: sort and drop ``alpha/2 · B`` values from each tail."""
    ordered = np.sort(np.asarray(values, dtype=np.float64), axis=0)
    count = ordered.shape[0]
    drop = int(count * alpha / 2)
    return float(ordered[drop]), float(ordered[count - drop - 1])


def paired_test(
    stats_a: np.ndarray,
    stats_b: np.ndarray,
    score: ScoreFunction,
    resampler: Resampler,
    alpha: float = 0.05,
) -> PairedOutcome:
    """Compare two systems on one set of items (one category, one metric)."""
    return paired_tests(stats_a[:, None, :], stats_b[:, None, :], score, resampler, alpha)[0]


def paired_tests(
    stats_a: np.ndarray,
    stats_b: np.ndarray,
    score: ScoreFunction,
    resampler: Resampler,
    alpha: float = 0.05,
    *,
    resampled_a: np.ndarray | None = None,
    resampled_b: np.ndarray | None = None,
) -> list[PairedOutcome]:
    """Compare two systems on several groups at once.

    ``stats_a`` and ``stats_b`` are ``(items, groups, k)``: per item, per group
    (category), the statistics; all groups share the same resamples.
    ``resampled_a`` / ``resampled_b`` are the systems' bootstrap scores
    (``score(resampler.bootstrap_sums(stats))``, ``(samples, groups)``) when
    the caller already has them: comparing n systems pairwise then resamples
    each system once instead of n − 1 times.
    """
    observed_a = score(stats_a.sum(axis=0))
    observed_b = score(stats_b.sum(axis=0))
    observed = observed_b - observed_a
    boot_a = score(resampler.bootstrap_sums(stats_a)) if resampled_a is None else resampled_a
    boot_b = score(resampler.bootstrap_sums(stats_b)) if resampled_b is None else resampled_b
    boot_diff = boot_b - boot_a
    if resampler.spec.method is Method.AR:
        swapped_a, swapped_b = resampler.swapped_sums(stats_a, stats_b)
        null_diff = np.abs(score(swapped_b) - score(swapped_a))
    else:
        # Under H0 the resampled differences are centred on zero (Koehn 2004,
        # as in Moses' bootstrap-hypothesis-difference-significance.pl).
        null_diff = np.abs(boot_diff - boot_diff.mean(axis=0))
    samples = resampler.spec.samples
    outcomes = []
    for group in range(observed.shape[0]):
        diffs = boot_diff[:, group]
        spread = float(np.std(diffs, ddof=1)) if samples > 1 else 0.0
        d = float(observed[group])
        if spread > 0:
            t = d / spread
        else:
            t = 0.0 if d == 0 else float(np.copysign(np.inf, d))
        exceed = int(np.count_nonzero(null_diff[:, group] >= abs(d) - 1e-12)) if d != 0 else samples
        p_value = (exceed + 1) / (samples + 1)
        outcomes.append(
            PairedOutcome(
                score_a=float(observed_a[group]),
                score_b=float(observed_b[group]),
                difference=d,
                interval=percentile_interval(diffs, alpha),
                t=t,
                p_value=min(1.0, p_value),
            )
        )
    return outcomes
