"""Word-list files and matching of single- and multi-token entries.

File format (UTF-8, one entry per line; ``#`` starts a comment line)::

    ENTRY
    ENTRY<TAB>TAG[=COUNT] TAG[=COUNT] ...

``ENTRY`` is the text of the entry as tokens joined by the taxonomy's
``join`` string (a space by default: ``take off``; nothing for Chinese:
``史无前例``). Tags are free names with an optional count, e.g. the WordNet
sense counts per UPOS of the ambiguous-word list (``run<TAB>NOUN=16 VERB=41``)
or the dictionary tags of the idiom list (``史无前例<TAB>i``). A taxonomy's
``<wordlist tags=... min-senses=...>`` filters on them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import TaxonomyError
from checkpoints.taxonomy.graph import SentenceGraph
from checkpoints.taxonomy.lexicons import converter

_TAG = re.compile(r"^([^\s=]+)(?:=([0-9]+))?$")

KeyFunction = Callable[[SentenceGraph, int], str]


@dataclass(frozen=True, slots=True)
class WordList:
    """Entries of one word-list file with the prefixes needed for multi-token matching."""

    path: Path
    entries: Mapping[str, Mapping[str, int | None]]
    prefixes: frozenset[str]

    def __len__(self) -> int:
        return len(self.entries)


@functools.cache
def load_wordlist(path: Path, join: str = " ") -> WordList:
    """Parse a word-list file (cached per file and join string)."""
    entries: dict[str, dict[str, int | None]] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise TaxonomyError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    except OSError as error:
        raise TaxonomyError(f"{path}: cannot read word list: {error.strerror}") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        entry, _, tag_text = line.partition("\t")
        entry = entry.strip()
        if not entry:
            raise TaxonomyError(f"{path}:{number}: empty entry before the tab")
        if "\t" in tag_text:
            raise TaxonomyError(f"{path}:{number}: more than one tab; separate tags with spaces")
        tags = entries.setdefault(entry, {})
        for tag in tag_text.split():
            matched = _TAG.match(tag)
            if matched is None:
                raise TaxonomyError(f"{path}:{number}: bad tag {tag!r}: expected NAME or NAME=COUNT")
            count = matched.group(2)
            tags[matched.group(1)] = int(count) if count is not None else None
    if not entries:
        raise TaxonomyError(f"{path}: the word list has no entries")
    return WordList(path, entries, frozenset(_prefixes(entries, join)))


def _prefixes(entries: Mapping[str, object], join: str) -> Iterator[str]:
    """Every proper prefix of an entry that ends at a token boundary.

    With an empty join string any character may be a token boundary (Chinese
    tokens are written without spaces), so every character prefix counts.
    """
    for entry in entries:
        if join:
            parts = entry.split(join)
            for end in range(1, len(parts)):
                yield join.join(parts[:end])
        else:
            for end in range(1, len(entry)):
                yield entry[:end]


def key_functions(match: str, casefold: bool, convert: str | None) -> list[KeyFunction]:
    """The token keys a lexicon lookup tries: ``lemma``, ``form`` or ``lemma|form``.

    With a conversion, each key is tried as written and converted: a list
    holding both scripts (CC-CEDICT's headwords) then matches a word the
    conversion would change, and a list in one script still matches text in
    the other -- including the odd wrongly converted character in
    traditional-script treebanks (髮明 for 發明), which t2s repairs.
    """
    result: list[KeyFunction] = []
    for attribute in match.split("|"):
        result.append(_key_function(attribute, casefold, None))
        if convert is not None:
            result.append(_key_function(attribute, casefold, convert))
    return result


def _key_function(attribute: str, casefold: bool, convert: str | None) -> KeyFunction:
    if convert is None:
        if casefold:
            return lambda graph, position: graph.columns[attribute][position].casefold()
        return lambda graph, position: graph.columns[attribute][position]
    name = convert

    # The converter is looked up at the first token, not when the taxonomy
    # loads, so that showing or validating a Chinese taxonomy works without OpenCC.
    def converted(graph: SentenceGraph, position: int) -> str:
        value = converter(name)(graph.columns[attribute][position])
        return value.casefold() if casefold else value

    return converted


def scan(
    graph: SentenceGraph,
    wordlist: WordList,
    key: KeyFunction,
    join: str,
    max_tokens: int,
) -> Iterator[tuple[tuple[int, ...], Mapping[str, int | None]]]:
    """Every contiguous token span whose joined keys form an entry, with the entry's tags."""
    entries = wordlist.entries
    prefixes = wordlist.prefixes
    size = len(graph)
    for start in range(size):
        text = key(graph, start)
        end = start
        while True:
            tags = entries.get(text)
            if tags is not None:
                yield tuple(range(start, end + 1)), tags
            end += 1
            if end >= size or end - start >= max_tokens or text not in prefixes:
                break
            text = text + join + key(graph, end)
