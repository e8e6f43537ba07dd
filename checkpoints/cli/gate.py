"""``checkpoints gate``: fail a CI job when a candidate system regressed significantly."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import check_format, emit, parse_runs, quiet_libraries, stderr_console
from checkpoints.errors import CheckpointsError, UsageError
from checkpoints.evaluate.defaults import (
    DEFAULT_ALPHA,
    DEFAULT_CORRECTION,
    DEFAULT_MIN_CHECKPOINTS,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
)
from checkpoints.io.files import check_writable

EXAMPLES = """
Compares the candidate with the baseline as `compare` does (paired bootstrap
over sentence pairs, Holm's correction per family) and fails when the
taxonomy, a level group or a category drops significantly by at least its
minimum drop (default 0.02 of a score in [0, 1]; per category with
--category-drop), or when a metric rule (-m) drops significantly by at least
its threshold (BLEU 0.0179 and chrF 1.28 by default: the deltas at which
Kocmi et al. 2024, Table 1, estimate 75% agreement with human judgments;
other metrics need --metric-drop). Categories with fewer than
--min-checkpoints check-points never fail and are listed. NAME=FILE evaluates
a system first; NAME alone uses its latest stored evaluation. A rules file
(TOML) sets the same rules; options given here override it.

Exit status: 0 passed, 1 a rule regressed, 2 the gate could not decide (bad
options, unreadable files, unknown systems).

Examples:

  checkpoints gate --db suite.db --baseline prod=prod.es --candidate new=new.es

  checkpoints gate --db suite.db --baseline prod --candidate new -m BLEU -m chrF \\
      --junit gate.xml

  checkpoints gate --db suite.db --baseline prod --candidate new --rules gate.toml \\
      --category-drop Preposition=0.05 --format json -o gate.json
"""


def register(app: typer.Typer) -> None:
    app.command("gate", help="Fail when a candidate system regresses significantly against a baseline.\n" + EXAMPLES)(gate)


def gate(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    baseline: Annotated[str, typer.Option("--baseline", help="The system in production: NAME (stored) or NAME=FILE.")],
    candidate: Annotated[str, typer.Option("--candidate", help="The system that would replace it: NAME or NAME=FILE.")],
    rules: Annotated[Path | None, typer.Option("--rules", help="A TOML file of rules (see docs/gate.md); options override it.")] = None,
    min_drop: Annotated[float | None, typer.Option("--min-drop", help="Smallest drop of a check-point score (0-1) that fails. [default: 0.02]")] = None,
    category_drop: Annotated[list[str] | None, typer.Option("--category-drop", help="CATEGORY=DROP: the minimum drop of one category; repeat.")] = None,
    metric: Annotated[list[str] | None, typer.Option("--metric", "-m", help="A metric rule (any name `metrics` knows); repeat.")] = None,
    metric_drop: Annotated[list[str] | None, typer.Option("--metric-drop", help="METRIC=DROP: its minimum drop in the metric's own scale; repeat.")] = None,
    scope: Annotated[list[str] | None, typer.Option("--scope", help="Gate only these kinds of scope: taxonomy, group, category; repeat. [default: all]")] = None,
    min_checkpoints: Annotated[int | None, typer.Option("--min-checkpoints", help=f"Categories with fewer check-points never fail. [default: {DEFAULT_MIN_CHECKPOINTS}]")] = None,
    samples: Annotated[int | None, typer.Option("--samples", help=f"Bootstrap resamples. [default: {DEFAULT_SAMPLES}]")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help=f"Random seed of the resamples. [default: {DEFAULT_SEED}]")] = None,
    method: Annotated[str | None, typer.Option("--method", help="bootstrap or ar (approximate randomization). [default: bootstrap]")] = None,
    correction: Annotated[str | None, typer.Option("--correction", help=f"holm, bh or none. [default: {DEFAULT_CORRECTION}]")] = None,
    alpha: Annotated[float | None, typer.Option("--alpha", help=f"Significance level after correction. [default: {DEFAULT_ALPHA}]")] = None,
    tokenize: Annotated[str | None, typer.Option("--tokenize", help="For NAME=FILE systems: the match-time tokenizer.")] = None,
    run: Annotated[list[str] | None, typer.Option("--run", help="NAME=ID: gate this stored evaluation run of a system instead of its latest.")] = None,
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help="table or json.")] = "table",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to this file instead of stdout.")] = None,
    junit: Annotated[Path | None, typer.Option("--junit", help="Also write the verdicts as JUnit XML, one test case per rule.")] = None,
) -> None:

    quiet_libraries()
    try:
        from checkpoints.report.formats import json_text
        from checkpoints.report.gate_report import gate_junit, gate_view
        from checkpoints.service.gate import run_gate
        from checkpoints.service.gate_options import GateOptions, gate_request

        check_format(output_format, ("table", "json"))
        for path in (output, junit):
            if path is not None:
                check_writable(path)
        options = GateOptions(
            min_drop=min_drop, category_drops=category_drop or [], metrics=metric or [], metric_drops=metric_drop or [],
            scopes=scope or [], min_checkpoints=min_checkpoints, samples=samples, seed=seed, method=method,
            correction=correction, alpha=alpha,
        )
        request = gate_request(db, baseline, candidate, options, rules=rules, suite=suite,
                               runs=parse_runs(run or []), tokenize=tokenize)
        outcome = run_gate(request)
    except UsageError:
        raise
    except CheckpointsError as error:  # the gate could not decide: exit 2, never the regression status 1
        raise UsageError(str(error)) from error
    for warning in outcome.warnings:
        stderr_console().print(f"warning: {warning}", markup=False, highlight=False)
    result = outcome.result
    if junit is not None:
        from checkpoints.io.files import write_atomic

        write_atomic(junit, gate_junit(result))
    emit(json_text(result.to_json()) if output_format == "json" else gate_view(result), output)
    if output is not None:
        stderr_console().print(f"wrote {output}")
    if not result.passed:
        raise typer.Exit(1)
