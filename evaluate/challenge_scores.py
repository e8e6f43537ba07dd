"""How often a metric prefers the good translation of a challenge item, per phenomenon.

Each item is a pair (good, bad) differing only in the broken phenomenon
(:mod:`checkpoints.evaluate.contrastive`). A metric *wins* an item when it
scores good above bad, loses it when below, and ties when it cannot tell
them apart; a tie counts half, so a metric blind to a phenomenon (a
bag-of-words metric on reordered words) scores the chance level 0.5
exactly, and a metric that sees it scores near 1. ACES (Amrhein et al. 2022)
counts ties as losses instead, which puts blind metrics at 0 and makes them
look worse than a metric that guesses; the share of ties is reported beside
the accuracy so either reading can be made.

The interval is the percentile interval of a bootstrap over items (the same
resampler ``compare`` uses), one resample shared by every group, so groups
and metrics are resampled alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from checkpoints.evaluate.resample import Resampler, ResampleSpec, percentile_interval

CHANCE = 0.5
"""A metric that cannot tell good from bad ties every item: half a win each."""

ALL = "all"


@dataclass(frozen=True, slots=True)
class ChallengeAccuracy:
    """One metric's accuracy on one group of items: a category, a kind of breakage, or all."""

    metric: str
    grouping: str
    """``category``, ``breakage`` or ``all``."""
    group: str
    items: int
    accuracy: float
    ties: float
    """Share of items scored alike."""
    interval: tuple[float, float]
    chance: float = CHANCE

    def to_json(self) -> dict[str, object]:
        return {"metric": self.metric, "grouping": self.grouping, "group": self.group, "items": self.items,
                "accuracy": self.accuracy, "ties": self.ties, "interval": list(self.interval), "chance": self.chance}


def item_outcomes(good: Sequence[float], bad: Sequence[float]) -> np.ndarray:
    """1 where the good translation scores higher, 0 where lower, 0.5 on a tie."""
    good_scores, bad_scores = np.asarray(good, dtype=np.float64), np.asarray(bad, dtype=np.float64)
    if good_scores.shape != bad_scores.shape:
        raise ValueError("good and bad scores of different lengths")
    return np.where(good_scores > bad_scores, 1.0, np.where(good_scores < bad_scores, 0.0, CHANCE))


def challenge_accuracy(
    metric: str, outcomes: np.ndarray, categories: Sequence[str], breakages: Sequence[str], spec: ResampleSpec
) -> list[ChallengeAccuracy]:
    """Accuracy per category (in order of first appearance), per kind of breakage, and over all items."""
    groups: list[tuple[str, str, np.ndarray]] = [(ALL, ALL, np.ones(len(outcomes), dtype=bool))]
    for grouping, labels in (("category", categories), ("breakage", breakages)):
        names = np.asarray(labels, dtype=object)
        groups += [(grouping, name, names == name) for name in dict.fromkeys(labels)]
    if not len(outcomes):
        return []
    members = np.stack([mask for _, _, mask in groups], axis=1).astype(np.float64)  # (items, groups)
    wins = members * outcomes[:, None]
    tied = members * (outcomes == CHANCE)[:, None]
    resampled = Resampler(len(outcomes), spec).bootstrap_sums(np.concatenate([wins, members], axis=1))
    width = len(groups)
    shares = np.divide(resampled[:, :width], resampled[:, width:], out=np.full((spec.samples, width), np.nan),
                       where=resampled[:, width:] > 0)
    found = []
    for column, (grouping, name, mask) in enumerate(groups):
        count = int(mask.sum())
        drawn = shares[:, column]
        drawn = drawn[~np.isnan(drawn)]  # resamples that drew no item of a small group
        interval = percentile_interval(drawn) if len(drawn) else (float("nan"), float("nan"))
        found.append(ChallengeAccuracy(
            metric, grouping, name, count, float(wins[:, column].sum() / count), float(tied[:, column].sum() / count),
            interval,
        ))
    return found
