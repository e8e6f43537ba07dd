"""``checkpoints compare``: do systems really differ, category by category?"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import (
    check_format,
    emit,
    parse_runs,
    quiet_libraries,
    stderr_console,
)
from checkpoints.errors import UsageError
from checkpoints.evaluate.defaults import (
    DEFAULT_CORRECTION,
    DEFAULT_MIN_CHECKPOINTS,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
)
from checkpoints.evaluate.matching import parse_max_order
from checkpoints.evaluate.resample import Method, ResampleSpec
from checkpoints.io.files import check_writable
from checkpoints.report.checkpoint_reports import comparison_csv, comparison_tables
from checkpoints.report.formats import json_text
from checkpoints.service.compare import compare_systems
from checkpoints.service.option_values import check_at_least, check_probability, parse_named_files

EXAMPLES = """
Resamples the stored per-check-point statistics of each system's latest
evaluation (paired bootstrap over sentence pairs by default, Koehn 2004), and
flags differences that stay significant after correcting for the number of
categories compared (Holm by default). Categories with fewer than
--min-checkpoints check-points are shown but never flagged. With more than two
systems, every pair is compared and each category ranks the systems in
significance clusters. NAME=FILE evaluates a system first.

Examples:

  checkpoints compare --db pud.db --system direct --system pivot

  checkpoints compare --db pud.db --baseline base --system new=new.es \\
      --samples 2000 --method ar --correction bh --format json

  checkpoints compare --db pud.db --system direct --system pivot --run direct=3
"""


def register(app: typer.Typer) -> None:
    app.command("compare", help="Compare systems per category with significance tests.\n" + EXAMPLES)(compare)


def compare(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    system: Annotated[list[str], typer.Option("--system", help="A system evaluated before (NAME), or NAME=FILE to evaluate it now; repeat. The baseline counts as one.")],
    baseline: Annotated[str | None, typer.Option("--baseline", help="Compare every other system with this one only.")] = None,
    samples: Annotated[int, typer.Option("--samples", help="Resamples (bootstrap) or trials (ar).")] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: the same seed gives the same resamples.")] = DEFAULT_SEED,
    method: Annotated[str, typer.Option("--method", help="bootstrap (paired, full-size, with replacement) or ar (approximate randomization).")] = "bootstrap",
    correction: Annotated[str, typer.Option("--correction", help="Multiple-comparison correction: holm, bh (Benjamini-Hochberg) or none.")] = DEFAULT_CORRECTION,
    alpha: Annotated[float, typer.Option("--alpha", help="Significance level after correction.")] = 0.05,
    min_checkpoints: Annotated[int, typer.Option("--min-checkpoints", help="Categories with fewer check-points are never flagged.")] = DEFAULT_MIN_CHECKPOINTS,
    match: Annotated[str, typer.Option("--match", help="For NAME=FILE systems: normal, lower or stem.")] = "normal",
    tokenize: Annotated[str | None, typer.Option("--tokenize", help="For NAME=FILE systems: the match-time tokenizer.")] = None,
    max_order: Annotated[str, typer.Option("--max-order", help="For NAME=FILE systems: the longest n-gram counted, in words, or `all`.")] = "4",
    output_format: Annotated[str, typer.Option("--format", "-f", help="table, json or csv.")] = "table",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to this file instead of stdout.")] = None,
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
    run: Annotated[list[str] | None, typer.Option("--run", help="NAME=ID: compare this stored evaluation run of a system instead of its latest; repeat.")] = None,
    no_store: Annotated[bool, typer.Option("--no-store", help="Do not keep the comparison as a run (read-only databases are detected by themselves).")] = False,
) -> None:

    quiet_libraries()
    check_format(output_format, ("table", "json", "csv"))
    if method not in ("bootstrap", "ar"):
        raise UsageError(f"--method {method!r}: choose bootstrap or ar")
    check_probability("--alpha", alpha)
    check_at_least("--samples", samples, 1)
    if output is not None:
        check_writable(output)
    systems: list[str | tuple[str, Path]] = [
        value if "=" not in value else parse_named_files([value], "--system")[0] for value in system
    ]
    result = compare_systems(
        db, systems, baseline=baseline, suite_name=suite, runs=parse_runs(run or []),
        spec=ResampleSpec(Method(method), samples, seed), correction=correction, alpha=alpha,
        min_checkpoints=min_checkpoints, match=match, tokenize=tokenize, max_order=parse_max_order(max_order),
        keep=not no_store,
    )
    comparison, evaluation, report = result.comparison, result.evaluation, result.report
    if result.warning:
        stderr_console().print(f"warning: {result.warning}")
    if result.run_id is None and not no_store:
        stderr_console().print("note: the database is read-only, so this comparison was not kept as a run")
    if output_format == "json":
        emit(json_text(report), output)
    elif output_format == "csv":
        emit(comparison_csv(comparison, evaluation), output)
    else:
        from rich.console import Group
        from rich.text import Text

        summary = [Text(sentence) for sentence in report["summary"]]  # names are data, not markup
        emit(Group(*comparison_tables(comparison, evaluation), Text(""), *summary), output)
    if output is not None:
        stderr_console().print(f"wrote {output}")
