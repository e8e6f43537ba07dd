"""Asiya's overlap O and matching M of two bags, and how typed measures pool (spec §1.3–§1.4).

Every linguistic metric gives a segment a pair ``(num, weight)``: its score
is ``num / weight`` and a system's is ``Σ num / Σ weight``, so a segment
where a type occurs on neither side (weight 0) is left out of the average
instead of counting as 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

import numpy as np

Bags = Mapping[str, Counter[str]]
"""Type → bag of items (lower-cased words, chains, paths ...)."""

Pair = tuple[float, float]
"""``(num, weight)`` of one segment."""


def hits_total(candidate: Counter[str], reference: Counter[str]) -> tuple[int, int]:
    """``Σ min`` and ``Σ max`` of the two bags' counts over their union (IQMT's unclipped numerator is not used)."""
    hits = sum(min(count, reference[item]) for item, count in candidate.items() if item in reference)
    total = sum(candidate.values()) + sum(reference.values()) - hits
    return hits, total


def pair_scores(stats: np.ndarray) -> np.ndarray:
    """``num / weight`` of summed ``(num, weight)`` statistics, 0 where the weight is 0; vectorised
    over every leading axis (segments, resamples)."""
    stats = np.asarray(stats, dtype=np.float64)
    num, weight = stats[..., 0], stats[..., 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(weight > 0, num / np.where(weight > 0, weight, 1.0), 0.0)


def ratio(hits: float, total: float) -> float:
    return hits / total if total else 0.0


def typed(candidate: Bags, reference: Bags, kind: str) -> Pair:
    """``X(t)``: O of the type's bags; weight 0 (undefined) where neither side has the type.

    ``kind`` is matched case-insensitively against the bags' types.
    """
    wanted = kind.casefold()
    chosen_c = _merged(bag for name, bag in candidate.items() if name.casefold() == wanted)
    chosen_r = _merged(bag for name, bag in reference.items() if name.casefold() == wanted)
    if not chosen_c and not chosen_r:
        return 0.0, 0.0
    return ratio(*hits_total(chosen_c, chosen_r)), 1.0


def pooled(candidate: Bags, reference: Bags, kinds: Iterable[str] | None = None) -> tuple[int, int]:
    """Σ hits and Σ total over the given types (all types of either side when None)."""
    names = set(candidate) | set(reference) if kinds is None else set(kinds)
    hits = total = 0
    empty: Counter[str] = Counter()
    for name in names:
        h, t = hits_total(candidate.get(name, empty), reference.get(name, empty))
        hits += h
        total += t
    return hits, total


def micro(candidate: Bags, reference: Bags, kinds: Iterable[str] | None = None) -> Pair:
    """``X(*)`` pooled over types: Σhits / Σtotal, weight 1 (0/0 counts as 0)."""
    return ratio(*pooled(candidate, reference, kinds)), 1.0


def class_pooled(candidate: Bags, reference: Bags, members: Iterable[str]) -> Pair:
    """A class of types (English coarse tags): Σhits / Σtotal over its members; undefined when
    neither side has any of them."""
    names = set(members)
    if not any(name in names for name in (*candidate, *reference)):
        return 0.0, 0.0
    return ratio(*pooled(candidate, reference, names & (set(candidate) | set(reference)))), 1.0


def _merged(bags: Iterable[Counter[str]]) -> Counter[str]:
    merged: Counter[str] = Counter()
    for bag in bags:
        merged.update(bag)
    return merged


def best_of(pairs: Iterable[Pair]) -> Pair:
    """The pair of the reference that scores highest; a weight-0 pair loses to any with weight, ties
    go to the first reference (``max`` keeps the first of equal keys)."""
    return max(pairs, key=lambda pair: (pair[1] > 0, pair[0] / pair[1] if pair[1] else 0.0), default=(0.0, 0.0))
