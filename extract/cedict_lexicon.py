"""CC-CEDICT, the community Chinese–English dictionary.

One entry a line, ``#`` starting a comment::

    儲備金 储备金 [chu3 bei4 jin1] /reserves (bank)/
    反對 反对 [fan3 dui4] /to fight against/to oppose/to be opposed to/opposition/

Both the traditional and the simplified headword are source keys: the corpora
at hand are in traditional script, but users may have simplified. The glosses
are English explanations as much as translations, so they are cleaned before
use: parenthesised notes (``(idiom)``, ``(Tw)``, ``(of an animal)``), inline
references to other entries (``拜拜[bai2 bai2]``), ``lit.``/``fig.``, a verb's
leading "to", and the placeholders "sth"/"sb" go; glosses that only point to
another entry (``variant of 臺``, ``surname Wang``, ``see 大夫``, ``CL:個``)
and descriptions longer than :data:`MAX_GLOSS_WORDS` words (a definition, not
a translation: "noun suffix for a specialist in some activity, ...") are
skipped. What remains is kept whole; Zhou's DM takes the words of it
(:meth:`checkpoints.extract.lexicon.Lexicon.words`). Read English → Chinese,
only single-word glosses become source words, the only ones a word of an
English sentence can be looked up by.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from checkpoints.extract.langcodes import oriented_forward
from checkpoints.extract.lexicon import Lexicon
from checkpoints.io.cedict import HAN, Entry, is_pointer, read_entries, without_remarks

KIND = "cc-cedict"
REVERSED_KIND = "cc-cedict-reversed"
SIDES = ("zh", "en")
MAX_GLOSS_WORDS = 6
"""Longer glosses describe rather than translate; their words would match any English reference."""

_REFERENCE = re.compile(rf"[^\s\[]*{HAN}[^\s\[]*(?:\[[^\]]*\])?|\[[^\]]*\]")
_USAGE_NOTE = re.compile(r"classifier for\b", re.IGNORECASE)
"""A classifier's use is a sense of the word (the taxonomy counts it) but no English word translates it."""
_PREFIX = re.compile(r"^(?:lit\.|fig\.|to)\s+", re.IGNORECASE)
_PLACEHOLDERS = frozenset({"sth", "sb", "sth.", "sb.", "sth's", "sb's", "~", "~'s", "'s"})
_EDGE = " \t.,;:!?\"'~"


def translations(entry: Entry) -> tuple[str, ...]:
    """The cleaned translations of an entry's glosses, in order, once each."""
    found: list[str] = []
    for gloss in entry.glosses:
        found.extend(clean_gloss(gloss))
    return tuple(dict.fromkeys(found))


def clean_gloss(gloss: str) -> list[str]:
    """The translations one gloss gives, cleaned (see the module docstring); ``;`` separates
    alternatives inside a gloss ("(idiom); to impose uniformity")."""
    gloss = gloss.strip()
    if not gloss or is_pointer(gloss) or _USAGE_NOTE.match(gloss):
        return []
    gloss = _REFERENCE.sub(" ", without_remarks(gloss))
    found: list[str] = []
    for alternative in gloss.split(";"):
        text = alternative.strip()
        if is_pointer(text) or _USAGE_NOTE.match(text):
            continue
        while True:
            shorter = _PREFIX.sub("", text, count=1)
            if shorter == text:
                break
            text = shorter
        words = [word.strip(_EDGE) for word in text.split() if word.lower() not in _PLACEHOLDERS]
        words = [word for word in words if word]
        if words and len(words) <= MAX_GLOSS_WORDS:
            found.append(" ".join(words))
    return found


def read_cedict_dictionary(
    path: str | Path, source_lang: str, target_lang: str, wanted: Collection[str] | None = None
) -> Lexicon:
    """CC-CEDICT oriented source → target: Chinese → English as published, English →
    Chinese inverted. ``wanted`` (lower-cased source words) limits the entries kept."""
    forward = oriented_forward(path, SIDES, source_lang, target_lang, "CC-CEDICT")
    lexicon = Lexicon(kind=KIND, origin=Path(path).name)
    entries = lexicon.entries
    selected = wanted if forward else None
    for entry in read_entries(path, strict=True):
        headwords = {headword.lower() for headword in entry.headwords}
        if selected is not None:
            headwords = {headword for headword in headwords if headword in selected}
            if not headwords:
                continue
        cleaned = {translation.lower() for translation in translations(entry)}
        if cleaned:
            for headword in headwords:
                entries.setdefault(headword, set()).update(cleaned)
    if forward:
        return lexicon
    inverse = lexicon.inverted(REVERSED_KIND, single_words=True)
    if wanted is not None:
        inverse.entries = {source: targets for source, targets in inverse.entries.items() if source in wanted}
    return inverse
