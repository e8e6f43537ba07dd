"""``checkpoints audit``: how far a suite can be trusted, measured without gold data."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import check_format, emit, stderr_console
from checkpoints.evaluate.defaults import DEFAULT_SEED
from checkpoints.io.files import check_writable
from checkpoints.report.audit_report import audit_csv, audit_table
from checkpoints.report.formats import json_text
from checkpoints.service.audit import audit_stored_suite

EXAMPLES = """
Per category: the reference's own text scored as a system (a correct
translation must score 1); the substitution test (every target word of one
part of speech replaced by another of that part of speech: the category of
that class should fall to about 0 -- its sensitivity -- and the others should
not move -- leakage); the share of references with gaps; the mean DM. Word
categories below sensitivity 0.8 are named at the end. Reads the suite,
writes nothing to the database.

Examples:

  checkpoints audit --db pud.db

  checkpoints audit --db pud.db --suite en-fr --format json -o audit.json
"""


def register(app: typer.Typer) -> None:
    app.command("audit", help="Audit a suite: reference self-score, substitution test, gaps and DM.\n" + EXAMPLES)(audit)


def audit(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed of the substitutions: the same seed gives the same audit.")] = DEFAULT_SEED,
    output_format: Annotated[str, typer.Option("--format", "-f", help="table, json or csv.")] = "table",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the audit to this file instead of stdout.")] = None,
) -> None:

    check_format(output_format, ("table", "json", "csv"))
    if output is not None:
        check_writable(output)
    result = audit_stored_suite(db, suite_name=suite, seed=seed)
    if output_format == "json":
        emit(json_text(result.to_json()), output)
    elif output_format == "csv":
        emit(audit_csv(result), output)
    else:
        emit(audit_table(result), output)
        stderr_console().print(result.summary_line(), highlight=False, markup=False)
