"""A suite's check-points packed column by column: one ``checkpoint_block`` row per suite.

A large suite has 100,000 check-points with 150,000 references. As a row per
check-point and per reference they took a second to write (most of
``checkpoints import``) and half a second to read back (a quarter of
``checkpoints evaluate``), though nothing ever selects single check-points:
every command reads a suite's check-points whole. Packed as a few numpy
arrays and one text, they are written and read in milliseconds, as the
per-run results already were (:class:`~checkpoints.db.tables.CheckpointResultRow`).

Integers are little-endian int64, DM float64; lists of integers (spans, target
indices) are their values concatenated plus one length per owner; the
references' tokens are one text, each reference's tokens joined by single
spaces (``*`` for a gap) and cut apart by their lengths in characters, so any
character may occur in a token.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain
from operator import attrgetter
from typing import Any

import numpy as np

from checkpoints.errors import SuiteError
from checkpoints.evaluate.columns import CheckpointColumns
from checkpoints.model import CheckPoint, Reference

_INT = np.dtype("<i8")
_FLOAT = np.dtype("<f8")


def _ints(values: list[int]) -> bytes:
    return np.array(values, dtype=_INT).tobytes() if values else b""


def pack_checkpoints(
    checkpoints: Sequence[CheckPoint], pair_position: Mapping[int, int], category_position: Mapping[str, int]
) -> dict[str, object]:
    """The values of a ``checkpoint_block`` row (less its suite), check-points in the order of their numbers.

    ``pair_position`` maps a pair id to the pair's position in the suite,
    ``category_position`` a category name to its position; a check-point
    without a number takes its 1-based place in ``checkpoints``. Each column
    is one ``map`` over the objects, which keeps the loops out of Python.
    """
    given = list(map(attrgetter("id"), checkpoints))
    numbers = np.array(
        [number if given[number - 1] is None else given[number - 1] for number in range(1, len(given) + 1)]
        if None in given else given, dtype=np.int64,
    ).reshape(-1)
    order = np.argsort(numbers, kind="stable")
    ordered = [checkpoints[i] for i in order.tolist()] if (np.diff(numbers) < 0).any() else list(checkpoints)
    numbers = numbers[order]
    repeated = np.flatnonzero(numbers[1:] == numbers[:-1])
    if repeated.size:
        raise SuiteError(f"check-point number {int(numbers[repeated[0]])} is used twice")
    names = list(map(attrgetter("category"), ordered))
    pair_ids = list(map(attrgetter("pair_id"), ordered))
    try:
        categories = list(map(category_position.__getitem__, names))
        pairs = list(map(pair_position.__getitem__, pair_ids))
    except KeyError:
        _refuse_unknown(numbers.tolist(), names, pair_ids, pair_position, category_position)
        raise
    spans = list(map(attrgetter("source_indices"), ordered))
    owned = list(map(attrgetter("references"), ordered))
    references: list[Reference] = list(chain.from_iterable(owned))
    targets = list(map(attrgetter("target_indices"), references))
    tokens = list(map(" ".join, map(attrgetter("tokens"), references)))
    return {
        "count": len(ordered),
        "numbers": numbers.astype(_INT).tobytes(),
        "pair_positions": _ints(pairs),
        "categories": _ints(categories),
        "span_lengths": _ints(list(map(len, spans))),
        "spans": _ints(list(chain.from_iterable(spans))),
        "reference_counts": _ints(list(map(len, owned))),
        "reference_indices": _ints(list(map(attrgetter("reference_index"), references))),
        "target_lengths": _ints(list(map(len, targets))),
        "targets": _ints(list(chain.from_iterable(targets))),
        "dm": np.array(list(map(attrgetter("dm"), references)), dtype=_FLOAT).tobytes(),
        "aligned": np.array(list(map(attrgetter("from_alignment"), references)), dtype=np.uint8).tobytes(),
        "token_lengths": _ints(list(map(len, tokens))),
        "tokens": "".join(tokens),
    }


def _refuse_unknown(
    numbers: list[int], names: list[str], pair_ids: list[int],
    pair_position: Mapping[int, int], category_position: Mapping[str, int],
) -> None:
    """The error for the first check-point (by number) whose category or pair the suite lacks."""
    for number, name, pair_id in zip(numbers, names, pair_ids, strict=True):
        if name not in category_position:
            raise SuiteError(f"check-point {number} names unknown category {name!r}")
        if pair_id not in pair_position:
            raise SuiteError(f"check-point {number} refers to pair {pair_id}, which the suite lacks")


def unpack_checkpoints(row: Any, pair_numbers: np.ndarray, category_names: list[str]) -> CheckpointRecords:
    """A ``checkpoint_block`` row as :class:`CheckpointRecords`; ``pair_numbers[p]`` is the id of the
    pair at position ``p``, ``category_names[c]`` the name of the category at position ``c``."""
    positions = np.frombuffer(row.pair_positions, dtype=_INT)
    categories = np.frombuffer(row.categories, dtype=_INT)
    if len(positions) and (positions.min() < 0 or positions.max() >= len(pair_numbers)):
        raise SuiteError("the stored check-points refer to pairs the suite lacks: the database is damaged")
    if len(categories) and (categories.min() < 0 or categories.max() >= len(category_names)):
        raise SuiteError("the stored check-points refer to categories the suite lacks: the database is damaged")
    token_lengths = np.frombuffer(row.token_lengths, dtype=_INT)
    ends = list(accumulate(token_lengths.tolist()))
    text = row.tokens
    return CheckpointRecords(
        numbers=np.frombuffer(row.numbers, dtype=_INT).astype(np.int64),
        pair_ids=pair_numbers[positions],
        categories=categories.astype(np.int64),
        category_names=category_names,
        span_lengths=np.frombuffer(row.span_lengths, dtype=_INT).astype(np.int64),
        spans=np.frombuffer(row.spans, dtype=_INT).astype(np.int64),
        reference_counts=np.frombuffer(row.reference_counts, dtype=_INT).astype(np.int64),
        reference_indices=np.frombuffer(row.reference_indices, dtype=_INT).astype(np.int64),
        target_lengths=np.frombuffer(row.target_lengths, dtype=_INT).astype(np.int64),
        targets=np.frombuffer(row.targets, dtype=_INT).astype(np.int64),
        dm=np.frombuffer(row.dm, dtype=_FLOAT).astype(np.float64),
        aligned=np.frombuffer(row.aligned, dtype=np.uint8).astype(bool),
        tokens=list(map(text.__getitem__, map(slice, [0, *ends[:-1]], ends))) if ends else [],
    )


@dataclass(slots=True)
class CheckpointRecords:
    """A stored suite's check-points as read: columns in the order of their numbers, references
    grouped per check-point (``reference_counts``), lists of integers as values plus lengths."""

    numbers: np.ndarray
    pair_ids: np.ndarray
    categories: np.ndarray
    category_names: list[str]
    span_lengths: np.ndarray
    spans: np.ndarray
    reference_counts: np.ndarray
    reference_indices: np.ndarray
    target_lengths: np.ndarray
    targets: np.ndarray
    dm: np.ndarray
    aligned: np.ndarray
    tokens: list[str]

    def columns(self) -> CheckpointColumns:
        return CheckpointColumns(
            numbers=self.numbers,
            pair_ids=self.pair_ids,
            categories=self.categories,
            category_names=self.category_names,
            reference_counts=self.reference_counts,
            tokens=self.tokens,
            dm=self.dm,
        )

    def checkpoints(self) -> list[CheckPoint]:
        references = list(
            map(Reference, self.reference_indices.tolist(), _split(self.targets, self.target_lengths),
                [text.split(" ") if text else [] for text in self.tokens], self.dm.tolist(), self.aligned.tolist())
        )
        return list(
            map(
                CheckPoint,
                self.pair_ids.tolist(),
                [self.category_names[code] for code in self.categories.tolist()],
                _split(self.spans, self.span_lengths),
                _split(references, self.reference_counts),
                self.numbers.tolist(),
            )
        )


def _split(values: Sequence[Any] | np.ndarray, lengths: np.ndarray) -> list[list[Any]]:
    """``values`` cut into consecutive lists of ``lengths`` items."""
    flat = values.tolist() if isinstance(values, np.ndarray) else values
    ends = list(accumulate(lengths.tolist()))
    return list(map(flat.__getitem__, map(slice, chain([0], ends), ends))) if ends else []

