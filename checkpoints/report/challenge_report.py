"""Challenge-set accuracies as a table (people) and JSON (scripts and the HTML report)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich.table import Table

from checkpoints.evaluate.challenge_scores import CHANCE

READING = (
    f"accuracy: share of items whose good translation the metric scores above the bad one, ties counting half "
    f"(chance {CHANCE}: a metric blind to the phenomenon); ties: share scored alike; interval: 95% bootstrap "
    "percentile interval over items."
)


def challenge_json(challenge: Any, scores: Any | None, written: list[str]) -> dict[str, Any]:
    """The set (how many items of each category and breakage) and, when scored, every accuracy."""
    items = challenge.items
    return {
        "suite": challenge.suite,
        "langpair": challenge.langpair,
        "seed": challenge.seed,
        "items": len(items),
        "categories": dict(Counter(item.category for item in items)),
        "breakages": dict(Counter(item.kind.value for item in items)),
        "reference_is_good": sum(item.reference_is_good for item in items),
        "files": written,
        "metrics": list(scores.metrics) if scores is not None else [],
        "accuracy": [accuracy.to_json() for accuracy in scores.accuracies] if scores is not None else [],
        "resampling": scores.spec.signature().format(version=False) if scores is not None else None,
    }


def challenge_table(report: dict[str, Any]) -> Table:
    """One row per group (all items, each category, each breakage), one accuracy column per metric."""
    table = Table(title=f"challenge set of suite {report['suite']} ({report['langpair']}): {report['items']} items",
                  caption=READING, caption_justify="left")
    for header, justify in (("grouping", "left"), ("group", "left"), ("items", "right")):
        table.add_column(header, justify=justify, overflow="fold")
    for metric in report["metrics"]:
        table.add_column(f"{metric} (ties)", justify="right")
    cells: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for row in report["accuracy"]:
        cells.setdefault((row["grouping"], row["group"]), {})[row["metric"]] = row
    for (grouping, group), by_metric in cells.items():
        count = next(iter(by_metric.values()))["items"]
        values = []
        for metric in report["metrics"]:
            row = by_metric[metric]
            low, high = row["interval"]
            values.append(f"{row['accuracy']:.3f} [{low:.2f}, {high:.2f}] ({row['ties']:.2f})")
        table.add_row(grouping, group, str(count), *values)
    return table
