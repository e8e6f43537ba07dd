"""``checkpoints taxonomy list`` and ``show`` as tables or JSON."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from checkpoints.model import Level
from checkpoints.service.taxonomies import TaxonomyView, level_counts
from checkpoints.taxonomy import Taxonomy


def taxonomy_list_json(taxonomies: Sequence[Taxonomy]) -> list[dict[str, object]]:
    return [
        {
            "name": taxonomy.name,
            "language": taxonomy.language,
            "version": taxonomy.version,
            "categories": len(taxonomy.entries),
            "levels": level_counts(taxonomy),
            "description": taxonomy.description,
        }
        for taxonomy in taxonomies
    ]


def taxonomy_list_table(taxonomies: Sequence[Taxonomy]) -> Table:
    table = Table(title="Built-in taxonomies")
    for column in ("name", "language", "version", "categories", "word / phrase / sentence"):
        table.add_column(column)
    for taxonomy in taxonomies:
        counts = level_counts(taxonomy)
        table.add_row(taxonomy.name, taxonomy.language, taxonomy.version, str(len(taxonomy.entries)),
                      " / ".join(str(counts[level.value]) for level in Level))
    return table


def taxonomy_json(view: TaxonomyView) -> dict[str, object]:
    taxonomy = view.taxonomy
    return {
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
            for entry in view.entries
        ],
    }


def taxonomy_tables(view: TaxonomyView) -> Group:
    """The title line, the description, then one table per level of the categories shown."""
    taxonomy = view.taxonomy
    parts: list[object] = [Text.from_markup(
        f"[bold]{taxonomy.name}[/bold] (language {taxonomy.language}, version {taxonomy.version})")]
    if taxonomy.description:
        parts.append(Text(taxonomy.description))
    for group in Level:
        members = [entry for entry in view.entries if entry.category.level is group]
        if not members:
            continue
        table = Table(title=f"{group.value} level ({len(members)})", show_lines=True, expand=True)
        table.add_column("category", no_wrap=True)
        table.add_column("rule", overflow="fold")
        for entry in members:
            table.add_row(entry.category.name, entry.category.description)
        parts.append(table)
    return Group(*parts)  # type: ignore[arg-type]
