"""Conversion between ORM rows and core dataclasses, with bulk writes.

Bulk Core ``insert()`` on the mapped tables keeps a build of thousands of pairs
to a handful of executemany statements; the ORM unit of work (one statement per
object) and even ORM bulk inserts are several times slower here. The database
numbers the rows; a suite's natural keys map them back (``_ids_by_key``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from checkpoints.db.bulk import insert_rows
from checkpoints.db.models import (
    AlignmentRow,
    CategoryResultRow,
    CategoryRow,
    CheckpointReferenceRow,
    CheckpointResultRow,
    CheckpointRow,
    Pair,
    RunRow,
    SentenceRow,
    Suite,
    SystemRow,
    TranslationRow,
)
from checkpoints.errors import SuiteError
from checkpoints.io.conllu import parse_conllu_string
from checkpoints.model import (
    Alignment,
    Category,
    CheckPoint,
    Level,
    Reference,
    Sentence,
    SentencePair,
    SuiteData,
    Token,
)


def _ids_by_key(session: Session, key: Any, owner: Any, owner_id: int) -> dict[Any, int]:
    """Row ids the database gave a suite's rows, by a key unique within the suite.

    Rows are bulk-inserted without ids, so the database numbers them (never
    ``max(id) + 1``, which two writers would both take, and which leaves a
    PostgreSQL sequence behind); one SELECT then maps the suite's natural keys
    (pair position, category name, check-point number) to those ids. This is
    as fast as the plain executemany, which RETURNING in parameter order is not
    on SQLite (one statement per row).
    """
    id_column = key.class_.id
    return {row[0]: row[1] for row in session.execute(select(key, id_column).where(owner == owner_id))}


def suite_names(session: Session) -> list[str]:
    return list(session.scalars(select(Suite.name).order_by(Suite.id)))


def find_suite(session: Session, name: str | None = None) -> Suite:
    """The suite called ``name``, or the only suite when no name is given."""
    if name is not None:
        suite = session.scalar(select(Suite).where(Suite.name == name))
        if suite is None:
            known = ", ".join(suite_names(session)) or "none"
            raise SuiteError(f"no suite named {name!r} in this database (suites: {known})")
        return suite
    suites = list(session.scalars(select(Suite).order_by(Suite.id)))
    if not suites:
        raise SuiteError("the database holds no suite: build or import one first")
    if len(suites) > 1:
        names = ", ".join(s.name for s in suites)
        raise SuiteError(f"the database holds several suites ({names}): choose one with --suite")
    return suites[0]


def store_suite(session: Session, data: SuiteData) -> int:
    """Write a whole suite; the caller's transaction makes it all-or-nothing."""
    if session.scalar(select(Suite.id).where(Suite.name == data.name)) is not None:
        raise SuiteError(f"a suite named {data.name!r} already exists in this database: choose another --name")
    suite = Suite(
        name=data.name,
        source_lang=data.source_lang,
        target_lang=data.target_lang,
        taxonomy=data.taxonomy,
        taxonomy_version=data.taxonomy_version,
        created=datetime.now(UTC).replace(tzinfo=None),
        options=dict(data.options),
        summary=dict(data.summary),
    )
    session.add(suite)
    session.flush()

    category_rows = []
    for position, category in enumerate(data.categories):
        category_rows.append(
            {
                "suite_id": suite.id,
                "position": position,
                "name": category.name,
                "level": category.level.value,
                "description": category.description,
                "user_defined": category.name in data.user_categories,
            }
        )
    if category_rows:
        session.execute(insert(CategoryRow.__table__), category_rows)
    category_ids: dict[str, int] = _ids_by_key(session, CategoryRow.name, CategoryRow.suite_id, suite.id)

    pair_rows = [
        {"suite_id": suite.id, "position": position, "external_id": str(pair.id)}
        for position, pair in enumerate(data.pairs)
    ]
    if pair_rows:
        session.execute(insert(Pair.__table__), pair_rows)
    pair_at: dict[int, int] = _ids_by_key(session, Pair.position, Pair.suite_id, suite.id)
    pair_ids: dict[int, int] = {}
    sentence_rows: list[tuple[object, ...]] = []
    alignment_rows: list[tuple[object, ...]] = []
    for position, pair in enumerate(data.pairs):
        pair_id = pair_ids[pair.id] = pair_at[position]
        sentence_rows.append(_sentence_row(pair_id, "source", 0, pair.source))
        for index, reference in enumerate(pair.references):
            sentence_rows.append(_sentence_row(pair_id, "ref", index, reference))
        for index, alignment in enumerate(pair.alignments):
            alignment_rows.append((pair_id, index, alignment.to_pharaoh()))
    insert_rows(session, SentenceRow.__table__, SENTENCE_COLUMNS, sentence_rows)
    insert_rows(session, AlignmentRow.__table__, ("pair_id", "reference_index", "links"), alignment_rows)

    checkpoint_rows: list[tuple[object, ...]] = []
    for number, checkpoint in enumerate(data.checkpoints, start=1):
        if checkpoint.category not in category_ids:
            raise SuiteError(f"check-point {number} names unknown category {checkpoint.category!r}")
        checkpoint_rows.append((
            suite.id,
            pair_ids[checkpoint.pair_id],
            category_ids[checkpoint.category],
            checkpoint.id if checkpoint.id is not None else number,
            " ".join(map(str, checkpoint.source_indices)),
        ))
    insert_rows(
        session, CheckpointRow.__table__, ("suite_id", "pair_id", "category_id", "number", "span"), checkpoint_rows
    )
    checkpoint_at: dict[int, int] = _ids_by_key(session, CheckpointRow.number, CheckpointRow.suite_id, suite.id)
    reference_rows: list[tuple[object, ...]] = []
    for checkpoint, row in zip(data.checkpoints, checkpoint_rows, strict=True):
        checkpoint_id = checkpoint_at[row[3]]  # type: ignore[index]
        for position, reference in enumerate(checkpoint.references):
            reference_rows.append((
                checkpoint_id,
                position,
                reference.reference_index,
                " ".join(reference.tokens),
                " ".join(map(str, reference.target_indices)),
                float(reference.dm),
                bool(reference.from_alignment),
            ))
    insert_rows(session, CheckpointReferenceRow.__table__, REFERENCE_COLUMNS, reference_rows)
    return suite.id


SENTENCE_COLUMNS = ("pair_id", "side", "reference_index", "text", "tokens", "conllu")
REFERENCE_COLUMNS = ("checkpoint_id", "position", "reference_index", "tokens", "target_indices", "dm", "from_alignment")


def _sentence_row(pair_id: int, side: str, index: int, sentence: Sentence) -> tuple[object, ...]:
    """Values in :data:`SENTENCE_COLUMNS` order."""
    has_parse = any(token.head or token.upos != "_" for token in sentence.tokens)
    conllu = (sentence.conllu or sentence.to_conllu()) if has_parse else None
    return (pair_id, side, index, sentence.text, sentence.tokenized_text(), conllu)


def load_suite(session: Session, name: str | None = None) -> SuiteData:
    """The whole suite as core dataclasses (pairs in file order, check-points by number)."""
    suite = find_suite(session, name)
    categories_by_id: dict[int, CategoryRow] = {
        row.id: row
        for row in session.scalars(select(CategoryRow).where(CategoryRow.suite_id == suite.id).order_by(CategoryRow.position))
    }
    categories = [Category(row.name, Level(row.level), row.description) for row in categories_by_id.values()]
    user_categories = {row.name for row in categories_by_id.values() if row.user_defined}

    pair_rows = list(session.scalars(select(Pair).where(Pair.suite_id == suite.id).order_by(Pair.position)))
    pair_by_row_id = {row.id: row for row in pair_rows}
    sentences: dict[int, dict[tuple[str, int], SentenceRow]] = defaultdict(dict)
    for row in session.scalars(
        select(SentenceRow).join(Pair, SentenceRow.pair_id == Pair.id).where(Pair.suite_id == suite.id)
    ):
        sentences[row.pair_id][(row.side, row.reference_index)] = row
    alignments: dict[int, dict[int, str]] = defaultdict(dict)
    for row in session.scalars(
        select(AlignmentRow).join(Pair, AlignmentRow.pair_id == Pair.id).where(Pair.suite_id == suite.id)
    ):
        alignments[row.pair_id][row.reference_index] = row.links

    pairs: list[SentencePair] = []
    for row in pair_rows:
        sides = sentences[row.id]
        source = _sentence_from_row(sides[("source", 0)], suite.source_lang)
        ref_keys = sorted(index for side, index in sides if side == "ref")
        references = [_sentence_from_row(sides[("ref", index)], suite.target_lang) for index in ref_keys]
        links = alignments.get(row.id, {})
        pair_alignments = [_alignment_from_text(links.get(index, "")) for index in ref_keys]
        pairs.append(SentencePair(int(row.external_id) if row.external_id.isdigit() else row.position + 1,
                                  source, references, pair_alignments))
    pair_number = {row.id: pairs[i].id for i, row in enumerate(pair_rows)}

    refs_by_checkpoint: dict[int, list[Reference]] = defaultdict(list)
    for ref_row in session.scalars(
        select(CheckpointReferenceRow)
        .join(CheckpointRow, CheckpointReferenceRow.checkpoint_id == CheckpointRow.id)
        .where(CheckpointRow.suite_id == suite.id)
        .order_by(CheckpointReferenceRow.checkpoint_id, CheckpointReferenceRow.position)
    ):
        refs_by_checkpoint[ref_row.checkpoint_id].append(
            Reference(
                reference_index=ref_row.reference_index,
                target_indices=[int(i) for i in ref_row.target_indices.split()],
                tokens=ref_row.tokens.split(" ") if ref_row.tokens else [],
                dm=ref_row.dm,
                from_alignment=ref_row.from_alignment,
            )
        )
    checkpoints = [
        CheckPoint(
            pair_id=pair_number[row.pair_id],
            category=categories_by_id[row.category_id].name,
            source_indices=[int(i) for i in row.span.split()],
            references=refs_by_checkpoint.get(row.id, []),
            id=row.number,
        )
        for row in session.scalars(
            select(CheckpointRow).where(CheckpointRow.suite_id == suite.id).order_by(CheckpointRow.number)
        )
        if row.pair_id in pair_by_row_id
    ]
    return SuiteData(
        name=suite.name,
        source_lang=suite.source_lang,
        target_lang=suite.target_lang,
        taxonomy=suite.taxonomy,
        taxonomy_version=suite.taxonomy_version,
        categories=categories,
        pairs=pairs,
        checkpoints=checkpoints,
        options=dict(suite.options or {}),
        summary=dict(suite.summary or {}),
        user_categories=user_categories,
    )


def _sentence_from_row(row: SentenceRow, language: str) -> Sentence:
    if row.conllu:
        sentence = parse_conllu_string(row.conllu, language, name=f"<stored sentence {row.id}>")[0]
        sentence.text = row.text
        return sentence
    return Sentence(tokens=[Token(form=form) for form in row.tokens.split(" ") if form], text=row.text, language=language)


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
    checkpoints = select(CheckpointRow.id).where(CheckpointRow.suite_id == suite_id).scalar_subquery()
    pairs = select(Pair.id).where(Pair.suite_id == suite_id).scalar_subquery()
    for table, column, owners in (
        (CheckpointResultRow, CheckpointResultRow.run_id, runs),
        (CategoryResultRow, CategoryResultRow.run_id, runs),
        (TranslationRow, TranslationRow.run_id, runs),
        (CheckpointReferenceRow, CheckpointReferenceRow.checkpoint_id, checkpoints),
        (SentenceRow, SentenceRow.pair_id, pairs),
        (AlignmentRow, AlignmentRow.pair_id, pairs),
    ):
        session.execute(delete(table).where(column.in_(owners)))
    for table, column in ((RunRow, RunRow.suite_id), (CheckpointRow, CheckpointRow.suite_id),
                          (Pair, Pair.suite_id), (CategoryRow, CategoryRow.suite_id), (SystemRow, SystemRow.suite_id)):
        session.execute(delete(table).where(column == suite_id))
    session.execute(delete(Suite).where(Suite.id == suite_id))
    session.expire_all()


# -- evaluation runs -----------------------------------------------------------


@dataclass(slots=True)
class SystemResults:
    """One system's stored results in one run, keyed for re-use without re-matching."""

    run_id: int
    run_options: dict[str, Any]
    translations: list[str]
    """Per pair position (suite order); pairs not in the run's evaluated set hold ''."""
    translation_lengths: dict[int, int]
    """Pair position → translation length under the run's tokenizer."""
    checkpoints: dict[int, tuple[int, float, int, int]]
    """Check-point number → (reference position of r*, DM, matched, total)."""


def suite_row_ids(session: Session, suite_id: int) -> tuple[dict[int, int], dict[int, int]]:
    """Pair position → pair row id, and check-point number → check-point row id."""
    pairs = dict(session.execute(select(Pair.position, Pair.id).where(Pair.suite_id == suite_id)).all())
    checkpoints = dict(
        session.execute(select(CheckpointRow.number, CheckpointRow.id).where(CheckpointRow.suite_id == suite_id)).all()
    )
    return pairs, checkpoints


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


def store_system_results(
    session: Session,
    run_id: int,
    system_id: int,
    *,
    pair_ids: Sequence[int],
    translations: Sequence[str],
    translation_lengths: Sequence[float],
    reference_lengths: Sequence[float],
    checkpoint_ids: Sequence[int],
    chosen: Sequence[int],
    dm: Sequence[float],
    matched: Sequence[int],
    total: Sequence[int],
    scopes: Sequence[dict[str, Any]],
) -> None:
    """Bulk-insert one system's translations, per check-point results and scope scores."""
    session.execute(
        insert(TranslationRow.__table__),
        [
            {"run_id": run_id, "system_id": system_id, "pair_id": pair_id, "text": text,
             "length": int(length), "reference_length": float(ref_length)}
            for pair_id, text, length, ref_length in zip(
                pair_ids, translations, translation_lengths, reference_lengths, strict=True
            )
        ],
    )
    session.execute(
        insert(CheckpointResultRow.__table__),
        [
            {"run_id": run_id, "system_id": system_id, "checkpoint_id": cp, "reference_position": int(ref),
             "dm": float(weight), "matched": int(hit), "total": int(count)}
            for cp, ref, weight, hit, count in zip(checkpoint_ids, chosen, dm, matched, total, strict=True)
        ],
    )
    if scopes:
        session.execute(
            insert(CategoryResultRow.__table__), [{"run_id": run_id, "system_id": system_id, **scope} for scope in scopes]
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
    run = session.get(RunRow, run_id)
    if run is None:  # the row was found by its id a moment ago, in this transaction
        raise SuiteError(f"evaluation run {run_id} vanished")
    position_of = dict(session.execute(select(Pair.id, Pair.position).where(Pair.suite_id == suite_id)).all())
    translations = [""] * len(position_of)
    lengths: dict[int, int] = {}
    for pair_id, text, length in session.execute(
        select(TranslationRow.pair_id, TranslationRow.text, TranslationRow.length).where(
            TranslationRow.run_id == run_id, TranslationRow.system_id == row.id
        )
    ).all():
        position = position_of[pair_id]
        translations[position] = text
        lengths[position] = length
    number_of = dict(
        session.execute(select(CheckpointRow.id, CheckpointRow.number).where(CheckpointRow.suite_id == suite_id)).all()
    )
    checkpoints = {
        number_of[cp]: (ref, dm, matched, total)
        for cp, ref, dm, matched, total in session.execute(
            select(
                CheckpointResultRow.checkpoint_id,
                CheckpointResultRow.reference_position,
                CheckpointResultRow.dm,
                CheckpointResultRow.matched,
                CheckpointResultRow.total,
            ).where(CheckpointResultRow.run_id == run_id, CheckpointResultRow.system_id == row.id)
        ).all()
    }
    return SystemResults(run_id, dict(run.options or {}), translations, lengths, checkpoints)


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
