"""The audit of a suite as a table and as CSV (JSON is :meth:`SuiteAudit.to_json`)."""

from __future__ import annotations

import csv
import io

from rich.table import Table

from checkpoints.evaluate.audit import MIN_SENSITIVITY, SuiteAudit

COLUMNS = (
    "category", "level", "checkpoints", "reference_score", "own_class", "sensitivity",
    "leak_class", "leakage", "gapped", "sentence_references", "mean_dm",
)

READING = (
    "reference: the reference's own text scored as a system (1 = every reference matches running text); "
    "sensitivity: the fall of the score when every target word of the category's own class is replaced by "
    "another of that class (ideal 1); leakage: the largest fall under another class (ideal 0); gaps: share "
    "of references with a gap (*); whole: share of whole-sentence references; DM: mean dictionary matching "
    f"degree. Word categories below sensitivity {MIN_SENSITIVITY} are marked !."
)


def audit_table(audit: SuiteAudit) -> Table:
    table = Table(title=f"audit of suite {audit.suite}: {audit.signature}, substitution seed {audit.seed}",
                  caption=READING, caption_justify="left")
    for header, justify in (
        ("level", "left"), ("category", "left"), ("check-points", "right"), ("reference", "right"),
        ("own class", "left"), ("sensitivity", "right"), ("leakage", "right"), ("gaps", "right"),
        ("whole", "right"), ("DM", "right"),
    ):
        table.add_column(header, justify=justify, overflow="fold")
    for category in audit.categories:
        weak = category.judged and category.sensitivity is not None and category.sensitivity < MIN_SENSITIVITY
        table.add_row(
            category.level,
            category.name,
            str(category.checkpoints),
            f"{category.reference_score:.3f}",
            category.own_class or "–",
            _number(category.sensitivity) + (" !" if weak else ""),
            _number(category.leakage) + (f" ({category.leak_class})" if category.leak_class else ""),
            f"{category.gapped:.2f}",
            f"{category.sentence_references:.2f}",
            f"{category.mean_dm:.2f}",
        )
    return table


def audit_csv(audit: SuiteAudit) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*COLUMNS, *(f"drop_{name}" for name in audit.classes)])
    for category in audit.categories:
        row = category.to_json()
        writer.writerow([row[column] for column in COLUMNS] + [row["drops"].get(name) for name in audit.classes])
    return buffer.getvalue()


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"
