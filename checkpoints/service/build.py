"""The suite-building pipeline: read → parse → align → find check-points → weight → store.

This module only orchestrates; each step lives in its own module. Everything
that can fail on user input (files, models, taxonomy, dictionary) runs before
the database transaction opens, and the store is written in one transaction,
so a failed build leaves no suite behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from checkpoints import __version__
from checkpoints.errors import CorpusMismatch, InputError, UsageError
from checkpoints.extract.dictionary import Lexicon, is_named_dictionary
from checkpoints.extract.eflomal_process import DEFAULT_ALIGN_SEED
from checkpoints.extract.langcodes import language
from checkpoints.extract.reliability import CLASS_FLUID_LANGUAGES
from checkpoints.extract.repair import RepairCounts
from checkpoints.gcpause import bulk_work
from checkpoints.io.conllu import read_conllu
from checkpoints.io.pharaoh import read_pharaoh
from checkpoints.io.text import read_sentences
from checkpoints.model import Alignment, Sentence, SentencePair, SuiteData
from checkpoints.progress import Progress, no_progress
from checkpoints.tokenizers import default_match_tokenizer

if TYPE_CHECKING:
    from checkpoints.taxonomy import Taxonomy

DEFAULT_MIN_DM = 0.0
"""References below this DM are dropped; see docs/building.md#reference-quality for why 0."""

@dataclass(slots=True)
class BuildRequest:
    """Everything ``checkpoints build`` was asked to do."""

    source_lang: str
    target_lang: str
    source: Path | None = None
    references: list[Path] = field(default_factory=list)
    source_conllu: Path | None = None
    reference_conllu: list[Path] = field(default_factory=list)
    alignments: list[Path] = field(default_factory=list)
    aligner: str = "eflomal"
    align_model: str = "bert-base-multilingual-cased"
    align_method: str = "itermax"
    seed: int | None = DEFAULT_ALIGN_SEED
    """Seed of eflomal's sampling: the same inputs and seed give the same suite. None: unseeded."""
    taxonomy: str | None = None
    dictionaries: list[Path] = field(default_factory=list)
    threads: int | None = None
    """CPU threads the parser (torch) may use on raw text; None: torch's default."""
    name: str | None = None
    noise_filter: bool = True
    stanza_dir: str | None = None
    min_dm: float = DEFAULT_MIN_DM
    repair: bool = True
    pos_filter: bool = True
    parallel_filter: bool = True
    confirm: bool = True
    complete: bool = True
    audit: bool = True

    def validate(self) -> None:
        raw = self.source is not None or bool(self.references)
        conllu = self.source_conllu is not None or bool(self.reference_conllu)
        if raw and conllu:
            raise UsageError("give either --source/--reference or --source-conllu/--reference-conllu, not both")
        if raw and (self.source is None or not self.references):
            raise UsageError("--source needs at least one --reference (and the other way round)")
        if conllu and (self.source_conllu is None or not self.reference_conllu):
            raise UsageError("--source-conllu needs at least one --reference-conllu (and the other way round)")
        if not raw and not conllu:
            raise UsageError("no corpus: give --source and --reference, or --source-conllu and --reference-conllu")
        if self.alignments and len(self.alignments) != self.reference_count:
            raise UsageError(
                f"{len(self.alignments)} --alignment files for {self.reference_count} references: give one per reference, in the same order"
            )
        if not 0.0 <= self.min_dm <= 1.0:
            raise UsageError(f"--min-dm {self.min_dm}: DM lies between 0.1 and 1, give a value from 0 to 1")
        if self.aligner not in ("simalign", "eflomal"):
            raise UsageError(f"unknown aligner {self.aligner!r} (choose eflomal or simalign)")
        for path in [self.source, *self.references, self.source_conllu, *self.reference_conllu, *self.alignments]:
            if path is not None and not Path(path).is_file():
                raise InputError(path, None, "no such file")
        if self.threads is not None and self.threads < 1:
            raise UsageError(f"--threads must be at least 1, not {self.threads}")
        for dictionary in self.dictionaries:
            if not is_named_dictionary(str(dictionary)) and not Path(dictionary).is_file():
                raise InputError(dictionary, None, "no such file (given to --dictionary)")

    @property
    def reference_count(self) -> int:
        return len(self.references) if self.references else len(self.reference_conllu)

    def suite_name(self) -> str:
        """The name the suite will be stored under: ``name``, else one from the source file and languages."""
        return self.name or _default_name(self)

    def taxonomy_name(self) -> str:
        if self.taxonomy:
            return self.taxonomy
        language = self.source_lang.split("-")[0].lower()
        return language if language in ("en", "zh") else "ud"


@dataclass(slots=True)
class BuildResult:
    suite: SuiteData
    summary: dict[str, object]


def read_corpus(request: BuildRequest, progress: Progress = no_progress) -> tuple[list[Sentence], list[list[Sentence]], dict[str, str]]:
    """Source sentences and, per reference, its sentences; parsed, in file order."""
    if request.source_conllu is not None:
        sources = read_conllu(request.source_conllu, request.source_lang)
        references = [read_conllu(path, request.target_lang) for path in request.reference_conllu]
        _check_counts(request.source_conllu, len(sources), request.reference_conllu, [len(r) for r in references], "sentences")
        return sources, references, {"parser": "conllu"}
    if request.source is None:
        raise UsageError("no source file given")
    source_lines = read_sentences(request.source)
    reference_lines = [read_sentences(path) for path in request.references]
    _check_counts(request.source, len(source_lines), request.references, [len(r) for r in reference_lines], "lines")
    from checkpoints.extract.parse import StanzaParser

    if request.threads is not None:
        import torch

        # torch's default (one thread per core) oversubscribes small batches: 50 raw pairs took
        # 41–91 s with it and 12.5 s with one thread on two cores
        torch.set_num_threads(request.threads)
    source_parser = StanzaParser(request.source_lang, model_dir=request.stanza_dir)
    target_parser = StanzaParser(request.target_lang, model_dir=request.stanza_dir)
    advance = progress(f"parsing {request.source_lang}", 1)
    sources = source_parser.parse(source_lines, request.source_lang)
    advance(1)
    references = []
    for lines in reference_lines:
        advance = progress(f"parsing {request.target_lang}", 1)
        references.append(target_parser.parse(lines, request.target_lang))
        advance(1)
    return sources, references, {
        "parser": f"{source_parser.name}-{source_parser.version}",
        "parser_settings": {"source": source_parser.settings(), "target": target_parser.settings()},
    }


def _check_counts(source: Path, n_source: int, references: Sequence[Path], counts: Sequence[int], unit: str) -> None:
    for path, count in zip(references, counts, strict=True):
        if count != n_source:
            raise CorpusMismatch(f"{path}: {count} {unit}, but {source} has {n_source}: the files must be parallel")


def align_corpus(
    request: BuildRequest,
    sources: list[Sentence],
    references: list[list[Sentence]],
    progress: Progress = no_progress,
    lexicon: Lexicon | None = None,
) -> tuple[list[list[Alignment]], dict[str, object]]:
    """One list of alignments per reference (each as long as the corpus).

    ``lexicon`` (the build's dictionaries) guides an aligner that can use one.
    """
    source_lengths = [len(sentence) for sentence in sources]
    if request.alignments:
        result = []
        for path, reference in zip(request.alignments, references, strict=True):
            result.append(read_pharaoh(path, source_lengths, [len(sentence) for sentence in reference]))
        return result, {"aligner": "pharaoh-files"}
    from checkpoints.extract.align import aligner_tokens, make_aligner

    if request.aligner == "eflomal":
        aligner = make_aligner("eflomal", seed=request.seed)
    else:
        aligner = make_aligner(request.aligner, request.align_model, request.align_method)
    key = aligner.token_key
    result = []
    for reference in references:
        advance = progress(f"aligning with {aligner.name}", 1)
        corpus = [(aligner_tokens(s, key), aligner_tokens(r, key)) for s, r in zip(sources, reference, strict=True)]
        result.append(aligner.align(corpus, lexicon))
        advance(1)
    return result, {"aligner": f"{aligner.name}-{aligner.version}", "aligner_settings": aligner.settings()}


@bulk_work
def build_suite(request: BuildRequest, progress: Progress = no_progress) -> BuildResult:
    """Everything up to (not including) the store: the suite as core types and its summary."""
    request.validate()
    return _build_suite(request, progress)


@dataclass(slots=True)
class AlignedCorpus:
    """The corpus read, parsed and aligned: what a build extracts from, and what ``align`` writes."""

    pairs: list[SentencePair]
    lexicon: Lexicon
    """The dictionaries given, merged, or a lexicon estimated from the alignments."""
    options: dict[str, object]
    """How the corpus was parsed and aligned and which dictionary weighs references."""
    repairs: RepairCounts


def align_pairs(request: BuildRequest, progress: Progress = no_progress) -> AlignedCorpus:
    """Read, parse and align the corpus; repair automatic alignments (:mod:`checkpoints.extract.repair`)."""
    from checkpoints.extract.dictionary import estimate_lexicon, read_dictionaries
    from checkpoints.extract.repair import RepairCounts, repair_alignment

    sources, references, parser_info = read_corpus(request, progress)
    dictionary: Lexicon | None = None
    if request.dictionaries:
        words = {key for sentence in sources for token in sentence.tokens for key in (token.lemma, token.form)}
        dictionary = read_dictionaries(request.dictionaries, request.source_lang, request.target_lang, words)
    alignments, aligner_info = align_corpus(request, sources, references, progress, dictionary or Lexicon())
    pairs = [
        SentencePair(
            id=index + 1,
            source=source,
            references=[reference[index] for reference in references],
            alignments=[alignment[index] for alignment in alignments],
        )
        for index, source in enumerate(sources)
    ]
    lexicon = dictionary if dictionary is not None else estimate_lexicon(pairs)
    repairs = RepairCounts()
    if request.repair and not request.alignments:
        for pair in pairs:
            pair.alignments = [
                repair_alignment(pair.source, reference, alignment, lexicon, repairs)
                for reference, alignment in zip(pair.references, pair.alignments, strict=True)
            ]
    options = {**parser_info, **aligner_info, "dictionary": lexicon.describe(), "dictionary_entries": len(lexicon)}
    return AlignedCorpus(pairs, lexicon, options, repairs)


def stored_lexicon(pairs: Sequence[SentencePair], lexicon: Lexicon) -> dict[str, list[str]]:
    """The lexicon's entries for the corpus's source words (forms and lemmas), kept with the suite
    as ``options["lexicon"]``: evaluation's alternative references and ``attribute``'s alignment
    read them there, so neither needs the dictionary files the build was given."""
    return lexicon.entries_for(
        key for pair in pairs for token in pair.source.tokens for key in (token.form, token.lemma) if key not in ("", "_")
    )


def _build_suite(request: BuildRequest, progress: Progress) -> BuildResult:
    from checkpoints.taxonomy import load_taxonomy

    taxonomy = load_taxonomy(request.taxonomy_name())  # a bad taxonomy file fails before any parsing
    return build_suite_from(request, align_pairs(request, progress), progress, taxonomy)


def build_suite_from(
    request: BuildRequest, corpus: AlignedCorpus, progress: Progress = no_progress, taxonomy: Taxonomy | None = None
) -> BuildResult:
    """The suite of an aligned corpus: check-points, their references, the filters' counts."""
    from checkpoints.extract.checkpoints import ExtractionOptions, extract_checkpoints
    from checkpoints.extract.reliability import non_parallel_pairs
    from checkpoints.taxonomy import builtin_taxonomies, load_taxonomy

    if taxonomy is None:
        taxonomy = load_taxonomy(request.taxonomy_name())
    pairs, lexicon, repairs = corpus.pairs, corpus.lexicon, corpus.repairs
    prepared = taxonomy.prepare(pairs)
    levels = {category.name: category.level for category in taxonomy.categories}
    skip_pairs = non_parallel_pairs(pairs, lexicon) if request.parallel_filter else []
    advance = progress("finding check-points", len(pairs))
    extraction = ExtractionOptions(
        noise_filter=request.noise_filter,
        tokenize=default_match_tokenizer(request.target_lang),
        min_dm=request.min_dm,
        pos_filter=request.pos_filter,
        class_filter=request.pos_filter
        and CLASS_FLUID_LANGUAGES.isdisjoint({language(request.source_lang), language(request.target_lang)}),
        confirm=request.confirm,
        complete=request.complete,
    )
    checkpoints, summary = extract_checkpoints(
        pairs, prepared, levels, lexicon, extraction, skip_pairs=skip_pairs, progress=advance
    )
    custom_taxonomy = request.taxonomy_name() not in builtin_taxonomies()
    name = request.suite_name()
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
        "inputs": [str(p) for p in _input_paths(request)],
        "checkpoints_version": __version__,
        "lexicon": stored_lexicon(pairs, lexicon),
    }
    summary_dict = summary.to_json(c.name for c in taxonomy.categories)
    summary_dict["resources"] = _jsonable(getattr(prepared, "resources", {}))
    summary_dict["alignment_repairs"] = repairs.to_json()
    summary_dict["empty_alignments"] = sum(
        1 for pair in pairs if pair.alignments and all(not alignment.links for alignment in pair.alignments)
    )
    summary_dict["warnings"] = build_warnings(request, taxonomy.language, summary_dict)
    suite = SuiteData(
        name=name,
        source_lang=request.source_lang,
        target_lang=request.target_lang,
        taxonomy=taxonomy.name,
        taxonomy_version=str(taxonomy.version),
        categories=list(taxonomy.categories),
        pairs=pairs,
        checkpoints=checkpoints,
        options=options,
        summary=summary_dict,
        user_categories={c.name for c in taxonomy.categories} if custom_taxonomy else set(),
    )
    if request.audit and checkpoints:
        from checkpoints.evaluate.audit import audit_suite

        advance = progress("auditing the suite", 1)
        summary_dict["audit"] = audit_suite(suite).to_json()
        advance(1)
    return BuildResult(suite, summary_dict)


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


def _input_paths(request: BuildRequest) -> list[Path]:
    paths: list[Path | None] = [request.source, *request.references, request.source_conllu, *request.reference_conllu]
    paths.extend(request.alignments)
    return [p for p in paths if p is not None]


def _default_name(request: BuildRequest) -> str:
    first = request.source or request.source_conllu
    stem = Path(first).stem if first is not None else "suite"
    return f"{stem}-{request.source_lang}-{request.target_lang}"
