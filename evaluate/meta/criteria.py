"""The names of the meta-evaluation criteria, apart from their computation.

The command line lists them in its help, so they live where importing them
does not load scipy.
"""

from __future__ import annotations

from enum import StrEnum


class Criterion(StrEnum):
    """Meta-evaluation criteria that compare metric scores with human scores."""

    PEARSON = "pearson"
    SPEARMAN = "spearman"
    KENDALL = "kendall"
    """Kendall tau-b (ties adjusted), scipy's ``kendalltau(variant="b")``."""
    KENDALL_WMT = "kendall-wmt"
    """WMT's pairwise tau: human ties left out, metric ties discordant."""
    SPEARMAN_ASIYA = "spearman-asiya"
    """Asiya's Spearman without tie averaging."""


DEFAULT_CRITERIA = (Criterion.PEARSON, Criterion.SPEARMAN, Criterion.KENDALL)
