"""Meta-evaluation: how well metrics agree with human judgments (Asiya's ``-metaeval``).

:func:`meta_evaluate` is ``checkpoints meta`` without the command line: it
builds the metrics (names and options are checked before any file is read),
reads the human judgments with their outputs and references — an MQM error
file (:class:`MQMJudgments`) or raw-text files with an Asiya assessments CSV
(:class:`AssessmentJudgments`) — and correlates
(:func:`checkpoints.evaluate.meta.runner.run_meta`).

Neither judgment format declares the target language, so metrics that depend
on it need it in the request (:class:`TargetLanguageNeeded` otherwise).

With a check-point suite (``suite``) whose sentence pairs are the judged
test set's segments, every LC metric of the suite (``LC``, ``LC-WORDS``, ...,
``LC-<category>``: :func:`~checkpoints.service.metrics.load_checkpoint_metrics`)
is meta-evaluated after the named metrics, and LC names may be used as
learning features. An LC metric has no segment score where a segment has
no check-point of its scope: those referents are left out of that metric's
correlations only (its results carry their own ``n``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from checkpoints.errors import CorpusMismatch, UsageError
from checkpoints.evaluate.meta.judged import JudgedSet, judged_from_assessments, judged_from_mqm
from checkpoints.evaluate.meta.runner import MetaOptions, MetaResult, run_meta
from checkpoints.evaluate.metrics.base import Metric, MetricCache, MetricOptions
from checkpoints.evaluate.metrics.registry import get_metric
from checkpoints.io.assessments import read_assessments
from checkpoints.io.mqm import read_avg_seg_scores, read_mqm
from checkpoints.io.text import read_sentences
from checkpoints.progress import Track
from checkpoints.service.metrics import (
    CASES,
    TargetLanguageNeeded,
    check_choice,
    language_dependent,
    metric_tokenizer,
)

MetricTrack = Track[Metric]
"""Wraps the loop over metrics (a progress bar in the command line)."""


@dataclass(slots=True)
class MQMJudgments:
    """An MQM error file: systems, source, references and error rows in one file."""

    path: Path
    reference_system: str | list[str]
    """The human translation(s) used as reference (e.g. ``ref``); not evaluated. Several make a
    multi-reference test bed, which the human-likeness criteria (king, orange) need."""
    scores: Path | None = None
    """MQM average segment scores; None recomputes them from the error rows."""
    exclude: list[str] = field(default_factory=list)
    """Further systems to leave out (a second human translation, say)."""


@dataclass(slots=True)
class AssessmentJudgments:
    """Raw-text references and system outputs, one segment per line, judged in an Asiya assessments CSV."""

    path: Path
    references: list[Path]
    systems: list[tuple[str, Path]]
    source: Path | None = None


@dataclass(slots=True)
class MetaRequest:
    """Everything ``checkpoints meta`` was asked to correlate."""

    judgments: MQMJudgments | AssessmentJudgments
    metrics: list[str]
    options: MetaOptions = field(default_factory=MetaOptions)
    tokenize: str | None = None
    """None: ``zh`` for a Chinese target, else ``13a``."""
    case: str = "cs"
    target_lang: str | None = None
    suite: str | Path | None = None
    """A check-point store whose suite's pairs are the judged segments: adds its LC metrics."""
    suite_name: str | None = None
    """The suite in that store, when it holds several."""
    by_category: str | Path | None = None
    """A check-point store whose suite's pairs are the MQM segments: correlate with the MQM
    penalty attributed to each of its categories (:func:`meta_by_category`)."""
    extra: dict[str, str] = field(default_factory=dict)
    """What the linguistic and confidence metrics need (parses, models, corpora: ``MetricOptions.extra``)."""

    def named(self) -> list[str]:
        """The metrics to build by name: those asked for, then learning features not among them;
        LC names (given a suite) come from the suite instead."""
        features = self.options.learn.features if self.options.learn is not None else ()
        names = list(dict.fromkeys([*self.metrics, *features]))
        return [name for name in names if not (self.suite is not None and is_lc_name(name))]


def is_lc_name(name: str) -> bool:
    """``LC`` or ``LC-…``: a check-point metric's name (:mod:`checkpoints.evaluate.metrics.checkpoint_metrics`)."""
    return name == "LC" or name.startswith("LC-")


def build_metrics(request: MetaRequest) -> list[Metric]:
    """The requested metrics, sharing one cache for the run, built before any file is read."""
    names = request.named()
    if not names and request.suite is None:
        raise UsageError("no metric to meta-evaluate")
    check_choice("case", request.case, CASES)
    needing = language_dependent(names)
    if needing and request.target_lang is None:
        raise TargetLanguageNeeded(needing, "the judgments file")
    options = MetricOptions(
        tokenize=metric_tokenizer(request.tokenize, request.target_lang),
        case=request.case,
        language=request.target_lang,
        extra=dict(request.extra),
    )
    cache = MetricCache()
    return [get_metric(name, options, cache) for name in names]


def judged_set(judgments: MQMJudgments | AssessmentJudgments) -> JudgedSet:
    """The systems' outputs, references and human scores the judgments describe."""
    if isinstance(judgments, MQMJudgments):
        data = read_mqm(judgments.path)
        scores = read_avg_seg_scores(judgments.scores, data.systems) if judgments.scores is not None else None
        return judged_from_mqm(data, judgments.reference_system, judgments.exclude, scores)
    return _judged_from_files(judgments)


def _judged_from_files(judgments: AssessmentJudgments) -> JudgedSet:
    """Raw-text files, every one as long as the first reference, and their assessments."""
    if not judgments.references:
        raise UsageError("assessments need at least one reference file")
    if not judgments.systems:
        raise UsageError("assessments need at least one system output")
    references = judgments.references
    reference_lines = [read_sentences(path) for path in references]
    size = len(reference_lines[0])
    labels = [(str(path), len(lines)) for path, lines in zip(references, reference_lines, strict=True)]
    outputs: dict[str, list[str]] = {}
    for name, path in judgments.systems:
        outputs[name] = read_sentences(path, allow_empty=True)
        labels.append((f"{path} (system {name})", len(outputs[name])))
    source_lines = read_sentences(judgments.source) if judgments.source is not None else None
    if source_lines is not None:
        labels.append((str(judgments.source), len(source_lines)))
    for label, count in labels:
        if count != size:
            raise CorpusMismatch(f"{label} has {count} lines but {references[0]} has {size}")
    return judged_from_assessments(read_assessments(judgments.path), reference_lines, outputs, source_lines)


def meta_evaluate(request: MetaRequest, track: MetricTrack | None = None) -> MetaResult:
    """Correlate every requested metric with the human judgments at ``request.options.level``.

    ``track`` wraps the loop over metrics (the command line passes a progress bar).

    Raises:
        UsageError: unknown metrics or options (before any file is read);
            :class:`~checkpoints.service.metrics.TargetLanguageNeeded` when a
            metric depends on the target language and the request does not give it.
        InputError, CorpusMismatch: files that cannot be read or do not line up.
        CheckpointsError: no referent with both a human score and a system output.
    """
    metrics = build_metrics(request)
    judged = judged_set(request.judgments)
    if request.suite is not None:
        metrics += _lc_metrics(request, judged.size)
    return run_meta(judged, metrics, request.options, track=track)


def _lc_metrics(request: MetaRequest, n_segments: int) -> list[Metric]:
    """Every LC metric of the request's suite; LC names asked for must be among them."""
    from checkpoints.service.metrics import load_checkpoint_metrics

    options = MetricOptions(case=request.case, language=request.target_lang)
    found = load_checkpoint_metrics(request.suite, request.suite_name, n_segments, options)  # type: ignore[arg-type]
    features = request.options.learn.features if request.options.learn is not None else ()
    unknown = [name for name in dict.fromkeys([*request.metrics, *features]) if is_lc_name(name) and name not in found]
    if unknown:
        raise UsageError(f"the suite has no check-point metric {', '.join(unknown)} (it has {', '.join(found)})")
    return list(found.values())


@dataclass(frozen=True, slots=True)
class CategoryMeta:
    """``meta --by-category``: the metrics against all MQM errors, then against each category's."""

    overall: MetaResult
    categories: dict[str, MetaResult]
    """Category → the metrics correlated with the penalty attributed to that category."""
    checkpoints: dict[str, int]
    """Category → its check-points in the suite."""

    def best(self, category: str) -> str | None:
        """The metric that tracks the category's errors best by the first criterion (None if undefined)."""
        from checkpoints.evaluate.meta.criteria import LOWER_IS_BETTER

        result = self.categories[category]
        criterion = result.options.criteria[0]
        values = {name: by[criterion].r for name, by in result.results.items() if criterion in by}
        defined = {name: value for name, value in values.items() if value is not None}
        if not defined:
            return None
        pick = min if criterion in LOWER_IS_BETTER else max
        return pick(defined, key=lambda name: defined[name])

    def to_json(self) -> dict[str, object]:
        return {
            "overall": self.overall.to_json(),
            "by_category": {
                name: {"checkpoints": self.checkpoints[name], "best": self.best(name), **result.to_json()}
                for name, result in self.categories.items()
            },
        }


def meta_by_category(request: MetaRequest, track: MetricTrack | None = None) -> CategoryMeta:
    """Each metric against the MQM penalty attributed to each category of a suite (and against all errors).

    The human score of a (system, segment) for a category is the negated
    MQM penalty of the errors that overlap the category's check-points there
    (:mod:`checkpoints.evaluate.attribution`; 0 where none does), so the
    statistics ``meta`` has say, per category, which metric tracks *those*
    errors. Every metric is scored once and correlated with each category's
    scores.

    Raises:
        UsageError: judgments that are not an MQM file (attribution needs its error spans).
    """
    from checkpoints.service.attribute import AttributeRequest, attributed_run

    if not isinstance(request.judgments, MQMJudgments) or request.by_category is None:
        raise UsageError("--by-category attributes MQM error spans to check-points: give --mqm FILE")
    metrics = build_metrics(request)
    judged = judged_set(request.judgments)
    statistics: dict[str, dict[str, np.ndarray]] = {}
    overall = run_meta(judged, metrics, request.options, track=track, statistics=statistics)
    run = attributed_run(AttributeRequest(store=request.by_category, mqm=request.judgments.path,
                                          suite_name=request.suite_name), systems=list(judged.outputs))
    pair_of = {str(seg): position for position, seg in enumerate(run.segments)}
    results: dict[str, MetaResult] = {}
    counts = dict(zip(*np.unique(np.array(run.view.category, dtype=object), return_counts=True), strict=True))
    for category in run.view.categories:
        penalties = {outcome.system: outcome.segment_penalty[category] for outcome in run.outcomes}
        scores = {
            (system, position): -penalties[system].get(pair_of[judged.segment_ids[position]], 0.0)
            for system, position in judged.segment_scores
        }
        results[category] = run_meta(replace(judged, segment_scores=scores), metrics, request.options,
                                     statistics=statistics)
    return CategoryMeta(overall, results, {name: int(counts[name]) for name in results})
