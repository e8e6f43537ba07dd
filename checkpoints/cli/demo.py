"""``checkpoints demo``: the whole method on bundled data, offline, in well under a minute."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Group

from checkpoints.cli.build import print_summary
from checkpoints.cli.common import (
    emit,
    progress_bar,
    quiet_libraries,
    stage_progress,
    stderr_console,
    stdout_console,
)
from checkpoints.evaluate.defaults import DEFAULT_SAMPLES
from checkpoints.report.checkpoint_reports import comparison_tables, evaluation_table
from checkpoints.service.demo import DEMO_SUITE, run_demo
from checkpoints.service.option_values import check_at_least

EXAMPLES = """
Builds an English-to-Spanish check-point suite from the bundled Parallel
Universal Dependencies sample (1000 gold-parsed sentence pairs, eflomal
alignments made with FreeDict's and Apertium's English-Spanish dictionaries,
which also weigh the references), evaluates two real rule-based systems made
with Apertium (direct English-Spanish, and English-Galician-Spanish through a
pivot), and compares them per category with a paired bootstrap. Needs no
network and no models.

Example:

  checkpoints demo --db demo.db
"""


def register(app: typer.Typer) -> None:
    app.command("demo", help="Build, evaluate and compare on bundled data (offline).\n" + EXAMPLES)(demo)


def demo(
    db: Annotated[str | None, typer.Option("--db", help="Database to build the demo suite in (default: a file in the system's temporary folder).")] = None,
    samples: Annotated[int, typer.Option("--samples", help="Bootstrap resamples for the comparison.")] = DEFAULT_SAMPLES,
) -> None:


    quiet_libraries()
    check_at_least("--samples", samples, 1)
    started = time.perf_counter()
    with progress_bar(refresh_thread=False) as bar:
        result = run_demo(db, samples=samples, progress=stage_progress(bar))
    compared = result.comparison
    print_summary(DEMO_SUITE, result.build.summary, result.build.suite, result.database, time.perf_counter() - started)
    emit(Group(evaluation_table(compared.evaluation), *comparison_tables(compared.comparison, compared.evaluation)), None)
    if compared.warning:
        stderr_console().print(f"warning: {compared.warning}")
    console = stdout_console()
    console.print(f"\nDone in {time.perf_counter() - started:.1f}s. Explore further:\n")
    quoted = _quote(result.database)
    for line in (
        f"checkpoints show --db {quoted} --category \"Preposition phrase\" --limit 3",
        f"checkpoints show --db {quoted} --checkpoint 1 --checkpoint 2",
        f"checkpoints compare --db {quoted} --system direct --system pivot --method ar --format json",
        f"checkpoints evaluate --db {quoted} --system direct={_quote(result.outputs['direct'])} --match stem --format csv",
        f"checkpoints report --db {quoted} --output demo-report.html",
        f"checkpoints export --db {quoted} --output demo-suite.xml",
        "checkpoints taxonomy show en",
    ):
        console.print(f"  {line}", highlight=False, markup=False, soft_wrap=True)  # a command stays one line
    console.print(f"\nReport: {result.report}", highlight=False, markup=False, soft_wrap=True)
    stderr_console().print(f"(the demo database is {result.database})", markup=False, soft_wrap=True)


def _quote(path: Path) -> str:
    text = str(path)
    return f"'{text}'" if any(c in text for c in " '\"$") else text
