"""Scopes and their scores: the sets of check-points that get a score, and formulas (3)–(5) over statistics.

A scope is a category, a level group or the whole taxonomy. Its score is
computed from summed **per-pair statistics** with columns ``[Σ DM·matched,
Σ DM·total, T-length·1[pair in scope], R-length·1[pair in scope], 1[pair in
scope]]`` (:mod:`checkpoints.evaluate.scoring` builds them), so that any
multiset of pairs, a bootstrap resample included, is scored by summing rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np

MATCHED, TOTAL, TRANSLATION_LENGTH, REFERENCE_LENGTH, PAIRS = range(5)
"""Columns of the per-pair statistics."""
N_STATS = 5


class ScopeKind(StrEnum):
    CATEGORY = "category"
    GROUP = "group"
    TAXONOMY = "taxonomy"


@dataclass(frozen=True, slots=True)
class Scope:
    """A set of check-points that gets a score: a category, a level group, or all."""

    kind: ScopeKind
    name: str

    def label(self) -> str:
        return f"{self.kind.value}:{self.name}"


def recall_from_stats(stats: np.ndarray) -> np.ndarray:
    """Formula (3) from summed statistics, vectorised over leading axes."""
    stats = np.asarray(stats, dtype=np.float64)
    matched, total = stats[..., MATCHED], stats[..., TOTAL]
    return np.divide(matched, total, out=np.zeros_like(matched), where=total > 0)


def penalty_from_stats(stats: np.ndarray) -> np.ndarray:
    """Formula (4) from summed statistics (ratio of summed = ratio of average lengths)."""
    stats = np.asarray(stats, dtype=np.float64)
    translation, reference = stats[..., TRANSLATION_LENGTH], stats[..., REFERENCE_LENGTH]
    longer = translation > reference
    ratio = np.divide(reference, translation, out=np.ones_like(translation), where=longer)
    return np.where(longer, ratio, 1.0)


def score_from_stats(stats: np.ndarray) -> np.ndarray:
    """Formula (5): recall × penalty, vectorised over every leading axis."""
    return recall_from_stats(stats) * penalty_from_stats(stats)


@dataclass(frozen=True, slots=True)
class ScopeScore:
    """One line of a report: a scope's recall, penalty and score for one system."""

    scope: Scope
    checkpoints: int
    pairs: int
    recall: float
    penalty: float
    score: float
    translation_length: float
    """Average system translation length over the scope's pairs."""
    reference_length: float
    """Average reference translation length over the scope's pairs."""


@dataclass(frozen=True, slots=True)
class SystemReport:
    """All scopes of one system, taxonomy first, then groups, then categories."""

    scopes: tuple[ScopeScore, ...]

    @property
    def taxonomy(self) -> ScopeScore:
        return next(s for s in self.scopes if s.scope.kind is ScopeKind.TAXONOMY)

    @property
    def groups(self) -> dict[str, ScopeScore]:
        return {s.scope.name: s for s in self.scopes if s.scope.kind is ScopeKind.GROUP}

    @property
    def categories(self) -> dict[str, ScopeScore]:
        return {s.scope.name: s for s in self.scopes if s.scope.kind is ScopeKind.CATEGORY}

    def to_json(self) -> dict[str, object]:
        """The per-system object of ``evaluate --format json``."""
        top = self.taxonomy
        return {
            "score": top.score,
            "recall": top.recall,
            "penalty": top.penalty,
            "checkpoints": top.checkpoints,
            "groups": {name: s.score for name, s in self.groups.items()},
            "categories": {
                name: {"score": s.score, "recall": s.recall, "penalty": s.penalty, "checkpoints": s.checkpoints}
                for name, s in self.categories.items()
            },
        }
