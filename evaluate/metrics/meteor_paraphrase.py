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
    table = _Table(path)
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8", newline="\n") as handle:  # type: ignore[operator]
            numbered = enumerate(handle, start=1)
            for number, line in numbered:
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                if "\t" not in line and _is_number(line):
                    _read_meteor(table, number, handle)
                else:
                    _read_tab_separated(table, chain([(number, line)], numbered))
                break
    except UnicodeDecodeError as error:
        raise InputError(path, None, f"not UTF-8 text ({error.reason})") from None
    except (OSError, EOFError) as error:
        raise InputError(path, None, f"cannot read paraphrase table ({error})") from None
    if not table.entries:
        raise InputError(path, None, "paraphrase table has no pairs")
    return ParaphraseTable(table.entries, table.max_phrase, table.longest)


class _Table:
    """The entries read so far: a phrase's paraphrases in file order, and the longest phrases."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[str, list[str]] = {}
        self.max_phrase = self.longest = 0

    def add(self, phrase_line: int, phrase: str, paraphrase_line: int, paraphrase: str) -> None:
        first, second = phrase.split(), paraphrase.split()
        if not first or not second:
            raise InputError(self.path, paraphrase_line if first else phrase_line, "empty phrase in paraphrase pair")
        if first == second:
            return
        self.entries.setdefault(" ".join(first), []).append(" ".join(second))
        if len(first) > self.max_phrase:
            self.max_phrase = len(first)
        if len(first) > self.longest or len(second) > self.longest:
            self.longest = max(len(first), len(second))


def _read_meteor(table: _Table, first: int, lines: Iterator[str]) -> None:
    """Meteor's probability / phrase / paraphrase lines, the first probability (line ``first``) read.

    The 5.3 million entries of Meteor's English table make this the hot loop:
    line numbers are counted, not enumerated.
    """
    add = table.add
    number = first
    for phrase in lines:
        paraphrase = next(lines, None)
        if paraphrase is None:
            break
        add(number + 1, phrase, number + 2, paraphrase)
        probability = next(lines, None)
        if probability is None:
            return
        number += 3
        if not _is_number(probability):
            raise InputError(table.path, number, "expected a probability (Meteor's probability/phrase/paraphrase lines)")
    raise InputError(table.path, number, "incomplete entry: expected a probability, a phrase and a paraphrase line")


def _read_tab_separated(table: _Table, numbered: Iterator[tuple[int, str]]) -> None:
    """``phrase<TAB>paraphrase`` lines."""
    for number, text in numbered:
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fields = text.rstrip("\r\n").split("\t")
        if len(fields) < 2:
            raise InputError(table.path, number, "expected 'phrase<TAB>paraphrase'")
        table.add(number, fields[0], number, fields[1])


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
