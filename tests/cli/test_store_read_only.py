"""Reading commands on stores they may not write: ``show``, ``export`` and ``compare`` work, the
file stays byte for byte as it was, and ``compare`` says it kept nothing."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from checkpoints.db.session import open_engine, store_is_writable

ROOT = os.geteuid() == 0


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def evaluated(run_cli, tmp_path: Path, table8_inputs: dict[str, Path]) -> Path:  # type: ignore[no-untyped-def]
    """A store of Table 8 with systems A and B evaluated, in a folder of its own."""
    folder = tmp_path / "store"
    folder.mkdir()
    db = folder / "t8.db"
    assert run_cli("import", "--db", db, table8_inputs["xml"])[0] == 0
    code, _out, err = run_cli("evaluate", "--db", db, "--system", f"A={table8_inputs['a']}",
                              "--system", f"B={table8_inputs['b']}")
    assert code == 0, err
    return db


def read_everything(run_cli, db: object, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("show", "--db", db, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["suite"] == "table8"
    code, _out, err = run_cli("export", "--db", db, "--output", tmp_path / "out.xml")
    assert code == 0, err
    assert 'name="table8"' in (tmp_path / "out.xml").read_text(encoding="utf-8")
    code, out, err = run_cli("compare", "--db", db, "--system", "A", "--system", "B", "--samples", "20",
                             "--format", "json")
    assert code == 0, err
    assert json.loads(out)["systems"] == ["A", "B"]


def stored_runs(db: Path) -> int:
    import sqlite3

    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(connection.execute("SELECT count(*) FROM run").fetchone()[0])
    finally:
        connection.close()


@pytest.mark.parametrize("query", ["mode=ro&uri=true", "immutable=1&uri=true"])
def test_reading_commands_on_a_read_only_url(run_cli, evaluated: Path, tmp_path: Path, query: str) -> None:  # type: ignore[no-untyped-def]
    before = digest(evaluated)
    read_everything(run_cli, f"sqlite:///file:{evaluated}?{query}", tmp_path)
    assert digest(evaluated) == before and stored_runs(evaluated) == 1


@pytest.fixture
def write_protected(evaluated: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The store's file and folder without write permission; for root, which ignores the
    bits, the process is also told it may not write them (so the same decisions are made)."""
    folder = evaluated.parent
    evaluated.chmod(0o444)
    folder.chmod(0o555)
    if ROOT:
        real_access = os.access

        def access(path: object, mode: int, **kwargs: object) -> bool:
            if mode & os.W_OK and Path(str(path)).absolute().is_relative_to(folder):
                return False
            return real_access(path, mode, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "access", access)
    try:
        yield evaluated
    finally:
        folder.chmod(0o755)
        evaluated.chmod(0o644)


def test_reading_commands_on_a_write_protected_file_and_folder(run_cli, write_protected: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    before = digest(write_protected)
    read_everything(run_cli, write_protected, tmp_path)
    assert digest(write_protected) == before and stored_runs(write_protected) == 1
    assert sorted(p.name for p in write_protected.parent.iterdir()) == ["t8.db"]
    engine = open_engine(write_protected, create=False)
    try:
        assert not store_is_writable(engine)
    finally:
        engine.dispose()
    engine = create_engine(f"sqlite:///{write_protected}")  # as a library caller might
    try:
        assert not store_is_writable(engine)
    finally:
        engine.dispose()


def test_compare_keeps_nothing_on_a_read_only_store_and_says_so(evaluated: Path) -> None:
    from checkpoints.evaluate.resample import ResampleSpec
    from checkpoints.service.compare import compare_systems

    spec = ResampleSpec(samples=20)
    result = compare_systems(f"sqlite:///file:{evaluated}?mode=ro&uri=true", ["A", "B"], spec=spec, keep=True)
    assert result.run_id is None and stored_runs(evaluated) == 1
    result = compare_systems(evaluated, ["A", "B"], spec=spec, keep=True)
    assert result.run_id is not None and stored_runs(evaluated) == 2


def test_reading_commands_write_nothing_to_a_writable_store(run_cli, evaluated: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Opening to read used to add the schema rows and tables when missing."""
    before = digest(evaluated)
    code, _out, err = run_cli("show", "--db", evaluated)
    assert code == 0, err
    code, _out, err = run_cli("export", "--db", evaluated, "--output", tmp_path / "out.xml")
    assert code == 0, err
    assert digest(evaluated) == before
    assert sorted(p.name for p in evaluated.parent.iterdir()) == ["t8.db"]
