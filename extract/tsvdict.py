"""Tab-separated dictionaries: one ``source<TAB>target`` entry per line.

The simplest format a user can write by hand or export from anything;
``#`` starts a comment line and blank lines are skipped.
"""

from __future__ import annotations

from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.extract.lexicon import Lexicon
from checkpoints.io.lines import read_lines


def read_tsv_dictionary(path: str | Path) -> Lexicon:
    lexicon = Lexicon(kind="tsv", origin=Path(path).name)
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) != 2 or not columns[0].strip() or not columns[1].strip():
            raise InputError(path, number, "expected 'source<TAB>target'")
        lexicon.add(columns[0], columns[1])
    if not lexicon.entries:
        raise InputError(path, None, "the dictionary has no entries")
    return lexicon
