"""METEOR-pa's paraphrase table, read as Meteor 1.5's ``ParaphraseTransducer`` reads its own.

Two formats, told apart by the first line that is not blank:

* **Meteor's** (``paraphrase-en.gz`` in the Meteor 1.5 distribution, and what
  its ``-a`` option takes): three lines per entry, a probability, a phrase
  and its paraphrase. The probability is checked to be a number and not used,
  as Meteor does not use it.
* **Tab-separated**: one entry a line, ``phrase<TAB>paraphrase`` (further
  tab-separated fields, such as a probability, are ignored); blank lines and
  lines starting with ``#`` are skipped.

Either may be gzip-compressed (``.gz``). Words are cut at whitespace and
kept as written: with ``--case ci`` the texts are lower-cased and the table
is not, as Meteor's ``-lower`` does (its English table is lower-case), so a
table for case-insensitive scoring is written in lower case. An
entry is directed, as in Meteor's table, but the matcher looks phrases up on
both sides (:func:`checkpoints.evaluate.metrics.meteor_align.candidates`), so
an entry matches in both directions, and a table in either format gives the
scores the jar gives with the same entries in its format. The order of the
entries is kept: it is the order in which Meteor proposes a phrase's
paraphrases, which decides ties in its search. An entry that pairs a phrase
with itself is dropped (it could only repeat an exact match).
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from itertools import chain
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.evaluate.metrics.meteor_align import ParaphraseTable

__all__ = ["read_paraphrase_table"]


def read_paraphrase_table(path: str | Path) -> ParaphraseTable:
    """The table in ``path``, in either format."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, None, "paraphrase table not found")
    entries: dict[str, list[str]] = {}
    max_phrase = longest = 0
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8", newline="\n") as handle:  # type: ignore[operator]
            for (phrase_line, phrase), (paraphrase_line, paraphrase) in _pairs(path, handle):
                first, second = phrase.split(), paraphrase.split()
                if not first or not second:
                    raise InputError(path, paraphrase_line if first else phrase_line, "empty phrase in paraphrase pair")
                if first == second:
                    continue
                entries.setdefault(" ".join(first), []).append(" ".join(second))
                max_phrase = max(max_phrase, len(first))
                longest = max(longest, len(first), len(second))
    except UnicodeDecodeError as error:
        raise InputError(path, None, f"not UTF-8 text ({error.reason})") from None
    except (OSError, EOFError) as error:
        raise InputError(path, None, f"cannot read paraphrase table ({error})") from None
    if not entries:
        raise InputError(path, None, "paraphrase table has no pairs")
    return ParaphraseTable(entries, max_phrase, longest)


Numbered = tuple[int, str]
"""A line's number and text."""


def _pairs(path: Path, lines: Iterator[str]) -> Iterator[tuple[Numbered, Numbered]]:
    """The phrase and the paraphrase of every entry, with their line numbers, in the file's order."""
    numbered = enumerate((line.rstrip("\r\n") for line in lines), start=1)
    for number, line in numbered:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "\t" not in line and _is_number(line):
            yield from _meteor_entries(path, number, numbered)
        else:
            yield from _tab_separated(path, number, line, numbered)
        return


def _meteor_entries(path: Path, first: int, numbered: Iterator[Numbered]) -> Iterator[tuple[Numbered, Numbered]]:
    """Meteor's probability / phrase / paraphrase lines; the first probability (line ``first``) is read."""
    number = first
    while True:
        phrase = next(numbered, None)
        paraphrase = next(numbered, None)
        if phrase is None or paraphrase is None:
            raise InputError(path, number, "incomplete entry: expected a probability, a phrase and a paraphrase line")
        yield phrase, paraphrase
        probability = next(numbered, None)
        if probability is None:
            return
        number, line = probability
        if not _is_number(line):
            raise InputError(path, number, "expected a probability (Meteor's probability/phrase/paraphrase lines)")


def _tab_separated(path: Path, first: int, line: str, numbered: Iterator[Numbered]) -> Iterator[tuple[Numbered, Numbered]]:
    """``phrase<TAB>paraphrase`` lines, from line ``first`` (``line``) on."""
    for number, text in chain([(first, line)], numbered):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fields = text.split("\t")
        if len(fields) < 2:
            raise InputError(path, number, "expected 'phrase<TAB>paraphrase'")
        yield (number, fields[0]), (number, fields[1])


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
