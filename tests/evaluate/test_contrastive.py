"""Challenge sets (:mod:`checkpoints.evaluate.contrastive`) on real PUD sentences.

Every expected bad sentence below was read and checked by hand: it is the reference with exactly
the check-point's phenomenon broken, written as the treebank writes it. Pools are built from one
or two real sentences, so that the replacement is known (or, where the pool has several forms of
the class, the one ``random.Random(0)`` draws was checked to be a right contrast).
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from checkpoints.evaluate.audit import replacement_pools, rewritten_text, substituted_text
from checkpoints.evaluate.contrastive import (
    Breakage,
    Contrast,
    _reordered_text,
    challenge_items,
    contrast_pools,
    contrasts,
)
from checkpoints.extract.surface import surface_tokens
from checkpoints.io.conllu import read_conllu
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

ROOT = Path(__file__).resolve().parents[2]
PUD = {
    "en": ROOT / "checkpoints/data/demo/en_pud.conllu.gz",
    "es": ROOT / "checkpoints/data/demo/es_pud.conllu.gz",
    "de": ROOT / "tests/data/build/de_pud.conllu.gz",
    "fr": ROOT / "tests/data/build/fr_pud.conllu.gz",
    "zh": ROOT / "tests/data/taxonomy/zh_pud-ud-test.conllu.gz",
}
W, P = Level.WORD, Level.PHRASE


@cache
def pud(language: str) -> tuple[Sentence, ...]:
    """One treebank, read once for the whole module (1000 sentences each)."""
    return tuple(read_conllu(PUD[language], language))


def contrast_of(
    kind: Breakage, language: str, number: int, span: list[int], own_class: str | None, level: Level,
    pool: list[int],
) -> Contrast | None:
    """The contrast of ``kind`` for a span of PUD sentence ``number``, pools from sentences ``pool``."""
    sentences = pud(language)
    pools = contrast_pools([sentences[i] for i in pool])
    found = contrasts(sentences[number], span, own_class, level, pools, random.Random(0))
    assert len({c.kind for c in found}) == len(found)  # at most one of each kind
    return next((c for c in found if c.kind is kind), None)


# (language, sentence, span, own class, level, pool sentences, detail, changed, bad) — why each is right:
SUBSTITUTE = [
    # "over the years": "over" is the only ADP of the span; Random(0) draws "to" from the ADPs of
    # the sentence (before, in, of, over, to): a different preposition, the rest untouched
    ("en", 17, [6], "ADP", W, [17], "ADP over → to", (6,),
     "That share has been rising steadily to the years — only 11 percent of the total vote was cast "
     "before Election Day in 1996, according to the Census Bureau -- and seems likely to jump again this "
     "year."),
    # "durante los años" → "por los años": another preposition of the same sentence tagged as "durante"
    # is (ADP, xpos IN, no features: "por", "según", "antes" qualify, Random(0) draws "por")
    ("es", 17, [6], "ADP", W, [17], "ADP durante → por", (6,),
     "Ese porcentaje ha ido aumentando constantemente por los años — únicamente votó el 11 por ciento del "
     "electorado antes del día de las elecciones en 1996, según la Oficina del Censo — y parece que "
     "volverá a aumentar de nuevo este año."),
    # "del electorado" (de + el): the only other ADP+DET contraction of the pool keeping "el" is "al"
    # (sentence 3, "dijo al público"): the preposition changes, the article stays, written as one word
    ("es", 17, [16, 17], "ADP", W, [17, 3], "ADP del → al", (16,),
     "Ese porcentaje ha ido aumentando constantemente durante los años — únicamente votó el 11 por ciento al "
     "electorado antes del día de las elecciones en 1996, según la Oficina del Censo — y parece que "
     "volverá a aumentar de nuevo este año."),
    # "über die Jahre" → "vor die Jahre": "vor" is the sentence's other preposition drawn
    ("de", 17, [3], "ADP", W, [17], "ADP über → vor", (3,),
     "Dieser Anteil ist vor die Jahre kontinuierlich gestiegen – vor dem Wahltag 1996 wurden laut der "
     "US-Statistikbehörde nur 11 Prozent der Gesamtstimmen abgegeben – und dürfte auch dieses Jahr wieder "
     "sprunghaft ansteigen."),
    # "au cours" (à + le): "du" (de + le) keeps the article and changes the preposition only
    ("fr", 17, [5, 6], "ADP", W, [17], "ADP au → du", (5,),
     "Cette proportion a progressé régulièrement du cours des années, d'après le bureau du recensement, "
     "seulement 11% des votes avaient été exprimés avant le jour de l'élection en 1996, et il est probable "
     "qu'elle progresse de nouveau cette année."),
    # 因為 "because" → 在, the only other ADP of the pool (sentence 2); no spaces added
    ("zh", 170, [3], "ADP", W, [170, 2], "ADP 因為 → 在", (3,),
     "維加提出，在這些東西年代久遠，很多人不知道它的歷史。"),
]

NUMBER = [
    # "this year" → "this years": the plural is the sentence's own "years" (no invented form)
    ("en", 17, [37, 38], "NOUN", W, [17], "Number year → years", (38,),
     "That share has been rising steadily over the years — only 11 percent of the total vote was cast "
     "before Election Day in 1996, according to the Census Bureau -- and seems likely to jump again this "
     "years."),
    ("es", 17, [44, 45], "NOUN", W, [17], "Number año → años", (45,),
     "Ese porcentaje ha ido aumentando constantemente durante los años — únicamente votó el 11 por ciento del "
     "electorado antes del día de las elecciones en 1996, según la Oficina del Censo — y parece que "
     "volverá a aumentar de nuevo este años."),
    ("de", 17, [29, 30], "NOUN", W, [17], "Number Jahr → Jahre", (30,),
     "Dieser Anteil ist über die Jahre kontinuierlich gestiegen – vor dem Wahltag 1996 wurden laut der "
     "US-Statistikbehörde nur 11 Prozent der Gesamtstimmen abgegeben – und dürfte auch dieses Jahre wieder "
     "sprunghaft ansteigen."),
    ("fr", 17, [47, 48], "NOUN", W, [17], "Number année → années", (48,),
     "Cette proportion a progressé régulièrement au cours des années, d'après le bureau du recensement, "
     "seulement 11% des votes avaient été exprimés avant le jour de l'élection en 1996, et il est probable "
     "qu'elle progresse de nouveau cette années."),
]

NEGATION = [
    # "isn’t" is "is" + "n’t" glued: without the negation it is "is", not "is " nor "isn"
    ("en", 18, [11, 12], "VERB", W, [18], "negation n’t deleted", (12,),
     "Today, Khanzir may be a lonely pig, but he is always alone."),
    # "can't" is one multi-word token (ca + n't): it loses its "n't" as "can", not "ca"; the second
    # "can't" is outside the span and stays
    ("en", 802, [3, 4, 5], "VERB", W, [802], "negation n't deleted", (4,),
     '"If somebody can handle a Twitter account, they can\'t handle the nuclear codes," Obama mocked.'),
    # "wo n’t" glued: the host comes back as "will"
    ("en", 305, [2, 3, 4], "VERB", W, [305], "negation n’t deleted", (3,),
     "Perhaps it will matter as I won’t be troubled long."),
    ("es", 18, [11, 12], "VERB", W, [18], "negation no deleted", (11,),
     "Hoy en día Khanzir puede parecer un madero solitario, pero está siempre solo."),
    ("de", 18, [11], "ADV", W, [18], "negation nicht deleted", (11,),
     "Heute ist Khanzir vielleicht ein einsames Schwein, aber er ist immer alleine."),
    # "nicht“," ends a quotation: the closing quote stays glued to the word before, "hingegen“,"
    ("de", 0, [17], "ADV", W, [0], "negation nicht deleted", (17,),
     "„Ein Großteil des digitalen Übergangs ist für die Vereinigten Staaten neu, ein friedlicher "
     "Machtwechsel hingegen“, schrieb Obamas Sonderberaterin Kori Schulman am Montag in einem "
     "Blogeintrag."),
    # "“no more rational": the opening quote stays glued to the word after it
    ("en", 156, [14, 15], "ADV", W, [156], "negation no deleted", (14,),
     "Caplan dismisses retrospective voting, quoting a pair of scholars who call it “more rational than "
     "killing the pharaoh when the Nile does not flood.”"),
    # "ne … pas" is one negation in two words: both go, or the sentence stays negated
    ("fr", 66, [3, 4, 5], "VERB", W, [66], "negation ne pas deleted", (3, 5),
     "Tout le monde peut s'élever au dessus de ça."),
    # French elision: "n'est pas" loses "n'" glued to "est" without gluing "il" to "est"
    ("fr", 18, [11, 12, 13], "VERB", W, [18], "negation n' pas deleted", (11, 13),
     "Aujourd'hui, Khanzir est peut-être un porc solitaire, mais il est toujours seul."),
    # 不應該就任 "should not take office" → 應該就任 "should take office"
    ("zh", 247, [15, 16, 17], "VERB", W, [247], "negation 不 deleted", (15,),
     "由親北京的立法者領導的香港政府認為，這兩個人應該就任。"),
]

MODAL = [
    # "may be a lonely pig" → "be a lonely pig": English modals are xpos MD
    ("en", 18, [3, 4], "VERB", W, [18], "modal may deleted", (3,),
     "Today, Khanzir be a lonely pig, but he isn’t always alone."),
    # Spanish "poder" is a modal only by lemma (xpos VBC)
    ("es", 18, [4, 5], "VERB", W, [18], "modal puede deleted", (4,),
     "Hoy en día Khanzir parecer un madero solitario, pero no está siempre solo."),
    # German "dürfte" (dürfen, "is likely to"): lemma only, the treebank's xpos is VBC
    ("de", 17, [27, 33], "VERB", W, [17], "modal dürfte deleted", (27,),
     "Dieser Anteil ist über die Jahre kontinuierlich gestiegen – vor dem Wahltag 1996 wurden laut der "
     "US-Statistikbehörde nur 11 Prozent der Gesamtstimmen abgegeben – und auch dieses Jahr wieder "
     "sprunghaft ansteigen."),
    # 可能 "may" (xpos MD) deleted: "Khanzir is a lonely pig"
    ("zh", 18, [3], "VERB", W, [18], "modal 可能 deleted", (3,),
     "現在，Khanzir是一隻寂寞的豬，但他並不是一直都孤獨。"),
    # 應該 "should" deleted, the negation kept: "should not take office" → "not take office"
    ("zh", 247, [15, 16, 17], "VERB", W, [247], "modal 應該 deleted", (16,),
     "由親北京的立法者領導的香港政府認為，這兩個人不就任。"),
]

REORDER = [
    # blocks "over" | "the" | "years" (head): the first moves after the last
    ("en", 17, [6, 7, 8], "ADP", P, [17], "reordered", (6, 7, 8),
     "That share has been rising steadily the years over — only 11 percent of the total vote was cast "
     "before Election Day in 1996, according to the Census Bureau -- and seems likely to jump again this "
     "year."),
    # the comma glued to "pig" stays in place, glued to the word now before it
    ("en", 18, [5, 6, 7], "NOUN", P, [18], "reordered", (5, 6, 7),
     "Today, Khanzir may be lonely pig a, but he isn’t always alone."),
    ("es", 17, [6, 7, 8], "ADP", P, [17], "reordered", (6, 7, 8),
     "Ese porcentaje ha ido aumentando constantemente los años durante — únicamente votó el 11 por ciento "
     "del electorado antes del día de las elecciones en 1996, según la Oficina del Censo — y parece que "
     "volverá a aumentar de nuevo este año."),
    ("de", 17, [3, 4, 5], "ADP", P, [17], "reordered", (3, 4, 5),
     "Dieser Anteil ist die Jahre über kontinuierlich gestiegen – vor dem Wahltag 1996 wurden laut der "
     "US-Statistikbehörde nur 11 Prozent der Gesamtstimmen abgegeben – und dürfte auch dieses Jahr wieder "
     "sprunghaft ansteigen."),
    # "au cours des années" (à le cours de les années): the contractions move whole, written once
    ("fr", 17, [5, 6, 7, 8, 9, 10], "NOUN", P, [17], "reordered", (5, 6, 7, 8, 9, 10),
     "Cette proportion a progressé régulièrement cours des années au, d'après le bureau du recensement, "
     "seulement 11% des votes avaient été exprimés avant le jour de l'élection en 1996, et il est probable "
     "qu'elle progresse de nouveau cette année."),
    # blocks 一隻 | 寂寞的 | 豬 (head): "a lonely pig" → "lonely pig a", still without spaces
    ("zh", 18, [5, 6, 7, 8, 9], "NOUN", P, [18], "reordered", (5, 6, 7, 8, 9),
     "現在，Khanzir可能是寂寞的豬一隻，但他並不是一直都孤獨。"),
]

CASES = [
    pytest.param(kind, *case, id=f"{kind}-{case[0]}-{case[1]}-{'_'.join(map(str, case[2]))}")
    for kind, table in [
        (Breakage.SUBSTITUTE, SUBSTITUTE), (Breakage.NUMBER, NUMBER), (Breakage.NEGATION, NEGATION),
        (Breakage.MODAL, MODAL), (Breakage.REORDER, REORDER),
    ]
    for case in table
]


@pytest.mark.parametrize(
    ("kind", "language", "number", "span", "own_class", "level", "pool", "detail", "changed", "bad"), CASES
)
def test_each_breakage_on_real_sentences(
    kind: Breakage, language: str, number: int, span: list[int], own_class: str, level: Level,
    pool: list[int], detail: str, changed: tuple[int, ...], bad: str,
) -> None:
    contrast = contrast_of(kind, language, number, span, own_class, level, pool)
    assert contrast is not None
    assert (contrast.detail, contrast.changed, contrast.bad) == (detail, changed, bad)


@pytest.mark.parametrize("language", sorted(PUD))
def test_an_unchanged_sentence_is_rebuilt_as_the_audit_rebuilds_it(language: str) -> None:
    """Every sentence of each treebank, rebuilt in its own order, is the audit's text (and, for PUD,
    the sentence as written): a bad sentence differs from the good one only where it was broken."""
    sentences = pud(language)
    empty = replacement_pools([])
    for sentence in sentences:
        units = surface_tokens(sentence)
        own = _reordered_text(sentence, units, list(range(len(units))), set())
        assert own == rewritten_text(sentence, lambda unit: unit.form) == sentence.text
        assert own == substituted_text(sentence, "ADP", empty, random.Random(0))


def test_the_first_substitutable_word_is_the_highest() -> None:
    """es 17 "el 11 por ciento del electorado" under PRON has two articles: "el" (depth 3, on
    "11") and the "el" of "del" (depth 4, on "electorado"). The higher one is replaced."""
    contrast = contrast_of(Breakage.SUBSTITUTE, "es", 17, [12, 13, 14, 15, 16, 17, 18], "PRON", W, [17])
    assert contrast is not None and contrast.changed == (12,) and contrast.detail.startswith("PRON el → ")


def test_modal_and_negation_of_one_check_point_are_separate_items() -> None:
    """es 66 "No todo el mundo puede superarlo": each breakage changes one thing. The verb
    "superar" sits in "superarlo" and no other VERB+PRON contraction keeps "lo", so the
    substitution falls to the next highest verb, "puede"."""
    sentence = pud("es")[66]
    pools = contrast_pools([sentence, pud("es")[18]])
    found = {c.kind: c for c in contrasts(sentence, [0, 4, 5], "VERB", W, pools, random.Random(0))}
    assert set(found) == {Breakage.SUBSTITUTE, Breakage.NEGATION, Breakage.MODAL}
    assert found[Breakage.NEGATION].bad == "todo el mundo puede superarlo."
    assert found[Breakage.MODAL].bad == "No todo el mundo superarlo."
    assert found[Breakage.SUBSTITUTE].changed == (4,)
    assert found[Breakage.SUBSTITUTE].bad == "No todo el mundo parecer superarlo."  # a verb for a verb


@pytest.mark.parametrize(
    ("kind", "language", "number", "span", "own_class", "level", "pool"),
    [
        # no noun in the span ("over"): no NUMBER
        pytest.param(Breakage.NUMBER, "en", 17, [6], "NOUN", W, [17], id="number-without-a-noun"),
        # "this year" with no plural of "year" among the pool's sentences: no invented "years"
        pytest.param(Breakage.NUMBER, "en", 17, [37, 38], "NOUN", W, [18], id="number-without-the-other-form"),
        # Chinese nouns carry no Number
        pytest.param(Breakage.NUMBER, "zh", 18, [9], "NOUN", W, [18], id="number-in-chinese"),
        # a word-level Preposition check-point is not a phrase to reorder
        pytest.param(Breakage.REORDER, "en", 17, [6, 7, 8], "ADP", W, [17], id="reorder-of-a-word-category"),
        # a gapped span ("dürfte … ansteigen") is no phrase either
        pytest.param(Breakage.REORDER, "de", 17, [27, 33], "VERB", P, [17], id="reorder-of-a-gapped-span"),
        # French "peut" is a main verb in UD (root, with an xcomp), not a modal auxiliary
        pytest.param(Breakage.MODAL, "fr", 66, [3, 4, 5, 7], "VERB", W, [66], id="modal-in-french"),
        # deleting "ca" of "can't" would leave "n't" alone
        pytest.param(Breakage.MODAL, "en", 802, [3, 4, 5], "VERB", W, [802], id="modal-inside-cant"),
        # 不是 (AUX, negation and copula in one word) is not deleted as a negation
        pytest.param(Breakage.NEGATION, "zh", 18, [13, 14, 15, 16, 17], "VERB", W, [18], id="negation-fused"),
        # a Preposition check-point has no negation to break
        pytest.param(Breakage.NEGATION, "en", 18, [11, 12], "ADP", W, [18], id="negation-of-a-preposition"),
        # a category without an own class (sentence references) has nothing to substitute
        pytest.param(Breakage.SUBSTITUTE, "en", 18, [5, 6, 7], None, P, [18], id="substitute-without-a-class"),
        # no word of the own class in the span ("lonely" under NOUN)
        pytest.param(Breakage.SUBSTITUTE, "en", 18, [6], "NOUN", W, [18], id="substitute-without-a-word"),
        # "1996" with a pool (sentence 18) that has no number: nothing to put in its place
        pytest.param(Breakage.SUBSTITUTE, "en", 17, [23], "NUM", W, [18], id="substitute-without-candidates"),
    ],
)
def test_nothing_where_a_breakage_does_not_apply(
    kind: Breakage, language: str, number: int, span: list[int], own_class: str, level: Level, pool: list[int],
) -> None:
    assert contrast_of(kind, language, number, span, own_class, level, pool) is None


def test_the_positive_cases_of_the_empty_ones_do_apply() -> None:
    """The controls of the empty cases above: the same spans do break where the rule allows."""
    assert contrast_of(Breakage.NUMBER, "en", 17, [37, 38], "NOUN", W, [17]) is not None
    assert contrast_of(Breakage.REORDER, "en", 17, [6, 7, 8], "ADP", P, [17]) is not None
    assert contrast_of(Breakage.SUBSTITUTE, "en", 18, [5, 6, 7], "NOUN", P, [18]) is not None
    assert contrast_of(Breakage.NEGATION, "en", 18, [11, 12], "VERB", W, [18]) is not None


def pivot(number: int) -> Sentence:
    """The demo's pivot translation of PUD sentence ``number``, as an unparsed second reference."""
    text = (ROOT / "checkpoints/data/demo/pivot.es.txt").read_text(encoding="utf-8").splitlines()[number]
    return Sentence([Token(word) for word in text.split()], text=text)


def small_suite() -> SuiteData:
    """Three real en→es PUD pairs: 17 with the Spanish reference second (after the pivot
    translation), 18 with it first (and the pivot second), 66 with the Spanish reference alone."""
    english, spanish = pud("en"), pud("es")
    pairs = [
        SentencePair(17, english[17], [pivot(17), spanish[17]], [Alignment.from_pairs([])] * 2),
        SentencePair(18, english[18], [spanish[18], pivot(18)], [Alignment.from_pairs([])] * 2),
        SentencePair(66, english[66], [spanish[66]], [Alignment.from_pairs([])]),
    ]

    def point(pair: int, category: str, reference: int, indices: list[int], number: int | None) -> CheckPoint:
        return CheckPoint(pair, category, [0], [Reference(reference, indices, [])], id=number)

    checkpoints = [
        point(17, "Preposition", 1, [6], 101),  # durante
        point(17, "Noun", 1, [45], 102),  # año
        point(18, "Verb", 0, [4, 5], 103),  # puede parecer
        CheckPoint(18, "Noun", [1], [], id=104),  # no reference: no item
        point(18, "Noun phrase", 0, [6, 7, 8], None),  # un madero solitario
        point(66, "Verb", 0, [0, 4, 5], 106),  # No ... puede superarlo
    ]
    categories = [Category("Preposition", W), Category("Noun", W), Category("Verb", W),
                  Category("Noun phrase", P)]
    return SuiteData("pud-small", "en", "es", "test", categories, pairs, checkpoints)


def test_challenge_items_of_a_small_suite() -> None:
    suite = small_suite()
    items = challenge_items(suite)
    assert items == challenge_items(suite)  # deterministic
    assert [(item.checkpoint, item.kind) for item in items] == [
        (101, Breakage.SUBSTITUTE),
        (102, Breakage.SUBSTITUTE), (102, Breakage.NUMBER),
        (103, Breakage.SUBSTITUTE), (103, Breakage.MODAL),
        # "un madero solitario": one word per class, the determiner counted first; the check-point
        # has no id and is named by its position
        (4, Breakage.SUBSTITUTE), (4, Breakage.REORDER),
        (106, Breakage.SUBSTITUTE), (106, Breakage.NEGATION), (106, Breakage.MODAL),
    ]
    english, spanish = pud("en"), pud("es")
    for item in items:
        assert item.good == spanish[item.pair_id].text and item.bad != item.good
        assert item.source == english[item.pair_id].text
        if item.pair_id == 66:
            assert item.reference_is_good and item.reference == item.good
        else:
            assert not item.reference_is_good and item.reference == pivot(item.pair_id).text
    by_kind = {(item.checkpoint, item.kind): item for item in items}
    assert by_kind[102, Breakage.NUMBER].detail == "Number año → años"
    assert by_kind[103, Breakage.MODAL].bad == "Hoy en día Khanzir parecer un madero solitario, pero no está siempre solo."
    assert by_kind[4, Breakage.REORDER].bad == (
        "Hoy en día Khanzir puede parecer madero solitario un, pero no está siempre solo."
    )
    assert by_kind[106, Breakage.NEGATION].category == "Verb" and by_kind[106, Breakage.NEGATION].pair_id == 66


def test_challenge_items_draw_per_check_point() -> None:
    """A check-point's draws depend on the seed and its position only: dropping the contrasts of
    the check-points before it (here, by emptying their references) leaves its items as they were."""
    suite = small_suite()
    last = [item for item in challenge_items(suite, seed=7) if item.checkpoint == 106]
    for checkpoint in suite.checkpoints[:-1]:
        checkpoint.references = []
    assert challenge_items(suite, seed=7) == last
    # and the seed does matter: "puede" becomes "volverá" under 7, "aumentando" under 8
    assert [item.detail for item in last if item.kind is Breakage.SUBSTITUTE] == ["VERB puede → volverá"]
    assert challenge_items(suite, seed=7) != challenge_items(suite, seed=8)


def test_a_reordering_keeps_every_token_so_bag_of_words_metrics_cannot_see_it() -> None:
    # "el tratado franco-monegasco": "franco", "-" and "monegasco" are written together and belong to one
    # block (the adjective's subtree), so they move as one token; only the article changes place
    contrast = contrast_of(Breakage.REORDER, "es", 390, [5, 6, 7, 8, 9], "NOUN", P, [390])
    assert contrast is not None
    assert contrast.bad == ("En julio de 1918, tratado franco-monegasco el fue firmado, ofreciendo limitada protección "
                            "francesa sobre Mónaco.")
    assert sorted(contrast.bad.split()) == sorted(pud("es")[390].text.split())
    # "«100% Cospedal»": the quotes are written against the phrase's first and last words, so any
    # reordering would change two tokens ("«Cospedal", "100%»"): no REORDER item
    assert contrast_of(Breakage.REORDER, "es", 858, [8, 9, 10], "NOUN", P, [858]) is None
    # a phrase followed by a comma still reorders: tokenizers split the comma from any word
    followed = contrast_of(Breakage.REORDER, "es", 390, [13, 14, 15, 16, 17, 18], "NOUN", P, [390])
    from checkpoints.tokenizers import get_tokenizer

    words = get_tokenizer("13a")
    assert followed is not None and followed.bad.endswith("sobre Mónaco ofreciendo.")
    assert sorted(words(followed.bad)) == sorted(words(pud("es")[390].text))


def test_a_replacement_keeps_the_words_morphology_when_the_references_have_one() -> None:
    """German "der Gefahr"-like cases: a singular feminine noun is replaced by another singular noun of
    the same tag and features when the pool has one, so that the item breaks the word's meaning, not
    its agreement; a noun's other number keeps its case ("Gesetzes" is genitive singular)."""
    sentences = pud("de")
    pools = contrast_pools(sentences)
    rng = random.Random(0)
    for number in range(40):
        sentence = sentences[number]
        for index, token in enumerate(sentence.tokens):
            if token.upos != "NOUN" or not token.feats:
                continue
            found = contrasts(sentence, [index], "NOUN", W, pools, rng)
            substitute = next(c for c in found if c.kind is Breakage.SUBSTITUTE)
            replacement = substitute.detail.split(" → ")[1]
            assert replacement in pools.alike[(token.upos, token.xpos, token.feats_string())]
    # "für die Vereinigten Staaten" (accusative masculine plural): the accusative singular "Staat" the
    # references use, never the genitive "Staates" that the lemma's singulars also hold
    found = {c.kind: c for c in contrasts(sentences[0], [10], "NOUN", W, pools, random.Random(0))}
    assert found[Breakage.NUMBER].detail == "Number Staaten → Staat"
    assert "für die Vereinigten Staat neu" in found[Breakage.NUMBER].bad
    # ... and "Menschen" replaces it: accusative masculine plural too
    assert found[Breakage.SUBSTITUTE].detail == "NOUN Staaten → Menschen"
    # "des Gesetzes" (genitive singular): no genitive plural in the references, so any plural they use
    found = {c.kind: c for c in contrasts(sentences[90], [8], "NOUN", W, pools, random.Random(0))}
    assert found[Breakage.NUMBER].detail == "Number Gesetzes → Gesetzen"
    assert found[Breakage.SUBSTITUTE].detail == "NOUN Gesetzes → Risikos"  # genitive singular neuter


def test_a_negation_is_deleted_whole_even_where_the_span_holds_half_of_it() -> None:
    # fr PUD 33: the check-point "n'influençait" (words 20-21) holds "n'" but not "pas" (word 23); both
    # negate "influençait" (head 22 in CoNLL-U numbering), so both go: "influençait propablement les
    # voyageurs" is affirmative, where "influençait propablement pas" would still be negated
    sentence = pud("fr")[33]
    found = {c.kind: c for c in contrasts(sentence, [20, 21], "VERB", W, contrast_pools([sentence]), random.Random(0))}
    negation = found[Breakage.NEGATION]
    assert negation.detail == "negation n' pas deleted" and negation.changed == (20, 23)
    assert "peu fiable et influençait propablement les voyageurs lors" in negation.bad
