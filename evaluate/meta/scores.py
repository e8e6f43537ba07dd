"""Metric scores of a judged test set: per-segment statistics and the score of every referent.

Meta-evaluation, the greedy set search (:mod:`~checkpoints.evaluate.meta.optimize`)
and the learned combinations (:mod:`~checkpoints.evaluate.meta.learn`) all
read metric scores the same way, so they live here, apart from the runner.

Check-point metrics (``LC``, ``LC-<category>``: :mod:`checkpoints.evaluate.metrics.checkpoint_metrics`)
score a whole output aligned with their suite's sentence pairs, never a
subset of its lines, so they are given every line (an empty string where the
system has no output) and their rows are then taken at the positions the
system has an output for. Their segment score is NaN where the segment has
no check-point of the metric's scope; every consumer leaves such referents
out of that metric's figures (:func:`defined`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from checkpoints.evaluate.meta.judged import JudgedSet, Referent
from checkpoints.evaluate.metrics.base import Granularity, Metric
from checkpoints.evaluate.statistics_cache import STATISTICS_CACHE, cached_statistics


def is_checkpoint_metric(metric: Metric) -> bool:
    """Whether ``metric`` scores outputs against a check-point suite (not against the test set's references)."""
    from checkpoints.evaluate.metrics.checkpoint_metrics import CheckpointMetric

    return isinstance(metric, CheckpointMetric)


def segment_statistics(judged: JudgedSet, metric: Metric) -> dict[str, np.ndarray]:
    """Each system's per-segment statistics ``(segments, k)``; rows of missing outputs are ``nan``.

    The metric is then fitted on every system's statistics (ULC's bounds come
    from the whole test bed; a no-op for every other metric).
    """
    whole = is_checkpoint_metric(metric)
    result: dict[str, np.ndarray] = {}
    for system, outputs in judged.outputs.items():
        positions = judged.available(system)
        stats = np.full((judged.size, metric.n_stats), np.nan)
        if positions.size and whole:
            full = np.asarray(metric.corpus_stats([text or "" for text in outputs], [], None), dtype=np.float64)
            stats[positions] = full[positions]
        elif positions.size:
            hypotheses, references, sources = scored_texts(judged, system, positions)
            stats[positions] = cached_statistics(
                metric, hypotheses, references, sources,
                lambda: np.asarray(metric.corpus_stats(hypotheses, references, sources), dtype=np.float64),  # noqa: B023 - called at once
            )
        result[system] = stats
    metric.fit({system: np.nan_to_num(stats) for system, stats in result.items()}, judged.documents)
    return result


def scored_texts(
    judged: JudgedSet, system: str, positions: np.ndarray
) -> tuple[list[str], list[list[str]], list[str] | None]:
    """What a metric scores of ``system``: its outputs, the references and the sources at ``positions``."""
    outputs = judged.outputs[system]
    hypotheses = [outputs[p] or "" for p in positions]
    references = [[reference[p] for p in positions] for reference in judged.references]
    sources = None if judged.sources is None else [judged.sources[p] for p in positions]
    return hypotheses, references, sources


def keep_statistics(judged: JudgedSet, metric: Metric, stats: Mapping[str, np.ndarray]) -> None:
    """Put statistics scored elsewhere (Ray's workers) into the running command's statistics cache,
    under the keys :func:`segment_statistics` reads."""
    cache = STATISTICS_CACHE.get()
    if cache is None or is_checkpoint_metric(metric):
        return
    for system in judged.outputs:
        positions = judged.available(system)
        if positions.size:
            cache.keep(metric, *scored_texts(judged, system, positions), stats[system][positions])


def all_kept(judged: JudgedSet, metric: Metric) -> bool:
    """Whether the running command's statistics cache holds ``metric``'s statistics of every output."""
    cache = STATISTICS_CACHE.get()
    if cache is None or is_checkpoint_metric(metric):
        return False
    return all(cache.holds(metric, *scored_texts(judged, system, positions))
               for system in judged.outputs if (positions := judged.available(system)).size)


def metric_values(
    metric: Metric, stats: Mapping[str, np.ndarray], units: Sequence[Referent], level: Granularity
) -> np.ndarray:
    """The metric's score of every referent, from the statistics of the referent's segments."""
    if level is Granularity.SEG:
        segment = {system: metric.segment_scores(np.nan_to_num(rows)) for system, rows in stats.items()}
        return np.array([segment[unit.system][unit.positions[0]] for unit in units], dtype=np.float64)
    return np.array([metric.system_score(stats[unit.system][unit.positions]) for unit in units], dtype=np.float64)


def scored_pairs(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The referents both sides score: a metric's NaN (an LC metric on a segment without a
    check-point of its scope) leaves that referent out of the metric's correlation."""
    keep = ~(np.isnan(x) | np.isnan(y))
    return x[keep], y[keep]
