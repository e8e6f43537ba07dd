"""``checkpoints export`` and ``checkpoints import``: the suite interchange XML."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import stderr_console, store_new_suite
from checkpoints.model import Category

EXPORT_EXAMPLES = """
Example:

  checkpoints export --db pud.db --output pud-en-es.xml
"""

IMPORT_EXAMPLES = """
Example:

  checkpoints import --db copy.db pud-en-es.xml
"""


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
    from checkpoints.suite_xml import write_suite_xml

    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        data = load_suite(session, suite)
    write_suite_xml(data, output)
    stderr_console().print(f"wrote {len(data.pairs)} pairs and {len(data.checkpoints)} check-points to {output}")


def taxonomy_categories(name: str) -> Sequence[Category] | None:
    """The categories of a built-in taxonomy (or a taxonomy file path), None if unknown."""
    from checkpoints.errors import TaxonomyError
    from checkpoints.taxonomy import builtin_taxonomies, load_taxonomy

    if name in builtin_taxonomies() or Path(name).is_file():
        try:
            return list(load_taxonomy(name).categories)
        except TaxonomyError:
            return None
    return None


def import_(
    db: Annotated[str, typer.Option("--db", help="Database to import into: an SQLite file (created if missing) or an SQLAlchemy URL.")],
    file: Annotated[Path, typer.Argument(help="Suite XML file.", show_default=False)],
    name: Annotated[str | None, typer.Option("--name", help="Store under this name instead of the file's.")] = None,
) -> None:
    from checkpoints.suite_xml import read_suite_xml

    data = read_suite_xml(file, taxonomy_categories)
    if name:
        data.name = name
    store_new_suite(db, data)
    stderr_console().print(
        f"imported suite {data.name!r}: {len(data.pairs)} pairs, {len(data.checkpoints)} check-points into {db}"
    )
