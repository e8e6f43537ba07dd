"""``checkpoints metrics``: Asiya-named metric scores for many systems, with significance.

Options are parsed and checked here (errors name the options); the work is
:func:`checkpoints.service.metrics.score_metrics`, the rendering
:mod:`checkpoints.report.metric_formats`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from checkpoints.cli.common import check_choice, emit, parse_named_files, store_and_suite, track
from checkpoints.errors import CheckpointsError, UsageError
from checkpoints.evaluate.defaults import DEFAULT_CORRECTION, DEFAULT_SAMPLES, DEFAULT_SEED
from checkpoints.evaluate.metric_runner import SignificanceRequest
from checkpoints.evaluate.metrics.base import parse_granularity
from checkpoints.evaluate.metrics.combination import split_metric_list
from checkpoints.evaluate.metrics.registry import describe, entry, get_metric, metric_names
from checkpoints.evaluate.resample import Method, ResampleSpec
from checkpoints.evaluate.significance import Correction
from checkpoints.io.files import check_writable
from checkpoints.io.testsets import InputFormat
from checkpoints.report.formats import METRIC_FORMATS, OutputFormat
from checkpoints.report.metric_formats import render
from checkpoints.service.metrics import MetricsRequest, TargetLanguageNeeded, score_metrics
from checkpoints.tokenizers import TOKENIZERS

if TYPE_CHECKING:
    from checkpoints.evaluate.metric_runner import SignificanceRequest
    from checkpoints.evaluate.metrics.base import Metric
    from checkpoints.evaluate.metrics.registry import MetricEntry
    from checkpoints.service.metrics import TargetLanguageNeeded

GRANULARITIES = ("sys", "doc", "seg", "all")
SIGNIFICANCE_METHODS = ("bootstrap", "ar")
CORRECTIONS = ("holm", "bh", "none")

EXAMPLES = """\
Examples:

  BLEU, chrF and TER of two systems against one reference, one line per system:

    checkpoints metrics --reference ref.de --system A=a.de --system B=b.de -m BLEU,chrF,-TER

  All lexical metrics at system, document and segment level, as JSON:

    checkpoints metrics -r ref1.txt -r ref2.txt -s A=a.txt --metric-set lexical -g all --format json

  Is B better than the baseline A? Paired bootstrap, 1000 resamples, Holm-corrected:

    checkpoints metrics -r ref.txt -s A=a.txt -s B=b.txt -s C=c.txt -m BLEU,chrF --baseline A

  Combinations are metric names: Asiya's ULC and QARLA's QUEEN (three references or more):

    checkpoints metrics -r r1.txt -r r2.txt -r r3.txt -s A=a.txt -s B=b.txt -m "ULC(BLEU,chrF,-TER),QUEEN(BLEU,ROUGE-L)"

  A WMT XML test set holding source, references and system outputs:

    checkpoints metrics --input wmt -r wmttest2021.en-de.xml -s wmttest2021.en-de.xml -m BLEU

  Every check-point category of a suite whose pairs are the test set's segments, as
  metrics (LC-<category>, LC-WORDS, ..., LC) beside BLEU:

    checkpoints metrics -r ref.es -s direct=direct.es -s pivot=pivot.es -m BLEU --db pud.db -g all

  Every metric name with a one-line definition:

    checkpoints metrics --list
"""

HELP = (
    "Score system translations with Asiya-named metrics (BLEU, NIST, METEOR, ROUGE, -TER, chrF, ...).\n\n"
    "Scores keep each metric's own scale (BLEU in [0,1], NIST as mteval prints it, chrF 0-100 as "
    "sacreBLEU prints it); error rates are negated (-TER, -WER). System and document scores come from "
    "per-segment statistics: summed for corpus-level metrics (BLEU, NIST, TER, chrF), averaged for "
    "mean-of-segment metrics (--list says which).\n\n"
    "With --baseline or --all-pairs, every compared system gets, per metric, the "
    "difference, its confidence interval and a p-value corrected for multiple comparisons (paired "
    "bootstrap or approximate randomization on the metrics' per-segment statistics). Every report "
    "carries sacreBLEU-style signatures.\n\n"
    "Raw input is one segment per line: one document UNKNOWN_DOC, segment ids = line numbers. With "
    "--input nist (NIST SGML or Metrics MaTr XML) or --input wmt (WMT XML), document "
    "and segment ids come from the files; a reference file contributes every reference in it (and its "
    "source), and --system FILE without NAME= takes every system in the file.\n\n"
    "The target language is never assumed: NIST and WMT files declare it; for raw text, metrics that "
    "depend on it (METEOR, ROUGE: stemmers, synonyms, tuned parameters) need --tgt-lang.\n\n"
    "--db DB adds Zhou et al.'s linguistic check-point features, computed as `evaluate` does (its "
    "default tokenizer, matching and n-gram order) on a suite whose sentence pairs are the test set's "
    "segments, in order: LC-<category> per category, LC-WORDS, LC-PHRASES, LC-SENTENCES per level and LC "
    "for the whole taxonomy; their system scores are `evaluate`'s. A segment (or document) without a "
    "check-point of a category has no score for it (null in JSON, nan in text) and is left out of that "
    "metric's correlations."
)


def register(app: typer.Typer) -> None:
    app.command("metrics", help=HELP + "\n\n" + EXAMPLES, no_args_is_help=True)(metrics)


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
        typer.Option(
            "--metrics",
            "-m",
            metavar="NAMES",
            help="Comma-separated Asiya metric names (adds to --metric-set); combinations too: "
            "'ULC(BLEU,METEOR-ex,-TER)' (Asiya's normalised mean), 'QUEEN(BLEU,ROUGE-L)' (QARLA, 3+ references).",
            show_default=False,
        ),
    ] = None,
    metric_set: Annotated[str | None, typer.Option("--metric-set", metavar="SET", help="A named set of metrics, e.g. lexical.")] = None,
    granularity: Annotated[str, typer.Option("--granularity", "-g", metavar="sys|doc|seg|all", help="Score level; all prints the three.")] = "sys",
    input_format: Annotated[str, typer.Option("--input", "-i", metavar="raw|nist|wmt", help="Input file format.")] = "raw",
    tokenize: Annotated[
        str | None,
        typer.Option("--tokenize", metavar="13a|intl|zh|char|none|words", help="Tokenizer [default: zh for a Chinese target, else 13a]. 13a because sacreBLEU and the reference tools tokenize so, and the scores equal theirs; check-point matching (evaluate) uses words instead, because 13a leaves “Clinton’s” glued to its word.", show_default=False),
    ] = None,
    case: Annotated[str, typer.Option("--case", metavar="cs|ci", help="Case-sensitive (cs) or case-insensitive (ci) matching.")] = "cs",
    target_lang: Annotated[
        str | None,
        typer.Option(
            "--tgt-lang",
            "--target-lang",
            metavar="LANG",
            help="Target language (tokenizer default, stemmers, METEOR) [default: what NIST/WMT files declare; "
            "raw text with METEOR or ROUGE needs it].",
            show_default=False,
        ),
    ] = None,
    include_refs: Annotated[bool, typer.Option("--include-refs", help="Also score each reference against the other references.")] = False,
    baseline: Annotated[str | None, typer.Option("--baseline", metavar="NAME", help="Compare every system with this one.")] = None,
    significance: Annotated[
        str | None,
        typer.Option("--significance", metavar="bootstrap|ar", help="Paired bootstrap or approximate randomization [default: bootstrap].", show_default=False),
    ] = None,
    all_pairs: Annotated[bool, typer.Option("--all-pairs", help="Compare every pair of systems.")] = False,
    samples: Annotated[int, typer.Option("--samples", metavar="N", help="Resamples (bootstrap) or trials (ar).")] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Random seed of the resampling.")] = DEFAULT_SEED,
    alpha: Annotated[float, typer.Option("--alpha", metavar="A", help="1 - confidence of intervals; significance level.")] = 0.05,
    correction: Annotated[str, typer.Option("--correction", metavar="holm|bh|none", help="Multiple-comparison correction over the comparisons of each metric.")] = DEFAULT_CORRECTION,
    output_format: Annotated[
        str, typer.Option("--format", "-f", metavar="mmatrix|smatrix|nist|asiya-xml|json|csv", help="Report format.")
    ] = "mmatrix",
    paraphrase_table: Annotated[
        Path | None, typer.Option("--paraphrase-table", metavar="FILE", help="METEOR-pa's table: Meteor's own (paraphrase-en.gz) or phrase<TAB>paraphrase lines.")
    ] = None,
    function_words: Annotated[
        Path | None, typer.Option("--function-words", metavar="FILE", help="Function words for METEOR (one a line).")
    ] = None,
    brevity_penalty: Annotated[
        str, typer.Option("--brevity-penalty", metavar="closest|shortest", help="Effective reference length of BLEU/NIST (mteval).")
    ] = "closest",
    nist_info: Annotated[
        str,
        typer.Option(
            "--nist-info", metavar="mteval|intended",
            help='NIST information weights: mteval-v13a\'s, which weigh a bigram starting with the token "0" against the total word count, or the formula as published.',
        ),
    ] = "mteval",
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="DB",
            help="A check-point store (SQLite file or SQLAlchemy URL) whose suite's pairs are the test set's segments: "
            "adds LC-<category>, LC-WORDS/PHRASES/SENTENCES and LC.",
            show_default=False,
        ),
    ] = None,
    suite: Annotated[
        str | None, typer.Option("--suite", metavar="NAME", help="The suite in --db, when it holds several (--suite DB, the old spelling, still names the store).", show_default=False)
    ] = None,
    suite_name: Annotated[str | None, typer.Option("--suite-name", hidden=True)] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the report here instead of stdout.")] = None,
    list_metrics: Annotated[bool, typer.Option("--list", help="List every metric with a one-line definition and exit.")] = False,
) -> None:
    """Score system translations with Asiya-named metrics."""

    if list_metrics:
        _print_list(metric_names(), describe, get_metric)
        return


    granularities = parse_granularity(check_choice("--granularity", granularity, GRANULARITIES))
    chosen_input = InputFormat(check_choice("--input", input_format, [member.value for member in InputFormat]))
    chosen_format = OutputFormat(check_choice("--format", output_format, [member.value for member in METRIC_FORMATS]))
    check_choice("--case", case, ("cs", "ci"))
    if tokenize is not None:
        check_choice("--tokenize", tokenize, TOKENIZERS)
    check_choice("--brevity-penalty", brevity_penalty, ("closest", "shortest"))
    check_choice("--nist-info", nist_info, ("mteval", "intended"))

    # Commas inside a combination's parentheses separate its parts, not metrics.
    explicit = [name for value in metric or [] for name in split_metric_list(value)]
    suite, suite_name = store_and_suite(db, suite, suite_name)
    if suite_name is not None and suite is None:
        raise UsageError("--suite NAME chooses a suite of --db DB: give --db")
    if not explicit and not metric_set and suite is None:
        raise UsageError("no metric requested: give -m NAMES or --metric-set SET (see --list)")
    for name in explicit:
        _check_metric_options(name, entry(name), {"paraphrase-table": paraphrase_table, "function-words": function_words})
    request_significance = _significance(baseline, all_pairs, significance, samples, seed, alpha, correction)
    if not reference:
        raise UsageError("at least one --reference FILE is required")
    if not system:
        raise UsageError("at least one --system NAME=FILE is required")
    systems = _system_specs(system, raw=chosen_input is InputFormat.RAW)
    if output is not None:
        check_writable(output)

    request = MetricsRequest(
        references=list(reference),
        systems=systems,
        metrics=explicit,
        metric_set=metric_set,
        input_format=chosen_input,
        source=source,
        tokenize=tokenize,
        case=case,
        target_lang=target_lang,
        include_refs=include_refs,
        significance=request_significance,
        paraphrase_table=paraphrase_table,
        function_words=function_words,
        brevity_penalty=brevity_penalty,
        nist_info=nist_info,
        suite=suite,
        suite_name=suite_name,
    )
    try:
        report = score_metrics(request, track=lambda items: track(items, "metrics"))
    except TargetLanguageNeeded as error:
        raise UsageError(_language_message(error)) from None
    for name, reason in report.skipped.items():
        sys.stderr.write(f"checkpoints: warning: {name} skipped: {' '.join(reason.split())}\n")
    emit(render(report, chosen_format, granularities), output)


def _check_metric_options(name: str, metric: MetricEntry, given: dict[str, Path | None]) -> None:
    """A metric asked for by name that needs a file option fails before anything is read."""
    for key in metric.requires:
        if given.get(key) is None:
            raise UsageError(f"{name} needs --{key} FILE")


def _significance(
    baseline: str | None, all_pairs: bool, method: str | None, samples: int, seed: int, alpha: float, correction: str
) -> SignificanceRequest | None:
    """The significance test asked for (None without --baseline or --all-pairs), options checked."""

    if baseline is None and not all_pairs:
        if method is not None:
            raise UsageError("--significance needs --baseline NAME or --all-pairs")
        return None
    chosen = Method(check_choice("--significance", method or "bootstrap", SIGNIFICANCE_METHODS))
    chosen_correction = Correction(check_choice("--correction", correction, CORRECTIONS))
    if samples < 1:
        raise UsageError(f"--samples must be at least 1, not {samples}")
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1, not {alpha}")
    return SignificanceRequest(
        baseline=baseline,
        all_pairs=all_pairs,
        spec=ResampleSpec(method=chosen, samples=samples, seed=seed),
        correction=chosen_correction,
        alpha=alpha,
    )


def _system_specs(values: Sequence[str], raw: bool) -> list[tuple[str | None, Path]]:
    """``NAME=FILE`` pairs (:func:`parse_named_files`), in order; for XML or SGML input also ``FILE``
    alone, which takes every system in the file under its own id."""
    named = iter(parse_named_files([value for value in values if "=" in value], "--system"))
    specs: list[tuple[str | None, Path]] = []
    for value in values:
        if "=" in value:
            specs.append(next(named))
        elif raw:
            raise UsageError(f"--system {value}: raw input needs NAME=FILE")
        else:
            specs.append((None, Path(value)))
    return specs


def _language_message(error: TargetLanguageNeeded) -> str:
    """The service's error, naming the option that gives the language."""
    verb = "depends" if len(error.metrics) == 1 else "depend"
    return f"{', '.join(error.metrics)} {verb} on the target language, which {error.where} does not declare: give --tgt-lang LANG"


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
