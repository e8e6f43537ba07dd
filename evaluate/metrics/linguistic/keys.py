"""The ``MetricOptions.extra`` keys the linguistic and confidence metrics read.

The commands write them (:mod:`checkpoints.service.linguistic_options`) and
the metrics read them; naming them once keeps the two sides in step.
"""

from __future__ import annotations

ANNOTATION_STORE = "annotation-store"
"""A check-point store (path or URL) that keeps the parses, instead of the ``annotation-cache`` folder."""
SOURCE_LANGUAGE = "src-lang"
"""The source language, for the metrics that parse or look up the source (CE, ESA-xl)."""
SOURCE_GIVEN = "source"
"""``given`` or ``none``, written by a command that has read its test set: the metrics that read
the source (CE, ESA-xl) then refuse to be built without one, so a metric set leaves them out."""
DICTIONARY = "dictionary"
"""Dictionary files or names (as ``build --dictionary`` takes them), joined by the path separator."""
LENGTH_FACTOR = "ce-length-factor"
LEM_PARAMS = "lem-params"
"""``MU,SIGMA`` of LeM's character-ratio model."""
LEM_CORPUS = "lem-corpus"
"""A parallel corpus (source file, target file, joined by the path separator) LeM's parameters come from."""


def esa_corpus_key(language: str) -> str:
    """The key of the concept corpus of ``ESA-<language>``."""
    return f"esa-corpus:{language}"


MODEL_PREFIXES = {"lm": "", "pos-lm": "pos:", "chunk-lm": "chunk:"}
"""Each kind of language model and how ``--lm`` names it (``--lm pos:es=upos.arpa``)."""


def model_key(kind: str, language: str) -> str:
    """The key of a language model: ``lm``, ``pos-lm`` or ``chunk-lm`` of a language."""
    return f"{kind}:{language}"


def vocabulary_key(language: str) -> str:
    return f"vocab:{language}"


def source_missing(name: str, extra: dict[str, str]) -> str | None:
    """Why ``name`` cannot read a source or its language under ``extra``; None when it can (or when
    no command has said whether the test set has a source)."""
    if extra.get(SOURCE_GIVEN) == "none":
        return f"{name} compares each translation with its source: give --source FILE"
    if SOURCE_GIVEN in extra and not extra.get(SOURCE_LANGUAGE):
        return f"{name} reads the source: give its language with --src-lang LANG"
    return None
