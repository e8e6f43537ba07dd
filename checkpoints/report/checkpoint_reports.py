"""Terminal tables and CSV for check-point evaluations and comparisons.

Rows follow Zhou et al. (2008) Table 7: categories grouped by level (words,
phrases, sentences) with each group's own score, then the whole taxonomy
("SYSTEM (linguistic)") and the systems' BLEU ("SYSTEM (BLEU)").
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from checkpoints.evaluate.comparison import Comparison, ScopeComparison
from checkpoints.evaluate.scopes import Scope, ScopeKind, ScopeScore
from checkpoints.model import Level
from checkpoints.report.checkpoint_json import comparison_signature
from checkpoints.report.formats import signature_line

if TYPE_CHECKING:
    from checkpoints.evaluate.evaluation import Evaluation

GROUP_TITLES = {Level.WORD: "WORDS", Level.PHRASE: "PHRASES", Level.SENTENCE: "SENTENCES"}


def ordered_scopes(evaluation: Evaluation) -> Iterator[tuple[Scope, str]]:
    """(scope, row label) in report order: per level its categories then the group, then the taxonomy."""
    first = next(iter(evaluation.reports.values()))
    categories = first.categories
    groups = first.groups
    for level in Level:
        names = [c.name for c in evaluation.suite.categories if c.level is level and c.name in categories]
        if not names:
            continue
        for name in names:
            yield Scope(ScopeKind.CATEGORY, name), name
        if level.value in groups:
            yield Scope(ScopeKind.GROUP, level.value), GROUP_TITLES[level]
    yield Scope(ScopeKind.TAXONOMY, first.taxonomy.scope.name), "SYSTEM (linguistic)"


def _line(evaluation: Evaluation, system: str, scope: Scope) -> ScopeScore:
    report = evaluation.reports[system]
    return next(line for line in report.scopes if line.scope == scope)


def evaluation_table(evaluation: Evaluation) -> Group:
    """The scores table (Table 7's layout) followed by the run's signature."""
    systems = list(evaluation.reports)
    table = Table(
        title=f"suite {evaluation.suite.name}: check-point scores (Zhou et al. 2008, formula 5)",
        caption="* best in row",
        caption_justify="left",
    )
    table.add_column("category", overflow="fold", min_width=_label_width(evaluation))  # never cut a name
    table.add_column("check-points", justify="right")
    for system in systems:
        table.add_column(system, justify="right")
    for scope, label in ordered_scopes(evaluation):
        lines = [_line(evaluation, system, scope) for system in systems]
        values = [line.score for line in lines]
        best = max(values)
        cells = [_score_cell(value, value == best and len(systems) > 1) for value in values]
        heading = scope.kind is not ScopeKind.CATEGORY
        table.add_row(
            Text(label, style="bold" if heading else ""), str(lines[0].checkpoints), *cells,
            end_section=heading,
        )
    bleu = [evaluation.bleu[system] for system in systems]
    table.add_row("SYSTEM (BLEU)", "", *[_score_cell(v, v == max(bleu) and len(systems) > 1, ".2f") for v in bleu])
    return Group(table, signature_line(evaluation.signature))


def _score_cell(value: float, best: bool, fmt: str = ".4f") -> Text:
    text = f"{value:{fmt}}" + ("*" if best else " ")
    return Text(text, style="bold green" if best else "")


def evaluation_csv(evaluation: Evaluation) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["system", "scope", "name", "checkpoints", "recall", "penalty", "score"])
    for system in evaluation.reports:
        for scope, _label in ordered_scopes(evaluation):
            line = _line(evaluation, system, scope)
            writer.writerow([system, scope.kind.value, scope.name, line.checkpoints,
                             f"{line.recall:.6f}", f"{line.penalty:.6f}", f"{line.score:.6f}"])
        writer.writerow([system, "bleu", "BLEU", "", "", "", f"{evaluation.bleu[system]:.4f}"])
    writer.writerow(["#", "signature", evaluation.signature.format(), "", "", "", ""])
    return buffer.getvalue()


def comparison_tables(comparison: Comparison, evaluation: Evaluation) -> list[Table | Text]:
    """One table per compared pair; with more than two systems and no baseline, a cluster table
    too; then the comparison's signature."""
    tables = [_pair_table(comparison, evaluation, pair.system_a, pair.system_b) for pair in comparison.pairs]
    if comparison.clusters and len(comparison.systems) > 2:
        table = Table(title="significance clusters (systems in one {…} do not differ significantly)")
        table.add_column("category", overflow="fold", min_width=_label_width(evaluation))
        table.add_column("ranking")
        for scope, label in ordered_scopes(evaluation):
            if scope in comparison.clusters:
                table.add_row(label, comparison.cluster_text(scope), end_section=scope.kind is not ScopeKind.CATEGORY)
        tables.append(table)
    return [*tables, signature_line(comparison_signature(comparison, evaluation))]


def _pair_table(comparison: Comparison, evaluation: Evaluation, a: str, b: str) -> Table:
    pair = comparison.pair(a, b)
    table = Table(
        title=f"{b} vs {a}: difference = {b} − {a}",
        caption=(
            f"{comparison.spec.method.value}, {comparison.spec.samples} samples, seed {comparison.spec.seed}; "
            f"p adjusted by {comparison.correction_text()}; t = difference / sd of resampled differences"
        ),
        caption_justify="left",
    )
    for column, justify in [("category", "left"), ("n", "right"), (a, "right"), (b, "right"),
                            ("difference", "right"), ("95% interval", "right"), ("t", "right"),
                            ("p (adj.)", "right"), ("", "left")]:
        width = _label_width(evaluation) if column == "category" else None
        table.add_column(column, justify=justify, overflow="fold", min_width=width)  # type: ignore[arg-type]
    for scope, label in ordered_scopes(evaluation):
        result = pair.result(scope)
        table.add_row(*_comparison_cells(label, result), end_section=scope.kind is not ScopeKind.CATEGORY)
    bleu_a, bleu_b = evaluation.bleu[a], evaluation.bleu[b]
    table.add_row("SYSTEM (BLEU)", "", f"{bleu_a:.2f}", f"{bleu_b:.2f}", f"{bleu_b - bleu_a:+.2f}", "", "", "", "")
    return table


def _comparison_cells(label: str, result: ScopeComparison) -> list[str | Text]:
    o = result.outcome
    if result.too_few:
        flag: str | Text = Text("too few", style="dim")
    elif result.significant:
        flag = Text(f"{'▲' if o.difference > 0 else '▼'} significant", style="bold green" if o.difference > 0 else "bold red")
    else:
        flag = ""
    p = "" if result.adjusted_p is None else f"{result.adjusted_p:.4f}"
    return [
        label, str(result.checkpoints), f"{o.score_a:.4f}", f"{o.score_b:.4f}", f"{o.difference:+.4f}",
        f"[{o.interval[0]:+.4f}, {o.interval[1]:+.4f}]", f"{o.t:.2f}", p, flag,
    ]


def comparison_csv(comparison: Comparison, evaluation: Evaluation) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["system_a", "system_b", "scope", "name", "checkpoints", "score_a", "score_b", "difference",
                     "ci_low", "ci_high", "t", "p_value", "adjusted_p", "significant", "too_few"])
    for pair in comparison.pairs:
        for scope, _label in ordered_scopes(evaluation):
            r = pair.result(scope)
            o = r.outcome
            writer.writerow([
                pair.system_a, pair.system_b, scope.kind.value, scope.name, r.checkpoints,
                f"{o.score_a:.6f}", f"{o.score_b:.6f}", f"{o.difference:.6f}", f"{o.interval[0]:.6f}",
                f"{o.interval[1]:.6f}", f"{o.t:.4f}", f"{o.p_value:.6f}",
                "" if r.adjusted_p is None else f"{r.adjusted_p:.6f}", str(r.significant).lower(), str(r.too_few).lower(),
            ])
    writer.writerow(["#", "signature", comparison_signature(comparison, evaluation).format()] + [""] * 12)
    return buffer.getvalue()


def _label_width(evaluation: Evaluation) -> int:
    """Room for the longest category name (up to 40 characters), so that a narrow terminal wraps
    the numbers rather than cutting "Predicate-complement phrase" to "Predicate-compleme…"."""
    return min(40, max((len(label) for _, label in ordered_scopes(evaluation)), default=8))
