"""Check-points column by column: what scoring reads, without an object per check-point."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from checkpoints.model import CheckPoint, SuiteData


@dataclass(frozen=True, slots=True, eq=False)
class CheckpointColumns:
    """Check-points column by column: what scoring reads, without an object per check-point.

    Check-point ``i`` has the number ``numbers[i]`` (−1 when it has none), is
    on the pair whose id is ``pair_ids[i]``, in category
    ``category_names[categories[i]]``, and owns the next ``reference_counts[i]``
    rows of the reference columns: ``tokens`` (the reference's tokens joined
    by single spaces, ``*`` for a gap, as the store keeps them) and ``dm``.

    A suite may offer its check-points this way through a
    ``checkpoint_columns()`` method, as suites loaded from a store do: scoring
    100,000 check-points then never builds their objects. :meth:`of` makes
    the columns of check-point objects.
    """

    numbers: np.ndarray
    pair_ids: np.ndarray
    categories: np.ndarray
    category_names: list[str]
    reference_counts: np.ndarray
    tokens: list[str]
    dm: np.ndarray

    @classmethod
    def of(cls, checkpoints: Sequence[CheckPoint]) -> CheckpointColumns:
        count = len(checkpoints)
        names: dict[str, int] = {}
        codes = np.fromiter((names.setdefault(cp.category, len(names)) for cp in checkpoints), dtype=np.int64, count=count)
        references = [cp.references for cp in checkpoints]
        rows = list(chain.from_iterable(references))
        return cls(
            numbers=np.fromiter((-1 if cp.id is None else cp.id for cp in checkpoints), dtype=np.int64, count=count),
            pair_ids=np.fromiter((cp.pair_id for cp in checkpoints), dtype=np.int64, count=count),
            categories=codes,
            category_names=list(names),
            reference_counts=np.fromiter(map(len, references), dtype=np.int64, count=count),
            tokens=[" ".join(reference.tokens) for reference in rows],
            dm=np.fromiter((reference.dm for reference in rows), dtype=np.float64, count=len(rows)),
        )


def checkpoint_count(suite: SuiteData) -> int:
    """How many check-points a suite has, without building them when it offers columns."""
    offered = getattr(suite, "checkpoint_columns", None)
    columns = offered() if callable(offered) else None
    return len(columns.numbers) if isinstance(columns, CheckpointColumns) else len(suite.checkpoints)


def suite_columns(suite: SuiteData) -> CheckpointColumns:
    """The suite's check-points as columns: those it offers, else made from its objects."""
    offered = getattr(suite, "checkpoint_columns", None)
    columns = offered() if callable(offered) else None
    return columns if isinstance(columns, CheckpointColumns) else CheckpointColumns.of(suite.checkpoints)
