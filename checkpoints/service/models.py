"""``checkpoints models``: fetching stanza's models, and scoring a trained model directory.

Training itself is :func:`checkpoints.training.train_models.train_models`;
these are the other two things the command does, as library functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import InputError, ModelNotAvailable, UsageError, check_choice
from checkpoints.extract.parse import stanza_processors
from checkpoints.extract.trained_models import find_trained_models
from checkpoints.progress import Progress, no_progress
from checkpoints.service.option_values import check_at_least
from checkpoints.training.score_models import RECORD_KEYS, record_scores, score_model_directory


def download_models(
    language: str, *, model_dir: str | None = None, constituency: bool = True, ner: bool = False
) -> dict[str, str]:
    """Download resources.json, then exactly the processors a parse will load.

    Two calls to ``stanza.download``: the first fetches only resources.json
    (no processors), which says which models the language has; the second
    fetches the chosen processors and their dependencies (pretrained word
    vectors, character language models), skipping files already present.

    Raises:
        ModelNotAvailable: network failure, or stanza has no such language.
    """
    import stanza  # a second or more to import: only when models are fetched
    from stanza.resources.common import DEFAULT_MODEL_DIR, UnknownLanguageError, load_resources_json

    directory = model_dir or DEFAULT_MODEL_DIR
    try:
        stanza.download(language, model_dir=directory, package=None, processors={})
        resources = load_resources_json(directory)
        processors = stanza_processors(resources, language, constituency=None if constituency else False, ner=ner)
        stanza.download(language, model_dir=directory, package=None, processors=processors, download_json=False)
    except ModelNotAvailable:
        raise
    except UnknownLanguageError as error:
        raise ModelNotAvailable(
            f"stanza has no models for language {language!r}: pass parsed CoNLL-U with --source-conllu/--reference-conllu"
        ) from error
    except (OSError, ValueError) as error:
        # requests' ConnectionError/HTTPError and urllib errors are OSErrors;
        # stanza reports a corrupted download (MD5 mismatch) as a ValueError.
        reason = " ".join(str(error).split()) or type(error).__name__
        raise ModelNotAvailable(
            f"could not download stanza models for {language!r} into {directory}: {type(error).__name__}: {reason}"
        ) from error
    return processors


@dataclass(slots=True)
class ScoreRequest:
    """``models score``: a trained directory scored on a gold treebank."""

    model_dir: Path
    language: str
    treebank: Path
    threads: int = 1
    record: str | None = None
    """Keep the scores in the directory's scores.json as ``dev`` or ``held-out`` scores."""
    gold_tokens: bool = False
    gold_sentences: bool = False

    @property
    def given(self) -> str:
        """What the pipeline is given: raw ``text``, the treebank's ``sentences`` or its ``words``."""
        return "words" if self.gold_tokens else "sentences" if self.gold_sentences else "text"

    def validate(self) -> None:
        if self.gold_tokens and self.gold_sentences:
            raise UsageError("--gold-tokens and --gold-sentences exclude each other: choose one")
        if self.record is not None:
            check_choice("--record", self.record, tuple(RECORD_KEYS))
            if self.given != "text":
                option = "--gold-tokens" if self.gold_tokens else "--gold-sentences"
                raise UsageError(f"--record keeps scores from raw text; it cannot be used with {option}")
        check_at_least("--threads", self.threads, 1)
        if not self.treebank.is_file():
            raise InputError(self.treebank, None, "no such file" if not self.treebank.exists() else "not a file")
        if find_trained_models(self.model_dir, self.language) is None:
            raise ModelNotAvailable(
                f"{self.model_dir}: no manifest.json: not a directory written by 'checkpoints models train'")


@dataclass(frozen=True, slots=True)
class ModelScores:
    scores: dict[str, float]
    error: str | None
    """Why the scorer refused the treebank (no scores), if it did."""
    recorded: Path | None
    """The scores.json the figures were kept in (``record``)."""


def score_models(request: ScoreRequest, progress: Progress = no_progress) -> ModelScores:
    request.validate()
    advance = progress(f"parsing and scoring {request.treebank.name}", 1)
    scores, error = score_model_directory(request.model_dir, request.language, request.treebank, request.threads,
                                          given=request.given)
    advance(1)
    recorded = None
    if request.record is not None:
        recorded = record_scores(request.model_dir, request.record, request.treebank, scores, error)
    return ModelScores(scores, error, recorded)
