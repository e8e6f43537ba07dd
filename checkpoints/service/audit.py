"""``checkpoints audit``: how far a stored suite can be trusted (:mod:`checkpoints.evaluate.audit`).

Reads, never writes: the suite is loaded, its references scored as a system
and with each substitution, and the figures returned. ``build`` runs the same
audit on the suite it has just made and keeps it in the suite's summary, which
the HTML report shows.
"""

from __future__ import annotations

from checkpoints.evaluate.audit import DEFAULT_SEED, SuiteAudit, audit_suite
from checkpoints.gcpause import bulk_work
from checkpoints.service.store import Store, load_stored_suite


@bulk_work
def audit_stored_suite(store: Store, *, suite_name: str | None = None, seed: int = DEFAULT_SEED) -> SuiteAudit:
    """The audit of a stored suite (``suite_name`` may be left out when the store holds one)."""
    return audit_suite(load_stored_suite(store, suite_name), seed=seed)
