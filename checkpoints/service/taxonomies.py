"""What ``checkpoints taxonomy`` reads: the built-in taxonomies, one taxonomy's categories, a file checked."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import CheckpointsError, check_choice
from checkpoints.model import Level
from checkpoints.taxonomy import CategoryRules, Taxonomy, builtin_taxonomies, load_taxonomy
from checkpoints.taxonomy.loader import validate_taxonomy


def builtin_taxonomy_list() -> list[Taxonomy]:
    """Every taxonomy shipped with the package, loaded (so a broken one fails here, named)."""
    return [load_taxonomy(name) for name in builtin_taxonomies()]


@dataclass(frozen=True, slots=True)
class TaxonomyView:
    """A taxonomy and the categories asked for (all, or one level's)."""

    taxonomy: Taxonomy
    entries: list[CategoryRules]


def taxonomy_view(name: str, level: str | None = None) -> TaxonomyView:
    """A built-in taxonomy or a taxonomy file, its categories limited to ``level`` when given."""
    chosen = None if level is None else Level(check_choice("--level", level, [member.value for member in Level]))
    taxonomy = load_taxonomy(name)
    return TaxonomyView(taxonomy, [entry for entry in taxonomy.entries if chosen is None or entry.category.level is chosen])


def taxonomy_source(name: str) -> str:
    """The taxonomy's XML as it is on disk, to copy and edit."""
    taxonomy = load_taxonomy(name)
    if taxonomy.path is None:  # pragma: no cover - every loaded taxonomy has a file
        raise CheckpointsError(f"{name}: no file to show")
    return taxonomy.path.read_text(encoding="utf-8")


def checked_taxonomy(path: Path) -> Taxonomy:
    """The taxonomy file, checked (schema, references, word lists, names, levels); a problem is
    one ``FILE:LINE: ...`` error."""
    return validate_taxonomy(path)


def level_counts(taxonomy: Taxonomy) -> dict[str, int]:
    """Categories per level, every level present (word, phrase, sentence)."""
    counts = {level.value: 0 for level in Level}
    for entry in taxonomy.entries:
        counts[entry.category.level.value] += 1
    return counts
