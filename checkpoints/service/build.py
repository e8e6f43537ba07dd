"""The suite-building pipeline: read → parse → align → find check-points → weight → store.

This module only orchestrates; each step lives in its own module. Everything
that can fail on user input (files, models, taxonomy, dictionary) runs before
the database transaction opens, and the store is written in one transaction,
so a failed build leaves no suite behind.

The corpus streams through in chunks (:mod:`checkpoints.service.build_corpus`):
read and parsed a chunk at a time, aligned whole, then mined for the
taxonomy's corpus statistics and extracted chunk by chunk, each chunk stored
as soon as its check-points are found (:func:`build_into_store`). Memory holds
a few chunks, the packed alignments and the packed check-points, not the
corpus. Held whole (:func:`build_suite`), the same chunks make the same suite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from checkpoints import __version__
from checkpoints.engine import Engine, LocalEngine, open_engine
from checkpoints.extract.checkpoints import ExtractionOptions, ExtractionSummary, Finder
from checkpoints.extract.langcodes import language
from checkpoints.extract.lexicon import Lexicon
from checkpoints.extract.reliability import CLASS_FLUID_LANGUAGES
from checkpoints.gcpause import bulk_work
from checkpoints.model import CheckPoint, Level, SentencePair, SuiteData
from checkpoints.progress import Progress, no_progress
from checkpoints.service.build_corpus import AlignedCorpus, align_pairs
from checkpoints.service.build_request import BuildRequest, BuildResult, input_paths
from checkpoints.service.pair_spool import MEMORY_PAIRS
from checkpoints.signature import SuiteHasher
from checkpoints.tokenizers import default_match_tokenizer, is_chinese

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from checkpoints.db.suite_writer import SuiteWriter
    from checkpoints.service.store import Store
    from checkpoints.taxonomy import Taxonomy

__all__ = ["AlignedCorpus", "BuildRequest", "BuildResult", "align_pairs", "build_into_store", "build_suite", "build_suite_from"]

@bulk_work
def build_suite(request: BuildRequest, progress: Progress = no_progress) -> BuildResult:
    """The whole suite in memory as core types, and its summary (nothing stored)."""
    request.validate()
    taxonomy = load_request_taxonomy(request)
    with open_engine(request.engine) as engine:
        corpus = align_pairs(request, progress, engine)
        try:
            return build_suite_from(request, corpus, progress, taxonomy, engine)
        finally:
            corpus.close()


@bulk_work
def build_into_store(
    request: BuildRequest, store: Store, *, replace: bool = False, progress: Progress = no_progress
) -> BuildResult:
    """Build and store the suite chunk by chunk, in one transaction: memory does not grow with
    the corpus, and an interrupted build leaves no suite. The result's suite holds everything
    but the pairs and check-points, which are in the store. (A build that can go on after an
    interruption: :func:`checkpoints.service.build_resume.build_into_store_resumably`.)
    """
    request.validate()
    taxonomy = load_request_taxonomy(request)
    with open_engine(request.engine) as engine:
        return _build_into_store(request, store, replace, progress, taxonomy, engine)


def suite_writer(session: Session, header: SuiteData, *, name: str | None = None,
                 options: dict[str, object] | None = None) -> SuiteWriter:
    """A writer of a suite with ``header``'s languages, taxonomy and categories (under ``name``)."""
    from checkpoints.db.suite_writer import SuiteWriter

    return SuiteWriter(
        session, name=name or header.name, source_lang=header.source_lang, target_lang=header.target_lang,
        taxonomy=header.taxonomy, taxonomy_version=header.taxonomy_version, categories=header.categories,
        user_categories=header.user_categories, options=header.options if options is None else options,
    )


def _build_into_store(
    request: BuildRequest, store: Store, replace: bool, progress: Progress, taxonomy: Taxonomy, engine: Engine
) -> BuildResult:
    from checkpoints.service.store import write_new_suite

    corpus = align_pairs(request, progress, engine)
    try:
        plan = plan_suite(request, corpus, progress, taxonomy)

        def write(session: Session) -> int:
            from checkpoints.db.repo import claim_name

            claim_name(session, plan.header.name, replace=replace)
            writer = suite_writer(session, plan.header)
            result = plan.extract(lambda chunk, found, _: writer.add(chunk, found), progress, engine)
            return writer.finish(result.suite.options, result.summary)

        write_new_suite(store, plan.header.name, write)
        return plan.result
    finally:
        corpus.close()


def load_request_taxonomy(request: BuildRequest) -> Taxonomy:
    from checkpoints.taxonomy import load_taxonomy

    return load_taxonomy(request.taxonomy_name())  # a bad taxonomy file fails before any parsing


def build_suite_from(
    request: BuildRequest,
    corpus: AlignedCorpus,
    progress: Progress = no_progress,
    taxonomy: Taxonomy | None = None,
    engine: Engine | None = None,
) -> BuildResult:
    """The suite of an aligned corpus, held whole: check-points, their references, the filters' counts."""
    plan = plan_suite(request, corpus, progress, taxonomy or load_request_taxonomy(request))
    pairs: list[SentencePair] = []
    checkpoints: list[CheckPoint] = []

    def keep(chunk: list[SentencePair], found: list[CheckPoint], _: ExtractionSummary) -> None:
        pairs.extend(chunk)
        checkpoints.extend(found)

    result = plan.extract(keep, progress, engine)
    result.suite.pairs, result.suite.checkpoints = pairs, checkpoints
    return result


def plan_suite(request: BuildRequest, corpus: AlignedCorpus, progress: Progress, taxonomy: Taxonomy) -> SuitePlan:
    """Mine the taxonomy's corpus statistics (one pass over the corpus) and settle the suite's
    options: everything extraction needs before the first check-point is found."""
    from checkpoints.taxonomy import builtin_taxonomies

    prepared = taxonomy.prepare(corpus, size=len(corpus))
    extraction = ExtractionOptions(
        noise_filter=request.noise_filter,
        tokenize=default_match_tokenizer(request.target_lang),
        min_dm=request.min_dm,
        pos_filter=request.pos_filter,
        class_filter=request.pos_filter
        and CLASS_FLUID_LANGUAGES.isdisjoint({language(request.source_lang), language(request.target_lang)}),
        confirm=request.confirm,
        complete=request.complete,
        split_words=is_chinese(request.source_lang),
    )
    custom_taxonomy = request.taxonomy_name() not in builtin_taxonomies()
    options: dict[str, object] = {
        "source_lang": request.source_lang,
        "target_lang": request.target_lang,
        "taxonomy": taxonomy.name,
        "taxonomy_version": taxonomy.version,
        "taxonomy_source": request.taxonomy_name(),
        **corpus.options,
        "noise_filter": request.noise_filter,
        "reference_tokenizer": extraction.tokenize,
        "min_dm": request.min_dm,
        "repair": request.repair,
        "pos_filter": request.pos_filter,
        "class_filter": extraction.class_filter,
        "parallel_filter": request.parallel_filter,
        "confirm": request.confirm,
        "complete": request.complete,
        "references": request.reference_count,
        "inputs": [str(p) for p in input_paths(request)],
        "checkpoints_version": __version__,
        "lexicon": corpus.lexicon.entries_for(corpus.source_keys),
    }
    header = SuiteData(
        name=request.suite_name(),
        source_lang=request.source_lang,
        target_lang=request.target_lang,
        taxonomy=taxonomy.name,
        taxonomy_version=str(taxonomy.version),
        categories=list(taxonomy.categories),
        pairs=[],
        checkpoints=[],
        options=options,
        user_categories={c.name for c in taxonomy.categories} if custom_taxonomy else set(),
    )
    return SuitePlan(request, corpus, taxonomy, prepared, extraction, header)


AUDIT_PAIRS = MEMORY_PAIRS
"""The audit reads the suite's first pairs, up to this many: the pairs a build keeps in memory
anyway, enough for every category's figures, and the same whether the suite is held or streamed."""


@dataclass(slots=True)
class SuitePlan:
    """A suite ready to be extracted: :meth:`extract` streams it into a sink."""

    request: BuildRequest
    corpus: AlignedCorpus
    taxonomy: Taxonomy
    prepared: Finder
    extraction: ExtractionOptions
    header: SuiteData
    result: BuildResult = field(init=False)

    def extract(
        self,
        sink: Callable[[list[SentencePair], list[CheckPoint], ExtractionSummary], None],
        progress: Progress,
        engine: Engine | None = None,
        staged: Sequence[Callable[[list[SentencePair]], tuple[list[CheckPoint], ExtractionSummary]]] = (),
    ) -> BuildResult:
        """Find every check-point, chunk by chunk in corpus order, and hand each chunk (its pairs,
        check-points and counts) to ``sink``; the summary, the audit and the content hash come at
        the end. The chunks are extracted by ``engine`` (default: here), their results taken in
        corpus order. The first chunks may be ``staged``, committed by an interrupted run: each
        gives its check-points and counts back for its pairs, and goes to no sink."""
        from checkpoints.extract.checkpoints import ExtractionSummary

        request, corpus, taxonomy, header = self.request, self.corpus, self.taxonomy, self.header
        context = ChunkContext(
            finder=self.prepared,
            levels={category.name: category.level for category in taxonomy.categories},
            lexicon=corpus.lexicon,
            extraction=self.extraction,
            parallel_filter=request.parallel_filter,
        )
        summary = ExtractionSummary(noise_filter=request.noise_filter)
        hasher = SuiteHasher(header.source_lang, header.target_lang, header.taxonomy)
        sample = SuiteData(**{**_fields(header), "pairs": [], "checkpoints": []})
        empty_alignments = 0
        number = 0
        advance = progress("finding check-points", len(corpus))

        def take(chunk: list[SentencePair], found: list[CheckPoint], chunk_summary: ExtractionSummary) -> None:
            nonlocal empty_alignments, number
            number += len(found)
            summary.add(chunk_summary)
            empty_alignments += sum(
                1 for pair in chunk if pair.alignments and all(not alignment.links for alignment in pair.alignments)
            )
            hasher.add(chunk, found)
            if len(sample.pairs) < AUDIT_PAIRS:
                sample.pairs.extend(chunk[: AUDIT_PAIRS - len(sample.pairs)])
                last = sample.pairs[-1].id
                sample.checkpoints.extend(checkpoint for checkpoint in found if checkpoint.pair_id <= last)
            advance(len(chunk))

        windows = _windows(corpus)
        for read_back, window in zip(staged, windows, strict=False):
            take(window.chunk, *read_back(window.chunk))
        for window, (found, chunk_summary) in (engine or LocalEngine()).map(lambda: context, extract_window, windows):
            for checkpoint in found:
                checkpoint.id += number  # type: ignore[operator]
            sink(window.chunk, found, chunk_summary)
            take(window.chunk, found, chunk_summary)
        summary_dict = summary.to_json(c.name for c in taxonomy.categories)
        summary_dict["resources"] = _jsonable(getattr(self.prepared, "resources", {}))
        summary_dict["alignment_repairs"] = corpus.repairs.to_json()
        summary_dict["empty_alignments"] = empty_alignments
        summary_dict["warnings"] = build_warnings(request, taxonomy.language, summary_dict)
        options = {**header.options, "content_hash": hasher.hexdigest()}
        suite = SuiteData(**{**_fields(header), "options": options, "summary": summary_dict})
        if request.audit and sample.checkpoints:
            from checkpoints.evaluate.audit import audit_suite

            advance = progress("auditing the suite", 1)
            audit = audit_suite(sample).to_json()
            if len(sample.pairs) < summary.pairs:
                audit["pairs"] = len(sample.pairs)
            summary_dict["audit"] = audit
            advance(1)
        self.result = BuildResult(suite, summary_dict)
        return self.result


@dataclass(frozen=True, slots=True)
class ChunkContext:
    """What extracting a chunk needs besides the chunk: made once, sent once to each worker."""

    finder: Finder
    levels: dict[str, Level]
    lexicon: Lexicon
    extraction: ExtractionOptions
    parallel_filter: bool


@dataclass(frozen=True, slots=True)
class Window:
    """A chunk with the pairs on either side that the non-parallel check compares its ends with."""

    before: list[SentencePair]
    chunk: list[SentencePair]
    after: list[SentencePair]


def extract_window(context: ChunkContext, window: Window) -> tuple[list[CheckPoint], ExtractionSummary]:
    """One chunk's check-points, numbered from 1, and its summary: the unit of work an engine runs."""
    from checkpoints.extract.checkpoints import ExtractionSummary, extract_checkpoints
    from checkpoints.extract.reliability import non_parallel_pairs

    chunk = window.chunk
    skip: set[int] = set()
    if context.parallel_filter:
        pairs = window.before + chunk + window.after
        judged = range(len(window.before), len(window.before) + len(chunk))
        skip = set(non_parallel_pairs(pairs, context.lexicon, judged))
    summary = ExtractionSummary(noise_filter=context.extraction.noise_filter)
    found, _ = extract_checkpoints(
        chunk, context.finder, context.levels, context.lexicon, context.extraction, skip_pairs=skip, summary=summary
    )
    return found, summary


def _fields(suite: SuiteData) -> dict[str, object]:
    return {name: getattr(suite, name) for name in SuiteData.__slots__}  # type: ignore[attr-defined]


def _windows(corpus: AlignedCorpus) -> Iterator[Window]:
    """Each chunk with its neighbours' nearest pairs: a chunk is handed on once the next one is
    read, so that pairs at its ends are compared with neighbours on both sides."""
    from checkpoints.extract.reliability import SHIFT_WINDOW

    before: list[SentencePair] = []
    pending: list[SentencePair] | None = None
    for chunk in corpus.chunks():
        if pending is not None:
            yield Window(before, pending, chunk[:SHIFT_WINDOW])
            before = pending[-SHIFT_WINDOW:]
        pending = chunk
    if pending is not None:
        yield Window(before, pending, [])


MOSTLY_SKIPPED = 0.5
"""A build that skips more than this share of the check-points it found is probably fed
the wrong alignments or languages, so it says so instead of passing quietly."""


def build_warnings(request: BuildRequest, taxonomy_language: str, summary: dict[str, Any]) -> list[str]:
    """What a user should hear about a build that worked but is probably not what they meant."""
    warnings = []
    if taxonomy_language not in ("*", "", request.source_lang):
        warnings.append(
            f"taxonomy {request.taxonomy_name()!r} is for {taxonomy_language} sources, but the source language "
            f"is {request.source_lang}: its rules will miss or misread phenomena (use `ud` for any language)"
        )
    found = sum(summary.get("found", {}).values())
    skipped_by_reason = {
        reason: sum(counts.values()) for reason, counts in summary.get("skipped", {}).items()
    }
    skipped = sum(skipped_by_reason.values())
    if found and skipped > MOSTLY_SKIPPED * found:
        reason = max(skipped_by_reason, key=lambda r: skipped_by_reason[r])
        warnings.append(
            f"{skipped} of {found} check-points found were skipped (most as {reason!r}): "
            "check that the alignments and references belong to these source sentences"
        )
    empty = summary.get("empty_alignments", 0)
    if empty:
        warnings.append(f"{empty} sentence pairs have no alignment link at all")
    return warnings


def _jsonable(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)
