"""What the linguistic and confidence metrics need besides the texts, as ``metrics``, ``meta`` and
``qarla`` take it: parses, models, caches, concept corpora, language models, dictionaries.

One request type serves the three commands, so an option means the same in
each and is checked once: every error names its option and comes before any
file is read. :meth:`LinguisticOptions.extra` is what the metrics read
(``MetricOptions.extra``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from checkpoints.errors import UsageError, check_choice
from checkpoints.evaluate.metrics.linguistic.annotations import default_cache_dir
from checkpoints.evaluate.metrics.linguistic.keys import (
    ANNOTATION_STORE,
    DICTIONARY,
    LEM_CORPUS,
    LEM_PARAMS,
    LENGTH_FACTOR,
    MODEL_PREFIXES,
    SOURCE_LANGUAGE,
    esa_corpus_key,
    model_key,
    vocabulary_key,
)

MODEL_KINDS = {prefix.rstrip(":"): kind for kind, prefix in MODEL_PREFIXES.items()}
"""``--lm`` prefixes: a word model (none), a part-of-speech model (``pos:``), a chunk model (``chunk:``)."""


def _language_files(values: Iterable[str], option: str, what: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for value in values:
        language, sep, path = value.partition("=")
        if not sep or not language or not path:
            raise UsageError(f"{option} {value!r}: expected LANG=PATH ({what})")
        found[language] = Path(path)
    return found


@dataclass(slots=True)
class LinguisticOptions:
    """The options as given; :meth:`extra` checks them."""

    parsed: list[Path] = field(default_factory=list)
    stanza_dir: str | None = None
    annotation_cache: Path | None = None
    ne_types: str = "asiya"
    esa_corpora: list[str] = field(default_factory=list)
    """``L=PATH``: the concept corpus of ``ESA-L``."""
    source_language: str | None = None
    language_models: list[str] = field(default_factory=list)
    """``[pos:|chunk:]L=PATH``: an ARPA or KenLM model of language L's words, tags or chunk types."""
    vocabularies: list[str] = field(default_factory=list)
    """``L=PATH``: the words CE-oov counts as known without a model."""
    dictionaries: list[str] = field(default_factory=list)
    length_factor: float | None = None
    lem_params: str | None = None
    lem_corpus: str | None = None
    store: str | None = None
    """The check-point store the command works with (``--db``): parses are kept there unless
    ``annotation_cache`` names a folder."""

    def extra(self) -> dict[str, str]:
        """``MetricOptions.extra`` for these options; raises :class:`UsageError` naming a bad option."""
        check_choice("--ne-types", self.ne_types, ("asiya", "native"))
        extra: dict[str, str] = {}
        if self.parsed:
            extra["parsed"] = os.pathsep.join(str(path) for path in self.parsed)
        if self.stanza_dir is not None:
            extra["stanza-dir"] = self.stanza_dir
        if self.store is not None and self.annotation_cache is None:
            extra[ANNOTATION_STORE] = str(self.store)
        else:
            extra["annotation-cache"] = str(self.annotation_cache or default_cache_dir())
        if self.ne_types != "asiya":
            extra["ne-types"] = self.ne_types
        for language, path in self.esa_corpus_paths().items():
            extra[esa_corpus_key(language)] = str(path)
        if self.source_language is not None:
            if not self.source_language.strip():
                raise UsageError("--src-lang: give a language code, e.g. en")
            extra[SOURCE_LANGUAGE] = self.source_language
        for value in self.language_models:
            prefix, colon, rest = value.partition(":")
            kind, spec = (prefix, rest) if colon and prefix in MODEL_KINDS else ("", value)
            for language, path in _language_files([spec], "--lm", "e.g. es=words.arpa, pos:es=upos.arpa").items():
                extra[model_key(MODEL_KINDS[kind], language)] = str(path)
        for language, path in _language_files(self.vocabularies, "--vocab", "one word a line").items():
            extra[vocabulary_key(language)] = str(path)
        if self.dictionaries:
            extra[DICTIONARY] = os.pathsep.join(self.dictionaries)
        if self.length_factor is not None:
            if not self.length_factor > 0:
                raise UsageError(f"--ce-length-factor {self.length_factor}: must be positive")
            extra[LENGTH_FACTOR] = repr(float(self.length_factor))
        if self.lem_params is not None and self.lem_corpus is not None:
            raise UsageError("--lem-params and --lem-corpus both give LeM's parameters: choose one")
        if self.lem_params is not None:
            extra[LEM_PARAMS] = ",".join(repr(value) for value in parse_lem_params(self.lem_params))
        if self.lem_corpus is not None:
            paths = self.lem_corpus.split(",")
            if len(paths) != 2 or not all(paths):
                raise UsageError(f"--lem-corpus {self.lem_corpus!r}: expected SOURCE_FILE,TARGET_FILE")
            extra[LEM_CORPUS] = os.pathsep.join(paths)
        return extra

    def esa_corpus_paths(self) -> dict[str, Path]:
        """``--esa-corpus L=PATH`` values by language."""
        return _language_files(self.esa_corpora, "--esa-corpus", "a folder of text files or a CoNLL-U file")


def parse_lem_params(value: str) -> tuple[float, float]:
    """``MU,SIGMA`` of ``--lem-params``: the mean and standard deviation of the target/source
    character ratio."""
    parts = value.split(",")
    try:
        mean, deviation = (float(part) for part in parts)
    except ValueError:
        raise UsageError(f"--lem-params {value!r}: expected MU,SIGMA, e.g. 1.1,0.2") from None
    if not deviation > 0:
        raise UsageError(f"--lem-params {value!r}: the standard deviation must be positive")
    return mean, deviation
