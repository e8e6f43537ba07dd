"""``checkpoints show``: drill down to single check-points (Zhou et al. 2008, Tables 8–9)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from checkpoints.cli.common import check_format, emit
from checkpoints.model import CheckPoint, SuiteData

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
    db: Annotated[Path, typer.Option("--db", help="The suite database.")],
    category: Annotated[str | None, typer.Option("--category", help="Only check-points of this category.")] = None,
    system: Annotated[list[str] | None, typer.Option("--system", help="Only this evaluated system; repeat for several (default: all evaluated).")] = None,
    checkpoint: Annotated[list[int] | None, typer.Option("--checkpoint", help="Check-point id; repeat for several.")] = None,
    limit: Annotated[int, typer.Option("--limit", help="Show at most this many check-points.")] = 5,
    output_format: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
) -> None:
    from checkpoints.db.repo import evaluated_systems, find_suite, latest_results, load_suite
    from checkpoints.db.session import open_engine, transaction
    from checkpoints.errors import SuiteError, UsageError

    check_format(output_format, ("text", "json"))
    if limit < 1:
        raise UsageError(f"--limit must be at least 1, not {limit}")
    engine = open_engine(db, create=False)
    try:
        with transaction(engine) as session:
            data = load_suite(session, suite)
            suite_id = find_suite(session, data.name).id
            known_systems = evaluated_systems(session, suite_id)
            names = list(system) if system else known_systems
            results = {name: latest_results(session, suite_id, name) for name in names}
    finally:
        engine.dispose()
    selected = select_checkpoints(data, category, checkpoint, limit)
    if not selected:
        raise SuiteError(f"suite {data.name!r} has no check-points of category {category!r}")
    items = [describe(data, cp, results) for cp in selected]
    if output_format == "json":
        emit(json.dumps({"suite": data.name, "checkpoints": items}, ensure_ascii=False, indent=2) + "\n", None)
    else:
        emit(Group(*[render(item) for item in items]), None)


def select_checkpoints(data: SuiteData, category: str | None, ids: list[int] | None, limit: int) -> list[CheckPoint]:
    from checkpoints.errors import SuiteError

    if category is not None and category not in {c.name for c in data.categories}:
        names = ", ".join(c.name for c in data.categories)
        raise SuiteError(f"no category {category!r} in suite {data.name!r} (categories: {names})")
    by_id = {cp.id: cp for cp in data.checkpoints}
    if ids:
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise SuiteError(f"no check-point {missing[0]} in suite {data.name!r} (ids run from 1 to {len(by_id)})")
        chosen = [by_id[i] for i in ids]
        if category is not None:
            chosen = [cp for cp in chosen if cp.category == category]
        return chosen[:limit]
    return [cp for cp in data.checkpoints if category is None or cp.category == category][:limit]


def describe(data: SuiteData, checkpoint: CheckPoint, results: dict[str, Any]) -> dict[str, Any]:
    """The drill-down of one check-point as plain data (what ``--format json`` prints)."""
    from checkpoints.evaluate.explain import explain
    from checkpoints.evaluate.matching import parse_max_order

    pair_index = next(i for i, pair in enumerate(data.pairs) if pair.id == checkpoint.pair_id)
    pair = data.pairs[pair_index]
    marked = set(checkpoint.source_indices)
    item: dict[str, Any] = {
        "id": checkpoint.id,
        "category": checkpoint.category,
        "level": data.category(checkpoint.category).level.value,
        "pair": pair.id,
        "source": pair.source.forms,
        "span": checkpoint.source_indices,
        "marked_source": " ".join(f"[{w}]" if i in marked else w for i, w in enumerate(pair.source.forms)),
        "references": [
            {"reference": ref.reference_index + 1, "dm": ref.dm, "tokens": " ".join(ref.tokens),
             "sentence": pair.references[ref.reference_index].text}
            for ref in checkpoint.references
        ],
        "systems": {},
    }
    for name, result in results.items():
        options = result.run_options
        translation = result.translations[pair_index]
        if checkpoint.id not in result.checkpoints:
            item["systems"][name] = {"translation": translation, "evaluated": False}
            continue
        explanation = explain(
            checkpoint, translation, tokenize=str(options.get("tokenize", "13a")),
            match=str(options.get("match", "normal")), language=data.target_lang,
            # runs stored before --max-order existed counted every order
            max_order=parse_max_order(options.get("max_order", "all")),
        )
        item["systems"][name] = {
            "translation": translation,
            "evaluated": True,
            "references": [
                {"reference": m.reference_index + 1, "dm": m.dm, "matched_ngrams": m.matched_ngrams,
                 "matched": m.matched, "total": m.total, "chosen": m.position == explanation.chosen}
                for m in explanation.references
            ],
            "score": explanation.score,
            "weighted": explanation.weighted,
        }
    return item


def render(item: dict[str, Any]) -> Panel:
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
        table.add_row("", Text(f"score {system['score']:.2f}", style="bold"))
    title = f"check-point {item['id']} · {item['category']} ({item['level']}) · pair {item['pair']}"
    return Panel(table, title=title, title_align="left")
