"""Meta-evaluation reports: the tables and the JSON document of ``checkpoints meta``.

The table report shows, per metric and criterion, the coefficient with its
interval (``r [low, high]``), the paired-bootstrap matrices when asked for,
the segment-level correlations grouped by item, the significance clusters
when asked for (``--clusters``), and the signature; acc-eq values carry the
tie threshold they were calibrated with (``0.7000 (ε=0.0123)``), orange its
rank ORANGE and king Asiya's KING beside QARLA's, with a line saying how
they were sampled; SPA's and PCE's
per-pair p-values are in the JSON only (they are n² numbers per metric). PCE
is an error: its column is headed ``pce ↓`` and a line under the tables says
that lower is better. A
metric scored on fewer referents than the header's n (an LC metric leaves out
segments without a check-point of its scope) carries ``(n=…)``. With
``--optimize`` the greedy search's trace follows (every metric tried, the
value of the set with it, kept or not), with ``--learn`` the cross-validated
figures of the learned combination beside each feature alone, and its weights.
The JSON document is :meth:`~checkpoints.evaluate.meta.results.MetaResult.to_json`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table

from checkpoints.evaluate.meta.clusters import Clusters
from checkpoints.evaluate.meta.correlation import Criterion
from checkpoints.evaluate.meta.criteria import HUMAN_LIKENESS, LOWER_IS_BETTER
from checkpoints.evaluate.meta.learn import PAIRWISE, LearnResult
from checkpoints.evaluate.meta.optimize import GreedyResult
from checkpoints.evaluate.meta.results import (
    CorrelationResult,
    GroupedResult,
    MetaResult,
    Paired,
    Results,
)
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.report.formats import json_text, signature_line

if TYPE_CHECKING:
    from checkpoints.service.meta import CategoryMeta


def meta_json(result: MetaResult) -> str:
    """The ``--format json`` document, one trailing newline."""
    return json_text(result.to_json())


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
    n = extra.get("n")
    if isinstance(n, int):
        text += f" (n={n})"
    return text


def optimize_table(optimal: GreedyResult) -> Table:
    """The greedy search as Asiya runs it: each metric tried, in single-value order, with the set's value."""
    table = Table(
        title=f"greedy optimal set by {optimal.criterion}: metrics ranked alone (ties by name), "
        "each kept when the ULC of the set strictly improves",
        title_justify="left",
    )
    table.add_column("step", justify="right")
    table.add_column("metric")
    table.add_column("alone", justify="right")
    table.add_column("set with it", justify="right")
    table.add_column("kept", justify="center")
    for step, trial in enumerate(optimal.trace, start=1):
        table.add_row(str(step), trial.metric, format_value(optimal.single[trial.metric], None),
                      format_value(trial.value, None), "yes" if trial.kept else "")
    return table


def learn_tables(learned: LearnResult) -> list[object]:
    """Cross-validated values of the learned score and of each feature alone, then the final weights."""
    criteria = [*learned.cv, PAIRWISE]
    sizes = ", ".join(str(len(fold)) for fold in learned.folds)
    scores = Table(
        title=f"{learned.method.value}, {len(learned.folds)}-fold cross-validation over segments "
        f"({sizes} held out; seed {learned.seed}), {learned.level.value} level, mean over folds "
        f"({PAIRWISE}: {learned.pairs} held-out pairs)",
        title_justify="left",
    )
    scores.add_column("score")
    for name in criteria:
        scores.add_column(name, justify="right")
    scores.add_row(learned.method.value, *(format_value(learned.value(name), None) for name in criteria))
    for feature in learned.features:
        scores.add_row(feature, *(format_value(learned.baseline_value(feature, name), None) for name in criteria))
    weights = Table(
        title="weights (final fit on every segment; standardised features)",
        title_justify="left",
    )
    weights.add_column("feature")
    weights.add_column("weight", justify="right")
    for feature, weight in learned.weights.items():
        weights.add_row(feature, f"{weight:.6g}")
    return [scores, weights]


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


def column_label(criterion: Criterion) -> str:
    """The criterion's name, with ``↓`` after an error (lower is better)."""
    return f"{criterion.value} ↓" if criterion in LOWER_IS_BETTER else criterion.value


def pce_note(result: MetaResult) -> str | None:
    """What pce is and which way it points, when it was asked for."""
    if Criterion.PCE not in result.options.criteria:
        return None
    shared = result.spa or {}
    note = ("pce ↓ = pairwise confidence error, mean over system pairs of |p_human − p_metric| (= 1 − spa); "
            "lower is better")
    if isinstance(shared.get("segments"), int):
        note += (f"; one-sided permutation p-values, {result.options.samples} permutations of the "
                 f"{shared['segments']} segments every system has a human score for")
    return note


def results_table(title: str, results: Results, criteria: tuple[Criterion, ...]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("metric")
    for criterion in criteria:
        table.add_column(column_label(criterion), justify="right")
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
    if result.optimal is not None:
        parts.append(optimize_table(result.optimal))
        members = ", ".join(result.optimal.metrics)
        parts.append(f"optimal set: {{{members}}}  {result.optimal.criterion} {format_value(result.optimal.value, None)}")
    if result.learned is not None:
        parts.extend(learn_tables(result.learned))
    for note in (pce_note(result), likeness_note(result)):
        if note is not None:
            parts.append(note)
    parts.append(signature_line(options.signature()))
    return Group(*parts)  # type: ignore[arg-type]


def by_category_tables(result: CategoryMeta) -> Group:
    """``meta --by-category``: the usual report against all errors, then one row per category with each
    metric's value of the first criterion against that category's attributed penalty, and the best metric."""
    overall = meta_tables(result.overall)
    criterion = result.overall.options.criteria[0]
    names = list(result.overall.results)
    table = Table(
        title=f"{column_label(criterion)} with the MQM penalty attributed to each category "
              f"({result.overall.level.value} level): which metric tracks which errors",
        title_justify="left",
    )
    table.add_column("category")
    table.add_column("check-points", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    table.add_column("best")
    for category, meta in result.categories.items():
        values = [meta.results.get(name, {}).get(criterion) for name in names]
        table.add_row(category, str(result.checkpoints[category]),
                      *(format_value(value.r, None) if value is not None else "–" for value in values),
                      result.best(category) or "–")
    return Group(overall, table)


def by_category_json(result: CategoryMeta) -> str:
    return json_text(result.to_json())
