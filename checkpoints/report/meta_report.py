"""Meta-evaluation reports: the tables and the JSON document of ``checkpoints meta``.

The table report shows, per metric and criterion, the coefficient with its
interval (``r [low, high]``), the paired-bootstrap matrices when asked for,
the segment-level correlations grouped by item, the significance clusters
when asked for (``--clusters``), and the signature; acc-eq values carry the
tie threshold they were calibrated with (``0.7000 (ε=0.0123)``), orange its
rank ORANGE and king Asiya's KING beside QARLA's, with a line saying how
they were sampled; SPA's
per-pair p-values are in the JSON only (they are n² numbers per metric). The JSON
document is :meth:`~checkpoints.evaluate.meta.runner.MetaResult.to_json`.
"""

from __future__ import annotations

import json

from rich.console import Group
from rich.table import Table

from checkpoints.evaluate.meta.correlation import Criterion
from checkpoints.evaluate.meta.criteria import HUMAN_LIKENESS
from checkpoints.evaluate.meta.pairwise import Clusters
from checkpoints.evaluate.meta.runner import (
    CorrelationResult,
    GroupedResult,
    MetaResult,
    Paired,
    Results,
)
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


def format_result(result: CorrelationResult) -> str:
    """:func:`format_value`, with the calibrated tie threshold of acc-eq."""
    text = format_value(result.r, result.ci)
    epsilon = (result.extra or {}).get("epsilon")
    if isinstance(epsilon, float) and result.r is not None:
        text += f" (ε={epsilon:.4g})"
    extra = result.extra or {}
    rank = extra.get("rank")
    if isinstance(rank, float):
        text += f" (rank {rank:.4f})"
    asiya = extra.get("asiya")
    if isinstance(asiya, float):
        text += f" (Asiya {asiya:.4f}{', trans-topic' if extra.get('trans_topic') else ''})"
    return text


def likeness_note(result: MetaResult) -> str | None:
    """How king and orange were computed, when they were: references, units, sampling."""
    chosen = [c for c in result.options.criteria if c in HUMAN_LIKENESS]
    if not chosen or not result.results:
        return None
    first = next(iter(result.results.values()))
    extra = first[chosen[0]].extra or {}
    note = (f"{' and '.join(c.value for c in chosen)}: each of {extra.get('references')} references scored as a "
            f"peer against the others, systems against the same, over {extra.get('units')} "
            f"{result.level.value}-level units")
    if Criterion.KING in chosen:
        sampling = "trans-topic (reference pairs pooled across units)" if extra.get("trans_topic") else "per unit"
        note += f"; king = QARLA KING, reference pairs {sampling}, Asiya's KING beside it"
    if Criterion.ORANGE in chosen:
        note += "; orange = Asiya's P(reference ≥ system), Lin & Och's rank ORANGE beside it (lower is better)"
    return note


def results_table(title: str, results: Results, criteria: tuple[Criterion, ...]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("metric")
    for criterion in criteria:
        table.add_column(criterion.value, justify="right")
    for name, by in results.items():
        table.add_row(name, *(format_result(by[c]) for c in criteria))
    return table


def clusters_table(title: str, clusters: Clusters, samples: int, alpha: float) -> Table:
    """Metrics best first, with their cluster: WMT's presentation of a metrics ranking."""
    table = Table(
        title=f"{title}: significance clusters, {clusters.criterion.value} "
        f"(permutation test, {samples} permutations, p ≤ {alpha:g})",
        title_justify="left",
    )
    table.add_column("rank", justify="right")
    table.add_column("metric")
    table.add_column(clusters.criterion.value, justify="right")
    for name, r, rank in clusters.ranking:
        table.add_row(str(rank), name, format_value(r, None))
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
    if result.clusters is not None:
        parts.append(clusters_table("pooled" if segments else "metrics", result.clusters, options.samples, options.alpha))
    grouped: GroupedResult | None = result.grouped
    if grouped is not None:
        parts.append(results_table(f"grouped by item ({grouped.n} segments)", grouped.results, options.correlations))
        if grouped.paired is not None:
            parts.extend(paired_tables("grouped by item", grouped.paired))
        if grouped.clusters is not None:
            parts.append(clusters_table("grouped by item", grouped.clusters, options.samples, options.alpha))
    note = likeness_note(result)
    if note is not None:
        parts.append(note)
    parts.append(signature_line(options.signature()))
    return Group(*parts)  # type: ignore[arg-type]
