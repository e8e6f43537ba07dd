"""Opening stores for the services: an SQLite path, an SQLAlchemy URL, or an engine the caller owns."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine

Store = str | Path | Engine
"""Where suites live: an SQLite file, an SQLAlchemy URL (``sqlite:///x.db``,
``postgresql+psycopg://...``), or an open engine the caller disposes of."""


@contextmanager
def engine_for(store: Store, *, create: bool = False) -> Iterator[Engine]:
    """An engine for ``store``; one opened here is disposed of on the way out."""
    if isinstance(store, Engine):
        yield store
        return
    from checkpoints.db.session import open_engine

    engine = open_engine(store, create=create)
    try:
        yield engine
    finally:
        engine.dispose()
