"""Bulk inserts through the driver's ``executemany``, for the hundreds of thousands of rows a suite has.

SQLAlchemy's Core ``insert()`` with a list of dicts runs every row through
its parameter processing, which took about as long as SQLite's own
``executemany`` on a 100,000-check-point suite. The statement here is still
compiled by SQLAlchemy from the table's metadata (never from user input) for
the connection's dialect and parameter style; only the rows go to the driver
directly, as tuples of plain Python values that every driver binds as they
are (str, int, float, bool, None).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import Table, insert
from sqlalchemy.orm import Session


def insert_rows(session: Session, table: Table, columns: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """Insert ``rows`` (values in the order of ``columns``) into ``table`` in one ``executemany``."""
    rows = list(rows)
    if not rows:
        return
    connection = session.connection()
    compiled = insert(table).inline().compile(dialect=connection.dialect, column_keys=list(columns))
    order = compiled.positiontup
    if order is not None:  # positional parameter style (SQLite's "?"): reorder to the statement's order
        index = [list(columns).index(name) for name in order]
        parameters: list[object] = [tuple(row[i] for i in index) for row in rows]
    else:  # named style (psycopg's %(name)s)
        parameters = [dict(zip(columns, row, strict=True)) for row in rows]
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.executemany(compiled.string, parameters)
    finally:
        cursor.close()
