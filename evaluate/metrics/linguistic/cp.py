"""CP — constituency parsing: vertical subpaths (STM), words by preterminal and by phrase (Asiya ``IQ::Scoring::CP``, spec §4).

The tree is stanza's constituency parse or a ``# constituency =`` comment of
given CoNLL-U, normalised as Asiya normalised Charniak's: the root is ``S``,
PTB brackets are the characters, every ``SBAR…`` is ``SBAR``, function tags stay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.linguistic.elements import Constituent, ParsedSentence
from checkpoints.evaluate.metrics.linguistic.identifiers import Identifier
from checkpoints.evaluate.metrics.linguistic.overlap import (
    Bags,
    Pair,
    class_pooled,
    hits_total,
    micro,
    ratio,
    typed,
)
from checkpoints.evaluate.metrics.linguistic.sp import COARSE_CLASSES, coarse_class

MAX_PATH = 9
"""``CP-STM-l`` for subpath lengths 1..9 (Asiya's ``MAXSTM_LENGTH``)."""

Measure = Callable[[ParsedSentence, ParsedSentence], Pair]


def normalised(node: Constituent, *, root: bool = True) -> Constituent:
    """Labels as Asiya compares them; leaves (words) lower-cased."""
    if node.is_leaf:
        return Constituent(node.label.lower())
    label = "S" if root else {"-LRB-": "(", "-RRB-": ")", '"': "''"}.get(node.label, node.label)
    if label.startswith("SBAR"):
        label = "SBAR"
    return Constituent(label, tuple(normalised(child, root=False) for child in node.children))


def tree_of(sentence: ParsedSentence) -> Constituent | None:
    return sentence._cached("cp-tree", lambda: normalised(sentence.tree) if sentence.tree is not None else None)


def _paths(node: Constituent, ancestors: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every root-to-node label path, for every node (phrases, preterminals and words)."""
    path = (*ancestors, node.label)
    yield path
    for child in node.children:
        yield from _paths(child, path)


def subpath_bags(sentence: ParsedSentence) -> dict[int, Counter[str]]:
    """Length → the vertical subpaths of that length ending at any node, labels joined with ``__``."""
    def build() -> dict[int, Counter[str]]:
        bags: dict[int, Counter[str]] = {length: Counter() for length in range(1, MAX_PATH + 1)}
        tree = tree_of(sentence)
        if tree is None:
            return bags
        for path in _paths(tree):
            for length in range(1, min(len(path), MAX_PATH) + 1):
                bags[length]["__".join(path[-length:]).lower()] += 1
        return bags
    return sentence._cached("cp-subpaths", build)


def stm(candidate: ParsedSentence, reference: ParsedSentence, length: int, *, cumulative: bool) -> Pair:
    """``CP-STM-l`` (Σ hits / Σ totals over lengths ≤ l) or ``CP-STMi-l`` (length l alone); a length
    only one side has counts its paths as misses."""
    if tree_of(candidate) is None or tree_of(reference) is None:
        return 0.0, 0.0
    c, r = subpath_bags(candidate), subpath_bags(reference)
    hits = total = 0
    for k in range(1, length + 1) if cumulative else (length,):
        h, t = hits_total(c[k], r[k])
        hits, total = hits + h, total + t
    return ratio(hits, total), 1.0


def _preterminals(node: Constituent, phrases: tuple[str, ...] = ()) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """``(preterminal label, word, phrase labels above it)`` for every word, left to right."""
    if node.is_preterminal:
        yield node.label, node.children[0].label, phrases
        return
    above = (*phrases, node.label) if node.children and not node.children[0].is_leaf else phrases
    for child in node.children:
        yield from _preterminals(child, above)


def preterminal_bags(sentence: ParsedSentence) -> Bags:
    """Preterminal label → its words (lower-cased forms)."""
    def build() -> Bags:
        bags: dict[str, Counter[str]] = {}
        tree = tree_of(sentence)
        for label, word, _ in _preterminals(tree) if tree is not None else ():
            bags.setdefault(label, Counter())[word] += 1
        return bags
    return sentence._cached("cp-preterminals", build)


def phrase_bags(sentence: ParsedSentence) -> Bags:
    """Phrase label → every word under a phrase of that label (once per word and label)."""
    def build() -> Bags:
        bags: dict[str, Counter[str]] = {}
        tree = tree_of(sentence)
        for _, word, phrases in _preterminals(tree) if tree is not None else ():
            for label in set(phrases):
                bags.setdefault(label, Counter())[word] += 1
        return bags
    return sentence._cached("cp-phrases", build)


def cp_measure(identifier: Identifier, language: str | None) -> Measure:
    measure, kind = identifier.measure, identifier.kind
    if measure in ("Op", "Oc") and kind is not None:
        bags = preterminal_bags if measure == "Op" else phrase_bags

        def needs_trees(score: Measure) -> Measure:
            def measured(candidate: ParsedSentence, reference: ParsedSentence) -> Pair:
                if tree_of(candidate) is None or tree_of(reference) is None:
                    return 0.0, 0.0
                return score(candidate, reference)
            return measured

        if kind == "*":
            return needs_trees(lambda candidate, reference: micro(bags(candidate), bags(reference)))
        if measure == "Op" and (language or "").split("-")[0] == "en" and kind.upper() in dict(COARSE_CLASSES):
            wanted = kind.upper()

            def coarse(candidate: ParsedSentence, reference: ParsedSentence) -> Pair:
                c, r = bags(candidate), bags(reference)
                return class_pooled(c, r, {tag for tag in (*c, *r) if coarse_class(tag) == wanted})
            return needs_trees(coarse)
        return needs_trees(lambda candidate, reference: typed(bags(candidate), bags(reference), kind))
    for prefix, cumulative, shortest in (("STM-", True, 1), ("STMi-", False, 2)):
        if measure.startswith(prefix) and kind is None:
            length = measure[len(prefix):]
            if length.isdigit() and shortest <= int(length) <= MAX_PATH:
                size = int(length)
                return lambda candidate, reference: stm(candidate, reference, size, cumulative=cumulative)
    raise UsageError(f"{identifier}: unknown CP metric (CP-STM-{{1..9}}, CP-STMi-{{2..9}}, CP-Op(*|TAG), CP-Oc(*|PHRASE))")
