"""A build's parsed sentence pairs, kept in chunks that are read again pass after pass.

A build goes over its corpus several times (align, mine the taxonomy's corpus
statistics, extract and store), but only one chunk of pairs needs to be alive
at a time. Parsed pairs take about 36 KB each in memory (the 1,000-pair PUD
demo: 36 MB), so a 100,000-pair corpus held whole would need 3.6 GB before a
single check-point exists. The spool holds chunks in memory up to a bound and
pickles the rest to a temporary file, which each later pass reads back chunk
by chunk: a small corpus never touches the disk, and a large one costs a
pickle load per pass (0.24 s per 1,000 pairs) instead of memory that grows
with the corpus.

Alignments are kept apart, packed (:class:`PackedAlignment`): they change
between passes (the repair rewrites them), and packed they take about 200
bytes a pair instead of the 3 KB of an :class:`~checkpoints.model.Alignment`.
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

import numpy as np

from checkpoints.model import Alignment, SentencePair

CHUNK_PAIRS = 1024
"""Sentence pairs read, extracted and stored together."""

MEMORY_PAIRS = 2000
"""Pairs a spool holds in memory before it writes chunks to disk (about 75 MB of parses)."""


class PairSpool:
    """Chunks of sentence pairs, in corpus order, that can be iterated any number of times."""

    def __init__(self, memory_pairs: int | None = None) -> None:
        self.memory_pairs = MEMORY_PAIRS if memory_pairs is None else memory_pairs
        self._held: list[list[SentencePair]] = []
        self._held_pairs = 0
        self._file: IO[bytes] | None = None
        self._offsets: list[int] = []
        self.pairs = 0

    def append(self, chunk: list[SentencePair]) -> None:
        self.pairs += len(chunk)
        if self._file is None and self._held_pairs + len(chunk) <= self.memory_pairs:
            self._held.append(chunk)
            self._held_pairs += len(chunk)
            return
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="checkpoints-build-")  # noqa: SIM115 - closed by close()
        self._file.seek(0, 2)
        self._offsets.append(self._file.tell())
        pickle.dump(chunk, self._file, protocol=pickle.HIGHEST_PROTOCOL)

    def __len__(self) -> int:
        return self.pairs

    def chunks(self) -> Iterator[list[SentencePair]]:
        """Every chunk in order: those held, then those on disk, each loaded as it comes."""
        yield from self._held
        if self._file is None:
            return
        for offset in self._offsets:
            self._file.seek(offset)
            yield pickle.load(self._file)

    def __iter__(self) -> Iterator[SentencePair]:
        for chunk in self.chunks():
            yield from chunk

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._held = []

    def __enter__(self) -> PairSpool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class PackedAlignment:
    """An :class:`Alignment` as two byte strings: sorted links as int32 pairs, and which of them
    are sure (None when the aligner does not say)."""

    links: bytes
    sure: bytes | None

    @classmethod
    def of(cls, alignment: Alignment) -> PackedAlignment:
        ordered = sorted(alignment.links)
        links = np.array(ordered, dtype=np.int32).reshape(-1, 2)
        if alignment.sure is None:
            return cls(links.tobytes(), None)
        sure = alignment.sure
        return cls(links.tobytes(), np.array([link in sure for link in ordered], dtype=np.uint8).tobytes())

    def unpack(self) -> Alignment:
        values = np.frombuffer(self.links, dtype=np.int32).reshape(-1, 2).tolist()
        links = list(map(tuple, values))
        if self.sure is None:
            return Alignment(frozenset(links))
        flags = self.sure
        return Alignment(frozenset(links), sure=frozenset(link for link, flag in zip(links, flags, strict=True) if flag))
