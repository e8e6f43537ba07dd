"""How an evaluation run matched, as stored with it: one type for writing and for reading back.

Runs stored by older releases lack some fields; their values then are what
those releases did (every n-gram order, no alternatives), in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from checkpoints.evaluate.matching import order_label, parse_max_order

LEGACY_MAX_ORDER = "all"
"""Runs stored before ``--max-order`` existed counted every order."""
LEGACY_TOKENIZE = "13a"
"""The match tokenizer of the first releases, which did not store it."""
NO_ALTERNATIVES = "no"


@dataclass(frozen=True, slots=True)
class RunOptions:
    """The matching settings of a stored evaluation run (``run.options``)."""

    tokenize: str
    match: str
    max_order: str
    """``order_label``: a number, or ``all``."""
    categories: tuple[str, ...] = ()
    """The evaluated categories; empty: every category."""
    alternatives: str = NO_ALTERNATIVES
    """``no``, or which alternative references were on (``dict+stem+syn``)."""
    systems: Mapping[str, str] | None = None
    """System name → the output file it was read from."""

    @classmethod
    def of_scorer(cls, scorer: Any, categories: list[str] | None, systems: Mapping[str, str]) -> RunOptions:
        """The settings of ``scorer`` (a :class:`~checkpoints.evaluate.scoring.CheckpointScorer`)."""
        return cls(scorer.tokenize, scorer.match.value, order_label(scorer.max_order), tuple(categories or ()),
                   scorer.alternatives_label, dict(systems))

    @classmethod
    def stored(cls, options: Mapping[str, Any]) -> RunOptions:
        """Read back from a run's options, with the legacy values where a field is missing."""
        return cls(
            tokenize=str(options.get("tokenize", LEGACY_TOKENIZE)),
            match=str(options.get("match", "normal")),
            max_order=str(options.get("max_order", LEGACY_MAX_ORDER)),
            categories=tuple(options.get("categories") or ()),
            alternatives=str(options.get("alternatives", NO_ALTERNATIVES)),
            systems=dict(options.get("systems") or {}),
        )

    @property
    def order(self) -> int | None:
        """The longest n-gram counted (None: every order)."""
        return parse_max_order(self.max_order)

    @property
    def uses_alternatives(self) -> bool:
        return self.alternatives != NO_ALTERNATIVES

    def settings(self) -> tuple[str, str, str, tuple[str, ...], str]:
        """What must be equal for two runs to be compared."""
        return self.tokenize, self.match, self.max_order, self.categories, self.alternatives

    def describe(self) -> str:
        return (f"tokenize={self.tokenize} match={self.match} max-order={self.max_order} "
                f"categories={', '.join(self.categories) or 'all'} alternatives={self.alternatives}")

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match, "tokenize": self.tokenize, "max_order": self.max_order,
            "categories": list(self.categories) or None, "systems": dict(self.systems or {}),
            "alternatives": self.alternatives,
        }
