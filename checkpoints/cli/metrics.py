"""``checkpoints metrics``: Asiya-named metric scores for many systems, with significance.

Options are checked into a request by
:class:`checkpoints.service.metrics_arguments.MetricsArguments` (errors name
the options); the work is :func:`checkpoints.service.metrics.score_metrics`,
the rendering :mod:`checkpoints.report.metric_formats`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import check_choice, emit, stderr_console, track
from checkpoints.cli.engine_options import Address, EngineName, GpusPerWorker, Workers, engine_spec
from checkpoints.cli.linguistic_options import (
    AnnotationCache,
    Dictionaries,
    EsaCorpus,
    LanguageModels,
    LemCorpus,
    LemParams,
    LengthFactor,
    NeTypes,
    Parsed,
    SourceLanguage,
    StanzaDir,
    Vocabularies,
    linguistic_options,
)
from checkpoints.cli.statistics_options import StatisticsCacheDir, reuse_line_of
from checkpoints.errors import UsageError
from checkpoints.evaluate.defaults import (
    DEFAULT_ALPHA,
    DEFAULT_CORRECTION,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
)
from checkpoints.evaluate.metrics.linguistic.annotations import PARSE_REPORT
from checkpoints.io.files import check_writable
from checkpoints.report.formats import METRIC_FORMATS, OutputFormat
from checkpoints.report.metric_formats import render
from checkpoints.report.metric_list import metric_list_text
from checkpoints.service.metric_catalog import metric_listing
from checkpoints.service.metrics import TargetLanguageNeeded, score_metrics
from checkpoints.service.metrics_arguments import MetricsArguments

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
    source: Annotated[Path | None, typer.Option("--source", metavar="FILE", help="Source segments, one a line (the CE metrics compare each translation with its source).")] = None,
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
    alpha: Annotated[float, typer.Option("--alpha", metavar="A", help="1 - confidence of intervals; significance level.")] = DEFAULT_ALPHA,
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
    parsed: Parsed = None,
    stanza_dir: StanzaDir = None,
    annotation_cache: AnnotationCache = None,
    ne_types: NeTypes = "asiya",
    esa_corpus: EsaCorpus = None,
    src_lang: SourceLanguage = None,
    lm: LanguageModels = None,
    vocab: Vocabularies = None,
    dictionary: Dictionaries = None,
    ce_length_factor: LengthFactor = None,
    lem_params: LemParams = None,
    lem_corpus: LemCorpus = None,
    statistics_cache_dir: StatisticsCacheDir = None,
    engine: EngineName = "local",
    address: Address = None,
    workers: Workers = None,
    gpus_per_worker: GpusPerWorker = 0.0,
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the report here instead of stdout.")] = None,
    list_metrics: Annotated[bool, typer.Option("--list", help="List every metric with a one-line definition and exit.")] = False,
) -> None:
    """Score system translations with Asiya-named metrics."""

    if list_metrics:
        sys.stdout.write(metric_list_text(metric_listing()))
        return
    arguments = MetricsArguments(
        references=list(reference or []), systems=list(system or []), source=source, metrics=list(metric or []),
        metric_set=metric_set, granularity=granularity, input_format=input_format, tokenize=tokenize, case=case,
        target_lang=target_lang, include_refs=include_refs, baseline=baseline, significance=significance,
        all_pairs=all_pairs, samples=samples, seed=seed, alpha=alpha, correction=correction,
        paraphrase_table=paraphrase_table, function_words=function_words, brevity_penalty=brevity_penalty,
        nist_info=nist_info, db=db, suite=suite, suite_name=suite_name,
        engine=engine_spec(engine, address, workers, gpus_per_worker), statistics_cache=statistics_cache_dir,
        linguistic=linguistic_options(parsed, stanza_dir, annotation_cache, ne_types, esa_corpus, src_lang, lm, vocab,
                                      dictionary, ce_length_factor, lem_params, lem_corpus),
    )
    chosen_format = OutputFormat(check_choice("--format", output_format, [member.value for member in METRIC_FORMATS]))
    request = arguments.request()
    if output is not None:
        check_writable(output)
    console = stderr_console()
    token = PARSE_REPORT.set(lambda line: console.print(line, highlight=False))
    try:
        report = score_metrics(request, track=lambda items: track(items, "metrics"))
    except TargetLanguageNeeded as error:
        raise UsageError(_language_message(error)) from None
    finally:
        PARSE_REPORT.reset(token)
    for name, reason in report.skipped.items():
        sys.stderr.write(f"checkpoints: warning: {name} skipped: {' '.join(reason.split())}\n")
    if report.reused is not None:
        console.print(reuse_line_of(*report.reused), highlight=False)
    emit(render(report, chosen_format, arguments.granularities()), output)


def _language_message(error: TargetLanguageNeeded) -> str:
    """The service's error, naming the option that gives the language."""
    verb = "depends" if len(error.metrics) == 1 else "depend"
    return f"{', '.join(error.metrics)} {verb} on the target language, which {error.where} does not declare: give --tgt-lang LANG"
