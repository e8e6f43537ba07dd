"""Scores of many metrics for many systems, and their significance, from per-segment statistics.

Every metric reduces a system to a matrix of per-segment sufficient
statistics (:mod:`checkpoints.evaluate.metrics.base`). From that one matrix
come the system score (statistics summed over the test set), the document
scores (summed over each document's segments), the segment scores (each row
alone) and every resampled score of a significance test. So for each metric
the three granularities agree by construction: corpus-level metrics (BLEU,
NIST, TER, chrF, ...) give corpus-level document scores, as in the Asiya
manual's Table 2, and mean-of-segments metrics give means.

Combinations are metrics too (:mod:`checkpoints.evaluate.metrics.combination`):
QUEEN's statistics are per-segment counts like any other metric's; ULC's are
its parts' statistics side by side, and its normalisation bounds are fitted
on every scored output (:meth:`Metric.fit`) before scores are read, then
held fixed while resampling, so a test compares systems under one fixed
linear combination of the parts.

Significance (``--baseline``, ``--all-pairs``) uses the project's one
resampling engine, :mod:`checkpoints.evaluate.resample`: one
:class:`~checkpoints.evaluate.resample.Resampler` for the whole report, so
every metric and every system sees the same resamples of the same segments
(a paired test), and one :func:`~checkpoints.evaluate.resample.paired_tests`
call per metric covers all compared pairs at once. p-values are corrected for
multiple comparisons over the comparisons made with each metric
(:mod:`checkpoints.evaluate.significance`, Holm by default).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations

import numpy as np

from checkpoints.engine import EngineSpec, open_engine
from checkpoints.errors import (
    CheckpointsError,
    InputError,
    ModelNotAvailable,
    ResourceNotAvailable,
    UsageError,
)
from checkpoints.evaluate.metrics.base import Metric, MetricCache, MetricOptions
from checkpoints.evaluate.metrics.edit import SegmentTooLong
from checkpoints.evaluate.metrics.registry import get_metric
from checkpoints.evaluate.resample import (
    PairedOutcome,
    Resampler,
    ResampleSpec,
    paired_tests,
)
from checkpoints.evaluate.significance import Correction, adjust_p_values
from checkpoints.evaluate.statistics_cache import STATISTICS_CACHE, cached_statistics
from checkpoints.io.testsets import Testbed
from checkpoints.progress import Track
from checkpoints.signature import Signature


@dataclass(frozen=True, slots=True)
class Scores:
    """One metric's scores for one system at the three granularities."""

    system: float
    documents: dict[str, float]
    """Document id → score, in document order."""
    segments: tuple[float, ...]
    """In test-set order."""


@dataclass(frozen=True, slots=True)
class MetricComparison:
    """System ``system`` against ``baseline`` on one metric (``difference = system − baseline``).

    (Check-point comparisons, category by category, are
    :class:`checkpoints.evaluate.comparison.Comparison`.)
    """

    metric: str
    baseline: str
    system: str
    outcome: PairedOutcome
    p_adjusted: float
    significant: bool


@dataclass(frozen=True, slots=True)
class SignificanceRequest:
    baseline: str | None = None
    all_pairs: bool = False
    spec: ResampleSpec = field(default_factory=ResampleSpec)
    correction: Correction = Correction.HOLM
    alpha: float = 0.05

    def __post_init__(self) -> None:
        if self.baseline is None and not self.all_pairs:
            raise UsageError("a significance test needs a baseline system or all pairs")
        if not 0 < self.alpha < 1:
            raise UsageError(f"alpha must be between 0 and 1, not {self.alpha}")


@dataclass(frozen=True, slots=True)
class SignificanceReport:
    request: SignificanceRequest
    comparisons: tuple[MetricComparison, ...]

    def signature_fields(self) -> dict[str, object]:
        """The resampling, the correction and alpha: what every metric signature of the report adds."""
        return {
            **self.request.spec.signature_fields(),
            "correction": self.request.correction.value,
            "alpha": f"{self.request.alpha:g}",
        }

    def signature(self) -> str:
        """:meth:`signature_fields` as text (``resample:bootstrap|...|alpha:0.05``), printed beside the
        significance table; the metric signatures carry the same fields and the version."""
        return Signature(self.signature_fields()).format(version=False)


@dataclass(frozen=True)
class MetricReport:
    """Everything a metric report shows; writers in :mod:`checkpoints.report.metric_formats` render it."""

    metrics: tuple[str, ...]
    systems: tuple[str, ...]
    """Scored outputs: the systems, then (``include_refs``) each reference scored against the others."""
    references: tuple[str, ...]
    reference_set: str
    """Asiya's reference-set name (sorted reference names joined with ``_``)."""
    test_set: str
    """The test set's id (``setid``), for the NIST score format."""
    doc_ids: tuple[str, ...]
    seg_ids: tuple[str, ...]
    scores: dict[str, dict[str, Scores]]
    """System → metric → scores."""
    signatures: dict[str, str]
    """Metric → sacreBLEU-style signature, formatted (:func:`report_signature`)."""
    aggregations: dict[str, str]
    """Metric → ``corpus`` (summed statistics) or ``mean`` (mean of segment scores)."""
    significance: SignificanceReport | None = None
    statistics: dict[str, dict[str, np.ndarray]] = field(default_factory=dict, repr=False)
    """Metric → system → per-segment statistics ``(segments, k)``."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Metrics of a requested set that cannot run here → why (a reason that does not repeat the name)."""
    reused: tuple[int, int] | None = None
    """With a statistics cache: how many (metric, output) statistics were read back and how many scored."""

    @property
    def documents(self) -> list[str]:
        return list(dict.fromkeys(self.doc_ids))

    @property
    def n_segments(self) -> int:
        return len(self.doc_ids)


def segment_statistics(metric: Metric, testbed: Testbed, include_refs: bool = False) -> dict[str, np.ndarray]:
    """Per-segment statistics of every system (and, with ``include_refs``, every reference).

    A reference is scored against all the other references (Asiya's
    ``-include_refs``), so it needs at least two. Metrics that read the source
    get None when no source was given: Asiya's manual (§3) gives them the
    first reference instead, but a confidence measure of a translation against
    another translation measures nothing it claims to (a source-language model,
    a dictionary from the source language), so CE metrics ask for the source.
    """
    references = [reference.segments for reference in testbed.references]
    sources = testbed.source.segments if testbed.source is not None else None
    result = {}
    for system in testbed.systems:
        try:
            result[system.name] = cached_statistics(
                metric, system.segments, references, sources,
                partial(_scored_matrix, metric, system.segments, references, sources, testbed.n_segments),
            )
        except SegmentTooLong as error:  # named by its file and line, as every bad input is
            where = system if error.side == "system" else testbed.references[0]
            raise InputError(where.path, where.lines[error.index], error.problem) from None
    if include_refs:
        for index, reference in enumerate(testbed.references):
            others = references[:index] + references[index + 1 :]
            result[reference.name] = _as_matrix(
                metric, metric.corpus_stats(reference.segments, others, sources), testbed.n_segments
            )
    return result


def _scored_matrix(metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                   sources: Sequence[str] | None, segments: int) -> np.ndarray:
    return _as_matrix(metric, metric.corpus_stats(hypotheses, references, sources), segments)


def _as_matrix(metric: Metric, stats: np.ndarray, segments: int) -> np.ndarray:
    matrix = np.asarray(stats, dtype=np.float64)
    if matrix.shape != (segments, metric.n_stats):
        raise RuntimeError(f"{metric.name}: statistics of shape {matrix.shape}, expected {(segments, metric.n_stats)}")
    return matrix


def aggregate(metric: Metric, stats: np.ndarray, doc_ids: Sequence[str]) -> Scores:
    """System, document and segment scores from one statistics matrix (one vectorised call each)."""
    documents = list(dict.fromkeys(doc_ids))
    index = {doc: position for position, doc in enumerate(documents)}
    doc_index = np.fromiter((index[doc] for doc in doc_ids), dtype=np.intp, count=len(doc_ids))
    doc_sums = np.zeros((len(documents), stats.shape[1]))
    np.add.at(doc_sums, doc_index, stats)
    doc_scores = np.atleast_1d(metric.document_scores(doc_sums))
    segment_scores = np.atleast_1d(metric.segment_scores(stats))
    return Scores(
        system=metric.system_score(stats),
        documents={doc: float(score) for doc, score in zip(documents, doc_scores, strict=True)},
        segments=tuple(float(score) for score in segment_scores),
    )


def comparison_pairs(systems: Sequence[str], baseline: str | None, all_pairs: bool) -> list[tuple[str, str]]:
    """``(baseline, system)`` pairs: every system against the baseline, then (``all_pairs``) every other pair."""
    if baseline is not None and baseline not in systems:
        raise UsageError(f"unknown baseline {baseline!r} (systems: {', '.join(systems)})")
    if len(systems) < 2:
        raise UsageError("significance needs at least two systems")
    pairs: list[tuple[str, str]] = []
    if baseline is not None:
        pairs.extend((baseline, system) for system in systems if system != baseline)
    if all_pairs:
        others = [system for system in systems if system != baseline]
        pairs.extend(combinations(others, 2))
    return pairs


def compare_systems(
    metrics: Mapping[str, Metric],
    statistics: Mapping[str, Mapping[str, np.ndarray]],
    systems: Sequence[str],
    request: SignificanceRequest,
) -> SignificanceReport:
    """Paired tests of every requested pair on every metric, corrected per metric."""
    pairs = comparison_pairs(systems, request.baseline, request.all_pairs)
    first = statistics[next(iter(metrics))][systems[0]]
    resampler = Resampler(first.shape[0], request.spec)
    comparisons: list[MetricComparison] = []
    involved = list(dict.fromkeys(system for pair in pairs for system in pair))
    column = {system: index for index, system in enumerate(involved)}
    index_a = [column[a] for a, _ in pairs]
    index_b = [column[b] for _, b in pairs]
    for name, metric in metrics.items():
        stats = statistics[name]
        # Each system is resampled once, (samples, systems), whatever the number of pairs.
        resampled = metric.score(resampler.bootstrap_sums(np.stack([stats[s] for s in involved], axis=1)))
        stats_a = np.stack([stats[a] for a, _ in pairs], axis=1)
        stats_b = np.stack([stats[b] for _, b in pairs], axis=1)
        outcomes = paired_tests(
            stats_a,
            stats_b,
            metric.score,
            resampler,
            request.alpha,
            resampled_a=resampled[:, index_a],
            resampled_b=resampled[:, index_b],
        )
        adjusted = adjust_p_values([outcome.p_value for outcome in outcomes], request.correction)
        for (a, b), outcome, p_adjusted in zip(pairs, outcomes, adjusted, strict=True):
            comparisons.append(
                MetricComparison(
                    metric=name,
                    baseline=a,
                    system=b,
                    outcome=outcome,
                    p_adjusted=p_adjusted,
                    significant=p_adjusted <= request.alpha,
                )
            )
    return SignificanceReport(request=request, comparisons=tuple(comparisons))


def report_signature(
    metric: Metric, n_references: int, significance: Mapping[str, object] | None = None
) -> Signature:
    """sacreBLEU's layout: ``nrefs`` first, the metric's own fields, the resampling, the version last.

    With ``include_refs`` the systems are scored against all ``n_references``
    references and each reference against the others (one fewer).
    ``significance`` holds :meth:`SignificanceReport.signature_fields`.
    """
    return Signature(nrefs=n_references).with_fields(metric.signature()).with_fields(significance)


def skip_reason(name: str, error: BaseException) -> str:
    """Why a metric cannot run, without the metric's name when the message starts with it
    (reports print ``NAME skipped: reason``)."""
    reason = " ".join(str(error).split())
    for prefix in (f"{name}: ", f"{name} "):
        if reason.startswith(prefix):
            return reason[len(prefix):]
    return reason


def run_metrics(
    testbed: Testbed,
    metric_names: Sequence[str],
    options: MetricOptions | None = None,
    *,
    include_refs: bool = False,
    significance: SignificanceRequest | None = None,
    track: Track[str] | None = None,
    optional: Collection[str] = (),
    prebuilt: Mapping[str, Metric] | None = None,
    engine: EngineSpec | None = None,
) -> MetricReport:
    """Score every system of ``testbed`` with every metric in ``metric_names`` (Asiya names).

    With a Ray ``engine`` the metrics' segment statistics are computed on its
    workers, one task per metric family, before the loop below takes them in
    order; fitted metrics (ULC) and the suite's ``LC`` metrics are scored here.

    Unknown names fail before any work starts. A metric named in
    ``optional`` (one that came from a metric set rather than ``-m``) that
    cannot run here — no WordNet, no synonym module for the target language —
    is left out and listed in ``MetricReport.skipped`` instead of failing the
    run; Asiya's metric sets likewise depend on the language pair.
    References are scored only with ``include_refs``; they never enter
    significance tests, because a reference is scored against one reference
    fewer than the systems are. ``prebuilt`` holds metrics that exist only for
    this run and so have no registry name (the check-point ``LC`` metrics of a
    suite): they run after the named ones, through the same statistics path.
    """
    built = dict(prebuilt or {})
    if not metric_names and not built:
        raise UsageError("no metric requested")
    # One cache for the run: related metrics share tokens and reference tables, and all of it
    # is released when the run ends.
    cache = MetricCache()
    metrics: dict[str, Metric] = {}
    skipped: dict[str, str] = {}
    for name in dict.fromkeys(metric_names):
        try:
            metrics[name] = get_metric(name, options, cache)
        except CheckpointsError as error:
            if name not in optional:
                raise
            skipped[name] = skip_reason(name, error)
    for name, metric in built.items():
        if name in metrics:
            raise UsageError(f"metric {name!r} is asked for twice")
        metric.cache = cache
        metrics[name] = metric
    if not metrics:
        raise UsageError(f"none of the requested metrics is available ({'; '.join(skipped.values())})")
    names = list(metrics)
    for metric in metrics.values():
        metric.check_references(len(testbed.references))  # QUEEN's three references, before any work
    if include_refs and len(testbed.references) < 2:
        raise UsageError("scoring the references needs at least two of them (each is scored against the others)")
    systems = [system.name for system in testbed.systems]
    scored = systems + ([reference.name for reference in testbed.references] if include_refs else [])
    if len(set(scored)) != len(scored):
        clash = next(name for name in scored if scored.count(name) > 1)
        raise UsageError(f"reference {clash!r} has the same name as a system: the references cannot be scored beside it")
    if significance is not None:
        comparison_pairs(systems, significance.baseline, significance.all_pairs)  # fail early on a bad baseline

    elsewhere: dict[str, dict[str, np.ndarray] | Exception] = {}
    if engine is not None and engine.name != "local":
        elsewhere = _statistics_on(engine, metrics, [name for name in names if name not in built], testbed, include_refs)
    loop: Iterable[str] = track(names) if track is not None else names
    statistics: dict[str, dict[str, np.ndarray]] = {}
    scores: dict[str, dict[str, Scores]] = {name: {} for name in scored}
    for name in loop:
        metric = metrics[name]
        try:
            done = elsewhere.get(name)
            if isinstance(done, Exception):
                raise done
            statistics[name] = done if done is not None else segment_statistics(metric, testbed, include_refs)
        except (ModelNotAvailable, ResourceNotAvailable) as error:
            # a layer the parses lack (no NER model for NE-*) shows only when the texts are parsed
            if name not in optional:
                raise
            skipped[name] = skip_reason(name, error)
            del metrics[name]
            continue
        # ULC normalises over every scored output (references too with include_refs, as Asiya);
        # the bounds stay fixed for the significance tests below.
        metric.fit(statistics[name], testbed.doc_ids)
        for system in scored:
            scores[system][name] = aggregate(metric, statistics[name][system], testbed.doc_ids)

    names = [name for name in names if name in metrics]
    if not names:
        raise UsageError(f"none of the requested metrics is available ({'; '.join(skipped.values())})")
    scores = {system: {name: scores[system][name] for name in names} for system in scored}
    report_significance = compare_systems(metrics, statistics, systems, significance) if significance else None
    n_refs = len(testbed.references)
    extra = report_significance.signature_fields() if report_significance else None
    return MetricReport(
        metrics=tuple(names),
        systems=tuple(scored),
        references=tuple(reference.name for reference in testbed.references),
        reference_set=testbed.reference_set_name,
        test_set=testbed.set_id,
        doc_ids=testbed.doc_ids,
        seg_ids=testbed.seg_ids,
        scores=scores,
        signatures={name: report_signature(metric, n_refs, extra).format() for name, metric in metrics.items()},
        aggregations={name: metric.aggregation.value for name, metric in metrics.items()},
        significance=report_significance,
        statistics=statistics,
        skipped=skipped,
    )


def _statistics_on(
    engine: EngineSpec, metrics: Mapping[str, Metric], names: Sequence[str], testbed: Testbed, include_refs: bool
) -> dict[str, dict[str, np.ndarray] | Exception]:
    """The segment statistics of the ``names`` not fitted on others, computed on ``engine``'s
    workers (each holds the test bed and the metrics once); a metric's error comes back as the
    error, for the caller to raise or skip exactly as it would have here."""
    cache = STATISTICS_CACHE.get()
    references = [reference.segments for reference in testbed.references]
    sources = testbed.source.segments if testbed.source is not None else None

    def kept(metric: Metric) -> bool:  # every output's statistics are in the cache: read there, not sent
        return cache is not None and not include_refs and all(
            cache.holds(metric, system.segments, references, sources) for system in testbed.systems)

    groups: dict[str, list[str]] = {}
    for name in names:
        if not metrics[name].fitted and not kept(metrics[name]):
            groups.setdefault(metrics[name].work_group, []).append(name)
    if not groups:
        return {}
    bed = _Bed(dict(metrics), testbed, include_refs)
    done: dict[str, dict[str, np.ndarray] | Exception] = {}
    with open_engine(engine) as workers:
        for _, scored in workers.map(lambda: bed, _group_statistics, list(groups.values())):
            done.update(scored)
    if cache is not None:  # what the workers scored is kept here, as the local engine keeps it
        for name, stats in done.items():
            if isinstance(stats, Exception):
                continue
            for system in testbed.systems:
                cache.keep(metrics[name], system.segments, references, sources, stats[system.name])
    return done


@dataclass(frozen=True, slots=True)
class _Bed:
    metrics: dict[str, Metric]
    testbed: Testbed
    include_refs: bool


def _group_statistics(bed: _Bed, names: list[str]) -> list[tuple[str, dict[str, np.ndarray] | Exception]]:
    done: list[tuple[str, dict[str, np.ndarray] | Exception]] = []
    for name in names:
        try:
            done.append((name, segment_statistics(bed.metrics[name], bed.testbed, bed.include_refs)))
        except CheckpointsError as error:
            done.append((name, error))
    return done
