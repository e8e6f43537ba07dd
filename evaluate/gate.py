"""The regression gate: decide from a comparison whether a candidate system may replace its baseline.

A retrained system is never equal to the one it replaces: some categories go
up, some down, most by amounts that resampling the test set would also
produce. A gate that fails on any drop fails every week; one that looks at a
single BLEU number misses a broken phenomenon that the other categories hide.
So a rule fails only when a drop is both

* **significant**: the paired bootstrap (or approximate randomization) of
  ``compare``, corrected for the number of scopes tested together (Holm by
  default, the families ``compare`` uses: the categories of the pair, its
  level groups, the taxonomy on its own; the metric rules are one more
  family), and
* **large enough to matter**: at least the rule's minimum drop. Check-point
  scores are in [0, 1]; the default :data:`DEFAULT_MIN_DROP` is two points.
  Metric rules use the metric's own scale, and for BLEU and chrF the defaults
  are the deltas at which Kocmi et al. (2024, "Navigating the Metrics Maze",
  Table 1) estimate that 75% of human pairwise system judgments agree with the
  metric (:data:`METRIC_DROPS`).

A category with fewer than ``min_checkpoints`` check-points is too noisy to
fail anything: it is reported as ``too_few`` and never fails. Everything here
works on results already computed (a :class:`~checkpoints.evaluate.comparison.Comparison`
and the metrics' paired tests), so the gate costs no matching of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.comparison import Comparison, ScopeComparison
from checkpoints.evaluate.metric_runner import MetricComparison
from checkpoints.evaluate.resample import PairedOutcome
from checkpoints.evaluate.scopes import ScopeKind

DEFAULT_MIN_DROP = 0.02
"""A check-point scope fails only when it drops by at least this much (two points of a score in [0, 1]).
Not from a source: set it from your own retraining noise (the gate between two trainings of one
system with different seeds shows which drops are noise)."""

METRIC_DROPS: dict[str, float] = {"BLEU": 0.0179, "chrF": 1.28}
"""Default minimum drops of metric rules, in the metric's own scale (``metrics`` prints BLEU in [0, 1]
and chrF in 0–100): Kocmi et al. 2024, Table 1, column "75%": BLEU 1.79 and chrF 1.28 points."""

SCOPE_KINDS = ("taxonomy", "group", "category")


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    TOO_FEW = "too_few"
    """Fewer check-points than ``min_checkpoints``: reported, never failed."""


@dataclass(frozen=True, slots=True)
class GateRules:
    """What fails the gate. ``category_drops`` overrides ``min_drop`` per category (by name);
    ``metrics`` maps each metric rule to its minimum drop (None: the default of :data:`METRIC_DROPS`)."""

    min_drop: float = DEFAULT_MIN_DROP
    category_drops: Mapping[str, float] = field(default_factory=dict)
    scopes: tuple[str, ...] = SCOPE_KINDS
    """Which kinds of scope are gated: ``taxonomy``, ``group``, ``category``."""
    metrics: Mapping[str, float | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.scopes) - set(SCOPE_KINDS))
        if unknown:
            raise UsageError(f"unknown scope kind {unknown[0]!r}: choose from {', '.join(SCOPE_KINDS)}")
        for name, value in [("min drop", self.min_drop), *self.category_drops.items(),
                            *((m, v) for m, v in self.metrics.items() if v is not None)]:
            if not np.isfinite(value) or value < 0:
                raise UsageError(f"the minimum drop of {name} must be a number ≥ 0, not {value}")

    def metric_drop(self, name: str) -> float:
        """The rule's minimum drop for metric ``name``; a metric without a published default needs one given."""
        given = self.metrics.get(name)
        if given is not None:
            return given
        if name in METRIC_DROPS:
            return METRIC_DROPS[name]
        raise UsageError(
            f"metric {name} has no default minimum drop (defaults exist for {', '.join(METRIC_DROPS)}): "
            f"give one, e.g. --metric-drop {name}=0.01"
        )

    def drop_for(self, kind: ScopeKind, name: str) -> float:
        return self.category_drops.get(name, self.min_drop) if kind is ScopeKind.CATEGORY else self.min_drop


@dataclass(frozen=True, slots=True)
class Verdict:
    """One rule's decision: a scope of the check-point comparison, or a metric."""

    rule: str
    """``taxonomy``, ``group``, ``category`` or ``metric``."""
    name: str
    outcome: Outcome
    baseline_score: float
    candidate_score: float
    difference: float
    """candidate − baseline (negative: a drop)."""
    interval: tuple[float, float]
    adjusted_p: float | None
    significant: bool
    min_drop: float
    checkpoints: int | None = None
    examples: tuple[dict[str, object], ...] = ()
    """For a failed scope: check-points the candidate lost, largest loss first."""

    @property
    def failed(self) -> bool:
        return self.outcome is Outcome.FAILED

    def message(self) -> str:
        """One line saying what the rule found, for the table, JUnit and logs."""
        what = f"{self.rule} {self.name}"
        low, high = self.interval
        size = f"{self.difference:+.4f} (95% interval {low:+.4f} to {high:+.4f}"
        size += f", p={self.adjusted_p:.4f})" if self.adjusted_p is not None else ")"
        if self.outcome is Outcome.TOO_FEW:
            return f"{what}: {self.checkpoints} check-points, too few to gate (difference {size}"
        if self.failed:
            return f"{what} regressed by {-self.difference:.4f} ≥ {self.min_drop:g}: {size}"
        reason = "not significant" if not self.significant else f"drop under {self.min_drop:g}"
        if self.difference >= 0:
            reason = "no drop"
        return f"{what} passed ({reason}): {size}"

    def to_json(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "name": self.name,
            "outcome": self.outcome.value,
            "baseline": self.baseline_score,
            "candidate": self.candidate_score,
            "difference": self.difference,
            "interval": list(self.interval),
            "adjusted_p": self.adjusted_p,
            "significant": self.significant,
            "min_drop": self.min_drop,
            "checkpoints": self.checkpoints,
            "message": self.message(),
            "examples": list(self.examples),
        }


@dataclass(frozen=True, slots=True)
class GateResult:
    suite: str
    baseline: str
    candidate: str
    verdicts: tuple[Verdict, ...]
    signature: str

    @property
    def passed(self) -> bool:
        return not any(verdict.failed for verdict in self.verdicts)

    @property
    def failures(self) -> list[Verdict]:
        return [verdict for verdict in self.verdicts if verdict.failed]

    def to_json(self) -> dict[str, object]:
        return {
            "suite": self.suite,
            "baseline": self.baseline,
            "candidate": self.candidate,
            "passed": self.passed,
            "failures": len(self.failures),
            "verdicts": [verdict.to_json() for verdict in self.verdicts],
            "signature": self.signature,
        }


def judge_scopes(comparison: Comparison, baseline: str, candidate: str, rules: GateRules) -> list[Verdict]:
    """One verdict per gated scope of the comparison of ``candidate`` against ``baseline``."""
    pair = comparison.pair(baseline, candidate)
    return [_scope_verdict(result, rules) for result in pair.results if result.scope.kind.value in rules.scopes]


def _scope_verdict(result: ScopeComparison, rules: GateRules) -> Verdict:
    return _verdict(
        result.scope.kind.value, result.scope.name, result.outcome, result.adjusted_p, result.significant,
        rules.drop_for(result.scope.kind, result.scope.name), too_few=result.too_few, checkpoints=result.checkpoints,
    )


def judge_metrics(comparisons: Sequence[MetricComparison], rules: GateRules) -> list[Verdict]:
    """One verdict per metric rule, from the metrics' paired tests of candidate against baseline
    (``p_adjusted`` already corrected over the metric rules as one family)."""
    return [
        _verdict("metric", item.metric, item.outcome, item.p_adjusted, item.significant, rules.metric_drop(item.metric))
        for item in comparisons
    ]


def _verdict(
    rule: str, name: str, outcome: PairedOutcome, adjusted_p: float | None, significant: bool, drop: float, *,
    too_few: bool = False, checkpoints: int | None = None,
) -> Verdict:
    """One paired comparison (baseline A, candidate B) judged against its minimum drop."""
    return Verdict(
        rule=rule,
        name=name,
        outcome=_decide(too_few, significant, outcome.difference, drop),
        baseline_score=outcome.score_a,
        candidate_score=outcome.score_b,
        difference=outcome.difference,
        interval=outcome.interval,
        adjusted_p=adjusted_p,
        significant=significant,
        min_drop=drop,
        checkpoints=checkpoints,
    )


def _decide(too_few: bool, significant: bool, difference: float, min_drop: float) -> Outcome:
    if too_few:
        return Outcome.TOO_FEW
    if significant and difference < 0 and -difference >= min_drop:
        return Outcome.FAILED
    return Outcome.PASSED
