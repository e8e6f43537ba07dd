"""``checkpoints attribute``: a suite's check-points against an MQM release's rated error spans.

Reads, never writes: the suite is loaded, the MQM file read, every system's
output scored (``evaluate``'s defaults) and aligned to the source, and the
errors attributed (:mod:`checkpoints.evaluate.attribution`).

The MQM file's segments, in ascending ``seg_id``, are the suite's sentence
pairs in order (a suite built from the release's sources, as
``benchmarks/ted_study.py`` builds one); each segment's source must be the
pair's source. Rated outputs come from the MQM file; ``--system NAME=FILE``
chooses systems and checks that the file is the output the raters saw. A
system whose every output is the suite's own reference (MQM rates the human
translation as a system) is left out unless named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from checkpoints.errors import InputError, UsageError
from checkpoints.evaluate.attribution import (
    ALL,
    EXAMPLES_PER_CATEGORY,
    Attribution,
    CheckpointView,
    Example,
    RatedSegment,
    SystemOutcome,
    category_errors,
    category_validity,
    rated_segments,
    system_outcome,
    words_in_errors,
)
from checkpoints.evaluate.output_links import (
    LinkedOutput,
    align_outputs,
    read_output_links,
    source_spans,
)
from checkpoints.evaluate.resample import DEFAULT_SEED
from checkpoints.evaluate.scoring import CheckpointScorer
from checkpoints.extract.dictionary import Lexicon
from checkpoints.gcpause import bulk_work
from checkpoints.io.mqm import MQMData, read_mqm
from checkpoints.io.text import read_sentences
from checkpoints.model import GAP, SuiteData
from checkpoints.service.store import Store, load_stored_suite
from checkpoints.signature import suite_signature


@dataclass(slots=True)
class AttributeRequest:
    store: Store
    mqm: Path
    suite_name: str | None = None
    systems: Sequence[tuple[str, Path]] = ()
    """Systems to attribute, with their output files; none: every system of the MQM file."""
    alignments: Sequence[tuple[str, Path]] = ()
    """Pharaoh files of source–output links, per system; the others are aligned with eflomal."""
    dictionaries: Sequence[Path] = ()
    """Dictionaries for eflomal's priors; none: the lexicon stored with the suite."""
    alternatives: bool = False
    seed: int = DEFAULT_SEED
    options: dict[str, object] = field(default_factory=dict)


@dataclass(slots=True)
class AttributedRun:
    """Every system's check-points with the errors they overlap: what ``attribute`` reports on and
    ``meta --by-category`` takes its per-category human scores from."""

    suite: SuiteData
    segments: list[int]
    """The MQM file's seg_ids in suite pair order."""
    scorer: CheckpointScorer
    outputs: dict[str, list[str]]
    linked: dict[str, list[LinkedOutput]]
    view: CheckpointView
    outcomes: list[SystemOutcome]
    rated: dict[str, dict[int, RatedSegment]]


@bulk_work
def attribute(request: AttributeRequest) -> Attribution:
    """Everything :class:`~checkpoints.evaluate.attribution.Attribution` holds for the request."""
    return _attribution(attributed_run(request), request)


def attributed_run(request: AttributeRequest, systems: Sequence[str] | None = None) -> AttributedRun:
    """Score, align and attribute the request's systems (or ``systems``, outputs as rated in the MQM file)."""
    suite = load_stored_suite(request.store, request.suite_name)
    data = read_mqm(request.mqm)
    segments = _matching_segments(data, suite, request.mqm)
    outputs = {name: [data.outputs[name].get(seg, "") for seg in segments] for name in data.systems}
    chosen = list(systems) if systems is not None else _chosen_systems(request, data, suite, outputs, segments)
    scorer = CheckpointScorer(suite, alternatives=request.alternatives)
    linked = _linked_outputs(request, suite, outputs, chosen)
    checkpoints = scorer.checkpoints
    position_of = {pair.id: position for position, pair in enumerate(suite.pairs)}
    used = {checkpoint.category for checkpoint in checkpoints}
    view = CheckpointView(
        categories=tuple(category.name for category in suite.categories if category.name in used),
        category=tuple(checkpoint.category for checkpoint in checkpoints),
        position=np.fromiter((position_of[checkpoint.pair_id] for checkpoint in checkpoints), dtype=np.int64,
                             count=len(checkpoints)),
        source_indices=tuple(tuple(checkpoint.source_indices) for checkpoint in checkpoints),
    )
    source_ranges = [source_spans(pair.source) for pair in suite.pairs]
    rated = {name: rated_segments(data, name, segments) for name in chosen}
    outcomes: list[SystemOutcome] = []
    for name in chosen:
        result = scorer.score(outputs[name])
        report = result.report()
        score = {category: scores.score for category, scores in report.categories.items()}
        score[ALL] = report.taxonomy.score
        outcomes.append(
            system_outcome(name, view, result.match_ratio(), linked[name], source_ranges, rated[name], score)
        )
    return AttributedRun(suite, segments, scorer, outputs, linked, view, outcomes, rated)


def _matching_segments(data: MQMData, suite: SuiteData, path: Path) -> list[int]:
    segments = list(data.segments)
    if len(segments) != len(suite.pairs):
        raise UsageError(
            f"{path} has {len(segments)} segments but suite {suite.name!r} has {len(suite.pairs)} sentence pairs: "
            "build the suite from the MQM file's sources, one per segment in seg_id order"
        )
    for position, (seg, pair) in enumerate(zip(segments, suite.pairs, strict=True)):
        if " ".join(data.sources[seg].split()) != " ".join(pair.source.text.split()):
            raise UsageError(
                f"{path}: segment {seg}'s source is not the source of suite {suite.name!r}'s pair {position + 1}: "
                f"{data.sources[seg][:60]!r} vs {pair.source.text[:60]!r}"
            )
    return segments


def _chosen_systems(
    request: AttributeRequest, data: MQMData, suite: SuiteData, outputs: Mapping[str, list[str]], segments: Sequence[int]
) -> list[str]:
    if not request.systems:
        reference = [pair.references[0].text.strip() for pair in suite.pairs]
        return [name for name in data.systems if [line.strip() for line in outputs[name]] != reference]
    chosen = []
    for name, path in request.systems:
        if name not in data.outputs:
            raise UsageError(f"system {name!r} is not in {request.mqm} (systems: {', '.join(data.systems)})")
        lines = read_sentences(path, allow_empty=True)
        if len(lines) != len(segments):
            raise InputError(path, None, f"{len(lines)} lines, but {request.mqm} has {len(segments)} segments")
        for number, (line, seg) in enumerate(zip(lines, segments, strict=True), start=1):
            rated = data.outputs[name].get(seg)
            if rated is not None and line.strip() != rated.strip():
                raise InputError(path, number, f"not the output of {name!r} that {request.mqm} rates for segment {seg}")
        chosen.append(name)
    return chosen


def _lexicon(request: AttributeRequest, suite: SuiteData) -> Lexicon | None:
    if request.dictionaries:
        from checkpoints.extract.dictionary import read_dictionaries

        words = {key for pair in suite.pairs for token in pair.source.tokens for key in (token.lemma, token.form)}
        return read_dictionaries(request.dictionaries, suite.source_lang, suite.target_lang, words)
    stored = suite.options.get("lexicon")
    if isinstance(stored, dict) and stored:
        return Lexicon.from_entries(stored, str(suite.options.get("dictionary", "stored")))
    return None


def _linked_outputs(
    request: AttributeRequest, suite: SuiteData, outputs: Mapping[str, list[str]], chosen: Sequence[str]
) -> dict[str, list[LinkedOutput]]:
    sources = [pair.source for pair in suite.pairs]
    given = dict(request.alignments)
    unknown = sorted(set(given) - set(chosen))
    if unknown:
        raise UsageError(f"--alignment names system {unknown[0]!r}, which is not attributed (systems: {', '.join(chosen)})")
    linked = {name: read_output_links(path, sources, outputs[name]) for name, path in given.items()}
    if any(name not in given for name in chosen):
        # every output of the release (and the reference) in one corpus: more text, better links
        corpus = {name: lines for name, lines in outputs.items() if name not in given}
        corpus[" reference"] = [pair.references[0].text for pair in suite.pairs]
        aligned = align_outputs(sources, corpus, _lexicon(request, suite), seed=request.seed)
        linked.update({name: aligned[name] for name in chosen if name not in given})
    return linked


def _attribution(run: AttributedRun, request: AttributeRequest) -> Attribution:
    chosen = [outcome.system for outcome in run.outcomes]
    errors = tuple(row for outcome in run.outcomes for row in category_errors(outcome, run.view))
    validity = tuple(category_validity(run.outcomes, run.view, len(run.suite.pairs), seed=request.seed))
    signature = suite_signature(run.suite).with_fields(
        tok=run.scorer.tokenize, match=run.scorer.match.value, alternatives=run.scorer.alternatives_label,
        links="pharaoh" if request.alignments else "eflomal", seed=request.seed,
    )
    return Attribution(
        suite=run.suite.name,
        systems=tuple(chosen),
        categories=run.view.categories,
        errors=errors,
        validity=validity,
        words_in_errors=words_in_errors({name: run.linked[name] for name in chosen}, run.rated),
        examples=tuple(_examples(run)),
        signature=str(signature),
        options={"mqm": str(request.mqm), "alternatives": request.alternatives},
    )


def _examples(run: AttributedRun) -> list[Example]:
    """Up to :data:`EXAMPLES_PER_CATEGORY` missed check-points inside a rated error per category,
    each from another system where there are enough, in suite order."""
    examples: list[Example] = []
    suite, view, outputs, linked = run.suite, run.view, run.outputs, run.linked
    checkpoints = run.scorer.checkpoints
    for category in view.categories:
        found: list[Example] = []
        for outcome in run.outcomes:
            for number, name in enumerate(view.category):
                if name != category or not (outcome.missed[number] and outcome.overlaps[number] and outcome.linked[number]):
                    continue
                checkpoint = checkpoints[number]
                position = int(view.position[number])
                pair = suite.pairs[position]
                tokens = pair.source.tokens
                reference = checkpoint.references[0].tokens if checkpoint.references else []
                found.append(
                    Example(
                        category=category, system=outcome.system, pair=position,
                        source=" ".join(tokens[index].form for index in checkpoint.source_indices),
                        reference=" ".join(reference) if reference else GAP,
                        output=outputs[outcome.system][position],
                        linked=tuple(linked[outcome.system][position].spans_of(checkpoint.source_indices)),
                        errors=outcome.overlaps[number],
                    )
                )
                break
            if len(found) >= EXAMPLES_PER_CATEGORY:
                break
        examples.extend(found)
    return examples
