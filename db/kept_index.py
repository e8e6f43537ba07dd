"""Compiled references kept with their suite (:class:`~checkpoints.db.tables.KeptIndexRow`).

The store only holds bytes under a key: what they mean, and whether they may be
used, is the scorer's business. Reading never fails an evaluation (a store
without the table has nothing kept); writing happens in the evaluation's own
transaction, so a run and the index it was matched with land together.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import delete, inspect, or_, select, text
from sqlalchemy.orm import Session

from checkpoints.db.session import SCHEMA_LOCK
from checkpoints.db.tables import KeptIndexRow

TABLE = KeptIndexRow.__table__


def digest(key: str) -> str:
    """The column value for a key: keys name every matching option and can be long."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def read_kept_index(session: Session, suite_id: int, key: str) -> bytes | None:
    """The payload kept for this suite under ``key``; None when there is none (or no table yet)."""
    connection = session.connection()
    if not inspect(connection).has_table(KeptIndexRow.__tablename__):
        return None
    payload = connection.execute(
        select(KeptIndexRow.payload).where(KeptIndexRow.suite_id == suite_id, KeptIndexRow.key == digest(key))
    ).scalar()
    return None if payload is None else bytes(payload)


def keep_index(session: Session, suite_id: int, key: str, made_by: str, payload: bytes) -> None:
    """Keep ``payload`` for the suite under ``key``, replacing what was kept under it (a row
    that could not be read) and whatever an older format or version kept for the suite.

    The table is made on first use (with PostgreSQL under the lock that
    serialises schema changes, so two first evaluations do not both create it);
    a concurrent evaluation that kept the same key first wins, as both hold the
    same bytes.
    """
    connection = session.connection()
    dialect = connection.dialect.name
    if dialect == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
    TABLE.create(connection, checkfirst=True)
    connection.execute(delete(KeptIndexRow).where(
        KeptIndexRow.suite_id == suite_id, or_(KeptIndexRow.made_by != made_by, KeptIndexRow.key == digest(key))
    ))
    values = {"suite_id": suite_id, "key": digest(key), "made_by": made_by, "payload": payload}
    if dialect == "postgresql":
        from sqlalchemy.dialects import (
            postgresql,  # only PostgreSQL stores pay for importing its dialect
        )

        statement = postgresql.insert(TABLE).values(values).on_conflict_do_nothing()
    else:
        from sqlalchemy.dialects import sqlite

        statement = sqlite.insert(TABLE).values(values).on_conflict_do_nothing()
    connection.execute(statement)
