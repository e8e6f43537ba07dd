"""``checkpoints taxonomy list | show NAME|PATH | validate PATH``: inspect and check taxonomies."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from checkpoints.cli.common import check_choice, check_format, stdout_console
from checkpoints.errors import CheckpointsError
from checkpoints.model import Level
from checkpoints.report.formats import json_text
from checkpoints.taxonomy import builtin_taxonomies, load_taxonomy
from checkpoints.taxonomy.loader import validate_taxonomy

if TYPE_CHECKING:
    from checkpoints.taxonomy import Taxonomy

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
    taxonomies = [load_taxonomy(name) for name in builtin_taxonomies()]
    if output_format == "json":
        rows = [
            {
                "name": taxonomy.name,
                "language": taxonomy.language,
                "version": taxonomy.version,
                "categories": len(taxonomy.entries),
                "levels": _level_counts(taxonomy),
                "description": taxonomy.description,
            }
            for taxonomy in taxonomies
        ]
        typer.echo(json_text(rows), nl=False)
        return
    table = Table(title="Built-in taxonomies")
    for column in ("name", "language", "version", "categories", "word / phrase / sentence"):
        table.add_column(column)
    for taxonomy in taxonomies:
        counts = _level_counts(taxonomy)
        table.add_row(
            taxonomy.name,
            taxonomy.language,
            taxonomy.version,
            str(len(taxonomy.entries)),
            " / ".join(str(counts[level.value]) for level in Level),
        )
    stdout_console().print(table)


def show(
    name: Annotated[str, typer.Argument(metavar="NAME|PATH", help="A built-in taxonomy (en, zh, ud) or a taxonomy file.")],
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="text (tables), json, or xml (the file itself, to copy and edit).")
    ] = "text",
    level_name: Annotated[str | None, typer.Option("--level", help="Only categories of this level: word, phrase or sentence.")] = None,
) -> None:


    check_format(output_format, ("text", "json", "xml"))
    level = None if level_name is None else Level(check_choice("--level", level_name, [m.value for m in Level]))
    taxonomy = load_taxonomy(name)
    if output_format == "xml":
        if taxonomy.path is None:  # pragma: no cover - every loaded taxonomy has a file
            raise CheckpointsError(f"{name}: no file to show")
        typer.echo(taxonomy.path.read_text(encoding="utf-8"), nl=False)
        return
    entries = [entry for entry in taxonomy.entries if level is None or entry.category.level is level]
    if output_format == "json":
        document = {
            "name": taxonomy.name,
            "language": taxonomy.language,
            "version": taxonomy.version,
            "description": taxonomy.description,
            "path": str(taxonomy.path) if taxonomy.path is not None else None,
            "builtin": taxonomy.builtin,
            "categories": [
                {
                    "name": entry.category.name,
                    "level": entry.category.level.value,
                    "description": entry.category.description,
                    "constituent": list(entry.constituent_labels),
                    "reference": entry.reference.value,
                }
                for entry in entries
            ],
        }
        typer.echo(json_text(document), nl=False)
        return
    console = stdout_console()
    console.print(f"[bold]{taxonomy.name}[/bold] (language {taxonomy.language}, version {taxonomy.version})")
    if taxonomy.description:
        console.print(taxonomy.description)
    for group in Level:
        members = [entry for entry in entries if entry.category.level is group]
        if not members:
            continue
        table = Table(title=f"{group.value} level ({len(members)})", show_lines=True, expand=True)
        table.add_column("category", no_wrap=True)
        table.add_column("rule", overflow="fold")
        for entry in members:
            table.add_row(entry.category.name, entry.category.description)
        console.print(table)


def validate(
    path: Annotated[Path, typer.Argument(metavar="PATH", help="The taxonomy file to check.")],
) -> None:

    taxonomy = validate_taxonomy(path)  # a problem is one line, as every command's: checkpoints: error: FILE:LINE: ...
    typer.echo(f"{path}: valid ({len(taxonomy.entries)} categories)")


def _level_counts(taxonomy: Taxonomy) -> dict[str, int]:
    counts = {level.value: 0 for level in Level}
    for entry in taxonomy.entries:
        counts[entry.category.level.value] += 1
    return counts
