"""Several processes storing suites into one new database at the same moment.

Each trial starts real processes that wait at a barrier, then store at once
into a database that does not exist yet (a new SQLite file, or a fresh
PostgreSQL database). Every process that reports success must find its suite
in the database afterwards: a failing build must never remove a database that
another process committed to.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from checkpoints.db.repo import load_suite, suite_names
from checkpoints.db.session import open_engine, transaction
from checkpoints.errors import CheckpointsError

TRIALS = 10

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="needs the fork start method for its processes"
)


def _store(db: str, data: Any, barrier: Any, results: Any) -> None:
    """One process: wait for the others, store, report ("ok" | "error" | "crash", name, message)."""
    from checkpoints.service.store import store_new_suite

    try:
        barrier.wait(60)
        store_new_suite(db, data)
        results.put(("ok", data.name, ""))
    except CheckpointsError as error:
        results.put(("error", data.name, str(error)))
    except BaseException:
        results.put(("crash", data.name, traceback.format_exc()))


def _run_at_once(db: str, suites: list[Any]) -> list[tuple[str, str, str]]:
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(len(suites))
    results = context.Queue()
    processes = [context.Process(target=_store, args=(db, data, barrier, results)) for data in suites]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(60)
    return sorted(outcomes)


def _stored(db: str) -> dict[str, Any]:
    engine = open_engine(db, create=False)
    try:
        with transaction(engine) as session:
            return {name: load_suite(session, name) for name in suite_names(session)}
    finally:
        engine.dispose()


def _no_leftovers(db: str) -> None:
    if "://" not in db:
        assert sorted(p.name for p in Path(db).parent.iterdir() if p.name.startswith(Path(db).name) or
                      p.name.startswith(f".{Path(db).name}")) == [Path(db).name]


def test_concurrent_builds_into_one_new_database_keep_every_suite(
    new_store: Callable[[], str], make_suite: Callable[..., Any]
) -> None:
    for trial in range(TRIALS):
        db = new_store()
        names = [f"suite-{trial}-{n}" for n in range(3)]
        outcomes = _run_at_once(db, [make_suite(name) for name in names])
        assert outcomes == [("ok", name, "") for name in names], f"trial {trial}: {outcomes}"
        stored = _stored(db)
        assert sorted(stored) == names, f"trial {trial}"
        for name in names:
            assert stored[name].checkpoints == make_suite(name).checkpoints
        _no_leftovers(db)


def test_a_failing_build_never_removes_a_committed_suite(
    new_store: Callable[[], str], make_suite: Callable[..., Any]
) -> None:
    """The failing process created the new file too; its clean-up must not take the others' suites."""
    for trial in range(TRIALS):
        db = new_store()
        broken = make_suite(f"broken-{trial}")
        broken.checkpoints[0].category = "No such category"
        good = [make_suite(f"good-{trial}-{n}") for n in range(2)]
        outcomes = _run_at_once(db, [broken, *good])
        crashes = [o for o in outcomes if o[0] == "crash"]
        assert not crashes, crashes
        assert [o[:2] for o in outcomes] == [("error", broken.name), ("ok", good[0].name), ("ok", good[1].name)], (
            f"trial {trial}: {outcomes}"
        )
        assert sorted(_stored(db)) == [data.name for data in good], f"trial {trial}"
        _no_leftovers(db)


def test_the_same_name_at_once_gives_one_suite_and_one_line_errors(
    new_store: Callable[[], str], make_suite: Callable[..., Any]
) -> None:
    for trial in range(TRIALS):
        db = new_store()
        outcomes = _run_at_once(db, [make_suite("same") for _ in range(3)])
        assert [o[0] for o in outcomes] == ["error", "error", "ok"], f"trial {trial}: {outcomes}"
        for _kind, _name, message in outcomes[:2]:
            assert message == "a suite named 'same' already exists in this database: choose another --name, or --replace it"
        assert list(_stored(db)) == ["same"]
        _no_leftovers(db)
