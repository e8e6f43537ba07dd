"""Model directories written by ``checkpoints models train``: finding, checking and loading them.

A trained directory holds one model file per stanza processor and a
``manifest.json`` naming them; one folder may hold several languages in
subfolders (``en/``, ``de/``). Loading never downloads: every processor gets
its model file by path and stanza's ``download_method=None`` turns anything
missing into an error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkpoints.errors import ModelNotAvailable

BASE_PROCESSORS = ("tokenize", "mwt", "pos", "lemma", "depparse")
"""What every build needs: words, UPOS/XPOS/features, lemmas, dependency trees."""

REQUIRED_PROCESSORS = ("tokenize", "pos", "depparse")
"""Without these a language cannot be parsed for check-points at all."""

MODEL_DIR_VARIABLE = "CHECKPOINTS_STANZA_DIR"
"""Environment variable naming the model directory when ``--stanza-dir`` is not given."""

TOKENIZE_MAX_SEQLEN = 1000
"""stanza's own default window; tokens up to this length keep their text."""

MANIFEST_NAME = "manifest.json"
"""What ``checkpoints models train`` writes into a model directory: language and model file per processor."""


@dataclass(frozen=True, slots=True)
class TrainedModels:
    """A model directory written by ``checkpoints models train``, checked complete."""

    directory: Path
    language: str
    processors: dict[str, str]


def find_trained_models(model_dir: str | Path, language: str) -> TrainedModels | None:
    """The trained models for ``language`` in ``model_dir`` or one of its subfolders.

    One ``--stanza-dir`` serves both sides of a build, so a folder holding
    ``en/`` and ``de/`` (each from ``models train``) works as well as a
    single model directory. None when the folder holds no manifest at all:
    then it is a stanza resource directory (``models download``).

    Raises:
        ModelNotAvailable: the folder does not exist, holds manifests but none
            for ``language``, or the manifest names a missing file or lacks a
            processor a parse needs.
    """
    directory = Path(model_dir)
    if not directory.is_dir():
        raise ModelNotAvailable(f"{directory}: no such model directory")
    candidates = [directory / MANIFEST_NAME, *sorted(directory.glob(f"*/{MANIFEST_NAME}"))]
    manifests = [path for path in candidates if path.is_file()]
    if not manifests:
        return None
    for path in manifests:
        content = _read_manifest(path)
        if content.get("language") == language:
            return _checked_models(path.parent, language, content)
    found = sorted({str(_read_manifest(path).get("language")) for path in manifests})
    raise ModelNotAvailable(f"{directory}: no trained models for {language!r} (found: {', '.join(found)})")


def _read_manifest(path: Path) -> dict[str, Any]:
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelNotAvailable(f"{path}: unreadable model manifest: {error}") from error
    if not isinstance(content, dict) or not isinstance(content.get("processors"), dict):
        raise ModelNotAvailable(f"{path}: not a model manifest (expected language and processors)")
    return content


def _checked_models(directory: Path, language: str, content: Mapping[str, Any]) -> TrainedModels:
    processors = {str(name): str(file) for name, file in content["processors"].items()}
    for name in (*REQUIRED_PROCESSORS, "lemma"):
        if name not in processors:
            raise ModelNotAvailable(f"{directory}: incomplete model directory: no {name} model")
    for name, file in processors.items():
        if not (directory / file).is_file():
            raise ModelNotAvailable(f"{directory}: incomplete model directory: {name} model {file} is missing")
    return TrainedModels(directory=directory, language=language, processors=processors)


def load_trained_pipeline(
    model_dir: str | Path,
    language: str,
    *,
    pretokenized: bool = False,
    skip: Sequence[str] = (),
    split_sentences: bool = False,
) -> Any:
    """``stanza.Pipeline`` over a trained model directory, never downloading.

    Every processor gets its model file by path (``{name}_model_path``), so
    stanza needs nothing from its resources; ``download_method=None`` makes
    a missing file an error instead of a download attempt. Sentences are
    not split (one input line is one sentence) unless ``split_sentences``.
    """
    import stanza

    models = find_trained_models(model_dir, language)
    if models is None:
        raise ModelNotAvailable(f"{model_dir}: no {MANIFEST_NAME}: not a directory written by 'checkpoints models train'")
    processors = [name for name in BASE_PROCESSORS if name in models.processors and name not in skip]
    options: dict[str, object] = {f"{name}_model_path": str(models.directory / models.processors[name]) for name in processors}
    # stanza replaces tokens longer than the tokenizer's training window (100
    # characters: a long URL) with "<UNK>", which loses the user's text
    options["tokenize_max_seqlen"] = TOKENIZE_MAX_SEQLEN
    if pretokenized:
        options["tokenize_pretokenized"] = True
    elif not split_sentences:
        options["tokenize_no_ssplit"] = True
    if not (models.directory / "resources.json").is_file():
        raise ModelNotAvailable(f"{models.directory}: incomplete model directory: resources.json is missing")
    try:
        return stanza.Pipeline(
            language,
            dir=str(models.directory),
            processors=",".join(processors),
            download_method=None,
            logging_level="ERROR",
            **options,
        )
    except FileNotFoundError as error:
        raise ModelNotAvailable(f"{models.directory}: cannot load the trained models: {error}") from error
