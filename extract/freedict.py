"""The text of one FreeDict entry, as ``dictfmt`` writes it, turned into clean translations.

An entry starts with the headword and its pronunciation::

    bank /bˈaŋk/ <v>

and continues with translation lines and annotation lines. The dictionaries
differ in style: eng-spa and eng-fra (from Ergane) number their senses
(``1. casa, hogar``); eng-deu (from Ding) marks grammar and usage inline
(``Bank <fem>, Gruppe <fem> [fin.]``, `` [Am.] Laufmasche <fem>``) and adds
indented annotations (`` see: {banks}``, ``   Synonyms: {...}``,
``         Note: ...``, ``      "the bank" - die Bank``). Only the translations
are wanted: annotations are skipped, markup is removed, the comma- or
semicolon-separated alternatives are split, and placeholders (``etw.``,
``jdm.``, ``sth.``, ``qqch``) and ellipses, which stand for no word of the
translation, are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ANNOTATION = re.compile(r"^\s*(?:see|synonyms?|antonyms?|notes?|examples?|usage|compare|cf\.)\s*:", re.IGNORECASE)
_QUOTE_CHARS = "\"“„"
_EXAMPLE = re.compile(r'^\s*["“„][^"“”„]*["”“]\s+-\s')
_NUMBERING = re.compile(r"^\s*\d+\.\s+")
_MARKUP = re.compile(r"<[^<>]*>|\[[^\[\]]*\]|\{[^{}]*\}|\([^()]*\)")
_STRAY = re.compile(r"[<>\[\]{}()]")
_SEPARATOR = re.compile(r";|,(?!\d)|(?<!\d),")
_ELLIPSIS = re.compile(r"\.\.\.+|…")
_QUOTES = str.maketrans({'"': " ", "“": " ", "”": " ", "„": " ", "«": " ", "»": " ", "‐": "-", "‑": "-"})
_SPECIAL = re.compile("[\"“”„«»‐‑…]|\\.\\.")
_EDGE_PUNCTUATION = " \t!?¡¿:"
PLACEHOLDERS = frozenset({
    "etw.", "jd.", "jdm.", "jdn.", "jds.",  # German: etwas, jemand(em|en|es)
    "sth", "sth.", "sb", "sb.", "sb.'s", "sth.'s",  # English: something, somebody
    "qqch", "qqch.", "qqn", "qqn.", "qch", "qch.", "qn", "qn.",  # French: quelque chose, quelqu'un
})
_PRONUNCIATION = re.compile(r" /([^/]*)/")
_INLINE_PRONUNCIATION = re.compile(r"(?:^|\s)/[^/]+/(?=[\s,;]|$)")
_STRESS = str.maketrans("", "", "ˈˌ")
_UNFOLDED = re.compile(r"[^\w\s]|_")


@dataclass(frozen=True, slots=True)
class FreedictEntry:
    headword: str
    pronunciation: str
    """The ``/.../`` after the headword, stress marks removed ("" if none)."""
    translations: tuple[str, ...]


def fold_headword(word: str) -> str:
    """A word folded the way ``dictfmt`` folds index headwords: lower case; letters,
    digits and single spaces only ("God's Acre" → "gods acre")."""
    return " ".join(_UNFOLDED.sub("", word.lower()).split())


def parse_entry(text: str, index_headword: str = "") -> FreedictEntry:
    """One entry; ``index_headword`` tells where the headword ends when it contains
    slashes itself ("of / relating to / involving depth psychology /ɒv .../")."""
    lines = text.split("\n")
    headline = lines[0]
    match = _headline_pronunciation(headline, index_headword)
    if match:
        headword = headline[: match.start()]
        pronunciation = match.group(1).translate(_STRESS)
    else:
        headword, pronunciation = _remove_markup(headline), ""
    translations: list[str] = []
    for line in lines[1:]:
        if is_translation_line(line):
            translations.extend(translations_of_line(line))
    return FreedictEntry(_clean(headword), pronunciation, tuple(dict.fromkeys(translations)))


def _headline_pronunciation(headline: str, index_headword: str) -> re.Match[str] | None:
    """The ``/.../`` that follows the headword: the first one after which the headword folds
    to the index headword, else simply the first one."""
    first = _PRONUNCIATION.search(headline)
    if first is None or not index_headword or headline.count(" /") == 1:
        return first
    folded = fold_headword(index_headword)
    for match in _PRONUNCIATION.finditer(headline):
        if fold_headword(headline[: match.start()]) == folded:
            return match
    return first


def is_translation_line(line: str) -> bool:
    """Translation lines start at the margin, or with a usage label (`` [Am.] ...``);
    indented lines are annotations: cross-references, synonyms, notes, examples."""
    if not line or line.isspace():
        return False
    if line[0].isspace():
        return line.lstrip().startswith("[") and not _ANNOTATION.match(line)
    return not ((":" in line and _ANNOTATION.match(line)) or (line[0] in _QUOTE_CHARS and _EXAMPLE.match(line)))


def translations_of_line(line: str) -> list[str]:
    """``1. casa <f>, hogar [Br.]`` → ``["casa", "hogar"]``; a pronunciation given inside
    a translation (``circa, /kˈɑː/ , zirka``) is dropped too."""
    text = line
    if text[0].isdigit():
        text = _NUMBERING.sub("", text, count=1)
    if "/" in text:
        text = _INLINE_PRONUNCIATION.sub(" ", text)
    text = _remove_markup(text)
    found = []
    for alternative in _SEPARATOR.split(text):
        cleaned = _clean(alternative)
        if cleaned and any(ch.isalnum() for ch in cleaned):
            found.append(cleaned)
    return found


def _remove_markup(text: str) -> str:
    """Grammar ``<fem>``, labels ``[Br.]``, references ``{...}`` and optional parts ``(sich)``,
    innermost first so that nested brackets go too, then any unbalanced bracket left."""
    if not _STRAY.search(text):
        return text
    while True:
        reduced = _MARKUP.sub(" ", text)
        if reduced == text:
            return _STRAY.sub(" ", reduced)
        text = reduced


def _clean(text: str) -> str:
    if _SPECIAL.search(text):
        text = _ELLIPSIS.sub(" ", text.translate(_QUOTES))
    words = text.split()
    if not PLACEHOLDERS.isdisjoint(word.lower() for word in words):
        words = [word for word in words if word.lower() not in PLACEHOLDERS]
    return " ".join(words).strip(_EDGE_PUNCTUATION)
