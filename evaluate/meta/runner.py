"""Meta-evaluation: correlate metric scores with human judgments (Asiya's ``-metaeval single``).

The pipeline: a :class:`~checkpoints.evaluate.meta.judged.JudgedSet` (system
outputs, references and human scores, from an MQM release or an Asiya
assessments file) → every metric's per-segment statistics → one metric score
and one human score per *referent* at the chosen granularity
(:func:`~checkpoints.evaluate.meta.judged.referents`) → correlations over the
referents both sides score → confidence intervals. Metric document and
system scores come from the metric's own aggregation (summed statistics or
mean of segments, see ``Metric.aggregation``).

The WMT / mt-metrics-eval statistics (pairwise accuracy, acc-eq with its
tie threshold, SPA and PCE with their per-pair p-values, significance
clusters) are defined in :mod:`checkpoints.evaluate.meta.pairwise`; SPA and
PCE need every system's segment scores, so they are computed here from the
segment statistics, at system level only, on the segments every system has a
human score for, both from one set of permutation p-values.

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
from itertools import pairwise

import numpy as np

from checkpoints.engine import EngineSpec, open_engine
from checkpoints.errors import CheckpointsError, UsageError
from checkpoints.evaluate.meta.clusters import significance_clusters
from checkpoints.evaluate.meta.correlation import Criterion, correlate
from checkpoints.evaluate.meta.criteria import HUMAN_LIKENESS, SYSTEM_ONLY
from checkpoints.evaluate.meta.intervals import (
    fisher_interval,
    paired_proportions,
    resample_correlations,
    resample_means,
    summarize,
)
from checkpoints.evaluate.meta.judged import JudgedSet, Referent, referents
from checkpoints.evaluate.meta.learn import LearnResult, learn_combination
from checkpoints.evaluate.meta.optimize import GreedyResult, optimize_metrics
from checkpoints.evaluate.meta.orange import HumanLikeness, check_likeness, human_likeness
from checkpoints.evaluate.meta.pairwise import (
    permutation_signs,
    soft_pairwise_accuracy,
    tie_calibration,
    tie_calibration_grouped,
)
from checkpoints.evaluate.meta.results import (
    CIMethod,
    CorrelationResult,
    GroupedResult,
    MetaOptions,
    MetaResult,
    Paired,
    Results,
)
from checkpoints.evaluate.meta.scores import (
    all_kept,
    is_checkpoint_metric,
    keep_statistics,
    metric_values,
    scored_pairs,
    segment_statistics,
)
from checkpoints.evaluate.metrics.base import Granularity, Metric
from checkpoints.evaluate.resample import Resampler, ResampleSpec
from checkpoints.workers import can_fork, forked_map

__all__ = [
    "CIMethod",
    "CorrelationResult",
    "GroupedResult",
    "MetaOptions",
    "MetaResult",
    "metric_values",
    "reference_warnings",
    "run_meta",
    "segment_statistics",
]


def _defined(value: float) -> float | None:
    return None if math.isnan(value) else value


def _pooled(
    x_by_metric: Mapping[str, np.ndarray], y: np.ndarray, options: MetaOptions
) -> tuple[Results, Paired | None]:
    """Every vector criterion over all referents (SPA and PCE are added by :func:`run_meta`)."""
    criteria = tuple(c for c in options.correlations if c not in SYSTEM_ONLY)
    results: Results = {}
    for name, x in x_by_metric.items():
        results[name] = {}
        n = int((~np.isnan(x)).sum())
        for criterion in criteria:
            extra: dict[str, object] | None = None
            if criterion is Criterion.ACC_EQ:
                calibration = tie_calibration(*scored_pairs(x, y))
                r, extra = _defined(calibration.value), {"epsilon": _defined(calibration.epsilon)}
            else:
                r = _defined(correlate(criterion, x, y))
            if n < y.size:  # an LC metric: referents without a check-point of its scope are left out
                extra = {**(extra or {}), "n": n}
            ci = None
            if options.ci is CIMethod.FISHER and criterion is Criterion.PEARSON and r is not None:
                ci = fisher_interval(r, n, options.alpha)
            results[name][criterion] = CorrelationResult(r, ci, extra=extra)
    if not options.resampled or y.size == 0 or not criteria:
        return results, None
    resampler = Resampler(y.size, ResampleSpec(samples=options.samples, seed=options.seed))
    samples = resample_correlations(x_by_metric, y, criteria, resampler)
    for name in x_by_metric:
        for criterion in criteria:
            summary = summarize(samples[name][criterion], options.alpha)
            observed = results[name][criterion].r
            extra = results[name][criterion].extra
            results[name][criterion] = (
                CorrelationResult(summary.median, summary.interval, observed, extra=extra)
                if summary is not None
                else CorrelationResult(None, None, observed, extra=extra)
            )
    paired = None
    if options.ci is CIMethod.PAIRED_BOOTSTRAP:
        paired = {c: paired_proportions({n: samples[n][c] for n in x_by_metric}) for c in criteria}
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
    criteria = options.correlations
    values = np.full((len(items), len(names), len(criteria)), np.nan)
    epsilons: dict[str, float] = {}
    for c, criterion in enumerate(criteria):
        for m, name in enumerate(names):
            if criterion is Criterion.ACC_EQ:
                # One ε for all items (mt-metrics-eval KendallWithTiesOpt, average_by='item').
                calibration = tie_calibration_grouped([scored_pairs(x_by_metric[name][rows], y[rows]) for rows in items])
                epsilons[name] = calibration.epsilon
                values[:, m, c] = calibration.item_values
                continue
            for i, rows in enumerate(items):
                values[i, m, c] = correlate(criterion, x_by_metric[name][rows], y[rows])
    defined = ~np.isnan(values)
    counts = defined.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, np.nansum(values, axis=0) / np.maximum(counts, 1), np.nan)
    def extra(criterion: Criterion, name: str) -> dict[str, object] | None:
        return {"epsilon": _defined(epsilons[name])} if criterion is Criterion.ACC_EQ and items else None

    results: Results = {
        name: {
            criterion: CorrelationResult(
                _defined(float(means[m, c])), None, None, int(counts[m, c]), extra(criterion, name)
            )
            for c, criterion in enumerate(criteria)
        }
        for m, name in enumerate(names)
    }
    paired = None
    if options.resampled and items:
        resampler = Resampler(len(items), ResampleSpec(samples=options.samples, seed=options.seed))
        resampled = resample_means(values, resampler)  # (samples, metric, criterion)
        for m, name in enumerate(names):
            for c, criterion in enumerate(criteria):
                summary = summarize(resampled[:, m, c], options.alpha)
                observed = results[name][criterion].r
                results[name][criterion] = (
                    CorrelationResult(
                        summary.median, summary.interval, observed, int(counts[m, c]), extra(criterion, name)
                    )
                    if summary is not None
                    else CorrelationResult(None, None, observed, int(counts[m, c]), extra(criterion, name))
                )
        if options.ci is CIMethod.PAIRED_BOOTSTRAP:
            paired = {
                criterion: paired_proportions({name: resampled[:, m, c] for m, name in enumerate(names)})
                for c, criterion in enumerate(criteria)
            }
    clusters = None
    complete = [rows for rows in items if not any(np.isnan(x_by_metric[n][rows]).any() for n in names)]
    if options.clusters is not None and complete:
        groups = [np.asarray(rows) for rows in complete]
        flat = np.concatenate(groups)
        # Re-index so that the permutation masks cover exactly the referents of the items tested.
        starts = np.cumsum([0] + [len(g) for g in groups])
        local = [np.arange(b, e) for b, e in pairwise(starts)]
        swaps = permutation_signs(options.samples, flat.size, options.seed)
        clusters = significance_clusters(
            options.clusters, {n: x_by_metric[n][flat] for n in names}, y[flat], swaps, options.alpha, local
        )
    return GroupedResult(len(items), results, paired, clusters)


def run_meta(
    judged: JudgedSet,
    metrics: Sequence[Metric],
    options: MetaOptions,
    track: Callable[[Sequence[Metric]], Iterable[Metric]] | None = None,
    statistics: dict[str, dict[str, np.ndarray]] | None = None,
) -> MetaResult:
    """Correlate each metric with the human scores of ``judged`` at ``options.level``.

    ``track`` wraps the loop over metrics (the command line passes a progress bar).
    ``statistics``: each metric's per-system segment statistics on ``judged``
    (:func:`~checkpoints.evaluate.meta.scores.segment_statistics`) from an
    earlier run on the same test bed, by metric name; used where present and
    filled in where not, so several runs on one test bed score each metric once.

    With ``options.optimize`` the greedy optimal set is searched
    (:mod:`~checkpoints.evaluate.meta.optimize`); with ``options.learn`` a
    combination of the feature metrics is learned and cross-validated
    (:mod:`~checkpoints.evaluate.meta.learn`; the features must be among ``metrics``).

    Raises:
        CheckpointsError: when no referent has both a human score and a system output.
        UsageError: human likeness asked of check-point (LC) metrics, which
            score against a suite's check-points, never one reference against another.
    """
    if not metrics:
        raise UsageError("no metric to meta-evaluate")
    _check_likeness_metrics(metrics, options)
    units = referents(judged, options.level)
    if not units:
        raise CheckpointsError(
            f"no {options.level.value}-level human score matches a system output "
            f"(systems: {', '.join(judged.outputs) or 'none'})"
        )
    y = np.array([unit.human for unit in units], dtype=np.float64)
    want_likeness = any(c in HUMAN_LIKENESS for c in options.criteria)
    want_king = Criterion.KING in options.criteria
    if want_likeness or options.optimize in HUMAN_LIKENESS:
        check_likeness(judged, options.level, want_king or options.optimize is Criterion.KING)  # before any metric runs
    likeness: dict[str, HumanLikeness] = {}
    x_by_metric: dict[str, np.ndarray] = {}
    system_only = [c for c in options.criteria if c in SYSTEM_ONLY]
    want_spa = bool(system_only)  # spa and pce share the permutation p-values
    common = _common_positions(judged, units, system_only) if want_spa else np.empty(0, dtype=np.int64)
    segment_matrix: dict[str, np.ndarray] = {}
    statistics = {} if statistics is None else statistics
    # Human likeness scores references and systems against references on its own: asked for
    # alone, below system level (whose scatter points need the scores), it needs nothing else
    # (but ULC, whose normalisation is fitted on the systems' statistics).
    scored = (
        bool(options.correlations) or options.level is Granularity.SYS or options.clusters is not None
        or options.optimize is not None or options.learn is not None
    )
    work = MetricWork(judged, metrics, options.level, scored, want_likeness, want_king, statistics)
    for metric, (stats, measured) in zip(metrics, work.run(options.jobs, track, options.engine), strict=True):
        if stats is not None:
            statistics[metric.name] = stats
            x_by_metric[metric.name] = metric_values(metric, stats, units, options.level)
        if measured is not None:
            likeness[metric.name] = measured
        if want_spa:
            segment_matrix[metric.name] = np.array(
                [metric.segment_scores(np.nan_to_num(stats[unit.system]))[common] for unit in units]
            )
    results, paired = _pooled(x_by_metric, y, options)
    for name, measured in likeness.items():
        results.setdefault(name, {}).update(_likeness_results(measured, options))
    spa = None
    if want_spa:
        spa = _add_spa(judged, units, common, segment_matrix, results, options)
    clusters = None
    if options.clusters is not None:
        # Metrics are compared on the same referents: those every metric scores.
        keep = ~np.any([np.isnan(x) for x in x_by_metric.values()], axis=0)
        swaps = permutation_signs(options.samples, int(keep.sum()), options.seed)
        clusters = significance_clusters(
            options.clusters, {name: x[keep] for name, x in x_by_metric.items()}, y[keep], swaps, options.alpha
        )
    results = {name: {c: by[c] for c in options.criteria if c in by} for name, by in results.items()}
    grouped = _grouped(units, x_by_metric, options) if options.level is Granularity.SEG and options.correlations else None
    return MetaResult(
        level=options.level,
        n=len(units),
        judgments=judged.judgments,
        options=options,
        results=results,
        paired=paired,
        grouped=grouped,
        signatures={metric.name: metric.signature().format() for metric in metrics},
        clusters=clusters,
        spa=spa,
        warnings=reference_warnings(judged),
        optimal=_optimal(judged, metrics, statistics, units, options),
        learned=_learned(judged, metrics, statistics, options),
        points=_system_points(units, x_by_metric) if options.level is Granularity.SYS else None,
    )


MetricScores = tuple[dict[str, np.ndarray] | None, HumanLikeness | None]
"""A metric's segment statistics per system (None when not needed) and its human likeness (None when not asked)."""


class MetricWork:
    """Every metric's scoring for one run: statistics (unless given), human likeness, alone or in workers."""

    def __init__(self, judged: JudgedSet, metrics: Sequence[Metric], level: Granularity, scored: bool,
                 likeness: bool, king: bool, known: Mapping[str, dict[str, np.ndarray]]) -> None:
        self.judged, self.metrics, self.level = judged, metrics, level
        self.scored, self.likeness, self.king, self.known = scored, likeness, king, known

    def one(self, index: int) -> MetricScores:
        metric = self.metrics[index]
        stats = self.known.get(metric.name)
        if stats is None and (self.scored or metric.fitted):
            stats = segment_statistics(self.judged, metric)
        measured = human_likeness(self.judged, metric, self.level, self.king) if self.likeness else None
        return stats, measured

    def _at_hand(self, index: int) -> bool:
        """Whether a metric's statistics need no scoring: given, or in the statistics cache."""
        metric = self.metrics[index]
        return metric.name in self.known or all_kept(self.judged, metric)

    def run(
        self, jobs: int, track: Callable[[Sequence[Metric]], Iterable[Metric]] | None, engine: EngineSpec | None = None
    ) -> list[MetricScores]:
        """Every metric's scores in order; ``track`` advances as metrics are done.

        ULC (fitted on the statistics it computes) and check-point metrics (read
        from a suite's database) are scored here, after the workers.
        """
        ticks = iter(track(self.metrics) if track is not None else self.metrics)
        done: dict[int, MetricScores] = {}
        elsewhere = [i for i, m in enumerate(self.metrics) if not m.fitted and not is_checkpoint_metric(m)]
        groups: dict[str, list[int]] = {}
        for index in elsewhere:
            groups.setdefault(self.metrics[index].work_group, []).append(index)
        if engine is not None and engine.name != "local":
            # one task per work group, each worker holding this run's outputs and metrics once; metrics
            # whose statistics are known or kept in the statistics cache are scored here
            sent = [[i for i in group if self.likeness or not self._at_hand(i)] for group in groups.values()]
            sent = [group for group in sent if group]
            if sent:
                with open_engine(engine) as workers:
                    for _, scored in workers.map(lambda: self, _score_group, sent):
                        for index, scores in scored:
                            next(ticks, None)
                            done[index] = scores
                            if scores[0] is not None and self.metrics[index].name not in self.known:
                                keep_statistics(self.judged, self.metrics[index], scores[0])
        elif jobs > 1 and len(elsewhere) > 1 and can_fork():
            for index, scores in forked_map(self.one, list(groups.values()), jobs):
                next(ticks, None)
                done[index] = scores if scores is not None else self.one(index)
        for index in range(len(self.metrics)):
            if index not in done:
                next(ticks, None)
                done[index] = self.one(index)
        for _ in ticks:  # the last metric's tick
            pass
        return [done[index] for index in range(len(self.metrics))]


def _score_group(work: MetricWork, group: list[int]) -> list[tuple[int, MetricScores]]:
    """One work group's metrics scored in order (metrics of a group share a run's cache)."""
    return [(index, work.one(index)) for index in group]


def _system_points(units: Sequence[Referent], x_by_metric: Mapping[str, np.ndarray]) -> dict[str, object]:
    """``{"human": {system: score}, "metrics": {metric: {system: score}}}``; None where a metric is undefined."""
    return {
        "human": {unit.system: unit.human for unit in units},
        "metrics": {
            name: {unit.system: _defined(float(value)) for unit, value in zip(units, x, strict=True)}
            for name, x in x_by_metric.items()
        },
    }


def _check_likeness_metrics(metrics: Sequence[Metric], options: MetaOptions) -> None:
    """King and orange score references as peers against the other references; an LC metric
    scores against its suite's check-points and cannot score one reference against another."""
    asked = [c.value for c in (*options.criteria, options.optimize) if c in HUMAN_LIKENESS]
    lc = [metric.name for metric in metrics if is_checkpoint_metric(metric)]
    if asked and lc:
        raise UsageError(
            f"{' and '.join(dict.fromkeys(asked))} score references against each other, and {', '.join(lc[:3])}"
            f"{', ...' if len(lc) > 3 else ''} score against the suite's check-points, not against a chosen "
            "reference: leave the check-point metrics out"
        )


def _optimal(
    judged: JudgedSet,
    metrics: Sequence[Metric],
    statistics: Mapping[str, Mapping[str, np.ndarray]],
    units: Sequence[Referent],
    options: MetaOptions,
) -> GreedyResult | None:
    if options.optimize is None:
        return None
    return optimize_metrics(judged, metrics, statistics, units, options.level, options.optimize)


def _learned(
    judged: JudgedSet,
    metrics: Sequence[Metric],
    statistics: Mapping[str, Mapping[str, np.ndarray]],
    options: MetaOptions,
) -> LearnResult | None:
    if options.learn is None:
        return None
    criteria = tuple(c for c in options.correlations if c not in SYSTEM_ONLY)
    by_name = {metric.name: metric for metric in metrics}
    return learn_combination(judged, by_name, statistics, options.level, criteria, options.learn, options.seed)


def _likeness_results(measured: HumanLikeness, options: MetaOptions) -> dict[Criterion, CorrelationResult]:
    """``king`` (QARLA's, with Asiya's beside it) and ``orange`` (Asiya's, with Lin & Och's rank)."""
    shared: dict[str, object] = {"references": measured.references, "units": measured.units}
    out: dict[Criterion, CorrelationResult] = {}
    if Criterion.KING in options.criteria:
        out[Criterion.KING] = CorrelationResult(
            measured.qarla_king,
            extra={"asiya": measured.asiya.king, **shared, "trans_topic": measured.trans_topic},
        )
    if Criterion.ORANGE in options.criteria:
        out[Criterion.ORANGE] = CorrelationResult(
            measured.asiya.orange, extra={"rank": measured.asiya.rank_orange, **shared}
        )
    return out


def reference_warnings(judged: JudgedSet) -> tuple[str, ...]:
    """A warning for each reference the humans rate below most systems (MQM rates references too).

    Metrics reward closeness to the reference; when the humans find the
    reference worse than most systems, that closeness is no sign of quality
    (TED zh-en: MQM rates ``ref`` −5.52 against −2.99…−1.65 for the systems).
    Each system is compared with the reference on the segments both were rated on.
    """
    warnings = []
    for name in judged.reference_names:
        rated = {p: score for (reference, p), score in judged.reference_scores.items() if reference == name}
        if not rated:
            continue
        above = compared = 0
        means = []
        for system in judged.outputs:
            common = [p for p in rated if (system, p) in judged.segment_scores]
            if not common:
                continue
            compared += 1
            system_mean = math.fsum(judged.segment_scores[(system, p)] for p in common) / len(common)
            reference_mean = math.fsum(rated[p] for p in common) / len(common)
            above += system_mean > reference_mean
            means.append(system_mean)
        if compared and 2 * above > compared:
            own = math.fsum(rated.values()) / len(rated)
            warnings.append(
                f"the humans rate the reference {name!r} below {above} of {compared} systems "
                f"(mean {own:.2f} against {min(means):.2f} to {max(means):.2f}): "
                "metrics scored against it reward resemblance to a weaker translation"
            )
    return tuple(warnings)


def _common_positions(judged: JudgedSet, units: Sequence[Referent], asked: Sequence[Criterion]) -> np.ndarray:
    """Segments every system has a human score and an output for: SPA and PCE compare systems on the same segments."""
    common: set[int] | None = None
    for unit in units:
        scored = {int(p) for p in unit.positions if (unit.system, int(p)) in judged.segment_scores}
        common = scored if common is None else common & scored
    if not common:
        names = " and ".join(c.value for c in asked)
        raise CheckpointsError(f"{names} need{'s' if len(asked) == 1 else ''} segments that every system has "
                               "a human score for; there are none")
    return np.array(sorted(common), dtype=np.int64)


def _p_matrix(systems: Sequence[str], p: np.ndarray) -> dict[str, dict[str, float]]:
    return {systems[i]: {systems[j]: float(p[i, j]) for j in range(i + 1, len(systems))} for i in range(len(systems) - 1)}


def _add_spa(
    judged: JudgedSet,
    units: Sequence[Referent],
    common: np.ndarray,
    segment_matrix: Mapping[str, np.ndarray],
    results: Results,
    options: MetaOptions,
) -> dict[str, object]:
    """SPA and/or PCE of every metric into ``results``, both from one pair of p-value matrices per metric;
    returns the human side (p-values, segments) for the report."""
    systems = [unit.system for unit in units]
    human = np.array([[judged.segment_scores[(s, int(p))] for p in common] for s in systems], dtype=np.float64)
    swaps = permutation_signs(options.samples, common.size, options.seed)
    human_p = None
    for name, matrix in segment_matrix.items():
        # An LC metric is compared on the segments where it scores every system (its own permutations).
        scored = ~np.isnan(matrix).any(axis=0)
        if scored.all():
            outcome = soft_pairwise_accuracy(human, matrix, swaps)
            human_p = outcome.human_p
            extra: dict[str, object] = {"p_values": _p_matrix(systems, outcome.metric_p)}
        else:
            own = permutation_signs(options.samples, int(scored.sum()), options.seed)
            outcome = soft_pairwise_accuracy(human[:, scored], matrix[:, scored], own)
            extra = {"p_values": _p_matrix(systems, outcome.metric_p), "segments": int(scored.sum())}
        if Criterion.SPA in options.criteria:
            results[name][Criterion.SPA] = CorrelationResult(_defined(outcome.value), None, extra=extra)
        if Criterion.PCE in options.criteria:
            results[name][Criterion.PCE] = CorrelationResult(_defined(outcome.pce), None, extra=dict(extra))
    # Keep the criteria's order in every metric's results.
    for name in results:
        results[name] = {c: results[name][c] for c in options.criteria}
    return {
        "segments": int(common.size),
        "human_p_values": _p_matrix(systems, human_p) if human_p is not None else {},
    }


