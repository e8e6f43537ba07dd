"""``checkpoints meta``'s options as given, checked into a :class:`~checkpoints.service.meta.MetaRequest`.

The checks live here, not in the command, so that a program building a
request from its own settings gets the same one-line errors, each naming the
option, before any file is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from checkpoints.engine import EngineSpec
from checkpoints.errors import UsageError, check_choice
from checkpoints.evaluate.defaults import DEFAULT_ALPHA, DEFAULT_SAMPLES, DEFAULT_SEED
from checkpoints.evaluate.meta.correlation import parse_criteria
from checkpoints.evaluate.meta.criteria import DEFAULT_CRITERIA, HUMAN_LIKENESS, Criterion
from checkpoints.evaluate.meta.learn import Learner, LearnOptions
from checkpoints.evaluate.meta.runner import CIMethod, MetaOptions
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.evaluate.metrics.combination import split_metric_list
from checkpoints.service.linguistic_options import LinguisticOptions
from checkpoints.service.meta import AssessmentJudgments, MetaRequest, MQMJudgments
from checkpoints.service.option_values import (
    check_at_least,
    check_probability,
    parse_named_files,
    store_and_suite,
)
from checkpoints.tokenizers import TOKENIZERS

GRANULARITIES = ("sys", "doc", "seg")
LEARNERS = ("perceptron", "ranksvm")
CI_METHODS = ("none", "fisher", "bootstrap", "paired-bootstrap")


@dataclass(slots=True)
class MetaArguments:
    """The options of ``checkpoints meta`` as typed (names, criteria and methods as text)."""

    metrics: list[str] = field(default_factory=list)
    mqm: Path | None = None
    mqm_scores: Path | None = None
    reference_systems: list[str] = field(default_factory=list)
    excluded_systems: list[str] = field(default_factory=list)
    references: list[Path] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)
    source: Path | None = None
    assessments: Path | None = None
    granularity: str = "sys"
    criteria: str = ",".join(criterion.value for criterion in DEFAULT_CRITERIA)
    ci: str = "fisher"
    clusters: str | None = None
    optimize: str | None = None
    learn: str | None = None
    features: str | None = None
    folds: int = 3
    db: str | None = None
    suite: str | None = None
    suite_name: str | None = None
    by_category: str | None = None
    samples: int = DEFAULT_SAMPLES
    alpha: float = DEFAULT_ALPHA
    seed: int = DEFAULT_SEED
    jobs: int = 1
    engine: EngineSpec = field(default_factory=EngineSpec)
    tokenize: str | None = None
    case: str = "cs"
    target_lang: str | None = None
    linguistic: LinguisticOptions = field(default_factory=LinguisticOptions)

    def request(self) -> MetaRequest:
        """The request, every option checked; raises :class:`UsageError` naming the option."""
        store, suite_name = store_and_suite(self.db, self.suite, self.suite_name)
        if suite_name is not None and store is None and self.by_category is None:
            raise UsageError("--suite NAME chooses a suite of --db DB: give --db")
        if self.by_category is not None and self.mqm is None:
            raise UsageError("--by-category attributes MQM error spans to check-points: give --mqm FILE")
        options = self.options()
        names = metric_names(self.metrics) if self.metrics or store is None else []
        return MetaRequest(self.judgments(options.criteria), names, options, tokenize=self.tokenize, case=self.case,
                           target_lang=self.target_lang, suite=store, suite_name=suite_name,
                           by_category=self.by_category,
                           extra=replace(self.linguistic, store=store or self.by_category).extra())

    def options(self) -> MetaOptions:
        """Level, criteria, intervals, resampling, clusters, optimisation and learning, checked."""
        level = Granularity(check_choice("--granularity", self.granularity, GRANULARITIES))
        ci_method = CIMethod(check_choice("--ci", self.ci, CI_METHODS))
        check_choice("--case", self.case, ("cs", "ci"))
        if self.tokenize is not None:
            check_choice("--tokenize", self.tokenize, TOKENIZERS)
        check_at_least("--samples", self.samples, 1)
        check_probability("--alpha", self.alpha)
        return MetaOptions(
            level=level, criteria=parse_criteria(self.criteria), ci=ci_method, samples=self.samples,
            alpha=self.alpha, seed=self.seed, clusters=_one_criterion("--clusters", self.clusters),
            optimize=_one_criterion("--optimize", self.optimize), learn=self.learn_options(), jobs=self.jobs,
            engine=self.engine,
        )

    def learn_options(self) -> LearnOptions | None:
        if self.learn is None:
            if self.features is not None:
                raise UsageError("--features names the features of --learn: give --learn perceptron|ranksvm")
            return None
        method = Learner(check_choice("--learn", self.learn, LEARNERS))
        if not self.features:
            raise UsageError(f"--learn {self.learn} needs --features NAMES (metrics whose scores are combined)")
        check_at_least("--folds", self.folds, 2)
        return LearnOptions(method, tuple(metric_names([self.features])), self.folds)

    def judgments(self, criteria: tuple[Criterion, ...]) -> MQMJudgments | AssessmentJudgments:
        """The human judgments: an MQM file, or an assessments CSV with references and systems."""
        likeness = " and ".join(criterion.value for criterion in criteria if criterion in HUMAN_LIKENESS)
        if self.mqm is not None:
            if self.assessments is not None or self.references or self.systems or self.source is not None:
                raise UsageError("--mqm holds systems, source and references: do not combine it with "
                                 "--assessments, --reference, --system or --source")
            if not self.reference_systems:
                raise UsageError("--mqm needs --reference-system NAME (the human translation used as reference, e.g. ref)")
            references = list(dict.fromkeys(self.reference_systems))
            if likeness and len(references) < 2:
                raise UsageError(f"{likeness} score each reference against the others: give at least two, "
                                 "e.g. --reference-system ref --reference-system refB")
            return MQMJudgments(self.mqm, references[0] if len(references) == 1 else references, self.mqm_scores,
                                list(self.excluded_systems))
        if self.assessments is None:
            raise UsageError("give human judgments: --mqm FILE or --assessments FILE")
        if self.mqm_scores is not None or self.reference_systems or self.excluded_systems:
            raise UsageError("--mqm-scores, --reference-system and --exclude-system go with --mqm")
        if not self.references:
            raise UsageError("--assessments needs at least one --reference FILE")
        if not self.systems:
            raise UsageError("--assessments needs at least one --system NAME=FILE")
        if likeness and len(self.references) < 2:
            raise UsageError(f"{likeness} score each reference against the others: give at least two --reference FILE")
        return AssessmentJudgments(self.assessments, list(self.references),
                                   parse_named_files(self.systems, "--system"), self.source)


def metric_names(values: list[str]) -> list[str]:
    """Metric names from comma-separated option values, in order, once each (commas inside a
    combination's parentheses separate its parts, not metrics)."""
    names = [name for value in values for name in split_metric_list(value)]
    if not names:
        raise UsageError("-m names no metric")
    return list(dict.fromkeys(names))


def _one_criterion(option: str, text: str | None) -> Criterion | None:
    if text is None:
        return None
    try:
        (criterion, *more) = parse_criteria(text)
    except UsageError as error:
        raise UsageError(f"{option}: {error}") from None
    if more:
        raise UsageError(f"{option} takes one criterion, not {text!r}")
    return criterion
