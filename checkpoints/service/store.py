"""Opening stores for the services: an SQLite path, an SQLAlchemy URL, or an engine the caller owns;
and storing a new suite so that concurrent builds never lose one another's work."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from checkpoints.gcpause import bulk_work

if TYPE_CHECKING:
    from sqlalchemy.engine import URL
    from sqlalchemy.orm import Session

    from checkpoints.model import SuiteData

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


def load_stored_suite(store: Store, name: str | None = None) -> SuiteData:
    """A stored suite as core types (``name`` may be left out when the store holds one suite).

    Raises:
        StoreError: the store cannot be opened or is not a checkpoints store.
        SuiteError: no such suite, or several and no ``name``.
    """
    from checkpoints.db.repo import load_suite
    from checkpoints.db.session import transaction

    with engine_for(store) as engine, transaction(engine) as session:
        return load_suite(session, name)


def check_name_free(store: Store, name: str) -> None:
    """Refuse, before any work, a suite name the store already uses (nothing to check in a file not made yet).

    Raises:
        SuiteError: the name is taken.
    """
    from checkpoints.db.repo import name_taken, suite_names
    from checkpoints.db.session import sqlite_file, store_url, transaction
    from checkpoints.errors import SuiteError

    if not isinstance(store, Engine):
        path = sqlite_file(store_url(store))
        if path is not None and not path.exists():
            return
    with engine_for(store, create=True) as engine, transaction(engine) as session:
        if name in suite_names(session):
            raise SuiteError(name_taken(name))


@bulk_work  # hundreds of thousands of row values, none of them garbage until the end
def store_new_suite(store: Store, data: SuiteData, *, replace: bool = False) -> int:
    """Store a built or imported suite in one transaction and return its id.

    The suite's content hash goes into its options (computed beside the
    storing where a second CPU is free). A new SQLite file is
    written under a temporary name in the same folder and linked into place
    only once the suite is committed: a failed build leaves no file behind, and
    since the file that gets the real name is never removed, a process building
    into the same new file at the same moment can never lose its suite to this
    one's clean-up (when the name was taken meanwhile, the suite is stored into
    that database instead). A suite of the same name gives a one-line
    :class:`~checkpoints.errors.SuiteError`, also when another process stored
    it a moment ago; with ``replace`` it is replaced in the same transaction.
    """
    return _store_new_suite(store, data, replace)


def _store_new_suite(store: Store, data: SuiteData, replace: bool = False) -> int:
    from checkpoints.db.repo import store_suite
    from checkpoints.signature import suite_hash
    from checkpoints.workers import in_background

    # the content hash reads every check-point, as storing does: a second CPU computes it meanwhile
    with in_background(lambda: suite_hash(data)) as content_hash:
        return write_new_suite(
            store, data.name, lambda session: store_suite(session, data, content_hash=content_hash.result, replace=replace)
        )


def write_new_suite(store: Store, name: str, write: Callable[[Session], int]) -> int:
    """Run ``write`` (which writes the suite called ``name`` and returns its id) in one transaction,
    into a new SQLite file only once it succeeded (see :func:`store_new_suite`).

    ``write`` may run twice: when another process created the same new file
    meanwhile, it runs again against that file. A streaming build re-extracts
    then, as its corpus is still at hand.
    """
    from checkpoints.db.session import describe, sqlite_file, store_url

    if isinstance(store, Engine):
        return _store(store, name, write)
    url = store_url(store)
    path = sqlite_file(url)
    if path is None or path.exists() or path.is_symlink() or "uri" in url.query:
        with engine_for(store, create=True) as engine:
            return _store(engine, name, write)
    return _store_into_new_file(url, path, name, write, describe(url))


def _store(engine: Engine, name: str, write: Callable[[Session], int]) -> int:
    from sqlalchemy import select
    from sqlalchemy.exc import IntegrityError

    from checkpoints.db.repo import name_taken
    from checkpoints.db.session import transaction
    from checkpoints.db.tables import Suite
    from checkpoints.errors import SuiteError

    try:
        with transaction(engine) as session:
            return write(session)
    except IntegrityError:
        # Two writers checked the name at the same moment (PostgreSQL lets both
        # pass the check; the unique index stops the second): the same message
        # as when the suite was there before.
        with transaction(engine) as session:
            taken = session.scalar(select(Suite.id).where(Suite.name == name)) is not None
        if taken:
            raise SuiteError(name_taken(name)) from None
        raise


def _store_into_new_file(url: URL, path: Path, name: str, write: Callable[[Session], int], where: str) -> int:
    from checkpoints.db.session import open_engine
    from checkpoints.errors import StoreError

    folder = path.absolute().parent
    if not folder.is_dir():
        raise StoreError(f"{where}: cannot create the database: no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(f"{where}: cannot create the database: the folder {folder} is read-only")
    temporary = folder / f".{path.name}.{secrets.token_hex(6)}.tmp"
    try:
        descriptor = os.open(temporary, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
    except OSError as error:
        raise StoreError(f"{where}: cannot create the database: {error.strerror or error}") from None
    os.close(descriptor)
    try:
        engine = open_engine(url.set(database=str(temporary)), create=True)
        try:
            suite_id = _store(engine, name, write)
        finally:
            engine.dispose()
        try:
            os.link(temporary, path)
            return suite_id
        except OSError:
            # Another process created the database meanwhile (FileExistsError), or
            # this file system has no hard links: store under the real name; a
            # failure there leaves at most an empty store and never removes one.
            pass
        engine = open_engine(url, create=True)
        try:
            return _store(engine, name, write)
        finally:
            engine.dispose()
    finally:
        for suffix in ("", "-journal", "-wal", "-shm"):
            with suppress(OSError):
                Path(f"{temporary}{suffix}").unlink()
