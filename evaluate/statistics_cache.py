"""Per-segment statistics kept between runs, so that scoring one more system costs one system.

A campaign is scored again and again as systems arrive: twenty systems
scored with sixty metrics, then a twenty-first. A metric's statistics for one
output depend on nothing but the metric and its settings, that output, the
references and the source, so they are kept under a key made of exactly
those: the metric's name and signature (tokenizer, case, its own fields), the
run's options (language, the resource files it was given, by content), the
checkpoints version, and SHA-256 digests of the output, the references and
the source. A later run that asks for the same metric on the same texts reads
the matrix back instead of scoring (``--statistics-cache DIR`` on ``metrics``
and ``meta``); anything else that differs makes another key.

Left out, scored every time: metrics fitted on other metrics' statistics
(ULC), the check-point ``LC`` metrics (their statistics come from a suite),
and the parse-based metrics, whose statistics depend on the parser models;
their parses have their own cache (``--annotation-cache``).

Each matrix is one ``.npy`` file, written under a temporary name and renamed,
so concurrent runs (and ``meta --jobs`` workers) never read half a file; a
file that cannot be read is scored again and replaced.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import numpy as np

from checkpoints import __version__
from checkpoints.evaluate.metrics.base import Metric

FORMAT = "statistics-v1"


class StatisticsCache:
    """Statistics matrices under ``folder/statistics/``, one file per key; counts what it found."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder) / "statistics"
        self.reused = 0
        self.computed = 0
        self._file_digests: dict[str, str] = {}

    def key(self, metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
            sources: Sequence[str] | None) -> str | None:
        """The key of these statistics, or None for a metric whose statistics are not kept."""
        if not cacheable(metric):
            return None
        digest = hashlib.sha256()
        options = metric.options
        extra = sorted((name, self._value(value)) for name, value in options.extra.items())
        for part in (FORMAT, __version__, metric.name, metric.signature().format(), str(metric.n_stats),
                     options.tokenize, str(options.lowercase), str(options.language), repr(extra)):
            digest.update(part.encode("utf-8") + b"\x00")
        for texts in (hypotheses, *references, sources or ()):
            digest.update(_texts_digest(texts))
        digest.update(b"source" if sources is not None else b"no source")
        return digest.hexdigest()

    def _value(self, value: object) -> str:
        """An option's value, a file given as one by the digest of its content."""
        text = str(value)
        path = Path(text)
        if text and path.is_file():
            if text not in self._file_digests:
                self._file_digests[text] = _file_digest(path)
            return f"file:{self._file_digests[text]}"
        return text

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.npy"

    def found(self, metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
              sources: Sequence[str] | None) -> np.ndarray | None:
        """The statistics kept for these texts, or None."""
        key = self.key(metric, hypotheses, references, sources)
        return None if key is None else self.get(key, (len(hypotheses), metric.n_stats))

    def holds(self, metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
              sources: Sequence[str] | None) -> bool:
        """Whether statistics for these texts are kept (by the file alone: a damaged one is scored again
        where it is read)."""
        key = self.key(metric, hypotheses, references, sources)
        return key is not None and self._path(key).is_file()

    def keep(self, metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
             sources: Sequence[str] | None, matrix: np.ndarray) -> None:
        """Keep statistics scored for these texts (here or on another engine's worker)."""
        key = self.key(metric, hypotheses, references, sources)
        if key is not None:
            self.put(key, np.ascontiguousarray(matrix, dtype=np.float64))
            self.computed += 1

    def get(self, key: str, shape: tuple[int, int]) -> np.ndarray | None:
        try:
            matrix = np.load(self._path(key), allow_pickle=False)
        except (OSError, ValueError):
            return None
        return matrix if matrix.shape == shape and matrix.dtype == np.float64 else None

    def put(self, key: str, matrix: np.ndarray) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
            with temporary.open("wb") as handle:
                np.save(handle, matrix, allow_pickle=False)
            os.replace(temporary, path)
        except OSError:
            return  # a cache that cannot be written costs a recomputation later, never a failed run


STATISTICS_CACHE: ContextVar[StatisticsCache | None] = ContextVar("statistics_cache", default=None)
"""The cache the running command reads and fills (None: statistics are always computed)."""


@contextmanager
def statistics_cache(folder: Path | None) -> Iterator[StatisticsCache | None]:
    """Use a cache under ``folder`` for the ``with`` block (None: none)."""
    cache = StatisticsCache(folder) if folder is not None else None
    token = STATISTICS_CACHE.set(cache)
    try:
        yield cache
    finally:
        STATISTICS_CACHE.reset(token)


def cached_statistics(
    metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]], sources: Sequence[str] | None,
    compute: Callable[[], np.ndarray],
) -> np.ndarray:
    """``compute()`` (a ``(segments, n_stats)`` float matrix), or the same matrix kept by an earlier run."""
    cache = STATISTICS_CACHE.get()
    if cache is None or not cacheable(metric):
        return compute()
    found = cache.found(metric, hypotheses, references, sources)
    if found is not None:
        cache.reused += 1
        return found
    matrix = np.asarray(compute(), dtype=np.float64)
    cache.keep(metric, hypotheses, references, sources, matrix)
    return matrix


def cacheable(metric: Metric) -> bool:
    """Whether ``metric``'s statistics depend only on the texts and its settings (see the module docstring)."""
    from checkpoints.evaluate.metrics.checkpoint_metrics import CheckpointMetric

    return not metric.fitted and not isinstance(metric, CheckpointMetric) and not type(metric).__module__.startswith(
        "checkpoints.evaluate.metrics.linguistic")


def _texts_digest(texts: Sequence[str]) -> bytes:
    digest = hashlib.sha256()
    for text in texts:
        encoded = text.encode("utf-8")
        digest.update(len(encoded).to_bytes(8, "little") + encoded)
    return digest.digest()


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while piece := handle.read(1 << 20):
            digest.update(piece)
    return digest.hexdigest()
