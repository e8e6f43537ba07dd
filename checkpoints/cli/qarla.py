"""``checkpoints qarla``: human-likeness meta-evaluation of a metric set (IQMT's QUEEN, KING, JACK).

Options are parsed and checked here (errors name the options); the work is
:func:`checkpoints.service.qarla.qarla_evaluate`, the rendering
:mod:`checkpoints.report.qarla_report`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import check_choice, emit, track
from checkpoints.cli.linguistic_options import (
    AnnotationCache,
    EsaCorpus,
    NeTypes,
    Parsed,
    StanzaDir,
)
from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.combination import split_metric_list
from checkpoints.io.files import check_writable
from checkpoints.report.qarla_report import qarla_json, qarla_tables
from checkpoints.service.linguistic_options import LinguisticOptions
from checkpoints.service.metrics import TargetLanguageNeeded
from checkpoints.service.option_values import parse_named_files
from checkpoints.service.qarla import QarlaRequest, qarla_evaluate
from checkpoints.tokenizers import TOKENIZERS

FORMATS = ("table", "json")
TIES = ("ge", "gt")

HELP = """Meta-evaluate a metric set by human likeness (QARLA, as in IQMT): no human judgments needed.

Each metric is used as a similarity x(a, r): its segment score of a against
the single reference r. QUEEN of a system is the probability, over every
reference r and every ordered pair (r', r'') of other references, that
x(a, r) >= x(r', r'') for every metric of the set, averaged over segments.
KING is how often a held-out reference has a QUEEN at least as high as every
system's (--tie gt: strictly higher), over every segment and reference; JACK
is how often two systems with QUEEN > 0 are each closer to a reference than to
each other. KING rates the metric set (a human-like set has a high KING),
JACK the test bed (how evenly the systems surround the references).

QARLA needs three references per segment. With --trans-topic, reference
pairs are also borrowed from every other segment (IQMT -TT), which makes two
references enough. --optimize searches IQMT's greedy optimal set: metrics
ranked by their own KING (ties by name), each kept only if it raises KING.

--check-references scores each reference as a peer against the other
references (as in a KING trial) beside every system's QUEEN against the same
references, and flags a reference when more than half of the systems score
strictly higher: the metric set finds it less human-like than most systems.

--db DB (check-point categories as metrics, as in `metrics --db`) is
refused with the reason: QARLA scores a candidate against one chosen reference
and references against each other, and an LC score is always taken against
the suite's check-points, so it is no similarity x(a, r).

Input is raw text, one segment per line. Metrics that depend on the target
language (METEOR, ROUGE) need --tgt-lang.

Examples:

  QUEEN, KING and JACK of BLEU and NIST with three references:

    checkpoints qarla -r ref0.txt -r ref1.txt -r ref2.txt \\
        -s PB=pb.txt -s WB=wb.txt -m BLEU,NIST

  The greedy optimal set of four metrics, ties counted against the references:

    checkpoints qarla -r ref0.txt -r ref1.txt -r ref2.txt -s PB=pb.txt \\
        -s WB=wb.txt -m BLEU-1,BLEU-4,NIST-2,-TER --optimize --tie gt

  Is every reference more human-like than most systems?

    checkpoints qarla -r ref.txt -r refB.txt -s A=a.txt -s B=b.txt -s C=c.txt \\
        -m chrF --trans-topic --check-references

  Two references, pairs pooled across segments, as JSON:

    checkpoints qarla -r ref.txt -r refB.txt -s A=a.txt -s B=b.txt \\
        -m BLEU,chrF --trans-topic --format json
"""


def _metric_names(values: list[str] | None) -> list[str]:

    names = [name for value in values or [] for name in split_metric_list(value)]
    if not names:
        raise UsageError("no metric requested: give -m NAMES (see `checkpoints metrics --list`)")
    return list(dict.fromkeys(names))


def qarla(
    reference: Annotated[
        list[Path] | None,
        typer.Option("--reference", "-r", metavar="FILE", help="A human reference, one segment per line (repeat: three or more, two with --trans-topic).", show_default=False),
    ] = None,
    system: Annotated[
        list[str] | None,
        typer.Option("--system", "-s", metavar="NAME=FILE", help="A system output, one segment per line (repeat for several).", show_default=False),
    ] = None,
    metric: Annotated[
        list[str] | None,
        typer.Option("--metrics", "-m", metavar="NAMES", help="Comma-separated metric names, the metric set (see `checkpoints metrics --list`).", show_default=False),
    ] = None,
    optimize: Annotated[bool, typer.Option("--optimize", help="Also search the greedy optimal subset of the metrics by KING.")] = False,
    check_references: Annotated[bool, typer.Option("--check-references", help="Score each reference as a peer against the others; flag those most systems beat.")] = False,
    tie: Annotated[str, typer.Option("--tie", metavar="ge|gt", help="KING ties: ge counts them for the reference (the manual's formula), gt against.")] = "ge",
    trans_topic: Annotated[bool, typer.Option("--trans-topic", help="Pool reference pairs across segments (needs only two references).")] = False,
    db: Annotated[str | None, typer.Option("--db", metavar="DB", help="Check-point store: LC metrics cannot be QARLA similarities (refused, with the reason).", show_default=False)] = None,
    suite: Annotated[str | None, typer.Option("--suite", metavar="NAME", help="The suite in --db.", show_default=False)] = None,
    suite_name: Annotated[str | None, typer.Option("--suite-name", hidden=True)] = None,
    source: Annotated[Path | None, typer.Option("--source", metavar="FILE", help="Source segments, for metrics that read them.")] = None,
    tokenize: Annotated[
        str | None,
        typer.Option("--tokenize", metavar="|".join(TOKENIZERS), help="Metric tokenizer (default: zh for a Chinese target, else 13a). 13a because sacreBLEU and the reference tools tokenize so, and the scores equal theirs; check-point matching (evaluate) uses words instead, because 13a leaves “Clinton’s” glued to its word.", show_default=False),
    ] = None,
    case: Annotated[str, typer.Option("--case", metavar="cs|ci", help="Case-sensitive (cs) or case-insensitive (ci) matching.")] = "cs",
    target_lang: Annotated[
        str | None,
        typer.Option("--tgt-lang", "--target-lang", metavar="LANG", help="Target language (tokenizer default, stemmers, METEOR); METEOR and ROUGE need it.", show_default=False),
    ] = None,
    parsed: Parsed = None,
    stanza_dir: StanzaDir = None,
    annotation_cache: AnnotationCache = None,
    ne_types: NeTypes = "asiya",
    esa_corpus: EsaCorpus = None,
    output_format: Annotated[str, typer.Option("--format", "-f", metavar="table|json", help="Report format.")] = "table",
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the report here instead of stdout.")] = None,
) -> None:
    """Meta-evaluate a metric set by human likeness (QARLA)."""

    check_choice("--format", output_format, FORMATS)
    if db is not None or suite is not None or suite_name is not None:
        from checkpoints.service.qarla import LC_NOT_SIMILARITIES

        raise UsageError(f"--db: {LC_NOT_SIMILARITIES}")
    check_choice("--tie", tie, TIES)
    check_choice("--case", case, ("cs", "ci"))
    if tokenize is not None:
        check_choice("--tokenize", tokenize, TOKENIZERS)
    names = _metric_names(metric)
    references = list(reference or [])
    if len(references) < 3 and not trans_topic:
        raise UsageError(f"QARLA needs at least three --reference FILE, not {len(references)} (or two with --trans-topic)")
    if len(references) < 2:
        raise UsageError(f"--trans-topic needs at least two --reference FILE, not {len(references)}")
    if not system:
        raise UsageError("at least one --system NAME=FILE is required")
    systems = parse_named_files(system, "--system")
    if output is not None:
        check_writable(output)

    request = QarlaRequest(
        references=references,
        systems=systems,
        metrics=names,
        tie=tie,
        trans_topic=trans_topic,
        optimize=optimize,
        check_references=check_references,
        source=source,
        tokenize=tokenize,
        case=case,
        target_lang=target_lang,
        linguistic=LinguisticOptions(parsed=list(parsed or []), stanza_dir=stanza_dir, annotation_cache=annotation_cache,
                                     ne_types=ne_types, esa_corpora=list(esa_corpus or [])),
    )
    try:
        result = qarla_evaluate(request, track=lambda items: track(items, "similarities"))
    except TargetLanguageNeeded as error:
        verb = "depends" if len(error.metrics) == 1 else "depend"
        raise UsageError(f"{', '.join(error.metrics)} {verb} on the target language: give --tgt-lang LANG") from None
    emit(qarla_json(result) if output_format == "json" else qarla_tables(result), output)


def register(app: typer.Typer) -> None:
    app.command("qarla", help=HELP, no_args_is_help=True)(qarla)
