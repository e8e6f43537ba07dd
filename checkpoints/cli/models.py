"""``checkpoints models download|train LANG``: get the stanza models a build needs.

Parsing never downloads (pipelines are built with ``download_method=None``),
so ``download`` is the one place that touches the network: run it once on a
machine with access, then copy the model directory to offline machines if
needed. ``train`` makes the models offline instead, from UD treebanks, with
stanza's own training modules.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from checkpoints.cli.common import (
    progress_bar,
    quiet_libraries,
    stage_progress,
    stderr_console,
    stdout_console,
)
from checkpoints.progress import Progress
from checkpoints.service.models import ScoreRequest, download_models, score_models
from checkpoints.training.score_models import (
    GIVEN_DESCRIPTIONS,
)
from checkpoints.training.train_models import TrainRequest, train_models

EXAMPLES = """
Examples:

  # tokenizer, MWT, POS, lemmas, dependencies and (where stanza has one) constituency for English:
  checkpoints models download en

  # Spanish models into a directory of your choice (pass the same one to build --stanza-dir):
  checkpoints models download es --model-dir ./stanza_resources

  # train English models offline from UD English EWT (about two hours on one thread):
  checkpoints models train en --treebank en_ewt-ud-train.conllu.xz \\
      --dev en_ewt-ud-dev.conllu.xz --output models/en --size full --threads 1
"""

TRAIN_EXAMPLES = """
Trains stanza's tokenizer, MWT expander (where the treebank has multi-word
tokens), POS tagger, lemmatizer and dependency parser in that order, with
stanza's own training modules and no word vectors, keeping the best
checkpoint on --dev. As in stanza's own training, the parser learns from
the trained tagger's tags (--gold-tags: the treebank's). The output directory loads with
build --stanza-dir DIR (or CHECKPOINTS_STANZA_DIR=DIR); its scores.json
records the dev scores and the exact settings.

Examples:

  # a real English model (about two hours on one thread):
  checkpoints models train en --treebank en_ewt-ud-train.conllu.xz \\
      --dev en_ewt-ud-dev.conllu.xz --output models/en --size full --threads 1

  # retrain only the tagger of an existing model directory, with a held-out score:
  checkpoints models train en --treebank en_ewt-ud-train.conllu.xz --dev en_ewt-ud-dev.conllu.xz \\
      --output models/en --size full --stage pos --held-out en_ewt-ud-test.conllu.xz

  # give that tagger 8,000 more steps, starting from its current weights:
  checkpoints models train en --treebank en_ewt-ud-train.conllu.xz --dev en_ewt-ud-dev.conllu.xz \\
      --output models/en --size full --stage pos --continue --max-steps 8000

  # then give the parser more steps on the new tagger's tags:
  checkpoints models train en --treebank en_ewt-ud-train.conllu.xz --dev en_ewt-ud-dev.conllu.xz \\
      --output models/en --size full --stage depparse --continue --max-steps 2000

  # Chinese: the tokenizer looks words up in CC-CEDICT unless told otherwise (--word-list):
  checkpoints models train zh --treebank zh_gsd-ud-train.conllu.xz --dev zh_gsd-ud-dev.conllu.xz \\
      --output models/zh --size small

  # a tiny model in seconds, for tests (tens of steps, under 1 MB):
  checkpoints models train en --treebank few.conllu --dev few-dev.conllu --output /tmp/en-tiny --size tiny

  # then parse raw text with it:
  checkpoints build --db x.db --src-lang en --tgt-lang de --source en.txt --reference de.txt --stanza-dir models
"""


SCORE_EXAMPLES = """
The treebank's raw text is rebuilt from its # text lines, parsed by the whole
pipeline (tokenizer first), and scored by stanza's CoNLL 2018 scorer: tokens,
sentences, UPOS, lemma, UAS and LAS F1.

Examples:

  # the English models on EWT test, kept in models/en/scores.json as held-out scores:
  checkpoints models score models/en en --treebank en_ewt-ud-test.conllu.xz --record held-out

  # just print the scores on another treebank:
  checkpoints models score models/en en --treebank en_pud-ud-test.conllu

  # the tagger and parser alone, on the treebank's own words (as stanza's training reports dev):
  checkpoints models score models/en en --treebank en_ewt-ud-dev.conllu.xz --gold-tokens

  # one sentence a line, as build parses a --source file (no sentence splitting):
  checkpoints models score models/en en --treebank en_ewt-ud-dev.conllu.xz --gold-sentences
"""


def register(app: typer.Typer) -> None:
    models_app = typer.Typer(
        no_args_is_help=True,
        help="Manage the stanza models used to parse raw text.\n" + EXAMPLES,
    )
    models_app.command("download", help="Download the stanza models a build needs for LANG.\n" + EXAMPLES)(download)
    models_app.command("train", help="Train stanza models for LANG offline from UD treebanks.\n" + TRAIN_EXAMPLES)(train)
    models_app.command("score", help="Score a trained model directory on a UD treebank, from raw text, its sentences or its gold words.\n" + SCORE_EXAMPLES)(score)
    app.add_typer(models_app, name="models")


def download(
    language: Annotated[str, typer.Argument(metavar="LANG", help="stanza language code, e.g. en, es, de, zh.")],
    model_dir: Annotated[
        str | None,
        typer.Option("--model-dir", help="Directory for the models (default: stanza's, $STANZA_RESOURCES_DIR or its user cache)."),
    ] = None,
    constituency: Annotated[
        bool,
        typer.Option("--constituency/--no-constituency", help="Also fetch the constituency parser where stanza has one."),
    ] = True,
    ner: Annotated[bool, typer.Option("--ner/--no-ner", help="Also fetch the named-entity tagger.")] = False,
) -> None:
    quiet_libraries()
    processors = download_models(language, model_dir=model_dir, constituency=constituency, ner=ner)
    names = ", ".join(f"{name}={package}" for name, package in processors.items())
    stdout_console().print(f"stanza models for {language} installed: {names}")


def train(
    language: Annotated[str, typer.Argument(metavar="LANG", help="stanza language code of the treebanks, e.g. en, de, zh-hant.")],
    treebank: Annotated[
        list[Path], typer.Option("--treebank", help="Training CoNLL-U (.conllu or .conllu.xz); repeat to train on several.")
    ],
    dev: Annotated[Path, typer.Option("--dev", help="Development CoNLL-U (.conllu or .conllu.xz): early stopping and the reported scores.")],
    output: Annotated[Path, typer.Option("--output", "-o", metavar="DIR", help="Model directory to write (pass it, or its parent, to build --stanza-dir).")],
    size: Annotated[str, typer.Option("--size", help="tiny (tests: a minute, < 1 MB), small (treebanks of a few thousand sentences: about 40 minutes on one thread) or full (about half stanza's dimensions; EWT: about two hours on one thread).")] = "small",
    threads: Annotated[int, typer.Option("--threads", help="CPU threads each training stage may use.")] = 1,
    log_dir: Annotated[
        Path | None, typer.Option("--log-dir", metavar="DIR", help="Keep each stage's stanza log here (default: a temporary folder).")
    ] = None,
    held_out: Annotated[
        Path | None,
        typer.Option("--held-out", help="CoNLL-U kept out of training and early stopping; the pipeline is scored on it too."),
    ] = None,
    stage: Annotated[
        list[str] | None,
        typer.Option("--stage", metavar="NAME", help="Retrain only this stage (tokenize, mwt, pos, lemma, depparse) in an existing DIR; repeat for several."),
    ] = None,
    continue_training: Annotated[
        bool,
        typer.Option("--continue", help="With --stage pos/depparse: start from DIR's current model of the stage (same treebanks and --size), with a fresh optimizer, instead of fresh weights."),
    ] = False,
    max_steps: Annotated[
        int | None, typer.Option("--max-steps", metavar="N", help="Tokenizer, tagger and parser training steps instead of the --size's.")
    ] = None,
    gold_tags: Annotated[
        bool,
        typer.Option("--gold-tags", help="Train the parser on the treebank's own tags; by default it learns from the trained tagger's, which are all it sees on raw text (as stanza trains its parsers)."),
    ] = False,
    word_list: Annotated[
        str | None,
        typer.Option("--word-list", metavar="FILE|cedict|none", help="Words the tokenizer looks up while it segments (stanza's dictionary features), one a line, beside the treebank's own: a file, cedict (CC-CEDICT's Chinese headwords, installed with checkpoints) or none. Default: cedict for zh, none for other languages."),
    ] = None,
) -> None:
    quiet_libraries()

    request = TrainRequest(
        language=language,
        treebanks=list(treebank),
        dev=dev,
        output=output,
        size=size,
        threads=threads,
        log_dir=log_dir,
        held_out=held_out,
        stages=stage or None,
        continue_training=continue_training,
        max_steps=max_steps,
        gold_tags=gold_tags,
        word_list=word_list,
    )
    with progress_bar() as bar:
        result = train_models(request, stage_logger(stage_progress(bar)))
    rows = {"dev": (result.dev_scores, result.scoring_error)}
    if held_out is not None:
        rows["held-out"] = (result.held_out_scores, result.held_out_error)
    render_scores(f"scores of the trained pipeline from raw text ({result.output})", rows)
    stages = ", ".join(f"{stage.name} {stage.seconds:.0f} s" for stage in result.stages)
    stdout_console().print(
        f"models: {result.model_bytes / 1e6:.1f} MB in {result.output} ({stages}); settings in {result.output}/scores.json"
    )


def score(
    model_dir: Annotated[Path, typer.Argument(metavar="DIR", help="Model directory written by 'checkpoints models train'.")],
    language: Annotated[str, typer.Argument(metavar="LANG", help="Language of the models in DIR, as trained (en, de, zh...).")],
    treebank: Annotated[Path, typer.Option("--treebank", help="Gold CoNLL-U (.conllu or .conllu.xz) with # text lines.")],
    record: Annotated[
        str | None,
        typer.Option("--record", metavar="dev|held-out", help="Also keep the scores in DIR/scores.json under this name."),
    ] = None,
    threads: Annotated[int, typer.Option("--threads", help="CPU threads for parsing.")] = 1,
    gold_tokens: Annotated[
        bool,
        typer.Option(
            "--gold-tokens",
            help="Parse the treebank's own sentences and words (no tokenizer, no MWT): the tagger's and parser's "
            "scores alone, as stanza's training reports them on dev.",
        ),
    ] = False,
    gold_sentences: Annotated[
        bool,
        typer.Option(
            "--gold-sentences",
            help="Give the pipeline the treebank's sentences one a line, as build parses a raw-text file: "
            "the tokenizer cuts words but splits no sentences.",
        ),
    ] = False,
) -> None:
    quiet_libraries()
    request = ScoreRequest(model_dir, language, treebank, threads, record, gold_tokens, gold_sentences)
    request.validate()
    with progress_bar() as bar:
        result = score_models(request, stage_progress(bar))
    title = f"scores of {model_dir} on {treebank.name} {GIVEN_DESCRIPTIONS[request.given]}"
    render_scores(title, {treebank.name: (result.scores, result.error)})
    if result.recorded is not None:
        stdout_console().print(f"recorded as {record} scores in {result.recorded}")


def stage_logger(progress: Progress) -> Progress:
    """The progress callback, plus one line on stderr per stage where no bar is drawn.

    A training that runs for an hour in the background (stderr to a log
    file) still tells what it is doing and since when.
    """
    console = stderr_console()
    started = time.monotonic()

    def report(description: str, total: int) -> Callable[[int], None]:
        if not console.is_terminal:
            console.print(f"[{time.monotonic() - started:7.0f} s] {description}")
        return progress(description, total)

    return report


def render_scores(title: str, rows: dict[str, tuple[dict[str, float], str | None]]) -> None:
    """One row per scored file; a file the scorer refused gets its reason instead."""
    console = stdout_console()
    table = Table(title=title)
    table.add_column("file")
    columns = {"tokens F1": "tokens_f1", "sentences F1": "sentences_f1", "UPOS": "upos", "lemma F1": "lemma_f1", "UAS": "uas", "LAS": "las"}
    for column in columns:
        table.add_column(column, justify="right")
    refused = []
    for name, (scores, error) in rows.items():
        if scores:
            table.add_row(name, *(f"{scores[key]:.2f}" if key in scores else "" for key in columns.values()))
        else:
            refused.append(f"{name} scores not computed: {error}")
    if table.rows:
        console.print(table)
    for line in refused:
        console.print(line)
