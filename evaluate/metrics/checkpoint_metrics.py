"""Check-point categories as metrics: Zhou et al.'s "LC" features, one score per segment.

``checkpoints metrics --suite SUITE.db`` scores every system output on a
check-point suite whose sentence pairs are the test set's segments, in order,
and exposes each scope of the check-point evaluation as a metric:

* ``LC-<category>`` (``LC-Noun phrase``): one category of the taxonomy;
* ``LC-WORDS``, ``LC-PHRASES``, ``LC-SENTENCES``: the level groups, named as
  ``evaluate`` prints them;
* ``LC``: the whole taxonomy (Zhou's overall linguistic score).

Matching is the existing :class:`~checkpoints.evaluate.scoring.CheckpointScorer`
(compiled once per suite, run once per system output and shared by every LC
metric), never a second implementation. A metric's per-segment statistics are
the scorer's per-pair statistics of its scope (:mod:`checkpoints.evaluate.scopes`):
so the system and document scores are formula (5) over summed statistics, the
system score is exactly ``evaluate``'s figure under the same settings, and the
resampling engine tests LC metrics like any corpus-level metric.

A segment (or document) without a check-point of a scope has no score for it:
its statistics are zero, which leaves sums unchanged, and its segment score is
NaN (``null`` in JSON), so correlations must leave it out rather than count a
0 that says nothing about the translation.

This module defines no ``METRICS`` table: LC metrics exist only for a given
suite, so the service builds them (:func:`checkpoint_metrics`) and hands them
to the runner beside the named ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from checkpoints.errors import CorpusMismatch, UsageError
from checkpoints.evaluate.metrics.base import Aggregation, Metric, MetricOptions
from checkpoints.evaluate.scopes import N_STATS, PAIRS, Scope, ScopeKind, score_from_stats
from checkpoints.signature import Signature

if TYPE_CHECKING:
    from checkpoints.evaluate.scoring import CheckpointScorer
    from checkpoints.model import SuiteData

PREFIX = "LC"
"""Zhou et al.'s name for the linguistic check-point features (``LC``, ``LC-<category>``)."""

GROUP_TITLES = {"word": "WORDS", "phrase": "PHRASES", "sentence": "SENTENCES"}
"""Level → group name as ``evaluate`` prints it (``checkpoints.report.checkpoint_reports``)."""


def scope_metric_name(scope: Scope) -> str:
    """``LC`` for the taxonomy, ``LC-WORDS`` for a level group, ``LC-<category>`` for a category."""
    if scope.kind is ScopeKind.TAXONOMY:
        return PREFIX
    if scope.kind is ScopeKind.GROUP:
        return f"{PREFIX}-{GROUP_TITLES.get(scope.name, scope.name.upper())}"
    return f"{PREFIX}-{scope.name}"


class CheckpointStatistics:
    """One suite compiled for matching, and each system output's per-pair statistics, computed once.

    Every LC metric of a run reads its scope's column from here, so an output
    is matched once whatever the number of categories. The results live as
    long as this object (one ``metrics`` run), never in a module-level cache.
    """

    def __init__(self, suite: SuiteData, scorer: CheckpointScorer | None = None) -> None:
        from checkpoints.evaluate.scoring import CheckpointScorer

        self.suite = suite
        self.scorer = scorer if scorer is not None else CheckpointScorer(suite)
        self._statistics: dict[tuple[str, ...], np.ndarray] = {}

    @property
    def n_segments(self) -> int:
        return len(self.suite.pairs)

    def statistics(self, hypotheses: Sequence[str]) -> np.ndarray:
        """Per-segment statistics ``(segments, scopes, 5)`` of one output; zero rows for pairs
        without any check-point (the scorer only keeps the pairs that carry one)."""
        key = tuple(hypotheses)
        cached = self._statistics.get(key)
        if cached is not None:
            return cached
        if len(key) != self.n_segments:
            raise CorpusMismatch(
                f"suite {self.suite.name!r} has {self.n_segments} sentence pairs but the output has {len(key)} segments"
            )
        scorer = self.scorer
        full = np.zeros((self.n_segments, len(scorer.scopes), N_STATS))
        full[scorer.pair_positions] = scorer.score(list(key)).statistics()
        self._statistics[key] = full
        return full

    def metrics(self, options: MetricOptions | None = None) -> dict[str, Metric]:
        """Every scope as a metric, by name: ``LC``, the level groups, then the categories (suite order)."""
        return {
            scope_metric_name(scope): CheckpointMetric(self, index, scope, options)
            for index, scope in enumerate(self.scorer.scopes)
        }


class CheckpointMetric(Metric):
    """One scope (category, level group or taxonomy) of a check-point suite as a corpus-level metric.

    Statistics are the scope's per-pair statistics; the score is formula (5).
    Segment and document scores are NaN where no pair carries a check-point
    of the scope (undefined, not 0); resampled scores keep formula (5)'s 0 for
    an empty scope, as ``compare`` does.
    """

    aggregation = Aggregation.CORPUS

    def __init__(self, source: CheckpointStatistics, index: int, scope: Scope, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        self.source = source
        self.index = index
        self.scope = scope
        self.name = scope_metric_name(scope)
        self.description = f"check-point score (Zhou et al. 2008, formula 5) of {scope.kind.value} {scope.name}"

    @property
    def n_stats(self) -> int:
        return N_STATS

    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        """Not defined: a segment is scored only as a line of a whole output aligned with the suite's pairs."""
        raise UsageError(f"{self.name} scores whole test sets aligned with suite {self.source.suite.name!r}, not single segments")

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        """The scope's column of the output's per-pair statistics; the suite's own references are
        the check-points' references, so the test set's are not read."""
        return self.source.statistics(hypotheses)[:, self.index, :]

    def score(self, stats: np.ndarray) -> np.ndarray:
        return score_from_stats(stats)

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return _undefined_where_empty(stats, self.score(stats))

    def document_scores(self, sums: np.ndarray) -> np.ndarray:
        return _undefined_where_empty(sums, self.score(sums))

    def signature(self) -> Signature:
        """The suite and how it was matched, as ``evaluate`` signs its runs (the metric tokenizer is not used)."""
        scorer = self.source.scorer
        from checkpoints.evaluate.matching import order_label
        from checkpoints.signature import suite_signature

        return (
            Signature(metric=self.name, agg=self.aggregation.value)
            .with_fields(suite_signature(self.source.suite))
            .with_fields(tok=scorer.tokenize, match=scorer.match.value, order=order_label(scorer.max_order))
        )


def _undefined_where_empty(stats: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """NaN where the statistics cover no pair of the scope."""
    return np.where(np.asarray(stats)[..., PAIRS] > 0, scores, np.nan)


def checkpoint_metrics(suite: SuiteData, n_segments: int, options: MetricOptions | None = None) -> dict[str, Metric]:
    """The LC metrics of ``suite`` for a test set of ``n_segments`` segments (one per sentence pair).

    Raises:
        UsageError: the suite and the test set differ in length (naming both counts).
    """
    if len(suite.pairs) != n_segments:
        raise UsageError(
            f"suite {suite.name!r} has {len(suite.pairs)} sentence pairs but the test set has {n_segments} segments: "
            "--suite needs a suite whose pairs are the test set's segments, in order"
        )
    return CheckpointStatistics(suite).metrics(options)
