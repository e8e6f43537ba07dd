"""``checkpoints export`` and ``checkpoints import``: the suite interchange XML."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from checkpoints.cli.common import stderr_console, store_new_suite

if TYPE_CHECKING:
    from checkpoints.suite_xml import CategoryFindings

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

MAX_LISTED = 10
"""Unknown categories named in a warning; more are counted ("and 5 more")."""


def register(app: typer.Typer) -> None:
    app.command("export", help="Write a suite as interchange XML.\n" + EXPORT_EXAMPLES)(export)
    app.command("import", help="Read a suite from interchange XML into a database.\n" + IMPORT_EXAMPLES)(import_)


def export(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="XML file to write.")],
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
) -> None:
    from checkpoints.db.repo import load_suite
    from checkpoints.db.session import open_engine, transaction
    from checkpoints.io.files import check_writable
    from checkpoints.suite_xml import write_suite_xml

    check_writable(output)  # before loading: a large suite takes seconds to load
    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        data = load_suite(session, suite)
    write_suite_xml(data, output)
    stderr_console().print(f"wrote {len(data.pairs)} pairs and {len(data.checkpoints)} check-points to {output}")


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
) -> None:
    from checkpoints.errors import InputError
    from checkpoints.suite_xml import load_suite_xml

    imported = load_suite_xml(file)
    findings = imported.findings
    problem = findings_problem(findings)
    if problem is not None:
        if strict:
            raise InputError(file, None, f"{problem} (--strict: nothing imported)")
        if not findings.taxonomy_known:
            stored = _plural(findings.user_categories, "category is", "categories are")
            problem += f": its {findings.user_categories} {stored} stored as user-defined"
        sys.stderr.write(f"warning: {file}: {problem}\n")
    data = imported.suite
    if name:
        data.name = name
    store_new_suite(db, data)
    stderr_console().print(
        f"imported suite {data.name!r}: {len(data.pairs)} pairs, {len(data.checkpoints)} check-points into {db}"
    )


def findings_problem(findings: CategoryFindings) -> str | None:
    """One line about the suite's taxonomy or categories, None when there is nothing to say."""
    if not findings.taxonomy_known:
        from checkpoints.taxonomy import builtin_taxonomies

        known = ", ".join(builtin_taxonomies())
        return f"taxonomy {findings.taxonomy!r} is neither built in ({known}) nor a taxonomy file"
    if not findings.undeclared:
        return None
    listed = [f"{name!r} ({count})" for name, count in list(findings.undeclared.items())[:MAX_LISTED]]
    if len(findings.undeclared) > MAX_LISTED:
        listed.append(f"and {len(findings.undeclared) - MAX_LISTED} more")
    count = findings.undeclared_checkpoints
    return (
        f"{count} {_plural(count, 'check-point names a category', 'check-points name categories')} "
        f"not in taxonomy {findings.taxonomy}: {', '.join(listed)}"
    )


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many
