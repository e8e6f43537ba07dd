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
    PAIRWISE_ACCURACY = "pairwise-accuracy"
    """Kocmi et al. 2021: share of pairs ordered alike (mt-metrics-eval ``Agreement``)."""
    ACC_EQ = "acc-eq"
    """Pairwise accuracy with tie calibration (Deutsch et al. 2023; ``KendallWithTiesOpt``, ``acc23``)."""
    SPA = "spa"
    """Soft pairwise accuracy (Thompson et al. 2024; mt-metrics-eval ``pce.py``), system level only."""


DEFAULT_CRITERIA = (Criterion.PEARSON, Criterion.SPEARMAN, Criterion.KENDALL)

SYSTEM_ONLY = frozenset({Criterion.SPA})
"""Criteria defined between systems from their segment scores, not on one vector of referents."""
