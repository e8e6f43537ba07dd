"""The annotation layer: each text parsed once, from given CoNLL-U, a disk cache, or stanza.

A linguistic metric compares parses, not strings. :class:`Annotator` turns
the texts of a run (system outputs, references, sources) into
:class:`~checkpoints.evaluate.metrics.linguistic.elements.ParsedSentence`\\ s:

1. **given CoNLL-U** (``--parsed FILE``): a sentence whose ``# text`` (or
   whose words joined by spaces) is the text, with ``ner=`` in MISC and
   ``# constituency =`` comments where the parse has them;
2. **the cache**, keyed by the SHA-256 of the text, the language and the
   pipeline (stanza's version and the SHA-256 of every model file it loads),
   so a second run over the same outputs parses nothing and a new model never
   reads old parses: CoNLL-U files under ``CACHE/LANG/PIPELINE/ab/abcd….conllu``
   (:class:`DirectoryCache`), or a table of the check-point store the command
   works with (:class:`checkpoints.db.annotation_cache.StoredAnnotations`);
3. **stanza** (``--stanza-dir`` or ``$CHECKPOINTS_STANZA_DIR``: a directory
   written by ``models train`` or stanza's downloaded resources), one input
   line one sentence, whatever is still missing, in one batch.

A layer a metric needs and the parse lacks (no constituency tree, no NER) is
one line naming what to pass.
"""

from __future__ import annotations

import functools
import hashlib
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from importlib import metadata
from pathlib import Path
from typing import Protocol

from checkpoints.engine import EngineSpec, open_engine
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence
from checkpoints.io.conllu import parse_conllu_string, read_conllu
from checkpoints.io.files import write_atomic
from checkpoints.model import Sentence

PARSE_REPORT: ContextVar[Callable[[str], None] | None] = ContextVar("parse_report", default=None)
"""Where a command wants one line per batch parsed (texts so far, sentences/s); metrics run inside
the metric runner's own progress bar, so parsing reports lines rather than a second bar."""
REPORT_BATCH = 256
"""Texts parsed between two report lines."""

CACHE_VARIABLE = "CHECKPOINTS_CACHE_DIR"
"""Environment variable naming the annotation cache when ``--annotation-cache`` is not given."""

Progress = Callable[[int], None]


class ParseCache(Protocol):
    """Where parses are kept between runs, by text key (:func:`text_key`), language and pipeline."""

    def read(self, language: str, pipeline: str, keys: Sequence[str]) -> dict[str, Sentence]:
        """The parses found for ``keys`` (absent keys are left out)."""

    def write(self, language: str, pipeline: str, parsed: Mapping[str, Sentence]) -> None:
        """Keep ``parsed`` (text key → parse)."""


class DirectoryCache:
    """Parses as one CoNLL-U file per text under ``folder/annotations/LANG/PIPELINE/``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _where(self, language: str, pipeline: str) -> Path:
        return self.folder / "annotations" / language / pipeline

    def read(self, language: str, pipeline: str, keys: Sequence[str]) -> dict[str, Sentence]:
        where = self._where(language, pipeline)
        found = {}
        for key in keys:
            sentence = _read_cached(where, key)
            if sentence is not None:
                found[key] = sentence
        return found

    def write(self, language: str, pipeline: str, parsed: Mapping[str, Sentence]) -> None:
        where = self._where(language, pipeline)
        for key, sentence in parsed.items():
            _write_cached(where, key, sentence)


def default_cache_dir() -> Path:
    """``$CHECKPOINTS_CACHE_DIR``, else ``$XDG_CACHE_HOME/checkpoints``, else ``~/.cache/checkpoints``."""
    if os.environ.get(CACHE_VARIABLE):
        return Path(os.environ[CACHE_VARIABLE])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "checkpoints"


def text_key(text: str) -> str:
    """Texts are matched with runs of whitespace as one space, ends stripped."""
    return " ".join(text.split())


class Annotator:
    """Parsed sentences for the texts of one language.

    Args:
        language: the texts' language (stanza's code: en, de, zh, ...).
        given: CoNLL-U files holding parses of (some of) the texts.
        stanza_dir: models for what is not given (None: ``$CHECKPOINTS_STANZA_DIR``
            or stanza's default resources); a missing model is reported only
            when a text needs parsing.
        cache_dir: a folder where parses are kept between runs (:class:`DirectoryCache`).
        cache: where parses are kept instead (a store's table); None with no ``cache_dir``: no cache.
        ner, constituency: whether the pipeline must produce these layers.
    """

    def __init__(
        self,
        language: str,
        *,
        given: Sequence[Path] = (),
        stanza_dir: str | None = None,
        cache_dir: Path | None = None,
        cache: ParseCache | None = None,
        ner: bool = False,
        constituency: bool = False,
        engine: EngineSpec | None = None,
    ) -> None:
        self.language = language
        self.engine = engine
        self.given = tuple(Path(path) for path in given)
        self.stanza_dir = stanza_dir or os.environ.get("CHECKPOINTS_STANZA_DIR") or None
        self.cache: ParseCache | None = cache if cache is not None else (
            DirectoryCache(cache_dir) if cache_dir is not None else None)
        self.ner = ner
        self.constituency = constituency
        self._given_index: dict[str, Sentence] | None = None
        self._parser: object | None = None
        self._parsed: dict[str, ParsedSentence] = {}
        self._sentences: dict[str, Sentence] = {}
        self.counts = {"given": 0, "cached": 0, "parsed": 0}
        """How many distinct texts came from each source in this run."""

    def annotate(self, texts: Sequence[str], progress: Progress | None = None) -> list[ParsedSentence]:
        """One parse per text, in order; an empty text is a sentence without words."""
        keys = [text_key(text) for text in texts]
        self._fill(keys, progress)
        empty = ParsedSentence(())
        return [self._parsed[key] if key else empty for key in keys]

    def sentences(self, texts: Sequence[str], progress: Progress | None = None) -> list[Sentence]:
        """The parses as the project's sentences (what ``checkpoints annotate`` writes as CoNLL-U)."""
        keys = [text_key(text) for text in texts]
        self._fill(keys, progress)
        return [self._sentences[key] for key in keys if key]

    def _fill(self, keys: Sequence[str], progress: Progress | None) -> None:
        missing = [key for key in dict.fromkeys(keys) if key and key not in self._sentences]
        index = self._index()
        still = []
        for key in missing:
            if key in index:
                self._keep(key, index[key])
                self.counts["given"] += 1
                if progress is not None:
                    progress(1)
            else:
                still.append(key)
        if still:
            self._from_cache_or_stanza(still, progress)

    def _keep(self, key: str, sentence: Sentence) -> None:
        self._sentences[key] = sentence
        self._parsed[key] = ParsedSentence.from_model(sentence)

    def _index(self) -> dict[str, Sentence]:
        if self._given_index is None:
            index: dict[str, Sentence] = {}
            for path in self.given:
                for sentence in read_conllu(path, self.language):
                    index.setdefault(text_key(sentence.text), sentence)
                    index.setdefault(text_key(" ".join(sentence.forms)), sentence)
            self._given_index = index
        return self._given_index

    def _from_cache_or_stanza(self, keys: list[str], progress: Progress | None) -> None:
        pipeline = self.pipeline_id()
        cached = self.cache.read(self.language, pipeline, keys) if self.cache is not None else {}
        for key, sentence in cached.items():
            self._keep(key, sentence)
        self.counts["cached"] += len(cached)
        if progress is not None and cached:
            progress(len(cached))
        to_parse = [key for key in keys if key not in cached]
        if not to_parse:
            return
        report = PARSE_REPORT.get()
        parser = self._stanza()
        started = time.perf_counter()
        done = 0
        batches = [to_parse[start:start + REPORT_BATCH] for start in range(0, len(to_parse), REPORT_BATCH)]
        # batches are parsed here, or one stanza pipeline per worker of a Ray engine, and taken in order
        with open_engine(self.engine) as workers:
            for batch, sentences in workers.map(lambda: parser, _parse_batch, batches):
                parsed = dict(zip(batch, sentences, strict=True))
                self._store_batch(parsed, pipeline)
                done += len(batch)
                if progress is not None:
                    progress(len(batch))
                if report is not None:
                    seconds = time.perf_counter() - started
                    report(f"parsing {self.language} with stanza: {done:,}/{len(to_parse):,} texts, "
                           f"{seconds:.1f} s, {done / max(seconds, 1e-9):.1f} sentences/s")

    def _store_batch(self, parsed: dict[str, Sentence], pipeline: str) -> None:
        for key, sentence in parsed.items():
            self._keep(key, sentence)
        if self.cache is not None:  # kept batch by batch: an interrupted run loses one batch at most
            self.cache.write(self.language, pipeline, parsed)
        self.counts["parsed"] += len(parsed)

    def _stanza(self) -> object:
        if self._parser is None:
            from checkpoints.extract.parse import StanzaParser

            self._parser = StanzaParser(self.language, model_dir=self.stanza_dir, ner=self.ner,
                                        constituency=True if self.constituency else None)
        return self._parser

    def pipeline_id(self) -> str:
        """What the cache keys parses by besides the text: stanza's version, the language, the layers
        asked for and the SHA-256 of every model file the pipeline may load (first 16 hex digits)."""
        return _pipeline_id(self.language, self.stanza_dir, self.ner, self.constituency)

    def signature_fields(self) -> dict[str, str]:
        """``parse:given`` when every text came from given CoNLL-U, else stanza's version and the pipeline id."""
        if self.counts["cached"] + self.counts["parsed"] == 0:
            return {"parse": "given"}
        return {"parse": f"stanza-{metadata.version('stanza')}", "pipeline": self.pipeline_id()}


def _parse_batch(parser: object, batch: list[str]) -> list[Sentence]:
    return parser.parse(batch, parser.language)  # type: ignore[attr-defined]


@functools.cache
def _pipeline_id(language: str, stanza_dir: str | None, ner: bool, constituency: bool) -> str:
    digest = hashlib.sha256(f"{metadata.version('stanza')}\t{language}\tner={ner}\tconstituency={constituency}\n".encode())
    for path in sorted(_model_files(language, stanza_dir)):
        digest.update(f"{path.name}\t{_file_hash(path)}\n".encode())
    return digest.hexdigest()[:16]


def _model_files(language: str, stanza_dir: str | None) -> Iterable[Path]:
    """The files a pipeline for ``language`` may load from ``stanza_dir`` (trained or downloaded)."""
    from checkpoints.extract.trained_models import find_trained_models

    if stanza_dir is not None:
        trained = find_trained_models(stanza_dir, language)
        if trained is not None:
            return [path for path in trained.directory.iterdir() if path.suffix in (".pt", ".json")]
    from stanza.resources.common import DEFAULT_MODEL_DIR

    root = Path(stanza_dir or DEFAULT_MODEL_DIR)
    files = [root / "resources.json"] if (root / "resources.json").is_file() else []
    return files + sorted(path for path in (root / language).rglob("*") if path.is_file())


@functools.cache
def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _cache_path(folder: Path, key: str) -> Path:
    name = hashlib.sha256(key.encode("utf-8")).hexdigest()
    return folder / name[:2] / f"{name}.conllu"


def _read_cached(folder: Path, key: str) -> Sentence | None:
    path = _cache_path(folder, key)
    if not path.is_file():
        return None
    return cached_sentence(key, path.read_text(encoding="utf-8"), str(path))  # damaged or colliding: parse again


def _write_cached(folder: Path, key: str, sentence: Sentence) -> None:
    path = _cache_path(folder, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, cached_block(key, sentence))


def cached_block(key: str, sentence: Sentence) -> str:
    """The CoNLL-U a cache keeps for a text: the parse, with the text as its ``# text``."""
    block = sentence.to_conllu()
    if "# text =" not in block:
        block = f"# text = {key}\n" + block
    return block


def cached_sentence(key: str, block: str, name: str) -> Sentence | None:
    """A cached parse back, or None when the entry is damaged or belongs to another text."""
    sentences = parse_conllu_string(block, name=name)
    if len(sentences) != 1 or text_key(sentences[0].text) != key:
        return None
    return sentences[0]
