"""Word matches that need no dictionary: identical forms, numbers and names.

A dictionary cannot list every number or every name, yet a reference that
keeps "1,5" for "1.5" or "México" for "Mexico" has translated them right; the
issue that asked for this put it as "identical forms, numbers and names count
as dictionary matches". Each test here is deliberately narrow:

* identical forms, compared lower-cased ("OK" ~ "ok", "." ~ ".");
* numbers with the same digit sequence, whatever their separators ("1.5" ~
  "1,5", "15,000" ~ "15 000" ~ "15.000"); the decimal separator cannot be told
  from a thousands separator without knowing the locale, so "1.5" ~ "15" too;
* names, when either word is a proper noun (UPOS ``PROPN``), compared without
  diacritics and case ("Mexico" ~ "México", "Zurich" ~ "Zürich").

Apart from those, :func:`cognate` tells words that languages sharing an
alphabet write nearly alike ("artifacts" ~ "artefacts", "contraceptives" ~
"contraceptions"): evidence a dictionary-guided repair may use where the
dictionary is thin (FreeDict's English–French lists 2,211 of PUD's English
words, its English–Spanish 15,972), but not a match of its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from checkpoints.model import Token

_NUMBER = re.compile(r"[+\-\u2212]?\d(?:[\d.,'\u2019 \u00a0\u2009\u202f]*\d)?")
"""Digits, optionally separated by dots, commas, apostrophes or (thin, no-break) spaces."""


@lru_cache(maxsize=65536)
def number_key(form: str) -> str | None:
    """The digit sequence of a number written with any separators, or None for a non-number.

    ``\\d`` also matches other scripts' decimal digits; they are mapped to ASCII
    so that "١٥" and "15" agree.
    """
    form = form.strip()
    if not _NUMBER.fullmatch(form):
        return None
    sign = "-" if form[0] in "-\u2212" else ""
    return sign + "".join(str(unicodedata.decimal(ch)) for ch in form if ch.isdecimal())


@lru_cache(maxsize=65536)
def name_key(form: str) -> str:
    """The form without diacritics (NFKD, combining marks dropped) and case-folded."""
    decomposed = unicodedata.normalize("NFKD", form)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def same_word(source: Token, target: Token) -> bool:
    """True when two words match without a dictionary (see the module docstring)."""
    source_form, target_form = source.form.lower(), target.form.lower()
    if source_form == target_form:
        return True
    source_number = number_key(source.form)
    if source_number is not None and source_number == number_key(target.form):
        return True
    return (source.upos == "PROPN" or target.upos == "PROPN") and name_key(source.form) == name_key(target.form)


COGNATE_UPOS = frozenset({"NOUN", "VERB", "ADJ", "ADV"})
COGNATE_MIN_LENGTH = 5
COGNATE_MIN_SIMILARITY = 0.75
"""Ratcliff–Obershelp similarity (difflib) of the two forms without diacritics: 0.89 for
"artifacts"/"artefacts", 0.77 for "government"/"gouvernementales", 0.5 for "power"/"pouvoir"."""


def cognate(source: Token, target: Token) -> bool:
    """True when two content words of the same alphabet are spelt nearly alike (a likely cognate).

    Both must be nouns, verbs, adjectives or adverbs of at least
    :data:`COGNATE_MIN_LENGTH` letters starting with the same letter; false
    friends ("actual" ~ "actuel") pass, which is why this only ever confirms a
    link inside one sentence pair, where a false friend rarely meets its twin.
    """
    if source.upos not in COGNATE_UPOS or target.upos not in COGNATE_UPOS:
        return False
    return similar_spelling(source.form, target.form)


@lru_cache(maxsize=262144)
def similar_spelling(left: str, right: str) -> bool:
    a, b = name_key(left), name_key(right)
    if min(len(a), len(b)) < COGNATE_MIN_LENGTH or a[0] != b[0] or not (a.isalpha() and b.isalpha()):
        return False
    return SequenceMatcher(None, a, b).ratio() >= COGNATE_MIN_SIMILARITY


@dataclass(frozen=True, slots=True)
class SentenceKeys:
    """What :func:`same_word` and dictionary look-ups compare, for every word of a sentence at once.

    Asking "does any word of this sentence translate that one?" word pair by
    word pair costs a million comparisons over a corpus; with the sentence's
    keys in sets it costs a few look-ups per source word.
    """

    words: frozenset[str]
    """Lower-cased forms and lemmas."""
    forms: frozenset[str]
    """Lower-cased forms."""
    numbers: frozenset[str]
    names: frozenset[str]
    """:func:`name_key` of every word."""
    proper_names: frozenset[str]
    """:func:`name_key` of the proper nouns."""

    @classmethod
    def of(cls, tokens: Iterable[Token]) -> SentenceKeys:
        tokens = list(tokens)
        forms = {token.form.lower() for token in tokens}
        lemmas = {token.lemma.lower() for token in tokens if token.lemma != "_"}
        numbers = {key for token in tokens if (key := number_key(token.form)) is not None}
        return cls(
            words=frozenset(forms | lemmas),
            forms=frozenset(forms),
            numbers=frozenset(numbers),
            names=frozenset(name_key(token.form) for token in tokens),
            proper_names=frozenset(name_key(token.form) for token in tokens if token.upos == "PROPN"),
        )


def same_word_in(source: Token, keys: SentenceKeys) -> bool:
    """True when some word of the sentence ``keys`` describes matches ``source`` by :func:`same_word`."""
    if source.form.lower() in keys.forms:
        return True
    number = number_key(source.form)
    if number is not None and number in keys.numbers:
        return True
    name = name_key(source.form)
    return name in (keys.names if source.upos == "PROPN" else keys.proper_names)
