"""SR's ``_b`` and ``_i`` variants: what a segment scores when a parse yields no roles (Asiya's
``Overlap::merge_metrics_M``; spec §1.6).

A segment is OK when both candidate and reference have a predicate with an
argument; the base SR measure leaves the others out. ``_b`` ("backoff")
gives a non-OK segment the lexical overlap ``Ol`` times the mean of the base
measure over the OK segments; ``_i`` ("interpolation") averages base and
``Ol`` on OK segments and gives the others ``Ol / 2``. Only OK segments carry
weight, so a system's ``_b`` equals its base measure; segment and document
scores differ.

Statistics are ``[num, weight, fallback, count]``: a row or sum with weight
scores ``num / weight``, one without it ``fallback / count``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

VARIANTS = ("b", "i")


def robust_rows(base: Sequence[tuple[float, float]], lexical: Sequence[float], variant: str) -> np.ndarray:
    """The rows of every segment from the base measure's ``(num, weight)`` and the lexical Ol scores."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown SR robustness variant {variant!r}")
    scores = [num / weight if weight > 0 else None for num, weight in base]
    defined = [score for score in scores if score is not None]
    average = sum(defined) / len(defined) if defined else 0.0
    rows = np.zeros((len(scores), 4))
    for index, (score, ol) in enumerate(zip(scores, lexical, strict=True)):
        if score is not None:
            rows[index, :2] = (score if variant == "b" else (score + ol) / 2, 1.0)
        else:
            rows[index, 2:] = (ol * average if variant == "b" else ol / 2, 1.0)
    return rows


def robust_score(stats: np.ndarray) -> np.ndarray:
    stats = np.asarray(stats, dtype=np.float64)
    num, weight, fallback, count = (stats[..., k] for k in range(4))
    with np.errstate(invalid="ignore", divide="ignore"):
        weighted = num / np.where(weight > 0, weight, 1.0)
        backed = np.where(count > 0, fallback / np.where(count > 0, count, 1.0), 0.0)
    return np.where(weight > 0, weighted, backed)
