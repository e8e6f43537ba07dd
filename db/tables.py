"""SQLAlchemy ORM models: one suite per build, its pairs, check-points and evaluation runs.

ORM rows never leave :mod:`checkpoints.db`; :mod:`checkpoints.db.repo` converts
them to the core dataclasses, so extractors and metrics stay database-free.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

SCHEMA_VERSION = 3


class Base(DeclarativeBase):
    pass


class Meta(Base):
    """Schema and package version that wrote the database."""

    __tablename__ = "meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Suite(Base):
    __tablename__ = "suite"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    source_lang: Mapped[str] = mapped_column(String(16))
    target_lang: Mapped[str] = mapped_column(String(16))
    taxonomy: Mapped[str] = mapped_column(String(200))
    taxonomy_version: Mapped[str] = mapped_column(String(32), default="1")
    created: Mapped[datetime] = mapped_column(DateTime)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    summary: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    pairs: Mapped[list[Pair]] = relationship(back_populates="suite", cascade="all, delete-orphan", order_by="Pair.position")
    categories: Mapped[list[CategoryRow]] = relationship(cascade="all, delete-orphan", order_by="CategoryRow.position")


class Pair(Base):
    __tablename__ = "pair"
    id: Mapped[int] = mapped_column(primary_key=True)
    suite_id: Mapped[int] = mapped_column(ForeignKey("suite.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    """0-based line number of this pair in system output files."""
    external_id: Mapped[str] = mapped_column(String(200))

    suite: Mapped[Suite] = relationship(back_populates="pairs")
    __table_args__ = (UniqueConstraint("suite_id", "position"),)


class SentenceRow(Base):
    """One side of a pair: the source (reference_index NULL) or a reference."""

    __tablename__ = "sentence"
    id: Mapped[int] = mapped_column(primary_key=True)
    pair_id: Mapped[int] = mapped_column(ForeignKey("pair.id", ondelete="CASCADE"), index=True)
    side: Mapped[str] = mapped_column(String(8))
    reference_index: Mapped[int] = mapped_column(Integer, default=0)
    text: Mapped[str] = mapped_column(Text)
    tokens: Mapped[str] = mapped_column(Text)
    """Words joined by single spaces (the tokens alignment indices count)."""
    conllu: Mapped[str | None] = mapped_column(Text, nullable=True)
    __table_args__ = (UniqueConstraint("pair_id", "side", "reference_index"),)


class AlignmentRow(Base):
    __tablename__ = "alignment"
    id: Mapped[int] = mapped_column(primary_key=True)
    pair_id: Mapped[int] = mapped_column(ForeignKey("pair.id", ondelete="CASCADE"), index=True)
    reference_index: Mapped[int] = mapped_column(Integer)
    links: Mapped[str] = mapped_column(Text)
    """Pharaoh links ``i-j`` separated by spaces."""


class CategoryRow(Base):
    __tablename__ = "category"
    id: Mapped[int] = mapped_column(primary_key=True)
    suite_id: Mapped[int] = mapped_column(ForeignKey("suite.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    level: Mapped[str] = mapped_column(String(16))
    description: Mapped[str] = mapped_column(Text, default="")
    user_defined: Mapped[bool] = mapped_column(Boolean, default=False)
    __table_args__ = (UniqueConstraint("suite_id", "name"),)


class CheckpointBlock(Base):
    """A suite's check-points and their references, packed column by column in one row.

    Every command reads a suite's check-points whole, so they are kept as a
    few packed arrays and one text rather than a row per check-point and per
    reference (see :mod:`checkpoints.db.checkpoint_block`, which packs and
    unpacks them). Check-points come in the order of their numbers.
    """

    __tablename__ = "checkpoint_block"
    id: Mapped[int] = mapped_column(primary_key=True)
    suite_id: Mapped[int] = mapped_column(ForeignKey("suite.id", ondelete="CASCADE"), unique=True)
    count: Mapped[int] = mapped_column(Integer)
    """How many check-points the block holds."""
    numbers: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: each check-point's number inside its suite (stable across export and import), ascending."""
    pair_positions: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: the position (``Pair.position``) of each check-point's sentence pair."""
    categories: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: the position (``CategoryRow.position``) of each check-point's category."""
    span_lengths: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: how many source word indices each check-point spans."""
    spans: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: the 0-based source word indices of every check-point, one after the other."""
    reference_counts: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: how many references each check-point has; the reference arrays hold them in turn."""
    reference_indices: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: per reference, which reference translation of the pair it comes from."""
    target_lengths: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: per reference, how many target word indices it has."""
    targets: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: the 0-based target word indices of every reference, one after the other."""
    dm: Mapped[bytes] = mapped_column(LargeBinary)
    """float64: per reference, Zhou's dictionary matching degree."""
    aligned: Mapped[bytes] = mapped_column(LargeBinary)
    """uint8: per reference, 1 when it was found through the word alignment."""
    token_lengths: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: per reference, the length in characters of its part of ``tokens``."""
    tokens: Mapped[str] = mapped_column(Text)
    """Every reference's tokens joined by single spaces (``*`` for a gap), references concatenated."""


class KeptIndexRow(Base):
    """A suite's references compiled for matching, kept so the next evaluation skips compiling.

    Compiling is a third of a whole ``evaluate`` of a large suite and depends only
    on the suite and the matching options, which ``key`` digests (SHA-256 of
    :attr:`~checkpoints.evaluate.scoring.CheckpointScorer.index_key`); ``made_by``
    names the format and the version that wrote it, so an upgrade replaces it.
    The table is optional (:data:`OPTIONAL_TABLES`): databases made before it are
    read as they are and gain it on their next evaluation.
    """

    __tablename__ = "kept_index"
    id: Mapped[int] = mapped_column(primary_key=True)
    suite_id: Mapped[int] = mapped_column(ForeignKey("suite.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(64))
    made_by: Mapped[str] = mapped_column(String(64))
    payload: Mapped[bytes] = mapped_column(LargeBinary)
    """:meth:`~checkpoints.evaluate.compiled.ReferenceIndex.to_bytes`."""
    __table_args__ = (UniqueConstraint("suite_id", "key"),)


OPTIONAL_TABLES = frozenset({KeptIndexRow.__tablename__})
"""Tables a store of this schema version may lack: caches, made when first needed."""


class SystemRow(Base):
    __tablename__ = "system"
    id: Mapped[int] = mapped_column(primary_key=True)
    suite_id: Mapped[int] = mapped_column(ForeignKey("suite.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    __table_args__ = (UniqueConstraint("suite_id", "name"),)


class TranslationRow(Base):
    __tablename__ = "translation"
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), index=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"), index=True)
    pair_id: Mapped[int] = mapped_column(ForeignKey("pair.id", ondelete="CASCADE"))
    text: Mapped[str] = mapped_column(Text)
    length: Mapped[int] = mapped_column(Integer)
    """Tokens of the translation under the run's tokenizer (the penalty's length(T))."""
    reference_length: Mapped[float] = mapped_column(Float)
    """Mean token count of the pair's references under the same tokenizer (length(R))."""
    __table_args__ = (Index("ix_translation_run_system_pair", "run_id", "system_id", "pair_id"),)


class RunRow(Base):
    """One evaluation (or comparison): its options, signature and time."""

    __tablename__ = "run"
    id: Mapped[int] = mapped_column(primary_key=True)
    suite_id: Mapped[int] = mapped_column(ForeignKey("suite.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    created: Mapped[datetime] = mapped_column(DateTime)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    signature: Mapped[str] = mapped_column(Text, default="")
    report: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class CheckpointResultRow(Base):
    """One system's per check-point results in one run: r*'s position, its DM and n-gram counts.

    One row per (run, system) holding the values of every evaluated
    check-point as packed little-endian arrays (``numpy.ndarray.tobytes``),
    all aligned with ``numbers``: a run over 100,000 check-points is written
    and read back in milliseconds, where one row per check-point took seconds.
    ``checkpoint_results`` in :mod:`checkpoints.db.repo` unpacks a row.
    """

    __tablename__ = "checkpoint_result"
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), index=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    count: Mapped[int] = mapped_column(Integer)
    """How many check-points the arrays hold."""
    numbers: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: the check-points' numbers (``CheckpointBlock.numbers``), ascending."""
    reference_positions: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: position of r* in the check-point's references, −1 for a check-point without any."""
    dm: Mapped[bytes] = mapped_column(LargeBinary)
    """float64: DM of r* (0 without references)."""
    matched: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: matched n-grams of r*."""
    total: Mapped[bytes] = mapped_column(LargeBinary)
    """int64: n-grams of r*."""
    __table_args__ = (UniqueConstraint("run_id", "system_id"),)


class CategoryResultRow(Base):
    __tablename__ = "category_result"
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), index=True)
    system_id: Mapped[int] = mapped_column(ForeignKey("system.id", ondelete="CASCADE"))
    scope: Mapped[str] = mapped_column(String(16))
    """``category``, ``group`` or ``taxonomy``."""
    name: Mapped[str] = mapped_column(String(200))
    checkpoints: Mapped[int] = mapped_column(Integer)
    recall: Mapped[float] = mapped_column(Float)
    penalty: Mapped[float] = mapped_column(Float)
    score: Mapped[float] = mapped_column(Float)
