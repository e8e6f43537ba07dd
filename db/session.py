"""Engines, the schema check and transactions.

A path is an SQLite file; anything with ``://`` is an SQLAlchemy URL
(``sqlite:///rel.db``, ``sqlite:////abs.db``, ``postgresql://...``, which gets
the psycopg 3 driver). Every build or evaluation runs inside one
:func:`transaction`, so an error leaves nothing of it behind.

Opening a store never harms what is there: a database that holds tables but
is not a checkpoints store, or one written with another schema version, is
refused before anything is written; tables are only ever created in an empty
database. Reading commands open SQLite files they may not write read-only,
so ``show``, ``export`` and ``compare`` work on a write-protected file or
folder. Every database problem reaches users as one :class:`StoreError` line
naming the file or URL (passwords hidden).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, unquote

from sqlalchemy import Connection, Engine, create_engine, event, inspect, select, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, NoSuchModuleError
from sqlalchemy.orm import Session

from checkpoints import __version__
from checkpoints.db.tables import OPTIONAL_TABLES, SCHEMA_VERSION, Base, Meta
from checkpoints.errors import StoreError

SQLITE_BUSY_TIMEOUT = 60.0
"""Seconds an SQLite writer waits for another process's write to finish before giving up."""

POSTGRES_CONNECT_TIMEOUT = 10
"""Seconds to wait for a PostgreSQL server before saying it cannot be reached."""

SCHEMA_LOCK = 0x636B7074
"""PostgreSQL advisory lock key held while one process creates the tables."""

POSTGRES_DRIVERS = {"postgresql": "postgresql+psycopg", "postgres": "postgresql+psycopg"}
"""Bare PostgreSQL URLs get psycopg 3, the driver the ``postgresql`` extra installs."""

DRIVER_PACKAGES = {"psycopg": "pip install 'mt-checkpoints[postgresql]'"}


def store_url(target: str | Path | URL) -> URL:
    """The SQLAlchemy URL of ``target``: a URL as given (a bare PostgreSQL scheme gets
    psycopg 3), or a plain path as an SQLite file."""
    if isinstance(target, URL):
        return target
    if isinstance(target, str) and "://" in target:
        try:
            url = make_url(target)
        except ArgumentError as error:
            raise StoreError(f"{_hide_password(target)}: not a database URL ({error})") from None
        return url.set(drivername=POSTGRES_DRIVERS.get(url.drivername, url.drivername))
    return URL.create("sqlite", database=str(target))


def database_url(target: str | Path | URL) -> str:
    """:func:`store_url` as text (with the password, for ``create_engine``)."""
    return store_url(target).render_as_string(hide_password=False)


def describe(target: str | Path | URL) -> str:
    """How messages name a store: the SQLite file's path, or the URL without its password."""
    url = store_url(target)
    path = sqlite_file(url)
    if path is not None:
        return str(path)
    return url.render_as_string(hide_password=True)


def _hide_password(text_url: str) -> str:
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", text_url)


def sqlite_file(url: URL) -> Path | None:
    """The file an SQLite URL names (also in ``file:`` URI form); None for other
    databases and for in-memory SQLite."""
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database or ""
    if _is_uri(url) and database.startswith("file:"):
        rest = database.removeprefix("file:")
        if rest.startswith("//"):  # file://host/path: only a local host makes sense here
            rest = "/" + rest[2:].partition("/")[2]
        database = unquote(rest.partition("?")[0])
    if database in ("", ":memory:") or database.startswith("file::memory:"):
        return None
    return Path(database)


def _is_uri(url: URL) -> bool:
    return str(url.query.get("uri", "")).lower() in ("true", "1", "yes", "on")


def url_is_read_only(url: URL) -> bool:
    """Whether an SQLite URL asks for read-only access (``mode=ro`` or ``immutable=1``)."""
    if url.get_backend_name() != "sqlite" or not _is_uri(url):
        return False
    return url.query.get("mode") == "ro" or str(url.query.get("immutable", "0")) not in ("0", "false", "no", "off")


def read_only_url(path: Path) -> URL:
    """An SQLite URI opening ``path`` read-only: SQLite then never writes to the file or its folder."""
    return URL.create("sqlite", database="file:" + quote(str(path.absolute())), query={"mode": "ro", "uri": "true"})


def open_engine(target: str | Path | URL, *, create: bool = True) -> Engine:
    """An engine on a checkpoints store.

    With ``create`` an SQLite file that does not exist is created and an empty
    database gets the tables; without it (commands that use what is stored)
    nothing at all is written while opening, a missing file is an error, and
    an SQLite file this process may not write is opened read-only. Either way
    a database that is not a checkpoints store of this schema version is
    refused with a :class:`StoreError` saying what to do.
    """
    url = store_url(target)
    where = describe(url)
    path = sqlite_file(url)
    if path is not None:
        url = _check_sqlite_file(url, path, where, create=create)
    engine = _create_engine(url, where)
    try:
        _check_schema(engine, where, create=create)
    except BaseException:
        engine.dispose()
        raise
    return engine


def _check_sqlite_file(url: URL, path: Path, where: str, *, create: bool) -> URL:
    """Problems a path can have, told before SQLite says "unable to open database file"."""
    folder = path.absolute().parent
    if path.is_dir():
        raise StoreError(f"{where}: is a folder, not a database file: give a file name such as {path / 'suite.db'}")
    if not path.exists():
        if not create:
            raise StoreError(f"{where}: no such database (build or import a suite first)")
        if url_is_read_only(url):
            raise StoreError(f"{where}: no such database, and the URL opens it read-only")
        if not folder.is_dir():
            raise StoreError(f"{where}: cannot create the database: no such folder {folder}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise StoreError(f"{where}: cannot create the database: the folder {folder} is read-only")
        return url
    if not os.access(path, os.R_OK):
        raise StoreError(f"{where}: no permission to read the database file")
    writable = os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)
    if create and (url_is_read_only(url) or not writable):
        raise StoreError(f"{where}: the database is read-only ({_why_read_only(url, path)}): give a database you may write")
    if not create and not writable and not url_is_read_only(url):
        return read_only_url(path)
    return url


def _why_read_only(url: URL, path: Path) -> str:
    if url_is_read_only(url):
        return "the URL opens it read-only"
    if not os.access(path, os.W_OK):
        return "no permission to write the file"
    return f"no permission to write in its folder {path.absolute().parent}"


def _create_engine(url: URL, where: str) -> Engine:
    backend = url.get_backend_name()
    connect_args: dict[str, object] = {}
    if backend == "sqlite" and "timeout" not in url.query:
        connect_args["timeout"] = SQLITE_BUSY_TIMEOUT
    if backend == "postgresql" and "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = POSTGRES_CONNECT_TIMEOUT
    try:
        engine = create_engine(url, connect_args=connect_args)
    except NoSuchModuleError:
        raise StoreError(
            f"{where}: unknown kind of database {url.drivername!r} "
            "(give an SQLite file, a sqlite:/// URL or a postgresql:// URL)"
        ) from None
    except ImportError as error:
        driver = error.name or url.get_driver_name()
        hint = DRIVER_PACKAGES.get(driver, f"install the Python package {driver!r}")
        raise StoreError(f"{where}: the database driver {driver} is not installed: {hint}") from None
    except ArgumentError as error:
        raise StoreError(f"{where}: {_first_line(error)}") from None
    if backend == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    """Foreign keys on. The driver's own transaction handling stays: reads run outside a
    transaction and a transaction begins at its first write, waiting for another
    writer to finish; a transaction that had read first could not wait (SQLite
    answers "database is locked" at once rather than risk a deadlock)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _check_schema(engine: Engine, where: str, *, create: bool) -> None:
    """Refuse a foreign or other-version database; give an empty one the tables if ``create``."""
    with _store_errors(where), engine.connect() as connection:
        tables = set(inspect(connection).get_table_names())
        if tables:
            _check_meta(connection, tables, where)
            return
        if not create:
            raise StoreError(f"{where}: an empty database, not a checkpoints store yet (build or import a suite first)")
    with _store_errors(where), engine.begin() as connection:
        # One process creates the tables; any other waits here, then finds them made.
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        elif connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # the DDL below then runs inside it
        tables = set(inspect(connection).get_table_names())
        if tables:  # another process made the tables meanwhile: check them instead
            _check_meta(connection, tables, where)
            return
        Base.metadata.create_all(connection)
        connection.execute(
            Meta.__table__.insert(),
            [{"key": "schema_version", "value": str(SCHEMA_VERSION)},
             {"key": "created_by", "value": f"checkpoints {__version__}"}],
        )


def _check_meta(connection: Connection, tables: set[str], where: str) -> None:
    ours = set(Base.metadata.tables)
    version_text = None
    if "meta" in tables:
        version_text = connection.execute(select(Meta.value).where(Meta.key == "schema_version")).scalar()
    if version_text is None or not version_text.strip().isdigit():
        shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        raise StoreError(
            f"{where}: not a checkpoints database (it holds other tables: {shown}); "
            "give a new file or an empty database"
        )
    version = int(version_text)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{where}: written by a newer checkpoints (schema version {version}; checkpoints {__version__} "
            f"reads version {SCHEMA_VERSION}): upgrade checkpoints (pip install -U mt-checkpoints)"
        )
    if version < SCHEMA_VERSION:
        raise StoreError(
            f"{where}: written by an older checkpoints (schema version {version}; checkpoints {__version__} "
            f"reads version {SCHEMA_VERSION}): export its suites with that version and import them into a new database"
        )
    missing = sorted(ours - tables - OPTIONAL_TABLES)
    if missing:
        raise StoreError(f"{where}: an incomplete checkpoints database (missing tables: {', '.join(missing)})")


def store_is_writable(engine: Engine) -> bool:
    """Whether results can be kept in this store: false for SQLite opened read-only and for
    a PostgreSQL session that is read-only or may not add runs."""
    if engine.dialect.name == "sqlite":
        if url_is_read_only(engine.url):
            return False
        path = sqlite_file(engine.url)  # an engine a library caller made on a protected file
        if path is None or not path.exists():
            return True
        return os.access(path, os.W_OK) and os.access(path.absolute().parent, os.W_OK | os.X_OK)
    if engine.dialect.name == "postgresql":
        with _store_errors(describe(engine.url)), engine.connect() as connection:
            return bool(
                connection.execute(
                    text(
                        "SELECT current_setting('transaction_read_only') = 'off' "
                        "AND has_table_privilege(current_user, 'run', 'INSERT')"
                    )
                ).scalar()
            )
    return True


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One session, one transaction: committed on success, rolled back on any error.

    Database failures (a read-only file, a lost server, a locked database)
    become one-line :class:`StoreError` s; an ``IntegrityError`` stays as it
    is, for callers that turn a constraint into a message of their own.
    """
    with _store_errors(describe(engine.url)), Session(engine, expire_on_commit=False) as session, session.begin():
        yield session


@contextmanager
def _store_errors(where: str) -> Iterator[None]:
    try:
        yield
    except IntegrityError:
        raise
    except DBAPIError as error:
        raise StoreError(f"{where}: {_problem(error)}") from error


def _problem(error: DBAPIError) -> str:
    """The driver's complaint in one line, with what to do for the usual ones."""
    message = _first_line(error.orig if error.orig is not None else error)
    lowered = message.lower()
    if "file is not a database" in lowered:
        return "not an SQLite database file (is it the right file?)"
    if "readonly database" in lowered or "read-only" in lowered:
        return f"the database is read-only ({message}): give a database you may write"
    if "unable to open database file" in lowered:
        return "cannot open the database file (is its folder missing or read-only?)"
    if "database is locked" in lowered:
        return "the database stayed locked by another process: try again when it has finished"
    if error.connection_invalidated or ("connection" in lowered and ("failed" in lowered or "refused" in lowered)):
        return f"cannot connect to the database server: {message}"
    return message


def _first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return " ".join(lines[:2]) if lines else type(error).__name__
