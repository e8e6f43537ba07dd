"""Significance of check-point score differences between systems (Zhou §6, Koehn 2004).

Items are the sentence pairs of the evaluated set; each system is its
per-pair statistics matrix (:meth:`SystemScores.statistics`), so a resample
re-weights rows and never re-matches. Paired bootstrap (default): the same
full-size resamples of pairs, drawn with replacement, serve every system and
every scope; approximate randomization as an option. Both come from
:mod:`checkpoints.evaluate.resample`, the engine metric significance uses too.

For every compared pair of systems and every scope (category, level group,
taxonomy) the result holds both scores, the difference B − A with its
percentile interval, the paired t statistic

    t = (Score_B − Score_A) / sd_b(Score_B^(b) − Score_A^(b)),

the observed difference over the standard deviation of the differences over
the bootstrap resamples b (the bootstrap standard error; Zhou et al. call
|t| > 2.17 significant), and a two-sided p-value with the +1 rule.

Multiple comparisons: for one pair of systems, the p-values of the eligible
categories form one correction family (Holm by default, Benjamini–Hochberg,
or none), the eligible level groups a second, the taxonomy score a family of
its own. A scope with fewer than ``min_checkpoints`` check-points is reported
but marked ``too_few``, left out of its family and never flagged.

Without a baseline every pair of systems is compared, and each scope gets
significance clusters: systems from best to worst, a system joining the
current cluster while it is not significantly different from the cluster's
best ("relative clauses: {A, C} > {B} > {D}"). With a baseline every other
system is compared against the baseline only, and there are no clusters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from checkpoints.errors import SuiteError, UsageError
from checkpoints.evaluate.defaults import DEFAULT_MIN_CHECKPOINTS
from checkpoints.evaluate.resample import (
    PairedOutcome,
    Resampler,
    ResampleSpec,
    paired_tests,
)
from checkpoints.evaluate.scopes import Scope, ScopeKind, score_from_stats
from checkpoints.evaluate.scoring import SystemScores
from checkpoints.evaluate.significance import (
    Correction,
    adjust_p_values,
    format_clusters,
    significance_clusters,
)
from checkpoints.signature import Signature


@dataclass(frozen=True, slots=True)
class ScopeComparison:
    """System B against system A on one scope."""

    scope: Scope
    checkpoints: int
    outcome: PairedOutcome
    adjusted_p: float | None
    """The p-value after correction within the scope's family; None when too few."""
    significant: bool
    too_few: bool

    def to_json(self) -> dict[str, object]:
        o = self.outcome
        return {
            "kind": self.scope.kind.value,
            "checkpoints": self.checkpoints,
            "score_a": o.score_a,
            "score_b": o.score_b,
            "difference": o.difference,
            "interval": list(o.interval),
            "t": _json_number(o.t),
            "p_value": o.p_value,
            "adjusted_p": self.adjusted_p,
            "significant": self.significant,
            "too_few": self.too_few,
        }


@dataclass(frozen=True, slots=True)
class PairComparison:
    """All scopes of one pair of systems; differences are ``system_b − system_a``."""

    system_a: str
    system_b: str
    results: tuple[ScopeComparison, ...]

    def result(self, scope: Scope) -> ScopeComparison:
        return next(r for r in self.results if r.scope == scope)

    def category(self, name: str) -> ScopeComparison:
        return self.result(Scope(ScopeKind.CATEGORY, name))


@dataclass(frozen=True, slots=True)
class Comparison:
    systems: tuple[str, ...]
    baseline: str | None
    spec: ResampleSpec
    correction: Correction
    alpha: float
    min_checkpoints: int
    scopes: tuple[Scope, ...]
    scores: dict[str, dict[Scope, float]]
    pairs: tuple[PairComparison, ...]
    clusters: dict[Scope, list[list[str]]] = field(default_factory=dict)
    scorer_signature: Signature | None = None

    def pair(self, a: str, b: str) -> PairComparison:
        for pair in self.pairs:
            if (pair.system_a, pair.system_b) == (a, b):
                return pair
        raise KeyError((a, b))

    def significant(self, a: str, b: str, scope: Scope) -> bool:
        """Whether systems a and b differ significantly on ``scope`` (either order)."""
        for pair in self.pairs:
            if {pair.system_a, pair.system_b} == {a, b}:
                return pair.result(scope).significant
        raise KeyError((a, b))

    def cluster_text(self, scope: Scope) -> str:
        return format_clusters(self.clusters[scope])

    def correction_text(self) -> str:
        return (
            f"{self.correction.value} within each system pair, over its categories and, "
            f"separately, its level groups; scopes under {self.min_checkpoints} check-points are never flagged"
        )

    def significance_fields(self) -> dict[str, object]:
        """What decided significance: the resampling, the correction, alpha and the minimum size."""
        return {
            **self.spec.signature_fields(),
            "correction": self.correction.value,
            "alpha": self.alpha,
            "min-checkpoints": self.min_checkpoints,
        }

    def signature(self) -> Signature:
        """The significance fields, then how the scores were matched."""
        return Signature(self.significance_fields()).with_fields(self.scorer_signature or {})

    def to_json(self) -> dict[str, object]:
        """The ``compare --format json`` object."""
        return {
            "systems": list(self.systems),
            "baseline": self.baseline,
            "method": self.spec.method.value,
            "samples": self.spec.samples,
            "seed": self.spec.seed,
            "correction": self.correction.value,
            "correction_family": self.correction_text(),
            "alpha": self.alpha,
            "min_checkpoints": self.min_checkpoints,
            "scores": {name: {scope.label(): value for scope, value in by_scope.items()}
                       for name, by_scope in self.scores.items()},
            "comparisons": [
                {
                    "system_a": pair.system_a,
                    "system_b": pair.system_b,
                    "taxonomy": {r.scope.name: r.to_json() for r in pair.results if r.scope.kind is ScopeKind.TAXONOMY},
                    "groups": {r.scope.name: r.to_json() for r in pair.results if r.scope.kind is ScopeKind.GROUP},
                    "categories": {
                        r.scope.name: r.to_json() for r in pair.results if r.scope.kind is ScopeKind.CATEGORY
                    },
                }
                for pair in self.pairs
            ],
            "clusters": {scope.label(): clusters for scope, clusters in self.clusters.items()},
            "signature": self.signature().format(),
        }


def _json_number(value: float) -> float | str:
    return value if np.isfinite(value) else ("inf" if value > 0 else "-inf")


def compare(
    scores: Mapping[str, SystemScores],
    spec: ResampleSpec | None = None,
    correction: Correction | str = Correction.HOLM,
    baseline: str | None = None,
    min_checkpoints: int = DEFAULT_MIN_CHECKPOINTS,
    alpha: float = 0.05,
) -> Comparison:
    """Compare two or more systems scored by the same :class:`CheckpointScorer`."""
    spec = spec or ResampleSpec()
    correction = _correction(correction)
    names = tuple(scores)
    if len(names) < 2:
        raise UsageError("compare needs at least two systems")
    if not 0 < alpha < 1:
        raise UsageError(f"alpha must lie between 0 and 1, not {alpha}")
    if min_checkpoints < 0:
        raise UsageError(f"the minimum number of check-points cannot be negative ({min_checkpoints})")
    scorer = scores[names[0]].scorer
    if any(s.scorer is not scorer for s in scores.values()):
        raise UsageError("all systems must be scored by the same check-point scorer (same suite and options)")
    if baseline is not None and baseline not in scores:
        raise SuiteError(f"baseline {baseline!r} is not among the compared systems ({', '.join(names)})")

    scopes = tuple(scorer.scopes)
    counts = scorer.scope_checkpoints
    eligible = counts >= min_checkpoints
    stats = {name: s.statistics() for name, s in scores.items()}
    observed = {name: score_from_stats(stats[name].sum(axis=0)) for name in names}
    resampler = Resampler(len(scorer.pair_positions), spec)
    resampled = {name: score_from_stats(resampler.bootstrap_sums(stats[name])) for name in names}

    if baseline is None:
        ordered = list(combinations(names, 2))
    else:
        ordered = [(baseline, name) for name in names if name != baseline]

    families = [
        np.array([scope.kind is kind for scope in scopes]) & eligible
        for kind in (ScopeKind.CATEGORY, ScopeKind.GROUP, ScopeKind.TAXONOMY)
    ]
    pairs = []
    for a, b in ordered:
        outcomes = paired_tests(
            stats[a], stats[b], score_from_stats, resampler, alpha, resampled_a=resampled[a], resampled_b=resampled[b]
        )
        adjusted: list[float | None] = [None] * len(scopes)
        for family in families:
            members = np.flatnonzero(family)
            for index, value in zip(members, adjust_p_values([outcomes[i].p_value for i in members], correction),
                                    strict=True):
                adjusted[index] = value
        results = tuple(
            ScopeComparison(
                scope=scope,
                checkpoints=int(counts[i]),
                outcome=outcomes[i],
                adjusted_p=adjusted[i],
                significant=adjusted[i] is not None and adjusted[i] <= alpha,  # type: ignore[operator]
                too_few=not bool(eligible[i]),
            )
            for i, scope in enumerate(scopes)
        )
        pairs.append(PairComparison(a, b, results))

    comparison = Comparison(
        systems=names,
        baseline=baseline,
        spec=spec,
        correction=correction,
        alpha=alpha,
        min_checkpoints=min_checkpoints,
        scopes=scopes,
        scores={name: {scope: float(observed[name][i]) for i, scope in enumerate(scopes)} for name in names},
        pairs=tuple(pairs),
        scorer_signature=scorer.signature(),
    )
    if baseline is None:
        for scope in scopes:
            comparison.clusters[scope] = significance_clusters(
                {name: comparison.scores[name][scope] for name in names},
                lambda x, y, scope=scope: comparison.significant(x, y, scope),
            )
    return comparison


def _correction(value: Correction | str) -> Correction:
    try:
        return Correction(value)
    except ValueError:
        choices = ", ".join(c.value for c in Correction)
        raise UsageError(f"unknown correction {value!r} (choose from {choices})") from None

