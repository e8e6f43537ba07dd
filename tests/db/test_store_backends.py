"""The store on SQLite and on a real PostgreSQL: round trips, JSON and float columns, ids from
the database, the schema check, and transactions that overlap."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, inspect, select, text

from checkpoints.db.repo import delete_suite, find_suite, load_suite, store_suite, suite_names
from checkpoints.db.runs import store_run
from checkpoints.db.session import open_engine, transaction
from checkpoints.db.tables import (
    SCHEMA_VERSION,
    CategoryRow,
    CheckpointBlock,
    Meta,
    Pair,
    RunRow,
    Suite,
)
from checkpoints.errors import StoreError, SuiteError
from checkpoints.service.store import store_new_suite

MakeSuite = Callable[..., Any]


def test_store_load_round_trip_is_the_same_on_both(store_url: str, make_suite: MakeSuite) -> None:
    """Floats (DM 1/3, 1e-9) and JSON (nested options, non-ASCII keys, None, booleans) come
    back exactly as stored, whatever the backend."""
    data = make_suite()
    store_new_suite(store_url, data)
    engine = open_engine(store_url, create=False)
    with transaction(engine) as session:
        loaded = load_suite(session)
        summary = find_suite(session).summary
    engine.dispose()
    assert loaded.options == {**data.options, "content_hash": data.options["content_hash"]}
    assert loaded.options["weights"] == [0.1, 1 / 3, 1e-9]
    assert loaded.options["nested"] == {"ñ": None, "on": True}
    assert summary == {"pairs": 2, "per_category": {"Noun": 1}}
    assert loaded.checkpoints[0].references[1].dm == 1 / 3
    assert [(c.id, c.category, c.source_indices) for c in loaded.checkpoints] == [
        (1, "Noun", [1]), (2, "Preposition phrase", [0, 1, 2, 3]), (3, "My terms", [2])]
    assert [p.source.forms for p in loaded.pairs] == [p.source.forms for p in data.pairs]
    assert loaded.pairs[0].alignments[0].links == data.pairs[0].alignments[0].links
    assert loaded.user_categories == {"My terms"}


def test_run_reports_keep_floats_and_json_exactly(store_url: str, make_suite: MakeSuite) -> None:
    report = {"score": 0.1 + 0.2, "tiny": 5e-324, "big": 1.7976931348623157e308, "list": [1, 2.5, None],
              "text": "中文 «ñ»", "nested": {"a": {"b": [True, False]}}}
    store_new_suite(store_url, make_suite())
    engine = open_engine(store_url, create=False)
    with transaction(engine) as session:
        run_id = store_run(session, find_suite(session).id, "evaluate", {"match": "stem", "max_order": None},
                           "sig", report)
    with transaction(engine) as session:
        run = session.get(RunRow, run_id)
        assert run is not None
        assert run.report == report and run.options == {"match": "stem", "max_order": None}
    engine.dispose()


def test_ids_come_from_the_database(store_url: str, make_suite: MakeSuite) -> None:
    """After a bulk store, rows added one by one get ids from the same counters (on
    PostgreSQL, ids written explicitly would have left the sequences behind)."""
    store_new_suite(store_url, make_suite("one"))
    store_new_suite(store_url, make_suite("two"))
    engine = open_engine(store_url, create=False)
    with transaction(engine) as session:
        suite_id = find_suite(session, "two").id
        session.add(Pair(suite_id=suite_id, position=99, external_id="extra"))
        session.add(CategoryRow(suite_id=suite_id, position=99, name="extra", level="word"))
        session.flush()
    with transaction(engine) as session:
        assert session.scalar(select(func.count(Pair.id))) == 5
        assert len(set(session.scalars(select(CheckpointBlock.id)))) == 2
        assert load_suite(session, "one").checkpoints == make_suite("one").checkpoints
    engine.dispose()


def test_two_transactions_storing_at_once_get_distinct_ids(store_url: str, make_suite: MakeSuite) -> None:
    """A second writer starts while the first has stored but not committed: with
    ``max(id) + 1`` both took the same ids and the second failed on PostgreSQL."""
    store_new_suite(store_url, make_suite("first"))  # the tables exist before the race
    engine = open_engine(store_url, create=False)
    outcome: dict[str, object] = {}

    def second() -> None:
        try:
            outcome["id"] = store_new_suite(store_url, make_suite("third"))
        except Exception as error:  # reported by the assertion below
            outcome["error"] = error

    with transaction(engine) as session:
        store_suite(session, make_suite("second"))
        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.5)  # the other writer is now waiting for this transaction
    thread.join(60)
    assert "error" not in outcome, outcome.get("error")
    with transaction(engine) as session:
        assert suite_names(session) == ["first", "second", "third"]
        for name in ("first", "second", "third"):
            assert load_suite(session, name).checkpoints == make_suite(name).checkpoints
    engine.dispose()


def test_same_name_stored_at_once_is_a_one_line_error(store_url: str, make_suite: MakeSuite) -> None:
    """The name check passes for both writers on PostgreSQL; the unique index stops the
    second, which must say so in one line rather than with an IntegrityError."""
    store_new_suite(store_url, make_suite("first"))
    engine = open_engine(store_url, create=False)
    outcome: dict[str, object] = {}

    def second() -> None:
        try:
            store_new_suite(store_url, make_suite("same"))
        except Exception as error:
            outcome["error"] = error

    with transaction(engine) as session:
        store_suite(session, make_suite("same"))
        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.5)
    thread.join(60)
    error = outcome.get("error")
    assert isinstance(error, SuiteError), error
    assert str(error) == "a suite named 'same' already exists in this database: choose another --name, or --replace it"
    with transaction(engine) as session:
        assert suite_names(session) == ["first", "same"]
    engine.dispose()


def test_delete_suite_on_both(store_url: str, make_suite: MakeSuite) -> None:
    store_new_suite(store_url, make_suite("one"))
    store_new_suite(store_url, make_suite("two"))
    engine = open_engine(store_url, create=False)
    with transaction(engine) as session:
        delete_suite(session, "one")
    with transaction(engine) as session:
        assert suite_names(session) == ["two"]
        assert session.scalar(select(func.count(Pair.id))) == 2
    engine.dispose()


def test_a_failed_store_leaves_nothing(store_url: str, make_suite: MakeSuite) -> None:
    data = make_suite()
    data.checkpoints[-1].category = "Unknown"
    with pytest.raises(SuiteError, match="names unknown category 'Unknown'"):
        store_new_suite(store_url, data)
    if "://" not in store_url:  # a new SQLite file is only created once a suite is in it
        from pathlib import Path

        assert not Path(store_url).exists()
        assert not list(Path(store_url).parent.glob(".*.tmp"))
        return
    engine = open_engine(store_url, create=False)
    with transaction(engine) as session:
        assert session.scalar(select(func.count(Suite.id))) == 0
        assert session.scalar(select(func.count(Pair.id))) == 0
    engine.dispose()


# -- the schema check ---------------------------------------------------------------


def _foreign(store_url: str) -> None:
    """A database that belongs to something else: a table called ``suite`` among others."""
    from sqlalchemy import create_engine

    url = store_url if "://" in store_url else f"sqlite:///{store_url}"
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE suite (x INTEGER)"))
        connection.execute(text("CREATE TABLE invoices (y INTEGER)"))
    engine.dispose()


def _tables(store_url: str) -> set[str]:
    from sqlalchemy import create_engine

    url = store_url if "://" in store_url else f"sqlite:///{store_url}"
    engine = create_engine(url)
    with engine.connect() as connection:
        tables = set(inspect(connection).get_table_names())
    engine.dispose()
    return tables


def test_a_foreign_database_is_refused_and_left_alone(store_url: str, make_suite: MakeSuite) -> None:
    _foreign(store_url)
    for create in (True, False):
        with pytest.raises(StoreError, match="not a checkpoints database \\(it holds other tables: invoices, suite\\); "
                                             "give a new file or an empty database"):
            open_engine(store_url, create=create)
    with pytest.raises(StoreError, match="not a checkpoints database"):
        store_new_suite(store_url, make_suite())
    assert _tables(store_url) == {"suite", "invoices"}


@pytest.mark.parametrize(("version", "message"), [
    (SCHEMA_VERSION + 1, "written by a newer checkpoints .*upgrade checkpoints"),
    (SCHEMA_VERSION - 1, "written by an older checkpoints .*export its suites with that version"),
])
def test_other_schema_versions_are_refused(store_url: str, make_suite: MakeSuite, version: int, message: str) -> None:
    store_new_suite(store_url, make_suite())
    engine = open_engine(store_url, create=False)
    with transaction(engine) as session:
        meta = session.get(Meta, "schema_version")
        assert meta is not None
        meta.value = str(version)
    engine.dispose()
    for create in (True, False):
        with pytest.raises(StoreError, match=f"schema version {version}; .*reads version {SCHEMA_VERSION}.*"):
            open_engine(store_url, create=create)
        with pytest.raises(StoreError, match=message):
            open_engine(store_url, create=create)


def test_opening_to_read_writes_nothing(store_url: str) -> None:
    """An empty database is not turned into a store by a reading command."""
    if "://" not in store_url:
        from pathlib import Path

        Path(store_url).touch()
    with pytest.raises(StoreError, match="an empty database, not a checkpoints store yet"):
        open_engine(store_url, create=False)
    assert _tables(store_url) == set()
