"""Compiled matching for whole suites and system outputs: texts encoded as word ids once,
references indexed with numpy, so every system's matching is array arithmetic."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Sequence
from itertools import chain, pairwise

import numpy as np

from checkpoints.contractions import splitting_tokenizer
from checkpoints.evaluate.matching import reference_parts
from checkpoints.tokenizers import get_tokenizer

Ngram = tuple[str, ...]


CHUNKWISE_TOKENIZERS = frozenset({"words", "13a", "char", "none"})
"""Tokenizers that cut a text exactly as they cut each of its whitespace-separated chunks.

Under these, the words of a text are the words of its chunks one after the
other: ``13a`` and ``words`` pad the text with spaces, so both ends of a text
look to their rules like any chunk boundary, and ``char`` and ``none`` never
look across a space. A suite's references and a system's output are then
tokenized one *distinct* chunk at a time, however often it occurs (tests check
the property on random and real text). ``intl`` keeps a text-final "1990."
whole but splits it mid-text, and ``zh`` applies 13a's rules without the
padding, so texts are tokenized whole under them.
"""

_SEPARATOR = "\ue001"
"""A private-use character that chunk-wise tokenizers keep as a word of its own:
distinct chunks are tokenized together in one call, joined by it, and told apart at it."""

_BATCH = 128
"""Chunks tokenized per call. sacreBLEU's tokenizers keep every text they are given in a
process-wide cache of 65,536 entries; batches of about a sentence's length keep what that
cache holds as small as per-sentence tokenizing would, at a few percent more time than
batches of thousands of chunks."""

_WHITESPACE = re.compile(r"\s")
"""What ``str.split()`` splits at (the same Unicode whitespace)."""

OTHER_WHITESPACE = re.compile(r"[^\S ]")
"""Whitespace other than the space: what may still split a text cut at spaces."""


def gather(flat: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``flat[starts[0]:starts[0]+lengths[0]]``, then the next slice, ..., concatenated."""
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=flat.dtype)
    shift = starts - (np.cumsum(lengths) - lengths)
    return flat[np.repeat(shift, lengths) + np.arange(total)]


def unique_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_counts=True)``, sorting stably: the keys built here come in long
    ascending runs (level by level, reference by reference), which a stable sort merges in a
    fraction of the time of the quicksort that ``np.unique`` uses."""
    ordered = np.sort(values, kind="stable")
    if not len(ordered):
        return ordered, np.zeros(0, dtype=np.int64)
    first = np.flatnonzero(np.append(True, ordered[1:] != ordered[:-1]))
    return ordered[first], np.diff(np.append(first, len(ordered)))


def segment_sums(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Sums of consecutive runs of ``values``, the i-th run ``counts[i]`` long (empty runs sum to 0)."""
    running = np.concatenate(([0], np.cumsum(values, dtype=np.int64)))
    ends = np.cumsum(counts)
    return running[ends] - running[ends - counts]


def pack_arrays(arrays: dict[str, np.ndarray]) -> bytes:
    """Named arrays as one uncompressed ``.npz`` archive: how a store keeps a compiled index."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def unpack_arrays(payload: bytes) -> dict[str, np.ndarray]:
    """The arrays :func:`pack_arrays` wrote (never pickled objects); ``ValueError`` for anything else."""
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise ValueError(f"not a kept reference index: {error}") from None


def _narrowest(values: np.ndarray) -> np.ndarray:
    """Integers in the smallest of uint8, uint16, int32 and int64 that holds them all."""
    if not values.size:
        return values
    low, high = int(values.min()), int(values.max())
    for kind in (np.uint8, np.uint16, np.int32):
        info = np.iinfo(kind)
        if info.min <= low and high <= info.max:
            return values.astype(kind)
    return values


class TextEncoder:
    """Texts → integer word ids under one tokenizer, each distinct chunk tokenized once.

    ``words`` lists the words in order of first sight (a word's id is its index)
    and grows as new texts bring new words, so ids stay valid across calls: a
    suite's references and every system output share one numbering. Matching
    and BLEU both count words, so everything after this step is integer
    arithmetic on arrays. With a ``language``, contractions of that language
    become their words (:mod:`checkpoints.contractions`), as check-point
    matching wants and BLEU does not.
    """

    def __init__(self, tokenize: str, language: str | None = None) -> None:
        self.tokenize = tokenize
        self._tokenizer = splitting_tokenizer(get_tokenizer(tokenize), language)
        self.chunkwise = tokenize in CHUNKWISE_TOKENIZERS
        self._batched = self.chunkwise and self._tokenizer(f"a {_SEPARATOR} b") == ["a", _SEPARATOR, "b"]
        self.vocabulary: dict[str, int] = {}
        self.words: list[str] = []
        self._chunks: dict[str, int] = {}
        self._starts = np.zeros(0, dtype=np.int64)
        self._lengths = np.zeros(0, dtype=np.int64)
        self._flat = np.zeros(0, dtype=np.int64)

    @property
    def tokenizer(self) -> Callable[[str], list[str]]:
        """The tokenizer as a function: text → words."""
        return self._tokenizer

    def encode(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The word ids of all ``texts`` concatenated, and each text's number of words."""
        if self.chunkwise and texts and min(map(len, texts)) and not _WHITESPACE.search("".join(texts)):
            per_text = np.ones(len(texts), dtype=np.int64)  # single words (a reference's tokens): no splitting
            chunks = list(texts)
        elif self.chunkwise:
            pieces = [text.split() for text in texts]
            per_text = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
            chunks = list(chain.from_iterable(pieces))
        else:
            per_text = np.ones(len(texts), dtype=np.int64)
            chunks = list(texts)
        ids, lengths, _ = self.encode_chunks(chunks)
        return ids, segment_sums(lengths, per_text)

    def encode_chunks(self, chunks: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Word ids of chunks (texts without whitespace, or whole texts when the tokenizer is not
        chunk-wise) concatenated, each chunk's number of words, and each chunk's id
        (:meth:`chunk_id`): a suite's reference tokens are encoded this way, as they come."""
        index = self._index(chunks)
        lengths = self._lengths[index]
        return gather(self._flat, self._starts[index], lengths), lengths, index

    def chunk_id(self, chunk: str) -> int:
        """The id of a chunk already encoded; −1 for one never seen."""
        return self._chunks.get(chunk, -1)

    def _index(self, chunks: list[str]) -> np.ndarray:
        known = self._chunks
        try:
            found = list(map(known.__getitem__, chunks))
        except KeyError:  # new chunks: add the distinct ones in order of first sight, then look up again
            self._add([chunk for chunk in dict.fromkeys(chunks) if chunk not in known])
            found = list(map(known.__getitem__, chunks))
        return np.fromiter(found, dtype=np.int64, count=len(found))

    def _add(self, chunks: list[str]) -> None:
        tokenized = self._tokenize_many(chunks)
        vocabulary, words = self.vocabulary, self.words
        flat_words = list(chain.from_iterable(tokenized))
        for word in dict.fromkeys(flat_words):
            if word not in vocabulary:
                vocabulary[word] = len(words)
                words.append(word)
        lengths = np.fromiter(map(len, tokenized), dtype=np.int64, count=len(tokenized))
        ids = np.fromiter(map(vocabulary.__getitem__, flat_words), dtype=np.int64, count=len(flat_words))
        first = len(self._chunks)
        self._chunks.update(zip(chunks, range(first, first + len(chunks)), strict=True))
        self._starts = np.concatenate((self._starts, len(self._flat) + np.cumsum(lengths) - lengths))
        self._lengths = np.concatenate((self._lengths, lengths))
        self._flat = np.concatenate((self._flat, ids))

    def _tokenize_many(self, texts: list[str]) -> list[list[str]]:
        if not self._batched:
            return [self._tokenizer(text) for text in texts]
        out: list[list[str]] = []
        for begin in range(0, len(texts), _BATCH):
            block = texts[begin : begin + _BATCH]
            joined = f" {_SEPARATOR} ".join(block)
            pieces: list[list[str]] = []
            if joined.count(_SEPARATOR) == len(block) - 1:
                words = self._tokenizer(joined)
                cuts = [-1, *(i for i, word in enumerate(words) if word == _SEPARATOR), len(words)]
                pieces = [words[a + 1 : b] for a, b in pairwise(cuts)]
            out.extend(pieces if len(pieces) == len(block) else map(self._tokenizer, block))
        return out


class ReferenceIndex:
    """Every reference of a suite compiled once, matched against whole system outputs.

    Words are interned to integers from 1 (0 = a word no reference contains).
    Every gap-free n-gram of every reference is a node of one trie: the nodes
    of single words are the word ids, a longer n-gram's node is found from its
    parent (the n-gram minus its last word) and its last word, so the n-grams
    of a candidate are found level by level with one sorted-array lookup per
    level for the whole system output. A reference becomes a list of entries
    (trie node or gapped parts, count in the reference), and clipped sums are
    ``np.minimum`` plus ``np.bincount``. Building the trie is the same
    level-by-level walk over all references at once (``np.unique`` per level).

    Usage: :meth:`add` references one by one, or :meth:`add_rows` in bulk
    (word ids from :meth:`intern`), then :meth:`match` candidate word ids
    (:meth:`word_id`) per pair.
    """

    def __init__(self, max_order: int | None = None) -> None:
        self.max_order = max_order
        self._limit = max_order if max_order is not None else 2**31
        self._vocabulary: dict[str, int] = {}
        self._pending: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self._rows = 0
        self._frozen = False

    # -- building -----------------------------------------------------------

    def intern(self, word: str) -> int:
        """The id of a (normalised) reference word, given on first sight."""
        index = self._vocabulary.get(word)
        if index is None:
            index = self._vocabulary[word] = len(self._vocabulary) + 1
        return index

    def add(self, pair: int, tokens: Sequence[str]) -> int:
        """Add one reference (match tokens with ``*``, already normalised); returns its row."""
        parts = [[self.intern(word) for word in part] for part in reference_parts(tokens)]
        rows = self.add_rows(
            np.array([pair], dtype=np.int64),
            np.zeros(len(parts), dtype=np.int64),
            np.array([len(part) for part in parts], dtype=np.int64),
            np.array([word for part in parts for word in part], dtype=np.int64),
        )
        return int(rows[0])

    def add_rows(
        self, pairs: np.ndarray, part_rows: np.ndarray, part_lengths: np.ndarray, words: np.ndarray
    ) -> np.ndarray:
        """Add references in bulk; returns their rows.

        Reference ``r`` belongs to sentence pair ``pairs[r]`` and consists of
        the gap-separated parts whose ``part_rows`` is ``r`` (non-decreasing,
        in order), each ``part_lengths`` words long, the words taken in turn
        from ``words`` (ids from :meth:`intern`).
        """
        if self._frozen:
            raise RuntimeError("the index is frozen: add every reference before matching")
        pairs, part_rows = np.asarray(pairs, dtype=np.int64), np.asarray(part_rows, dtype=np.int64)
        part_lengths, words = np.asarray(part_lengths, dtype=np.int64), np.asarray(words, dtype=np.int64)
        if (
            int(part_lengths.sum()) != len(words)
            or (part_lengths < 1).any()
            or (np.diff(part_rows) < 0).any()
            or (len(part_rows) and (part_rows[0] < 0 or part_rows[-1] >= len(pairs)))
            or (len(words) and (words.min() < 1 or words.max() > len(self._vocabulary)))
        ):
            raise ValueError("inconsistent references: parts must be non-empty, in row order, of interned words")
        first = self._rows
        self._pending.append((pairs, part_rows + first, part_lengths, words))
        self._rows += len(pairs)
        return np.arange(first, self._rows, dtype=np.int64)

    def freeze(self) -> None:
        """Build the trie and the per-reference entries that :meth:`match` searches."""
        if self._frozen:
            return
        self._frozen = True
        pending, self._pending = self._pending, []
        pairs, part_row, part_length, words = (
            np.concatenate([item[i] for item in pending]) if pending else np.zeros(0, dtype=np.int64) for i in range(4)
        )
        self.row_pair = pairs
        self._width = len(self._vocabulary) + 1
        part_first = np.cumsum(part_length) - part_length
        word_part = np.repeat(np.arange(len(part_length), dtype=np.int64), part_length)
        remaining = (part_first + part_length)[word_part] - np.arange(len(words), dtype=np.int64)
        levels = self._build_trie(words, remaining)
        bound = self._nodes_bound
        if max(self._rows, int(pairs.max(initial=0)) + 1) * bound >= 2**62:
            raise OverflowError("suite too large for the n-gram index keys")

        word_row = part_row[word_part]
        occurrence_row = np.concatenate([word_row[positions] for positions, _ in levels]) if levels else words
        occurrence_node = np.concatenate([nodes for _, nodes in levels]) if levels else words
        totals = np.bincount(occurrence_row, minlength=self._rows).astype(np.int64)
        # Entries are (reference, n-gram, count); their (pair, n-gram) "types" are what a
        # candidate's occurrences are counted against, once per type, before clipping per
        # reference (the check-points of a pair share most n-grams). One sort by
        # (type, reference) gives both when the key fits in 63 bits.
        typed = pairs[occurrence_row] * bound + occurrence_node
        rows = max(self._rows, 1)
        if (int(pairs.max(initial=0)) + 1) * bound * rows < 2**62:
            keys, self._plain_count = unique_counts(typed * rows + occurrence_row)
            entry_type, self._plain_row = keys // rows, keys % rows
        else:
            keys, self._plain_count = np.unique(occurrence_row * bound + occurrence_node, return_counts=True)
            self._plain_row = keys // bound
            entry_type = pairs[self._plain_row] * bound + keys % bound
            order = np.argsort(entry_type, kind="stable")
            entry_type, self._plain_row, self._plain_count = entry_type[order], self._plain_row[order], self._plain_count[order]
        first = np.ones(len(entry_type), dtype=bool)
        first[1:] = entry_type[1:] != entry_type[:-1]
        self._types = entry_type[first]
        self._plain_type = np.cumsum(first) - 1

        gap_rows, gap_parts, gap_counts, gap_totals = self._gapped_entries(levels, part_row, part_length, part_first)
        self.totals = totals + gap_totals
        self._gap_row, self._gap_parts, self._gap_count = gap_rows, gap_parts, gap_counts
        self._gap_base = pairs[gap_rows] * bound
        self._is_gap_part = np.zeros(bound, dtype=bool)
        self._is_gap_part[gap_parts[gap_parts > 0]] = True

    def _build_trie(self, words: np.ndarray, remaining: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Trie nodes of every gap-free n-gram: per length, (start positions, nodes)."""
        vocabulary = len(self._vocabulary)
        levels: list[tuple[np.ndarray, np.ndarray]] = []
        keys: list[np.ndarray] = []
        depths = [np.zeros(1, dtype=np.int64), np.ones(vocabulary, dtype=np.int64)]
        next_node = vocabulary + 1
        if len(words):
            levels.append((np.arange(len(words), dtype=np.int64), words))
        while levels and len(levels) < self._limit:
            positions, parents = levels[-1]
            longer = remaining[positions] > len(levels)
            positions, parents = positions[longer], parents[longer]
            if not positions.size:
                break
            if next_node * self._width >= 2**62:
                raise OverflowError("suite too large for the n-gram index keys")
            unique, inverse = np.unique(parents * self._width + words[positions + len(levels)], return_inverse=True)
            keys.append(unique)
            depths.append(np.full(len(unique), len(levels) + 1, dtype=np.int64))
            levels.append((positions, next_node + inverse.reshape(-1)))
            next_node += len(unique)
        # a level's parents are the previous level's nodes, numbered above them: keys come out sorted
        self._trie_keys = np.concatenate(keys) if keys else np.zeros(0, dtype=np.int64)
        self._trie_nodes = np.arange(vocabulary + 1, next_node, dtype=np.int64)
        self.depth = np.concatenate(depths)
        self.max_depth = len(levels)
        self._nodes_bound = next_node
        return levels

    def _gapped_entries(
        self,
        levels: list[tuple[np.ndarray, np.ndarray]],
        part_row: np.ndarray,
        part_length: np.ndarray,
        part_first: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every n-gram with gaps: a suffix of one part, the whole parts in between, a prefix of a
        later part, at most ``max_order`` words in all. Returns entry rows, their parts (trie
        nodes, 0-padded), their counts in the reference, and the number per reference."""
        rows, limit = self._rows, self._limit
        empty = np.zeros(0, dtype=np.int64)
        parts_in_row = np.bincount(part_row, minlength=rows)
        later = parts_in_row[part_row] - (np.arange(len(part_row)) - (np.cumsum(parts_in_row) - parts_in_row)[part_row]) - 1
        involved = np.flatnonzero(parts_in_row[part_row] > 1)
        if not involved.size:
            return empty, np.zeros((0, 0), dtype=np.int64), empty, np.zeros(rows, dtype=np.int64)
        local = np.full(len(part_row), -1, dtype=np.int64)
        local[involved] = np.arange(len(involved))
        top = int(min(limit, part_length[involved].max()))
        prefix = np.zeros((len(involved), top), dtype=np.int64)  # node of the first k words of a part
        suffix = np.zeros((len(involved), top), dtype=np.int64)  # node of the last k words
        for k in range(1, top + 1):
            positions, nodes = levels[k - 1]
            has = part_length[involved] >= k
            chosen = involved[has]
            prefix[has, k - 1] = nodes[np.searchsorted(positions, part_first[chosen])]
            suffix[has, k - 1] = nodes[np.searchsorted(positions, part_first[chosen] + part_length[chosen] - k)]
        before = np.concatenate(([0], np.cumsum(part_length)))  # words in the parts before part i

        entry_rows: list[np.ndarray] = []
        entry_parts: list[list[np.ndarray]] = []
        heads = np.flatnonzero(later > 0)
        span = 1
        while heads.size:
            heads = heads[later[heads] >= span]
            inside = before[heads + span] - before[heads + 1]
            heads, inside = heads[inside + 2 <= limit], inside[inside + 2 <= limit]
            if not heads.size:
                break
            tails = heads + span
            middle = [prefix[local[heads + j], part_length[heads + j] - 1] for j in range(1, span)]
            head_length, tail_length = part_length[heads], part_length[tails]
            for kept in range(1, min(top, int(head_length.max())) + 1):
                room = np.minimum(limit - kept - inside, tail_length)
                use = (head_length >= kept) & (room >= 1)
                if not use.any():
                    continue
                ends = suffix[local[heads[use]], kept - 1]
                mids = [m[use] for m in middle]
                room, starts = room[use], tails[use]
                for taken in range(1, int(room.max()) + 1):
                    fit = room >= taken
                    entry_rows.append(part_row[starts[fit]])
                    entry_parts.append([ends[fit], *(m[fit] for m in mids), prefix[local[starts[fit]], taken - 1]])
            span += 1
        if not entry_rows:
            return empty, np.zeros((0, 0), dtype=np.int64), empty, np.zeros(rows, dtype=np.int64)
        width = max(len(parts) for parts in entry_parts)
        table = np.zeros((sum(len(r) for r in entry_rows), width + 1), dtype=np.int64)
        at = 0
        for found_rows, parts in zip(entry_rows, entry_parts, strict=True):
            table[at : at + len(found_rows), 0] = found_rows
            for column, nodes in enumerate(parts, start=1):
                table[at : at + len(found_rows), column] = nodes
            at += len(found_rows)
        totals = np.bincount(table[:, 0], minlength=rows).astype(np.int64)
        unique, counts = np.unique(table, axis=0, return_counts=True)
        return unique[:, 0].copy(), np.ascontiguousarray(unique[:, 1:]), counts.astype(np.int64), totals

    @property
    def rows(self) -> int:
        return self._rows

    # -- keeping ------------------------------------------------------------

    _KEPT_ARRAYS = ("row_pair", "_trie_keys", "_trie_nodes", "depth", "_plain_count", "_plain_row", "_types",
                    "totals", "_gap_row", "_gap_parts", "_gap_count")
    """What :meth:`to_arrays` keeps; the rest of a frozen index follows from these in linear time."""

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The frozen index as named arrays (:meth:`from_arrays` rebuilds it): what a store keeps so
        that the next evaluation of the same suite skips building the trie. Integers are kept
        in the narrowest type that holds them (counts and row numbers are small; a suite's
        index shrinks to about a third)."""
        self.freeze()
        encoded = [word.encode("utf-8") for word in self._vocabulary]  # ids 1, 2, ... in order of interning
        arrays = {name.lstrip("_"): _narrowest(getattr(self, name)) for name in self._KEPT_ARRAYS}
        arrays["type_sizes"] = _narrowest(np.bincount(self._plain_type, minlength=len(self._types)))
        arrays["word_bytes"] = np.frombuffer(b"".join(encoded), dtype=np.uint8)
        arrays["word_lengths"] = _narrowest(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)))
        arrays["sizes"] = np.array(
            [-1 if self.max_order is None else self.max_order, self._rows, self.max_depth, self._nodes_bound],
            dtype=np.int64,
        )
        return arrays

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> ReferenceIndex:
        """The index :meth:`to_arrays` took apart, frozen and ready to match; ``ValueError`` when
        the arrays are not one (missing, of other lengths, or words that are not UTF-8)."""
        try:
            return cls._from_arrays(arrays)
        except (KeyError, IndexError, TypeError, UnicodeDecodeError) as error:
            raise ValueError(f"not a kept reference index: {error!r}") from None

    @classmethod
    def _from_arrays(cls, arrays: dict[str, np.ndarray]) -> ReferenceIndex:
        max_order, rows, max_depth, nodes_bound = (int(value) for value in arrays["sizes"])
        index = cls(None if max_order < 0 else max_order)
        ends = np.cumsum(arrays["word_lengths"], dtype=np.int64).tolist()
        text = arrays["word_bytes"].tobytes()
        starts = [0, *ends[:-1]] if ends else []
        index._vocabulary = {text[a:b].decode("utf-8"): i for i, (a, b) in enumerate(zip(starts, ends, strict=True), 1)}
        if len(index._vocabulary) != len(ends) or (ends[-1] if ends else 0) != len(text):
            raise ValueError("the kept words do not make a vocabulary")
        for name in cls._KEPT_ARRAYS:
            setattr(index, name, arrays[name.lstrip("_")].astype(np.int64))
        sizes = arrays["type_sizes"]
        if len(sizes) != len(index._types) or int(sizes.sum()) != len(index._plain_row) or len(index.totals) != rows:
            raise ValueError("the kept arrays disagree in length")
        index._plain_type = np.repeat(np.arange(len(index._types), dtype=np.int64), sizes)
        index._rows, index.max_depth, index._nodes_bound = rows, max_depth, nodes_bound
        index._width = len(index._vocabulary) + 1
        index._frozen = True
        index._gap_base = index.row_pair[index._gap_row] * nodes_bound
        index._is_gap_part = np.zeros(nodes_bound, dtype=bool)
        index._is_gap_part[index._gap_parts[index._gap_parts > 0]] = True
        return index

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

    def _find_ngrams(self, words: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Every ``(pair, trie node, start offset)`` where a reference n-gram occurs in a candidate."""
        ends = np.cumsum(lengths)
        pair_of = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        offset_of = np.arange(len(words), dtype=np.int64) - (ends - lengths)[pair_of]
        span = int(lengths.max(initial=0)) + 1
        if len(lengths) * self._nodes_bound * span >= 2**62:
            raise OverflowError("suite too large for the n-gram index keys")
        found: list[tuple[np.ndarray, np.ndarray]] = []
        positions = np.flatnonzero(words)  # single words are nodes of their own id
        nodes = words[positions]
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
        lengths = np.fromiter(map(len, candidates), dtype=np.int64, count=len(candidates))
        words = np.fromiter(chain.from_iterable(candidates), dtype=np.int64, count=int(lengths.sum()))
        return self.match_words(words, lengths)

    def match_words(self, words: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """:meth:`match` on candidates given as their word ids concatenated and their lengths."""
        self.freeze()
        words = np.asarray(words, dtype=np.int64)
        occ_pair, occ_node, occ_offset, span = self._find_ngrams(words, np.asarray(lengths, dtype=np.int64))
        occ_key = occ_pair * self._nodes_bound + occ_node
        matched = np.zeros(self.rows, dtype=np.int64)
        if len(self._plain_row):
            # occurrences come pair by pair: counting them first leaves fewer, sorted keys to look up
            keys, counts = unique_counts(occ_key)
            at = np.minimum(np.searchsorted(self._types, keys), len(self._types) - 1)
            hit = self._types[at] == keys
            found = np.zeros(len(self._types), dtype=np.int64)
            found[at[hit]] = counts[hit]
            clipped = np.minimum(self._plain_count, found[self._plain_type])
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
