"""Contractions of a preposition and an article, split into their words wherever words are matched.

German "im" is "in dem", French "du" is "de le", Spanish "del" is "de el": one
written token for two syntactic words (a UD multi-word token). Matched as
written, the token ties the preposition to the article. A Preposition
check-point on "in" whose reference is "im" fails on "ins Haus" (right
preposition, other article), and the suite's audit sees the Preposition
category fall when only articles change: on the German and French PUD suites
about one Preposition reference in seven was such a token.

So matching splits them, on both sides alike: a reference takes only the words
of a contraction that translate its span (the Preposition check-point on "in"
keeps "in" of "im"; :mod:`checkpoints.extract.surface`), and every match token
of a reference or a translation that is a contraction of the target language
becomes its words ("Im Haus" → "In dem Haus"). Because both sides go through
:func:`split_contractions`, the reference's own text still matches itself.

The tables list each language's contractions of a preposition with a definite
article (and French "auquel"/"duquel"): closed lists, from the grammars, not
from any corpus. Forms that are as often other words are left out, since
splitting them would put a preposition into text that has none: French "des"
is the indefinite article about as often as "de les" (151 against 189 times
in the French PUD), so a Preposition check-point "de" would match every
indefinite article; Italian "dei"/"dai" are also "gods"/"you give",
Portuguese "nos" is also "us". French "du" is split: it is "de le" 228 times
there against 8 partitive articles. Forms with an apostrophe ("dell'") are
left to the tokenizer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from checkpoints.tokenizers import Tokenize

CONTRACTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "de": {
        "am": ("an", "dem"), "ans": ("an", "das"), "aufs": ("auf", "das"), "beim": ("bei", "dem"),
        "durchs": ("durch", "das"), "fürs": ("für", "das"), "hinterm": ("hinter", "dem"),
        "hinters": ("hinter", "das"), "im": ("in", "dem"), "ins": ("in", "das"), "übern": ("über", "den"),
        "überm": ("über", "dem"), "übers": ("über", "das"), "ums": ("um", "das"), "unterm": ("unter", "dem"),
        "unters": ("unter", "das"), "vom": ("von", "dem"), "vorm": ("vor", "dem"), "vors": ("vor", "das"),
        "zum": ("zu", "dem"), "zur": ("zu", "der"),
    },
    "fr": {
        "au": ("à", "le"), "aux": ("à", "les"), "du": ("de", "le"),
        "auquel": ("à", "lequel"), "auxquels": ("à", "lesquels"), "auxquelles": ("à", "lesquelles"),
        "duquel": ("de", "lequel"), "desquels": ("de", "lesquels"), "desquelles": ("de", "lesquelles"),
    },
    "es": {"al": ("a", "el"), "del": ("de", "el")},
    "ca": {"al": ("a", "el"), "als": ("a", "els"), "del": ("de", "el"), "dels": ("de", "els"),
           "pel": ("per", "el"), "pels": ("per", "els")},
    "it": {
        f"{short}{article}": (preposition, article_word)
        for short, preposition in (("a", "a"), ("da", "da"), ("de", "di"), ("ne", "in"), ("su", "su"))
        for article, article_word in (("l", "il"), ("llo", "lo"), ("lla", "la"), ("gli", "gli"), ("lle", "le"),
                                      ("i", "i"))
        if f"{short}{article}" not in ("dai", "dei")
    } | {"col": ("con", "il"), "coi": ("con", "i")},
    "pt": {
        "ao": ("a", "o"), "aos": ("a", "os"), "à": ("a", "a"), "às": ("a", "as"),
        "do": ("de", "o"), "dos": ("de", "os"), "da": ("de", "a"), "das": ("de", "as"),
        "no": ("em", "o"), "na": ("em", "a"), "nas": ("em", "as"),
        "num": ("em", "um"), "numa": ("em", "uma"), "dum": ("de", "um"), "duma": ("de", "uma"),
        "pelo": ("por", "o"), "pela": ("por", "a"), "pelos": ("por", "os"), "pelas": ("por", "as"),
    },
}
"""Per target language (ISO 639-1), each contraction (lower case) → its words."""

TABLE_VERSION = "1"
"""Changes whenever a table does: matching results (and kept indexes) depend on the tables."""


def contraction_words(word: str, language: str | None) -> tuple[str, ...] | None:
    """The words of ``word`` when it is a contraction of ``language``, in its case; else None.

    A capitalised contraction gives a capitalised first word ("Im" → "In", "dem"), one written
    in capitals gives capitals ("DU" → "DE", "LE"), as the words would be written at that place.
    """
    table = CONTRACTIONS.get(language or "")
    if not table:
        return None
    words = table.get(word.casefold())
    if words is None:
        return None
    if word.isupper() and len(word) > 1:
        return tuple(part.upper() for part in words)
    if word[:1].isupper():
        return (words[0][:1].upper() + words[0][1:], *words[1:])
    return words


def splits_contractions(language: str | None) -> bool:
    """Whether matching in ``language`` splits contractions (it has a table)."""
    return bool(CONTRACTIONS.get(language or ""))


def split_contractions(tokens: Sequence[str], language: str | None) -> list[str]:
    """``tokens`` with every contraction of ``language`` replaced by its words."""
    table = CONTRACTIONS.get(language or "")
    if not table:
        return list(tokens)
    out: list[str] = []
    for token in tokens:
        words = contraction_words(token, language)
        if words is None:
            out.append(token)
        else:
            out.extend(words)
    return out


@cache
def splitting_tokenizer(tokenize: Tokenize, language: str | None) -> Tokenize:
    """``tokenize`` followed by :func:`split_contractions` (``tokenize`` itself where nothing splits)."""
    if not splits_contractions(language):
        return tokenize
    return lambda text: split_contractions(tokenize(text), language)
