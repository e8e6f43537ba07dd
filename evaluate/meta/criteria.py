"""The names of the meta-evaluation criteria, apart from their computation.

The command line lists them in its help, so they live where importing them
does not load scipy.
"""

from __future__ import annotations

from enum import StrEnum


class Criterion(StrEnum):
    """Meta-evaluation criteria: agreement with human scores, or (king, orange) human likeness."""

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
    PCE = "pce"
    """Pairwise confidence error (Thompson et al. 2024; mt-metrics-eval ``pce.py``, ``compute_one_minus_pce``):
    mean over system pairs of ``|p_human − p_metric|``, ``= 1 − spa``; lower is better, system level only."""
    KING = "king"
    """Human likeness: QARLA's KING of the metric alone (``asiya``: Asiya's KING), references as peers."""
    ORANGE = "orange"
    """Human likeness: Asiya's ORANGE, P(reference ≥ system) (``rank``: Lin & Och's rank ORANGE)."""


DEFAULT_CRITERIA = (Criterion.PEARSON, Criterion.SPEARMAN, Criterion.KENDALL)

SYSTEM_ONLY = frozenset({Criterion.SPA, Criterion.PCE})
"""Criteria defined between systems from their segment scores, not on one vector of referents
(both from the same permutation p-values per system pair)."""

LOWER_IS_BETTER = frozenset({Criterion.PCE})
"""Criteria that are errors: the smaller, the closer the metric is to the humans."""

HUMAN_LIKENESS = frozenset({Criterion.KING, Criterion.ORANGE})
"""Criteria that need no human score: each reference is scored as a peer against the others
(:mod:`checkpoints.evaluate.meta.orange`)."""
