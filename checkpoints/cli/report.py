"""``checkpoints report``: the stored diagnosis of a suite as one self-contained HTML file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import quiet_libraries, stderr_console
from checkpoints.io.files import check_writable
from checkpoints.service.option_values import parse_named_files
from checkpoints.service.report import ReportRequest, write_report

EXAMPLES = """
Reads the systems' latest evaluation runs and the latest comparison stored for
exactly those runs (when none is stored, one is computed with compare's
defaults and not stored: the report only reads, so a read-only database
works), and writes one HTML file that opens from disk with no network: per
level a chart of every category's score per system with 95% intervals and
significance after correction, the same numbers as tables, a heat map against
the baseline, and every check-point as `show` prints it, searchable. With
--metrics and --meta it adds the JSON of `checkpoints metrics --format json`
and `checkpoints meta --format json`. With --attribution it adds the JSON of
`checkpoints attribute --format json` (of the same suite): whether missed
check-points lie inside errors expert MQM raters marked, per category, with
examples of the output and its rated spans.

Examples:

  checkpoints report --db pud.db --output report.html

  checkpoints report --db pud.db --system direct --system pivot --baseline direct \\
      --metrics metrics.json --meta meta.json --output report.html

  checkpoints attribute --db ted.db --mqm mqm_ted_ende.tsv --format json -o attribution.json
  checkpoints report --db ted.db --attribution attribution.json --output report.html
"""


def register(app: typer.Typer) -> None:
    app.command("report", help="Write the diagnostic report as one self-contained HTML file.\n" + EXAMPLES)(report)


def report(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")],
    system: Annotated[list[str] | None, typer.Option("--system", help="An evaluated system to report (NAME), or NAME=FILE to evaluate it first; repeat (default: every evaluated system).")] = None,
    baseline: Annotated[str | None, typer.Option("--baseline", help="Differences and the heat map are relative to this system (default: the comparison's baseline, else the first system).")] = None,
    metrics: Annotated[Path | None, typer.Option("--metrics", help="JSON written by `checkpoints metrics --format json`.")] = None,
    meta: Annotated[Path | None, typer.Option("--meta", help="JSON written by `checkpoints meta --format json`.")] = None,
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
    attribution: Annotated[Path | None, typer.Option("--attribution", help="JSON written by `checkpoints attribute --format json` for this suite.")] = None,
    gate: Annotated[Path | None, typer.Option("--gate", help="JSON written by `checkpoints gate --format json` for this suite.")] = None,
    challenge: Annotated[Path | None, typer.Option("--challenge", help="JSON written by `checkpoints challenge --score --format json` for this suite.")] = None,
) -> None:

    quiet_libraries()
    check_writable(output)
    files = [parse_named_files([value], "--system")[0] for value in system or () if "=" in value]
    names = tuple(value.partition("=")[0] for value in system or ())
    result = write_report(
        ReportRequest(db, output, names, baseline=baseline, metrics=metrics, meta=meta, suite=suite,
                      attribution=attribution, gate=gate, challenge=challenge, evaluate=files)
    )
    for warning in result.warnings:
        stderr_console().print(f"warning: {warning}", highlight=False)
    if result.comparison_run is None:
        stderr_console().print("note: no comparison of these runs is stored, so the report computed one (not stored)")
    typer.echo(f"wrote {output} ({result.size / 1e6:.1f} MB)")
