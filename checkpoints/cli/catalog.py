"""``checkpoints suites`` and ``checkpoints runs``: list, show, rename and delete what a store holds."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Group
from rich.table import Table

from checkpoints.cli.common import check_format, emit, stderr_console
from checkpoints.report.formats import json_text
from checkpoints.service import catalog

DB_OPTION = typer.Option("--db", help="The database: an SQLite file or an SQLAlchemy URL.")
FORMAT_OPTION = typer.Option("--format", "-f", help="table or json.")

SUITES_HELP = """List, show, rename and delete the suites of a store.

Examples:

  checkpoints suites list --db pud.db

  checkpoints suites show --db pud.db pud-en-es --format json

  checkpoints suites rename --db pud.db pud-en-es pud-en-es-2026

  checkpoints suites delete --db pud.db old-suite
"""

RUNS_HELP = """List, show and delete the stored evaluation and comparison runs. Their ids are what
`compare --run NAME=ID` takes.

Examples:

  checkpoints runs list --db pud.db

  checkpoints runs list --db pud.db --suite pud-en-es --format json

  checkpoints runs show --db pud.db 3

  checkpoints runs delete --db pud.db 3
"""


def register(app: typer.Typer) -> None:
    suites_app = typer.Typer(no_args_is_help=True, help=SUITES_HELP)
    suites_app.command("list", help="The store's suites: languages, taxonomy, pairs, check-points, runs.\n\n"
                       "Example:\n\n  checkpoints suites list --db pud.db")(list_suites)
    suites_app.command("show", help="One suite: its categories' check-points, evaluated systems, build options.\n\n"
                       "Example:\n\n  checkpoints suites show --db pud.db pud-en-es")(show_suite)
    suites_app.command("rename", help="Give a suite another name.\n\nExample:\n\n"
                       "  checkpoints suites rename --db pud.db old new")(rename_suite)
    suites_app.command("delete", help="Delete a suite with its runs.\n\nExample:\n\n"
                       "  checkpoints suites delete --db pud.db old-suite")(delete_suite)
    app.add_typer(suites_app, name="suites")
    runs_app = typer.Typer(no_args_is_help=True, help=RUNS_HELP)
    runs_app.command("list", help="The stored runs, oldest first: id, suite, kind, time, systems.\n\n"
                     "Example:\n\n  checkpoints runs list --db pud.db")(list_runs)
    runs_app.command("show", help="One run: its systems, signature and options.\n\nExample:\n\n"
                     "  checkpoints runs show --db pud.db 3")(show_run)
    runs_app.command("delete", help="Delete one run and its results.\n\nExample:\n\n"
                     "  checkpoints runs delete --db pud.db 3")(delete_run)
    app.add_typer(runs_app, name="runs")


def list_suites(
    db: Annotated[str, DB_OPTION],
    output_format: Annotated[str, FORMAT_OPTION] = "table",
) -> None:

    check_format(output_format, ("table", "json"))
    found = catalog.suites(db)
    if output_format == "json":
        emit(json_text([entry.to_json() for entry in found]), None)
        return
    table = Table(title=f"suites in {db}")
    for header in ("name", "languages", "taxonomy", "pairs", "check-points", "runs", "created"):
        table.add_column(header, justify="right" if header in ("pairs", "check-points", "runs") else "left")
    for entry in found:
        table.add_row(entry.name, f"{entry.source_lang}→{entry.target_lang}", entry.taxonomy, str(entry.pairs),
                      str(entry.checkpoints), str(entry.runs), entry.created.isoformat(sep=" ", timespec="seconds"))
    emit(table, None)


def show_suite(
    name: Annotated[str, typer.Argument(help="The suite's name.")],
    db: Annotated[str, DB_OPTION],
    output_format: Annotated[str, FORMAT_OPTION] = "table",
) -> None:


    check_format(output_format, ("table", "json"))
    details = catalog.suite_details(db, name)
    if output_format == "json":
        emit(json_text(details.to_json()), None)
        return
    entry = details.entry
    head = (f"{entry.name}: {entry.source_lang}→{entry.target_lang}, taxonomy {entry.taxonomy}, {entry.pairs} pairs, "
            f"{entry.checkpoints} check-points, {entry.runs} runs; evaluated: {', '.join(details.systems) or 'none'}")
    categories = Table(title="check-points per category")
    categories.add_column("category")
    categories.add_column("check-points", justify="right")
    for category, count in details.categories.items():
        categories.add_row(category, str(count))
    options = _options_table("built with", details.options)
    emit(Group(head, categories, options), None)


def rename_suite(
    old: Annotated[str, typer.Argument(help="The suite's name now.")],
    new: Annotated[str, typer.Argument(help="Its new name.")],
    db: Annotated[str, DB_OPTION],
) -> None:

    catalog.rename_suite(db, old, new)
    stderr_console().print(f"renamed suite {old!r} to {new!r}", markup=False)


def delete_suite(
    name: Annotated[str, typer.Argument(help="The suite to delete, with its runs.")],
    db: Annotated[str, DB_OPTION],
) -> None:

    catalog.delete_suite(db, name)
    stderr_console().print(f"deleted suite {name!r}", markup=False)


def list_runs(
    db: Annotated[str, DB_OPTION],
    suite: Annotated[str | None, typer.Option("--suite", help="Only this suite's runs.")] = None,
    output_format: Annotated[str, FORMAT_OPTION] = "table",
) -> None:

    check_format(output_format, ("table", "json"))
    found = catalog.runs(db, suite)
    if output_format == "json":
        emit(json_text([entry.to_json() for entry in found]), None)
        return
    table = Table(title=f"runs in {db}")
    for header in ("id", "suite", "kind", "created", "systems"):
        table.add_column(header, justify="right" if header == "id" else "left", overflow="fold")
    for entry in found:
        table.add_row(str(entry.id), entry.suite, entry.kind, entry.created.isoformat(sep=" ", timespec="seconds"),
                      ", ".join(entry.systems))
    emit(table, None)


def show_run(
    run_id: Annotated[int, typer.Argument(help="The run's id (`runs list`).")],
    db: Annotated[str, DB_OPTION],
    output_format: Annotated[str, FORMAT_OPTION] = "table",
) -> None:


    check_format(output_format, ("table", "json"))
    details = catalog.run_details(db, run_id)
    if output_format == "json":
        emit(json_text(details.to_json()), None)
        return
    entry = details.entry
    head = (f"run {entry.id}: {entry.kind} of suite {entry.suite}, "
            f"{entry.created.isoformat(sep=' ', timespec='seconds')}; systems: {', '.join(entry.systems)}\n"
            f"signature: {entry.signature}")
    options = _options_table("options", details.options)
    emit(Group(head, options), None)


def delete_run(
    run_id: Annotated[int, typer.Argument(help="The run to delete (`runs list`).")],
    db: Annotated[str, DB_OPTION],
) -> None:

    catalog.delete_run(db, run_id)
    stderr_console().print(f"deleted run {run_id}", markup=False)


def _options_table(title: str, options: dict[str, object]) -> Table:
    """A two-column table of stored options (how a suite was built, how a run matched)."""
    table = Table(title=title)
    table.add_column("option")
    table.add_column("value", overflow="fold")
    for key, value in options.items():
        table.add_row(key, str(value))
    return table
