"""Dependency-graph patterns compiled to a small backtracking matcher.

A pattern names nodes with token constraints and relations between them
(``head=``: this node's head is that node; ``ancestor=``: that node dominates
this one; ``before=``/``after=``: word order), optional nodes that collect
every token fitting them, ``<absent>`` nodes that must match nothing, and
filters (lexicon membership, corpus-mined association and translation
entropy), and ``distinct`` (one match per combination of the nodes' lemmas
or forms in a sentence). Matching binds required nodes one at a time, each
time drawing candidates from the cheapest source -- the children or head of
a node already bound, or an index of the sentence by relation, lemma or POS
-- so a pattern costs a few dictionary lookups per sentence rather than a
subgraph isomorphism search.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from checkpoints.model import SentencePair
from checkpoints.taxonomy.graph import SentenceGraph
from checkpoints.taxonomy.values import FeatsTest, StrTest, ValueSpec

# Relation checks between a candidate token c and the token bound to another slot.
_HEAD_IS = 0  # heads[c] == other
_IS_HEAD_OF = 1  # heads[other] == c
_UNDER = 2  # c is a descendant of other
_OVER = 3  # other is a descendant of c
_BEFORE = 4  # c < other
_AFTER = 5  # c > other

# Candidate sources.
_FROM_CHILDREN = 0
_FROM_HEAD = 1
_FROM_DESCENDANTS = 2
_FROM_ANCESTORS = 3
_FROM_INDEX = 4
_FROM_ALL = 5

# How selective an indexed attribute usually is (lower is better) when
# choosing where matching starts.
_INDEX_PREFERENCE = {"lemma": 0, "form": 0, "deprel": 1, "xpos": 2, "upos": 3}


@dataclass(frozen=True, slots=True, eq=False)
class NodeSpec:
    """A node as written in the taxonomy file (``id`` is None for ``<absent>``)."""

    id: str | None
    attributes: tuple[tuple[str, ValueSpec], ...] = ()
    feats: FeatsTest | None = None
    head: str | None = None
    ancestor: str | None = None
    before: str | None = None
    after: str | None = None
    optional: bool = False
    line: int = 0

    def references(self) -> list[tuple[str, str]]:
        """(attribute, node id) for every relation this node states."""
        refs = [("head", self.head), ("ancestor", self.ancestor), ("before", self.before), ("after", self.after)]
        return [(name, ref) for name, ref in refs if ref is not None]


@dataclass(frozen=True, slots=True)
class CheckpointSpec:
    """Which tokens of a match form the check-point.

    ``nodes`` are taken as they are (an optional node contributes every token
    it collected); each ``subtrees`` node contributes its whole subtree, less
    the dependents whose relation matches ``exclude`` (with their subtrees).
    Punctuation at either edge of a subtree-derived span is trimmed. With
    ``contiguous``, only the unbroken run of words around the first subtree
    root (or first listed node) is kept, so a phrase whose dependent was moved
    away (a fronted wh-word, an inverted auxiliary) stays one stretch of text,
    as a constituent would. Spans outside [min_tokens, max_tokens] are dropped.
    """

    nodes: tuple[str, ...] = ()
    subtrees: tuple[str, ...] = ()
    min_tokens: int = 1
    max_tokens: int | None = None
    exclude: ValueSpec | None = None
    trim_punct: bool = True
    contiguous: bool = False
    line: int = 0


class MinedTable(Protocol):
    """What a corpus-mined filter learnt in ``prepare``: keys it accepts, and a summary."""

    accepted: frozenset[object]
    summary: Mapping[str, object]


class Miner(Protocol):
    def observe(self, graph: SentenceGraph, binding: Mapping[str, int], pair: SentencePair) -> None: ...

    def finish(self) -> MinedTable: ...


class BindingFilter(Protocol):
    """A constraint on a whole match that the token tests cannot express."""

    line: int
    corpus: bool

    def node_ids(self) -> tuple[str, ...]: ...

    def accept(self, graph: SentenceGraph, binding: Mapping[str, int], table: MinedTable | None) -> bool: ...

    def miner(self) -> Miner | None: ...


@dataclass(frozen=True, slots=True)
class _Step:
    slot: int
    source: int
    source_slot: int
    index_attribute: str
    index_exact: frozenset[str]
    index_prefixes: tuple[str, ...]
    tests: tuple[tuple[str, StrTest], ...]
    feats: FeatsTest | None
    checks: tuple[tuple[int, int], ...]


@dataclass(slots=True)
class Pattern:
    """A compiled pattern; build with :func:`compile_pattern`."""

    line: int
    required: tuple[NodeSpec, ...]
    steps: tuple[_Step, ...]
    slot_of: Mapping[str, int]
    optional: tuple[tuple[str, _Step], ...]
    absent: tuple[_Step, ...]
    filters: tuple[BindingFilter, ...]
    checkpoint: CheckpointSpec
    distinct: str | None = None
    _checkpoint_nodes: tuple[tuple[bool, int], ...] = field(default=())
    _checkpoint_subtrees: tuple[int, ...] = field(default=())

    @property
    def corpus_filters(self) -> tuple[BindingFilter, ...]:
        return tuple(f for f in self.filters if f.corpus)

    # -- matching ---------------------------------------------------------

    def bindings(self, graph: SentenceGraph) -> list[tuple[int, ...]]:
        """Every assignment of distinct tokens to the required nodes with no ``<absent>`` match."""
        results: list[tuple[int, ...]] = []
        _extend(graph, self.steps, [-1] * len(self.steps), self.absent, results, 0)
        return results

    def static_bindings(self, graph: SentenceGraph) -> Iterator[dict[str, int]]:
        """Matches that pass every filter not mined from the corpus (what ``prepare`` counts)."""
        seen: set[tuple[str, ...]] = set()
        for slots in self._ordered_bindings(graph):
            binding = self._named(slots)
            if all(f.accept(graph, binding, None) for f in self.filters if not f.corpus):
                if self._repeated(graph, slots, seen):
                    continue
                yield binding

    def spans(self, graph: SentenceGraph, tables: Mapping[BindingFilter, MinedTable]) -> Iterator[tuple[int, ...]]:
        seen: set[tuple[str, ...]] = set()
        for slots in self._ordered_bindings(graph):
            if self.filters:
                binding = self._named(slots)
                if not all(f.accept(graph, binding, tables.get(f)) for f in self.filters):
                    continue
            if self._repeated(graph, slots, seen):
                continue
            collected = [self._collect(graph, step, slots) for _, step in self.optional]
            span = self._span(graph, slots, collected)
            if span is not None:
                yield span

    def _ordered_bindings(self, graph: SentenceGraph) -> list[tuple[int, ...]]:
        """The matches; in word order when ``distinct`` keeps only the first of equal ones."""
        found = self.bindings(graph)
        if self.distinct is not None:
            found.sort(key=sorted)
        return found

    def _repeated(self, graph: SentenceGraph, slots: Sequence[int], seen: set[tuple[str, ...]]) -> bool:
        """With ``distinct``: whether an earlier match of this sentence had the same values at every node.

        A sentence that repeats a word pair ("工業革命 … 工業革命") holds one
        instance of the pair for the check-points and for the counts mined
        from the corpus, so that one sentence cannot make a pair frequent.
        """
        if self.distinct is None:
            return False
        column = graph.columns[self.distinct]
        key = tuple(column[position] for position in slots)
        if key in seen:
            return True
        seen.add(key)
        return False

    def _named(self, slots: Sequence[int]) -> dict[str, int]:
        return {node_id: slots[slot] for node_id, slot in self.slot_of.items()}

    def _collect(self, graph: SentenceGraph, step: _Step, slots: list[int]) -> list[int]:
        return [c for c in _candidates(graph, step, slots) if c not in slots and _accepts(graph, step, c, slots)]

    def _span(self, graph: SentenceGraph, slots: Sequence[int], collected: Sequence[list[int]]) -> tuple[int, ...] | None:
        spec = self.checkpoint
        listed: set[int] = set()
        for is_optional, index in self._checkpoint_nodes:
            if is_optional:
                listed.update(collected[index])
            else:
                listed.add(slots[index])
        from_subtrees: set[int] = set()
        for slot in self._checkpoint_subtrees:
            root = slots[slot]
            members = graph.subtree(root)
            if spec.exclude is not None:
                test = spec.exclude.test
                deprels = graph.columns["deprel"]
                for child in graph.children[root]:
                    if child not in listed and test(deprels[child]):
                        members.discard(child)
                        members.difference_update(graph.descendants(child))
            from_subtrees |= members
        if spec.trim_punct and from_subtrees:
            upos = graph.columns["upos"]
            ordered = sorted(from_subtrees | listed)
            while ordered and ordered[0] not in listed and upos[ordered[0]] == "PUNCT":
                ordered.pop(0)
            while ordered and ordered[-1] not in listed and upos[ordered[-1]] == "PUNCT":
                ordered.pop()
            span = tuple(ordered)
        else:
            span = tuple(sorted(from_subtrees | listed))
        if spec.contiguous and span:
            if self._checkpoint_subtrees:
                anchor = slots[self._checkpoint_subtrees[0]]
            else:
                is_optional, index = self._checkpoint_nodes[0]
                if not is_optional:
                    anchor = slots[index]
                else:
                    anchor = collected[index][0] if collected[index] else span[0]
            span = _run_around(span, anchor)
        if len(span) < spec.min_tokens:
            return None
        if spec.max_tokens is not None and len(span) > spec.max_tokens:
            return None
        return span


def _run_around(span: tuple[int, ...], anchor: int) -> tuple[int, ...]:
    """The maximal run of consecutive positions of ``span`` that contains ``anchor``."""
    if anchor not in span:
        return span
    where = span.index(anchor)
    start = where
    while start > 0 and span[start - 1] == span[start] - 1:
        start -= 1
    end = where
    while end + 1 < len(span) and span[end + 1] == span[end] + 1:
        end += 1
    return span[start : end + 1]


def _candidates(graph: SentenceGraph, step: _Step, slots: Sequence[int]) -> Sequence[int] | frozenset[int] | range:
    source = step.source
    if source == _FROM_CHILDREN:
        return graph.children[slots[step.source_slot]]
    if source == _FROM_HEAD:
        head = graph.heads[slots[step.source_slot]]
        return (head,) if head >= 0 else ()
    if source == _FROM_DESCENDANTS:
        return sorted(graph.descendants(slots[step.source_slot]))
    if source == _FROM_ANCESTORS:
        return sorted(graph.ancestors(slots[step.source_slot]))
    if source == _FROM_INDEX:
        return graph.lookup(step.index_attribute, step.index_exact, step.index_prefixes)
    return range(len(graph))


def _accepts(graph: SentenceGraph, step: _Step, candidate: int, slots: Sequence[int]) -> bool:
    columns = graph.columns
    for attribute, test in step.tests:
        if not test(columns[attribute][candidate]):
            return False
    if step.feats is not None and not step.feats(graph.feats[candidate]):
        return False
    for kind, slot in step.checks:
        other = slots[slot]
        if kind == _HEAD_IS:
            if graph.heads[candidate] != other:
                return False
        elif kind == _IS_HEAD_OF:
            if graph.heads[other] != candidate:
                return False
        elif kind == _UNDER:
            if candidate not in graph.descendants(other):
                return False
        elif kind == _OVER:
            if other not in graph.descendants(candidate):
                return False
        elif kind == _BEFORE:
            if not candidate < other:
                return False
        elif not candidate > other:
            return False
    return True


def _any_match(graph: SentenceGraph, step: _Step, slots: Sequence[int]) -> bool:
    return any(c not in slots and _accepts(graph, step, c, slots) for c in _candidates(graph, step, slots))


# -- compilation -------------------------------------------------------------


def compile_pattern(
    nodes: Sequence[NodeSpec],
    absent: Sequence[NodeSpec],
    filters: Sequence[BindingFilter],
    checkpoint: CheckpointSpec,
    line: int,
    distinct: str | None = None,
) -> Pattern:
    """Order the required nodes for matching and compile every node to a step.

    The caller has checked that references name existing nodes, that no
    required node or subtree refers to an optional node, and that there is at
    least one required node.
    """
    required = [node for node in nodes if not node.optional]
    order = _matching_order(required)
    slot_of = {node.id: position for position, node in enumerate(order) if node.id is not None}
    steps: list[_Step] = []
    for position, node in enumerate(order):
        placed = {n.id: slot_of[n.id] for n in order[:position] if n.id is not None}
        earlier = order[:position]
        steps.append(_step(node, position, placed, earlier))
    all_placed = dict(slot_of)
    optional = tuple((node.id or "", _step(node, -1, all_placed, order)) for node in nodes if node.optional)
    absent_steps = tuple(_step(node, -1, all_placed, ()) for node in absent)
    optional_index = {node_id: index for index, (node_id, _) in enumerate(optional)}
    checkpoint_nodes = tuple(
        (True, optional_index[node_id]) if node_id in optional_index else (False, slot_of[node_id])
        for node_id in checkpoint.nodes
    )
    checkpoint_subtrees = tuple(slot_of[node_id] for node_id in checkpoint.subtrees)
    return Pattern(
        line=line,
        required=tuple(order),
        steps=tuple(steps),
        slot_of=slot_of,
        optional=optional,
        absent=absent_steps,
        filters=tuple(filters),
        checkpoint=checkpoint,
        distinct=distinct,
        _checkpoint_nodes=checkpoint_nodes,
        _checkpoint_subtrees=checkpoint_subtrees,
    )


def _index_rank(node: NodeSpec) -> tuple[int, str, ValueSpec | None]:
    best: tuple[int, str, ValueSpec | None] = (9, "", None)
    for attribute, spec in node.attributes:
        if spec.indexable():
            rank = _INDEX_PREFERENCE[attribute]
            if rank < best[0]:
                best = (rank, attribute, spec)
    return best


def _matching_order(required: Sequence[NodeSpec]) -> list[NodeSpec]:
    """Start from the most selective indexed node, then follow tree edges outwards."""
    remaining = list(required)
    order: list[NodeSpec] = []
    while remaining:
        best = min(remaining, key=lambda node: (_connection(node, order), _index_rank(node)[0]))
        order.append(best)
        remaining.remove(best)
    return order


def _connection(node: NodeSpec, placed: Sequence[NodeSpec]) -> int:
    """0: a head edge joins ``node`` to a placed node; 1: an ancestor edge; 2: none."""
    placed_ids = {other.id for other in placed}
    if node.head in placed_ids or any(other.head == node.id for other in placed):
        return 0
    if node.ancestor in placed_ids or any(other.ancestor == node.id for other in placed):
        return 1
    return 2


def _step(node: NodeSpec, slot: int, placed: Mapping[str, int], earlier: Sequence[NodeSpec]) -> _Step:
    checks: list[tuple[int, int]] = []
    source, source_slot = _FROM_ALL, -1
    # Relations this node states about placed nodes.
    if node.head is not None and node.head in placed:
        checks.append((_HEAD_IS, placed[node.head]))
        source, source_slot = _FROM_CHILDREN, placed[node.head]
    if node.ancestor is not None and node.ancestor in placed:
        checks.append((_UNDER, placed[node.ancestor]))
        if source == _FROM_ALL:
            source, source_slot = _FROM_DESCENDANTS, placed[node.ancestor]
    if node.before is not None and node.before in placed:
        checks.append((_BEFORE, placed[node.before]))
    if node.after is not None and node.after in placed:
        checks.append((_AFTER, placed[node.after]))
    # Relations placed nodes state about this node.
    for other in earlier:
        if other.id is None or node.id is None:
            continue
        other_slot = placed[other.id]
        if other.head == node.id:
            checks.append((_IS_HEAD_OF, other_slot))
            source, source_slot = _FROM_HEAD, other_slot
        if other.ancestor == node.id:
            checks.append((_OVER, other_slot))
            if source in (_FROM_ALL, _FROM_INDEX):
                source, source_slot = _FROM_ANCESTORS, other_slot
        if other.before == node.id:
            checks.append((_AFTER, other_slot))
        if other.after == node.id:
            checks.append((_BEFORE, other_slot))
    _, attribute, spec = _index_rank(node)
    exact: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()
    if source == _FROM_ALL and spec is not None:
        source = _FROM_INDEX
        exact = spec.exact or frozenset()
        prefixes = spec.prefixes
    tests = tuple((name, value.test) for name, value in node.attributes)
    return _Step(
        slot=slot,
        source=source,
        source_slot=source_slot,
        index_attribute=attribute,
        index_exact=exact,
        index_prefixes=prefixes,
        tests=tests,
        feats=node.feats,
        checks=tuple(checks),
    )


def _extend(
    graph: SentenceGraph, steps: Sequence[_Step], slots: list[int], absent: Sequence[_Step],
    results: list[tuple[int, ...]], depth: int,
) -> None:
    """Fill ``slots`` from ``depth`` on, appending each complete binding to ``results``.

    A module function rather than a closure that calls itself: such a closure is
    a reference cycle, which a build (with the cyclic collector paused) would
    keep alive with the sentence graph it holds, for every sentence.
    """
    step = steps[depth]
    last = depth + 1 == len(steps)
    for candidate in _candidates(graph, step, slots):
        if candidate in slots:
            continue
        if not _accepts(graph, step, candidate, slots):
            continue
        slots[step.slot] = candidate
        if last:
            if not absent or not any(_any_match(graph, a, slots) for a in absent):
                results.append(tuple(slots))
        else:
            _extend(graph, steps, slots, absent, results, depth + 1)
        slots[step.slot] = -1
