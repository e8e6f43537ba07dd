"""Scoring systems with Asiya-named metrics: read the test set, settle the options, run, report.

:func:`score_metrics` is ``checkpoints metrics`` without the command line:
it checks the metric names before any file is read, reads and aligns the
test set (:mod:`checkpoints.io.testsets`), settles the target language and
the tokenizer from what the files declare, and runs every metric with the
one runner (:func:`checkpoints.evaluate.metric_runner.run_metrics`). What it
returns is the :class:`~checkpoints.evaluate.metric_runner.MetricReport` the
report writers render.

The target language is never assumed: metrics that depend on it (METEOR's
parameters, stemmers and synonyms, ROUGE's stemmer) take it from the request
or from the files (NIST ``trglang``, WMT ``lang``), and fail with
:class:`TargetLanguageNeeded` when neither gives it.

With a check-point suite (``suite``), whose sentence pairs are the test set's
segments in order, every scope of the suite is scored as a metric as well
(``LC``, ``LC-WORDS``, ``LC-<category>``, ...:
:mod:`checkpoints.evaluate.metrics.checkpoint_metrics`), with the matcher and
defaults of ``evaluate``, so their system scores are ``evaluate``'s figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from checkpoints.engine import EngineSpec
from checkpoints.errors import UsageError, check_choice
from checkpoints.evaluate.metric_runner import MetricReport, SignificanceRequest, run_metrics
from checkpoints.evaluate.metrics.base import Metric, MetricOptions
from checkpoints.evaluate.metrics.bleu_nist import BREVITY_PENALTIES, NIST_INFO
from checkpoints.evaluate.metrics.combination import canonical_name
from checkpoints.evaluate.metrics.linguistic.keys import SOURCE_GIVEN, SOURCE_LANGUAGE
from checkpoints.evaluate.metrics.registry import entry, metric_names
from checkpoints.evaluate.statistics_cache import statistics_cache
from checkpoints.gcpause import bulk_work
from checkpoints.io.testsets import InputFormat, Testbed, load_testbed
from checkpoints.progress import Track
from checkpoints.service.linguistic_options import LinguisticOptions
from checkpoints.tokenizers import TOKENIZERS, default_tokenizer

CASES = ("cs", "ci")


class TargetLanguageNeeded(UsageError):
    """Metrics that depend on the target language were asked for, and nothing says which it is."""

    def __init__(self, metrics: Sequence[str], where: str) -> None:
        self.metrics = tuple(metrics)
        self.where = where
        verb = "depends" if len(self.metrics) == 1 else "depend"
        super().__init__(
            f"{', '.join(self.metrics)} {verb} on the target language, which {where} does not declare: "
            "name the target language"
        )


@dataclass(slots=True)
class MetricsRequest:
    """Everything ``checkpoints metrics`` was asked to score."""

    references: list[Path]
    systems: list[tuple[str | None, Path]]
    """``(name, file)``; a name of None takes every system of an XML or SGML file under its own id."""
    metrics: list[str] = field(default_factory=list)
    """Metrics asked for by name: each must run. Combinations (``ULC(BLEU,-TER)``,
    ``QUEEN(BLEU,ROUGE-L)``) are names too; spaces inside them are ignored."""
    metric_set: str | None = None
    """A named set (``lexical``): its metrics that cannot run here are skipped and reported."""
    input_format: InputFormat = InputFormat.RAW
    source: Path | None = None
    tokenize: str | None = None
    """None: ``zh`` for a Chinese target, else ``13a`` (sacreBLEU's choice)."""
    case: str = "cs"
    target_lang: str | None = None
    """None: the language the files declare, if they do."""
    include_refs: bool = False
    significance: SignificanceRequest | None = None
    paraphrase_table: Path | None = None
    function_words: Path | None = None
    linguistic: LinguisticOptions = field(default_factory=LinguisticOptions)
    """Parses, models and resources of the linguistic and confidence metrics."""
    brevity_penalty: str = "closest"
    nist_info: str = "mteval"
    """NIST's information weights: mteval-v13a's (its "0" quirk included) or ``intended``."""
    suite: str | Path | None = None
    """A check-point store (SQLite path or SQLAlchemy URL) whose suite's pairs are the test set's
    segments: adds the ``LC`` metrics of every category, level group and the taxonomy."""
    suite_name: str | None = None
    """The suite in that store, when it holds several."""
    engine: EngineSpec = field(default_factory=EngineSpec)
    """Where the metrics are scored (the scores are the same on any engine)."""
    statistics_cache: Path | None = None
    """Keep and reuse per-segment statistics here (:mod:`~checkpoints.evaluate.statistics_cache`)."""

    def metric_names(self) -> tuple[list[str], set[str]]:
        """The metrics to run, in order without repeats, and those of them that may be skipped."""
        from_set = list(metric_names(self.metric_set)) if self.metric_set else []
        asked = [canonical_name(name) for name in self.metrics]  # also checks a combination's parts
        names = list(dict.fromkeys([*from_set, *asked]))
        if not names and self.suite is None:
            raise UsageError("no metric requested: name metrics or a metric set")
        for name in names:
            entry(name)  # unknown names fail before any file is read
        return names, set(from_set) - set(asked)

    def extra(self) -> dict[str, str]:
        """The family-specific options (``MetricOptions.extra``)."""
        extra = {"brevity-penalty": self.brevity_penalty, "nist-info": self.nist_info}
        if self.paraphrase_table is not None:
            extra["paraphrase-table"] = str(self.paraphrase_table)
        if self.function_words is not None:
            extra["function-words"] = str(self.function_words)
        extra.update(self.linguistic.extra())
        return extra


def with_source(extra: dict[str, str], testbed: Testbed) -> dict[str, str]:
    """``extra`` saying whether the test set has a source, and with the source language the files
    declare unless ``--src-lang`` gave one."""
    return source_options(extra, has_source=testbed.source is not None, declared=testbed.source_language)


def source_options(extra: dict[str, str], *, has_source: bool, declared: str | None = None) -> dict[str, str]:
    """``extra`` with :data:`SOURCE_GIVEN` and the declared source language (``--src-lang`` wins)."""
    found = {**extra, SOURCE_GIVEN: "given" if has_source else "none"}
    if declared is not None and SOURCE_LANGUAGE not in extra:
        found[SOURCE_LANGUAGE] = declared
    return found


def language_dependent(names: Sequence[str]) -> list[str]:
    """The metrics among ``names`` that depend on the target language."""
    return [name for name in names if entry(name).language]


def metric_tokenizer(tokenize: str | None, language: str | None) -> str:
    """The tokenizer asked for, or sacreBLEU's default for the target language (``13a`` when unknown)."""
    chosen = tokenize if tokenize is not None else (default_tokenizer(language) if language else "13a")
    return check_choice("tokenizer", chosen, TOKENIZERS)


def score_metrics(request: MetricsRequest, track: Track[str] | None = None) -> MetricReport:
    """Score every system of the request's test set with every requested metric.

    ``track`` wraps the loop over metrics (the command line passes a progress bar).

    Raises:
        UsageError: unknown metric names or options (before any file is read);
            :class:`TargetLanguageNeeded` when a metric depends on the target
            language and neither the request nor the files give it.
        InputError, CorpusMismatch: files that cannot be read or do not line up.
    """
    names, optional = request.metric_names()
    check_choice("case", request.case, CASES)
    check_choice("brevity penalty", request.brevity_penalty, BREVITY_PENALTIES)
    check_choice("NIST information weights", request.nist_info, NIST_INFO)
    if request.tokenize is not None:
        check_choice("tokenizer", request.tokenize, TOKENIZERS)
    if not request.references:
        raise UsageError("at least one reference file is required")
    if not request.systems:
        raise UsageError("at least one system output is required")
    testbed = load_testbed(request.input_format, request.references, request.systems, request.source)
    language = request.target_lang or testbed.target_language
    needing = language_dependent(names)
    if needing and language is None:
        where = "raw text" if request.input_format is InputFormat.RAW else "the test set"
        raise TargetLanguageNeeded(needing, where)
    options = MetricOptions(
        tokenize=metric_tokenizer(request.tokenize, language),
        case=request.case,
        language=language,
        extra=with_source(request.extra(), testbed),
    )
    lc_metrics: dict[str, Metric] = {}
    if request.suite is not None:
        lc_metrics = load_checkpoint_metrics(request.suite, request.suite_name, testbed.n_segments, options)
    with statistics_cache(request.statistics_cache) as cache:
        report = run_metrics(
            testbed,
            names,
            options,
            include_refs=request.include_refs,
            significance=request.significance,
            track=track,
            optional=optional,
            prebuilt=lc_metrics,
            engine=request.engine,
        )
    return report if cache is None else replace(report, reused=(cache.reused, cache.computed))


@bulk_work
def load_checkpoint_metrics(
    store: str | Path, suite_name: str | None, n_segments: int, options: MetricOptions | None = None
) -> dict[str, Metric]:
    """The ``LC`` metrics of the suite in ``store`` (by name, or the only one) for a test set of
    ``n_segments`` segments.

    The store is only read. Errors name this command's options (``--suite-name``),
    since :func:`~checkpoints.db.repo.find_suite`'s messages name ``evaluate``'s ``--suite``.

    Raises:
        UsageError: no such suite, several suites and no name, no check-points, or a suite
            whose number of pairs is not the test set's number of segments.
        StoreError: the store cannot be opened.
    """
    from checkpoints.db.repo import load_suite, suite_names
    from checkpoints.db.session import transaction
    from checkpoints.evaluate.columns import checkpoint_count
    from checkpoints.evaluate.metrics.checkpoint_metrics import checkpoint_metrics
    from checkpoints.service.store import engine_for

    with engine_for(store) as engine, transaction(engine) as session:
        known = suite_names(session)
        listing = ", ".join(known) or "none"
        if suite_name is not None and suite_name not in known:
            raise UsageError(f"no suite named {suite_name!r} in {store} (suites: {listing})")
        if suite_name is None and len(known) != 1:
            if not known:
                raise UsageError(f"{store} holds no check-point suite: build or import one first")
            raise UsageError(f"{store} holds several suites ({listing}): choose one with --suite-name")
        suite = load_suite(session, suite_name)
    if not checkpoint_count(suite):
        raise UsageError(f"suite {suite.name!r} has no check-points: it gives no LC metric")
    return checkpoint_metrics(suite, n_segments, options)
