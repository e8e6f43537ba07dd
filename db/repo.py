"""Conversion between ORM rows and core dataclasses, with bulk writes.

Bulk Core ``insert()`` on the mapped tables keeps a build of thousands of pairs
to a handful of executemany statements; the ORM unit of work (one statement per
object) and even ORM bulk inserts are several times slower here. The database
numbers the rows; a suite's natural keys map them back (``_ids_by_key``). A
suite's check-points, read and written only whole, are one packed row.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import fields as dataclass_fields
from typing import Any

import numpy as np
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from checkpoints.db.checkpoint_block import CheckpointRecords, unpack_checkpoints
from checkpoints.db.staging_names import visible
from checkpoints.db.stored_sentence import stored_sentence
from checkpoints.db.suite_writer import SuiteWriter
from checkpoints.db.tables import (
    AlignmentRow,
    CategoryResultRow,
    CategoryRow,
    CheckpointBlock,
    CheckpointResultRow,
    Pair,
    RunRow,
    SentenceRow,
    Suite,
    SystemRow,
    TranslationRow,
)
from checkpoints.errors import SuiteError
from checkpoints.evaluate.columns import CheckpointColumns
from checkpoints.model import (
    Alignment,
    Category,
    CheckPoint,
    Level,
    Sentence,
    SentencePair,
    SuiteData,
)


def _ids_by_key(session: Session, key: Any, owner: Any, owner_id: int) -> dict[Any, int]:
    """Row ids the database gave a suite's rows, by a key unique within the suite.

    Rows are bulk-inserted without ids, so the database numbers them (never
    ``max(id) + 1``, which two writers would both take, and which leaves a
    PostgreSQL sequence behind); one SELECT then maps the suite's natural keys
    (its pairs' positions) to those ids. This is as fast as the plain
    executemany, which RETURNING in parameter order is not on SQLite (one
    statement per row).
    """
    id_column = key.class_.id
    return {row[0]: row[1] for row in session.execute(select(key, id_column).where(owner == owner_id))}


def suite_names(session: Session) -> list[str]:
    return list(session.scalars(select(Suite.name).where(visible()).order_by(Suite.id)))


def name_taken(name: str) -> str:
    """The message for a suite name already in use."""
    return f"a suite named {name!r} already exists in this database: choose another --name, or --replace it"


def find_suite(session: Session, name: str | None = None) -> Suite:
    """The suite called ``name``, or the only suite when no name is given."""
    if name is not None:
        suite = session.scalar(select(Suite).where(Suite.name == name))
        if suite is None:
            known = ", ".join(suite_names(session)) or "none"
            raise SuiteError(f"no suite named {name!r} in this database (suites: {known})")
        return suite
    suites = list(session.scalars(select(Suite).where(visible()).order_by(Suite.id)))
    if not suites:
        raise SuiteError("the database holds no suite: build or import one first")
    if len(suites) > 1:
        names = ", ".join(s.name for s in suites)
        raise SuiteError(f"the database holds several suites ({names}): choose one with --suite")
    return suites[0]


def store_suite(
    session: Session, data: SuiteData, *, content_hash: Callable[[], str] | None = None, replace: bool = False
) -> int:
    """Write a whole suite; the caller's transaction makes it all-or-nothing.

    ``content_hash``, when given, is asked for the suite's content hash once
    everything else is written (it may be computed meanwhile elsewhere); it
    goes into the suite's options, here and in ``data``. With ``replace`` a
    suite of the same name is deleted first, in the same transaction: an
    interrupted replacement keeps the old suite.
    """
    claim_name(session, data.name, replace=replace)
    writer = SuiteWriter(
        session,
        name=data.name,
        source_lang=data.source_lang,
        target_lang=data.target_lang,
        taxonomy=data.taxonomy,
        taxonomy_version=data.taxonomy_version,
        categories=data.categories,
        user_categories=data.user_categories,
        options=data.options,
    )
    writer.add(data.pairs, data.checkpoints)
    if content_hash is not None:
        data.options["content_hash"] = content_hash()
    return writer.finish(data.options, data.summary)


def claim_name(session: Session, name: str, *, replace: bool = False) -> None:
    """Make ``name`` free for a new suite: refuse a name in use, or with ``replace`` delete its
    suite in the caller's transaction (an interrupted replacement keeps the old suite)."""
    if session.scalar(select(Suite.id).where(Suite.name == name)) is not None:
        if not replace:
            raise SuiteError(name_taken(name))
        delete_suite(session, name)


def load_suite(session: Session, name: str | None = None) -> SuiteData:
    """The whole suite as core dataclasses (pairs in file order, check-points by number).

    Column-wise Core SELECTs, no ORM object per row; the check-points come as
    one packed row (:mod:`checkpoints.db.checkpoint_block`), offered as
    columns until someone reads them as objects. Sentences come back as
    :class:`~checkpoints.db.stored_sentence.StoredSentence`, whose words are
    parsed when first read: an evaluation only reads the reference texts, and
    building every sentence's tokens was most of the time of loading a suite.
    """
    suite = find_suite(session, name)
    connection = session.connection()  # Core rows: no ORM loading per row
    category_rows = connection.execute(
        select(CategoryRow.id, CategoryRow.name, CategoryRow.level, CategoryRow.description, CategoryRow.user_defined)
        .where(CategoryRow.suite_id == suite.id)
        .order_by(CategoryRow.position)
    ).all()
    categories = [Category(name, Level(level), description) for _, name, level, description, _ in category_rows]
    user_categories = {name for _, name, _, _, user_defined in category_rows if user_defined}

    pair_rows = connection.execute(
        select(Pair.id, Pair.position, Pair.external_id).where(Pair.suite_id == suite.id).order_by(Pair.position)
    ).all()
    suite_pairs = select(Pair.id).where(Pair.suite_id == suite.id)
    sentences: dict[int, dict[tuple[str, int], Sentence]] = defaultdict(dict)
    for row_id, pair_id, side, index, text, tokens, conllu in connection.execute(
        select(SentenceRow.id, SentenceRow.pair_id, SentenceRow.side, SentenceRow.reference_index, SentenceRow.text,
               SentenceRow.tokens, SentenceRow.conllu).where(SentenceRow.pair_id.in_(suite_pairs))
    ).all():
        language = suite.source_lang if side == "source" else suite.target_lang
        sentences[pair_id][(side, index)] = stored_sentence(row_id, text, tokens, conllu, language)
    alignments: dict[int, dict[int, str]] = defaultdict(dict)
    for pair_id, index, links in connection.execute(
        select(AlignmentRow.pair_id, AlignmentRow.reference_index, AlignmentRow.links).where(
            AlignmentRow.pair_id.in_(suite_pairs)
        )
    ).all():
        alignments[pair_id][index] = links

    pairs: list[SentencePair] = []
    pair_number: dict[int, int] = {}
    for row_id, position, external_id in pair_rows:
        sides = sentences[row_id]
        ref_keys = sorted(index for side, index in sides if side == "ref")
        links = alignments.get(row_id, {})
        number = pair_number[row_id] = int(external_id) if external_id.isdigit() else position + 1
        pairs.append(
            SentencePair(
                number,
                sides[("source", 0)],
                [sides[("ref", index)] for index in ref_keys],
                [_alignment_from_text(links.get(index, "")) for index in ref_keys],
            )
        )

    block = connection.execute(select(CheckpointBlock).where(CheckpointBlock.suite_id == suite.id)).one_or_none()
    pair_numbers = np.fromiter(pair_number.values(), dtype=np.int64, count=len(pair_number))
    category_names = [row[1] for row in category_rows]
    if block is None:  # written in the suite's own transaction: a suite without one was damaged
        raise SuiteError(f"suite {suite.name!r} has lost its check-points: the database is damaged")
    records = unpack_checkpoints(block, pair_numbers, category_names)
    suite_data = StoredSuite(
        name=suite.name,
        source_lang=suite.source_lang,
        target_lang=suite.target_lang,
        taxonomy=suite.taxonomy,
        taxonomy_version=suite.taxonomy_version,
        categories=categories,
        pairs=pairs,
        checkpoints=[],
        options=dict(suite.options or {}),
        summary=dict(suite.summary or {}),
        user_categories=user_categories,
    )
    suite_data._records = records
    return suite_data


class StoredSuite(SuiteData):
    """A suite read from the store, whose check-point objects are built when first read.

    Until then its check-points are also offered column by column
    (:meth:`checkpoint_columns`), which is all that scoring reads: evaluating
    100,000 check-points never builds their objects. Once ``checkpoints`` has
    been read (or set) the objects are the suite's check-points and the
    columns are dropped, since the objects may have been changed. The suite
    otherwise behaves as a :class:`SuiteData` and compares equal to one with
    the same fields.
    """

    __slots__ = ("_records",)

    def checkpoint_columns(self) -> CheckpointColumns | None:
        """The check-points as columns, while no one has read them as objects."""
        records = self._pending()
        return records.columns() if records is not None else None

    def _pending(self) -> CheckpointRecords | None:
        try:
            return self._records
        except AttributeError:  # made by __init__ (dataclasses.replace, a copy): nothing pending
            return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SuiteData):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in dataclass_fields(SuiteData) if f.compare)

    __hash__ = None  # type: ignore[assignment]  # mutable, like SuiteData


def _get_checkpoints(suite: StoredSuite) -> list[CheckPoint]:
    records = suite._pending()
    if records is not None:
        suite._records = None
        _SUITE_CHECKPOINTS.__set__(suite, records.checkpoints())
    return _SUITE_CHECKPOINTS.__get__(suite, SuiteData)


def _set_checkpoints(suite: StoredSuite, value: list[CheckPoint]) -> None:
    suite._records = None
    _SUITE_CHECKPOINTS.__set__(suite, value)


_SUITE_CHECKPOINTS = SuiteData.__dict__["checkpoints"]
StoredSuite.checkpoints = property(  # type: ignore[assignment]
    _get_checkpoints, _set_checkpoints, doc="``SuiteData.checkpoints``, built from the store on first use."
)


def _alignment_from_text(links: str) -> Alignment:
    pairs = []
    for item in links.split():
        source, _, target = item.partition("-")
        pairs.append((int(source), int(target)))
    return Alignment.from_pairs(pairs)


def delete_suite(session: Session, name: str) -> None:
    """Delete a suite and everything that belongs to it, table by table from the leaves.

    Deleting through the ORM loads every pair, sentence and check-point first,
    and leaving it to ``ON DELETE CASCADE`` makes the database look up each
    deleted check-point's results by a column it has no index on: either took
    half a minute for the demo suite. A few set-based DELETEs take a moment.
    """
    suite_id = find_suite(session, name).id
    runs = select(RunRow.id).where(RunRow.suite_id == suite_id).scalar_subquery()
    pairs = select(Pair.id).where(Pair.suite_id == suite_id).scalar_subquery()
    for table, column, owners in (
        (CheckpointResultRow, CheckpointResultRow.run_id, runs),
        (CategoryResultRow, CategoryResultRow.run_id, runs),
        (TranslationRow, TranslationRow.run_id, runs),
        (SentenceRow, SentenceRow.pair_id, pairs),
        (AlignmentRow, AlignmentRow.pair_id, pairs),
    ):
        session.execute(delete(table).where(column.in_(owners)))
    for table, column in ((RunRow, RunRow.suite_id), (CheckpointBlock, CheckpointBlock.suite_id),
                          (Pair, Pair.suite_id), (CategoryRow, CategoryRow.suite_id), (SystemRow, SystemRow.suite_id)):
        session.execute(delete(table).where(column == suite_id))
    session.execute(delete(Suite).where(Suite.id == suite_id))
    session.expire_all()
