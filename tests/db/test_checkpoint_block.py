"""A suite's check-points packed in one ``checkpoint_block`` row: exact round trips on SQLite and
PostgreSQL, and one-line errors for what the old per-row constraints used to catch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import delete, func, select

from checkpoints.db.repo import load_suite
from checkpoints.db.session import open_engine, transaction
from checkpoints.db.tables import CheckpointBlock
from checkpoints.errors import SuiteError
from checkpoints.model import CheckPoint, Reference
from checkpoints.service.store import store_new_suite

MakeSuite = Callable[..., Any]


def _round_trip(store_url: str, data: Any) -> Any:
    store_new_suite(store_url, data)
    engine = open_engine(store_url, create=False)
    try:
        with transaction(engine) as session:
            loaded = load_suite(session, data.name)
            columns = loaded.checkpoint_columns()
            return loaded, columns
    finally:
        engine.dispose()


def test_every_field_comes_back(store_url: str, make_suite: MakeSuite) -> None:
    """Spans, target indices, DM, the alignment flag, gaps and tokens with any character survive;
    check-points come back in the order of their numbers, whatever order they were stored in."""
    data = make_suite("odd")
    odd = CheckPoint(
        2, "My terms", [0, 3],
        [Reference(1, [], [], 0.25, False), Reference(0, [0, 2, 3], ["en", "*", "roja\nbis", "\u00e9\u6f22\U0001f600"], 0.5)],
        id=99,
    )
    data.checkpoints.insert(0, odd)  # stored first, numbered last
    expected = sorted(data.checkpoints, key=lambda checkpoint: checkpoint.id)
    loaded, columns = _round_trip(store_url, data)
    assert columns.numbers.tolist() == [checkpoint.id for checkpoint in expected]
    assert columns.tokens[-2:] == ["", "en * roja\nbis \u00e9\u6f22\U0001f600"]
    assert columns.dm.tolist()[-2:] == [0.25, 0.5]
    assert loaded.checkpoints == expected
    assert loaded.checkpoints[-1].references[0].from_alignment is False


def test_a_suite_without_checkpoints(store_url: str, make_suite: MakeSuite) -> None:
    data = make_suite("empty")
    data.checkpoints = []
    loaded, columns = _round_trip(store_url, data)
    assert loaded.checkpoints == [] and len(columns.numbers) == 0 and columns.tokens == []


@pytest.mark.parametrize(("change", "message"), [
    (lambda data: setattr(data.checkpoints[1], "id", data.checkpoints[0].id), "check-point number 1 is used twice"),
    (lambda data: setattr(data.checkpoints[2], "pair_id", 7), "check-point 3 refers to pair 7, which the suite lacks"),
    (lambda data: setattr(data.pairs[1], "id", data.pairs[0].id), "pair id 1 is used twice in suite 'sample'"),
])
def test_inconsistent_suites_are_refused(store_url: str, make_suite: MakeSuite, change: Any, message: str) -> None:
    data = make_suite()
    for number, checkpoint in enumerate(data.checkpoints, start=1):
        checkpoint.id = number
    change(data)
    with pytest.raises(SuiteError, match=message):
        store_new_suite(store_url, data)


def test_a_store_that_lost_its_checkpoints_says_so(store_url: str, make_suite: MakeSuite) -> None:
    store_new_suite(store_url, make_suite())
    engine = open_engine(store_url, create=False)
    with transaction(engine) as session:
        assert session.scalar(select(func.count(CheckpointBlock.id))) == 1
        session.execute(delete(CheckpointBlock))
    with pytest.raises(SuiteError, match="suite 'sample' has lost its check-points: the database is damaged"), \
            transaction(engine) as session:
        load_suite(session)
    engine.dispose()


def test_the_content_hash_computed_beside_the_storing_is_the_suites(store_url: str, make_suite: MakeSuite,
                                                                     forked: bool) -> None:
    """Storing asks for the content hash last, which a forked child computes meanwhile where it can."""
    from checkpoints.signature import suite_hash

    data = make_suite()
    expected = suite_hash(make_suite())
    loaded, _ = _round_trip(store_url, data)
    assert data.options["content_hash"] == expected == loaded.options["content_hash"]
