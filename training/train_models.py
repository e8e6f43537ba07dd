"""Train stanza models offline from Universal Dependencies treebanks.

stanza's own models come from a hub that machines without network cannot
reach, so the raw-text build path needs models trained here. Training itself
is stanza's: every stage runs one of stanza's training modules
(``stanza.models.tokenizer``, ``mwt_expander``, ``tagger``, ``lemmatizer``,
``parser``) through its ``main(args)`` in a child process, which keeps the
thread limit exact and a crash of one stage from taking the caller down. This
module only prepares the data with stanza's preparation utilities, chooses the
sizes, shrinks the saved files (fp16 weights, no optimizer state) and writes
the manifest that :mod:`checkpoints.extract.parse` loads.

No word vectors are used (``--no_pretrain``): downloading them is exactly what
cannot be done here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from checkpoints.errors import CheckpointsError, InputError, UsageError, check_choice
from checkpoints.extract.trained_models import MANIFEST_NAME
from checkpoints.progress import Progress, no_progress
from checkpoints.training.score_models import SCORES_NAME, score_pipeline
from checkpoints.training.tokenizer_words import (
    WordList,
    choose_word_list,
    read_word_list,
    write_licence,
    write_word_list,
)
from checkpoints.training.train_data import (
    concatenate_conllu,
    has_multiword_tokens,
    tokenizer_data,
    treebank_shorthand,
)

SIZES = ("tiny", "small", "full")
STAGES = ("tokenize", "mwt", "pos", "lemma", "depparse")
"""Training order: each later stage's pipeline needs the earlier ones."""

TOKENIZER_LEXICON_DIR = "tokenize-lexicon"
"""Work folder given to stanza's tokenizer as ``TOKENIZE_DATA_DIR``."""

NO_SPACE_LANGUAGES = ("zh", "ja", "th")
"""Languages written without spaces between words, whose tokenizer must skip line breaks."""

CONTINUABLE_STAGES = ("pos", "depparse")
"""Stages whose stanza module can start from a saved model (the tagger through :mod:`stanza_child`)."""

STEP_OPTIONS = {
    "tokenize": ("--steps", "--eval_steps"),
    "pos": ("--max_steps", "--eval_interval"),
    "depparse": ("--max_steps", "--eval_interval"),
}
"""Stages whose length is a number of steps: their stanza options for it and for the dev evaluation interval."""

STAGE_MODULES = {
    "tokenize": "stanza.models.tokenizer",
    "mwt": "stanza.models.mwt_expander",
    "pos": "stanza.models.tagger",
    "lemma": "stanza.models.lemmatizer",
    "depparse": "stanza.models.parser",
}

# Per size, the arguments each stage adds to its stanza module's defaults.
# tiny: tens of steps and tiny dimensions, for tests (seconds, < 1 MB).
# small: for small treebanks (a few thousand sentences): 400 tagger and parser steps of
# about 250 sentences, 40 to 70 epochs of such data, about 40 minutes on one thread;
# up to 3,000 tokenizer steps (Chinese word segmentation on 2,105 sentences was still
# improving at 600 steps and peaked at 2,500; 10,000 allowed stopped early on the same model).
# full: stanza's default dimensions are far too slow on one CPU thread, so full
# halves the recurrent and biaffine sizes and sets steps so English EWT (12,544
# sentences) trains in about two hours on one thread: about 32 tagger epochs
# (tagger about 0.6 s per 100 sentences on a quiet core) and 13 parser epochs, and
# 8,000 tokenizer steps (about 8.5 minutes on two threads): at 1,000 steps the EWT
# tokenizer split sentences at F1 85.79 through the pipeline, at 8,000 (best dev step
# 6,250) at 90.08, worth 1.4 LAS from raw text.
SIZE_ARGS: dict[str, dict[str, tuple[str, ...]]] = {
    "tiny": {
        # fewer steps leave a tokenizer that splits nothing, so tokens could not be tested
        "tokenize": ("--emb_dim", "16", "--hidden_dim", "32", "--steps", "300", "--eval_steps", "100", "--batch_size", "16"),
        "mwt": ("--dict_only",),
        "pos": (
            "--max_steps", "30", "--eval_interval", "15", "--fix_eval_interval", "--batch_size", "100",
            "--hidden_dim", "16", "--char_hidden_dim", "16", "--deep_biaff_hidden_dim", "16",
            "--composite_deep_biaff_hidden_dim", "8", "--word_emb_dim", "16", "--char_emb_dim", "8",
            "--tag_emb_dim", "8", "--transformed_dim", "16", "--num_layers", "1",
        ),
        "lemma": ("--num_epoch", "1", "--emb_dim", "8", "--hidden_dim", "16", "--pos_dim", "8"),
        "depparse": (
            "--max_steps", "30", "--eval_interval", "15", "--batch_size", "1000",
            "--hidden_dim", "16", "--char_hidden_dim", "16", "--deep_biaff_hidden_dim", "16",
            "--deep_biaff_output_dim", "8", "--word_emb_dim", "16", "--char_emb_dim", "8",
            "--tag_emb_dim", "8", "--transformed_dim", "16", "--num_layers", "1",
        ),
    },
    "small": {
        "tokenize": ("--steps", "3000", "--eval_steps", "500"),
        "mwt": ("--num_epoch", "5"),
        "pos": (
            "--max_steps", "400", "--eval_interval", "100", "--fix_eval_interval",
            "--hidden_dim", "100", "--char_hidden_dim", "100", "--deep_biaff_hidden_dim", "200",
        ),
        "lemma": ("--num_epoch", "3"),
        "depparse": (
            "--max_steps", "400", "--eval_interval", "100", "--hidden_dim", "200", "--char_hidden_dim", "100",
            "--deep_biaff_hidden_dim", "200", "--num_layers", "2",
        ),
    },
    "full": {
        "tokenize": ("--steps", "8000", "--eval_steps", "250"),
        "mwt": ("--num_epoch", "10"),
        "pos": (
            "--max_steps", "4000", "--eval_interval", "400", "--fix_eval_interval", "--max_steps_before_stop", "1200",
            "--batch_size", "100", "--hidden_dim", "100", "--char_hidden_dim", "100", "--deep_biaff_hidden_dim", "100",
            "--composite_deep_biaff_hidden_dim", "50", "--char_emb_dim", "50",
        ),
        "lemma": ("--num_epoch", "2", "--batch_size", "200"),
        "depparse": (
            "--max_steps", "1100", "--eval_interval", "200", "--second_optim_start_step", "750",
            "--max_steps_before_stop", "500", "--batch_size", "2500", "--hidden_dim", "200", "--char_hidden_dim", "100",
            "--deep_biaff_hidden_dim", "200", "--deep_biaff_output_dim", "100", "--num_layers", "2", "--char_emb_dim", "50",
        ),
    },
}



@dataclass(slots=True)
class TrainRequest:
    """What ``checkpoints models train`` was asked to do.

    Args:
        language: stanza language code the models are for (``en``, ``de``...).
        treebanks: training CoNLL-U files, plain or ``.xz``; concatenated.
        dev: development CoNLL-U for early stopping and the final scores.
        output: model directory to write.
        size: ``tiny``, ``small`` or ``full`` (see :data:`SIZE_ARGS`).
        threads: CPU threads torch may use in each stage.
        log_dir: where each stage's log is kept; None keeps them only for
            the run (a failing stage's last lines reach the error anyway).
        held_out: CoNLL-U never seen in training nor early stopping; the
            whole pipeline is scored on it too, since dev scores are
            optimistic (the best checkpoint was chosen on dev).
    """

    language: str
    treebanks: Sequence[Path]
    dev: Path
    output: Path
    size: str = "small"
    threads: int = 1
    log_dir: Path | None = None
    held_out: Path | None = None
    stages: Sequence[str] | None = None
    """Retrain only these stages in an existing model directory (None: all)."""
    continue_training: bool = False
    """Start the retrained stages (pos, depparse) from the directory's current
    weights instead of fresh ones: more steps for a model whose dev score was
    still rising when its steps ran out."""
    max_steps: int | None = None
    """Tokenizer, tagger and parser steps instead of the size's."""
    gold_tags: bool = False
    """Train the parser on the treebank's own tags rather than the tagger's.

    By default the parser learns from tags the trained tagger predicts, as
    stanza's own training does: on raw text it only ever sees predicted tags,
    and a parser that learnt to trust gold ones loses more to tagging errors."""
    word_list: str | None = None
    """The tokenizer's word list for its dictionary features: ``cedict``, a
    file of one word per line, or ``none``; None takes the language's default
    (:data:`checkpoints.training.tokenizer_words.DEFAULT_WORD_LISTS`)."""


@dataclass(slots=True)
class StageResult:
    name: str
    model_file: str
    seconds: float
    arguments: list[str]
    continued: bool = False
    """Started from the directory's earlier model of the stage, whose record it extends."""


@dataclass(slots=True)
class TrainResult:
    output: Path
    stages: list[StageResult]
    dev_scores: dict[str, float]
    model_bytes: int
    settings: dict[str, Any] = field(default_factory=dict)
    scoring_error: str | None = None
    held_out_scores: dict[str, float] = field(default_factory=dict)
    held_out_error: str | None = None


@dataclass(frozen=True, slots=True)
class TrainingRun:
    """What every stage of one :func:`train_models` call shares: the request, the
    treebank shorthand stanza names its files by, the work and log folders, the
    progress callback and the tokenizer's word list."""

    request: TrainRequest
    shorthand: str
    work: Path
    log_dir: Path
    progress: Progress = no_progress
    word_list: WordList | None = None


class StageFailed(CheckpointsError, RuntimeError):
    """A stanza training module exited with an error; the message ends with its last log line."""


def train_models(request: TrainRequest, progress: Progress = no_progress) -> TrainResult:
    """Train every stage in order, write the manifest and score the pipeline on dev.

    Raises:
        InputError: a treebank or the dev file is missing or has no sentences.
        UsageError: bad language, size or thread count, or an output path
            that is a file.
        StageFailed: a stanza training module failed.
    """
    _check_request(request)
    kept = kept_stages(request)
    word_list = _tokenizer_word_list(request, kept)
    request.output.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="checkpoints-train-") as temp:
        work = Path(temp)
        log_dir = request.log_dir or work / "logs"
        log_dir.mkdir(parents=True, exist_ok=True)
        train = concatenate_conllu(request.treebanks, work / "train.conllu")
        dev = concatenate_conllu([request.dev], work / "dev.conllu")
        shorthand = treebank_shorthand(request.language, request.treebanks[0])
        run = TrainingRun(request, shorthand, work, log_dir, progress, word_list)
        stages = [name for name in STAGES if (name != "mwt" or has_multiword_tokens(train)) and name not in kept]
        results: list[StageResult] = []
        processors = dict(kept)
        for name in stages:
            stage_train, stage_dev = train, dev
            if name == "depparse" and not request.gold_tags:
                stage_train, stage_dev = retag(request.output / processors["pos"], [train, dev], run)
            results.append(_train_stage(name, run, stage_train, stage_dev))
            processors[name] = results[-1].model_file
        manifest = write_manifest(request.output, request.language, {name: processors[name] for name in STAGES if name in processors})
        for treebank in request.treebanks:
            copy_license(treebank, request.output)
        if "tokenize" not in kept:
            write_licence(word_list, request.output)
        advance = progress("scoring the pipeline on dev", 1)
        scores, error = score_pipeline(request.output, request.language, dev, work, request.threads)
        advance(1)
        held_out_scores: dict[str, float] = {}
        held_out_error = None
        if request.held_out is not None:
            advance = progress("scoring the pipeline on the held-out file", 1)
            held_out = concatenate_conllu([request.held_out], work / "held-out.conllu")
            held_out_scores, held_out_error = score_pipeline(request.output, request.language, held_out, work, request.threads)
            advance(1)
    result = TrainResult(
        output=request.output,
        stages=results,
        dev_scores=scores,
        scoring_error=error,
        held_out_scores=held_out_scores,
        held_out_error=held_out_error,
        model_bytes=sum((request.output / f).stat().st_size for f in manifest["processors"].values()),
        settings=_settings(request, shorthand, word_list),
    )
    write_scores(result)
    return result


def kept_stages(request: TrainRequest) -> dict[str, str]:
    """With ``stages``: the processors of the existing directory that are not retrained.

    Raises:
        UsageError: an unknown stage, or no complete model directory for the
            language to retrain stages in.
    """
    if request.stages is None:
        if request.continue_training:
            raise UsageError("--continue needs --stage: name the stages (pos, depparse) to continue training")
        return {}
    for name in request.stages:
        check_choice("stage", name, STAGES)
        if request.continue_training and name not in CONTINUABLE_STAGES:
            raise UsageError(f"cannot continue training {name}: only {' and '.join(CONTINUABLE_STAGES)} start from a saved model; retrain it afresh")
    from checkpoints.errors import ModelNotAvailable
    from checkpoints.extract.trained_models import find_trained_models

    try:
        existing = find_trained_models(request.output, request.language) if request.output.is_dir() else None
    except ModelNotAvailable as error:
        raise UsageError(f"cannot retrain stages: {error}") from error
    if existing is None:
        raise UsageError(f"{request.output}: no trained models to retrain stages in: train every stage first")
    return {name: file for name, file in existing.processors.items() if name not in request.stages}


def _tokenizer_word_list(request: TrainRequest, kept: dict[str, str]) -> WordList | None:
    """The words the tokenizer trained in this run looks up; read before any training, so a bad file fails first.

    Raises:
        UsageError: a word list named for a run that keeps the tokenizer.
        InputError: the word list file is missing, not UTF-8 or empty.
    """
    if "tokenize" in kept:
        if request.word_list is not None:
            raise UsageError("--word-list only serves the tokenizer: add --stage tokenize to retrain it with the list")
        return None
    choice = choose_word_list(request.language, request.word_list)
    return read_word_list(choice) if choice is not None else None


def _check_request(request: TrainRequest) -> None:
    check_choice("size", request.size, SIZES)
    if not re.fullmatch(r"[a-z]{2,3}(-[A-Za-z]+)?", request.language):
        raise UsageError(f"language {request.language!r}: expected a stanza language code such as en, de or zh-hant")
    if request.threads < 1:
        raise UsageError(f"threads must be at least 1, not {request.threads}")
    if request.max_steps is not None and request.max_steps < 1:
        raise UsageError(f"max steps must be at least 1, not {request.max_steps}")
    if not request.treebanks:
        raise UsageError("no training treebank given")
    for path in [*request.treebanks, request.dev, *([request.held_out] if request.held_out else [])]:
        if not path.is_file():
            raise InputError(path, None, "no such file" if not path.exists() else "not a file")
    if request.output.exists() and not request.output.is_dir():
        raise UsageError(f"{request.output}: output exists and is not a directory")


def _settings(request: TrainRequest, shorthand: str, word_list: WordList | None) -> dict[str, Any]:
    return {
        "language": request.language,
        "shorthand": shorthand,
        "treebanks": [str(path) for path in request.treebanks],
        "dev": str(request.dev),
        "held_out": str(request.held_out) if request.held_out else None,
        "size": request.size,
        "threads": request.threads,
        "stanza": metadata.version("stanza"),
        "torch": metadata.version("torch"),
        "max_steps": request.max_steps,
        "continued": request.continue_training,
        "parser_tags": _parser_tags(request),
        "tokenizer_word_list": {"source": word_list.source, "words": len(word_list.words)} if word_list else None,
        "pretrained_word_vectors": False,
        "saved_weights": "float16, no optimizer state",
    }


def _parser_tags(request: TrainRequest) -> str | None:
    """The tags the parser trained in this run learnt from; None when the run keeps the parser."""
    if request.stages is not None and "depparse" not in request.stages:
        return None
    return "gold" if request.gold_tags else "predicted by the tagger"


def stage_arguments(name: str, run: TrainingRun, train: Path, dev: Path, save: Path) -> list[str]:
    """The command line of stanza's training module for one stage.

    With the run's word list the tokenizer trains with dictionary features;
    stanza takes the treebank's words for its lexicon from
    ``TOKENIZE_DATA_DIR`` (:data:`TOKENIZER_LEXICON_DIR` under the work
    folder), where the training file is put under the name it looks for.
    """
    request, shorthand, work, word_list = run.request, run.shorthand, run.work, run.word_list
    common = ["--shorthand", shorthand, "--save_dir", str(save.parent), "--save_name", save.name]
    if name == "tokenize":
        text, labels, mwt = tokenizer_data(train, work / "tokenize-train")
        dev_text, dev_labels, _ = tokenizer_data(dev, work / "tokenize-dev")
        files = [
            "--txt_file", str(text), "--label_file", str(labels), "--mwt_json_file", str(mwt),
            "--dev_txt_file", str(dev_text), "--dev_label_file", str(dev_labels), "--dev_conll_gold", str(dev),
            "--conll_file", str(work / "tokenize-dev.pred.conllu"), "--lang", request.language,
        ]
        if request.language.split("-")[0] in NO_SPACE_LANGUAGES:
            # as stanza's run_tokenizer does: line breaks inside these texts are not word breaks
            files.append("--skip_newline")
        if word_list is not None:
            lexicon_dir = work / TOKENIZER_LEXICON_DIR
            lexicon_dir.mkdir(exist_ok=True)
            shutil.copyfile(train, lexicon_dir / f"{shorthand}.train.gold.conllu")
            words = write_word_list(word_list, work / "tokenize-words.txt")
            files += ["--use_dictionary", "--external_dict", str(words)]
    else:
        files = [
            "--train_file", str(train), "--eval_file", str(dev),
            "--output_file", str(work / f"{name}-dev.pred.conllu"),
        ]
        if name == "mwt":
            files += ["--gold_file", str(dev), "--lang", request.language]
        if name in ("pos", "depparse"):
            files += ["--lang", request.language, "--no_pretrain"]
        if name == "depparse":
            files.append("--no_checkpoint")
        if _continues(request, name):
            start = work / f"{name}-start.pt"
            shutil.copyfile(request.output / f"{name}.pt", start)
            files += ["--continue_from", str(start)]
    sized = list(SIZE_ARGS[request.size][name])
    if request.max_steps is not None and name in STEP_OPTIONS:
        steps, interval = STEP_OPTIONS[name]
        sized = _with_option(sized, steps, str(request.max_steps))
        if interval in sized and int(sized[sized.index(interval) + 1]) > request.max_steps:
            # stanza's tagger fails at the end of a run that never evaluated on dev
            sized = _with_option(sized, interval, str(request.max_steps))
    if name == "depparse" and _continues(request, name):
        sized = _continued_parser_schedule(sized)
    return ["--mode", "train", *files, *common, *sized]


def _continued_parser_schedule(arguments: list[str]) -> list[str]:
    """A continued parser's optimizer schedule: Adam at full rate from the first step, no forced restart.

    A saved parser carries ``second_stage`` in its config, so stanza reloads it
    with the second optimizer and its warm-up. That warm-up starts at a rate of
    0 and advances only at dev evaluations, and the forced switch at
    ``--second_optim_start_step`` reloads the best model with a fresh optimizer
    and warm-up again: measured on EWT, 400 of 2,000 continued steps learnt
    nothing. The switch still happens when dev stalls for
    ``--max_steps_before_stop`` steps.
    """
    steps = arguments[arguments.index("--max_steps") + 1]  # every size sets the parser's steps
    arguments = _with_option(arguments, "--second_warmup_steps", "0")
    return _with_option(arguments, "--second_optim_start_step", str(int(steps) + 1))


def retag(tagger: Path, files: Sequence[Path], run: TrainingRun) -> list[Path]:
    """``files`` with their UPOS, XPOS and features replaced by ``tagger``'s predictions.

    Tokens, lemmas and trees stay gold: this is the parser's training and
    early-stopping data as stanza builds it (``dataset_retagging``), by
    running the tagger module in predict mode over each file.
    """
    request = run.request
    retagged = []
    for path in files:
        target = run.work / f"{path.stem}.retagged.conllu"
        arguments = [
            "--mode", "predict", "--eval_file", str(path), "--output_file", str(target),
            "--save_dir", str(tagger.parent), "--save_name", tagger.name,
            "--shorthand", run.shorthand, "--lang", request.language, "--no_pretrain",
        ]
        log = run.log_dir / f"retag-{path.stem}.log"
        run_stanza_module(STAGE_MODULES["pos"], arguments, request.threads, log, "tagger", run.progress, f"retagged {path.stem} for the parser")
        if not target.is_file():
            raise StageFailed(f"stanza's tagger finished without retagging {path.name}: see {log}")
        retagged.append(target)
    return retagged


def _continues(request: TrainRequest, name: str) -> bool:
    """Whether stage ``name`` starts from the directory's saved model."""
    return request.continue_training and name in CONTINUABLE_STAGES


def _with_option(arguments: list[str], option: str, value: str) -> list[str]:
    """``arguments`` with ``option``'s value replaced, or the option added."""
    if option in arguments:
        at = arguments.index(option)
        return [*arguments[: at + 1], value, *arguments[at + 2 :]]
    return [*arguments, option, value]


MALLOC_SETTINGS = {
    "MALLOC_MMAP_THRESHOLD_": str(32 * 1024 * 1024),
    "MALLOC_TRIM_THRESHOLD_": str(4 * 1024 * 1024 * 1024),
    "MALLOC_TOP_PAD_": str(256 * 1024 * 1024),
}
"""glibc malloc settings for the training child (a user's own values win).

With glibc's defaults the tagger's and parser's per-batch tensors are mapped
and unmapped from the kernel at every step: measured here, a German tagger
step of 250 sentences spent two thirds of its time in the kernel on
page faults (about 250,000 a second). Keeping freed memory in the process
removes that."""

_STEP = re.compile(r"\bstep\s+(\d+)\s*/\s*(\d+)", re.IGNORECASE)
"""stanza's progress lines: ``Finished STEP 20/600`` (tagger, parser), ``Step 20/1000`` (tokenizer), ``step 20/2050`` (lemmatizer)."""


def _train_stage(name: str, run: TrainingRun, train: Path, dev: Path) -> StageResult:
    request = run.request
    staged = run.work / "models" / f"{name}.pt"
    staged.parent.mkdir(parents=True, exist_ok=True)
    arguments = stage_arguments(name, run, train, dev, staged)
    started = time.monotonic()
    # stanza's tokenizer reads the training treebank's words for its lexicon from this folder
    environment = {"TOKENIZE_DATA_DIR": str(run.work / TOKENIZER_LEXICON_DIR)}
    log = run.log_dir / f"{name}.log"
    run_stanza_module(STAGE_MODULES[name], arguments, request.threads, log, name, run.progress, environment=environment)
    if not staged.is_file():
        raise StageFailed(f"stanza's {name} training finished without writing {staged.name}: see {log}")
    target = request.output / f"{name}.pt"
    # from the first replaced model on, the directory must not load as complete
    # until every stage is done; a run that fails before leaves it as it was
    (request.output / MANIFEST_NAME).unlink(missing_ok=True)
    shrink_model_file(staged, target)
    return StageResult(name, target.name, round(time.monotonic() - started, 1), arguments, _continues(request, name))


def run_stanza_module(
    module: str,
    arguments: Sequence[str],
    threads: int,
    log: Path,
    name: str,
    progress: Progress = no_progress,
    finished: str | None = None,
    *,
    environment: dict[str, str] | None = None,
) -> None:
    """Run ``module.main(arguments)`` in a child process with ``threads`` threads.

    Its log goes to ``log``; lines with stanza's ``STEP n/total`` advance a
    progress bar for the stage; a module that prints none (prediction) gets
    one finished bar, ``finished`` or "trained NAME". ``environment`` adds
    variables to the child's.

    Raises:
        StageFailed: the module exited with an error (the message ends
            with its last log line).
    """
    environment = {**os.environ, **(environment or {})}
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        environment[variable] = str(threads)
    for variable, value in MALLOC_SETTINGS.items():
        environment.setdefault(variable, value)
    environment.setdefault("PYTHONUNBUFFERED", "1")
    command = [sys.executable, "-m", "checkpoints.training.stanza_child", str(threads), module, *arguments]
    advance: Callable[[int], None] | None = None
    done = 0
    last = ""
    with log.open("w", encoding="utf-8") as out, subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment
    ) as child:
        assert child.stdout is not None
        for line in child.stdout:
            out.write(line)
            out.flush()
            if line.strip():
                last = line.strip()
            match = _STEP.search(line)
            if match:
                if advance is None:
                    advance = progress(f"training {name}", int(match.group(2)))
                step = int(match.group(1))
                advance(step - done)
                done = step
    if child.returncode:
        doing = "retagging" if "predict" in arguments else f"{name} training"
        raise StageFailed(f"stanza's {doing} failed (exit {child.returncode}, log {log}): {last}")
    if advance is None:
        progress(finished or f"trained {name}", 1)(1)


def shrink_model_file(source: Path, target: Path) -> None:
    """Copy a stanza model file with float16 weights and no optimizer state.

    stanza loads weights with ``load_state_dict``, which casts them back to
    the model's float32, so halving them costs only rounding while it halves
    the file; optimizer and scheduler state only serve to resume training.
    """
    import torch

    checkpoint = torch.load(source, map_location="cpu", weights_only=True)
    if isinstance(checkpoint, dict):
        for key in ("optimizer_state_dict", "scheduler_state_dict", "optimizer", "scheduler"):
            checkpoint.pop(key, None)
    torch.save(_half(checkpoint), target, _use_new_zipfile_serialization=False)


def _half(value: Any) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        return value.half() if value.dtype == torch.float32 else value
    if isinstance(value, dict):
        return {key: _half(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_half(item) for item in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_half(item) for item in value)
    return value


def write_manifest(output: Path, language: str, processors: dict[str, str]) -> dict[str, Any]:
    """The manifest :mod:`checkpoints.extract.parse` loads, plus stanza's ``resources.json``.

    stanza's Pipeline reads ``resources.json`` from its ``dir`` even when
    every model path is given, so an empty one keeps it from looking for
    (or downloading) its own.
    """
    manifest = {"language": language, "processors": processors, "stanza": metadata.version("stanza")}
    (output / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    resources = output / "resources.json"
    if not resources.exists():
        resources.write_text("{}\n", encoding="utf-8")
    return manifest


def write_scores(result: TrainResult) -> Path:
    """``scores.json``: the dev figures and exactly how the models were trained."""
    path = result.output / SCORES_NAME
    retrained = {stage.name for stage in result.stages}
    # stages kept from an earlier training keep their record; a continued stage nests it
    previous = {stage.get("name"): stage for stage in json.loads(path.read_text(encoding="utf-8")).get("stages", [])} if path.is_file() else {}
    earlier = [stage for name, stage in previous.items() if name not in retrained]
    new = []
    for stage in result.stages:
        record: dict[str, Any] = {
            "name": stage.name, "model_file": stage.model_file, "seconds": stage.seconds, "arguments": _portable(stage.arguments)
        }
        if stage.continued and stage.name in previous:
            record["continues"] = previous[stage.name]
        new.append(record)
    content = {
        "dev_scores": result.dev_scores,
        "scoring_error": result.scoring_error,
        "held_out_scores": result.held_out_scores,
        "held_out_error": result.held_out_error,
        "settings": result.settings,
        "model_bytes": result.model_bytes,
        "stages": sorted(earlier + new, key=lambda stage: STAGES.index(stage["name"]) if stage["name"] in STAGES else len(STAGES)),
    }
    path.write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")
    return path


def _portable(arguments: Sequence[str]) -> list[str]:
    """Arguments with the run's temporary paths reduced to file names (they no longer exist)."""
    temp = tempfile.gettempdir()
    return [Path(argument).name if argument.startswith(temp) else argument for argument in arguments]


def copy_license(source: Path, output: Path) -> Path | None:
    """Copy ``LICENSE*`` files next to a treebank into the model directory.

    Models trained on UD data inherit the treebank's licence (EWT and GSD are
    CC BY-SA 4.0), so the licence travels with the model.
    """
    copied = None
    prefix = source.name.split("-ud-")[0]
    for licence in sorted(source.parent.glob(f"LICENSE-{prefix}*")):
        copied = output / licence.name
        shutil.copyfile(licence, copied)
    return copied
