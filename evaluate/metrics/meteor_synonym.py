"""Meteor 1.5's synonym lookup (``SynonymDictionary``), reproduced over the packaged WordNet 3.0.

METEOR-sy calls two different words synonyms when their synonym sets
intersect. Meteor 1.5 builds a word's set as follows (read from the jar's
``SynonymDictionary`` and ``SynonymMatcher``; its data, ``synonym/english.*``
inside the jar, is WordNet 3.0):

- the synsets of the word itself, looked up **as given**: the data is
  lower-case, so a capitalised word has none unless Meteor runs with
  ``-lower`` (``--case ci`` here);
- plus, when the word is a form in WordNet's exception lists (all parts of
  speech merged), the synsets of all its listed bases; otherwise, unless
  it ends in ``ss`` or has at most two characters, the synsets of the first
  form one of :data:`SUFFIX_RULES` gives (in that order) that is a WordNet
  word of any part of speech (a single form, not one per part of speech as
  WordNet's own morphology gives);
- synsets are bare offsets, the part of speech dropped, so a noun and an
  adjective whose synsets have the same offset count as synonyms.

That last point makes the offsets themselves matter. The jar's offsets are
WordNet 3.0's except in two ranges (:func:`meteor_offset`), as if its data
files had two shorter glosses; with that correction the packaged WordNet 3.0
gives exactly the jar's ``english.synsets`` (all 147,306 words checked), and
the exception lists give the jar's ``english.exceptions`` except for three
forms WordNet lists twice, where the packaged data keeps the last line and
Meteor keeps both (:data:`EXTRA_EXCEPTIONS`). Meteor's ``english.relations``
(hypernyms and the like) is read by no code path of Meteor 1.5, so it is not
reproduced.

The lookups differ from :class:`checkpoints.wordnet.SynonymSets` (nltk's
morphology, lower-cased, synsets per part of speech) on purpose: this is
what reproduces the jar's METEOR-sy scores.
"""

from __future__ import annotations

from functools import lru_cache

from checkpoints.wordnet import POS_FILES, WordNet, load_wordnet

__all__ = ["EXTRA_EXCEPTIONS", "SUFFIX_RULES", "MeteorSynonyms", "meteor_offset"]

SUFFIX_RULES: tuple[tuple[str, str], ...] = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"), ("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
    ("ing", ""), ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)
"""Meteor's ``sufx``/``addr`` tables: an ending and its replacement, tried in this order (first hit wins)."""

EXTRA_EXCEPTIONS: dict[str, tuple[str, ...]] = {"aurar": ("eyir",), "involucra": ("involucre",), "offer": ("off",)}
"""Bases Meteor's exception data has beyond the packaged WordNet 3.0 (forms WordNet lists on two lines)."""

_VERB_SHIFT = (613036, 2422967, 18)
_ADJECTIVE_SHIFT = (1681478, 1)


def meteor_offset(pos: str, offset: int) -> int:
    """The offset Meteor 1.5's synonym data gives a WordNet 3.0 synset.

    Verb synsets from offset 613036 up to (not including) 2422967 are 18
    lower, adjective synsets from 1681478 on 1 lower, every other offset is
    WordNet 3.0's (found by comparing the jar's ``english.synsets`` with the
    packaged data; these three bounds make all words agree). Only offsets
    that collide across parts of speech depend on it, but those are synonyms
    in Meteor.
    """
    if pos == "v" and _VERB_SHIFT[0] <= offset < _VERB_SHIFT[1]:
        return offset - _VERB_SHIFT[2]
    if pos == "a" and offset >= _ADJECTIVE_SHIFT[0]:
        return offset - _ADJECTIVE_SHIFT[1]
    return offset


class MeteorSynonyms:
    """Word → its Meteor 1.5 synonym set (see the module documentation); call the instance.

    Built once per metric; the word lookups are cached per instance, so the
    cache lives as long as the metric that uses it.
    """

    def __init__(self, wordnet: WordNet | None = None) -> None:
        wordnet = wordnet if wordnet is not None else load_wordnet()
        synsets: dict[str, set[int]] = {}
        for pos in POS_FILES:
            for lemma, offsets in wordnet.index[pos].items():
                synsets.setdefault(lemma, set()).update(meteor_offset(pos, offset) for offset in offsets)
        self._synsets = {word: frozenset(offsets) for word, offsets in synsets.items()}
        bases: dict[str, dict[str, None]] = {}
        for pos in POS_FILES:
            for form, listed in wordnet.exceptions[pos].items():
                bases.setdefault(form, {}).update(dict.fromkeys(listed))
        for form, listed in EXTRA_EXCEPTIONS.items():
            bases.setdefault(form, {}).update(dict.fromkeys(listed))
        self._bases = {form: tuple(listed) for form, listed in bases.items()}
        self._lookup = lru_cache(maxsize=1 << 17)(self._synonym_set)

    def __getstate__(self) -> dict[str, object]:
        """Pickled without its lookup cache (a metric sent to a Ray worker), which the other side remakes."""
        return {"_synsets": self._synsets, "_bases": self._bases}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._lookup = lru_cache(maxsize=1 << 17)(self._synonym_set)

    def __call__(self, word: str) -> frozenset[int]:
        return self._lookup(word)

    def _synonym_set(self, word: str) -> frozenset[int]:
        # SynonymMatcher: getSynSets(word) ∪ getStemSynSets(word).
        empty: frozenset[int] = frozenset()
        own = self._synsets.get(word, empty)
        listed = self._bases.get(word)
        if listed is not None:
            return own.union(*(self._synsets.get(base, empty) for base in listed))
        return own | self._synsets.get(self._morph(word), empty)

    def _morph(self, word: str) -> str:
        """Meteor's ``morph``: the first suffix rule's form that is a WordNet word, else ``""``."""
        if word.endswith("ss") or len(word) <= 2:
            return word
        for ending, replacement in SUFFIX_RULES:
            if word.endswith(ending):
                form = word[: len(word) - len(ending)] + replacement
                if form in self._synsets:
                    return form
        return ""
