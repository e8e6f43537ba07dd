"""``checkpoints evaluate``: score MT systems on a suite, per check-point, category, group and taxonomy."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import (
    check_format,
    emit,
    quiet_libraries,
    stderr_console,
)
from checkpoints.cli.engine_options import Address, EngineName, GpusPerWorker, Workers, engine_spec
from checkpoints.evaluate.matching import parse_max_order
from checkpoints.io.files import check_writable
from checkpoints.report.checkpoint_json import evaluation_json
from checkpoints.report.checkpoint_reports import evaluation_csv, evaluation_table
from checkpoints.report.formats import json_text
from checkpoints.service.evaluate import evaluate_systems
from checkpoints.service.option_values import parse_named_files
from checkpoints.tokenizers import TOKENIZERS

EXAMPLES = """
Scores follow Zhou et al. (2008), formulas 2-5: per check-point the best
reference r* (by DM x matched/total), recall over a set of check-points,
times a length penalty when translations are longer than the references.
n-grams of up to --max-order words are counted (4 by default, like BLEU;
`all` counts every order, as the paper does).
Every run is stored in the database (for `compare` and `show`).

Examples:

  checkpoints evaluate --db pud.db --system direct=direct.es --system pivot=pivot.es

  checkpoints evaluate --db pud.db --system mt=out.es --match stem \\
      --category "Noun phrase" --category "Preposition phrase" --format json

  checkpoints evaluate --db pud.db --system mt=out.es --max-order all
"""


def register(app: typer.Typer) -> None:
    app.command("evaluate", help="Score MT systems on a check-point suite.\n" + EXAMPLES)(evaluate)


def evaluate(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    system: Annotated[list[str], typer.Option("--system", help="NAME=FILE: a system's translations, one line per sentence pair; repeat.")],
    match: Annotated[str, typer.Option("--match", help="n-gram matching: normal, lower or stem (Snowball stemmer of the target language).")] = "normal",
    category: Annotated[list[str] | None, typer.Option("--category", help="Evaluate only this category; repeat for several.")] = None,
    tokenize: Annotated[str | None, typer.Option("--tokenize", help=f"Match-time tokenizer: {', '.join(TOKENIZERS)} (default: zh for Chinese targets, else words: intl's rules, the same for every chunk of text; metrics default to 13a, as sacreBLEU does, but 13a leaves “Clinton’s” glued and a reference word would not match).")] = None,
    max_order: Annotated[str, typer.Option("--max-order", help="Longest n-gram counted per reference, in words (gaps excluded), or `all` for Zhou's every-order count.")] = "4",
    alternatives: Annotated[bool, typer.Option("--alternatives/--no-alternatives", help="A word-level check-point also matches a dictionary translation of its source word (the suite's stored lexicon), its reference in another inflection (Snowball stem) or, for English, a WordNet synonym. Off by default: on WMT21 TED en-de the accepted alternatives lie in rated errors as often as misses do (docs/attribution.md).")] = False,
    output_format: Annotated[str, typer.Option("--format", "-f", help="table, json or csv.")] = "table",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to this file instead of stdout.")] = None,
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
    engine: EngineName = "local",
    address: Address = None,
    workers: Workers = None,
    gpus_per_worker: GpusPerWorker = 0.0,
) -> None:

    quiet_libraries()
    check_format(output_format, ("table", "json", "csv"))
    spec = engine_spec(engine, address, workers, gpus_per_worker)
    systems = parse_named_files(system, "--system")
    if output is not None:
        check_writable(output)
    evaluation = evaluate_systems(
        db, systems, suite_name=suite, match=match, tokenize=tokenize, categories=category,
        max_order=parse_max_order(max_order), alternatives=alternatives, engine=spec,
    )
    if output_format == "json":
        emit(json_text(evaluation_json(evaluation)), output)
    elif output_format == "csv":
        emit(evaluation_csv(evaluation), output)
    else:
        emit(evaluation_table(evaluation), output)
    for warning in evaluation.warnings:
        stderr_console().print(f"warning: {warning}", markup=False, highlight=False, soft_wrap=True)
    if output is not None:
        stderr_console().print(f"wrote {output}")
    run_ids = sorted(set(evaluation.run_ids.values()))
    if run_ids:  # what `compare --run NAME=ID` and `runs show` take
        stderr_console().print(f"stored as run {', '.join(map(str, run_ids))} (checkpoints runs list --db {db})",
                               markup=False, highlight=False, soft_wrap=True)
