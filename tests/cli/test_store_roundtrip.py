"""build, import, evaluate, compare, show and export through the command line, on an SQLite file
and on a real PostgreSQL, with the same results on both."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from checkpoints.db.repo import load_suite
from checkpoints.db.session import open_engine, transaction
from checkpoints.db.tables import RunRow


def runs(db: str) -> list[str]:
    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        kinds = list(session.scalars(select(RunRow.kind).order_by(RunRow.id)))
    engine.dispose()
    return kinds


def round_trip(run_cli, build_table3, store: str, other: str, inputs: dict[str, Path], tmp_path: Path) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Everything a user does with a store; returns what must agree across backends."""
    code, _out, err = run_cli("import", "--db", store, inputs["xml"])
    assert code == 0, err
    code, out, err = run_cli("evaluate", "--db", store, "--system", f"A={inputs['a']}", "--system", f"B={inputs['b']}",
                             "--format", "json")
    assert code == 0, err
    evaluation = json.loads(out)
    assert evaluation["systems"]["A"]["score"] == 1 / 6 and evaluation["systems"]["B"]["score"] == 1.0
    code, out, err = run_cli("compare", "--db", store, "--system", "A", "--system", "B", "--samples", "50",
                             "--format", "json")
    assert code == 0, err
    comparison = json.loads(out)
    assert runs(store) == ["evaluate", "compare"]
    code, out, err = run_cli("show", "--db", store, "--checkpoint", "1", "--format", "json")
    assert code == 0, err
    shown = json.loads(out)
    exported = tmp_path / f"{len(list(tmp_path.glob('export*')))}-export.xml"
    code, _out, err = run_cli("export", "--db", store, "--output", exported)
    assert code == 0, err
    # export → import into another store → export: the same bytes
    code, _out, err = run_cli("import", "--db", other, exported)
    assert code == 0, err
    again = exported.with_name(exported.name + ".again.xml")
    assert run_cli("export", "--db", other, "--output", again)[0] == 0
    assert again.read_bytes() == exported.read_bytes()
    code, _out, err = build_table3(store)
    assert code == 0, err
    engine = open_engine(store, create=False)
    with transaction(engine) as session:
        table3 = load_suite(session, "table3")
        assert session.scalar(select(func.count(RunRow.id))) == 2
    engine.dispose()
    return {
        "evaluation": evaluation["systems"], "comparison": comparison["comparisons"], "show": shown,
        "xml": exported.read_bytes(), "table3": [(c.category, c.source_indices, [(r.tokens, r.dm) for r in c.references])
                                                 for c in table3.checkpoints],
    }


def test_cli_round_trip_on_each_store(run_cli, build_table3, new_store: Callable[[], str],  # type: ignore[no-untyped-def]
                                      table8_inputs: dict[str, Path], tmp_path: Path) -> None:
    result = round_trip(run_cli, build_table3, new_store(), new_store(), table8_inputs, tmp_path)
    assert result["table3"]


def test_sqlite_and_postgresql_give_the_same_results(run_cli, build_table3, postgres_url: str,  # type: ignore[no-untyped-def]
                                                     new_postgres_database, table8_inputs: dict[str, Path],
                                                     tmp_path: Path) -> None:
    """DM values, scores, p-values, options and the exported XML agree to the last bit."""
    (tmp_path / "s").mkdir()
    (tmp_path / "p").mkdir()
    on_sqlite = round_trip(run_cli, build_table3, str(tmp_path / "a.db"), str(tmp_path / "b.db"), table8_inputs,
                           tmp_path / "s")
    on_postgresql = round_trip(run_cli, build_table3, postgres_url, new_postgres_database(), table8_inputs,
                               tmp_path / "p")
    assert on_postgresql == on_sqlite


def test_bare_postgresql_urls_get_psycopg(run_cli, postgres_url: str, table8_inputs: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    """``postgresql://`` (what other tools print) works as given, with the psycopg 3 driver."""
    bare = postgres_url.replace("postgresql+psycopg://", "postgresql://", 1)
    code, _out, err = run_cli("import", "--db", bare, table8_inputs["xml"])
    assert code == 0, err
    code, out, err = run_cli("show", "--db", bare, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["suite"] == "table8"
