"""``checkpoints show``: drill down to single check-points (Zhou et al. 2008, Tables 8–9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from checkpoints.cli.common import check_format, emit
from checkpoints.errors import UsageError
from checkpoints.report.formats import json_text
from checkpoints.service.show import show_checkpoints

if TYPE_CHECKING:
    from rich.panel import Panel

EXAMPLES = """
For each check-point: the source with the check-point's words marked [like
this], each reference with its DM, and each evaluated system's translation with
the matched n-grams, matched/total per reference, the chosen reference r* and
the check-point's score (matched/total of r*).

Examples:

  checkpoints show --db pud.db --checkpoint 8

  checkpoints show --db pud.db --category "Preposition phrase" --system pivot --limit 3
"""


def register(app: typer.Typer) -> None:
    app.command("show", help="Show check-points with their references and each system's matches.\n" + EXAMPLES)(show)


def show(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    category: Annotated[str | None, typer.Option("--category", help="Only check-points of this category (case and spacing do not matter).")] = None,
    system: Annotated[list[str] | None, typer.Option("--system", help="Only this evaluated system; repeat for several (default: all evaluated).")] = None,
    checkpoint: Annotated[list[int] | None, typer.Option("--checkpoint", help="Check-point id; repeat for several.")] = None,
    limit: Annotated[int, typer.Option("--limit", help="Show at most this many check-points.")] = 5,
    output_format: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
) -> None:


    check_format(output_format, ("text", "json"))
    if limit < 1:
        raise UsageError(f"--limit must be at least 1, not {limit}")
    drilldown = show_checkpoints(db, suite_name=suite, category=category, systems=system, ids=checkpoint, limit=limit)
    if output_format == "json":
        emit(json_text(drilldown.to_json()), None)
    else:
        emit(Group(*[render(item) for item in drilldown.checkpoints]), None)


def render(item: dict[str, Any]) -> Panel:
    """One check-point as a panel: the span marked, references with DM, each system's matches."""

    marked = set(item["span"])
    source = Text()
    for index, word in enumerate(item["source"]):
        if index:
            source.append(" ")
        source.append(f"[{word}]" if index in marked else word, style="bold yellow" if index in marked else "")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim")
    table.add_column()
    table.add_row("source", source)
    for ref in item["references"]:
        table.add_row(f"reference {ref['reference']}", Text(f"{ref['tokens']}   (DM = {ref['dm']:.2f})"))
    for name, system in item["systems"].items():
        table.add_row(Text(name, style="bold"), system["translation"])
        if not system["evaluated"]:
            table.add_row("", Text("not in this system's evaluated categories", style="dim"))
            continue
        for ref in system["references"]:
            ngrams = "; ".join(ref["matched_ngrams"]) or "—"
            star = "  ← r*" if ref["chosen"] else ""
            table.add_row("", f"ref {ref['reference']}: {ref['matched']}/{ref['total']} matched: {ngrams}{star}")
        accepted = f" (matched by an alternative: {system['alternative']})" if system.get("alternative") else ""
        table.add_row("", Text(f"score {system['score']:.2f}{accepted}", style="bold"))
    title = f"check-point {item['id']} · {item['category']} ({item['level']}) · pair {item['pair']}"
    return Panel(table, title=title, title_align="left")
