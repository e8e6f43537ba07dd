"""Human-marked errors attributed to check-points: does a missed check-point mean a real error?

A category score promises to measure how well a system translates one
phenomenon. Expert MQM annotations (Freitag et al. 2021) say where the errors
of an output are, character by character; following each check-point's
source words through a source–output alignment
(:mod:`checkpoints.evaluate.output_links`) to the output's words tells which
errors fall on which check-points. An error **overlaps** a check-point when
one of its marked output characters lies in an output word linked to the
check-point's source words, or — for an omission, which MQM marks in the
source — when its marked source characters cover one of those source words.

Per system and category this gives what an MT developer asks a human
evaluation for: **errors per 100 check-points** by severity and MQM type
(an error counts once per check-point it overlaps, divided by the number of
raters of the segment, so that several raters do not multiply it), the
**MQM penalty attributed to the category** (per rated segment, the weights
of the errors that overlap at least one of its check-points, averaged over
raters as the MQM score is), and the share of check-points **without a
linked output word** (the aligner found no translation: an omission, or an
alignment gap).

And per category, pooled over systems, whether its scores can be trusted:

* **P(error | missed)** and **P(error | matched)**: the share of linked
  check-points overlapping an error among those the system missed (less
  than :data:`MISSED_BELOW` of the chosen reference's n-grams found) and
  among those it matched. Their ratio, the **lift**, with a bootstrap
  interval over sentence pairs (all systems' check-points of a resampled
  pair move together), says how much more often a miss is a real error;
  1 means the category's misses tell nothing;
* the system-level **Pearson** and **Kendall** (tau-b) correlation of the
  category score with the negated penalty attributed to that category — a
  Pronoun score should track pronoun errors, not all errors.

Figures computed from fewer than :data:`MIN_RELIABLE` check-points carry a
warning: fewer distinct check-points of the category (13 systems scoring the
same 14 check-points are still 14 check-points), or fewer missed or matched
ones pooled over the systems.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from checkpoints.evaluate.output_links import LinkedOutput, Span
from checkpoints.evaluate.resample import DEFAULT_SAMPLES, DEFAULT_SEED, Resampler, ResampleSpec
from checkpoints.io.mqm import MQMData, error_type

MISSED_BELOW = 0.5
"""A check-point is missed when less than this share of its chosen reference's n-grams is found."""
MIN_RELIABLE = 30
"""Fewer check-points than this make a share too noisy to read without a warning."""
SEVERITIES = ("Major", "Minor")
ALL = "all categories"
"""The row of every check-point together."""
CONFIDENCE = 0.95
EXAMPLES_PER_CATEGORY = 3


@dataclass(frozen=True, slots=True)
class RatedError:
    """One error a rater marked in one output (only errors with an MQM weight: not No-error, not Neutral)."""

    rater: str
    category: str
    severity: str
    weight: float
    target: tuple[Span, ...]
    """Marked characters of the output."""
    source: tuple[Span, ...]
    """Marked characters of the source (omissions)."""

    @property
    def kind(self) -> str:
        return error_type(self.category)

    def to_json(self) -> dict[str, Any]:
        return {
            "rater": self.rater, "category": self.category, "severity": self.severity, "weight": self.weight,
            "target": [list(span) for span in self.target], "source": [list(span) for span in self.source],
        }


@dataclass(frozen=True, slots=True)
class RatedSegment:
    """What the raters of one (system, segment) found: how many raters, and their errors."""

    raters: int
    errors: tuple[RatedError, ...]


def rated_segments(data: MQMData, system: str, segments: Sequence[int]) -> dict[int, RatedSegment]:
    """Position (in ``segments``, = suite pair position) → the system's rated segment there."""
    position = {seg: index for index, seg in enumerate(segments)}
    raters: dict[int, set[str]] = defaultdict(set)
    errors: dict[int, list[RatedError]] = defaultdict(list)
    for error in data.errors:
        if error.system != system or error.seg_id not in position:
            continue
        where = position[error.seg_id]
        raters[where].add(error.rater)
        if error.weight > 0:
            errors[where].append(
                RatedError(error.rater, error.category, error.severity, error.weight,
                           error.target_spans, error.source_spans)
            )
    return {where: RatedSegment(len(names), tuple(errors[where])) for where, names in raters.items()}


def _overlaps(ranges: Sequence[Span], spans: Sequence[Span]) -> bool:
    return any(start < end_ and start_ < end for start, end in ranges for start_, end_ in spans)


@dataclass(frozen=True, slots=True)
class CheckpointView:
    """The evaluated check-points as attribution reads them (aligned with ``CheckpointScorer.checkpoints``)."""

    categories: tuple[str, ...]
    """Category of each check-point, in the suite's category order."""
    category: tuple[str, ...]
    position: np.ndarray
    """Suite pair position of each check-point."""
    source_indices: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class SystemOutcome:
    """Per check-point of one system: rated, linked, missed, and the errors it overlaps."""

    system: str
    rated: np.ndarray
    linked: np.ndarray
    missed: np.ndarray
    overlaps: tuple[tuple[RatedError, ...], ...]
    weight: np.ndarray
    """1 / raters of the check-point's segment (0 where unrated): what one overlapping error counts."""
    penalty: dict[str, float]
    """Category (and :data:`ALL`) → attributed MQM penalty per rated segment."""
    segment_penalty: dict[str, dict[int, float]]
    """Category (and :data:`ALL`) → rated segment (pair position) → the penalty attributed there
    (segments without an attributed error left out): ``meta --by-category``'s human scores."""
    rated_segments: int
    score: dict[str, float]
    """Category (and :data:`ALL`) → the category score of the evaluation."""

    @property
    def in_error(self) -> np.ndarray:
        return np.fromiter((bool(found) for found in self.overlaps), dtype=bool, count=len(self.overlaps))


def system_outcome(
    system: str,
    view: CheckpointView,
    ratio: np.ndarray,
    linked_outputs: Sequence[LinkedOutput],
    source_ranges: Sequence[Sequence[Span | None]],
    rated: Mapping[int, RatedSegment],
    score: Mapping[str, float],
) -> SystemOutcome:
    """Attribute one system's rated errors to its check-points (module docstring).

    ``ratio`` is each check-point's matched / total n-grams of its chosen
    reference; ``linked_outputs`` and ``source_ranges`` are per suite pair.
    """
    count = len(view.category)
    is_rated = np.zeros(count, dtype=bool)
    is_linked = np.zeros(count, dtype=bool)
    weight = np.zeros(count)
    overlaps: list[tuple[RatedError, ...]] = []
    attributed: dict[str, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for number in range(count):
        position = int(view.position[number])
        segment = rated.get(position)
        sources = view.source_indices[number]
        linked = linked_outputs[position].spans_of(sources)
        is_linked[number] = bool(linked)
        if segment is None:
            overlaps.append(())
            continue
        is_rated[number] = True
        weight[number] = 1.0 / segment.raters
        marked_source = [source_ranges[position][index] for index in sources]
        source_chars = [span for span in marked_source if span is not None]
        found = [
            error_number for error_number, error in enumerate(segment.errors)
            if _overlaps(linked, error.target) or _overlaps(source_chars, error.source)
        ]
        overlaps.append(tuple(segment.errors[error_number] for error_number in found))
        if found:
            attributed[view.category[number]][position].update(found)
            attributed[ALL][position].update(found)
    segments = len(rated)
    segment_penalty = {
        name: {
            position: math.fsum(rated[position].errors[e].weight for e in sorted(found)) / rated[position].raters
            for position, found in attributed.get(name, {}).items()
        }
        for name in (*view.categories, ALL)
    }
    penalty = {
        name: math.fsum(by_segment.values()) / segments if segments else 0.0
        for name, by_segment in segment_penalty.items()
    }
    missed = ratio < MISSED_BELOW
    return SystemOutcome(system, is_rated, is_linked, missed, tuple(overlaps), weight, penalty, segment_penalty,
                         segments, dict(score))


@dataclass(frozen=True, slots=True)
class CategoryErrors:
    """Errors attributed to one category of one system."""

    system: str
    category: str
    checkpoints: int
    """Check-points in segments the system was rated on."""
    unlinked: float
    """Share of them with no linked output word."""
    per_100: float
    by_severity: dict[str, float]
    by_type: dict[str, float]
    penalty: float
    score: float | None

    @property
    def few(self) -> bool:
        return self.checkpoints < MIN_RELIABLE

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system, "category": self.category, "checkpoints": self.checkpoints,
            "unlinked": _round(self.unlinked), "errors_per_100": _round(self.per_100),
            "by_severity": {key: _round(value) for key, value in self.by_severity.items()},
            "by_type": {key: _round(value) for key, value in self.by_type.items()},
            "penalty": _round(self.penalty), "score": _round(self.score), "few": self.few,
        }


@dataclass(frozen=True, slots=True)
class CategoryValidity:
    """Whether one category's misses are real errors, pooled over the systems."""

    category: str
    missed: int
    matched: int
    missed_in_error: int
    matched_in_error: int
    lift_interval: tuple[float | None, float | None]
    pearson: float | None
    pearson_p: float | None
    kendall: float | None
    kendall_p: float | None
    checkpoints: int = 0
    """Distinct check-points behind the row: ``missed`` and ``matched`` count each once per system."""

    @property
    def p_missed(self) -> float | None:
        return self.missed_in_error / self.missed if self.missed else None

    @property
    def p_matched(self) -> float | None:
        return self.matched_in_error / self.matched if self.matched else None

    @property
    def lift(self) -> float | None:
        return _lift(self.p_missed, self.p_matched)

    @property
    def warnings(self) -> list[str]:
        """What makes a figure of this row unreliable."""
        notes = []
        if self.checkpoints < MIN_RELIABLE:
            notes.append(f"every figure from {self.checkpoints} check-points (< {MIN_RELIABLE}), however many systems")
        if self.missed < MIN_RELIABLE:
            notes.append(f"P(error | missed) from {self.missed} check-points (< {MIN_RELIABLE})")
        if self.matched < MIN_RELIABLE:
            notes.append(f"P(error | matched) from {self.matched} check-points (< {MIN_RELIABLE})")
        return notes

    def to_json(self) -> dict[str, Any]:
        low, high = self.lift_interval
        return {
            "category": self.category, "checkpoints": self.checkpoints, "missed": self.missed, "matched": self.matched,
            "missed_in_error": self.missed_in_error, "matched_in_error": self.matched_in_error,
            "p_error_missed": _round(self.p_missed), "p_error_matched": _round(self.p_matched),
            "lift": _round(self.lift), "lift_interval": [_round(low), _round(high)],
            "pearson": _round(self.pearson), "pearson_p": _round(self.pearson_p),
            "kendall": _round(self.kendall), "kendall_p": _round(self.kendall_p),
            "warnings": self.warnings,
        }


@dataclass(frozen=True, slots=True)
class Example:
    """A missed check-point inside a rated error, for the report's drill-down."""

    category: str
    system: str
    pair: int
    """Suite pair position."""
    source: str
    """The check-point's source words."""
    reference: str
    output: str
    linked: tuple[Span, ...]
    errors: tuple[RatedError, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category, "system": self.system, "pair": self.pair + 1, "source": self.source,
            "reference": self.reference, "output": self.output, "linked": [list(span) for span in self.linked],
            "errors": [error.to_json() for error in self.errors],
        }


@dataclass(frozen=True, slots=True)
class Attribution:
    """Everything ``checkpoints attribute`` reports (module docstring)."""

    suite: str
    systems: tuple[str, ...]
    categories: tuple[str, ...]
    errors: tuple[CategoryErrors, ...]
    validity: tuple[CategoryValidity, ...]
    words_in_errors: float
    """Share of all rated output words inside a marked span: the chance level of P(error)."""
    examples: tuple[Example, ...]
    signature: str
    options: dict[str, Any] = field(default_factory=dict)

    def validity_of(self, category: str) -> CategoryValidity:
        return next(row for row in self.validity if row.category == category)

    def to_json(self) -> dict[str, Any]:
        return {
            "suite": self.suite, "systems": list(self.systems), "categories": list(self.categories),
            "words_in_errors": _round(self.words_in_errors), "signature": self.signature, "options": self.options,
            "validity": [row.to_json() for row in self.validity],
            "errors": [row.to_json() for row in self.errors],
            "examples": [example.to_json() for example in self.examples],
        }


def category_errors(outcome: SystemOutcome, view: CheckpointView) -> list[CategoryErrors]:
    """Errors per 100 check-points, penalty and unlinked share of every category of one system."""
    rows = []
    names = np.array(view.category, dtype=object)
    for name in (*view.categories, ALL):
        members = outcome.rated & (names == name) if name != ALL else outcome.rated.copy()
        count = int(members.sum())
        severity = dict.fromkeys(SEVERITIES, 0.0)
        kinds: dict[str, float] = defaultdict(float)
        total = 0.0
        for number in np.flatnonzero(members).tolist():
            for error in outcome.overlaps[number]:
                share = float(outcome.weight[number])
                total += share
                if error.severity in severity:
                    severity[error.severity] += share
                kinds[error.kind] += share
        scale = 100.0 / count if count else 0.0
        rows.append(
            CategoryErrors(
                system=outcome.system, category=name, checkpoints=count,
                unlinked=float((~outcome.linked[members]).mean()) if count else 0.0,
                per_100=total * scale,
                by_severity={key: value * scale for key, value in severity.items()},
                by_type={key: value * scale for key, value in sorted(kinds.items())},
                penalty=outcome.penalty[name], score=outcome.score.get(name),
            )
        )
    return rows


def category_validity(
    outcomes: Sequence[SystemOutcome], view: CheckpointView, pairs: int, *, seed: int = DEFAULT_SEED,
    samples: int = DEFAULT_SAMPLES,
) -> list[CategoryValidity]:
    """P(error | missed), P(error | matched), lift with its bootstrap interval, and the system-level
    correlations, for every category and for all check-points together."""
    from scipy import stats

    names = (*view.categories, ALL)
    code = {name: number for number, name in enumerate(view.categories)}
    categories = np.array([code[name] for name in view.category], dtype=np.int64)
    counts = np.zeros((pairs, len(names), 4))  # missed, missed in error, matched, matched in error
    counted = np.zeros(len(categories), dtype=bool)  # check-points that count for some system
    for outcome in outcomes:
        used = outcome.rated & outcome.linked
        counted |= used
        column = np.where(outcome.missed, 0, 2)
        errors = outcome.in_error.astype(np.float64)
        for rows in (categories, np.full(len(categories), len(names) - 1)):
            np.add.at(counts, (view.position[used], rows[used], column[used]), 1.0)
            np.add.at(counts, (view.position[used], rows[used], column[used] + 1), errors[used])
    totals = counts.sum(axis=0)
    distinct = [*np.bincount(categories[counted], minlength=len(view.categories)).tolist(), int(counted.sum())]
    low, high = _lift_intervals(counts, seed, samples)
    rows = []
    for number, name in enumerate(names):
        scores = [outcome.score.get(name) for outcome in outcomes]
        penalties = [-outcome.penalty[name] for outcome in outcomes]
        pearson = pearson_p = kendall = kendall_p = None
        if len(outcomes) >= 3 and all(value is not None for value in scores) and np.ptp(scores) and np.ptp(penalties):
            r = stats.pearsonr(scores, penalties)
            tau = stats.kendalltau(scores, penalties)
            pearson, pearson_p, kendall, kendall_p = (float(r.statistic), float(r.pvalue),
                                                      float(tau.statistic), float(tau.pvalue))
        missed, missed_error, matched, matched_error = (round(float(value)) for value in totals[number])
        rows.append(
            CategoryValidity(name, missed, matched, missed_error, matched_error, (low[number], high[number]),
                             pearson, pearson_p, kendall, kendall_p, checkpoints=distinct[number])
        )
    return rows


def _lift_intervals(counts: np.ndarray, seed: int, samples: int) -> tuple[list[float | None], list[float | None]]:
    """Percentile bootstrap interval of each category's lift, resampling sentence pairs."""
    width = counts.shape[1]
    if counts.shape[0] == 0:
        return [None] * width, [None] * width
    sums = Resampler(counts.shape[0], ResampleSpec(samples=samples, seed=seed)).bootstrap_sums(counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        lifts = (sums[..., 1] / sums[..., 0]) / (sums[..., 3] / sums[..., 2])
    tail = 100 * (1 - CONFIDENCE) / 2
    low: list[float | None] = []
    high: list[float | None] = []
    for column in range(width):
        values = lifts[:, column]
        values = values[np.isfinite(values)]
        if len(values) < samples * 0.9:  # most resamples undefined: no interval worth showing
            low.append(None)
            high.append(None)
        else:
            low.append(float(np.percentile(values, tail)))
            high.append(float(np.percentile(values, 100 - tail)))
    return low, high


def words_in_errors(linked_outputs: Mapping[str, Sequence[LinkedOutput]], rated: Mapping[str, Mapping[int, RatedSegment]]) -> float:
    """Share of the rated outputs' words inside some marked error span."""
    inside = words = 0
    for system, outputs in linked_outputs.items():
        for position, segment in rated.get(system, {}).items():
            spans = [span for error in segment.errors for span in error.target]
            for word in outputs[position].words:
                words += 1
                inside += _overlaps([word], spans)
    return inside / words if words else 0.0


def _lift(missed: float | None, matched: float | None) -> float | None:
    if missed is None or not matched:
        return None
    return missed / matched


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, digits)
