"""Which reader a dictionary file needs, told from its content rather than its name.

Users name files as they like (``en-es.txt``, ``cedict.u8``, ``dict.idx``),
so the extension decides nothing; the first kilobytes do:

* XML (after an optional BOM and declaration) → an Apertium ``.dix``; the
  reader itself says so if the root is not ``<dictionary>``;
* dictzip data (gzip with a random-access table), a ``.dict``/``.dict.dz``
  whose sibling ``.index`` is a dictd index, or a dictd index itself (lines
  ``headword<TAB>base64<TAB>base64``) → FreeDict;
* a ``# CC-CEDICT`` header or lines ``Trad Simp [pin1 yin1] /gloss/`` → CC-CEDICT;
* anything else → TSV, whose reader reports the first line that is not
  ``source<TAB>target``.
"""

from __future__ import annotations

import gzip
import zlib
from enum import StrEnum
from pathlib import Path

from checkpoints.extract.dictd import DATA_SUFFIXES
from checkpoints.extract.dictd import INDEX_LINE as DICTD_INDEX_LINE
from checkpoints.extract.dictzip import is_dictzip
from checkpoints.io.cedict import LINE as CEDICT_LINE

SNIFF_BYTES = 16384
SNIFF_LINES = 20


class DictionaryFormat(StrEnum):
    DIX = "apertium-dix"
    DICTD = "freedict"
    CEDICT = "cc-cedict"
    TSV = "tsv"


def detect_format(path: str | Path) -> DictionaryFormat:
    path = Path(path)
    if is_dictzip(path) or _is_dictd_data(path):
        return DictionaryFormat.DICTD
    lines = _head_lines(path)
    first = next((line for line in lines if line.strip()), "")
    if first.lstrip().startswith("<"):
        return DictionaryFormat.DIX
    if looks_like_dictd_index(lines):
        return DictionaryFormat.DICTD
    if looks_like_cedict(lines):
        return DictionaryFormat.CEDICT
    return DictionaryFormat.TSV


def looks_like_dictd_index(lines: list[str]) -> bool:
    """Most of the first lines are ``headword<TAB>offset<TAB>length`` (a damaged line or two
    is left to the reader, which names it)."""
    sample = [line for line in lines if line][:SNIFF_LINES]
    hits = sum(1 for line in sample if DICTD_INDEX_LINE.fullmatch(line))
    return bool(sample) and hits * 2 >= len(sample)


def looks_like_cedict(lines: list[str]) -> bool:
    if any(line.startswith("#") and "CC-CEDICT" in line for line in lines):
        return True
    sample = [line for line in lines if line.strip() and not line.startswith("#")][:SNIFF_LINES]
    hits = sum(1 for line in sample if CEDICT_LINE.fullmatch(line))
    return bool(sample) and hits * 2 >= len(sample)


def _is_dictd_data(path: Path) -> bool:
    """A ``.dict``/``.dict.dz`` file with a dictd index beside it."""
    for suffix in DATA_SUFFIXES:
        if path.name.endswith(suffix):
            index = path.with_name(path.name.removesuffix(suffix) + ".index")
            return index.is_file() and looks_like_dictd_index(_head_lines(index))
    return False


def _head_lines(path: Path) -> list[str]:
    """The first complete lines of a (possibly gzip-compressed) text file; [] if unreadable,
    so that the reader chosen reports the problem with the file."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
        if head.startswith(b"\x1f\x8b"):
            with gzip.open(path, "rb") as handle:
                head = handle.read(SNIFF_BYTES)
    except (OSError, EOFError, zlib.error):
        return []
    text = head.decode("utf-8", errors="replace").removeprefix("\ufeff")
    lines = text.split("\n")
    if len(head) == SNIFF_BYTES and len(lines) > 1:
        lines.pop()  # cut off mid-line
    return [line.removesuffix("\r") for line in lines]
