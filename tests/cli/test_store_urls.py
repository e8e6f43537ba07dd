"""``--db`` takes a file or any SQLAlchemy URL, and means the same database either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkpoints.db.session import database_url, describe, store_url


@pytest.mark.parametrize(("given", "url"), [
    ("suite.db", "sqlite:///suite.db"),
    ("/abs/suite.db", "sqlite:////abs/suite.db"),
    ("sqlite:///rel.db", "sqlite:///rel.db"),
    ("sqlite:////abs.db", "sqlite:////abs.db"),
    ("postgresql://u:p@host:5432/db", "postgresql+psycopg://u:p@host:5432/db"),
    ("postgres://u@host/db", "postgresql+psycopg://u@host/db"),
    ("postgresql+psycopg://u@/db?host=/run/pg", "postgresql+psycopg://u@/db?host=%2Frun%2Fpg"),
])
def test_database_urls(given: str, url: str) -> None:
    assert database_url(given) == url
    if "://" not in given:
        assert database_url(Path(given)) == url


def test_messages_name_files_and_hide_passwords() -> None:
    assert describe("sqlite:////data/x.db") == "/data/x.db"
    assert describe("sqlite:///file:/data/x%20y.db?mode=ro&uri=true") == "/data/x y.db"
    assert describe("postgresql://user:secret@db.example:5432/suites") == "postgresql+psycopg://user:***@db.example:5432/suites"
    assert store_url(Path("a?b.db")).database == "a?b.db"


def test_relative_and_absolute_sqlite_urls_through_the_cli(run_cli, tmp_path: Path, table8_inputs: dict[str, Path],  # type: ignore[no-untyped-def]
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _out, err = run_cli("import", "--db", "sqlite:///rel.db", table8_inputs["xml"])
    assert code == 0, err
    assert (tmp_path / "rel.db").is_file() and not (tmp_path / "sqlite:").exists()
    for db in ("sqlite:///rel.db", "rel.db", f"sqlite:///{tmp_path / 'rel.db'}", str(tmp_path / "rel.db")):
        code, out, err = run_cli("show", "--db", db, "--format", "json")
        assert code == 0, f"{db}: {err}"
        assert json.loads(out)["suite"] == "table8"
    code, _out, err = run_cli("export", "--db", "sqlite:///rel.db", "--output", tmp_path / "out.xml")
    assert code == 0, err
    absolute = f"sqlite:///{tmp_path / 'abs.db'}"  # sqlite:////tmp/...: four slashes
    assert absolute.startswith("sqlite:////")
    code, _out, err = run_cli("import", "--db", absolute, tmp_path / "out.xml")
    assert code == 0, err
    code, _out, err = run_cli("evaluate", "--db", absolute, "--system", f"A={table8_inputs['a']}")
    assert code == 0, err
    code, out, err = run_cli("compare", "--db", absolute, "--system", "A", "--system", f"B={table8_inputs['b']}",
                             "--samples", "20", "--format", "json")
    assert code == 0, err


def test_build_into_sqlite_urls(build_table3, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The option used to turn ``sqlite:///u.db`` into the path ``sqlite:/u.db``."""
    monkeypatch.chdir(tmp_path)
    code, _out, err = build_table3("sqlite:///u.db")
    assert code == 0, err
    assert (tmp_path / "u.db").is_file()
    absolute = tmp_path / "nested" / "abs.db"
    absolute.parent.mkdir()
    code, _out, err = build_table3(f"sqlite:///{absolute}")
    assert code == 0, err
    for db in ("sqlite:///u.db", f"sqlite:///{absolute}", "u.db"):
        code, out, err = run_cli("show", "--db", db, "--format", "json", "--limit", "1")
        assert code == 0, f"{db}: {err}"
        assert json.loads(out)["suite"] == "table3"


def test_build_and_show_on_a_postgresql_url(build_table3, run_cli, postgres_url: str) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = build_table3(postgres_url)
    assert code == 0, err
    code, out, err = run_cli("show", "--db", postgres_url, "--format", "json", "--limit", "1")
    assert code == 0, err
    assert json.loads(out)["suite"] == "table3"
    code, _out, err = build_table3(postgres_url)
    assert (code, err) == (1, "checkpoints: error: a suite named 'table3' already exists in this database: "
                              "choose another --name, or --replace it\n")
