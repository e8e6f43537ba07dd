"""One evaluation: a suite scored for some systems, what every report of it reads.

It lives below the services and the reports, so that both can name it without
the reports depending on the workflows that make it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from checkpoints.evaluate.scopes import SystemReport
from checkpoints.evaluate.scoring import CheckpointScorer, SystemScores
from checkpoints.model import SuiteData
from checkpoints.signature import Signature


@dataclass(slots=True)
class Evaluation:
    """Everything a report about one run needs."""

    suite: SuiteData
    scorer: CheckpointScorer
    scores: dict[str, SystemScores]
    reports: dict[str, SystemReport]
    bleu: dict[str, float]
    signature: Signature
    run_ids: dict[str, int] = field(default_factory=dict)
    """Per system, the stored evaluation run its scores come from."""
    warnings: list[str] = field(default_factory=list)
    """What looked wrong in the system outputs read (empty lines, NUL characters)."""
    document: dict[str, Any] | None = None
    """Its ``--format json`` document once made (stored with the run): made once, printed as stored."""
