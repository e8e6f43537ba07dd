"""``checkpoints attribute``: which check-points sit where expert raters marked errors (MQM)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import check_format, emit
from checkpoints.evaluate.defaults import DEFAULT_SEED
from checkpoints.io.files import check_writable
from checkpoints.report.attribution_report import attribution_csv, attribution_tables
from checkpoints.report.formats import json_text
from checkpoints.service.attribute import AttributeRequest
from checkpoints.service.attribute import attribute as run_attribution
from checkpoints.service.option_values import parse_named_files

EXAMPLES = """
The MQM file is a WMT MQM release TSV (system, doc, doc_id, seg_id, rater,
source, target with the error span in <v>...</v>, category, severity), any
number of raters; its segments in seg_id order must be the suite's sentence
pairs (build the suite from the file's sources). Each system's output is
aligned to the source with eflomal (with the dictionary stored with the suite,
or --dictionary), or read from --alignment NAME=FILE (Pharaoh i-j links from
the suite's source words to the output's whitespace tokens). Prints, per
category: P(error | missed), P(error | matched), their lift with a bootstrap
interval, the correlation over systems of the category score with the MQM
penalty attributed to it; and errors per 100 check-points by severity.
Reads the suite, writes nothing to the database.

Examples:

  checkpoints attribute --db ted.db --mqm mqm_ted_ende.tsv

  checkpoints attribute --db ted.db --mqm mqm_ted_ende.tsv \\
      --system Nemo=nemo.txt --system UEdin=uedin.txt --format json -o ted.json

  checkpoints attribute --db ted.db --mqm mqm_ted_ende.tsv \\
      --system Nemo=nemo.txt --alignment Nemo=nemo.pharaoh --format csv
"""


def register(app: typer.Typer) -> None:
    app.command("attribute", help="Attribute expert MQM error spans to check-points: do misses mean real errors?\n"
                + EXAMPLES)(attribute)


def attribute(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    mqm: Annotated[Path, typer.Option("--mqm", help="MQM error TSV (WMT release layout).")],
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
    system: Annotated[list[str] | None, typer.Option("--system", help="NAME=FILE: attribute this system only (repeatable); FILE must be the output the raters saw.")] = None,
    alignment: Annotated[list[str] | None, typer.Option("--alignment", help="NAME=FILE: Pharaoh source-output links for a system, instead of eflomal (repeatable).")] = None,
    dictionary: Annotated[list[Path] | None, typer.Option("--dictionary", help="Dictionary for eflomal's priors (repeatable); default: the one stored with the suite.")] = None,
    alternatives: Annotated[bool, typer.Option("--alternatives/--no-alternatives", help="Also match word-level check-points by dictionary translations, stems and (English) synonyms.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap intervals and of eflomal's sampling.")] = DEFAULT_SEED,
    output_format: Annotated[str, typer.Option("--format", "-f", help="table, json or csv.")] = "table",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the result to this file instead of stdout.")] = None,
) -> None:

    check_format(output_format, ("table", "json", "csv"))
    if output is not None:
        check_writable(output)
    request = AttributeRequest(
        store=db, mqm=mqm, suite_name=suite,
        systems=parse_named_files(system or [], "--system"),
        alignments=parse_named_files(alignment or [], "--alignment"),
        dictionaries=list(dictionary or []), alternatives=alternatives, seed=seed,
    )
    result = run_attribution(request)
    if output_format == "json":
        emit(json_text(result.to_json()), output)
    elif output_format == "csv":
        emit(attribution_csv(result), output)
    else:
        emit(attribution_tables(result), output)
