"""What a store holds: its suites and runs, listed, renamed and deleted without loading a suite.

Counts come from set-based queries (a check-point count is the packed block's
``count``), so listing a store of large suites reads a few rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from checkpoints.db.repo import find_suite
from checkpoints.db.staging_names import visible
from checkpoints.db.tables import (
    CategoryResultRow,
    CheckpointBlock,
    CheckpointResultRow,
    Pair,
    RunRow,
    Suite,
    SystemRow,
    TranslationRow,
)
from checkpoints.errors import SuiteError


@dataclass(frozen=True, slots=True)
class SuiteEntry:
    name: str
    source_lang: str
    target_lang: str
    taxonomy: str
    created: datetime
    pairs: int
    checkpoints: int
    runs: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "source_lang": self.source_lang, "target_lang": self.target_lang,
            "taxonomy": self.taxonomy, "created": self.created.isoformat(timespec="seconds"),
            "pairs": self.pairs, "checkpoints": self.checkpoints, "runs": self.runs,
        }


@dataclass(frozen=True, slots=True)
class RunEntry:
    id: int
    suite: str
    kind: str
    created: datetime
    systems: tuple[str, ...]
    signature: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "suite": self.suite, "kind": self.kind, "created": self.created.isoformat(timespec="seconds"),
            "systems": list(self.systems), "signature": self.signature,
        }


def list_suites(session: Session) -> list[SuiteEntry]:
    """Every suite of the store, by name."""
    pairs = select(Pair.suite_id, func.count(Pair.id).label("n")).group_by(Pair.suite_id).subquery()
    runs = select(RunRow.suite_id, func.count(RunRow.id).label("n")).group_by(RunRow.suite_id).subquery()
    rows = session.execute(
        select(Suite.name, Suite.source_lang, Suite.target_lang, Suite.taxonomy, Suite.created,
               func.coalesce(pairs.c.n, 0), func.coalesce(CheckpointBlock.count, 0), func.coalesce(runs.c.n, 0))
        .outerjoin(pairs, pairs.c.suite_id == Suite.id)
        .outerjoin(runs, runs.c.suite_id == Suite.id)
        .outerjoin(CheckpointBlock, CheckpointBlock.suite_id == Suite.id)
        .where(visible())
        .order_by(Suite.name)
    ).all()
    return [SuiteEntry(*row) for row in rows]


def list_runs(session: Session, suite: str | None = None) -> list[RunEntry]:
    """Every run (of one suite, or of all), oldest first, with the systems it scored or compared."""
    query = select(RunRow.id, Suite.name, RunRow.kind, RunRow.created, RunRow.signature, RunRow.options,
                   RunRow.report).join(Suite, Suite.id == RunRow.suite_id).order_by(RunRow.id)
    if suite is not None:
        query = query.where(RunRow.suite_id == find_suite(session, suite).id)
    scored = _systems_of_runs(session)
    entries = []
    for run_id, name, kind, created, signature, options, report in session.execute(query).all():
        systems = scored.get(run_id) or tuple((report or {}).get("systems") or (options or {}).get("systems") or ())
        entries.append(RunEntry(run_id, name, kind, created, tuple(systems), signature or ""))
    return entries


def _systems_of_runs(session: Session) -> dict[int, tuple[str, ...]]:
    rows = session.execute(
        select(CheckpointResultRow.run_id, SystemRow.name)
        .join(SystemRow, SystemRow.id == CheckpointResultRow.system_id)
        .order_by(CheckpointResultRow.run_id, SystemRow.id)
    ).all()
    found: dict[int, list[str]] = {}
    for run_id, name in rows:
        found.setdefault(run_id, []).append(name)
    return {run_id: tuple(names) for run_id, names in found.items()}


def find_run(session: Session, run_id: int) -> RunRow:
    run = session.get(RunRow, run_id)
    if run is None:
        known = session.scalars(select(RunRow.id).order_by(RunRow.id)).all()
        shown = ", ".join(map(str, known[-10:])) or "none"
        raise SuiteError(f"no run {run_id} in this store (runs: {shown})")
    return run


def delete_run(session: Session, run_id: int) -> None:
    """Delete one run and its results."""
    find_run(session, run_id)
    for table, column in ((CheckpointResultRow, CheckpointResultRow.run_id), (CategoryResultRow, CategoryResultRow.run_id),
                          (TranslationRow, TranslationRow.run_id)):
        session.execute(delete(table).where(column == run_id))
    session.execute(delete(RunRow).where(RunRow.id == run_id))
    session.expire_all()


def rename_suite(session: Session, old: str, new: str) -> None:
    """Give a suite another name; the new one must be free."""
    suite = find_suite(session, old)
    new = new.strip()
    if not new:
        raise SuiteError("a suite name cannot be empty")
    if session.scalar(select(Suite.id).where(Suite.name == new)) is not None:
        raise SuiteError(f"a suite named {new!r} already exists in this store: choose another name")
    session.execute(update(Suite).where(Suite.id == suite.id).values(name=new))
    session.expire_all()
