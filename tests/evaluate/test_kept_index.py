"""Compiled references kept with the suite: an adopted index matches exactly as a compiled one,
the store keeps one per suite and options, and a missing, damaged or stale one is compiled afresh."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import func, inspect, select

from checkpoints.db.repo import delete_suite, find_suite, load_suite, store_suite
from checkpoints.db.session import open_engine, transaction
from checkpoints.db.tables import KeptIndexRow
from checkpoints.evaluate.compiled import ReferenceIndex, _narrowest, pack_arrays, unpack_arrays
from checkpoints.evaluate.scoring import INDEX_FORMAT, CheckpointScorer
from checkpoints.report.checkpoint_json import evaluation_json
from checkpoints.service.evaluate import evaluate_systems
from checkpoints.service.kept_index import adopt_kept_index
from tests.evaluate.test_stored_runs import outputs, random_suite, same_scores


def test_narrowest_keeps_every_value() -> None:
    for values, kind in (([0, 255], np.uint8), ([0, 256], np.uint16), ([-1, 3], np.int32), ([0, 2**31], np.int64)):
        narrow = _narrowest(np.array(values, dtype=np.int64))
        assert narrow.dtype == kind and narrow.astype(np.int64).tolist() == values


@pytest.mark.parametrize(("tokenize", "match", "order", "categories"), [
    ("13a", "normal", 4, None), ("words", "lower", None, None), ("intl", "stem", 2, ["NP", "Noun"]), ("char", "normal", 4, None),
])
def test_an_index_read_back_matches_as_the_compiled_one(tokenize: str, match: str, order: int | None,
                                                        categories: list[str] | None) -> None:
    """Random suites with gaps, two references per pair and a check-point without references
    (``random_suite``), several tokenizers, granularities, orders and selections."""
    for seed in (3, 11):
        data = random_suite(seed, pairs=60)
        compiled = CheckpointScorer(data, tokenize=tokenize, match=match, max_order=order, categories=categories)
        index = compiled.compile()
        again = ReferenceIndex.from_arrays(unpack_arrays(pack_arrays(index.to_arrays())))
        assert again._vocabulary == index._vocabulary
        assert all(np.array_equal(a, b) for a, b in zip(again.to_arrays().values(), index.to_arrays().values(), strict=True))
        adopted = CheckpointScorer(data, tokenize=tokenize, match=match, max_order=order, categories=categories)
        adopted.adopt_kept_index(compiled.kept_index())
        assert adopted.index_adopted and not compiled.index_adopted
        fresh = CheckpointScorer(data, tokenize=tokenize, match=match, max_order=order, categories=categories)
        assert np.array_equal(adopted.reference_lengths, fresh.reference_lengths)
        assert adopted.index_key == compiled.index_key
        for system in range(3):
            translations = outputs(data, system)
            same_scores(adopted.score(translations), compiled.score(translations))


def test_the_key_names_every_option_the_index_depends_on() -> None:
    data = random_suite(3)
    keys = {CheckpointScorer(data, **options).index_key for options in (
        {}, {"tokenize": "intl"}, {"match": "lower"}, {"max_order": None}, {"categories": ["Noun"]},
    )}
    assert len(keys) == 5
    assert INDEX_FORMAT in CheckpointScorer(data).index_key


def test_an_index_that_does_not_fit_is_refused() -> None:
    data = random_suite(3)
    other = CheckpointScorer(data, categories=["Noun"]).compile()
    with pytest.raises(ValueError, match="references"):
        CheckpointScorer(data).adopt_index(other)
    scorer = CheckpointScorer(data)
    with pytest.raises(ValueError, match="not a kept reference index"):
        scorer.adopt_kept_index(b"not an archive")
    arrays = scorer.compile().to_arrays()
    with pytest.raises(ValueError, match="no reference length"):
        CheckpointScorer(data).adopt_kept_index(pack_arrays(arrays))
    with pytest.raises(ValueError, match="not a kept reference index"):
        ReferenceIndex.from_arrays({name: values for name, values in arrays.items() if name != "types"})
    arrays["type_sizes"] = arrays["type_sizes"][:-1]
    with pytest.raises(ValueError, match="disagree"):
        ReferenceIndex.from_arrays(arrays)
    unused = CheckpointScorer(data)
    assert not unused.index_adopted and unused._index is None  # a refused payload leaves the scorer to compile


def _store(db: str | Path) -> None:
    data = random_suite(5, pairs=50)
    data.options["content_hash"] = "sha256:test"
    engine = open_engine(db)
    with transaction(engine) as session:
        store_suite(session, data)
    engine.dispose()


def _systems(db: str | Path, folder: Path) -> list[tuple[str, Path]]:
    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        suite = load_suite(session)
    engine.dispose()
    files = []
    for number in (1, 2):
        path = folder / f"system{number}.txt"
        path.write_text("".join(line + "\n" for line in outputs(suite, number)), encoding="utf-8")
        files.append((f"system{number}", path))
    return files


def _kept(db: str | Path) -> list[tuple[str, int]]:
    engine = open_engine(db, create=False)
    try:
        with transaction(engine) as session:
            if not inspect(session.connection()).has_table("kept_index"):
                return []
            return [tuple(row) for row in session.execute(
                select(KeptIndexRow.made_by, func.length(KeptIndexRow.payload)).order_by(KeptIndexRow.id))]
    finally:
        engine.dispose()


def _scores(evaluation) -> str:  # type: ignore[no-untyped-def]
    report = evaluation_json(evaluation)
    report.pop("created", None)
    return json.dumps(report["systems"], sort_keys=True)


def test_the_first_evaluation_keeps_the_index_and_the_next_adopts_it(store_url: str, tmp_path: Path) -> None:
    """On SQLite and PostgreSQL: one row per suite and options, identical results either way,
    and deleting the suite deletes what was kept for it."""
    _store(store_url)
    systems = _systems(store_url, tmp_path)
    first = evaluate_systems(store_url, systems)
    assert not first.scorer.index_adopted
    kept = _kept(store_url)
    assert [made_by for made_by, _ in kept] == [INDEX_FORMAT] and kept[0][1] > 0
    second = evaluate_systems(store_url, systems)
    assert second.scorer.index_adopted
    assert _scores(second) == _scores(first)
    assert _kept(store_url) == kept  # nothing new to keep
    lower = evaluate_systems(store_url, systems, match="lower", categories=["Noun", "NP"])
    assert not lower.scorer.index_adopted and len(_kept(store_url)) == 2
    assert evaluate_systems(store_url, systems, match="lower", categories=["NP", "Noun"]).scorer.index_adopted

    engine = open_engine(store_url, create=False)
    with transaction(engine) as session:
        delete_suite(session, find_suite(session).name)
    engine.dispose()
    assert _kept(store_url) == []


def test_a_store_made_before_the_table_gains_it(tmp_path: Path) -> None:
    db = tmp_path / "suite.db"
    _store(db)
    with sqlite3.connect(db) as connection:
        connection.execute("DROP TABLE kept_index")
    systems = _systems(db, tmp_path)
    first = evaluate_systems(db, systems)  # reads a store without the table, then makes it
    assert not first.scorer.index_adopted and len(_kept(db)) == 1
    assert evaluate_systems(db, systems).scorer.index_adopted


def test_a_damaged_or_stale_index_is_compiled_afresh_and_replaced(tmp_path: Path) -> None:
    db = tmp_path / "suite.db"
    _store(db)
    systems = _systems(db, tmp_path)
    reference = _scores(evaluate_systems(db, systems))
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE kept_index SET payload = x'00ff'")
    damaged = evaluate_systems(db, systems)
    assert not damaged.scorer.index_adopted and _scores(damaged) == reference
    assert _kept(db)[0][1] > 2  # replaced by a good one
    assert evaluate_systems(db, systems).scorer.index_adopted

    with sqlite3.connect(db) as connection:  # kept by another version: another key, dropped on the next keep
        connection.execute("UPDATE kept_index SET made_by = 'reference-index-v0/0.0.1', key = 'old'")
    assert not evaluate_systems(db, systems).scorer.index_adopted
    assert [made_by for made_by, _ in _kept(db)] == [INDEX_FORMAT]


def test_a_read_only_store_adopts_what_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "suite.db"
    _store(db)
    evaluate_systems(db, _systems(db, tmp_path))
    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        suite_id = find_suite(session).id
        scorer = CheckpointScorer(load_suite(session))
        assert adopt_kept_index(session, suite_id, scorer) and scorer.index_adopted
        unkept = CheckpointScorer(load_suite(session), tokenize="intl")
        assert not adopt_kept_index(session, suite_id, unkept)
    engine.dispose()


def test_an_empty_index_is_kept_too() -> None:
    """Check-points without any reference compile to an index with no words: it is kept and read like any other."""
    empty = ReferenceIndex(4)
    empty.freeze()
    again = ReferenceIndex.from_arrays(unpack_arrays(pack_arrays(empty.to_arrays())))
    assert again.rows == 0 and again.word_id("cat") == 0
    assert again.match_words(np.array([0, 0]), np.array([2])).tolist() == []
