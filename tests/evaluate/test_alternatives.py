"""Alternative references (evaluate/alternatives.py): dictionary translations, stems, WordNet synonyms."""

from __future__ import annotations

import pytest

from checkpoints.evaluate.alternatives import Alternative, alternative_for
from checkpoints.evaluate.scoring import CheckpointScorer
from checkpoints.model import (
    Alignment,
    Category,
    CheckPoint,
    Level,
    Reference,
    Sentence,
    SentencePair,
    SuiteData,
    Token,
)

CATEGORIES = [Category("Noun", Level.WORD), Category("Plurality", Level.WORD), Category("Verb phrase", Level.PHRASE)]


def suite(target_lang: str, source: list[tuple[str, str]], reference: str, checkpoints, lexicon=None) -> SuiteData:
    """One pair; ``checkpoints`` are (category, source indices, reference tokens)."""
    pair = SentencePair(
        1,
        Sentence(tokens=[Token(form=form, lemma=lemma) for form, lemma in source], text=" ".join(f for f, _ in source)),
        [Sentence(tokens=[Token(form=word) for word in reference.split()], text=reference)],
        [Alignment.from_pairs([])],
    )
    points = [
        CheckPoint(1, category, list(indices), [Reference(0, [], tokens.split(), 1.0)], id=number)
        for number, (category, indices, tokens) in enumerate(checkpoints, start=1)
    ]
    options = {"lexicon": lexicon, "dictionary": "tsv:test"} if lexicon else {}
    return SuiteData("alt", "en", target_lang, "test", CATEGORIES, [pair], points, options=options)


@pytest.fixture()
def houses() -> SuiteData:
    # "houses" → "casas": a Noun and a Plurality check-point; "have built" → "han construido" (two source words)
    return suite(
        "es", [("houses", "house"), ("have", "have"), ("built", "build")], "casas han construido",
        [("Noun", [0], "casas"), ("Plurality", [0], "casas"), ("Verb phrase", [1, 2], "han construido")],
        lexicon={"house": ["casa", "vivienda"], "build": ["construir", "edificar"]},
    )


def scored(data: SuiteData, line: str):
    return CheckpointScorer(data, alternatives=True).score([line])


def test_dictionary_translation_in_another_inflection_matches_a_word_checkpoint(houses: SuiteData) -> None:
    result = scored(houses, "viviendas edificaron")
    # Noun: "vivienda" is a dictionary translation of "house"; Snowball Spanish stems viviendas/vivienda alike
    # Plurality: the form is its phenomenon, never an alternative; Verb phrase: two source words, none either
    assert result.alternative.tolist() == [Alternative.DICTIONARY, Alternative.NONE, Alternative.NONE]
    assert result.matched.tolist() == [1, 0, 0] and result.total.tolist() == [1, 1, 3]
    assert result.report().categories["Noun"].score == 1.0


def test_a_reference_match_needs_no_alternative(houses: SuiteData) -> None:
    result = scored(houses, "casas han construido")
    assert result.alternative.tolist() == [0, 0, 0]
    assert result.report().taxonomy.score == 1.0  # the reference's own text still scores 1


def test_the_reference_in_another_inflection_matches_by_stem() -> None:
    data = suite("es", [("houses", "house")], "casas", [("Noun", [0], "casas")])  # no stored lexicon
    assert scored(data, "la casa").alternative.tolist() == [Alternative.STEM]
    assert scored(data, "el edificio").alternative.tolist() == [Alternative.NONE]


def test_english_targets_accept_a_wordnet_synonym() -> None:
    data = suite("en", [("Auto", "Auto")], "car", [("Noun", [0], "car")])
    # "car" and "automobile" share WordNet's synset 02958343-n
    assert scored(data, "an automobile").alternative.tolist() == [Alternative.SYNONYM]
    assert scored(data, "a bicycle").alternative.tolist() == [Alternative.NONE]


def test_without_alternatives_nothing_changes(houses: SuiteData) -> None:
    plain = CheckpointScorer(houses).score(["viviendas edificaron"])
    assert plain.matched.tolist() == [0, 0, 0]
    assert not plain.alternative.any()
    plain_signature = CheckpointScorer(houses).signature().format(version=False)
    with_alternatives = CheckpointScorer(houses, alternatives=True).signature().format(version=False)
    assert plain_signature + "|alternatives:dict+stem" == with_alternatives


def test_label_names_what_the_language_has(houses: SuiteData) -> None:
    assert CheckpointScorer(houses, alternatives=True).alternatives_label == "dict+stem"
    english = suite("en", [("Auto", "Auto")], "car", [("Noun", [0], "car")])
    assert CheckpointScorer(english, alternatives=True).alternatives_label == "stem+syn"
    chinese = suite("zh", [("car", "car")], "汽车", [("Noun", [0], "汽车")], lexicon={"car": ["汽车", "车"]})
    assert CheckpointScorer(chinese, alternatives=True).alternatives_label == "dict"  # no Snowball stemmer for zh
    assert CheckpointScorer(houses).alternatives_label == "no"


def test_alternative_for_one_checkpoint(houses: SuiteData) -> None:
    noun = houses.checkpoints[0]
    assert alternative_for(houses, noun, "viviendas edificaron", "words") is Alternative.DICTIONARY
    assert alternative_for(houses, houses.checkpoints[1], "viviendas", "words") is Alternative.NONE
    assert Alternative.DICTIONARY.label == "dictionary"


def test_stored_lexicon_round_trip() -> None:
    from checkpoints.extract.lexicon import Lexicon

    lexicon = Lexicon()
    for source, target in (("house", "casa"), ("house", "vivienda"), ("dog", "perro")):
        lexicon.add(source, target)
    entries = lexicon.entries_for(["House", "cat"])
    assert entries == {"house": ["casa", "vivienda"]}  # only the corpus's words, translations sorted
    again = Lexicon.from_entries(entries, "freedict:x")
    assert again.entries == {"house": {"casa", "vivienda"}} and again.origin == "freedict:x"
