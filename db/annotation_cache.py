"""Parses kept in a check-point store: the annotation cache of commands that work with one.

``metrics --db``, ``meta --db`` and ``annotate --db`` keep the parses of the
texts they score in the store beside the suite, so a second run, on any
machine that reaches the store (PostgreSQL by URL), parses nothing. The table
is a cache, not part of a suite: it has its own metadata, is created on first
use in any store of the current schema, and never changes the schema version
(a store without it is complete).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from sqlalchemy import String, Text, inspect, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from checkpoints.db.session import describe, open_engine, store_is_writable, transaction
from checkpoints.evaluate.metrics.linguistic.annotations import cached_block, cached_sentence
from checkpoints.model import Sentence

LOOKUP_CHUNK = 500
"""Keys per ``IN (...)`` query (well under SQLite's and PostgreSQL's parameter limits)."""


class CacheBase(DeclarativeBase):
    pass


class AnnotationRow(CacheBase):
    """One text's parse by one pipeline."""

    __tablename__ = "annotation_cache"
    text_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    language: Mapped[str] = mapped_column(String(16), primary_key=True)
    pipeline: Mapped[str] = mapped_column(String(64), primary_key=True)
    conllu: Mapped[str] = mapped_column(Text)


def text_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class StoredAnnotations:
    """The annotation cache of one store (a :class:`~checkpoints.evaluate.metrics.linguistic.annotations.ParseCache`).

    A store this process cannot write (a read-only SQLite file) is still read.
    """

    def __init__(self, store: str) -> None:
        self.store = store
        self._engine: Engine | None = None
        self._writable = False

    def _ready(self) -> Engine:
        if self._engine is None:
            engine = open_engine(self.store, create=False)
            self._writable = store_is_writable(engine)
            if self._writable:
                try:
                    CacheBase.metadata.create_all(engine, checkfirst=True)
                except SQLAlchemyError:  # no right to create tables, or another process made it meanwhile
                    self._writable = _has_table(engine)
            self._engine = engine
        return self._engine

    def read(self, language: str, pipeline: str, keys: Sequence[str]) -> dict[str, Sentence]:
        engine = self._ready()
        hashes = {text_hash(key): key for key in keys}
        found: dict[str, Sentence] = {}
        if not self._writable and not _has_table(engine):
            return found
        with transaction(engine) as session:
            wanted = list(hashes)
            for start in range(0, len(wanted), LOOKUP_CHUNK):
                rows = session.execute(select(AnnotationRow.text_hash, AnnotationRow.conllu).where(
                    AnnotationRow.language == language, AnnotationRow.pipeline == pipeline,
                    AnnotationRow.text_hash.in_(wanted[start:start + LOOKUP_CHUNK])))
                for digest, block in rows:
                    key = hashes[digest]
                    sentence = cached_sentence(key, block, f"{describe(engine.url)}: annotation {digest[:12]}")
                    if sentence is not None:
                        found[key] = sentence
        return found

    def write(self, language: str, pipeline: str, parsed: Mapping[str, Sentence]) -> None:
        engine = self._ready()
        if not self._writable or not parsed:
            return
        rows = {text_hash(key): cached_block(key, sentence) for key, sentence in parsed.items()}
        with transaction(engine) as session:
            present = _present(session, language, pipeline, list(rows))
            session.add_all(AnnotationRow(text_hash=digest, language=language, pipeline=pipeline, conllu=block)
                            for digest, block in rows.items() if digest not in present)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


def _present(session: Session, language: str, pipeline: str, hashes: list[str]) -> set[str]:
    present: set[str] = set()
    for start in range(0, len(hashes), LOOKUP_CHUNK):
        present.update(session.scalars(select(AnnotationRow.text_hash).where(
            AnnotationRow.language == language, AnnotationRow.pipeline == pipeline,
            AnnotationRow.text_hash.in_(hashes[start:start + LOOKUP_CHUNK]))))
    return present


def _has_table(engine: Engine) -> bool:
    with engine.connect() as connection:
        return AnnotationRow.__tablename__ in inspect(connection).get_table_names()
