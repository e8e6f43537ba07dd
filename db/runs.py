"""Evaluation runs in the store: each system's per check-point results, packed, and reading them back.

One row per (run, system) holds the values of every evaluated check-point as
packed arrays (see :class:`checkpoints.db.tables.CheckpointResultRow`), so a
run over 100,000 check-points is written and read in milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from checkpoints.db.bulk import insert_rows
from checkpoints.db.tables import (
    CategoryResultRow,
    CheckpointResultRow,
    Pair,
    RunRow,
    SystemRow,
    TranslationRow,
)
from checkpoints.errors import SuiteError


class CheckpointResults(Mapping[int, tuple[int, float, int, int]]):
    """One system's stored per check-point results in one run: check-point number →
    (reference position of r*, DM, matched, total), over the stored arrays.

    Looking a number up is a binary search in the sorted numbers; :meth:`arrays`
    takes the values of many check-points at once.
    """

    __slots__ = ("dm", "matched", "numbers", "reference_positions", "total")

    def __init__(
        self, numbers: np.ndarray, reference_positions: np.ndarray, dm: np.ndarray, matched: np.ndarray, total: np.ndarray
    ) -> None:
        order = np.argsort(numbers, kind="stable")
        self.numbers = np.asarray(numbers, dtype=np.int64)[order]
        self.reference_positions = np.asarray(reference_positions, dtype=np.int64)[order]
        self.dm = np.asarray(dm, dtype=np.float64)[order]
        self.matched = np.asarray(matched, dtype=np.int64)[order]
        self.total = np.asarray(total, dtype=np.int64)[order]

    def _index(self, number: object) -> int | None:
        if not isinstance(number, int | np.integer):
            return None
        at = int(np.searchsorted(self.numbers, number))
        return at if at < len(self.numbers) and self.numbers[at] == number else None

    def __getitem__(self, number: int) -> tuple[int, float, int, int]:
        at = self._index(number)
        if at is None:
            raise KeyError(number)
        return (int(self.reference_positions[at]), float(self.dm[at]), int(self.matched[at]), int(self.total[at]))

    def __contains__(self, number: object) -> bool:
        return self._index(number) is not None

    def __iter__(self) -> Iterator[int]:
        return iter(self.numbers.tolist())

    def __len__(self) -> int:
        return len(self.numbers)

    def arrays(self, numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Reference positions, DM, matched and total of the check-points ``numbers``, in that order.

        Raises :class:`KeyError` with the first number that has no result.
        """
        numbers = np.asarray(numbers, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.numbers, numbers), max(len(self.numbers) - 1, 0))
        missing = (self.numbers[at] != numbers) if len(self.numbers) else np.ones(len(numbers), dtype=bool)
        if missing.any():
            raise KeyError(int(numbers[np.argmax(missing)]))
        return self.reference_positions[at], self.dm[at], self.matched[at], self.total[at]


NOT_EVALUATED = -1
"""The lengths stored with the translation of a pair that has no evaluated check-point (no category of
the run's selection): its text is kept, for metrics over whole outputs, but it has no length(T) or
length(R) in the run's scores."""


@dataclass(slots=True)
class SystemResults:
    """One system's stored results in one run, keyed for re-use without re-matching."""

    run_id: int
    run_options: dict[str, Any]
    translations: list[str]
    """Per pair position (suite order); runs stored before every pair's translation was kept hold ''
    for pairs outside the run's evaluated set."""
    translation_lengths: dict[int, int]
    """Pair position → translation length under the run's tokenizer."""
    checkpoints: CheckpointResults
    """Check-point number → (reference position of r*, DM, matched, total)."""
    every_translation: bool = True
    """Whether the run kept the translation of every pair (False for runs stored before it did)."""


def pair_row_ids(session: Session, suite_id: int) -> dict[int, int]:
    """Pair position → pair row id."""
    return dict(session.execute(select(Pair.position, Pair.id).where(Pair.suite_id == suite_id)).all())


def system_row(session: Session, suite_id: int, name: str) -> SystemRow:
    row = session.scalar(select(SystemRow).where(SystemRow.suite_id == suite_id, SystemRow.name == name))
    if row is None:
        row = SystemRow(suite_id=suite_id, name=name)
        session.add(row)
        session.flush()
    return row


def store_run(
    session: Session, suite_id: int, kind: str, options: dict[str, Any], signature: str, report: dict[str, Any]
) -> int:
    run = RunRow(
        suite_id=suite_id,
        kind=kind,
        created=datetime.now(UTC).replace(tzinfo=None),
        options=options,
        signature=signature,
        report=report,
    )
    session.add(run)
    session.flush()
    return run.id


def _packed(values: Sequence[float] | np.ndarray, dtype: str) -> bytes:
    return np.ascontiguousarray(values, dtype=dtype).tobytes()


def store_system_results(
    session: Session,
    run_id: int,
    system_id: int,
    *,
    pair_ids: Sequence[int],
    translations: Sequence[str],
    translation_lengths: Sequence[float] | np.ndarray,
    reference_lengths: Sequence[float] | np.ndarray,
    checkpoint_numbers: Sequence[int] | np.ndarray,
    chosen: Sequence[int] | np.ndarray,
    dm: Sequence[float] | np.ndarray,
    matched: Sequence[int] | np.ndarray,
    total: Sequence[int] | np.ndarray,
    scopes: Sequence[dict[str, Any]],
) -> None:
    """Store one system's translations (a row per pair), its per check-point results (one
    row of packed arrays, see :class:`~checkpoints.db.tables.CheckpointResultRow`) and
    its scope scores."""
    lengths = np.asarray(translation_lengths, dtype=np.int64).tolist()
    references = np.asarray(reference_lengths, dtype=np.float64).tolist()
    insert_rows(
        session,
        TranslationRow.__table__,
        ("run_id", "system_id", "pair_id", "text", "length", "reference_length"),
        [
            (run_id, system_id, pair_id, text, length, reference_length)
            for pair_id, text, length, reference_length in zip(pair_ids, translations, lengths, references, strict=True)
        ],
    )
    numbers = np.asarray(checkpoint_numbers, dtype=np.int64)
    order = np.argsort(numbers, kind="stable")
    columns = {"reference_positions": chosen, "dm": dm, "matched": matched, "total": total}
    if any(len(column) != len(numbers) for column in columns.values()):
        raise ValueError("per check-point results of different lengths")
    session.execute(
        insert(CheckpointResultRow.__table__),
        [{
            "run_id": run_id,
            "system_id": system_id,
            "count": len(numbers),
            "numbers": _packed(numbers[order], "<i8"),
            **{name: _packed(np.asarray(column)[order], "<f8" if name == "dm" else "<i8") for name, column in columns.items()},
        }],
    )
    if scopes:
        session.execute(
            insert(CategoryResultRow.__table__), [{"run_id": run_id, "system_id": system_id, **scope} for scope in scopes]
        )


def checkpoint_results(session: Session, run_id: int, system_id: int) -> CheckpointResults:
    """A system's per check-point results in one run (empty when the run stored none for it)."""
    row = session.execute(
        select(
            CheckpointResultRow.numbers,
            CheckpointResultRow.reference_positions,
            CheckpointResultRow.dm,
            CheckpointResultRow.matched,
            CheckpointResultRow.total,
        ).where(CheckpointResultRow.run_id == run_id, CheckpointResultRow.system_id == system_id)
    ).first()
    if row is None:
        empty = np.zeros(0, dtype=np.int64)
        return CheckpointResults(empty, empty, empty.astype(np.float64), empty, empty)
    numbers, positions, dm, matched, total = row
    return CheckpointResults(
        np.frombuffer(numbers, dtype="<i8"),
        np.frombuffer(positions, dtype="<i8"),
        np.frombuffer(dm, dtype="<f8"),
        np.frombuffer(matched, dtype="<i8"),
        np.frombuffer(total, dtype="<i8"),
    )


def latest_results(session: Session, suite_id: int, system: str, run_id: int | None = None) -> SystemResults:
    """The system's results from evaluation run ``run_id``, or from the most recent run that scored it."""
    row = session.scalar(select(SystemRow).where(SystemRow.suite_id == suite_id, SystemRow.name == system))
    if row is not None and run_id is not None:
        scored = session.scalar(
            select(TranslationRow.run_id).where(TranslationRow.run_id == run_id, TranslationRow.system_id == row.id).limit(1)
        )
        if scored is None:
            runs = ", ".join(map(str, evaluation_runs(session, row.id))) or "none"
            raise SuiteError(f"run {run_id} did not evaluate system {system!r} (its runs: {runs})")
    elif row is not None:
        run_id = session.scalar(
            select(func.max(TranslationRow.run_id)).where(TranslationRow.system_id == row.id)
        )
    if row is None or run_id is None:
        known = ", ".join(evaluated_systems(session, suite_id)) or "none yet"
        raise SuiteError(
            f"system {system!r} has not been evaluated on this suite (evaluated: {known}); "
            f"run `checkpoints evaluate --system {system}=FILE` first, or give --system {system}=FILE"
        )
    options = session.scalar(select(RunRow.options).where(RunRow.id == run_id))
    position_of = dict(session.execute(select(Pair.id, Pair.position).where(Pair.suite_id == suite_id)).all())
    translations = [""] * len(position_of)
    lengths: dict[int, int] = {}
    kept = 0
    for pair_id, text, length in session.execute(
        select(TranslationRow.pair_id, TranslationRow.text, TranslationRow.length).where(
            TranslationRow.run_id == run_id, TranslationRow.system_id == row.id
        )
    ):
        position = position_of[pair_id]
        translations[position] = text
        kept += 1
        if length != NOT_EVALUATED:
            lengths[position] = length
    return SystemResults(run_id, dict(options or {}), translations, lengths, checkpoint_results(session, run_id, row.id),
                         every_translation=kept == len(position_of))


def evaluation_runs(session: Session, system_id: int) -> list[int]:
    """Ids of the evaluation runs that scored a system, oldest first."""
    return list(
        session.scalars(
            select(TranslationRow.run_id).where(TranslationRow.system_id == system_id).distinct().order_by(TranslationRow.run_id)
        )
    )


def evaluated_systems(session: Session, suite_id: int) -> list[str]:
    """Systems with at least one stored evaluation, in the order they were first added."""
    return list(
        session.scalars(
            select(SystemRow.name)
            .where(SystemRow.suite_id == suite_id)
            .where(SystemRow.id.in_(select(TranslationRow.system_id).distinct()))
            .order_by(SystemRow.id)
        )
    )


def comparison_runs(session: Session, suite_id: int) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """The suite's stored comparisons as ``(run id, options, report)``, newest first."""
    rows = session.execute(
        select(RunRow.id, RunRow.options, RunRow.report)
        .where(RunRow.suite_id == suite_id, RunRow.kind == "compare")
        .order_by(RunRow.id.desc())
    ).all()
    return [(run_id, dict(options or {}), dict(report or {})) for run_id, options, report in rows]
