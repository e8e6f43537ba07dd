"""Writing a suite into the store chunk by chunk, inside the caller's one transaction.

A build streams its corpus: pairs and their check-points arrive a chunk at a
time and are written as they come, so no more than a chunk of them is ever
alive. Only the check-points' packed columns (about 114 bytes a check-point)
are kept until the end, because a suite's check-points are one
``checkpoint_block`` row (:mod:`checkpoints.db.checkpoint_block`); they grow in
``bytearray`` buffers, written without a copy. Storing a suite held whole
(:func:`checkpoints.db.repo.store_suite`) is the one-chunk case of the same
writer, so both ways of storing write the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
from sqlalchemy import insert, select
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
        self.columns: dict[str, bytearray] = {}

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
                ).tuples().all()
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
            self._append_block(block)

    def _append_block(self, block: dict[str, object]) -> None:
        count = int(block.pop("count"))  # type: ignore[call-overload]
        numbers = np.frombuffer(block["numbers"], dtype="<i8")  # type: ignore[call-overload]
        if int(numbers[0]) <= self.last_number:
            raise SuiteError(f"check-point number {int(numbers[0])} is used twice")
        self.last_number = int(numbers[-1])
        self.count += count
        for key, value in block.items():
            data = value.encode() if isinstance(value, str) else value
            self.columns.setdefault(key, bytearray()).extend(data)  # type: ignore[arg-type]

    def finish(self, options: dict[str, object], summary: dict[str, object]) -> int:
        """Write the packed check-points and the suite's final options and summary; the suite's id."""
        if self.count == 0:
            block = pack_checkpoints([], {}, self.category_position)
        else:
            block = {"count": self.count}
            for key, value in self.columns.items():
                block[key] = value.decode() if key == "tokens" else value
        self.session.execute(insert(CheckpointBlock.__table__), [{"suite_id": self.suite.id, **block}])
        self.columns = {}
        self.suite.options = dict(options)
        self.suite.summary = dict(summary)
        self.session.flush()
        return self.suite.id


def sentence_row(pair_id: int, side: str, index: int, sentence: Sentence) -> tuple[object, ...]:
    """Values in :data:`SENTENCE_COLUMNS` order."""
    has_parse = any(token.head or token.upos != "_" for token in sentence.tokens)
    conllu = (sentence.conllu or sentence.to_conllu()) if has_parse else None
    return (pair_id, side, index, sentence.text, sentence.tokenized_text(), conllu)
