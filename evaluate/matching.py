"""Check-point n-gram matching (Zhou et al. 2008, §5).

A check-point reference is a token sequence that may contain ``*`` gaps
("They * playing"). Its **n-grams** are all its contiguous sub-sequences that
neither start nor end with ``*``: "playing a drum" has 6, "They * playing"
has 3 (They; playing; They * playing). Consecutive gaps count as one gap, and
gaps at either end are dropped, since no n-gram can start or end there.

How often an n-gram *matches* a candidate translation:

- an n-gram without a gap matches at every position where it occurs,
  overlapping occurrences included (as BLEU counts n-grams);
- an n-gram with gaps ``P1 * P2 * ... * Pk`` matches where its parts occur in
  order, each part starting at or after the end of the previous one, with any
  number of words (zero or more) in between. Its count is the number of
  **non-overlapping** occurrences found greedily from left to right: take the
  earliest ``P1``, then the earliest ``P2`` after it, ..., count one, and go on
  after the end of ``Pk``. Taking the earliest part each time ends every
  occurrence as early as possible, so the greedy count is also the largest
  number of non-overlapping occurrences.

Matches are **clipped** as in BLEU: an n-gram that occurs k times in the
reference counts at most k times, so a reference's matched count is
``Σ min(count in reference, matches in candidate)`` and its total is the number
of its n-grams ``Σ count in reference``.

Words are compared after tokenization with the same match tokenizer on both
sides (:func:`reference_match_tokens`, :func:`candidate_match_tokens`) and after
the granularity's normalisation (:func:`normalizer`: exact form, lower case, or
Snowball stem of the lower-cased word).

Two implementations share this definition. The functions
(:func:`reference_ngrams`, :func:`match_counts`, :func:`matched_ngrams`) work on
one reference and one candidate and serve drill-down and as the executable
definition. :class:`ReferenceIndex` compiles every reference of a suite once
(an n-gram trie over interned tokens) and matches a whole system output with
numpy, which is what makes evaluating hundreds of thousands of check-points
per second possible; tests check that both agree.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from enum import StrEnum

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.stemming import get_stemmer
from checkpoints.model import GAP
from checkpoints.tokenizers import Tokenize

Ngram = tuple[str, ...]


class MatchMode(StrEnum):
    """Matching granularity (Zhou §5): exact form, lower case, or Snowball stem."""

    NORMAL = "normal"
    LOWER = "lower"
    STEM = "stem"


def match_mode(value: MatchMode | str) -> MatchMode:
    """Parse ``--match``; an unknown value is a usage error naming the choices."""
    try:
        return MatchMode(value)
    except ValueError:
        choices = ", ".join(mode.value for mode in MatchMode)
        raise UsageError(f"unknown match mode {value!r} (choose from {choices})") from None


def normalizer(mode: MatchMode | str, language: str | None = None) -> Callable[[str], str]:
    """The word → matching form function for a granularity.

    ``stem`` lower-cases before stemming: the Snowball algorithms are defined
    on lower-case words (an upper-case vowel is not a vowel to them), so
    stemming mixed-case text would both miss suffixes and keep case
    differences that lower-case matching already forgives.
    """
    mode = match_mode(mode)
    if mode is MatchMode.NORMAL:
        return _identity
    if mode is MatchMode.LOWER:
        return str.lower
    stem = get_stemmer(language or "")

    def lower_stem(word: str) -> str:
        return stem(word.lower())

    return lower_stem


def _identity(word: str) -> str:
    return word


ASTERISK = "\ue000*"
"""A literal ``*`` in a text, kept apart from the gap marker while matching.

Tokenizers split "f*ck" or "5*3" around the asterisk; inside a reference
stretch or a candidate that word must stay a word (matching only a literal
asterisk), not become a gap.
"""


def reference_match_tokens(tokens: Sequence[str], tokenize: Tokenize) -> list[str]:
    """A stored reference (parser tokens with ``*``) re-tokenized for matching.

    Each gap-free stretch is joined and tokenized with the match tokenizer, so
    that the reference and the candidate are cut into words the same way;
    one ``*`` is kept between non-empty stretches.
    """
    out: list[str] = []
    for stretch in _stretches(tokens):
        words = literal_asterisks(tokenize(" ".join(stretch)))
        if not words:
            continue
        if out:
            out.append(GAP)
        out.extend(words)
    return out


def candidate_match_tokens(text: str, tokenize: Tokenize) -> list[str]:
    """A system translation tokenized for matching (an asterisk in it is a word)."""
    return literal_asterisks(tokenize(text))


def literal_asterisks(words: list[str]) -> list[str]:
    """Words as produced by a tokenizer, with a ``*`` word marked as literal."""
    return [ASTERISK if word == GAP else word for word in words] if GAP in words else words


def _stretches(tokens: Sequence[str]) -> list[list[str]]:
    stretches: list[list[str]] = [[]]
    for token in tokens:
        if token == GAP:
            stretches.append([])
        else:
            stretches[-1].append(token)
    return [stretch for stretch in stretches if stretch]


def normalize_tokens(tokens: Sequence[str], normalize: Callable[[str], str]) -> list[str]:
    """Apply a granularity to every word, keeping ``*`` gaps as they are."""
    return [token if token == GAP else normalize(token) for token in tokens]


def reference_parts(tokens: Sequence[str]) -> list[tuple[str, ...]]:
    """The gap-free parts of a reference: "a b * c" → [("a", "b"), ("c",)]."""
    return [tuple(stretch) for stretch in _stretches(tokens)]


DEFAULT_MAX_ORDER = 4
"""Longest n-gram counted, in words (gaps excluded), as in BLEU.

Zhou §5 counts "all grams", which makes a long reference's credit a cubic
sum dominated by long n-grams that no translation reproduces: a 28-word
sentence has 406 n-grams, 378 of them longer than 4 words, and every
sentence-level category then scores about 0.06 whatever the system.
"""


def parse_max_order(value: int | str | None) -> int | None:
    """``--max-order``: a positive number of words, or ``all`` (None: every order, Zhou's literal count)."""
    if value is None or (isinstance(value, str) and value.strip().lower() == "all"):
        return None
    try:
        order = int(value)
    except ValueError:
        raise UsageError(f"--max-order {value!r}: give a positive number of words or 'all'") from None
    if order < 1:
        raise UsageError(f"--max-order {order}: give a positive number of words or 'all'")
    return order


def order_label(max_order: int | None) -> str:
    """How runs and signatures name a maximum order: ``4`` or ``all``."""
    return "all" if max_order is None else str(max_order)


def ngram_order(ngram: Sequence[str]) -> int:
    """The number of words of an n-gram, gaps excluded: "They * playing" is a 2-gram."""
    return sum(1 for word in ngram if word != GAP)


def reference_ngram_list(tokens: Sequence[str], max_order: int | None = None) -> list[Ngram]:
    """Every n-gram occurrence of a reference up to ``max_order`` words, in a fixed order (with repeats).

    The order depends only on the positions of words and gaps, so a reference
    and its lower-cased or stemmed form list corresponding n-grams at the
    same index (drill-down shows the matched n-grams in their original form).
    An n-gram with gaps is a tuple with one ``*`` between its parts:
    ``("They", "*", "playing")``; its order counts its words only.
    """
    limit = max_order if max_order is not None else len(tokens)
    parts = reference_parts(tokens)
    out: list[Ngram] = []
    for part in parts:
        for start in range(len(part)):
            for end in range(start + 1, min(len(part), start + limit) + 1):
                out.append(part[start:end])
    for first in range(len(parts)):
        for last in range(first + 1, len(parts)):
            middle: list[str] = []
            for part in parts[first + 1 : last]:
                middle.extend((GAP, *part))
            inside = sum(len(part) for part in parts[first + 1 : last])
            head, tail = parts[first], parts[last]
            for start in range(len(head)):
                for end in range(1, len(tail) + 1):
                    if len(head) - start + inside + end <= limit:
                        out.append((*head[start:], *middle, GAP, *tail[:end]))
    return out


def reference_ngrams(tokens: Sequence[str], max_order: int | None = None) -> Counter[Ngram]:
    """All n-grams of a reference up to ``max_order`` words, with their counts (see the module docstring)."""
    return Counter(reference_ngram_list(tokens, max_order))


def _occurrences(part: Sequence[str], candidate: Sequence[str]) -> list[int]:
    size = len(part)
    target = tuple(part)
    return [i for i in range(len(candidate) - size + 1) if tuple(candidate[i : i + size]) == target]


def ngram_matches(ngram: Sequence[str], candidate: Sequence[str]) -> int:
    """How many times an n-gram matches a candidate (before clipping)."""
    parts = reference_parts(ngram)
    if len(parts) == 1:
        return len(_occurrences(parts[0], candidate))
    starts = [_occurrences(part, candidate) for part in parts]
    count = 0
    cursor = 0
    while True:
        for part, positions in zip(parts, starts, strict=True):
            index = bisect_left(positions, cursor)
            if index == len(positions):
                return count
            cursor = positions[index] + len(part)
        count += 1


def clipped_matches(
    reference_tokens: Sequence[str], candidate_tokens: Sequence[str], max_order: int | None = None
) -> list[tuple[Ngram, int, int]]:
    """Each n-gram of the reference with its reference count and clipped matches."""
    return [
        (ngram, count, min(count, ngram_matches(ngram, candidate_tokens)))
        for ngram, count in reference_ngrams(reference_tokens, max_order).items()
    ]


def match_counts(
    reference_tokens: Sequence[str], candidate_tokens: Sequence[str], max_order: int | None = None
) -> tuple[int, int]:
    """``(matched, total)`` n-grams of one reference against one candidate."""
    rows = clipped_matches(reference_tokens, candidate_tokens, max_order)
    return sum(matched for _, _, matched in rows), sum(count for _, count, _ in rows)


def matched_ngrams(
    reference_tokens: Sequence[str], candidate_tokens: Sequence[str], max_order: int | None = None
) -> list[Ngram]:
    """The matched n-grams, each repeated as often as it counts after clipping."""
    out: list[Ngram] = []
    for ngram, _, matched in clipped_matches(reference_tokens, candidate_tokens, max_order):
        out.extend([ngram] * matched)
    return out


def ngram_text(ngram: Sequence[str]) -> str:
    """``("They", "*", "playing")`` → ``"They * playing"`` (a literal asterisk shows as ``*`` too)."""
    return " ".join(ngram).replace(ASTERISK, GAP)


class ReferenceIndex:
    """Every reference of a suite compiled once, matched against whole system outputs.

    Words are interned to integers (0 = a word no reference contains). Every
    gap-free n-gram of every reference is a node of one trie: a node is
    identified by its parent (the n-gram minus its last word) and its last
    word, so the n-grams of a candidate are found level by level with one
    sorted-array lookup per level for the whole system output. A reference
    becomes a list of entries (trie node or gapped parts, count in the
    reference), and clipped sums are ``np.minimum`` plus ``np.bincount``.

    Usage: :meth:`add` every reference (with the index of its sentence pair),
    then :meth:`match` candidate word ids (:meth:`word_id`) per pair.
    """

    _SHIFT = 32
    """Trie keys while building: ``parent << 32 | word`` (ints hash faster than tuples)."""

    def __init__(self, max_order: int | None = None) -> None:
        self.max_order = max_order
        self._limit = max_order if max_order is not None else 2**31
        self._vocabulary: dict[str, int] = {}
        self._children: dict[int, int] = {}
        self._depth = array("q", [0])
        # compact int64 arrays: a suite has millions of entries
        self._row_pair = array("q")
        self._totals = array("q")
        self._plain = (array("q"), array("q"), array("q"))
        self._gapped: tuple[array[int], list[tuple[int, ...]], array[int]] = (array("q"), [], array("q"))
        self._frozen = False

    # -- building -----------------------------------------------------------

    def _word(self, word: str) -> int:
        index = self._vocabulary.get(word)
        if index is None:
            index = self._vocabulary[word] = len(self._vocabulary) + 1
        return index

    def _grid(self, part: list[int]) -> list[list[int]]:
        """``grid[s][k]``: the trie node of ``part[s : s + k + 1]`` (created when new)."""
        children, depth, shift = self._children, self._depth, self._SHIFT
        grid = []
        for start in range(len(part)):
            node = 0
            nodes = []
            for word in part[start : start + self._limit]:
                key = node << shift | word
                child = children.get(key)
                if child is None:
                    child = children[key] = len(depth)
                    depth.append(depth[node] + 1)
                node = child
                nodes.append(node)
            grid.append(nodes)
        return grid

    def add(self, pair: int, tokens: Sequence[str]) -> int:
        """Add one reference (match tokens with ``*``, already normalised); returns its row."""
        if self._frozen:
            raise RuntimeError("the index is frozen: add every reference before matching")
        parts = [[self._word(word) for word in part] for part in reference_parts(tokens)]
        grids = [self._grid(part) for part in parts]
        plain: Counter[int] = Counter(node for grid in grids for nodes in grid for node in nodes)
        gapped: Counter[tuple[int, ...]] = Counter()
        limit = self._limit
        for first in range(len(grids) - 1):
            head = len(parts[first])
            # (suffix node, its length) for every start whose suffix is short enough to be kept
            suffixes = [(nodes[-1], head - start) for start, nodes in enumerate(grids[first]) if len(nodes) == head - start]
            inside = 0
            for last in range(first + 1, len(grids)):
                if last > first + 1:
                    inside += len(parts[last - 1])
                if inside + 2 > limit:  # no room left for a word on each side
                    break
                middle = tuple(grids[p][0][-1] for p in range(first + 1, last))
                for suffix, suffix_length in suffixes:
                    room = max(0, limit - suffix_length - inside)
                    for prefix in grids[last][0][:room]:
                        gapped[(suffix, *middle, prefix)] += 1
        row = len(self._row_pair)
        self._row_pair.append(pair)
        self._totals.append(sum(plain.values()) + sum(gapped.values()))
        self._plain[0].extend([row] * len(plain))
        self._plain[1].extend(plain.keys())
        self._plain[2].extend(plain.values())
        self._gapped[0].extend([row] * len(gapped))
        self._gapped[1].extend(gapped.keys())
        self._gapped[2].extend(gapped.values())
        return row

    def freeze(self) -> None:
        """Turn the lists into the sorted arrays :meth:`match` searches."""
        if self._frozen:
            return
        self._frozen = True
        self._width = len(self._vocabulary) + 1
        self._nodes_bound = len(self._depth)
        packed = np.fromiter(self._children.keys(), dtype=np.int64, count=len(self._children))
        nodes = np.fromiter(self._children.values(), dtype=np.int64, count=len(self._children))
        parents, words = packed >> self._SHIFT, packed & ((1 << self._SHIFT) - 1)
        keys = parents * self._width + words
        order = np.argsort(keys)
        self._trie_keys = keys[order]
        self._trie_nodes = nodes[order]
        self._first_level = np.zeros(self._width, dtype=np.int64)
        self._first_level[words[parents == 0]] = nodes[parents == 0]
        self.depth = np.array(self._depth, dtype=np.int64)
        self.max_depth = int(self.depth.max())
        self.row_pair = np.array(self._row_pair, dtype=np.int64)
        self.totals = np.array(self._totals, dtype=np.int64)

        rows = np.array(self._plain[0], dtype=np.int64)
        keys = self.row_pair[rows] * self._nodes_bound + np.array(self._plain[1], dtype=np.int64)
        order = np.argsort(keys, kind="stable")  # sorted needles make searchsorted fast
        self._plain_row = rows[order]
        self._plain_key = keys[order]
        self._plain_count = np.array(self._plain[2], dtype=np.int64)[order]

        rows, parts, counts = self._gapped
        width = max((len(p) for p in parts), default=0)
        self._gap_row = np.array(rows, dtype=np.int64)
        self._gap_count = np.array(counts, dtype=np.int64)
        self._gap_base = self.row_pair[self._gap_row] * self._nodes_bound
        self._gap_parts = np.zeros((len(parts), width), dtype=np.int64)
        for i, p in enumerate(parts):
            self._gap_parts[i, : len(p)] = p
        self._is_gap_part = np.zeros(self._nodes_bound, dtype=bool)
        self._is_gap_part[self._gap_parts[self._gap_parts > 0]] = True
        self._children.clear()
        self._plain = (array("q"), array("q"), array("q"))
        self._gapped = (array("q"), [], array("q"))

    @property
    def rows(self) -> int:
        return len(self._row_pair)

    def word_id(self, word: str) -> int:
        """The interned id of a (normalised) word; 0 when no reference contains it."""
        return self._vocabulary.get(word, 0)

    # -- matching -----------------------------------------------------------

    def _lookup(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Trie nodes of ``parent·width + word`` keys, and which keys exist."""
        if not len(self._trie_keys):
            return np.zeros(len(keys), dtype=np.int64), np.zeros(len(keys), dtype=bool)
        index = np.minimum(np.searchsorted(self._trie_keys, keys), len(self._trie_keys) - 1)
        return self._trie_nodes[index], self._trie_keys[index] == keys

    def _find_ngrams(self, candidates: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Every ``(pair, trie node, start offset)`` where a reference n-gram occurs in a candidate."""
        lengths = np.fromiter((len(c) for c in candidates), dtype=np.int64, count=len(candidates))
        words = np.fromiter((w for c in candidates for w in c), dtype=np.int64, count=int(lengths.sum()))
        ends = np.cumsum(lengths)
        pair_of = np.repeat(np.arange(len(candidates), dtype=np.int64), lengths)
        offset_of = np.arange(len(words), dtype=np.int64) - (ends - lengths)[pair_of]
        span = int(lengths.max(initial=0)) + 1
        if len(candidates) * self._nodes_bound * span >= 2**62:
            raise OverflowError("suite too large for the n-gram index keys")
        found: list[tuple[np.ndarray, np.ndarray]] = []
        nodes = self._first_level[words]
        positions = np.flatnonzero(nodes)
        nodes = nodes[positions]
        length = 1
        while positions.size:
            found.append((positions, nodes))
            if length >= self.max_depth:
                break
            following = positions + length
            inside = following < ends[pair_of[positions]]
            positions, nodes, following = positions[inside], nodes[inside], following[inside]
            nodes, hit = self._lookup(nodes * self._width + words[following])
            positions, nodes = positions[hit], nodes[hit]
            length += 1
        if not found:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty, span
        positions = np.concatenate([f[0] for f in found])
        nodes = np.concatenate([f[1] for f in found])
        return pair_of[positions], nodes, offset_of[positions], span

    def match(self, candidates: Sequence[Sequence[int]]) -> np.ndarray:
        """Clipped matched n-grams of every reference row: ``(rows,)`` integers.

        ``candidates[p]`` holds the word ids (:meth:`word_id`) of the candidate
        translation of pair ``p`` (the pair numbers given to :meth:`add`).
        """
        self.freeze()
        occ_pair, occ_node, occ_offset, span = self._find_ngrams(candidates)
        occ_key = occ_pair * self._nodes_bound + occ_node
        matched = np.zeros(self.rows, dtype=np.int64)
        if len(self._plain_row):
            keys = np.sort(occ_key)
            found = np.searchsorted(keys, self._plain_key, "right") - np.searchsorted(keys, self._plain_key, "left")
            clipped = np.minimum(self._plain_count, found)
            matched += np.bincount(self._plain_row, weights=clipped, minlength=self.rows).astype(np.int64)
        if len(self._gap_row):
            keep = self._is_gap_part[occ_node]
            starts = np.sort(occ_key[keep] * span + occ_offset[keep])
            clipped = self._greedy(starts, span)
            matched += np.bincount(self._gap_row, weights=clipped, minlength=self.rows).astype(np.int64)
        return matched

    def _greedy(self, starts: np.ndarray, span: int) -> np.ndarray:
        """Clipped greedy counts of every gapped entry, vectorised over entries.

        ``starts`` is the sorted ``(pair·bound + node)·span + offset`` of every
        occurrence of a gap part. Each round finds, for every entry still
        below its reference count, its next greedy occurrence after its cursor.
        """
        entries = len(self._gap_row)
        matches = np.zeros(entries, dtype=np.int64)
        if not len(starts):
            return matches
        cursor = np.zeros(entries, dtype=np.int64)
        active = np.arange(entries)
        for _ in range(int(self._gap_count.max())):
            ok = np.ones(len(active), dtype=bool)
            position = cursor[active]
            for column in range(self._gap_parts.shape[1]):
                node = self._gap_parts[active, column]
                used = ok & (node > 0)
                key = self._gap_base[active] + node
                index = np.searchsorted(starts, key * span + position)
                inside = index < len(starts)
                index = np.where(inside, index, 0)
                hit = inside & (starts[index] // span == key)
                ok &= hit | ~used
                position = np.where(used & hit, starts[index] % span + self.depth[node], position)
            cursor[active] = position
            matches[active] += ok
            active = active[ok & (matches[active] < self._gap_count[active])]
            if not len(active):
                break
        return matches
