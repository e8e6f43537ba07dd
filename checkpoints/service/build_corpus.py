"""A build's corpus, read, parsed and aligned in chunks: what ``build`` extracts from and ``align`` writes.

The corpus streams through: CoNLL-U and text files are read a chunk at a
time, raw text is parsed a chunk at a time, and parsed pairs go into a
:class:`~checkpoints.service.pair_spool.PairSpool`. Only the aligner sees the
whole corpus at once (eflomal learns from all of it: its input goes to files);
alignments are kept packed. Everything that can fail on user input fails here,
before the store is opened.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice, zip_longest
from pathlib import Path
from typing import TYPE_CHECKING

from checkpoints.engine import Engine, LocalEngine
from checkpoints.errors import CorpusMismatch, InputError, UsageError
from checkpoints.extract.dictionary import Lexicon
from checkpoints.extract.repair import RepairCounts
from checkpoints.io.conllu import iter_conllu
from checkpoints.io.lines import iter_lines
from checkpoints.io.pharaoh import parse_pharaoh_line
from checkpoints.io.text import read_sentences
from checkpoints.model import Sentence, SentencePair
from checkpoints.progress import Progress, no_progress
from checkpoints.service import pair_spool
from checkpoints.service.pair_spool import PackedAlignment, PairSpool

if TYPE_CHECKING:
    from checkpoints.extract.align import Aligner
    from checkpoints.extract.parse import StanzaParser
    from checkpoints.service.build_request import BuildRequest


@dataclass(slots=True)
class AlignedCorpus:
    """The corpus read, parsed and aligned; its pairs come back chunk by chunk (:meth:`chunks`)
    with their alignments, so that a pass over it holds one chunk at a time."""

    spool: PairSpool
    alignments: list[list[PackedAlignment]]
    """Per pair, one packed alignment per reference (repaired, where the build repairs)."""
    lexicon: Lexicon
    """The dictionaries given, merged, or a lexicon estimated from the alignments."""
    options: dict[str, object]
    """How the corpus was parsed and aligned and which dictionary weighs references."""
    repairs: RepairCounts = field(default_factory=RepairCounts)
    source_keys: set[str] = field(default_factory=set)
    """The source words (forms and lemmas) of the whole corpus: which dictionary entries to keep."""

    def chunks(self) -> Iterator[list[SentencePair]]:
        """The pairs in corpus order, a chunk at a time, with their alignments unpacked."""
        position = 0
        for chunk in self.spool.chunks():
            for pair in chunk:
                pair.alignments = [packed.unpack() for packed in self.alignments[position]]
                position += 1
            yield chunk

    def __iter__(self) -> Iterator[SentencePair]:
        for chunk in self.chunks():
            yield from chunk

    def __len__(self) -> int:
        return len(self.spool)

    @property
    def pairs(self) -> list[SentencePair]:
        """Every pair at once: for callers that need the whole corpus (``align --gold``, tests)."""
        return list(self)

    def close(self) -> None:
        self.spool.close()


def align_pairs(request: BuildRequest, progress: Progress = no_progress, engine: Engine | None = None) -> AlignedCorpus:
    """Read, parse (raw text: on ``engine``) and align the corpus; repair automatic alignments
    (:mod:`checkpoints.extract.repair`)."""
    from checkpoints.extract.dictionary import estimate_lexicon, read_dictionaries
    from checkpoints.extract.repair import repair_alignment

    spool = PairSpool()
    source_keys: set[str] = set()
    lengths: list[tuple[int, list[int]]] = []
    aligner_input: list[list[tuple[list[str], list[str]]]] = [[] for _ in range(request.reference_count)]
    aligner = None if request.alignments else _make_aligner(request)
    token_key = aligner.token_key if aligner is not None else None
    chunks, parser_info = corpus_chunks(request, progress, engine)
    try:
        for chunk in chunks:
            for pair in chunk:
                source_keys.update(key for token in pair.source.tokens for key in (token.lemma, token.form))
                lengths.append((len(pair.source), [len(reference) for reference in pair.references]))
                if token_key is not None:
                    from checkpoints.extract.align import aligner_tokens

                    source_tokens = aligner_tokens(pair.source, token_key)
                    for index, reference in enumerate(pair.references):
                        aligner_input[index].append((source_tokens, aligner_tokens(reference, token_key)))
            spool.append(chunk)
        dictionary: Lexicon | None = None
        if request.dictionaries:
            dictionary = read_dictionaries(request.dictionaries, request.source_lang, request.target_lang, source_keys)
        alignments, aligner_info = _align(request, aligner, lengths, aligner_input, progress, dictionary or Lexicon())
        del aligner_input
        source_keys.discard("")
        source_keys.discard("_")
        corpus = AlignedCorpus(spool, alignments, dictionary or Lexicon(), {**parser_info, **aligner_info},
                               source_keys=source_keys)
        if dictionary is None:
            corpus.lexicon = estimate_lexicon(corpus)
        if request.repair and not request.alignments:
            position = 0
            for chunk in corpus.chunks():
                for pair in chunk:
                    repaired = [
                        repair_alignment(pair.source, reference, alignment, corpus.lexicon, corpus.repairs)
                        for reference, alignment in zip(pair.references, pair.alignments, strict=True)
                    ]
                    alignments[position] = [PackedAlignment.of(alignment) for alignment in repaired]
                    position += 1
    except BaseException:
        spool.close()
        raise
    corpus.options.update({"dictionary": corpus.lexicon.describe(), "dictionary_entries": len(corpus.lexicon)})
    return corpus


def corpus_chunks(
    request: BuildRequest, progress: Progress = no_progress, engine: Engine | None = None
) -> tuple[Iterator[list[SentencePair]], dict[str, object]]:
    """The corpus as chunks of pairs (without alignments), numbered from 1, and how it was parsed
    (raw text by ``engine``'s workers, one pair of stanza pipelines each; default: here)."""
    if request.source_conllu is not None:
        return _conllu_chunks(request, progress), {"parser": "conllu"}
    if request.source is None:
        raise UsageError("no source file given")
    return _raw_text_chunks(request, progress, engine)


def _conllu_chunks(request: BuildRequest, progress: Progress) -> Iterator[list[SentencePair]]:
    assert request.source_conllu is not None
    readers = [iter_conllu(request.source_conllu, request.source_lang)]
    readers += [iter_conllu(path, request.target_lang) for path in request.reference_conllu]
    advance = progress("reading the corpus", 0)
    rows = zip_longest(*readers)
    number = 0
    while chunk_rows := list(islice(rows, pair_spool.CHUNK_PAIRS)):
        chunk = []
        for row in chunk_rows:
            number += 1
            if any(sentence is None for sentence in row):
                _refuse_uneven(request, row, number, rows)
            source, *references = row
            chunk.append(SentencePair(number, source, references, []))
        advance(len(chunk))
        yield chunk


def _refuse_uneven(request: BuildRequest, row: Sequence[Sentence | None], number: int, rows: Iterator[tuple[Sentence | None, ...]]) -> None:
    """The count mismatch of parallel CoNLL-U files, with each file's count (the rest is read to count it)."""
    assert request.source_conllu is not None
    counts = [number - 1 + (sentence is not None) for sentence in row]
    for rest in rows:
        counts = [count + (sentence is not None) for count, sentence in zip(counts, rest, strict=True)]
    _check_counts(request.source_conllu, counts[0], request.reference_conllu, counts[1:], "sentences")


def _raw_text_chunks(
    request: BuildRequest, progress: Progress, engine: Engine | None
) -> tuple[Iterator[list[SentencePair]], dict[str, object]]:
    from checkpoints.extract.parse import StanzaParser

    assert request.source is not None
    source_lines = read_sentences(request.source)
    reference_lines = [read_sentences(path) for path in request.references]
    _check_counts(request.source, len(source_lines), request.references, [len(r) for r in reference_lines], "lines")
    source_parser = StanzaParser(request.source_lang, model_dir=request.stanza_dir)
    target_parser = StanzaParser(request.target_lang, model_dir=request.stanza_dir)
    info: dict[str, object] = {
        "parser": f"{source_parser.name}-{source_parser.version}",
        "parser_settings": {"source": source_parser.settings(), "target": target_parser.settings()},
    }
    # chunks are whole multiples of the parser's batches, so chunking changes no batch
    size = max(pair_spool.CHUNK_PAIRS // source_parser.batch_size, 1) * source_parser.batch_size

    def pieces() -> Iterator[tuple[int, list[str], list[list[str]]]]:
        for start in range(0, len(source_lines), size):
            yield start, source_lines[start : start + size], [lines[start : start + size] for lines in reference_lines]

    def chunks() -> Iterator[list[SentencePair]]:
        advance = progress(f"parsing {request.source_lang}-{request.target_lang}", len(source_lines))
        parsers = _Parsers(source_parser, target_parser, request.threads)
        for _, chunk in (engine or LocalEngine()).map(lambda: parsers, _parse_piece, pieces()):
            advance(len(chunk))
            yield chunk

    return chunks(), info


@dataclass(frozen=True, slots=True)
class _Parsers:
    """The two stanza parsers of a raw-text build, as each worker gets them (pipelines load on first use)."""

    source: StanzaParser
    target: StanzaParser
    threads: int | None


def _parse_piece(parsers: _Parsers, piece: tuple[int, list[str], list[list[str]]]) -> list[SentencePair]:
    """One piece of raw text parsed: pairs numbered from the piece's start."""
    start, source_lines, reference_lines = piece
    if parsers.threads is not None:
        import torch

        # torch's default (one thread per core) oversubscribes small batches: 50 raw pairs took
        # 41–91 s with it and 12.5 s with one thread on two cores
        torch.set_num_threads(parsers.threads)
    sources = parsers.source.parse(source_lines, parsers.source.language)
    references = [parsers.target.parse(lines, parsers.target.language) for lines in reference_lines]
    return [
        SentencePair(start + offset + 1, source, [reference[offset] for reference in references], [])
        for offset, source in enumerate(sources)
    ]


def _check_counts(source: Path, n_source: int, references: Sequence[Path], counts: Sequence[int], unit: str) -> None:
    for path, count in zip(references, counts, strict=True):
        if count != n_source:
            raise CorpusMismatch(f"{path}: {count} {unit}, but {source} has {n_source}: the files must be parallel")


def _make_aligner(request: BuildRequest) -> Aligner:
    from checkpoints.extract.align import make_aligner

    if request.aligner == "eflomal":
        return make_aligner("eflomal", seed=request.seed)
    return make_aligner(request.aligner, request.align_model, request.align_method)


def _align(
    request: BuildRequest,
    aligner: Aligner | None,
    lengths: list[tuple[int, list[int]]],
    aligner_input: list[list[tuple[list[str], list[str]]]],
    progress: Progress,
    lexicon: Lexicon,
) -> tuple[list[list[PackedAlignment]], dict[str, object]]:
    """Per pair, one packed alignment per reference: read from the Pharaoh files given, or
    made by the aligner over the whole corpus (``lexicon`` guides an aligner that can use one)."""
    alignments: list[list[PackedAlignment]] = [[] for _ in lengths]
    if aligner is None:
        for index, path in enumerate(request.alignments):
            _read_alignment_file(path, index, lengths, alignments)
        return alignments, {"aligner": "pharaoh-files"}
    for corpus in aligner_input:
        advance = progress(f"aligning with {aligner.name}", 1)
        for position, alignment in enumerate(aligner.align(corpus, lexicon)):
            alignments[position].append(PackedAlignment.of(alignment))
        advance(1)
    return alignments, {"aligner": f"{aligner.name}-{aligner.version}", "aligner_settings": aligner.settings()}


def _read_alignment_file(
    path: Path, index: int, lengths: list[tuple[int, list[int]]], alignments: list[list[PackedAlignment]]
) -> None:
    """One Pharaoh file, line by line, checked against the lengths of the sentences it links;
    its line count first, as a file for another corpus shows best by its length."""
    count = sum(1 for _ in iter_lines(path))
    if count != len(lengths):
        raise InputError(
            path, None, f"{count} alignment lines for {len(lengths)} sentence pairs: one line per pair expected"
        )
    for number, line in enumerate(iter_lines(path), start=1):
        n_source, n_references = lengths[number - 1]
        alignment = parse_pharaoh_line(line, n_source, n_references[index], path, number)
        alignments[number - 1].append(PackedAlignment.of(alignment))
