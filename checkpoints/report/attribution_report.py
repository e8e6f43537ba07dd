"""Error attribution as tables and CSV (JSON is :meth:`Attribution.to_json`)."""

from __future__ import annotations

import csv
import io

from rich.console import Group
from rich.table import Table

from checkpoints.evaluate.attribution import (
    ALL,
    MIN_RELIABLE,
    SEVERITIES,
    Attribution,
    CategoryErrors,
)

READING = (
    "P(error | missed) / P(error | matched): share of linked check-points overlapping a rated error among those "
    "the system missed / matched; lift: their ratio with its 95% bootstrap interval (1 = a miss says nothing); "
    "r, tau: Pearson and Kendall over systems of the category score with the MQM penalty attributed to the "
    f"category (negated: higher is better). ! marks a figure from fewer than {MIN_RELIABLE} check-points (check-points: "
    "distinct check-points of the category; missed, matched: pooled over the systems)."
)
ERRORS_READING = (
    "errors per 100 check-points (each error once per check-point it overlaps, divided by the segment's raters), "
    "by severity; penalty: MQM penalty attributed to the category per rated segment; unlinked: share of "
    "check-points with no linked output word."
)
VALIDITY_COLUMNS = (
    "category", "checkpoints", "missed", "matched", "p_error_missed", "p_error_matched", "lift", "lift_low", "lift_high",
    "pearson", "pearson_p", "kendall", "kendall_p",
)
ERROR_COLUMNS = ("system", "category", "checkpoints", "errors_per_100", "major_per_100", "minor_per_100",
                 "penalty", "score", "unlinked")


def attribution_tables(result: Attribution) -> Group:
    """The validity table, then errors per 100 check-points pooled over the systems per category."""
    return Group(_validity_table(result), _errors_table(result))


def _validity_table(result: Attribution) -> Table:
    table = Table(
        title=f"Do missed check-points mean real errors? Suite {result.suite}, {len(result.systems)} systems; "
              f"{100 * result.words_in_errors:.1f}% of the output words lie in a rated error span",
        caption=READING + f"\n{result.signature}", caption_justify="left",
    )
    headers = ("category", "check-points", "missed", "matched", "P(error|missed)", "P(error|matched)", "lift [95%]",
               "r", "tau")
    for header in headers:
        table.add_column(header, justify="left" if header == "category" else "right")
    for row in result.validity:
        low, high = row.lift_interval
        interval = f" [{low:.2f}, {high:.2f}]" if low is not None and high is not None else ""
        few = " !" if row.checkpoints < MIN_RELIABLE else ""
        table.add_row(
            row.category, str(row.checkpoints) + few, str(row.missed), str(row.matched),
            _share(row.p_missed, min(row.missed, row.checkpoints)), _share(row.p_matched, min(row.matched, row.checkpoints)),
            ("–" if row.lift is None else f"{row.lift:.2f}") + interval + few,
            _number(row.pearson) + few, _number(row.kendall) + few,
            style="bold" if row.category == ALL else None,
        )
    return table


def _errors_table(result: Attribution) -> Table:
    table = Table(title="Errors attributed per category (all systems together)", caption=ERRORS_READING,
                  caption_justify="left")
    for header in ("category", "check-points", "errors/100", *(f"{s}/100" for s in SEVERITIES), "penalty", "unlinked"):
        table.add_column(header, justify="left" if header == "category" else "right")
    for category in (*result.categories, ALL):
        rows = [row for row in result.errors if row.category == category]
        count = sum(row.checkpoints for row in rows)
        if not count:
            continue
        pooled = _pooled(rows, count)
        table.add_row(
            category, str(count) + (" !" if count < MIN_RELIABLE else ""), f"{pooled['all']:.1f}",
            *(f"{pooled[s]:.1f}" for s in SEVERITIES),
            f"{sum(row.penalty for row in rows) / len(rows):.3f}",
            f"{sum(row.unlinked * row.checkpoints for row in rows) / count:.2f}",
            style="bold" if category == ALL else None,
        )
    return table


def _pooled(rows: list[CategoryErrors], count: int) -> dict[str, float]:
    """Errors per 100 check-points over several systems' rows (weighted by their check-points)."""
    pooled = {"all": sum(row.per_100 * row.checkpoints for row in rows) / count}
    for severity in SEVERITIES:
        pooled[severity] = sum(row.by_severity[severity] * row.checkpoints for row in rows) / count
    return pooled


def attribution_csv(result: Attribution) -> str:
    """Two blocks: validity per category, then errors per (system, category)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(VALIDITY_COLUMNS)
    for row in result.validity:
        data = row.to_json()
        low, high = data["lift_interval"]
        writer.writerow([data["category"], data["checkpoints"], data["missed"], data["matched"], data["p_error_missed"],
                         data["p_error_matched"], data["lift"], low, high, data["pearson"], data["pearson_p"],
                         data["kendall"], data["kendall_p"]])
    writer.writerow([])
    writer.writerow(ERROR_COLUMNS)
    for errors in result.errors:
        data = errors.to_json()
        writer.writerow([data["system"], data["category"], data["checkpoints"], data["errors_per_100"],
                         data["by_severity"]["Major"], data["by_severity"]["Minor"], data["penalty"], data["score"],
                         data["unlinked"]])
    return buffer.getvalue()


def _share(value: float | None, count: int) -> str:
    if value is None:
        return "–"
    return f"{value:.3f}" + (" !" if count < MIN_RELIABLE else "")


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"
