"""``checkpoints demo``: the whole method on bundled data, offline, in well under a minute."""

from __future__ import annotations

import tempfile
import time
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Group

from checkpoints.cli.common import emit, quiet_libraries, stderr_console, stdout_console

DEMO_SUITE = "pud-en-es-demo"
SYSTEMS = ("direct", "pivot")

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
    db: Annotated[Path | None, typer.Option("--db", help="Database to build the demo suite in (default: a file in the system's temporary folder).")] = None,
    samples: Annotated[int, typer.Option("--samples", help="Bootstrap resamples for the comparison.")] = 1000,
) -> None:
    from checkpoints.cli.build import print_summary
    from checkpoints.cli.common import store_new_suite
    from checkpoints.db.repo import delete_suite, suite_names
    from checkpoints.db.session import open_engine, transaction
    from checkpoints.evaluate.resample import ResampleSpec
    from checkpoints.report.checkpoint_reports import comparison_tables, evaluation_table
    from checkpoints.service.build import BuildRequest, build_suite
    from checkpoints.service.compare import compare_systems

    quiet_libraries()
    database = db if db is not None else Path(tempfile.gettempdir()) / "checkpoints-demo.db"
    started = time.perf_counter()
    with ExitStack() as stack:
        folder = stack.enter_context(resources.as_file(resources.files("checkpoints") / "data" / "demo"))
        request = BuildRequest(
            source_lang="en",
            target_lang="es",
            source_conllu=folder / "en_pud.conllu.gz",
            reference_conllu=[folder / "es_pud.conllu.gz"],
            alignments=[folder / "en-es.align"],
            dictionaries=[folder / "freedict-eng-spa.index", folder / "apertium-eng-spa.tsv"],
            taxonomy="en",
            name=DEMO_SUITE,
        )
        result = build_suite(request)
        if Path(database).exists():
            engine = open_engine(database)
            with transaction(engine) as session:
                if DEMO_SUITE in suite_names(session):
                    delete_suite(session, DEMO_SUITE)
            engine.dispose()
        store_new_suite(database, result.suite)
        print_summary(DEMO_SUITE, result.summary, result.suite, database, time.perf_counter() - started)
        systems = [(name, folder / f"{name}.es.txt") for name in SYSTEMS]
        result = compare_systems(
            database, systems, baseline="direct", suite_name=DEMO_SUITE, spec=ResampleSpec(samples=samples),
            correction="holm", min_checkpoints=30,
        )
        evaluation, comparison = result.evaluation, result.comparison
        emit(Group(evaluation_table(evaluation), *comparison_tables(comparison, evaluation)), None)
        if result.warning:
            stderr_console().print(f"warning: {result.warning}")
        outputs = {name: path for name, path in systems}
    console = stdout_console()
    console.print(f"\nDone in {time.perf_counter() - started:.1f}s. Explore further:\n")
    quoted = _quote(database)
    for line in (
        f"checkpoints show --db {quoted} --category \"Preposition phrase\" --limit 3",
        f"checkpoints show --db {quoted} --checkpoint 1 --checkpoint 2",
        f"checkpoints compare --db {quoted} --system direct --system pivot --method ar --format json",
        f"checkpoints evaluate --db {quoted} --system direct={_quote(outputs['direct'])} --match stem --format csv",
        f"checkpoints export --db {quoted} --output demo-suite.xml",
        "checkpoints taxonomy show en",
    ):
        console.print(f"  {line}", highlight=False)
    stderr_console().print(f"(the demo database is {database})")


def _quote(path: Path) -> str:
    text = str(path)
    return f"'{text}'" if any(c in text for c in " '\"$") else text
