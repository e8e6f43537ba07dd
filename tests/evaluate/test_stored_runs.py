"""Evaluating a stored suite: column-wise check-points, lazily parsed sentences, packed results.

A suite loaded from the store is scored from its check-point columns without
building check-point objects; the scores must be those of the same suite in
memory. A run's per check-point results are one packed row per system, and
``compare`` rebuilds exactly the scores ``evaluate`` computed from them.
"""

from __future__ import annotations

import gc
import random
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import func, select

from checkpoints.db.repo import StoredSuite, find_suite, load_suite, store_suite
from checkpoints.db.runs import latest_results
from checkpoints.db.session import open_engine, transaction
from checkpoints.db.stored_sentence import StoredSentence
from checkpoints.db.tables import CheckpointResultRow
from checkpoints.evaluate.columns import CheckpointColumns, checkpoint_count
from checkpoints.evaluate.scoring import CheckpointScorer, SystemScores
from checkpoints.gcpause import paused_gc
from checkpoints.model import (
    Category,
    CheckPoint,
    Level,
    Reference,
    Sentence,
    SentencePair,
    SuiteData,
    Token,
    surface_with_gaps,
)
from checkpoints.service.evaluate import evaluate_systems, stored_evaluation

WORDS = ["the", "The", "cat", "sat", "on", "mat", ",", ".", "don't", "5*3", "*", "Straße", "dog", "a", "x\ty", "1990."]


def random_suite(seed: int, pairs: int = 40) -> SuiteData:
    """Pairs with one or two references, check-points in four categories with references cut from
    them (some with gaps, some empty), a check-point without references."""
    rng = random.Random(seed)
    categories = [Category("Noun", Level.WORD), Category("Verb", Level.WORD), Category("NP", Level.PHRASE),
                  Category("Clause", Level.SENTENCE)]
    suite_pairs, checkpoints = [], []
    for pair_id in range(1, pairs + 1):
        references = [[rng.choice(WORDS) for _ in range(rng.randint(3, 12))] for _ in range(rng.randint(1, 2))]
        suite_pairs.append(SentencePair(pair_id, in_language(f"source {pair_id}", "xx"),
                                        [in_language(" ".join(r), "en") for r in references], []))
        for _ in range(rng.randint(0, 6)):
            refs = []
            for index, words in enumerate(references):
                start = rng.randrange(len(words))
                indices = list(range(start, min(len(words), start + rng.randint(1, 6))))
                if len(indices) >= 3 and rng.random() < 0.4:
                    del indices[1]
                refs.append(Reference(index, indices, surface_with_gaps(words, indices), rng.choice([0.5, 1.0, 1 / 3])))
            checkpoints.append(CheckPoint(pair_id, rng.choice(categories).name, [0], refs, id=len(checkpoints) + 1))
    checkpoints.append(CheckPoint(1, "Noun", [0], [], id=len(checkpoints) + 1))
    for pair in suite_pairs:
        pair.alignments = [_no_links() for _ in pair.references]
    return SuiteData("random", "xx", "en", "test", categories, suite_pairs, checkpoints)


def in_language(text: str, language: str) -> Sentence:
    """A sentence as loaded from the store: with its suite's language."""
    return Sentence(tokens=[Token(form=word) for word in text.split()], text=text, language=language)


def _no_links():  # type: ignore[no-untyped-def]
    from checkpoints.model import Alignment

    return Alignment.from_pairs([])


def outputs(suite: SuiteData, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(w for w in pair.references[0].text.split() if rng.random() > 0.3) + rng.choice(["", " .", "  "])
            for pair in suite.pairs]


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, SuiteData]:
    data = random_suite(3)
    db = tmp_path / "suite.db"
    engine = open_engine(db)
    with transaction(engine) as session:
        store_suite(session, data)
    engine.dispose()
    return db, data


def load(db: Path) -> SuiteData:
    engine = open_engine(db, create=False)
    try:
        with transaction(engine) as session:
            return load_suite(session)
    finally:
        engine.dispose()


def same_scores(a: SystemScores, b: SystemScores) -> None:
    for field in ("chosen", "dm", "matched", "total", "translation_lengths"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


@pytest.mark.parametrize(("tokenize", "categories"), [("words", None), ("13a", ["NP", "Noun"]), ("intl", None)])
def test_a_stored_suite_scores_from_columns_as_in_memory(stored: tuple[Path, SuiteData], tokenize: str,
                                                         categories: list[str] | None) -> None:
    db, data = stored
    loaded = load(db)
    assert isinstance(loaded, StoredSuite) and isinstance(loaded.checkpoint_columns(), CheckpointColumns)
    system = outputs(data, 1)
    from_columns = CheckpointScorer(loaded, tokenize=tokenize, categories=categories)
    from_objects = CheckpointScorer(data, tokenize=tokenize, categories=categories)
    same_scores(from_columns.score(system), from_objects.score(system))
    assert from_columns.bleu(system) == from_objects.bleu(system)
    assert from_columns.checkpoint_numbers.tolist() == [cp.id for cp in from_objects.checkpoints]
    assert loaded.checkpoint_columns() is not None  # scoring built no check-point objects
    assert from_columns.checkpoints == from_objects.checkpoints  # built now, on request
    assert loaded.checkpoint_columns() is None


@pytest.mark.parametrize(("tokenize", "match", "order"), [("words", "normal", 4), ("13a", "lower", None), ("intl", "stem", 2)])
def test_scores_agree_with_the_definition_check_point_by_check_point(
    stored: tuple[Path, SuiteData], tokenize: str, match: str, order: int | None
) -> None:
    """The compiled index against :func:`~checkpoints.evaluate.explain.explain`, the executable
    definition (reference by reference, n-gram by n-gram)."""
    db, data = stored
    scorer = CheckpointScorer(load(db), tokenize=tokenize, match=match, max_order=order)
    system = outputs(data, 4)
    scores = scorer.score(system)
    for number, checkpoint in enumerate(scorer.checkpoints):
        position = next(i for i, pair in enumerate(data.pairs) if pair.id == checkpoint.pair_id)
        expected = scorer.explain(checkpoint, system[position])
        best = expected.best
        assert int(scores.chosen[number]) == expected.chosen
        assert (int(scores.matched[number]), int(scores.total[number])) == ((best.matched, best.total) if best else (0, 0))


def test_check_points_read_as_objects_are_what_is_scored(stored: tuple[Path, SuiteData]) -> None:
    """Once read, the objects may be changed: the columns are dropped and the objects scored."""
    db, data = stored
    loaded = load(db)
    assert checkpoint_count(loaded) == len(data.checkpoints)
    loaded.checkpoints[0].references[0].dm = 0.125
    data.checkpoints[0].references[0].dm = 0.125
    system = outputs(data, 2)
    same_scores(CheckpointScorer(loaded).score(system), CheckpointScorer(data).score(system))


def test_stored_sentences_are_parsed_on_first_use(stored: tuple[Path, SuiteData]) -> None:
    db, data = stored
    loaded = load(db)
    reference = loaded.pairs[0].references[0]
    assert isinstance(reference, StoredSentence)
    assert reference.text == data.pairs[0].references[0].text  # without parsing
    assert reference == data.pairs[0].references[0] and data.pairs[0].references[0] == reference
    assert reference.forms == data.pairs[0].references[0].forms
    assert loaded == data


def test_a_run_is_one_packed_row_per_system_and_compare_rebuilds_its_scores(stored: tuple[Path, SuiteData],
                                                                             tmp_path: Path) -> None:
    db, data = stored
    files = []
    for seed in (1, 2):
        files.append((f"s{seed}", tmp_path / f"s{seed}.txt"))
        files[-1][1].write_text("".join(line + "\n" for line in outputs(data, seed)), encoding="utf-8")
    fresh = evaluate_systems(db, files, tokenize="13a", categories=["NP", "Noun", "Verb"])
    rebuilt = stored_evaluation(db, ["s1", "s2"])
    for name in ("s1", "s2"):
        same_scores(rebuilt.scores[name], fresh.scores[name])
        assert rebuilt.reports[name] == fresh.reports[name]
        assert rebuilt.bleu[name] == fresh.bleu[name]
    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        assert session.scalar(select(func.count()).select_from(CheckpointResultRow)) == 2
        results = latest_results(session, find_suite(session, "random").id, "s1")
    engine.dispose()
    numbers = fresh.scorer.checkpoint_numbers.tolist()
    first = numbers[0]
    result = fresh.scores["s1"]
    assert len(results.checkpoints) == len(numbers) and list(results.checkpoints) == sorted(numbers)
    assert results.checkpoints[first] == (int(result.chosen[0]), float(result.dm[0]), int(result.matched[0]), int(result.total[0]))
    left_out = next(cp.id for cp in data.checkpoints if cp.category == "Clause")
    assert left_out not in results.checkpoints and results.checkpoints.get(left_out) is None
    with pytest.raises(KeyError):
        results.checkpoints[left_out]


def test_the_bleu_row_is_the_same_from_a_child_process(stored: tuple[Path, SuiteData], tmp_path: Path,
                                                       forked: bool) -> None:
    """``evaluate`` computes the BLEU row in a forked child beside the matching where it can;
    the row is then exactly what the scorer computes in this process."""
    db, data = stored
    files = []
    for seed in (1, 2, 3):
        files.append((f"s{seed}", tmp_path / f"s{seed}.txt"))
        files[-1][1].write_text("".join(line + "\n" for line in outputs(data, seed)), encoding="utf-8")
    evaluation = evaluate_systems(db, files, tokenize="13a")
    scorer = CheckpointScorer(data, tokenize="13a")
    assert evaluation.bleu == {name: scorer.bleu(outputs(data, seed)) for name, seed in (("s1", 1), ("s2", 2), ("s3", 3))}
    assert len(set(evaluation.bleu.values())) == 3


def test_paused_gc_restores_the_collector_and_freezes_nothing() -> None:
    frozen = gc.get_freeze_count()
    was_enabled = gc.isenabled()
    try:
        gc.enable()
        with paused_gc():
            assert not gc.isenabled()
            garbage = [[] for _ in range(1000)]
        assert gc.isenabled() and gc.get_freeze_count() == frozen
        gc.disable()
        with paused_gc():
            pass
        assert not gc.isenabled()
        with pytest.raises(ValueError), paused_gc():
            raise ValueError
        assert not gc.isenabled()
    finally:
        if was_enabled:
            gc.enable()
    del garbage


def test_paused_gc_hands_what_it_made_to_the_oldest_generation() -> None:
    """Left young, the objects a bulk job keeps would be walked by the next collections on their way
    to the oldest generation; they go there at once, and stay collectable."""
    was_enabled = gc.isenabled()
    try:
        gc.enable()
        gc.collect()
        with paused_gc():
            kept = [[index] for index in range(50_000)]
            cycle: list[object] = []
            cycle.append(cycle)
        assert gc.get_count()[0] < 1000 and gc.get_freeze_count() == 0
        assert any(item is kept for item in gc.get_objects(generation=2))
        del cycle
        assert gc.collect() >= 1  # a full collection still finds the cycle made under the pause
        gc.freeze()  # a process that keeps objects frozen itself: its frozen objects stay frozen
        frozen = gc.get_freeze_count()
        with paused_gc():
            more = [[index] for index in range(10_000)]
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
        if not was_enabled:
            gc.disable()
    del kept, more


def test_a_stored_sentence_pickles_as_what_it_holds() -> None:
    """A suite read from the store goes to Ray's workers pickled: unparsed sentences stay
    unparsed on the way, parsed ones arrive as plain sentences, equal either way."""
    import pickle

    from checkpoints.db.stored_sentence import StoredSentence, stored_sentence
    from checkpoints.model import Sentence

    conllu = "1\tHola\thola\tINTJ\t_\t_\t0\troot\t_\t_\n2\tmundo\tmundo\tNOUN\t_\t_\t1\tvocative\t_\t_\n"
    unparsed = stored_sentence(7, "Hola mundo", "Hola mundo", conllu, "es")
    sent = pickle.loads(pickle.dumps(unparsed))
    assert type(sent) is StoredSentence and sent._stored == (7, "Hola mundo", conllu)
    assert [token.lemma for token in sent.tokens] == ["hola", "mundo"]
    parsed = pickle.loads(pickle.dumps(sent))
    assert type(parsed) is Sentence
    assert parsed == sent == unparsed
