"""``checkpoints metrics``: Asiya-named metric scores for many systems, with significance.

Options parse here; reading is :mod:`checkpoints.io.testsets`, scoring and
significance :mod:`checkpoints.evaluate.metric_runner`, rendering
:mod:`checkpoints.report.metric_formats`.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from checkpoints.cli.common import track
from checkpoints.errors import CheckpointsError, UsageError

if TYPE_CHECKING:
    from checkpoints.evaluate.metrics.base import Metric

E = TypeVar("E", bound=StrEnum)

EXAMPLES = """\
[bold]Examples[/bold]

  BLEU, chrF and TER of two systems against one reference, one line per system:

    [cyan]checkpoints metrics --reference ref.de --system A=a.de --system B=b.de -m BLEU,chrF,-TER[/cyan]

  All lexical metrics at system, document and segment level, as JSON:

    [cyan]checkpoints metrics -r ref1.txt -r ref2.txt -s A=a.txt --metric-set lexical -g all --format json[/cyan]

  Is B better than the baseline A? Paired bootstrap, 1000 resamples, Holm-corrected:

    [cyan]checkpoints metrics -r ref.txt -s A=a.txt -s B=b.txt -s C=c.txt -m BLEU,chrF --baseline A[/cyan]

  A WMT XML test set holding source, references and system outputs:

    [cyan]checkpoints metrics --input wmt -r wmttest2021.en-de.xml -s wmttest2021.en-de.xml -m BLEU[/cyan]

  Every metric name with a one-line definition:

    [cyan]checkpoints metrics --list[/cyan]
"""

HELP = (
    "Score system translations with Asiya-named metrics (BLEU, NIST, METEOR, ROUGE, -TER, chrF, ...).\n\n"
    "Scores keep each metric's own scale (BLEU in \\[0,1], NIST as mteval prints it, chrF 0-100 as "
    "sacreBLEU prints it); error rates are negated (-TER, -WER). System and document scores come from "
    "per-segment statistics: summed for corpus-level metrics (BLEU, NIST, TER, chrF), averaged for "
    "mean-of-segment metrics (--list says which).\n\n"
    "With [bold]--baseline[/bold] or [bold]--all-pairs[/bold], every compared system gets, per metric, the "
    "difference, its confidence interval and a p-value corrected for multiple comparisons (paired "
    "bootstrap or approximate randomization on the metrics' per-segment statistics). Every report "
    "carries sacreBLEU-style signatures.\n\n"
    "Raw input is one segment per line: one document UNKNOWN_DOC, segment ids = line numbers. With "
    "[bold]--input nist[/bold] (NIST SGML or Metrics MaTr XML) or [bold]--input wmt[/bold] (WMT XML), document "
    "and segment ids come from the files; a reference file contributes every reference in it (and its "
    "source), and [bold]--system FILE[/bold] without NAME= takes every system in the file."
)


def register(app: typer.Typer) -> None:
    app.command("metrics", help=HELP, epilog=EXAMPLES, no_args_is_help=True)(metrics)


def metrics(
    reference: Annotated[
        list[Path] | None,
        typer.Option("--reference", "-r", metavar="FILE", help="Reference translations (repeat for several).", show_default=False),
    ] = None,
    system: Annotated[
        list[str] | None,
        typer.Option(
            "--system",
            "-s",
            metavar="NAME=FILE",
            help="A system output (repeat for several); XML input also takes FILE alone for every system in it.",
            show_default=False,
        ),
    ] = None,
    source: Annotated[Path | None, typer.Option("--source", metavar="FILE", help="Source segments (metrics that need a source use the first reference without it).")] = None,
    metric: Annotated[
        list[str] | None,
        typer.Option("--metrics", "-m", metavar="NAMES", help="Comma-separated Asiya metric names (adds to --metric-set).", show_default=False),
    ] = None,
    metric_set: Annotated[str | None, typer.Option("--metric-set", metavar="SET", help="A named set of metrics, e.g. lexical.")] = None,
    granularity: Annotated[str, typer.Option("--granularity", "-g", metavar="sys|doc|seg|all", help="Score level; all prints the three.")] = "sys",
    input_format: Annotated[str, typer.Option("--input", "-i", metavar="raw|nist|wmt", help="Input file format.")] = "raw",
    tokenize: Annotated[
        str | None,
        typer.Option("--tokenize", metavar="13a|intl|zh|char|none|words", help="Tokenizer \\[default: zh for a Chinese target, else 13a].", show_default=False),
    ] = None,
    case: Annotated[str, typer.Option("--case", metavar="cs|ci", help="Case-sensitive (cs) or case-insensitive (ci) matching.")] = "cs",
    target_lang: Annotated[str, typer.Option("--target-lang", metavar="LANG", help="Target language (tokenizer default, stemmers, WordNet).")] = "en",
    include_refs: Annotated[bool, typer.Option("--include-refs", help="Also score each reference against the other references.")] = False,
    baseline: Annotated[str | None, typer.Option("--baseline", metavar="NAME", help="Compare every system with this one.")] = None,
    significance: Annotated[
        str | None,
        typer.Option("--significance", metavar="bootstrap|ar", help="Paired bootstrap or approximate randomization \\[default: bootstrap].", show_default=False),
    ] = None,
    all_pairs: Annotated[bool, typer.Option("--all-pairs", help="Compare every pair of systems.")] = False,
    samples: Annotated[int, typer.Option("--samples", metavar="N", help="Resamples (bootstrap) or trials (ar).")] = 1000,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Random seed of the resampling.")] = 12345,
    alpha: Annotated[float, typer.Option("--alpha", metavar="A", help="1 - confidence of intervals; significance level.")] = 0.05,
    correction: Annotated[str, typer.Option("--correction", metavar="holm|bh|none", help="Multiple-comparison correction over the comparisons of each metric.")] = "holm",
    output_format: Annotated[
        str, typer.Option("--format", "-f", metavar="mmatrix|smatrix|nist|asiya-xml|json|csv", help="Report format.")
    ] = "mmatrix",
    paraphrase_table: Annotated[
        Path | None, typer.Option("--paraphrase-table", metavar="FILE", help="phrase<TAB>paraphrase pairs for METEOR-pa.")
    ] = None,
    function_words: Annotated[
        Path | None, typer.Option("--function-words", metavar="FILE", help="Function words for METEOR (one a line).")
    ] = None,
    brevity_penalty: Annotated[
        str, typer.Option("--brevity-penalty", metavar="closest|shortest", help="Effective reference length of BLEU/NIST (mteval).")
    ] = "closest",
    output: Annotated[Path | None, typer.Option("--output", metavar="FILE", help="Write the report here instead of stdout.")] = None,
    list_metrics: Annotated[bool, typer.Option("--list", help="List every metric with a one-line definition and exit.")] = False,
) -> None:
    """Score system translations with Asiya-named metrics."""
    from checkpoints.evaluate.metrics.registry import describe, get_metric, metric_names

    if list_metrics:
        _print_list(metric_names(), describe, get_metric)
        return

    from checkpoints.evaluate.metric_runner import (
        SignificanceRequest,
        parse_granularity,
        run_metrics,
    )
    from checkpoints.evaluate.metrics.base import MetricOptions
    from checkpoints.evaluate.resample import Method, ResampleSpec
    from checkpoints.evaluate.significance import Correction
    from checkpoints.io.testsets import InputFormat, load_testbed
    from checkpoints.report.metric_formats import OutputFormat, render
    from checkpoints.tokenizers import TOKENIZERS, default_tokenizer

    granularities = parse_granularity(granularity)
    chosen_input = _choice(input_format, InputFormat, "--input")
    chosen_format = _choice(output_format, OutputFormat, "--format")
    if case not in ("cs", "ci"):
        raise UsageError(f"--case {case!r}: choose cs or ci")
    tokenizer = tokenize if tokenize is not None else default_tokenizer(target_lang)
    if tokenizer not in TOKENIZERS:
        raise UsageError(f"--tokenize {tokenizer!r}: choose from {', '.join(TOKENIZERS)}")

    from_set = list(metric_names(metric_set)) if metric_set else []
    explicit = [part.strip() for value in metric or [] for part in value.split(",") if part.strip()]
    names = from_set + explicit
    if brevity_penalty not in ("closest", "shortest"):
        raise UsageError(f"--brevity-penalty {brevity_penalty!r}: choose closest or shortest")
    extra = {"brevity-penalty": brevity_penalty}
    if paraphrase_table is not None:
        extra["paraphrase-table"] = str(paraphrase_table)
    if function_words is not None:
        extra["function-words"] = str(function_words)
    if not names:
        raise UsageError("no metric requested: give -m NAMES or --metric-set SET (see --list)")
    for name in names:
        describe(name)  # unknown names fail before any file is read

    request = None
    if baseline is not None or all_pairs:
        method = _choice(significance or "bootstrap", Method, "--significance")
        request = SignificanceRequest(
            baseline=baseline,
            all_pairs=all_pairs,
            spec=ResampleSpec(method=method, samples=samples, seed=seed),
            correction=_choice(correction, Correction, "--correction"),
            alpha=alpha,
        )
    elif significance is not None:
        raise UsageError("--significance needs --baseline NAME or --all-pairs")

    if not reference:
        raise UsageError("at least one --reference FILE is required")
    if not system:
        raise UsageError("at least one --system NAME=FILE is required")
    testbed = load_testbed(chosen_input, reference, [_system_spec(value) for value in system], source)
    report = run_metrics(
        testbed,
        names,
        MetricOptions(tokenize=tokenizer, case=case, language=target_lang, extra=extra),
        include_refs=include_refs,
        significance=request,
        track=track,
        optional=set(from_set) - set(explicit),
    )
    for name, reason in report.skipped.items():
        sys.stderr.write(f"checkpoints: warning: {name} skipped: {' '.join(reason.split())}\n")
    _write(render(report, chosen_format, granularities), output)


def _choice(value: str, enum: type[E], option: str) -> E:
    try:
        return enum(value)
    except ValueError:
        raise UsageError(f"{option} {value!r}: choose from {', '.join(member.value for member in enum)}") from None


def _system_spec(value: str) -> tuple[str | None, Path]:
    """``NAME=FILE`` or, for XML input, ``FILE``."""
    name, sep, path = value.partition("=")
    if not sep:
        return None, Path(value)
    if not name or not path:
        raise UsageError(f"--system {value!r}: expected NAME=FILE")
    return name, Path(path)


def _print_list(names: list[str], describe: Callable[[str], str], get_metric: Callable[[str], Metric]) -> None:
    """``NAME  [corpus|mean] definition``: the tag says how system and document scores aggregate
    (summed statistics or mean of segment scores), or why the metric cannot run as it is."""
    if not names:
        sys.stdout.write("no metrics installed\n")
        return
    width = max(len(name) for name in names)
    lines = []
    for name in names:
        try:
            aggregation = get_metric(name).aggregation.value
        except UsageError:  # needs an option (METEOR-pa: --paraphrase-table)
            aggregation = "needs options"
        except CheckpointsError:  # a resource (WordNet) is missing here: still list the name
            aggregation = "unavailable here"
        lines.append(f"{name.ljust(width)}  [{aggregation}] {describe(name)}")
    sys.stdout.write("\n".join(lines) + "\n")


def _write(text: str, output: Path | None) -> None:
    """stdout, or a file replaced atomically so a failed run never leaves half a report."""
    if output is None:
        sys.stdout.write(text)
        return
    directory = output.parent if str(output.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{output.name}.", suffix=".tmp")
    except OSError as error:
        raise UsageError(f"--output {output}: cannot write there ({error.strerror})") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, output)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
