"""Writing a suite into the store chunk by chunk, inside the caller's one transaction.

A build streams its corpus: pairs and their check-points arrive a chunk at a
time and are written as they come, so no more than a chunk of them is ever
alive. A suite's check-points are one ``checkpoint_block`` row
(:mod:`checkpoints.db.checkpoint_block`), so their packed columns (about 114
bytes a check-point, 230 MB for a 100,000-pair suite) are appended to
temporary files until the end; SQLite then receives each column through its
incremental blob I/O, a megabyte at a time, where binding them whole would
hold every column twice more (the build's peak memory at 100,000 pairs fell
from 1.4 GB to 0.94 GB). Other databases receive each column whole. Storing a
suite held whole (:func:`checkpoints.db.repo.store_suite`) is the one-chunk
case of the same writer, so both ways of storing write the same rows.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import IO

import numpy as np
from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from checkpoints.db.bulk import insert_rows
from checkpoints.db.checkpoint_block import pack_checkpoints
from checkpoints.db.tables import (
    AlignmentRow,
    CategoryRow,
    CheckpointBlock,
    Pair,
    SentenceRow,
    Suite,
)
from checkpoints.errors import SuiteError
from checkpoints.model import Category, CheckPoint, Sentence, SentencePair

SENTENCE_COLUMNS = ("pair_id", "side", "reference_index", "text", "tokens", "conllu")


class SuiteWriter:
    """One suite being written: :meth:`add` each chunk in corpus order, then :meth:`finish`.

    The name must be free (:func:`checkpoints.db.repo.claim_name` frees it
    for a replacement, in the same transaction).
    """

    def __init__(
        self,
        session: Session,
        *,
        name: str,
        source_lang: str,
        target_lang: str,
        taxonomy: str,
        taxonomy_version: str,
        categories: Sequence[Category],
        user_categories: set[str],
        options: dict[str, object],
    ) -> None:
        self.session = session
        self.name = name
        self.suite = Suite(
            name=name,
            source_lang=source_lang,
            target_lang=target_lang,
            taxonomy=taxonomy,
            taxonomy_version=taxonomy_version,
            created=datetime.now(UTC).replace(tzinfo=None),
            options=dict(options),
            summary={},
        )
        session.add(self.suite)
        session.flush()
        rows = [
            {
                "suite_id": self.suite.id,
                "position": position,
                "name": category.name,
                "level": category.level.value,
                "description": category.description,
                "user_defined": category.name in user_categories,
            }
            for position, category in enumerate(categories)
        ]
        if rows:
            session.execute(insert(CategoryRow.__table__), rows)
        self.category_position = {category.name: position for position, category in enumerate(categories)}
        self.pair_position: dict[int, int] = {}
        self.last_number = 0
        self.count = 0
        self.columns = ColumnSpool()

    def add(self, pairs: Sequence[SentencePair], checkpoints: Sequence[CheckPoint]) -> None:
        """Write one chunk: its pairs (with sentences and alignments) and its check-points, which
        refer to pairs of this chunk and are numbered above those of the chunks before."""
        start = len(self.pair_position)
        chunk_position: dict[int, int] = {}
        for offset, pair in enumerate(pairs):
            if pair.id in self.pair_position or pair.id in chunk_position:
                raise SuiteError(f"pair id {pair.id} is used twice in suite {self.name!r}")
            chunk_position[pair.id] = start + offset
        self.pair_position.update(chunk_position)
        suite_id = self.suite.id
        if pairs:
            self.session.execute(
                insert(Pair.__table__),
                [{"suite_id": suite_id, "position": start + offset, "external_id": str(pair.id)}
                 for offset, pair in enumerate(pairs)],
            )
            row_ids = dict(
                self.session.execute(
                    select(Pair.position, Pair.id).where(Pair.suite_id == suite_id, Pair.position >= start)
                ).all()
            )
            sentence_rows: list[tuple[object, ...]] = []
            alignment_rows: list[tuple[object, ...]] = []
            for offset, pair in enumerate(pairs):
                pair_id = row_ids[start + offset]
                sentence_rows.append(sentence_row(pair_id, "source", 0, pair.source))
                for index, reference in enumerate(pair.references):
                    sentence_rows.append(sentence_row(pair_id, "ref", index, reference))
                for index, alignment in enumerate(pair.alignments):
                    alignment_rows.append((pair_id, index, alignment.to_pharaoh()))
            insert_rows(self.session, SentenceRow.__table__, SENTENCE_COLUMNS, sentence_rows)
            insert_rows(self.session, AlignmentRow.__table__, ("pair_id", "reference_index", "links"), alignment_rows)
        if checkpoints:
            block = pack_checkpoints(checkpoints, chunk_position, self.category_position)
            self.append_block(block)

    def append_block(self, block: dict[str, object]) -> None:
        """Packed check-points (a ``checkpoint_block`` row's values, ``count`` included) after those before."""
        count = int(block.pop("count"))  # type: ignore[call-overload]
        numbers = np.frombuffer(block["numbers"], dtype="<i8")  # type: ignore[call-overload]
        if int(numbers[0]) <= self.last_number:
            raise SuiteError(f"check-point number {int(numbers[0])} is used twice")
        self.last_number = int(numbers[-1])
        self.count += count
        for key, value in block.items():
            self.columns.append(key, value.encode() if isinstance(value, str) else value)  # type: ignore[arg-type]

    def finish(self, options: dict[str, object], summary: dict[str, object]) -> int:
        """Write the packed check-points and the suite's final options and summary; the suite's id."""
        try:
            if self.count == 0:
                block = pack_checkpoints([], {}, self.category_position)
                self.session.execute(insert(CheckpointBlock.__table__), [{"suite_id": self.suite.id, **block}])
            elif self.session.get_bind().dialect.name == "sqlite":
                self._write_block_in_pieces()
            else:
                block = {"count": self.count, **{key: self.columns.read(key) for key in self.columns.names()}}
                block["tokens"] = block["tokens"].decode()  # type: ignore[attr-defined]
                self.session.execute(insert(CheckpointBlock.__table__), [{"suite_id": self.suite.id, **block}])
        finally:
            self.columns.close()
        self.suite.options = dict(options)
        self.suite.summary = dict(summary)
        self.session.flush()
        return self.suite.id

    def _write_block_in_pieces(self) -> None:
        """The block row with zero-filled blobs of the right sizes, then each column copied in."""
        binary = [key for key in self.columns.names() if key != "tokens"]
        values: dict[str, object] = {key: func.zeroblob(self.columns.size(key)) for key in binary}
        values.update(suite_id=self.suite.id, count=self.count, tokens=self.columns.read("tokens").decode())
        row_id = self.session.execute(insert(CheckpointBlock.__table__).values(values)).inserted_primary_key[0]
        del values
        connection = self.session.connection().connection.driver_connection
        for key in binary:
            with connection.blobopen(CheckpointBlock.__tablename__, key, row_id) as blob:  # type: ignore[union-attr]
                for piece in self.columns.pieces(key):
                    blob.write(piece)


class ColumnSpool:
    """Packed columns growing on disk, one temporary file each, read back whole or in pieces."""

    PIECE = 1 << 20

    def __init__(self) -> None:
        self._files: dict[str, IO[bytes]] = {}

    def append(self, key: str, data: bytes) -> None:
        handle = self._files.get(key)
        if handle is None:
            handle = self._files[key] = tempfile.TemporaryFile(prefix="checkpoints-column-")  # noqa: SIM115 - closed by close()
        handle.write(data)

    def names(self) -> list[str]:
        return list(self._files)

    def size(self, key: str) -> int:
        handle = self._files[key]
        handle.flush()
        return handle.seek(0, 2)

    def pieces(self, key: str) -> Iterator[bytes]:
        handle = self._files[key]
        handle.flush()
        handle.seek(0)
        while piece := handle.read(self.PIECE):
            yield piece

    def read(self, key: str) -> bytes:
        return b"".join(self.pieces(key))

    def close(self) -> None:
        for handle in self._files.values():
            handle.close()
        self._files = {}


def sentence_row(pair_id: int, side: str, index: int, sentence: Sentence) -> tuple[object, ...]:
    """Values in :data:`SENTENCE_COLUMNS` order."""
    has_parse = any(token.head or token.upos != "_" for token in sentence.tokens)
    conllu = (sentence.conllu or sentence.to_conllu()) if has_parse else None
    return (pair_id, side, index, sentence.text, sentence.tokenized_text(), conllu)
