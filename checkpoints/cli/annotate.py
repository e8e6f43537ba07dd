"""``checkpoints annotate``: parse text files once for the linguistic metrics."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import progress_bar, quiet_libraries, stage_progress, stderr_console
from checkpoints.cli.engine_options import Address, EngineName, GpusPerWorker, Workers, engine_spec
from checkpoints.service.annotate import AnnotateRequest, annotate_files

EXAMPLES = """
Each line is one sentence. Parses go to the annotation cache (keyed by the
text, the language and the models), so a later `checkpoints metrics` with
SP, DP, CP or NE metrics over the same texts parses nothing; with -o they are
also written as CoNLL-U, which `metrics --parsed` reads on any machine.

Examples:

  checkpoints annotate --lang en --stanza-dir models/en hyp.en ref.en

  checkpoints annotate --lang en --ner --constituency ref.en -o ref.en.conllu

  Keep the parses in a check-point store, where `metrics --db` finds them:

  checkpoints annotate --lang es --db pud.db hyp.es ref.es
"""


def register(app: typer.Typer) -> None:
    app.command("annotate", help="Parse text files for the linguistic metrics, into the cache and CoNLL-U.\n" + EXAMPLES)(annotate)


def annotate(
    inputs: Annotated[list[Path], typer.Argument(metavar="FILE", help="Text files, one sentence a line.")],
    language: Annotated[str, typer.Option("--lang", metavar="LANG", help="Language of the files (stanza's code: en, de, zh...).")],
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE", help="Also write every line's parse here as CoNLL-U.")] = None,
    parsed: Annotated[list[Path] | None, typer.Option("--parsed", metavar="FILE", help="CoNLL-U parses to take lines from instead of parsing them (repeatable).")] = None,
    stanza_dir: Annotated[str | None, typer.Option("--stanza-dir", metavar="DIR", help="Stanza models (default: $CHECKPOINTS_STANZA_DIR, else stanza's).")] = None,
    annotation_cache: Annotated[Path | None, typer.Option("--annotation-cache", metavar="DIR", help="The cache [default: $CHECKPOINTS_CACHE_DIR, else ~/.cache/checkpoints].")] = None,
    ner: Annotated[bool, typer.Option("--ner", help="Also tag named entities (NE metrics).")] = False,
    constituency: Annotated[bool, typer.Option("--constituency", help="Also parse constituency trees (CP metrics).")] = False,
    db: Annotated[str | None, typer.Option("--db", metavar="DB", help="Keep the parses in this check-point store (SQLite file or SQLAlchemy URL) instead of the cache folder; metrics --db and meta --db read them there.", show_default=False)] = None,
    engine: EngineName = "local",
    address: Address = None,
    workers: Workers = None,
    gpus_per_worker: GpusPerWorker = 0.0,
) -> None:
    quiet_libraries()
    spec = engine_spec(engine, address, workers, gpus_per_worker)
    request = AnnotateRequest(language, list(inputs), output, list(parsed or []), stanza_dir, annotation_cache, ner,
                              constituency, db, spec)
    with progress_bar() as bar:
        result = annotate_files(request, stage_progress(bar))
    counts = result.counts
    where = f"; CoNLL-U in {output}" if output is not None else ""
    stderr_console().print(
        f"{result.lines} lines: {counts['given']} texts from --parsed, {counts['cached']} from the cache, "
        f"{counts['parsed']} parsed now{where}")
