"""Category rules that are not tree patterns: word lists and reduplication.

A category holds one or more rules; each rule turns a sentence graph into
token spans. Tree patterns live in :mod:`checkpoints.taxonomy.pattern`; the
two kinds here scan the token sequence instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from checkpoints.taxonomy.filters import inside_listed_run
from checkpoints.taxonomy.graph import SentenceGraph
from checkpoints.taxonomy.pattern import BindingFilter, MinedTable
from checkpoints.taxonomy.values import ValueSpec
from checkpoints.taxonomy.wordlist import KeyFunction, WordList, load_wordlist, scan


@dataclass(eq=False, slots=True)
class WordListRule:
    """Tokens or contiguous token sequences whose keys, joined, are a word-list entry.

    ``head`` constrains the syntactic head of the matched span (the token
    whose head lies outside it) by its attributes (upos, xpos, deprel, lemma,
    form), so a multi-word entry such as "take off" is checked on "take".
    ``tags`` keeps entries carrying one of the tags; ``min_senses`` keeps
    entries whose count reaches it, read from the tag ``sense_tag`` or, when
    that is None, from the tag named after the head's UPOS (``VERB=41``): a
    word list without parts of speech (CC-CEDICT's sense counts) names its
    count tag, one with them lets the token's part of speech choose.
    ``unsplit`` drops a span that lies inside a longer run of adjacent tokens
    (at least ``unsplit_chars`` characters) which it says is one word, unless
    the span is a listed word of two characters or more itself
    (:func:`~checkpoints.taxonomy.filters.inside_listed_run`): 中 of 中 /
    世紀 is not the ambiguous word 中, but 活動 of 競選 / 活動 is 活動.
    """

    path: Path
    keys: list[KeyFunction]
    join: str = " "
    tags: frozenset[str] | None = None
    head: tuple[tuple[str, ValueSpec], ...] = ()
    min_senses: int | None = None
    sense_tag: str | None = None
    max_tokens: int = 8
    unsplit: Callable[[str], bool] | None = None
    unsplit_chars: int = 3
    line: int = 0
    _list: WordList | None = None

    @property
    def corpus_filters(self) -> tuple[BindingFilter, ...]:
        return ()

    def wordlist(self) -> WordList:
        if self._list is None:
            self._list = load_wordlist(self.path, self.join)
        return self._list

    def spans(self, graph: SentenceGraph, tables: Mapping[BindingFilter, MinedTable]) -> Iterator[tuple[int, ...]]:
        wordlist = self.wordlist()
        columns = graph.columns
        for key in self.keys:
            for span, tags in scan(graph, wordlist, key, self.join, self.max_tokens):
                if self.tags is not None and not any(tag in tags for tag in self.tags):
                    continue
                if self.head or self.min_senses is not None:
                    head = graph.span_head(span)
                    if not all(spec.test(columns[attribute][head]) for attribute, spec in self.head):
                        continue
                    if self.min_senses is not None:
                        count_tag = self.sense_tag if self.sense_tag is not None else columns["upos"][head]
                        if (tags.get(count_tag) or 0) < self.min_senses:
                            continue
                if self.unsplit is not None and inside_listed_run(
                    graph, span, key, self.unsplit, self.unsplit_chars, words_stay=True
                ):
                    continue
                yield span


_VARIABLES = frozenset("AB")


@dataclass(frozen=True, slots=True)
class Shape:
    """A reduplication shape: ``A`` and ``B`` stand for two different characters, others are literal."""

    text: str

    def matches(self, word: str, unit: Callable[[str], bool]) -> bool:
        if len(word) != len(self.text):
            return False
        bound: dict[str, str] = {}
        for symbol, char in zip(self.text, word, strict=True):
            if symbol in _VARIABLES:
                if not unit(char):
                    return False
                previous = bound.setdefault(symbol, char)
                if previous != char:
                    return False
            elif symbol != char:
                return False
        values = list(bound.values())
        return len(set(values)) == len(values)


def parse_shapes(text: str) -> tuple[Shape, ...]:
    """Shapes separated by spaces; each needs ``A`` at least twice (a repetition)."""
    shapes = []
    for item in text.split():
        if item.count("A") < 2:
            raise ValueError(f"reduplication shape {item!r} does not repeat A")
        shapes.append(Shape(item))
    if not shapes:
        raise ValueError("no reduplication shapes given")
    return tuple(shapes)


@dataclass(eq=False, slots=True)
class ReduplicationRule:
    """Words built by repetition (AA 看看, AABB 高高兴兴, ABAB 研究研究, A一A 看一看).

    A shape is realised inside one token, or -- when ``across_tokens`` -- by 2
    to 4 adjacent whole tokens (看 看, 看 一 看), as parsers split them either
    way. ``upos`` constrains the first token; ``chars`` is the regular
    expression each repeated character must match (letters by default, so
    that punctuation runs and digits never count). ``unlisted`` tells whether
    the repeated form, written without spaces, is a word of a lexicon
    (``<reduplication unlisted="cedict">``, see
    :func:`~checkpoints.taxonomy.lexicons.lexicon_lookup`); such forms are
    dropped, because a reduplicated form the dictionary lists as a word of its
    own (往往 "usually", 僅僅 "merely") is vocabulary, not a product of
    reduplication.
    """

    shapes: tuple[Shape, ...]
    chars: re.Pattern[str]
    upos: ValueSpec | None = None
    across_tokens: bool = True
    unlisted: Callable[[str], bool] | None = None
    line: int = 0

    @property
    def corpus_filters(self) -> tuple[BindingFilter, ...]:
        return ()

    def spans(self, graph: SentenceGraph, tables: Mapping[BindingFilter, MinedTable]) -> Iterator[tuple[int, ...]]:
        forms = graph.columns["form"]
        upos = graph.columns["upos"]
        longest = max(len(shape.text) for shape in self.shapes)
        unit = self._unit
        for start in range(len(forms)):
            if self.upos is not None and not self.upos.test(upos[start]):
                continue
            text = forms[start]
            last = start if not self.across_tokens else min(len(forms) - 1, start + longest - 1)
            for end in range(start, last + 1):
                if end > start:
                    text += forms[end]
                if len(text) > longest:
                    break
                if any(shape.matches(text, unit) for shape in self.shapes):
                    if self.unlisted is not None and self.unlisted(text):
                        continue
                    yield tuple(range(start, end + 1))

    def _unit(self, char: str) -> bool:
        return self.chars.fullmatch(char) is not None
