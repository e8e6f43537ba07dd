"""Alternative references: a correct translation that is not the reference's word is not a miss.

A word-level check-point has one reference per reference translation, cut
from it by the alignment: "house" → "casa". A system that writes "vivienda"
or "casas" is scored as missing it, though a human may see nothing wrong —
on WMT 2021 TED en→de most missed check-points lie outside any error a
rater marked (``benchmarks/ted_study.py``). With alternatives, a word-level
check-point that its references do not fully match counts as matched when
the output holds

1. a **dictionary** translation of its source word (the lexicon the suite
   was built with, stored with it: ``options["lexicon"]``), compared by
   Snowball stem where the target language has a stemmer, else lower-cased;
2. its reference's words in another inflection (the same **stem**), where
   the target language has a Snowball stemmer;
3. for English targets, a **WordNet synonym** of each reference word
   (METEOR's synonym test: the two words share a synset).

Only check-points of one source word qualify — a multi-word span ("has
been working") is matched by its references alone, since a dictionary
translates words, not tenses. Categories whose phenomenon *is* the word's
form (:data:`FORM_CATEGORIES`: plural, possessive, degree) never take
alternatives: "casas" for "casa" is exactly the error Plurality is there to
catch. A check-point matched through an alternative scores as its chosen
reference fully matched (matched = total), so a category score stays a ratio
of formula (3), and the reference's own text still scores 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import IntEnum

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.extract.dictionary import Lexicon
from checkpoints.extract.langcodes import language
from checkpoints.model import GAP, CheckPoint, Level, SentencePair, SuiteData

FORM_CATEGORIES = frozenset({"Plurality", "Possessive", "Comparative & superlative degree"})
"""Word categories that test a word's form: an inflected or synonymous word is their error."""
MAX_TRANSLATION_WORDS = 3
"""Longer dictionary entries explain rather than translate ("to be opposed to something")."""


class Alternative(IntEnum):
    """How a check-point was matched: by its references, or by which alternative."""

    NONE = 0
    DICTIONARY = 1
    STEM = 2
    SYNONYM = 3

    @property
    def label(self) -> str:
        return self.name.lower()


class Alternatives:
    """The alternatives of a suite's eligible check-points, compiled once and matched per output."""

    def __init__(
        self,
        suite: SuiteData,
        checkpoints: Sequence[CheckPoint],
        tokenize: Callable[[str], list[str]],
        pairs: Mapping[int, SentencePair] | None = None,
    ) -> None:
        """``pairs`` (id → pair) may give just the pairs of ``checkpoints``; default: the suite's."""
        self.language = language(suite.target_lang)
        self.stem = _stemmer(suite.target_lang)
        self.synonyms = _synonyms() if self.language == "en" else None
        self.lexicon = stored_lexicon(suite)
        levels = {category.name: category.level for category in suite.categories}
        if pairs is None:
            pairs = {pair.id: pair for pair in suite.pairs}
        self.eligible = np.zeros(len(checkpoints), dtype=bool)
        self.translations: dict[int, list[tuple[str, ...]]] = {}
        self.references: dict[int, list[list[str]]] = {}
        for number, checkpoint in enumerate(checkpoints):
            if (
                levels.get(checkpoint.category) is not Level.WORD
                or checkpoint.category in FORM_CATEGORIES
                or len(checkpoint.source_indices) != 1
                or not checkpoint.references
            ):
                continue
            self.eligible[number] = True
            references = [
                [word.lower() for token in reference.tokens if token != GAP for word in tokenize(token)]
                for reference in checkpoint.references
            ]
            self.references[number] = [words for words in references if words]
            if self.lexicon is not None:
                token = pairs[checkpoint.pair_id].source.tokens[checkpoint.source_indices[0]]
                self.translations[number] = [
                    tuple(self._key(word) for word in tokenize(translation))
                    for translation in sorted(self.lexicon.translations(token))
                    if len(translation.split()) <= MAX_TRANSLATION_WORDS
                ]

    @property
    def label(self) -> str:
        """Which alternatives this target language has, for signatures: ``dict+stem+syn``."""
        parts = (["dict"] if self.lexicon is not None else []) + (["stem"] if self.stem else [])
        return "+".join(parts + (["syn"] if self.synonyms is not None else [])) or "none"

    def _key(self, word: str) -> str:
        lowered = word.lower()
        return self.stem(lowered) if self.stem else lowered

    def match(self, missed: np.ndarray, pair_of: np.ndarray, candidate_words: Sequence[Sequence[str]]) -> np.ndarray:
        """The :class:`Alternative` that matches each eligible check-point in ``missed`` (NONE elsewhere).

        ``pair_of`` gives each check-point's row in ``candidate_words``, the
        output's words per evaluated pair (the match tokenizer's).
        """
        found = np.zeros(len(missed), dtype=np.int8)
        keyed: dict[int, tuple[list[str], set[str], list[str]]] = {}
        for number in np.flatnonzero(missed & self.eligible).tolist():
            row = int(pair_of[number])
            if row not in keyed:
                lowered = [word.lower() for word in candidate_words[row]]
                keys = [self._key(word) for word in lowered] if self.stem else lowered
                keyed[row] = (keys, set(keys), lowered)
            keys, key_set, lowered = keyed[row]
            found[number] = self._kind(number, keys, key_set, lowered)
        return found

    def _kind(self, number: int, keys: list[str], key_set: set[str], lowered: list[str]) -> Alternative:
        for translation in self.translations.get(number, ()):
            if translation and _contains(keys, translation):
                return Alternative.DICTIONARY
        references = self.references.get(number, ())
        if self.stem and any(all(self._key(word) in key_set for word in words) for words in references):
            return Alternative.STEM
        if self.synonyms is not None:
            lookup = self.synonyms.lookup
            for words in references:
                if all(self._key(word) in key_set or any(lookup(word) & lookup(other) for other in lowered)
                       for word in words):
                    return Alternative.SYNONYM
        return Alternative.NONE


def alternative_for(suite: SuiteData, checkpoint: CheckPoint, translation: str, tokenize: str) -> Alternative:
    """The alternative that matches one check-point in one translation (``show``'s drill-down)
    when its references alone leave it missed; :attr:`Alternative.NONE` otherwise."""
    from checkpoints.contractions import splitting_tokenizer
    from checkpoints.tokenizers import get_tokenizer

    words = splitting_tokenizer(get_tokenizer(tokenize), suite.target_lang)
    pair = next(pair for pair in suite.pairs if pair.id == checkpoint.pair_id)
    alternatives = Alternatives(suite, [checkpoint], words, {pair.id: pair})
    found = alternatives.match(np.ones(1, dtype=bool), np.zeros(1, dtype=np.int64), [words(translation)])
    return Alternative(int(found[0]))


def stored_lexicon(suite: SuiteData) -> Lexicon | None:
    """The lexicon the suite was built with, as stored in its options (None for an imported suite).

    Read once per stored entries object: a report's drill-downs ask for it once per check-point.
    """
    entries = suite.options.get("lexicon")
    if not isinstance(entries, Mapping) or not entries:
        return None
    cached = _LEXICONS.get(id(entries))
    if cached is None or cached[0] is not entries:
        cached = _LEXICONS[id(entries)] = (entries, Lexicon.from_entries(entries, str(suite.options.get("dictionary", "stored"))))
        while len(_LEXICONS) > _KEPT_LEXICONS:
            _LEXICONS.pop(next(iter(_LEXICONS)))
    return cached[1]


_LEXICONS: dict[int, tuple[Mapping[str, object], Lexicon]] = {}
"""id(stored entries) → (the entries, kept alive so that the id stays theirs; their lexicon)."""
_KEPT_LEXICONS = 4


def _contains(words: Sequence[str], phrase: Sequence[str]) -> bool:
    width = len(phrase)
    first = phrase[0]
    return any(words[start] == first and tuple(words[start : start + width]) == tuple(phrase)
               for start in range(len(words) - width + 1))


def _stemmer(target_lang: str) -> Callable[[str], str] | None:
    from checkpoints.evaluate.stemming import get_stemmer

    try:
        return get_stemmer(target_lang)
    except UsageError:  # no Snowball stemmer for the language: dictionary alternatives only
        return None


def _synonyms():  # type: ignore[no-untyped-def]
    from checkpoints.wordnet import SynonymSets

    return SynonymSets()
