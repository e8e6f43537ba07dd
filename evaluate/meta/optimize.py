"""The greedy optimal metric set of ``checkpoints meta --optimize CRITERION`` (Asiya's ``-optimize ulc``).

asiya-reference §9.7 (Asiya ``do_greedy_optimization``), the same search as
IQMT's ``-optimizeKING`` (iqmt-koehn-reference A.1.5):

1. compute the criterion for every single metric;
2. rank the metrics by it, best first (*decision*: equal values by name, so
   the search is deterministic; metrics whose value is undefined go last);
3. start the set with the best metric;
4. try every other metric in that order: add it, compute the criterion of
   the ULC of the set (:class:`~checkpoints.evaluate.metrics.combination.ULC`,
   Asiya's normalisation, fitted on every system's statistics), keep the
   metric only if the value *strictly* increases.

The value of a set is the criterion of its ULC: a correlation criterion
against the human scores at the chosen level (the pooled value at segment
level, as ``results`` reports it; referents where the ULC is undefined, an
LC metric on a segment without a check-point of its scope, are left out),
or ``king`` / ``orange``, the human likeness of the ULC measured by
:func:`~checkpoints.evaluate.meta.orange.human_likeness` (QARLA's KING of
the ULC as one metric, references as peers; Asiya's ``-optimize ulc king``).
The ULC's bounds are fitted once on the systems' scores against every
reference and stay fixed while references are scored as peers.

:func:`greedy` is the search alone, over any value function, so the digest's
worked example (asiya-reference §16.2) can be replayed exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.correlation import correlate
from checkpoints.evaluate.meta.criteria import Criterion
from checkpoints.evaluate.meta.judged import JudgedSet, Referent
from checkpoints.evaluate.meta.orange import human_likeness
from checkpoints.evaluate.meta.pairwise import tie_calibration
from checkpoints.evaluate.meta.scores import metric_values, scored_pairs
from checkpoints.evaluate.metrics.base import Granularity, Metric
from checkpoints.evaluate.metrics.combination import ULC


@dataclass(frozen=True, slots=True)
class Trial:
    """One step of the search: the metric tried, the value of the set with it, whether it was kept."""

    metric: str
    value: float | None
    kept: bool

    def to_json(self) -> dict[str, object]:
        return {"metric": self.metric, "value": self.value, "kept": self.kept}


@dataclass(frozen=True, slots=True)
class GreedyResult:
    """The greedy set, its value, each metric's own value and the trace of the search."""

    criterion: str
    metrics: tuple[str, ...]
    value: float | None
    single: dict[str, float | None]
    """Metric → its own value, in the order the search tried them (best first)."""
    trace: tuple[Trial, ...]
    """The first metric (kept by construction), then every candidate with the value of the set plus it."""

    def to_json(self) -> dict[str, object]:
        return {
            "optimal_set": list(self.metrics),
            "optimal_value": self.value,
            "optimize": {
                "criterion": self.criterion,
                "single": dict(self.single),
                "trace": [trial.to_json() for trial in self.trace],
            },
        }


def _value(number: float | None) -> float | None:
    return None if number is None or math.isnan(number) else float(number)


def greedy(
    criterion: str,
    names: Sequence[str],
    single: Callable[[str], float | None],
    combined: Callable[[Sequence[str]], float | None],
) -> GreedyResult:
    """Asiya's greedy search (module docstring) over value functions: ``single(name)`` is a metric's
    own value, ``combined(names)`` the value of a set; ``None`` or NaN means undefined, which never
    counts as an increase.
    """
    names = list(dict.fromkeys(names))
    if not names:
        raise UsageError("the greedy metric set needs at least one metric")
    own = {name: _value(single(name)) for name in names}
    ranked = sorted(names, key=lambda name: (own[name] is None, -(own[name] or 0.0), name))
    chosen = [ranked[0]]
    best = own[ranked[0]]
    trace = [Trial(ranked[0], best, True)]
    for name in ranked[1:]:
        value = _value(combined([*chosen, name]))
        kept = value is not None and (best is None or value > best)
        if kept:
            chosen.append(name)
            best = value
        trace.append(Trial(name, value, kept))
    return GreedyResult(criterion, tuple(chosen), best, {name: own[name] for name in ranked}, tuple(trace))


def criterion_value(criterion: Criterion, x: np.ndarray, y: np.ndarray) -> float:
    """A correlation criterion of metric values ``x`` against human scores ``y``, undefined referents left out."""
    if criterion is Criterion.ACC_EQ:
        return tie_calibration(*scored_pairs(x, y)).value
    return correlate(criterion, x, y)


def optimize_metrics(
    judged: JudgedSet,
    metrics: Sequence[Metric],
    statistics: Mapping[str, Mapping[str, np.ndarray]],
    units: Sequence[Referent],
    level: Granularity,
    criterion: Criterion,
) -> GreedyResult:
    """The greedy set of ``metrics`` by ``criterion`` on ``judged`` (module docstring).

    ``statistics`` holds each metric's per-system segment statistics
    (:func:`~checkpoints.evaluate.meta.scores.segment_statistics`), so no
    metric is recomputed for the correlation criteria.
    """
    by_name = {metric.name: metric for metric in metrics}
    y = np.array([unit.human for unit in units], dtype=np.float64)

    def combine(names: Sequence[str]) -> tuple[ULC, dict[str, np.ndarray]]:
        ulc = ULC([by_name[name] for name in names], by_name[names[0]].options)
        stats = {
            system: np.hstack([statistics[name][system] for name in names]) for system in judged.outputs
        }
        ulc.fit({system: np.nan_to_num(rows) for system, rows in stats.items()}, judged.documents)
        return ulc, stats

    if criterion in (Criterion.KING, Criterion.ORANGE):
        king = criterion is Criterion.KING

        def likeness(metric: Metric) -> float | None:
            measured = human_likeness(judged, metric, level, king)
            return measured.qarla_king if king else measured.asiya.orange

        return greedy(
            criterion.value,
            list(by_name),
            lambda name: likeness(by_name[name]),
            lambda names: likeness(combine(names)[0]),
        )

    def single(name: str) -> float:
        return criterion_value(criterion, metric_values(by_name[name], statistics[name], units, level), y)

    def combined(names: Sequence[str]) -> float:
        ulc, stats = combine(names)
        return criterion_value(criterion, metric_values(ulc, stats, units, level), y)

    return greedy(criterion.value, list(by_name), single, combined)
