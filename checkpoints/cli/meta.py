"""``checkpoints meta``: which metrics agree with human judgments (Asiya's ``-metaeval``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from checkpoints.cli.common import parse_named_files, stdout_console, track
from checkpoints.errors import CorpusMismatch, UsageError
from checkpoints.evaluate.meta.correlation import DEFAULT_CRITERIA, Criterion, parse_criteria
from checkpoints.evaluate.meta.runner import (
    CIMethod,
    GroupedResult,
    JudgedSet,
    Level,
    MetaOptions,
    MetaResult,
    Results,
    judged_from_assessments,
    judged_from_mqm,
    run_meta,
)
from checkpoints.evaluate.metrics.base import Metric, MetricOptions
from checkpoints.evaluate.metrics.registry import get_metric
from checkpoints.evaluate.resample import DEFAULT_SAMPLES, DEFAULT_SEED
from checkpoints.io.assessments import read_assessments
from checkpoints.io.mqm import read_avg_seg_scores, read_mqm
from checkpoints.io.text import read_sentences
from checkpoints.tokenizers import TOKENIZERS, default_tokenizer

HELP = """Correlate metric scores with human judgments at system, document or segment level.

Human scores come from an Asiya assessments CSV (with raw-text references and
system outputs) or from an MQM error file (systems, source and references all
in one file; --reference-system names the human translation used as reference
and leaves it out of the evaluated systems). Segment level reports the pooled
correlation and the correlation grouped by item (per segment across systems,
averaged).

With --ci bootstrap the reported r is the median of the resampled
coefficients (as Asiya prints it) and "observed" the full-sample value; Fisher
intervals are given for Pearson only.

Examples:

  checkpoints meta --mqm mqm_ted_ende.tsv --reference-system ref \\
      -m BLEU,chrF,-TER

  checkpoints meta --mqm mqm_ted_zhen.tsv --reference-system ref \\
      --mqm-scores mqm_ted_zhen.avg_seg_scores.tsv \\
      --exclude-system refB -m BLEU -g seg --format json

  checkpoints meta --reference ref.txt --system a=a.txt --system b=b.txt \\
      --assessments human.csv -m BLEU -g seg --ci bootstrap --samples 1000
"""


def _metric_names(values: list[str]) -> list[str]:
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    if not names:
        raise UsageError("-m names no metric")
    return list(dict.fromkeys(names))


def _judged_from_files(
    references: list[Path], systems: list[str], source: Path | None, assessments: Path
) -> JudgedSet:
    if not references:
        raise UsageError("--assessments needs at least one --reference FILE")
    if not systems:
        raise UsageError("--assessments needs at least one --system NAME=FILE")
    reference_lines = [read_sentences(path) for path in references]
    size = len(reference_lines[0])
    outputs: dict[str, list[str]] = {}
    labels: list[tuple[str, int]] = [(str(path), len(lines)) for path, lines in zip(references, reference_lines, strict=True)]
    for name, path in parse_named_files(systems, "--system"):
        outputs[name] = read_sentences(path, allow_empty=True)
        labels.append((f"{path} (system {name})", len(outputs[name])))
    source_lines = read_sentences(source) if source is not None else None
    if source_lines is not None:
        labels.append((str(source), len(source_lines)))
    for label, count in labels:
        if count != size:
            raise CorpusMismatch(f"{label} has {count} lines but {references[0]} has {size}")
    return judged_from_assessments(read_assessments(assessments), reference_lines, outputs, source_lines)


def _format_value(result_r: float | None, ci: tuple[float, float] | None) -> str:
    if result_r is None:
        return "undefined"
    text = f"{result_r:.4f}"
    if ci is not None:
        text += f" [{ci[0]:.4f}, {ci[1]:.4f}]"
    return text


def _results_table(title: str, results: Results, criteria: tuple[Criterion, ...]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("metric")
    for criterion in criteria:
        table.add_column(criterion.value, justify="right")
    for name, by in results.items():
        table.add_row(name, *(_format_value(by[c].r, by[c].ci) for c in criteria))
    return table


def _paired_tables(title: str, paired: dict[Criterion, dict[str, dict[str, float | None]]]) -> list[Table]:
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


def _render_table(result: MetaResult) -> None:
    console = stdout_console()
    options = result.options
    header = f"{result.level.value} level, n = {result.n}, {result.judgments}, ci = {options.ci.value}"
    if options.resampled:
        header += f" ({options.samples} samples, alpha {options.alpha:g}; r = bootstrap median)"
    title = "pooled" if result.level is Level.SEG else header
    if result.level is Level.SEG:
        console.print(header)
    console.print(_results_table(title, result.results, options.criteria))
    if result.paired is not None:
        for table in _paired_tables("pooled" if result.level is Level.SEG else "paired bootstrap", result.paired):
            console.print(table)
    grouped: GroupedResult | None = result.grouped
    if grouped is not None:
        console.print(_results_table(f"grouped by item ({grouped.n} segments)", grouped.results, options.criteria))
        if grouped.paired is not None:
            for table in _paired_tables("grouped by item", grouped.paired):
                console.print(table)
    console.print(f"signature: {options.signature()}")


def meta(
    metric: Annotated[list[str], typer.Option("--metrics", "-m", metavar="NAMES", help="Metric names, comma-separated (Asiya names: BLEU, chrF, -TER, ...).")],
    mqm: Annotated[Path | None, typer.Option("--mqm", metavar="FILE", help="MQM error TSV: systems, source, references and error rows.")] = None,
    mqm_scores: Annotated[Path | None, typer.Option("--mqm-scores", metavar="FILE", help="MQM average segment scores (default: recompute from the errors).")] = None,
    reference_system: Annotated[str | None, typer.Option("--reference-system", metavar="NAME", help="The MQM system used as reference (e.g. ref); not evaluated.")] = None,
    exclude_system: Annotated[list[str] | None, typer.Option("--exclude-system", metavar="NAME", help="An MQM system to leave out (repeatable).")] = None,
    reference: Annotated[list[Path] | None, typer.Option("--reference", "-r", metavar="FILE", help="Reference file, one segment per line (repeatable).")] = None,
    system: Annotated[list[str] | None, typer.Option("--system", metavar="NAME=FILE", help="NAME=FILE system output, one segment per line (repeatable).")] = None,
    source: Annotated[Path | None, typer.Option("--source", metavar="FILE", help="Source file, for metrics that read it.")] = None,
    assessments: Annotated[Path | None, typer.Option("--assessments", metavar="FILE", help="Asiya assessments CSV (systemId, documentId, segmentId, score).")] = None,
    granularity: Annotated[Level, typer.Option("-g", "--granularity", help="Level of the correlation.")] = Level.SYS,
    criteria: Annotated[str, typer.Option("--criteria", metavar="NAMES", help=f"Comma-separated: {', '.join(c.value for c in Criterion)}.")] = ",".join(c.value for c in DEFAULT_CRITERIA),
    ci: Annotated[CIMethod, typer.Option("--ci", help="Confidence intervals.")] = CIMethod.FISHER,
    samples: Annotated[int, typer.Option("--samples", metavar="N", help="Bootstrap resamples.")] = DEFAULT_SAMPLES,
    alpha: Annotated[float, typer.Option("--alpha", metavar="A", help="Significance level: 0.05 gives 95% intervals.")] = 0.05,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the resampling.")] = DEFAULT_SEED,
    tokenize: Annotated[str | None, typer.Option("--tokenize", metavar="|".join(TOKENIZERS), help="Metric tokenizer \\[default: zh for a Chinese target, else 13a].", show_default=False)] = None,
    case: Annotated[str, typer.Option("--case", metavar="cs|ci", help="Case-sensitive (cs) or case-insensitive (ci) matching.")] = "cs",
    target_lang: Annotated[str, typer.Option("--target-lang", metavar="LANG", help="Target language (tokenizer default, stemmers, WordNet).")] = "en",
    output_format: Annotated[str, typer.Option("--format", "-f", metavar="table|json", help="Report format.")] = "table",
) -> None:
    if output_format not in ("table", "json"):
        raise UsageError(f"--format {output_format!r}: choose table or json")
    if case not in ("cs", "ci"):
        raise UsageError(f"--case {case!r}: choose cs or ci")
    tokenize = tokenize or default_tokenizer(target_lang)
    if tokenize not in TOKENIZERS:
        raise UsageError(f"--tokenize {tokenize!r}: choose from {', '.join(TOKENIZERS)}")
    options = MetaOptions(
        level=granularity, criteria=parse_criteria(criteria), ci=ci, samples=samples, alpha=alpha, seed=seed
    )
    metric_options = MetricOptions(tokenize=tokenize, case=case, language=target_lang)
    metrics: list[Metric] = [get_metric(name, metric_options) for name in _metric_names(metric)]
    if mqm is not None:
        if assessments is not None or reference or system or source is not None:
            raise UsageError("--mqm holds systems, source and references: do not combine it with "
                             "--assessments, --reference, --system or --source")
        if reference_system is None:
            raise UsageError("--mqm needs --reference-system NAME (the human translation used as reference, e.g. ref)")
        data = read_mqm(mqm)
        scores = read_avg_seg_scores(mqm_scores, data.systems) if mqm_scores is not None else None
        judged = judged_from_mqm(data, reference_system, exclude_system or (), scores)
    elif assessments is not None:
        if mqm_scores is not None or reference_system is not None or exclude_system:
            raise UsageError("--mqm-scores, --reference-system and --exclude-system go with --mqm")
        judged = _judged_from_files(reference or [], system or [], source, assessments)
    else:
        raise UsageError("give human judgments: --mqm FILE or --assessments FILE")
    result = run_meta(judged, metrics, options, track=lambda items: track(items, "scoring metrics"))
    if output_format == "json":
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        _render_table(result)


def register(app: typer.Typer) -> None:
    app.command("meta", help=HELP)(meta)
