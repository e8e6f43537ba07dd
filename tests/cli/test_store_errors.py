"""Databases a command cannot use: one line on stderr naming the file or URL and the problem,
never a traceback, and nothing written to what is there."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from checkpoints.db.tables import SCHEMA_VERSION

ROOT = os.geteuid() == 0
"""Root ignores file permissions: the permission-bit variants cannot fail for root."""


def one_line_error(result: tuple[int, str, str], *parts: str) -> str:
    code, _out, err = result
    assert code == 1, err
    assert err.startswith("checkpoints: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for part in parts:
        assert part in err, err
    return err


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sqlite_tables(path: Path) -> list[str]:
    connection = sqlite3.connect(path)
    try:
        return sorted(row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    finally:
        connection.close()


def test_a_foreign_sqlite_database_is_refused_and_left_alone(build_table3, run_cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                             table8_inputs: dict[str, Path]) -> None:
    """It used to get the 13 checkpoints tables added beside its own."""
    db = tmp_path / "other.db"
    connection = sqlite3.connect(db)
    connection.execute("CREATE TABLE suite (id INTEGER PRIMARY KEY, title TEXT)")
    connection.execute("INSERT INTO suite (title) VALUES ('not ours')")
    connection.commit()
    connection.close()
    before = digest(db)
    message = f"{db}: not a checkpoints database (it holds other tables: suite); give a new file or an empty database"
    one_line_error(build_table3(db), message)
    one_line_error(run_cli("import", "--db", db, table8_inputs["xml"]), message)
    one_line_error(run_cli("show", "--db", db), message)
    one_line_error(run_cli("evaluate", "--db", db, "--system", f"A={table8_inputs['a']}"), message)
    assert sqlite_tables(db) == ["suite"] and digest(db) == before


def test_a_foreign_postgresql_database_is_refused(run_cli, postgres_url: str, table8_inputs: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import create_engine, inspect, text

    engine = create_engine(postgres_url)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE pair (x INTEGER)"))
    one_line_error(run_cli("import", "--db", postgres_url, table8_inputs["xml"]),
                   "not a checkpoints database (it holds other tables: pair)")
    with engine.connect() as connection:
        assert inspect(connection).get_table_names() == ["pair"]
    engine.dispose()


@pytest.mark.parametrize(("version", "advice"), [
    (SCHEMA_VERSION + 1, "written by a newer checkpoints"),
    (SCHEMA_VERSION - 1, "written by an older checkpoints"),
])
def test_other_schema_versions_say_which_and_what_to_do(run_cli, tmp_path: Path, table8_inputs: dict[str, Path],  # type: ignore[no-untyped-def]
                                                        version: int, advice: str) -> None:
    db = tmp_path / "t8.db"
    assert run_cli("import", "--db", db, table8_inputs["xml"])[0] == 0
    connection = sqlite3.connect(db)
    connection.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),))
    connection.commit()
    connection.close()
    for args in (("show",), ("export", "--output", tmp_path / "x.xml"), ("import", table8_inputs["xml"])):
        err = one_line_error(run_cli(args[0], "--db", db, *args[1:]), f"{db}: {advice}",
                             f"schema version {version}; ", f"reads version {SCHEMA_VERSION}")
        assert ("upgrade checkpoints" in err) == (version > SCHEMA_VERSION)


@pytest.mark.parametrize("content", [b"just some notes\n", bytes(range(256)) * 16], ids=["text", "random-bytes"])
def test_a_file_that_is_not_sqlite(build_table3, run_cli, tmp_path: Path, table8_inputs: dict[str, Path],  # type: ignore[no-untyped-def]
                                   content: bytes) -> None:
    db = tmp_path / "notes.txt"
    db.write_bytes(content)
    message = f"{db}: not an SQLite database file"
    one_line_error(run_cli("show", "--db", db), message)
    one_line_error(run_cli("export", "--db", db, "--output", tmp_path / "x.xml"), message)
    one_line_error(run_cli("import", "--db", db, table8_inputs["xml"]), message)
    one_line_error(build_table3(db), message)
    assert db.read_bytes() == content and sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("notes", ".notes"))) == ["notes.txt"]


def test_a_folder_given_as_database(build_table3, run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    message = f"{tmp_path}: is a folder, not a database file"
    one_line_error(run_cli("show", "--db", tmp_path), message)
    one_line_error(build_table3(tmp_path), message)
    one_line_error(run_cli("show", "--db", f"sqlite:///{tmp_path}"), message)


def test_a_missing_folder(build_table3, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    one_line_error(build_table3(tmp_path / "no" / "such.db"), "cannot create the database: no such folder")


@pytest.mark.skipif(ROOT, reason="runs as root, which writes into read-only folders; the next test covers the check")
def test_a_new_database_in_a_read_only_folder(build_table3, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        one_line_error(build_table3(folder / "new.db"), f"{folder / 'new.db'}: cannot create the database")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_a_new_database_in_a_folder_this_user_may_not_write(build_table3, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The same as the permission-bit test, for root too: the process is told it may not write there."""
    folder = tmp_path / "locked"
    folder.mkdir()
    real_access = os.access

    def access(path: object, mode: int, **kwargs: object) -> bool:
        if mode & os.W_OK and Path(str(path)).absolute().is_relative_to(folder):
            return False
        return real_access(path, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)
    one_line_error(build_table3(folder / "new.db"),
                   f"{folder / 'new.db'}: cannot create the database: the folder {folder} is read-only")
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(ROOT, reason="runs as root, which writes into read-only files; the URI variant below covers it")
def test_a_read_only_file_for_a_writing_command(run_cli, tmp_path: Path, table8_inputs: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t8.db"
    assert run_cli("import", "--db", db, table8_inputs["xml"])[0] == 0
    db.chmod(0o444)
    before = digest(db)
    try:
        one_line_error(run_cli("evaluate", "--db", db, "--system", f"A={table8_inputs['a']}"),
                       f"{db}: the database is read-only")
        other = table8_inputs["xml"].read_text(encoding="utf-8").replace('name="table8"', 'name="copy"')
        copy = tmp_path / "copy.xml"
        copy.write_text(other, encoding="utf-8")
        one_line_error(run_cli("import", "--db", db, copy), f"{db}: the database is read-only")
        assert digest(db) == before
    finally:
        db.chmod(0o644)


def test_a_read_only_url_for_a_writing_command(run_cli, tmp_path: Path, table8_inputs: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t8.db"
    assert run_cli("import", "--db", db, table8_inputs["xml"])[0] == 0
    before = digest(db)
    read_only = f"sqlite:///file:{db}?mode=ro&uri=true"
    one_line_error(run_cli("evaluate", "--db", read_only, "--system", f"A={table8_inputs['a']}"),
                   f"{db}: the database is read-only")
    one_line_error(run_cli("import", "--db", read_only, table8_inputs["xml"]),
                   f"{db}: the database is read-only (the URL opens it read-only)")
    assert digest(db) == before


def test_an_unreachable_postgresql_server_hides_the_password(run_cli) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("psycopg")
    err = one_line_error(run_cli("show", "--db", "postgresql://someone:s3cret@127.0.0.1:1/suites"),
                         "postgresql+psycopg://someone:***@127.0.0.1:1/suites: cannot connect to the database server")
    assert "s3cret" not in err


def test_a_missing_driver(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "psycopg", None)
    one_line_error(run_cli("show", "--db", "postgresql://someone:s3cret@localhost/suites"),
                   "postgresql+psycopg://someone:***@localhost/suites: the database driver psycopg is not installed: "
                   "pip install 'mt-checkpoints[postgresql]'")


def test_unknown_kinds_of_database(run_cli) -> None:  # type: ignore[no-untyped-def]
    one_line_error(run_cli("show", "--db", "nosuchdb://host/x"), "nosuchdb://host/x: unknown kind of database 'nosuchdb'")
