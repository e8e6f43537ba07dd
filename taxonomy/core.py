"""Loaded taxonomies: categories with their rules, corpus preparation, check-point finding."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from checkpoints.model import Category, ReferenceMode, Sentence, SentencePair
from checkpoints.taxonomy.graph import SentenceGraph
from checkpoints.taxonomy.pattern import BindingFilter, MinedTable, Miner, Pattern


@dataclass(frozen=True, slots=True)
class Found:
    """One check-point found in a sentence.

    ``indices`` are 0-based token positions, sorted and distinct (possibly
    non-contiguous); ``constituent_labels`` are the constituency labels the
    category accepts, for a constituency-based noise filter; ``reference``
    says how the check-point's reference is made (:class:`ReferenceMode`).
    """

    category: str
    indices: tuple[int, ...]
    constituent_labels: tuple[str, ...] = ()
    reference: ReferenceMode = ReferenceMode.ALIGNED


class Rule(Protocol):
    line: int

    @property
    def corpus_filters(self) -> tuple[BindingFilter, ...]: ...

    def spans(self, graph: SentenceGraph, tables: Mapping[BindingFilter, MinedTable]) -> Iterator[tuple[int, ...]]: ...


@dataclass(slots=True)
class CategoryRules:
    """A category and the rules that find its check-points (matches are unioned)."""

    category: Category
    rules: list[Rule]
    constituent_labels: tuple[str, ...] = ()
    line: int = 0
    reference: ReferenceMode = ReferenceMode.ALIGNED


@dataclass(slots=True)
class Taxonomy:
    """A check-point taxonomy loaded from an XML file (see :func:`load_taxonomy`)."""

    name: str
    language: str
    version: str
    description: str
    path: Path | None
    entries: list[CategoryRules] = field(default_factory=list)
    builtin: bool = False

    @property
    def categories(self) -> list[Category]:
        return [entry.category for entry in self.entries]

    def category(self, name: str) -> Category:
        for entry in self.entries:
            if entry.category.name == name:
                return entry.category
        raise KeyError(name)

    def prepare(self, corpus: Iterable[SentencePair], size: int | None = None) -> PreparedTaxonomy:
        """Mine the corpus-dependent resources once per build and return the matcher.

        Translation entropy needs the pairs' alignments; association strength
        only the source parses. Categories without corpus filters cost nothing
        here. The corpus is read once, in order, so a build can stream it; a
        taxonomy without corpus filters does not read it and takes its ``size``
        (default: ``len(corpus)``).
        """
        patterns: list[tuple[Pattern, list[tuple[BindingFilter, Miner]]]] = []
        for entry in self.entries:
            for rule in entry.rules:
                if isinstance(rule, Pattern) and rule.corpus_filters:
                    patterns.append((rule, [(f, _miner(f)) for f in rule.corpus_filters]))
        seen = 0
        for seen, pair in enumerate(corpus if patterns else (), start=1):  # noqa: B007 - counted for after the loop
            graph = SentenceGraph(pair.source)
            for pattern, miners in patterns:
                for binding in pattern.static_bindings(graph):
                    for _, miner in miners:
                        miner.observe(graph, binding, pair)
        tables: dict[BindingFilter, MinedTable] = {
            f: miner.finish() for _, miners in patterns for f, miner in miners
        }
        resources: dict[str, object] = {}
        for entry in self.entries:
            summaries = [dict(tables[f].summary) for rule in entry.rules for f in rule.corpus_filters]
            if summaries:
                resources[entry.category.name] = summaries[0] if len(summaries) == 1 else summaries
        if not patterns:
            seen = size if size is not None else len(corpus)  # type: ignore[arg-type]
        resources["sentence_pairs"] = seen
        return PreparedTaxonomy(self, tables, resources)


@dataclass(slots=True)
class PreparedTaxonomy:
    """A taxonomy with its corpus-mined resources, ready to find check-points."""

    taxonomy: Taxonomy
    tables: Mapping[BindingFilter, MinedTable]
    resources: dict[str, object]

    def find(self, sentence: Sentence) -> list[Found]:
        """Every check-point of every category in ``sentence``, in taxonomy order then span order."""
        graph = SentenceGraph(sentence)
        found: list[Found] = []
        tables = self.tables
        for entry in self.taxonomy.entries:
            spans: set[tuple[int, ...]] = set()
            for rule in entry.rules:
                spans.update(rule.spans(graph, tables))
            name = entry.category.name
            labels, reference = entry.constituent_labels, entry.reference
            found.extend(Found(name, span, labels, reference) for span in sorted(spans))
        return found


def _miner(corpus_filter: BindingFilter) -> Miner:
    miner = corpus_filter.miner()
    if miner is None:  # a filter marked corpus=True always has a miner
        raise TypeError(f"{type(corpus_filter).__name__} is a corpus filter without a miner")
    return miner
