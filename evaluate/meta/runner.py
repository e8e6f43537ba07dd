"""Meta-evaluation: correlate metric scores with human judgments (Asiya's ``-metaeval single``).

The pipeline: a :class:`~checkpoints.evaluate.meta.judged.JudgedSet` (system
outputs, references and human scores, from an MQM release or an Asiya
assessments file) → every metric's per-segment statistics → one metric score
and one human score per *referent* at the chosen granularity
(:func:`~checkpoints.evaluate.meta.judged.referents`) → correlations over the
referents both sides score → confidence intervals. Metric document and
system scores come from the metric's own aggregation (summed statistics or
mean of segments, see ``Metric.aggregation``).

Segment level is reported two ways: *pooled* (one correlation over every
judged system–segment pair) and *grouped by item* (per segment, the
correlation across systems, averaged over the segments where it is defined —
Freitag et al. 2021 and WMT's "item" grouping; MQM gives many segments the
same score for every system, and pooling mixes easy and hard segments).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from checkpoints.errors import CheckpointsError, UsageError
from checkpoints.evaluate.meta.correlation import DEFAULT_CRITERIA, Criterion, correlate
from checkpoints.evaluate.meta.intervals import (
    fisher_interval,
    paired_proportions,
    resample_correlations,
    resample_means,
    summarize,
)
from checkpoints.evaluate.meta.judged import JudgedSet, Referent, referents
from checkpoints.evaluate.metrics.base import Granularity, Metric
from checkpoints.evaluate.resample import DEFAULT_SAMPLES, DEFAULT_SEED, Resampler, ResampleSpec
from checkpoints.signature import Signature


class CIMethod(StrEnum):
    NONE = "none"
    FISHER = "fisher"
    BOOTSTRAP = "bootstrap"
    PAIRED_BOOTSTRAP = "paired-bootstrap"


@dataclass(frozen=True, slots=True)
class MetaOptions:
    """What to compute. Asiya's code defaults to no interval, its manual to Fisher; Fisher is the default here."""

    level: Granularity = Granularity.SYS
    criteria: tuple[Criterion, ...] = DEFAULT_CRITERIA
    ci: CIMethod = CIMethod.FISHER
    samples: int = DEFAULT_SAMPLES
    alpha: float = 0.05
    seed: int = DEFAULT_SEED

    def __post_init__(self) -> None:
        if not 0.0 < self.alpha < 1.0:
            raise UsageError(f"alpha must lie strictly between 0 and 1, not {self.alpha}")
        if not self.criteria:
            raise UsageError("no criterion chosen")
        if self.samples < 1:
            raise UsageError(f"samples must be at least 1, not {self.samples}")

    @property
    def resampled(self) -> bool:
        return self.ci in (CIMethod.BOOTSTRAP, CIMethod.PAIRED_BOOTSTRAP)

    def signature(self) -> Signature:
        """``level|criteria|ci|alpha``, the resampling when intervals are resampled, the version."""
        signature = Signature(
            level=self.level.value,
            criteria=",".join(c.value for c in self.criteria),
            ci=self.ci.value,
            alpha=f"{self.alpha:g}",
        )
        if self.resampled:
            signature = signature.with_fields(ResampleSpec(samples=self.samples, seed=self.seed).signature_fields())
        return signature



def segment_statistics(judged: JudgedSet, metric: Metric) -> dict[str, np.ndarray]:
    """Each system's per-segment statistics ``(segments, k)``; rows of missing outputs are ``nan``."""
    result: dict[str, np.ndarray] = {}
    for system, outputs in judged.outputs.items():
        positions = judged.available(system)
        stats = np.full((judged.size, metric.n_stats), np.nan)
        if positions.size:
            hypotheses = [outputs[p] or "" for p in positions]
            references = [[reference[p] for p in positions] for reference in judged.references]
            sources = None if judged.sources is None else [judged.sources[p] for p in positions]
            stats[positions] = metric.corpus_stats(hypotheses, references, sources)
        result[system] = stats
    return result


def metric_values(
    metric: Metric, stats: Mapping[str, np.ndarray], units: Sequence[Referent], level: Granularity
) -> np.ndarray:
    """The metric's score of every referent, from the statistics of the referent's segments."""
    if level is Granularity.SEG:
        segment = {system: metric.segment_scores(np.nan_to_num(rows)) for system, rows in stats.items()}
        return np.array([segment[unit.system][unit.positions[0]] for unit in units], dtype=np.float64)
    return np.array([metric.system_score(stats[unit.system][unit.positions]) for unit in units], dtype=np.float64)


@dataclass(frozen=True, slots=True)
class CorrelationResult:
    """One coefficient: ``r`` (the bootstrap median under a bootstrap interval, as Asiya reports it),
    its interval, and the full-sample coefficient when ``r`` is a bootstrap median."""

    r: float | None
    ci: tuple[float, float] | None = None
    observed: float | None = None
    items: int | None = None
    """Grouped results: the items whose coefficient is defined."""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"r": self.r, "ci": list(self.ci) if self.ci is not None else None}
        if self.observed is not None:
            out["observed"] = self.observed
        if self.items is not None:
            out["items"] = self.items
        return out


Results = dict[str, dict[Criterion, CorrelationResult]]
Paired = dict[Criterion, dict[str, dict[str, float | None]]]


@dataclass(frozen=True, slots=True)
class GroupedResult:
    """Segment level grouped by item: per-segment correlations across systems, averaged."""

    n: int
    results: Results
    paired: Paired | None = None


@dataclass(frozen=True, slots=True)
class MetaResult:
    level: Granularity
    n: int
    judgments: str
    options: MetaOptions
    results: Results
    paired: Paired | None
    grouped: GroupedResult | None
    signatures: dict[str, str]

    def to_json(self) -> dict[str, object]:
        """The ``meta --format json`` object (ARCHITECTURE.md), with the options and signatures added."""
        out: dict[str, object] = {
            "level": self.level.value,
            "n": self.n,
            "judgments": self.judgments,
            "criteria": [c.value for c in self.options.criteria],
            "ci": self.options.ci.value,
            "alpha": self.options.alpha,
            "results": _results_json(self.results),
        }
        if self.options.resampled:
            out["samples"] = self.options.samples
            out["seed"] = self.options.seed
        if self.paired is not None:
            out["paired"] = _paired_json(self.paired)
        if self.grouped is not None:
            grouped: dict[str, object] = {"by": "item", "n": self.grouped.n, "results": _results_json(self.grouped.results)}
            if self.grouped.paired is not None:
                grouped["paired"] = _paired_json(self.grouped.paired)
            out["grouped"] = grouped
        out["signature"] = self.options.signature().format()
        out["signatures"] = dict(self.signatures)
        return out


def _results_json(results: Results) -> dict[str, object]:
    return {name: {c.value: value.to_json() for c, value in by.items()} for name, by in results.items()}


def _paired_json(paired: Paired) -> dict[str, object]:
    return {c.value: matrix for c, matrix in paired.items()}


def _defined(value: float) -> float | None:
    return None if math.isnan(value) else value


def _pooled(
    x_by_metric: Mapping[str, np.ndarray], y: np.ndarray, options: MetaOptions
) -> tuple[Results, Paired | None]:
    results: Results = {}
    for name, x in x_by_metric.items():
        results[name] = {}
        for criterion in options.criteria:
            r = _defined(correlate(criterion, x, y))
            ci = None
            if options.ci is CIMethod.FISHER and criterion is Criterion.PEARSON and r is not None:
                ci = fisher_interval(r, y.size, options.alpha)
            results[name][criterion] = CorrelationResult(r, ci)
    if not options.resampled or y.size == 0:
        return results, None
    resampler = Resampler(y.size, ResampleSpec(samples=options.samples, seed=options.seed))
    samples = resample_correlations(x_by_metric, y, options.criteria, resampler)
    for name in x_by_metric:
        for criterion in options.criteria:
            summary = summarize(samples[name][criterion], options.alpha)
            observed = results[name][criterion].r
            results[name][criterion] = (
                CorrelationResult(summary.median, summary.interval, observed)
                if summary is not None
                else CorrelationResult(None, None, observed)
            )
    paired = None
    if options.ci is CIMethod.PAIRED_BOOTSTRAP:
        paired = {c: paired_proportions({n: samples[n][c] for n in x_by_metric}) for c in options.criteria}
    return results, paired


def _grouped(
    units: Sequence[Referent], x_by_metric: Mapping[str, np.ndarray], options: MetaOptions
) -> GroupedResult:
    by_item: dict[int, list[int]] = defaultdict(list)
    for index, unit in enumerate(units):
        by_item[int(unit.positions[0])].append(index)
    items = [rows for _, rows in sorted(by_item.items()) if len(rows) >= 2]
    y = np.array([unit.human for unit in units], dtype=np.float64)
    names = list(x_by_metric)
    # values[item, metric, criterion]: the item's coefficient across systems (nan = undefined).
    values = np.full((len(items), len(names), len(options.criteria)), np.nan)
    for i, rows in enumerate(items):
        for m, name in enumerate(names):
            for c, criterion in enumerate(options.criteria):
                values[i, m, c] = correlate(criterion, x_by_metric[name][rows], y[rows])
    defined = ~np.isnan(values)
    counts = defined.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, np.nansum(values, axis=0) / np.maximum(counts, 1), np.nan)
    results: Results = {
        name: {
            criterion: CorrelationResult(_defined(float(means[m, c])), None, None, int(counts[m, c]))
            for c, criterion in enumerate(options.criteria)
        }
        for m, name in enumerate(names)
    }
    paired = None
    if options.resampled and items:
        resampler = Resampler(len(items), ResampleSpec(samples=options.samples, seed=options.seed))
        resampled = resample_means(values, resampler)  # (samples, metric, criterion)
        for m, name in enumerate(names):
            for c, criterion in enumerate(options.criteria):
                summary = summarize(resampled[:, m, c], options.alpha)
                observed = results[name][criterion].r
                results[name][criterion] = (
                    CorrelationResult(summary.median, summary.interval, observed, int(counts[m, c]))
                    if summary is not None
                    else CorrelationResult(None, None, observed, int(counts[m, c]))
                )
        if options.ci is CIMethod.PAIRED_BOOTSTRAP:
            paired = {
                criterion: paired_proportions({name: resampled[:, m, c] for m, name in enumerate(names)})
                for c, criterion in enumerate(options.criteria)
            }
    return GroupedResult(len(items), results, paired)


def run_meta(
    judged: JudgedSet,
    metrics: Sequence[Metric],
    options: MetaOptions,
    track: Callable[[Sequence[Metric]], Iterable[Metric]] | None = None,
) -> MetaResult:
    """Correlate each metric with the human scores of ``judged`` at ``options.level``.

    ``track`` wraps the loop over metrics (the command line passes a progress bar).

    Raises:
        CheckpointsError: when no referent has both a human score and a system output.
    """
    if not metrics:
        raise UsageError("no metric to meta-evaluate")
    units = referents(judged, options.level)
    if not units:
        raise CheckpointsError(
            f"no {options.level.value}-level human score matches a system output "
            f"(systems: {', '.join(judged.outputs) or 'none'})"
        )
    y = np.array([unit.human for unit in units], dtype=np.float64)
    x_by_metric: dict[str, np.ndarray] = {}
    for metric in track(metrics) if track is not None else metrics:
        x_by_metric[metric.name] = metric_values(metric, segment_statistics(judged, metric), units, options.level)
    results, paired = _pooled(x_by_metric, y, options)
    grouped = _grouped(units, x_by_metric, options) if options.level is Granularity.SEG else None
    return MetaResult(
        level=options.level,
        n=len(units),
        judgments=judged.judgments,
        options=options,
        results=results,
        paired=paired,
        grouped=grouped,
        signatures={metric.name: metric.signature().format() for metric in metrics},
    )


