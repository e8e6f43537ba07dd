"""DP — dependency parsing: words by category, relation and depth, and head-word chains (Asiya ``IQ::Scoring::DP``, spec §3).

Asiya read MINIPAR's trees; here the UD tree stanza gives: a word's category
is its UPOS, its relation its full deprel (``nsubj:pass``), the root word's
relation ``root``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence, bags_of
from checkpoints.evaluate.metrics.linguistic.identifiers import Identifier
from checkpoints.evaluate.metrics.linguistic.overlap import Bags, Pair, hits_total, ratio, typed

MAX_LEVEL = 9
"""``DP-Ol(l)`` for levels 1..9; deeper words count in every level above them."""
MAX_CHAIN = 4
"""HWCM's longest chain (Asiya's ``DMAX``)."""

Measure = Callable[[ParsedSentence, ParsedSentence], Pair]


def category_bags(sentence: ParsedSentence) -> Bags:
    """UPOS → lower-cased forms."""
    return sentence._cached("dp-categories", lambda: bags_of((word.upos, word.form.lower()) for word in sentence.words))


def relation_bags(sentence: ParsedSentence) -> Bags:
    """Relation → the forms of the subtree of every word with that relation (a word counts once per
    ancestor-or-self with the relation)."""
    return sentence._cached("dp-relations", lambda: bags_of(
        (word.deprel, sentence.word(index).form.lower()) for word in sentence.words for index in sentence.subtree(word.index)))


def level_bags(sentence: ParsedSentence) -> Bags:
    """Level l (1..9, as text) → the forms of every word at depth l or deeper."""
    return sentence._cached("dp-levels", lambda: bags_of(
        (str(level), word.form.lower()) for word in sentence.words
        for level in range(1, min(sentence.levels.get(word.index, 1), MAX_LEVEL) + 1)))


def chain_bags(sentence: ParsedSentence, label: str) -> dict[int, Counter[str]]:
    """Length (1..4) → the head-word chains of that length, labelled by term (``w``), category (``c``)
    or relation (``r``) and joined with ``_``.

    A chain is a sequence of words each a proper descendant — not necessarily
    a child — of the one before: Asiya builds them by prepending a word to
    every chain of its whole subtree.
    """
    def build() -> dict[int, Counter[str]]:
        name = {
            "w": lambda index: sentence.word(index).form.lower(),
            "c": lambda index: sentence.word(index).upos.lower(),
            "r": lambda index: sentence.word(index).deprel.lower(),
        }[label]
        # starting[i][k]: the chains of length k+1 that start at word i; below[i][k]: those that start
        # at any proper descendant of i. Chains are counted by text, so a long flat sentence costs
        # the number of distinct chains, not the number of chains. Plain dicts, not Counters: this
        # runs for every word of every text, and Counter's generic update dominates otherwise.
        starting: dict[int, list[dict[str, int]]] = {}
        below: dict[int, list[dict[str, int]]] = {}
        totals: list[dict[str, int]] = [{} for _ in range(MAX_CHAIN)]
        for index in sorted(sentence.levels, key=lambda i: -sentence.levels[i]):  # descendants first
            under: list[dict[str, int]] = [{} for _ in range(MAX_CHAIN - 1)]
            for child in sentence.children.get(index, ()):  # each child is read by its head only
                from_child, from_below = starting.pop(child), below.pop(child)
                for k in range(MAX_CHAIN - 1):
                    _add(under[k], from_child[k])
                    _add(under[k], from_below[k])
            own = name(index)
            chains = [{own: 1}, *({f"{own}_{chain}": count for chain, count in under[k].items()}
                                  for k in range(MAX_CHAIN - 1))]
            starting[index], below[index] = chains, under
            for total, found in zip(totals, chains, strict=True):
                _add(total, found)
        return {length: Counter(total) for length, total in enumerate(totals, start=1)}
    return sentence._cached(f"dp-chains-{label}", build)


def _add(into: dict[str, int], counts: dict[str, int]) -> None:
    get = into.get
    for key, count in counts.items():
        into[key] = get(key, 0) + count


def hwcm(candidate: ParsedSentence, reference: ParsedSentence, label: str, length: int, *, cumulative: bool) -> Pair:
    """``DP-HWCM_x-k`` (Σ hits / Σ totals over lengths ≤ k) or ``DP-HWCMi_x-k`` (length k alone)."""
    counts = chain_counts(candidate, reference, label)
    if counts is None:
        return 0.0, 0.0
    lengths = range(1, length + 1) if cumulative else (length,)
    hits = sum(counts[k - 1][0] for k in lengths)
    total = sum(counts[k - 1][1] for k in lengths)
    return ratio(hits, total), 1.0


def chain_counts(candidate: ParsedSentence, reference: ParsedSentence, label: str) -> list[tuple[int, int]] | None:
    """Hits and totals of each chain length for one candidate against one reference (None when a
    side has no chain), computed once and read by the seven HWCM measures of a label."""
    table = candidate._cached(f"dp-hwcm-{label}", dict)
    found = table.get(id(reference))
    if found is None or found[0] is not reference:  # the reference is kept with its counts, so ids stay unique
        c, r = chain_bags(candidate, label), chain_bags(reference, label)
        counts = None if not c[1] or not r[1] else [hits_total(c[k], r[k]) for k in range(1, MAX_CHAIN + 1)]
        found = table[id(reference)] = (reference, counts)
    return found[1]


def macro(candidate: Bags, reference: Bags) -> Pair:
    """``DP-X(*)``: Σ over the types present on either side of the type's O, with as weight the number
    of such types, so a system's value is the mean over all (segment, type) pairs."""
    kinds = set(candidate) | set(reference)
    empty: Counter[str] = Counter()
    return sum(ratio(*hits_total(candidate.get(k, empty), reference.get(k, empty))) for k in kinds), float(len(kinds))


def dp_measure(identifier: Identifier) -> Measure:
    measure, kind = identifier.measure, identifier.kind
    if kind is not None and measure in ("Oc", "Or", "Ol"):
        bags = {"Oc": category_bags, "Or": relation_bags, "Ol": level_bags}[measure]
        if kind == "*":
            return lambda candidate, reference: macro(bags(candidate), bags(reference))
        if measure == "Ol" and not (kind.isdigit() and 1 <= int(kind) <= MAX_LEVEL):
            raise UsageError(f"{identifier}: DP-Ol takes a level from 1 to {MAX_LEVEL}, or *")
        return lambda candidate, reference: typed(bags(candidate), bags(reference), kind)
    for prefix, cumulative, shortest in (("HWCM_", True, 1), ("HWCMi_", False, 2)):
        if measure.startswith(prefix) and kind is None:
            label, dash, length = measure[len(prefix):].partition("-")
            if label in ("w", "c", "r") and dash and length.isdigit() and shortest <= int(length) <= MAX_CHAIN:
                size = int(length)
                return lambda candidate, reference: hwcm(candidate, reference, label, size, cumulative=cumulative)
    raise UsageError(f"{identifier}: unknown DP metric (DP-HWCM_{{w,c,r}}-{{1..4}}, DP-HWCMi_{{w,c,r}}-{{2..4}}, "
                     "DP-Oc(*|UPOS), DP-Or(*|deprel), DP-Ol(*|1..9))")
