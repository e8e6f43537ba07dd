"""A resumable build's committed chunks (``build --resume``), kept out of sight until the suite is whole.

Each chunk is committed as a suite of its own under a reserved name
(:func:`staging_name`), with the key of the build's inputs and the chunk's
extraction counts. No command lists or opens such a suite: :func:`visible`
filters them out (:mod:`checkpoints.db.staging_names`). A build that is interrupted leaves them behind; run again
with ``--resume`` on the same inputs, it reads them back instead of
extracting their chunks again, and then :func:`assemble` moves their pairs and
check-points into the finished suite and deletes them, in the one transaction
that makes the suite appear.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from checkpoints.db.checkpoint_block import unpack_checkpoints
from checkpoints.db.staging_names import STAGING_PREFIX, staging_name
from checkpoints.db.suite_writer import SuiteWriter
from checkpoints.db.tables import CategoryRow, CheckpointBlock, Pair, Suite
from checkpoints.errors import SuiteError
from checkpoints.model import CheckPoint, SentencePair


@dataclass(frozen=True, slots=True)
class StagedChunk:
    index: int
    suite_id: int
    inputs: str
    summary: dict[str, Any]


def staged_chunks(session: Session, name: str) -> list[StagedChunk]:
    """The committed chunks of an interrupted build of ``name``, in corpus order."""
    prefix = f"{STAGING_PREFIX}{name}#"
    rows = session.execute(
        select(Suite.id, Suite.name, Suite.options, Suite.summary).where(Suite.name.startswith(prefix, autoescape=True))
    ).all()
    chunks = [
        StagedChunk(int(row.name[len(prefix):]), row.id, str((row.options or {}).get("staging_inputs", "")), row.summary or {})
        for row in rows
        if row.name[len(prefix):].isdigit()
    ]
    return sorted(chunks, key=lambda chunk: chunk.index)


def discard(session: Session, name: str) -> None:
    """Delete every staged chunk of ``name`` (with their pairs, sentences, alignments and check-points)."""
    from checkpoints.db.repo import delete_suite

    for chunk in staged_chunks(session, name):
        delete_suite(session, staging_name(name, chunk.index))


def staged_checkpoints(session: Session, chunk: StagedChunk, pairs: list[SentencePair]) -> list[CheckPoint]:
    """A staged chunk's check-points, its ``pairs`` (read again from the corpus) in stored order."""
    block = session.scalar(select(CheckpointBlock).where(CheckpointBlock.suite_id == chunk.suite_id))
    names = list(session.scalars(
        select(CategoryRow.name).where(CategoryRow.suite_id == chunk.suite_id).order_by(CategoryRow.position)))
    if block is None:
        raise SuiteError(f"staged chunk {chunk.index} has no check-points: the database is damaged")
    numbers = np.array([pair.id for pair in pairs], dtype=np.int64)
    return unpack_checkpoints(block, numbers, names).checkpoints()


def assemble(session: Session, name: str, writer: SuiteWriter) -> None:
    """Move every staged chunk of ``name`` into the suite ``writer`` is writing, in order, and
    delete the staged suites: pairs keep their rows (renumbered positions), check-points their numbers."""
    from checkpoints.db.repo import delete_suite

    for chunk in staged_chunks(session, name):
        offset = len(writer.pair_position)
        pair_rows = session.execute(
            select(Pair.position, Pair.external_id).where(Pair.suite_id == chunk.suite_id).order_by(Pair.position)
        ).all()
        session.execute(
            update(Pair).where(Pair.suite_id == chunk.suite_id)
            .values(suite_id=writer.suite.id, position=Pair.position + offset)
        )
        for position, external_id in pair_rows:
            writer.pair_position[int(external_id)] = offset + position
        block = session.scalar(select(CheckpointBlock).where(CheckpointBlock.suite_id == chunk.suite_id))
        if block is not None and block.count:
            columns: dict[str, object] = {
                key: bytes(getattr(block, key)) for key in (
                    "numbers", "categories", "span_lengths", "spans", "reference_counts", "reference_indices",
                    "target_lengths", "targets", "dm", "aligned", "token_lengths")
            }
            columns["pair_positions"] = (np.frombuffer(block.pair_positions, dtype="<i8") + offset).astype("<i8").tobytes()
            columns["tokens"] = block.tokens
            columns["count"] = block.count
            writer.append_block(columns)
        session.execute(delete(CheckpointBlock).where(CheckpointBlock.suite_id == chunk.suite_id))
        session.flush()
        delete_suite(session, staging_name(name, chunk.index))
