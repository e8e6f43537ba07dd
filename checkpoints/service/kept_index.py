"""The compiled references of a stored suite: adopted when the store keeps them, kept when it does not.

Compiling a suite's references is the largest part of a whole ``evaluate``
that does not depend on the systems; it depends only on the suite and the
matching options, so the store keeps it (:mod:`checkpoints.db.kept_index`)
and every later evaluation with the same options reads it back. A kept index
that cannot be read or does not fit (a damaged row) is compiled afresh and
replaced: keeping is an optimisation, never a reason to fail.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from checkpoints.db.kept_index import keep_index, read_kept_index
from checkpoints.evaluate.scoring import INDEX_FORMAT, CheckpointScorer


def adopt_kept_index(session: Session, suite_id: int, scorer: CheckpointScorer) -> bool:
    """Give ``scorer`` the index the store keeps for its suite (row ``suite_id``) and options;
    whether there was one."""
    payload = read_kept_index(session, suite_id, scorer.index_key)
    if payload is None:
        return False
    try:
        scorer.adopt_kept_index(payload)
    except ValueError:
        return False
    return True


def keep_compiled_index(session: Session, suite_id: int, scorer: CheckpointScorer) -> None:
    """Keep the scorer's compiled index for the next evaluation (nothing when it was adopted)."""
    if not scorer.index_adopted:
        keep_index(session, suite_id, scorer.index_key, INDEX_FORMAT, scorer.kept_index())
