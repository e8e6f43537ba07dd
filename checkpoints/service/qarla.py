"""QARLA meta-evaluation of a metric set on a test bed: read the files, compute similarities, measure.

:func:`qarla_evaluate` is ``checkpoints qarla`` without the command line. It
checks the request before any file is read, reads a raw-text test bed
(:mod:`checkpoints.io.testsets`), turns every requested registry metric into
a similarity ``x(candidate, reference)`` (the metric's segment score of the
candidate against that *one* reference, as IQMT turns metrics into
similarities, manual §5) and hands the arrays to
:mod:`checkpoints.evaluate.meta.qarla`.

Check-point (LC) metrics cannot serve as similarities, and a request with a
suite is refused (:data:`LC_NOT_SIMILARITIES`): QARLA needs ``x(a, r)``, ``a``
against *one chosen* reference, and ``x(r', r'')``, one reference against
another, while a check-point score measures a candidate against the suite's
check-points, extracted from the suite's own references once and for all;
no check-point exists "of" a single test-set reference, so leaving NaN
similarities out would not help: every similarity would be undefined.

Three kinds of similarity are computed per metric: every system against
every reference, every reference against every other reference, and (for
JACK) every system against every other system.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from checkpoints.errors import UsageError, check_choice
from checkpoints.evaluate.meta.qarla import QarlaResult, Similarities, Tie, check_testbed, qarla
from checkpoints.evaluate.metrics.base import Metric, MetricCache, MetricOptions
from checkpoints.evaluate.metrics.registry import entry, get_metric
from checkpoints.io.testset_model import Testbed, TextSet
from checkpoints.io.testsets import InputFormat, load_testbed
from checkpoints.progress import Track
from checkpoints.service.linguistic_options import LinguisticOptions
from checkpoints.service.metrics import (
    CASES,
    TargetLanguageNeeded,
    language_dependent,
    metric_tokenizer,
)
from checkpoints.tokenizers import TOKENIZERS


def reads_the_source(name: str) -> bool:
    """Whether ``name`` compares a translation with its source (CE-*, LeM, ESA-xl), or is a combination
    holding such a metric."""
    from checkpoints.evaluate.metrics.combination import parse_combination

    combination = parse_combination(name)
    if combination is not None:
        return any(reads_the_source(part) for part in combination.parts)
    return name.startswith("CE-") or name in ("LeM", "ESA-xl")


LC_NOT_SIMILARITIES = (
    "check-point (LC) metrics cannot serve as QARLA similarities: QARLA scores a candidate against one "
    "chosen reference and references against each other, and a check-point score is always taken against "
    "the suite's check-points"
)



@dataclass(slots=True)
class QarlaRequest:
    """Everything ``checkpoints qarla`` was asked for."""

    references: list[Path]
    systems: list[tuple[str, Path]]
    metrics: list[str]
    tie: str = Tie.GE.value
    trans_topic: bool = False
    optimize: bool = False
    check_references: bool = False
    """Also score each reference as a peer against the others (``ReferenceCheck``)."""
    source: Path | None = None
    tokenize: str | None = None
    case: str = "cs"
    target_lang: str | None = None
    suite: str | Path | None = None
    """A check-point store: refused, with the reason (:data:`LC_NOT_SIMILARITIES`)."""
    suite_name: str | None = None
    linguistic: LinguisticOptions = field(default_factory=LinguisticOptions)
    """Parses and resources of the linguistic metrics (SP, DP, CP, NE, SR, ESA)."""

    def check(self) -> list[str]:
        """The metric names, without repeats, once every option is known to be valid."""
        if self.suite is not None:
            raise UsageError(LC_NOT_SIMILARITIES)
        names = list(dict.fromkeys(self.metrics))
        if not names:
            raise UsageError("no metric requested")
        for name in names:
            entry(name)  # unknown names fail before any file is read
            if reads_the_source(name):
                raise UsageError(f"{name} compares a translation with its source, not two translations with each "
                                 "other: it cannot be a QARLA similarity")
        self.linguistic.extra()
        check_choice("tie policy", self.tie, [tie.value for tie in Tie])
        check_choice("case", self.case, CASES)
        if self.tokenize is not None:
            check_choice("tokenizer", self.tokenize, TOKENIZERS)
        if not self.systems:
            raise UsageError("at least one system output is required")
        check_testbed(len(self.references), 2, self.trans_topic)
        return names


def qarla_evaluate(request: QarlaRequest, track: Track[str] | None = None) -> QarlaResult:
    """QUEEN of every system, KING and JACK of the metric set, and (``optimize``) the greedy set.

    Raises:
        UsageError: bad options, too few references, unknown metrics (before any
            file is read); :class:`TargetLanguageNeeded` for METEOR or ROUGE
            without a target language.
        InputError, CorpusMismatch: files that cannot be read or do not line up.
    """
    names = request.check()
    testbed = load_testbed(InputFormat.RAW, request.references, list(request.systems), request.source)
    check_testbed(len(testbed.references), testbed.n_segments, request.trans_topic)
    needing = language_dependent(names)
    if needing and request.target_lang is None:
        raise TargetLanguageNeeded(needing, "raw text")
    options = MetricOptions(
        tokenize=metric_tokenizer(request.tokenize, request.target_lang),
        case=request.case,
        language=request.target_lang,
        extra={"brevity-penalty": "closest", "nist-info": "mteval", **request.linguistic.extra()},
    )
    similarities = compute_similarities(testbed, names, options, track)
    return qarla(
        similarities,
        tie=Tie(request.tie),
        trans_topic=request.trans_topic,
        find_optimal=request.optimize,
        check_refs=request.check_references,
    )


def compute_similarities(
    testbed: Testbed,
    names: Sequence[str],
    options: MetricOptions,
    track: Track[str] | None = None,
    system_pairs: bool = True,
) -> Similarities:
    """Every pairwise segment-level similarity QARLA needs, for every metric in ``names``.

    ``system_pairs=False`` skips the system-system similarities, which only
    JACK reads and which grow with the square of the number of systems.
    """
    cache = MetricCache()
    systems, references = testbed.systems, testbed.references
    sources = (testbed.source or references[0]).segments
    n = testbed.n_segments
    system_reference = np.empty((len(names), len(systems), n, len(references)))
    reference_reference = np.full((len(names), n, len(references), len(references)), np.nan)
    system_system = np.full((len(names), n, len(systems), len(systems)), np.nan)
    loop = track(names) if track is not None else names
    for m, name in enumerate(loop):
        metric = get_metric(name, options, cache)
        for a, system in enumerate(systems):
            for r, reference in enumerate(references):
                system_reference[m, a, :, r] = _similarity(metric, system, reference, sources)
            if system_pairs and len(systems) > 1:
                for b, other in enumerate(systems):
                    if a != b:
                        system_system[m, :, a, b] = _similarity(metric, system, other, sources)
        for i, candidate in enumerate(references):
            for j, reference in enumerate(references):
                if i != j:
                    reference_reference[m, :, i, j] = _similarity(metric, candidate, reference, sources)
    return Similarities(
        metrics=tuple(names),
        systems=tuple(system.name for system in systems),
        references=tuple(reference.name for reference in references),
        system_reference=system_reference,
        reference_reference=reference_reference,
        system_system=system_system if system_pairs else None,
    )


def _similarity(metric: Metric, candidate: TextSet, reference: TextSet, sources: Sequence[str]) -> np.ndarray:
    """``x(candidate, reference)`` at every segment: the metric's segment score against one reference."""
    stats = metric.corpus_stats(candidate.segments, [reference.segments], sources)
    return np.asarray(metric.segment_scores(np.asarray(stats, dtype=np.float64)), dtype=np.float64)
