"""Meta-evaluation reports: the tables and the JSON document of ``checkpoints meta``.

The table report shows, per metric and criterion, the coefficient with its
interval (``r [low, high]``), the paired-bootstrap matrices when asked for,
the segment-level correlations grouped by item, and the signature; the JSON
document is :meth:`~checkpoints.evaluate.meta.runner.MetaResult.to_json`.
"""

from __future__ import annotations

import json

from rich.console import Group
from rich.table import Table

from checkpoints.evaluate.meta.correlation import Criterion
from checkpoints.evaluate.meta.runner import GroupedResult, MetaResult, Paired, Results
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.report.formats import signature_line


def meta_json(result: MetaResult) -> str:
    """The ``--format json`` document, one trailing newline."""
    return json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"


def _fixed(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals; one that rounds to zero has no minus sign."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def format_value(r: float | None, ci: tuple[float, float] | None) -> str:
    """``r`` (``undefined`` when it is not defined) and its interval, four decimals."""
    if r is None:
        return "undefined"
    text = _fixed(r, 4)
    if ci is not None:
        text += f" [{_fixed(ci[0], 4)}, {_fixed(ci[1], 4)}]"
    return text


def results_table(title: str, results: Results, criteria: tuple[Criterion, ...]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("metric")
    for criterion in criteria:
        table.add_column(criterion.value, justify="right")
    for name, by in results.items():
        table.add_row(name, *(format_value(by[c].r, by[c].ci) for c in criteria))
    return table


def paired_tables(title: str, paired: Paired) -> list[Table]:
    """One matrix per criterion: how often the row metric correlated better than the column one."""
    tables = []
    for criterion, matrix in paired.items():
        table = Table(title=f"{title}: P(row correlates better than column), {criterion.value}", title_justify="left")
        table.add_column("metric")
        names = list(matrix)
        for name in names:
            table.add_column(name, justify="right")
        for row in names:
            cells = ["—" if row == col else ("n/a" if matrix[row][col] is None else f"{matrix[row][col]:.3f}")
                     for col in names]
            table.add_row(row, *cells)
        tables.append(table)
    return tables


def meta_tables(result: MetaResult) -> Group:
    """The table report, in the order printed: header, results, paired matrices, grouped results, signature."""
    options = result.options
    header = f"{result.level.value} level, n = {result.n}, {result.judgments}, ci = {options.ci.value}"
    if options.resampled:
        header += f" ({options.samples} samples, alpha {options.alpha:g}; r = bootstrap median)"
    segments = result.level is Granularity.SEG
    parts: list[object] = []
    if segments:
        parts.append(header)
    parts.append(results_table("pooled" if segments else header, result.results, options.criteria))
    if result.paired is not None:
        parts.extend(paired_tables("pooled" if segments else "paired bootstrap", result.paired))
    grouped: GroupedResult | None = result.grouped
    if grouped is not None:
        parts.append(results_table(f"grouped by item ({grouped.n} segments)", grouped.results, options.criteria))
        if grouped.paired is not None:
            parts.extend(paired_tables("grouped by item", grouped.paired))
    parts.append(signature_line(options.signature()))
    return Group(*parts)  # type: ignore[arg-type]
