"""FreeDict dictionaries in dictd format: a ``.index`` and a ``.dict``/``.dict.dz`` data file.

Each index line is ``headword<TAB>offset<TAB>length`` (a fourth column, the
original headword, is allowed), offset and length in dictd's base64 (digits
``A-Za-z0-9+/``, most significant first) pointing into the uncompressed data
file. Headwords starting with ``00database`` or ``00-database`` are the
dictionary's metadata, not entries. Index headwords are folded by ``dictfmt``
(lower case, punctuation dropped: ``gods acre`` for "God's Acre"), so they
select entries while the entry's own headline gives the key that is stored.

A corpus needs a few thousand of the 464,000 entries of eng-deu, so when
``wanted`` keys are given only their entries are inflated and parsed. The
syntax of every index line is still checked, so that a damaged line is
reported whichever words a corpus happens to contain; offsets are checked
against the data file for the entries read.

FreeDict eng-spa (converted from Ergane) lost the second and later words of
many multi-word headwords: "the day after tomorrow" is an entry "the", with
the glued pronunciation ``/ðdeiɑːftərtəmɔrou/`` as the only trace. Such an
entry is dropped when its pronunciation has no space and extends, by at
least :data:`TRUNCATED_MIN_EXTRA` sounds, the pronunciation of another entry
of the same headword: otherwise "the" would translate as "pasadomañana",
"Holanda" and "ExtremoOriente". This drops 547 of eng-spa's 5,907 entries
and none of eng-fra's or eng-deu's, whose multi-word headwords are whole.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.extract.dictzip import DictData
from checkpoints.extract.freedict import FreedictEntry, fold_headword, parse_entry
from checkpoints.extract.langcodes import languages_in_name, oriented_forward
from checkpoints.extract.lexicon import Lexicon
from checkpoints.io.lines import iter_lines

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_DIGIT = {ch: value for value, ch in enumerate(BASE64)}
METADATA_PREFIXES = ("00database", "00-database")
DATA_SUFFIXES = (".dict.dz", ".dict")
TRUNCATED_MIN_EXTRA = 3
INDEX_LINE = re.compile(r"[^\t]*\t[A-Za-z0-9+/]+\t[A-Za-z0-9+/]+(?:\t[^\t]*)?")
KIND = "freedict"
REVERSED_KIND = "freedict-reversed"


def decode_number(text: str) -> int:
    """dictd's base64 number; ValueError for an empty text or a character outside the alphabet."""
    if not text:
        raise ValueError("empty number")
    value = 0
    for ch in text:
        digit = _DIGIT.get(ch)
        if digit is None:
            raise ValueError(f"{ch!r} is not a dictd base64 digit")
        value = value * 64 + digit
    return value


@dataclass(frozen=True, slots=True)
class IndexLine:
    headword: str
    offset: int
    length: int
    line: int


def read_index(index_path: Path, data: DictData, selected: Collection[str] | None = None) -> Iterator[IndexLine]:
    """The entry lines of a dictd index, or only those whose headword is in ``selected``
    (folded headwords). Every line's syntax is checked; offsets are decoded and
    checked against the data file's size for the lines returned, the only ones
    whose bytes are read (decoding all 464,000 of eng-deu would double its load time).
    """
    for number, line in enumerate(iter_lines(index_path), start=1):
        if not line:
            continue
        if not INDEX_LINE.fullmatch(line):
            _reject_index_line(index_path, number, line)
        headword = line[: line.index("\t")].strip()
        if (selected is not None and headword not in selected) or headword.startswith(METADATA_PREFIXES):
            continue
        _headword, offset_text, length_text = line.split("\t")[:3]
        offset, length = decode_number(offset_text), decode_number(length_text)
        if offset + length > data.size:
            raise InputError(
                index_path, number,
                f"entry at bytes {offset}..{offset + length} lies beyond the end of {data.path.name} ({data.size} bytes)",
            )
        yield IndexLine(" ".join(headword.split()), offset, length, number)


def _reject_index_line(index_path: Path, number: int, line: str) -> None:
    """Raise the error that says what is wrong with a line :data:`INDEX_LINE` refused."""
    columns = line.split("\t")
    if len(columns) not in (3, 4):
        raise InputError(index_path, number, "expected 'headword<TAB>offset<TAB>length' (a dictd index line)")
    for what, text in (("offset", columns[1]), ("length", columns[2])):
        try:
            decode_number(text)
        except ValueError as error:
            raise InputError(index_path, number, f"bad {what} {text!r}: {error}") from None
    raise InputError(index_path, number, "expected 'headword<TAB>offset<TAB>length' (a dictd index line)")


def dictd_files(path: str | Path) -> tuple[Path, Path]:
    """(index, data file) from either of the two paths; the other is its sibling."""
    path = Path(path)
    name = path.name
    for suffix in DATA_SUFFIXES:
        if name.endswith(suffix):
            index = path.with_name(name.removesuffix(suffix) + ".index")
            if not index.is_file():
                raise InputError(path, None, f"a dictd data file needs its index next to it ({index.name} not found)")
            return index, path
    stem = name.removesuffix(".index")
    for suffix in DATA_SUFFIXES:
        data = path.with_name(stem + suffix)
        if data.is_file():
            return path, data
    raise InputError(path, None, f"a dictd index needs its data file next to it ({stem}.dict.dz or {stem}.dict not found)")


def dictd_stem(path: str | Path) -> str:
    """``freedict-eng-spa`` for ``freedict-eng-spa.index`` or ``freedict-eng-spa.dict.dz``."""
    name = Path(path).name
    for suffix in (*DATA_SUFFIXES, ".index"):
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


def read_entries(index_path: Path, data: DictData, wanted: Collection[str] | None) -> Iterator[tuple[IndexLine, FreedictEntry]]:
    """The parsed entries the index lists (only those whose folded headword is wanted, if given)."""
    folded = None if wanted is None else {fold_headword(word) for word in wanted}
    for item in read_index(index_path, data, folded):
        raw = data.read(item.offset, item.length)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(index_path, item.line, f"the entry's bytes in {data.path.name} are not valid UTF-8") from None
        yield item, parse_entry(text, item.headword)


def drop_truncated(entries: Iterable[tuple[IndexLine, FreedictEntry]]) -> list[FreedictEntry]:
    """The entries without those whose headword lost its later words (see the module docstring).

    Only a pronunciation without spaces can be such a glued phrase (eng-deu
    writes "take sth" as ``/teɪk ɛs tiː eɪtʃ/``, a real multi-word headword),
    and only under its own headword (eng-deu also indexes "article" under "art").
    """
    groups: dict[str, list[FreedictEntry]] = {}
    for item, entry in entries:
        groups.setdefault(item.headword, []).append(entry)
    kept: list[FreedictEntry] = []
    for headword, group in groups.items():
        sounds = {entry.pronunciation.replace(" ", "") for entry in group if entry.pronunciation}
        for entry in group:
            own = entry.pronunciation
            truncated = (
                " " not in own
                and any(len(own) - len(other) >= TRUNCATED_MIN_EXTRA and own.startswith(other) for other in sounds)
                and fold_headword(entry.headword) == headword
            )
            if not truncated:
                kept.append(entry)
    return kept


def read_dictd_dictionary(
    path: str | Path,
    source_lang: str,
    target_lang: str,
    corpus_lemmas: Iterable[str] = (),
    wanted: Collection[str] | None = None,
) -> Lexicon:
    """A FreeDict dictionary, oriented source → target.

    The orientation comes from the file name (``freedict-eng-spa`` reads
    English → Spanish; a Spanish → English build inverts it). When the name
    does not say, the side that covers more of ``corpus_lemmas`` is the
    source side. ``wanted`` (lower-cased source words) limits the entries
    kept; it can only skip parsing when the dictionary is read forwards.
    """
    index_path, data_path = dictd_files(path)
    data = DictData(data_path)
    sides = languages_in_name(dictd_stem(index_path))
    forward = None if sides is None else oriented_forward(path, sides, source_lang, target_lang, dictd_stem(index_path))
    entries = drop_truncated(read_entries(index_path, data, wanted if forward else None))
    lexicon = Lexicon(kind=KIND, origin=Path(path).name)
    for entry in entries:
        for translation in entry.translations:
            lexicon.add(entry.headword, translation)
    if not lexicon.entries and wanted is None:
        raise InputError(path, None, "the dictionary has no entries with translations")
    if forward is None:
        lemmas = {lemma.lower() for lemma in corpus_lemmas}
        inverse = lexicon.inverted(REVERSED_KIND)
        forward = len(lemmas & lexicon.entries.keys()) >= len(lemmas & inverse.entries.keys())
        if not forward:
            lexicon = inverse
    elif not forward:
        lexicon = lexicon.inverted(REVERSED_KIND)
    if wanted is not None:
        lexicon.entries = {source: targets for source, targets in lexicon.entries.items() if source in wanted}
    return lexicon
