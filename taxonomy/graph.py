"""A sentence's dependency graph with the indexes the pattern matcher needs.

networkx holds the tree (edges head -> dependent) and answers descendant and
ancestor questions; the plain lists and per-attribute indexes next to it let
the matcher start from the few tokens that can satisfy a node's most selective
constraint instead of trying every token. networkx is imported when the first
graph is made: reading a taxonomy's categories (``import`` checks a suite's
against them) needs none, and networkx is a tenth of a second to import.
"""

from __future__ import annotations

from collections.abc import Mapping
from graphlib import CycleError, TopologicalSorter
from typing import TYPE_CHECKING

from checkpoints.model import Sentence

if TYPE_CHECKING:
    import networkx as nx

ATTRIBUTES = ("form", "lemma", "upos", "xpos", "deprel")


class SentenceGraph:
    """One sentence, 0-based token positions, ``heads[i] == -1`` for the root."""

    __slots__ = (
        "_ancestors",
        "_descendants",
        "_graph",
        "_indexes",
        "_lookups",
        "children",
        "columns",
        "feats",
        "heads",
        "sentence",
    )

    def __init__(self, sentence: Sentence) -> None:
        tokens = sentence.tokens
        self.sentence = sentence
        self.heads: list[int] = [token.head - 1 for token in tokens]
        self.columns: dict[str, list[str]] = {
            "form": [token.form for token in tokens],
            "lemma": [token.lemma for token in tokens],
            "upos": [token.upos for token in tokens],
            "xpos": [token.xpos for token in tokens],
            "deprel": [token.deprel for token in tokens],
        }
        self.feats: list[Mapping[str, str]] = [token.feats for token in tokens]
        self.children: list[list[int]] = [[] for _ in tokens]
        for index, head in enumerate(self.heads):
            if head >= 0:
                self.children[head].append(index)
        self._graph: nx.DiGraph | None = None
        self._indexes: dict[str, dict[str, list[int]]] = {}
        self._lookups: dict[tuple[str, frozenset[str], tuple[str, ...]], list[int]] = {}
        self._descendants: dict[int, frozenset[int]] = {}
        self._ancestors: dict[int, frozenset[int]] = {}

    def __len__(self) -> int:
        return len(self.heads)

    @property
    def graph(self) -> nx.DiGraph:
        """The tree as a networkx graph (head → dependent), built on first use: most sentences
        never need it, since descendants come from :attr:`children`."""
        if self._graph is None:
            import networkx as nx

            graph = nx.DiGraph()
            graph.add_nodes_from(range(len(self.heads)))
            graph.add_edges_from((head, index) for index, head in enumerate(self.heads) if head >= 0)
            self._graph = graph
        return self._graph

    def index(self, attribute: str) -> dict[str, list[int]]:
        """Token positions by value of ``attribute``, built on first use."""
        table = self._indexes.get(attribute)
        if table is None:
            table = {}
            for position, value in enumerate(self.columns[attribute]):
                table.setdefault(value, []).append(position)
            self._indexes[attribute] = table
        return table

    def lookup(self, attribute: str, exact: frozenset[str], prefixes: tuple[str, ...]) -> list[int]:
        """Positions whose ``attribute`` is in ``exact`` or is a subtype of a prefix.

        Memoised per sentence: categories of one taxonomy often start from the
        same constraint (NOUN|PROPN for nouns, plurals and noun phrases).
        """
        key = (attribute, exact, prefixes)
        found = self._lookups.get(key)
        if found is not None:
            return found
        table = self.index(attribute)
        if not prefixes and len(exact) == 1:
            (value,) = exact
            found = table.get(value, [])
        else:
            positions: set[int] = set()
            for value in exact:
                positions.update(table.get(value, ()))
            if prefixes:
                starts = tuple(prefix + ":" for prefix in prefixes)
                for value, where in table.items():
                    if value in prefixes or value.startswith(starts):
                        positions.update(where)
            found = sorted(positions)
        self._lookups[key] = found
        return found

    def descendants(self, node: int) -> frozenset[int]:
        cached = self._descendants.get(node)
        if cached is None:
            self._fill_descendants()
            cached = self._descendants.get(node)
            if cached is None:  # a cyclic (malformed) parse: ask networkx node by node
                import networkx as nx

                cached = frozenset(nx.descendants(self.graph, node))
                self._descendants[node] = cached
        return cached

    def _fill_descendants(self) -> None:
        """Every node's descendants in one pass, leaves first.

        Patterns ask for many subtrees of the same sentence; one walk in
        reverse topological order costs less than a search per node.
        """
        if self._descendants:
            return
        # graphlib rather than networkx's topological sort, which caches a view of the graph on
        # it: a reference cycle per sentence, kept alive while a build pauses the cyclic collector
        children = self.children
        try:  # a node's children are its "predecessors" here, so leaves come first
            leaves_first = list(TopologicalSorter(dict(enumerate(children))).static_order())
        except CycleError:
            return
        table = self._descendants
        for node in leaves_first:
            below: set[int] = set()
            for child in children[node]:
                below.add(child)
                below |= table[child]
            table[node] = frozenset(below)

    def ancestors(self, node: int) -> frozenset[int]:
        cached = self._ancestors.get(node)
        if cached is None:
            import networkx as nx

            cached = frozenset(nx.ancestors(self.graph, node))
            self._ancestors[node] = cached
        return cached

    def subtree(self, node: int) -> set[int]:
        return {node, *self.descendants(node)}

    def span_head(self, positions: tuple[int, ...]) -> int:
        """The first position of a span whose head lies outside the span (its syntactic head)."""
        members = set(positions)
        for position in positions:
            if self.heads[position] not in members:
                return position
        return positions[0]
