"""The metric contract: per-segment sufficient statistics, score from summed statistics.

This is sacreBLEU's split. Because every score is a function of statistics
*summed* over segments, one code path gives system, document and segment
scores and the resampled scores of a significance test (which only re-weights
rows of the statistics matrix, see :mod:`checkpoints.evaluate.resample`).

Metrics whose system score Asiya defines as the mean of segment scores (Ol,
GTM in Asiya's use, METEOR segment averages, ...) fit the same contract with
statistics ``[segment_score, 1]`` and score ``sum / count``: each metric
documents which of the two aggregations it uses (``aggregation``).

The three granularities are one concept (:class:`Granularity`) shared by the
metric runner, the meta-evaluation and the report writers. What related
metrics can share while scoring (tokens, reference tables, rows already
computed) lives in a :class:`MetricCache` owned by whoever runs them, never in
module-level caches, so no corpus outlives the run that read it.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

import numpy as np

from checkpoints.errors import CorpusMismatch, UsageError
from checkpoints.signature import Signature

T = TypeVar("T")

ReferenceKey = tuple[tuple[str, ...], ...]
"""References as nested tuples: hashable, so per-corpus tables can be cached by them."""


class Granularity(StrEnum):
    """The level a score or a correlation is given at: the whole test set, a document, a segment."""

    SYS = "sys"
    DOC = "doc"
    SEG = "seg"


ALL_GRANULARITIES = (Granularity.SYS, Granularity.DOC, Granularity.SEG)


def parse_granularity(value: str) -> tuple[Granularity, ...]:
    """``sys|doc|seg``, or ``all`` for the three in that order (Asiya's ``-g all``)."""
    if value == "all":
        return ALL_GRANULARITIES
    try:
        return (Granularity(value),)
    except ValueError:
        raise UsageError(f"granularity {value!r}: choose sys, doc, seg or all") from None


class MetricCache:
    """What metrics share while they score one run: tokens, reference tables, rows already computed.

    Related metrics (BLEU-1..4, the four overlap measures, the eight ROUGE
    variants) derive their statistics from the same tokens and reference
    tables, and systems often agree on a segment; computing those once is
    what makes a whole metric set fast. The cache belongs to one run (the
    metric runner and the meta-evaluation create one and give it to every
    metric they build; a metric made alone gets its own), so everything it
    holds is released with the run instead of staying alive in module-level
    caches keyed by whole corpora.

    Entries are keyed by small tuples naming the family and its configuration
    (and, for reference tables, the references themselves).
    """

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[Hashable, Any] = {}

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The entry under ``key``, built by ``build()`` the first time it is asked for."""
        try:
            return self._entries[key]
        except KeyError:
            value = self._entries[key] = build()
            return value

    def memo(self, key: Hashable, make: Callable[[], Callable[..., T]]) -> Callable[..., T]:
        """The function ``make()`` returns, memoised for this run: each argument tuple is computed once."""
        return self.get(key, lambda: functools.cache(make()))

    def __len__(self) -> int:
        return len(self._entries)


def check_corpus(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> ReferenceKey:
    """Validate parallel inputs and return the references as a hashable key for caches.

    ``references`` holds one sequence per reference set, each as long as the
    system output (sacreBLEU's layout).
    """
    if not references:
        raise UsageError("at least one reference is needed")
    for number, reference_set in enumerate(references, start=1):
        if len(reference_set) != len(hypotheses):
            raise CorpusMismatch(
                f"reference set {number} has {len(reference_set)} segments but the system output has {len(hypotheses)}"
            )
    return tuple(tuple(reference_set) for reference_set in references)


def mean_score(stats: np.ndarray) -> np.ndarray:
    """``sum / count`` over statistics ``[score, 1]``: the mean of segment scores (0 when empty)."""
    stats = np.asarray(stats, dtype=np.float64)
    total, count = stats[..., 0], stats[..., 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.where(count > 0, count, 1), 0.0)


class Aggregation(StrEnum):
    CORPUS = "corpus"
    """System and document scores come from statistics summed over their segments."""
    MEAN = "mean"
    """System and document scores are the mean of segment scores."""
    COMBINED = "combined"
    """System and document scores combine the parts' own system and document scores, normalised
    over the test bed (ULC, :mod:`checkpoints.evaluate.metrics.combination`)."""


@dataclass(frozen=True, slots=True)
class MetricOptions:
    """Options shared by the metric family; each metric reads what it needs."""

    tokenize: str = "13a"
    case: str = "cs"
    """``cs`` case-sensitive, ``ci`` case-insensitive (Asiya's ``-case``)."""
    language: str | None = "en"
    """Target language (stemmers, WordNet, METEOR's parameters); ``None`` when it is not known,
    which metrics that depend on it refuse (``MetricEntry.language``)."""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def lowercase(self) -> bool:
        return self.case == "ci"

    def target_language(self, metric: str) -> str:
        """The target language for ``metric``, which depends on it; an error when it is not known."""
        if self.language is None:
            raise UsageError(f"{metric} depends on the target language, which is not known")
        return self.language


class Metric(ABC):
    """One Asiya-named metric.

    Subclasses set ``name`` (Asiya's identifier, e.g. ``BLEU-4``, ``-TER``),
    ``description`` (one line for ``metrics --list``) and ``aggregation``, and
    implement :meth:`segment_stats` and :meth:`score`.
    """

    name: str = ""
    description: str = ""
    aggregation: Aggregation = Aggregation.CORPUS
    fitted: bool = False
    """Whether scores depend on :meth:`fit` over the whole test bed (ULC), so no score may be read
    before every output's statistics are known."""

    def __init__(self, options: MetricOptions | None = None) -> None:
        self.options = options or MetricOptions()

    _cache: MetricCache | None = None

    @property
    def cache(self) -> MetricCache:
        """Where this metric keeps what it shares with related metrics of the same run.

        Its own cache unless the runner gave it the run's (``get_metric(..., cache=)``).
        """
        if self._cache is None:
            self._cache = MetricCache()
        return self._cache

    @cache.setter
    def cache(self, value: MetricCache) -> None:
        self._cache = value

    @property
    @abstractmethod
    def n_stats(self) -> int:
        """Width of the statistics vector."""

    @abstractmethod
    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        """Sufficient statistics of one segment (shape ``(n_stats,)``)."""

    @abstractmethod
    def score(self, stats: np.ndarray) -> np.ndarray:
        """Scores from summed statistics; vectorised over every leading axis of ``stats``."""

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        """Statistics for every segment: ``(segments, n_stats)``.

        ``references`` is one sequence per reference set (as sacreBLEU), each
        as long as ``hypotheses``. Subclasses override this when whole-corpus
        preprocessing is cheaper (NIST's information weights need the corpus).
        """
        check_corpus(hypotheses, references)
        rows = np.empty((len(hypotheses), self.n_stats))
        for index, hypothesis in enumerate(hypotheses):
            refs = [reference_set[index] for reference_set in references]
            rows[index] = self.segment_stats(hypothesis, refs, None if sources is None else sources[index])
        return rows

    def scalar(self, stats: np.ndarray) -> float:
        return float(self.score(np.asarray(stats, dtype=np.float64)))

    def system_score(self, stats: np.ndarray) -> float:
        return self.scalar(stats.sum(axis=0))

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return self.score(stats)

    def document_scores(self, sums: np.ndarray) -> np.ndarray:
        """Scores of documents from their summed statistics ``(documents, n_stats)``.

        The system-level :meth:`score` for every metric whose score depends on the statistics
        alone; ULC overrides it because Asiya normalises each level over that level's scores.
        """
        return self.score(sums)

    def fit(self, statistics: Mapping[str, np.ndarray], doc_ids: Sequence[str]) -> None:
        """Learn what the scores depend on beyond one output's statistics (nothing, by default).

        The runner calls it with every scored output's statistics before any score is read:
        ULC's normalisation bounds come from the whole test bed, as in Asiya.
        """
        return None

    def check_references(self, n_references: int) -> None:
        """Fail with a usage error when the test set has too few references (QUEEN needs three)."""
        return None

    @property
    def work_group(self) -> str:
        """Metrics with the same group share work (tokens, reference tables, parses) and are scored
        in one process when a run spreads metrics over workers; one group per class by default."""
        return type(self).__qualname__

    def signature(self) -> Signature:
        """sacreBLEU-style ``key:value|...`` description of how scores were made.

        Subclasses add fields with :meth:`signature_extras` and override a
        common one (a metric that ignores the tokenizer says ``tok:none``)
        with :meth:`Signature.with_fields`.
        """
        common = Signature(
            metric=self.name,
            agg=self.aggregation.value,
            tok=self.options.tokenize,
            case="lc" if self.options.lowercase else "mixed",
        )
        return common.with_fields(self.signature_extras())

    def signature_extras(self) -> dict[str, str]:
        return {}


class MeanOfSegments(Metric):
    """Base for metrics whose system score is the mean of segment scores.

    Statistics are ``[segment score, 1]``, so resampling and document scores
    follow from the common contract.
    """

    aggregation = Aggregation.MEAN

    @property
    def n_stats(self) -> int:
        return 2

    @abstractmethod
    def segment_score(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> float:
        """The metric's score for one segment (best over references where the metric says so)."""

    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        return np.array([self.segment_score(hypothesis, references, source), 1.0])

    def score(self, stats: np.ndarray) -> np.ndarray:
        return mean_score(stats)


class TableMetric(Metric):
    """Base for metrics that compute a whole corpus at once (with per-reference-set
    caches shared by every system); one segment is scored as a corpus of one."""

    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        return self.corpus_stats([hypothesis], [[reference] for reference in references],
                                 None if source is None else [source])[0]

    @abstractmethod
    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        """Statistics for every segment: ``(segments, n_stats)``."""


class TableMeanOfSegments(TableMetric):
    """A :class:`TableMetric` whose system score is the mean of its segment scores
    (statistics ``[segment score, 1]``, as :class:`MeanOfSegments`)."""

    aggregation = Aggregation.MEAN

    @property
    def n_stats(self) -> int:
        return 2

    def score(self, stats: np.ndarray) -> np.ndarray:
        return mean_score(stats)
