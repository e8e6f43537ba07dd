"""Asiya-named metrics on texts already in memory: a suite's references against outputs or variants.

``checkpoints metrics`` reads its test set from files; the gate (a stored
suite's references against two systems' outputs) and the challenge sets
(contrastive variants of the references) have their texts in memory already.
Both go through here, so they score exactly as ``metrics`` does: the same
registry, options, runner and paired tests, one segment per text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from checkpoints.evaluate.metric_runner import MetricReport, SignificanceRequest, run_metrics
from checkpoints.evaluate.metrics.base import MetricOptions
from checkpoints.io.testset_model import UNKNOWN_DOC, SetKind, Testbed, TextSet
from checkpoints.service.linguistic_options import LinguisticOptions
from checkpoints.service.metrics import (
    MetricsRequest,
    TargetLanguageNeeded,
    language_dependent,
    metric_tokenizer,
    with_source,
)


def text_set(name: str, kind: SetKind, segments: Sequence[str], origin: str) -> TextSet:
    """Segments held in memory as one test-set column (one document, segment ids 1, 2, ...)."""
    count = len(segments)
    return TextSet(name=name, kind=kind, path=origin, doc_ids=(UNKNOWN_DOC,) * count,
                   seg_ids=tuple(str(i) for i in range(1, count + 1)), segments=tuple(segments),
                   lines=tuple(range(1, count + 1)))


def checked_metric_names(metrics: Sequence[str]) -> list[str]:
    """The metrics' canonical names, in order without repeats; an unknown name fails here, before any
    work that would be lost (building a challenge set, comparing systems)."""
    names, _ = MetricsRequest(references=[], systems=[], metrics=list(metrics)).metric_names()
    return names


def score_texts(
    metrics: Sequence[str],
    references: Sequence[Sequence[str]],
    systems: Mapping[str, Sequence[str]],
    *,
    language: str | None,
    origin: str,
    source: Sequence[str] | None = None,
    tokenize: str | None = None,
    significance: SignificanceRequest | None = None,
    linguistic: LinguisticOptions | None = None,
) -> MetricReport:
    """Score every system with every metric against the reference sets, as ``metrics`` would.

    ``origin`` names where the texts come from (a suite, a challenge set) in messages;
    ``linguistic`` gives the linguistic metrics their parses or parser (``metrics``' options).
    """
    request = MetricsRequest(references=[], systems=[], metrics=list(metrics), target_lang=language,
                             linguistic=linguistic or LinguisticOptions())
    names = checked_metric_names(metrics)
    needing = language_dependent(names)
    if needing and language is None:
        raise TargetLanguageNeeded(needing, origin)
    testbed = Testbed(
        doc_ids=(UNKNOWN_DOC,) * len(references[0]),
        seg_ids=tuple(str(i) for i in range(1, len(references[0]) + 1)),
        references=tuple(text_set(f"ref{i}", SetKind.REFERENCE, texts, origin) for i, texts in enumerate(references, 1)),
        systems=tuple(text_set(name, SetKind.SYSTEM, texts, origin) for name, texts in systems.items()),
        source=None if source is None else text_set("source", SetKind.SOURCE, source, origin),
    )
    options = MetricOptions(
        tokenize=metric_tokenizer(tokenize, language), language=language, extra=with_source(request.extra(), testbed)
    )
    return run_metrics(testbed, names, options, significance=significance)
