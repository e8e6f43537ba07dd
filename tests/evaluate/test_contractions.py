"""Contractions ("im" = "in dem", "du" = "de le") are split on both sides of matching, so that a
preposition's check-point measures the preposition and not the article fused with it."""

from __future__ import annotations

import pytest
import sacrebleu

from checkpoints.contractions import (
    CONTRACTIONS,
    contraction_words,
    split_contractions,
    splits_contractions,
)
from checkpoints.evaluate.explain import explain
from checkpoints.evaluate.scoring import CheckpointScorer
from checkpoints.model import Level

REFERENCE = "Wir gehen ins Kino und treffen uns am Bahnhof ."


def test_contraction_words_in_the_case_written() -> None:
    assert contraction_words("im", "de") == ("in", "dem")
    assert contraction_words("Im", "de") == ("In", "dem")
    assert contraction_words("ZUR", "de") == ("ZU", "DER")
    assert contraction_words("Au", "fr") == ("À", "le")
    assert contraction_words("del", "es") == ("de", "el")
    assert contraction_words("della", "it") == ("di", "la")
    assert contraction_words("pelo", "pt") == ("por", "o")


@pytest.mark.parametrize(
    ("word", "language"),
    [("im", "en"), ("im", None), ("Haus", "de"), ("dei", "it"), ("dai", "it"), ("nos", "pt"), ("des", "fr"), ("del", "fr")],
)
def test_words_that_are_not_contractions_of_the_language(word: str, language: str | None) -> None:
    """French "des" is as often the indefinite article, Italian "dei"/"dai" also "gods"/"you give", Portuguese
    "nos" also "us": left as written."""
    assert contraction_words(word, language) is None


def test_split_contractions_keeps_the_other_tokens_in_order() -> None:
    assert split_contractions(["Im", "Haus", "zum", "Glück", "."], "de") == ["In", "dem", "Haus", "zu", "dem", "Glück", "."]
    assert split_contractions(["im", "Haus"], "en") == ["im", "Haus"]
    assert not splits_contractions("en") and not splits_contractions("zh") and splits_contractions("fr")


def test_every_table_maps_lower_case_forms_to_two_words() -> None:
    for table in CONTRACTIONS.values():
        for form, words in table.items():
            assert form == form.casefold() and len(words) == 2 and "'" not in form


@pytest.fixture
def german(make_suite):  # type: ignore[no-untyped-def]
    """A preposition written inside "ins" (in + das) and "am" (an + dem), the article alone, and
    a phrase whose article is a gap."""
    return make_suite(
        [[REFERENCE]],
        [
            (1, "Preposition", [(0, "in", 1.0)]),
            (1, "Preposition", [(0, "an", 1.0)]),
            (1, "Article", [(0, "das", 1.0)]),
            (1, "Preposition phrase", [(0, "in * Kino", 1.0)]),
        ],
        [("Preposition", Level.WORD), ("Article", Level.WORD), ("Preposition phrase", Level.PHRASE)],
        target_lang="de",
    )


def test_the_reference_text_matches_every_split_reference(german) -> None:  # type: ignore[no-untyped-def]
    scores = CheckpointScorer(german).score([REFERENCE])
    assert scores.matched.tolist() == scores.total.tolist() == [1, 1, 1, 3]  # "in", "Kino" and the gapped "in * Kino"


def test_a_wrong_article_in_a_contraction_misses_only_the_article(german) -> None:  # type: ignore[no-untyped-def]
    """"im Kino" for "ins Kino": the preposition is right (matched), the article is not."""
    scores = CheckpointScorer(german).score(["Wir gehen im Kino und treffen uns am Bahnhof ."])
    assert scores.matched.tolist() == [1, 1, 0, 3]
    assert scores.total.tolist() == [1, 1, 1, 3]  # "in", "Kino" and the gapped "in * Kino"


def test_a_wrong_preposition_misses_the_preposition(german) -> None:  # type: ignore[no-untyped-def]
    scores = CheckpointScorer(german).score(["Wir gehen aufs Kino und treffen uns beim Bahnhof ."])
    assert scores.matched.tolist() == [0, 0, 1, 1]  # "Kino" only


def test_the_drill_down_agrees_with_the_scorer(german) -> None:  # type: ignore[no-untyped-def]
    translation = "Wir gehen im Kino und treffen uns am Bahnhof ."
    scored = CheckpointScorer(german).score([translation])
    for position, checkpoint in enumerate(german.checkpoints):
        shown = explain(checkpoint, translation, language="de")
        assert shown.references[0].matched == scored.matched[position]
    assert explain(german.checkpoints[0], translation, language="de").translation_tokens[2:4] == ["in", "dem"]


def test_bleu_is_sacrebleus_on_the_unsplit_text(german) -> None:  # type: ignore[no-untyped-def]
    """Splitting is for check-points only: BLEU stays sacreBLEU's on the texts as written."""
    translation = "Wir gehen im Kino und treffen uns beim Bahnhof ."
    scorer = CheckpointScorer(german, tokenize="13a")
    scorer.score([translation])  # fills the cache of tokenized outputs that BLEU could share
    expected = sacrebleu.corpus_bleu([translation], [[REFERENCE]], tokenize="13a").score
    assert scorer.bleu([translation]) == pytest.approx(expected, abs=1e-9)


def test_a_language_without_a_table_matches_as_written(make_suite) -> None:  # type: ignore[no-untyped-def]
    suite = make_suite([[REFERENCE]], [(1, "Preposition", [(0, "in", 1.0)])], [("Preposition", Level.WORD)],
                       target_lang="en")
    assert CheckpointScorer(suite).score([REFERENCE]).matched.tolist() == [0]


def test_the_drill_down_writes_a_whole_contraction_as_in_the_text(make_suite) -> None:  # type: ignore[no-untyped-def]
    """The report marks matched n-grams in the translation as written: "am Bahnhof" is shown
    so, not as the "an dem Bahnhof" it is matched as; a part of a contraction stays its word."""
    suite = make_suite([[REFERENCE]], [(1, "Noun phrase", [(0, "am Bahnhof", 1.0)])], [("Noun phrase", Level.PHRASE)],
                       target_lang="de")
    shown = explain(suite.checkpoints[0], REFERENCE, language="de").references[0]
    assert shown.matched_ngrams == ["an", "am", "am Bahnhof", "dem", "dem Bahnhof", "Bahnhof"]
    assert (shown.matched, shown.total) == (6, 6)
