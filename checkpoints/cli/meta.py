"""``checkpoints meta``: which metrics agree with human judgments (Asiya's ``-metaeval``).

Options are checked into a request by
:class:`checkpoints.service.meta_arguments.MetaArguments` (errors name the
options); the work is :func:`checkpoints.service.meta.meta_evaluate`, the
rendering :mod:`checkpoints.report.meta_report`.
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
from checkpoints.cli.statistics_options import StatisticsCacheDir, reuse_line
from checkpoints.errors import UsageError
from checkpoints.evaluate.defaults import DEFAULT_ALPHA, DEFAULT_SAMPLES, DEFAULT_SEED
from checkpoints.evaluate.meta.criteria import DEFAULT_CRITERIA, Criterion
from checkpoints.evaluate.metrics.linguistic.annotations import PARSE_REPORT
from checkpoints.evaluate.statistics_cache import statistics_cache
from checkpoints.io.files import check_writable
from checkpoints.report.formats import META_FORMATS
from checkpoints.report.meta_report import (
    by_category_json,
    by_category_tables,
    meta_json,
    meta_tables,
)
from checkpoints.service.meta import meta_by_category, meta_evaluate
from checkpoints.service.meta_arguments import CI_METHODS, LEARNERS, MetaArguments
from checkpoints.service.metrics import TargetLanguageNeeded
from checkpoints.tokenizers import TOKENIZERS

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

The WMT / mt-metrics-eval criteria: pairwise-accuracy, acc-eq (pairwise
accuracy with the tie threshold epsilon that maximises it, reported), spa
(soft pairwise accuracy, system level only, with its permutation p-values per
system pair) and pce (pairwise confidence error: the mean over system pairs
of |p_human - p_metric| from the same p-values, = 1 - spa; lower is better;
system level only). --clusters CRITERION ranks the metrics into significance
clusters with WMT's paired permutation test (--samples permutations, --seed,
--alpha).

Human likeness, no human scores needed: king and orange score each reference
as a peer against the other references (so they need two or more: repeat
--reference, or --reference-system for --mqm) beside every system scored
against the same references, on the units of -g. orange is Asiya's ORANGE,
how often the reference scores at least as high as a system (higher is
better), with Lin & Och's rank ORANGE (average rank of the reference among
the systems, over the list size; lower is better) as "rank"; king is QARLA's
KING of the metric alone (trans-topic, pairs pooled across units, with two
references), with Asiya's KING (reference at least as high as every system)
as "asiya".

--optimize CRITERION searches Asiya's greedy optimal metric set: the metrics
ranked by CRITERION alone (ties by name), each added only when the ULC of the
set strictly raises CRITERION (a correlation at -g, or king/orange); the
trace lists every metric tried.

--learn perceptron|ranksvm --features NAMES learns a weighted combination of
the feature metrics from pairs of outputs of the same segment ordered by the
human scores (Asiya's ranking perceptron: 100 epochs, weights from 0, ties
left out; or a ranking SVM on standardised features), cross-validated over
segments in --folds K folds (--seed): the held-out correlation at -g and the
held-out pairwise accuracy, next to each feature alone, and the weights of a
final fit on every segment.

--db DB (with --suite NAME when the store holds several) adds the LC
metrics of a check-point suite whose pairs are the judged segments (LC,
LC-WORDS, ..., LC-<category>); a segment without a check-point of a category
has no score for it and is left out of that metric's correlations only ("n"
in its results). LC names can be --features. king and orange cannot use them.

--by-category DB (a check-point suite whose pairs are the --mqm segments)
also correlates every metric with the MQM penalty attributed to each
category: the errors that overlap the category's check-points (as
checkpoints attribute finds them). One table row per category gives each
metric's value of the first criterion and the metric that tracks those
errors best.

When the MQM file rates the reference, meta warns on stderr if the humans
rate it below most systems.

Neither judgment file says the target language: metrics that depend on it
(METEOR, ROUGE) need --tgt-lang.

Examples:

  checkpoints meta --mqm mqm_ted_ende.tsv --reference-system ref \\
      -m BLEU,chrF,-TER

  checkpoints meta --mqm mqm_ted_zhen.tsv --reference-system ref \\
      --mqm-scores mqm_ted_zhen.avg_seg_scores.tsv \\
      --exclude-system refB -m BLEU -g seg --format json

  checkpoints meta --mqm mqm_ted_ende.tsv --reference-system ref \\
      -m BLEU,chrF --criteria pairwise-accuracy,acc-eq,spa,pce --clusters pearson

  checkpoints meta --mqm mqm_ted_ende.tsv --reference-system ref \\
      -m BLEU,chrF,-TER -g seg --optimize pearson

  checkpoints meta --mqm mqm_ted_ende.tsv --reference-system ref \\
      -m BLEU,chrF -g seg --learn ranksvm --features BLEU,chrF,LC-Noun \\
      --folds 3 --db ted.db

  checkpoints meta --mqm mqm_ted_ende.tsv --reference-system ref \\
      -m BLEU,chrF,-TER -g sys --by-category ted.db

  checkpoints meta --reference ref.txt --system a=a.txt --system b=b.txt \\
      --assessments human.csv -m BLEU -g seg --ci bootstrap --samples 1000

  checkpoints meta --mqm mqm_ted_zhen.tsv --reference-system ref \\
      --reference-system refB -m BLEU,chrF -g seg --criteria pearson,king,orange

  checkpoints meta --mqm mqm_ted_ende.tsv --reference-system ref \\
      -m BLEU,chrF,-TER,-WER,Ol,Pl,GTM-1 --jobs 4

  # the same on a Ray cluster, one task per metric family:
  checkpoints meta --mqm mqm_ted_ende.tsv --reference-system ref \\
      -m BLEU,chrF,-TER,-WER,Ol,Pl,GTM-1 --engine ray --address ray://head:10001
"""


def meta(
    metric: Annotated[list[str] | None, typer.Option("--metrics", "-m", metavar="NAMES", help="Metric names, comma-separated (Asiya names: BLEU, chrF, -TER, ...).", show_default=False)] = None,
    mqm: Annotated[Path | None, typer.Option("--mqm", metavar="FILE", help="MQM error TSV: systems, source, references and error rows.")] = None,
    mqm_scores: Annotated[Path | None, typer.Option("--mqm-scores", metavar="FILE", help="MQM average segment scores (default: recompute from the errors).")] = None,
    reference_system: Annotated[list[str] | None, typer.Option("--reference-system", metavar="NAME", help="An MQM system used as reference (e.g. ref); not evaluated (repeatable: several references).")] = None,
    exclude_system: Annotated[list[str] | None, typer.Option("--exclude-system", metavar="NAME", help="An MQM system to leave out (repeatable).")] = None,
    reference: Annotated[list[Path] | None, typer.Option("--reference", "-r", metavar="FILE", help="Reference file, one segment per line (repeatable).")] = None,
    system: Annotated[list[str] | None, typer.Option("--system", metavar="NAME=FILE", help="NAME=FILE system output, one segment per line (repeatable).")] = None,
    source: Annotated[Path | None, typer.Option("--source", metavar="FILE", help="Source file, for metrics that read it.")] = None,
    assessments: Annotated[Path | None, typer.Option("--assessments", metavar="FILE", help="Asiya assessments CSV (systemId, documentId, segmentId, score).")] = None,
    granularity: Annotated[str, typer.Option("-g", "--granularity", metavar="sys|doc|seg", help="Level of the correlation.")] = "sys",
    criteria: Annotated[str, typer.Option("--criteria", metavar="NAMES", help=f"Comma-separated: {', '.join(c.value for c in Criterion)}.")] = ",".join(c.value for c in DEFAULT_CRITERIA),
    ci: Annotated[str, typer.Option("--ci", metavar="|".join(CI_METHODS), help="Confidence intervals.")] = "fisher",
    clusters: Annotated[str | None, typer.Option("--clusters", metavar="CRITERION", help="Rank metrics into significance clusters for this criterion (permutation test).", show_default=False)] = None,
    optimize: Annotated[str | None, typer.Option("--optimize", metavar="CRITERION", help="Search the greedy optimal metric set by this criterion (ULC of the set).", show_default=False)] = None,
    learn: Annotated[str | None, typer.Option("--learn", metavar="|".join(LEARNERS), help="Learn a combination of --features from the human scores.", show_default=False)] = None,
    features: Annotated[str | None, typer.Option("--features", metavar="NAMES", help="Comma-separated feature metrics for --learn (LC-* names with --db).", show_default=False)] = None,
    folds: Annotated[int, typer.Option("--folds", metavar="K", help="Cross-validation folds over segments for --learn.")] = 3,
    db: Annotated[str | None, typer.Option("--db", metavar="DB", help="Check-point store whose suite's pairs are the judged segments: adds its LC metrics.", show_default=False)] = None,
    suite: Annotated[str | None, typer.Option("--suite", metavar="NAME", help="The suite in --db or --by-category, when it holds several (--suite DB, the old spelling, still names the store).", show_default=False)] = None,
    suite_name: Annotated[str | None, typer.Option("--suite-name", hidden=True)] = None,
    by_category: Annotated[str | None, typer.Option("--by-category", metavar="DB", help="Check-point store whose suite's pairs are the --mqm segments: also correlate each metric with the MQM penalty attributed to each category (checkpoints attribute).", show_default=False)] = None,
    samples: Annotated[int, typer.Option("--samples", metavar="N", help="Bootstrap resamples, or permutations for spa, pce and --clusters.")] = DEFAULT_SAMPLES,
    alpha: Annotated[float, typer.Option("--alpha", metavar="A", help="Significance level: 0.05 gives 95% intervals.")] = DEFAULT_ALPHA,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the resampling.")] = DEFAULT_SEED,
    jobs: Annotated[int, typer.Option("--jobs", "-j", metavar="N", help="Score metrics in N worker processes side by side (Linux).")] = 1,
    statistics_cache_dir: StatisticsCacheDir = None,
    engine: EngineName = "local",
    address: Address = None,
    workers: Workers = None,
    gpus_per_worker: GpusPerWorker = 0.0,
    tokenize: Annotated[str | None, typer.Option("--tokenize", metavar="|".join(TOKENIZERS), help="Metric tokenizer [default: zh for a Chinese target, else 13a]. 13a because sacreBLEU and the reference tools tokenize so, and the scores equal theirs; check-point matching (evaluate) uses words instead, because 13a leaves “Clinton’s” glued to its word.", show_default=False)] = None,
    case: Annotated[str, typer.Option("--case", metavar="cs|ci", help="Case-sensitive (cs) or case-insensitive (ci) matching.")] = "cs",
    target_lang: Annotated[str | None, typer.Option("--tgt-lang", "--target-lang", metavar="LANG", help="Target language (tokenizer default, stemmers, METEOR); METEOR and ROUGE need it.", show_default=False)] = None,
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
    output_format: Annotated[str, typer.Option("--format", "-f", metavar="table|json", help="Report format.")] = "table",
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the report here instead of stdout.")] = None,
) -> None:

    check_choice("--format", output_format, [member.value for member in META_FORMATS])
    request = MetaArguments(
        metrics=list(metric or []), mqm=mqm, mqm_scores=mqm_scores, reference_systems=list(reference_system or []),
        excluded_systems=list(exclude_system or []), references=list(reference or []), systems=list(system or []),
        source=source, assessments=assessments, granularity=granularity, criteria=criteria, ci=ci,
        clusters=clusters, optimize=optimize, learn=learn, features=features, folds=folds, db=db, suite=suite,
        suite_name=suite_name, by_category=by_category, samples=samples, alpha=alpha, seed=seed, jobs=jobs,
        engine=engine_spec(engine, address, workers, gpus_per_worker),
        tokenize=tokenize, case=case, target_lang=target_lang,
        linguistic=linguistic_options(parsed, stanza_dir, annotation_cache, ne_types, esa_corpus, src_lang, lm, vocab,
                                      dictionary, ce_length_factor, lem_params, lem_corpus),
    ).request()
    if output is not None:
        check_writable(output)
    console = stderr_console()
    token = PARSE_REPORT.set(lambda line: console.print(line, highlight=False))
    try:
        with statistics_cache(statistics_cache_dir) as cache:
            if request.by_category is not None:
                by = meta_by_category(request, track=lambda items: track(items, "scoring metrics"))
                result = by.overall
            else:
                result = meta_evaluate(request, track=lambda items: track(items, "scoring metrics"))
        if cache is not None:
            console.print(reuse_line(cache), highlight=False)
    except TargetLanguageNeeded as error:
        verb = "depends" if len(error.metrics) == 1 else "depend"
        raise UsageError(f"{', '.join(error.metrics)} {verb} on the target language: give --tgt-lang LANG") from None
    finally:
        PARSE_REPORT.reset(token)
    for warning in result.warnings:
        sys.stderr.write(f"checkpoints: warning: {warning}\n")
    if request.by_category is not None:
        emit(by_category_json(by) if output_format == "json" else by_category_tables(by), output)
    else:
        emit(meta_json(result) if output_format == "json" else meta_tables(result), output)


def register(app: typer.Typer) -> None:
    app.command("meta", help=HELP)(meta)
