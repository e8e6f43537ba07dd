"""``checkpoints annotate``: parse text files once, into CoNLL-U and the annotation cache.

The linguistic metrics parse what they are given on the fly; annotating
beforehand (on a machine with the models, or with more CPUs) lets a later
``metrics`` run read the parses from the cache or from the written CoNLL-U.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from checkpoints.db.annotation_cache import StoredAnnotations
from checkpoints.engine import EngineSpec
from checkpoints.errors import InputError, UsageError
from checkpoints.evaluate.metrics.linguistic.annotations import Annotator, default_cache_dir
from checkpoints.io.files import write_atomic
from checkpoints.io.text import read_sentences


@dataclass(slots=True)
class AnnotateRequest:
    language: str
    inputs: list[Path]
    output: Path | None = None
    """One CoNLL-U file of every input's lines, in order (None: only the cache)."""
    parsed: list[Path] = field(default_factory=list)
    stanza_dir: str | None = None
    cache_dir: Path | None = None
    ner: bool = False
    constituency: bool = False
    store: str | None = None
    """A check-point store that keeps the parses instead of ``cache_dir`` (``--db``)."""
    engine: EngineSpec = field(default_factory=EngineSpec)
    """Where the texts are parsed: here, or one stanza pipeline per Ray worker."""


@dataclass(frozen=True, slots=True)
class AnnotateResult:
    lines: int
    counts: dict[str, int]
    """Distinct texts taken from given CoNLL-U, from the cache, and parsed now."""
    pipeline: str | None


def annotate_files(request: AnnotateRequest, progress: Callable[[str, int], Callable[[int], None]]) -> AnnotateResult:
    """Every non-empty line of the inputs parsed (or found), written to ``output`` as CoNLL-U."""
    for path in request.inputs:
        if not path.is_file():
            raise InputError(path, None, "no such file")
    texts = [line for path in request.inputs for line in read_sentences(path, allow_empty=True) if line.strip()]
    if request.store is not None and request.cache_dir is not None:
        raise UsageError("--db and --annotation-cache both say where parses are kept: choose one")
    stored = StoredAnnotations(request.store) if request.store is not None else None
    annotator = Annotator(request.language, given=request.parsed, stanza_dir=request.stanza_dir,
                          cache_dir=request.cache_dir or default_cache_dir(), cache=stored, ner=request.ner,
                          constituency=request.constituency, engine=request.engine)
    advance = progress(f"annotating {request.language}", len(dict.fromkeys(" ".join(t.split()) for t in texts)))
    sentences = annotator.sentences(texts, advance)
    if stored is not None:
        stored.close()
    if request.output is not None:
        write_atomic(request.output, "".join(sentence.to_conllu() for sentence in sentences))
    pipeline = annotator.pipeline_id() if annotator.counts["cached"] + annotator.counts["parsed"] else None
    return AnnotateResult(len(texts), dict(annotator.counts), pipeline)
