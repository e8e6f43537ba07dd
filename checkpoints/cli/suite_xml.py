"""``checkpoints export`` and ``checkpoints import``: the suite interchange XML."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import stderr_console
from checkpoints.service.interchange import export_suite, import_suite

EXPORT_EXAMPLES = """
Example:

  checkpoints export --db pud.db --output pud-en-es.xml
"""

IMPORT_EXAMPLES = """
Check-points whose category is not in the suite's taxonomy (unless they
declare it with a level attribute, as export writes for user-defined
categories), and a taxonomy that is neither built in (en, zh, ud) nor a
taxonomy file, give a one-line warning; the suite is stored with those
categories as user-defined ones. With --strict the import is refused
instead (exit 1) and nothing is stored.

Example:

  checkpoints import --db copy.db pud-en-es.xml
  checkpoints import --db copy.db --strict pud-en-es.xml.gz
"""


def register(app: typer.Typer) -> None:
    app.command("export", help="Write a suite as interchange XML.\n" + EXPORT_EXAMPLES)(export)
    app.command("import", help="Read a suite from interchange XML into a database.\n" + IMPORT_EXAMPLES)(import_)


def export(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="XML file to write.")],
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
) -> None:

    written = export_suite(db, output, suite_name=suite)
    stderr_console().print(f"wrote {written.pairs} pairs and {written.checkpoints} check-points to {output}")


def import_(
    db: Annotated[str, typer.Option("--db", help="Database to import into: an SQLite file (created if missing) or an SQLAlchemy URL.")],
    file: Annotated[
        Path,
        typer.Argument(
            metavar="SUITE.xml", help="Suite interchange XML file (gzip-compressed too).", show_default=False
        ),
    ],
    name: Annotated[str | None, typer.Option("--name", help="Store under this name instead of the file's.")] = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Refuse a suite whose check-points name categories outside its taxonomy, or whose taxonomy is unknown.",
        ),
    ] = False,
    replace: Annotated[bool, typer.Option("--replace", help="Replace a stored suite of the same name (in one transaction).")] = False,
) -> None:

    imported = import_suite(db, file, name=name, strict=strict, replace=replace)
    warning = imported.findings.warning()
    if warning is not None:
        sys.stderr.write(f"warning: {file}: {warning}\n")
    stderr_console().print(
        f"imported suite {imported.name!r}: {imported.pairs} pairs, {imported.checkpoints} check-points into {db}"
    )
