"""Multiple-comparison corrections and significance clusters.

A report compares systems on every category at once; with 20 categories at
p < 0.05 one spurious "significant" difference is expected by chance alone, so
flags are set only after correcting for the number of comparisons: Holm's
step-down method (controls the family-wise error rate, no independence
assumption) by default, Benjamini–Hochberg (controls the false discovery rate)
as an option.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

import numpy as np


class Correction(StrEnum):
    HOLM = "holm"
    BH = "bh"
    NONE = "none"


def adjust_p_values(p_values: Sequence[float], correction: Correction) -> list[float]:
    """Adjusted p-values; a test is significant when its adjusted p-value ≤ alpha."""
    values = np.asarray(p_values, dtype=np.float64)
    if values.size == 0:
        return []
    if correction is Correction.NONE:
        return values.tolist()
    if correction is Correction.BH:
        # scipy.stats takes about 0.6 s to import: every evaluate paid it, only BH needs it
        from scipy.stats import false_discovery_control

        return np.minimum(false_discovery_control(values, method="bh"), 1.0).tolist()
    order = np.argsort(values, kind="stable")
    m = values.size
    adjusted = np.empty(m)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * values[index]))
        adjusted[index] = running
    return adjusted.tolist()


def significance_clusters(
    scores: dict[str, float],
    differ: Callable[[str, str], bool],
) -> list[list[str]]:
    """Group systems into ranks: a system joins the current cluster while it is
    not significantly different from the cluster's best system.

    Systems are taken from best to worst score; the first system that differs
    significantly from the cluster's best opens the next cluster. ``differ(a, b)``
    says whether systems a and b differ significantly (after correction).
    """
    ordered = sorted(scores, key=lambda name: (-scores[name], name))
    clusters: list[list[str]] = []
    for name in ordered:
        if clusters and not differ(clusters[-1][0], name):
            clusters[-1].append(name)
        else:
            clusters.append([name])
    return clusters


def format_clusters(clusters: list[list[str]]) -> str:
    """``{A, C} > {B} > {D}``."""
    return " > ".join("{" + ", ".join(cluster) + "}" for cluster in clusters)
