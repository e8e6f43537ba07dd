"""What ``checkpoints meta`` was asked to compute, and what it found: options and results.

Kept apart from the runner so that the report writers, the greedy set
search and the learned combinations share them without importing the
whole pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from checkpoints.engine import EngineSpec
from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.clusters import Clusters
from checkpoints.evaluate.meta.criteria import (
    DEFAULT_CRITERIA,
    HUMAN_LIKENESS,
    SYSTEM_ONLY,
    Criterion,
)
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.evaluate.resample import DEFAULT_SAMPLES, DEFAULT_SEED, ResampleSpec
from checkpoints.signature import Signature

if TYPE_CHECKING:
    from checkpoints.evaluate.meta.learn import LearnOptions, LearnResult
    from checkpoints.evaluate.meta.optimize import GreedyResult


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
    clusters: Criterion | None = None
    """Rank the metrics into significance clusters for this criterion (permutation test, ``samples``, ``seed``)."""
    optimize: Criterion | None = None
    """Search the greedy optimal metric set by this criterion (:mod:`~checkpoints.evaluate.meta.optimize`)."""
    learn: LearnOptions | None = None
    """Learn a combination of metrics from the human scores (:mod:`~checkpoints.evaluate.meta.learn`)."""
    jobs: int = 1
    """Worker processes scoring metrics side by side (:mod:`~checkpoints.evaluate.meta.parallel`)."""
    engine: EngineSpec = field(default_factory=EngineSpec)
    """Where metrics are scored: here (``jobs`` forked workers) or on Ray's workers."""

    def __post_init__(self) -> None:
        if self.jobs < 1:
            raise UsageError(f"jobs must be at least 1, not {self.jobs}")
        self.engine.validate()
        if self.engine.name != "local" and self.jobs > 1:
            raise UsageError("--jobs forks workers on this machine; with --engine ray give --workers")
        if not 0.0 < self.alpha < 1.0:
            raise UsageError(f"alpha must lie strictly between 0 and 1, not {self.alpha}")
        if not self.criteria:
            raise UsageError("no criterion chosen")
        if self.samples < 1:
            raise UsageError(f"samples must be at least 1, not {self.samples}")
        for criterion in SYSTEM_ONLY:
            if criterion in self.criteria and self.level is not Granularity.SYS:
                raise UsageError(f"{criterion.value} compares systems: it needs system level (-g sys), not {self.level.value}")
        if self.clusters in SYSTEM_ONLY | HUMAN_LIKENESS:
            raise UsageError(f"significance clusters are not defined for {self.clusters.value}")
        if self.optimize in SYSTEM_ONLY:
            raise UsageError(f"the greedy metric set cannot be searched by {self.optimize.value}: "
                             "choose a correlation criterion, king or orange")

    @property
    def correlations(self) -> tuple[Criterion, ...]:
        """The criteria computed from metric and human scores (all but human likeness)."""
        return tuple(c for c in self.criteria if c not in HUMAN_LIKENESS)

    @property
    def permuted(self) -> bool:
        """Whether a permutation test runs (SPA's p-values, significance clusters)."""
        return self.clusters is not None or any(c in SYSTEM_ONLY for c in self.criteria)

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
        if self.clusters is not None:
            signature = signature.with_fields(clusters=self.clusters.value)
        if self.optimize is not None:
            signature = signature.with_fields(optimize=self.optimize.value)
        if self.learn is not None:
            signature = signature.with_fields(self.learn.signature_fields(self.seed))
        if self.resampled:
            signature = signature.with_fields(ResampleSpec(samples=self.samples, seed=self.seed).signature_fields())
        elif self.permuted:
            signature = signature.with_fields(permutations=self.samples, seed=self.seed)
        return signature



@dataclass(frozen=True, slots=True)
class CorrelationResult:
    """One coefficient: ``r`` (the bootstrap median under a bootstrap interval, as Asiya reports it),
    its interval, and the full-sample coefficient when ``r`` is a bootstrap median."""

    r: float | None
    ci: tuple[float, float] | None = None
    observed: float | None = None
    items: int | None = None
    """Grouped results: the items whose coefficient is defined."""
    extra: dict[str, object] | None = None
    """What the criterion chose or tested on the way: acc-eq's ``epsilon``, SPA's ``p_values``."""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"r": self.r, "ci": list(self.ci) if self.ci is not None else None}
        if self.extra:
            out.update(self.extra)
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
    clusters: Clusters | None = None


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
    clusters: Clusters | None = None
    spa: dict[str, object] | None = None
    """SPA's shared part: the human p-values per system pair and the segments tested."""
    warnings: tuple[str, ...] = ()
    """One-line warnings about the test bed (a reference the humans rate below most systems)."""
    optimal: GreedyResult | None = None
    """The greedy optimal metric set, when it was searched for."""
    learned: LearnResult | None = None
    """The learned combination and its cross-validated figures, when one was learned."""
    points: dict[str, object] | None = None
    """System level: each system's human score and each metric's score, the points every
    correlation was computed on (what a scatter plot of metric against human draws)."""

    def to_json(self) -> dict[str, object]:
        """The ``meta --format json`` object (docs/architecture.md and the command's --help), with the options and signatures added."""
        out: dict[str, object] = {
            "level": self.level.value,
            "n": self.n,
            "judgments": self.judgments,
            "criteria": [c.value for c in self.options.criteria],
            "ci": self.options.ci.value,
            "alpha": self.options.alpha,
            "results": _results_json(self.results),
        }
        if self.options.resampled or self.options.permuted:
            out["samples"] = self.options.samples
            out["seed"] = self.options.seed
        if self.paired is not None:
            out["paired"] = _paired_json(self.paired)
        if self.spa is not None:
            out["spa"] = self.spa
        if self.clusters is not None:
            out["clusters"] = self.clusters.to_json()
        if self.grouped is not None:
            grouped: dict[str, object] = {"by": "item", "n": self.grouped.n, "results": _results_json(self.grouped.results)}
            if self.grouped.paired is not None:
                grouped["paired"] = _paired_json(self.grouped.paired)
            if self.grouped.clusters is not None:
                grouped["clusters"] = self.grouped.clusters.to_json()
            out["grouped"] = grouped
        if self.optimal is not None:
            out.update(self.optimal.to_json())
        if self.learned is not None:
            out["learn"] = self.learned.to_json()
        if self.points is not None:
            out["points"] = self.points
        if self.warnings:
            out["warnings"] = list(self.warnings)
        out["signature"] = self.options.signature().format()
        out["signatures"] = dict(self.signatures)
        return out


def _results_json(results: Results) -> dict[str, object]:
    return {name: {c.value: value.to_json() for c, value in by.items()} for name, by in results.items()}


def _paired_json(paired: Paired) -> dict[str, object]:
    return {c.value: matrix for c, matrix in paired.items()}


