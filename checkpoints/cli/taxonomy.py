"""``checkpoints taxonomy list | show NAME|PATH | validate PATH``: inspect and check taxonomies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import check_format, stdout_console
from checkpoints.report.formats import json_text
from checkpoints.report.taxonomy_report import (
    taxonomy_json,
    taxonomy_list_json,
    taxonomy_list_table,
    taxonomy_tables,
)
from checkpoints.service.taxonomies import (
    builtin_taxonomy_list,
    checked_taxonomy,
    taxonomy_source,
    taxonomy_view,
)

LIST_EXAMPLES = """
Example:

  checkpoints taxonomy list
  checkpoints taxonomy list --format json
"""

SHOW_EXAMPLES = """
Examples:

  checkpoints taxonomy show en
  checkpoints taxonomy show zh --level phrase
  checkpoints taxonomy show ./my-taxonomy.xml --format json
"""

VALIDATE_EXAMPLES = """
Example:

  checkpoints taxonomy validate ./my-taxonomy.xml

prints "./my-taxonomy.xml: valid (21 categories)", or the first problem as
FILE:LINE: problem on stderr with exit code 1.
"""

GROUP_HELP = """Inspect and check check-point taxonomies.

Built-in taxonomies: en (Zhou et al. 2008, Table 2), zh (Table 1 + Predicate-complement), ud (any UD language).
Write your own as an XML file (copy a built-in one: `checkpoints taxonomy show en --format xml > mine.xml`)
and pass it to `checkpoints build --taxonomy mine.xml`.
""" + SHOW_EXAMPLES


def register(app: typer.Typer) -> None:
    taxonomy_app = typer.Typer(no_args_is_help=True, help=GROUP_HELP)
    taxonomy_app.command("list", help="List the built-in taxonomies with language, version and size.\n" + LIST_EXAMPLES)(
        list_taxonomies
    )
    taxonomy_app.command(
        "show", help="Show a taxonomy's categories, grouped by level, with the rule each one applies.\n" + SHOW_EXAMPLES
    )(show)
    taxonomy_app.command(
        "validate",
        help="Check a taxonomy file: XML schema, node references, word-list files, names and levels.\n"
        + VALIDATE_EXAMPLES,
    )(validate)
    app.add_typer(taxonomy_app, name="taxonomy")


def list_taxonomies(
    output_format: Annotated[str, typer.Option("--format", "-f", help="text (a table) or json.")] = "text",
) -> None:
    check_format(output_format, ("text", "json"))
    taxonomies = builtin_taxonomy_list()
    if output_format == "json":
        typer.echo(json_text(taxonomy_list_json(taxonomies)), nl=False)
    else:
        stdout_console().print(taxonomy_list_table(taxonomies))


def show(
    name: Annotated[str, typer.Argument(metavar="NAME|PATH", help="A built-in taxonomy (en, zh, ud) or a taxonomy file.")],
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="text (tables), json, or xml (the file itself, to copy and edit).")
    ] = "text",
    level_name: Annotated[str | None, typer.Option("--level", help="Only categories of this level: word, phrase or sentence.")] = None,
) -> None:
    check_format(output_format, ("text", "json", "xml"))
    if output_format == "xml":
        typer.echo(taxonomy_source(name), nl=False)
        return
    view = taxonomy_view(name, level_name)
    if output_format == "json":
        typer.echo(json_text(taxonomy_json(view)), nl=False)
    else:
        stdout_console().print(taxonomy_tables(view))


def validate(
    path: Annotated[Path, typer.Argument(metavar="PATH", help="The taxonomy file to check.")],
) -> None:
    taxonomy = checked_taxonomy(path)  # a problem is one line, as every command's: checkpoints: error: FILE:LINE: ...
    typer.echo(f"{path}: valid ({len(taxonomy.entries)} categories)")
