"""Meta-evaluate every lexical metric on real MQM judgments: WMT 2021 TED talks, en-de and zh-en.

    python benchmarks/meta.py                          # both pairs, every lexical metric
    python benchmarks/meta.py --pairs zh-en --samples 200
    python benchmarks/meta.py --metrics BLEU,chrF,-TER

Reads the compact plain-text copy of the MQM release in
``tests/data/metrics/ted`` (``scripts/extract_ted_mqm.py``: sources, the
human references, 13 systems × 529 segments, the release's MQM segment
scores); nothing outside the checkout is read.

For each pair it prints one row per metric with:

* system level (13 systems, MQM = mean of each system's rated segments):
  Pearson, Kendall (tau-b), pairwise accuracy and SPA (soft pairwise
  accuracy, with ``--samples`` permutations);
* segment level: acc-eq (pairwise accuracy with the tie threshold ε that
  maximises it, ties calibrated as mt-metrics-eval's KendallWithTiesOpt),
  pooled over all rated system–segment pairs and grouped by item;
* KING of the metric alone (QARLA, trans-topic: reference–reference pairs
  pooled across segments), where the test bed has two references (zh-en:
  ``ref`` and ``refB``). en-de has one human reference, and KING leaves one
  reference out per trial, so it is not defined there;

then a row for the uniform linear combination (ULC, Asiya's normalisation)
of the greedy optimal set for system-level Pearson (``meta --optimize
pearson``). Under the table: the time of each step — the metrics' segment
statistics (computed once per metric and shared by the later runs on the
same test bed, ``run_meta(..., statistics=)``) and each criterion — and the
total against the 60-second target. Metrics are scored in ``--jobs`` worker
processes, as ``checkpoints meta --jobs N`` does (default: every core), or
with ``--ray-workers N`` on a Ray runtime started on this machine (its start-up
in the total), as ``checkpoints meta --engine ray --workers N`` does.

zh-en is scored against ``refB``, mt-metrics-eval's standard reference for
this test set: MQM rates ``ref`` below every system (−5.52 against −2.99 …
−1.65), and ``checkpoints meta`` warns when scoring against it.

With ``--linguistic`` the whole ``linguistic`` metric set (SP, DP, CP, NE and
SR; ``--linguistic-metrics`` names other ones) joins the lexical metrics in
the same table. The target side (second half of the pair: German for en-de,
English for zh-en) is parsed with the trained stanza models in
``--stanza-dir-root``/<target> (``models/de``, ``models/en``); parses are kept
in ``--annotation-cache`` (default ``$CHECKPOINTS_CACHE_DIR``, else
``~/.cache/checkpoints``), so only the first run parses (one line per parsed
batch with its sentences/s). Every text (systems and both references) is
annotated once, in the main process, before the metrics are scored. A metric
that cannot run with these models is skipped with one line saying why: the
bundled models have no constituency parser and no named-entity tagger, so
CP-* and NE-* are skipped, and ESA without its concept corpus
(``--esa-corpus``). SP-Op(J), (N), (P), (R), (V), (W), (F) are Asiya's
classes of English (PTB) tags: on German they match no tag, score 0 for
every system, and print — where a correlation is undefined. Under the
greedy row come six more ULC rows, each fitted on the statistics the table
already computed (as ``meta --optimize`` fits its candidates):
``ULC(lexical)`` (every lexical metric of the table), ``ULC(linguistic)``
(every linguistic metric that ran), ``ULC(lexical+linguistic)`` (both),
``ULC(lexical+SP-Op(*),DP-HWCM_r-4,SR-Or)`` (the lexical metrics and one
metric of each linguistic family that runs), and the small lexical
combination ``ULC(BLEU,chrF,-TER)`` without and with those three; then the
best single metric of each family beside them, by system-level Pearson and
Kendall.

    python benchmarks/meta.py --linguistic --annotation-cache /tmp/ted-annotations
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from checkpoints.engine import EngineSpec
from checkpoints.errors import CheckpointsError, UsageError
from checkpoints.evaluate.meta.correlation import Criterion
from checkpoints.evaluate.meta.judged import JudgedSet, referents
from checkpoints.evaluate.meta.optimize import GreedyResult, optimize_metrics
from checkpoints.evaluate.meta.pairwise import tie_calibration_grouped
from checkpoints.evaluate.meta.runner import CIMethod, MetaOptions, MetaResult, run_meta
from checkpoints.evaluate.meta.scores import metric_values, segment_statistics
from checkpoints.evaluate.metrics.base import Granularity, Metric, MetricCache, MetricOptions
from checkpoints.evaluate.metrics.combination import split_metric_list
from checkpoints.evaluate.metrics.linguistic.annotations import PARSE_REPORT, default_cache_dir
from checkpoints.evaluate.metrics.linguistic.metric import shared_annotator
from checkpoints.evaluate.metrics.registry import get_metric, metric_names
from checkpoints.io.lines import read_lines
from checkpoints.io.mqm import read_avg_seg_scores
from checkpoints.tokenizers import default_tokenizer

ROOT = Path(__file__).resolve().parent.parent
TED = ROOT / "tests" / "data" / "metrics" / "ted"
INFIX = {"en-de": "ende", "zh-en": "zhen"}
SCORED_REFERENCE = {"en-de": "ref", "zh-en": "refB"}
TARGET_SECONDS = 60.0
FIXED_LINGUISTIC = ("SP-Op(*)", "DP-HWCM_r-4", "SR-Or")
"""One metric of each linguistic family the bundled models can run, for the small ULC(lexical+...) rows."""
SMALL_LEXICAL = ("BLEU", "chrF", "-TER")
"""The small lexical combination the fixed linguistic subset is also added to."""


@dataclass(frozen=True, slots=True)
class Linguistic:
    """What ``--linguistic`` adds: the metric names, where the models are, where parses are kept."""

    names: tuple[str, ...]
    stanza_root: Path
    cache_dir: Path

    def extra(self, target: str) -> dict[str, str]:
        return {"stanza-dir": str(self.stanza_root / target), "annotation-cache": str(self.cache_dir)}


def load_judged(folder: Path, pair: str, references: Sequence[str]) -> JudgedSet:
    """The compact copy as a judged set: outputs, the named references, the release's MQM segment scores."""
    ids = [line.split("\t") for line in read_lines(folder / "ids.tsv")]
    position = {int(seg): index for index, (_, _, seg) in enumerate(ids)}
    systems = {path.stem: tuple(read_lines(path)) for path in sorted((folder / "sys").glob("*.txt"))}
    scores = read_avg_seg_scores(folder / f"mqm_ted_{INFIX[pair]}.avg_seg_scores.tsv")
    return JudgedSet(
        judgments="mqm",
        documents=tuple(doc for doc, _, _ in ids),
        segment_ids=tuple(seg for _, _, seg in ids),
        references=tuple(tuple(read_lines(folder / f"{name}.txt")) for name in references),
        sources=tuple(read_lines(folder / "source.txt")),
        outputs=systems,
        segment_scores={
            (system, position[seg]): score
            for (system, seg), score in scores.items()
            if score is not None and system in systems and seg in position
        },
        reference_names=tuple(references),
        reference_scores={
            (system, position[seg]): score
            for (system, seg), score in scores.items()
            if score is not None and system in references and seg in position
        },
    )


def timed(label: str, times: dict[str, float], work: Callable[[], MetaResult]) -> MetaResult:
    started = time.perf_counter()
    result = work()
    times[label] = times.get(label, 0.0) + time.perf_counter() - started
    return result


def value(result: MetaResult, metric: str, criterion: Criterion, grouped: bool = False) -> float | None:
    results = result.grouped.results if grouped and result.grouped is not None else result.results
    found = results.get(metric, {}).get(criterion)
    return None if found is None else found.r


def optimal_set(judged: JudgedSet, metrics: Sequence[Metric], statistics: dict[str, dict[str, np.ndarray]],
                times: dict[str, float]) -> GreedyResult:
    """The greedy optimal set for system-level Pearson (``meta --optimize pearson``)."""
    started = time.perf_counter()
    units = referents(judged, Granularity.SYS)
    found = optimize_metrics(judged, metrics, statistics, units, Granularity.SYS, Criterion.PEARSON)
    times["optimal set (greedy, system-level pearson)"] = time.perf_counter() - started
    return found


class ItemGroups:
    """The segment-level referents of a judged set, grouped by item (segment), computed once."""

    def __init__(self, judged: JudgedSet, statistics: dict[str, dict[str, np.ndarray]]) -> None:
        self.judged = judged
        self.statistics = statistics
        self.units = referents(judged, Granularity.SEG)
        rows: dict[int, list[int]] = {}
        for index, unit in enumerate(self.units):
            rows.setdefault(int(unit.positions[0]), []).append(index)
        self.rows = [np.array(r) for r in rows.values() if len(r) >= 2]
        self.human = np.array([unit.human for unit in self.units])

    def acc_eq(self, metric: Metric) -> float | None:
        """Segment-level acc-eq grouped by item (WMT's ``average_by="item"``): one ε for all segments."""
        stats = self.statistics.get(metric.name)
        if stats is None:
            stats = self.statistics[metric.name] = segment_statistics(self.judged, metric)
        x = metric_values(metric, stats, self.units, Granularity.SEG)
        found = tie_calibration_grouped([(x[r], self.human[r]) for r in self.rows]).value
        return None if np.isnan(found) else found


def texts_of(judged_sets: Sequence[JudgedSet]) -> list[str]:
    """Every system output and reference of the judged sets, each once, in order."""
    texts: dict[str, None] = {}
    for judged in judged_sets:
        for outputs in judged.outputs.values():
            texts.update((text, None) for text in outputs if text)
        for reference in judged.references:
            texts.update((text, None) for text in reference if text)
    return list(texts)


def linguistic_metrics(names: Sequence[str], options: MetricOptions, cache: MetricCache,
                       judged_sets: Sequence[JudgedSet], times: dict[str, float]) -> list[Metric]:
    """The linguistic metrics that can run here, every text of ``judged_sets`` annotated first.

    The texts are parsed (or read from the annotation cache) once, in this process, by the
    annotator the metrics share through ``cache``, so the worker processes only compare parses.
    Each metric is then tried on one segment: one that cannot run (no constituency trees, no
    named entities, no ESA corpus) is skipped with one line saying why.
    """
    built = []
    for name in names:
        try:
            built.append(get_metric(name, options, cache))
        except CheckpointsError as error:
            print(f"skipped: {error}")
    if not built:
        return []
    started = time.perf_counter()
    texts = texts_of(judged_sets)
    annotator = shared_annotator(built[0], ner=False, constituency=False)
    token = PARSE_REPORT.set(lambda line: print(f"  {line}", flush=True))
    try:
        annotator.annotate(texts)
    finally:
        PARSE_REPORT.reset(token)
    seconds = time.perf_counter() - started
    counts = annotator.counts
    rate = f", {counts['parsed'] / seconds:.1f} sentences/s" if counts["parsed"] else ""
    print(f"annotation ({annotator.language}, {options.extra.get('stanza-dir')}): {len(texts):,} distinct texts, "
          f"{counts['cached']:,} from the cache {options.extra.get('annotation-cache')}, "
          f"{counts['parsed']:,} parsed now, {seconds:.1f} s{rate}")
    judged = judged_sets[0]
    system, outputs = next(iter(judged.outputs.items()))
    position = next(int(p) for p in judged.available(system) if outputs[p])
    hypothesis, references = outputs[position], [[reference[position]] for reference in judged.references]
    sources = None if judged.sources is None else [judged.sources[position]]
    runnable = []
    for metric in built:
        try:
            metric.corpus_stats([hypothesis], references, sources)
        except CheckpointsError as error:
            print(f"skipped: {' '.join(str(error).split())}")
            continue
        runnable.append(metric)
    times["annotation (stanza or the cache), metrics tried"] = time.perf_counter() - started
    return runnable


def fitted_ulc(parts: Sequence[str], options: MetricOptions, cache: MetricCache, judged: JudgedSet,
               statistics: dict[str, dict[str, np.ndarray]]) -> Metric:
    """``ULC(parts)``, its statistics the parts' side by side and fitted on them, as ``meta --optimize``
    fits its candidates (what scoring the ULC itself would compute, without scoring the parts again)."""
    ulc = get_metric(f"ULC({','.join(parts)})", options, cache)
    stats = {system: np.hstack([statistics[name][system] for name in parts]) for system in judged.outputs}
    ulc.fit({system: np.nan_to_num(rows) for system, rows in stats.items()}, judged.documents)
    statistics[ulc.name] = stats
    return ulc


def run_pair(pair: str, names: Sequence[str], samples: int, seed: int, jobs: int,
             linguistic: Linguistic | None = None, engine: EngineSpec | None = None) -> float:
    folder = TED / pair
    target = pair.split("-")[1]
    references = [SCORED_REFERENCE[pair]]
    two_references = (folder / "refB.txt").exists()
    options = MetricOptions(tokenize=default_tokenizer(target), language=target,
                            extra=linguistic.extra(target) if linguistic is not None else {})
    cache = MetricCache()
    metrics = []
    for name in names:
        try:
            metrics.append(get_metric(name, options, cache))
        except UsageError as error:  # a metric the target language does not support (METEOR-sy for German)
            print(f"skipped: {error}")
    judged = load_judged(folder, pair, references)
    times: dict[str, float] = {}
    print(f"\n== {pair}: {len(judged.outputs)} systems × {judged.size} segments, reference {references[0]}, "
          f"tokenize {options.tokenize} ==")
    lexical = [metric.name for metric in metrics]
    found_linguistic: list[str] = []
    if linguistic is not None:
        judged_sets = [judged, load_judged(folder, pair, ["ref", "refB"])] if two_references else [judged]
        added = linguistic_metrics(linguistic.names, options, cache, judged_sets, times)
        found_linguistic = [metric.name for metric in added]
        metrics.extend(added)
    names = [metric.name for metric in metrics]

    statistics: dict[str, dict[str, np.ndarray]] = {}  # every run on ``judged`` scores each metric once

    def meta(level: Granularity, criteria: tuple[Criterion, ...], on: JudgedSet = judged,
             chosen: Sequence[Metric] = metrics) -> MetaResult:
        return run_meta(on, chosen, MetaOptions(level=level, criteria=criteria, ci=CIMethod.NONE, samples=samples,
                                                seed=seed, jobs=1 if engine else jobs, engine=engine or EngineSpec()),
                        statistics=statistics if on is judged else None)

    timed("segment statistics (every metric, once)", times, lambda: meta(Granularity.SYS, (Criterion.PEARSON,)))
    system = timed("pearson, kendall, pairwise-accuracy (sys)", times, lambda: meta(
        Granularity.SYS, (Criterion.PEARSON, Criterion.KENDALL, Criterion.PAIRWISE_ACCURACY)))
    spa = timed(f"spa ({samples} permutations)", times, lambda: meta(Granularity.SYS, (Criterion.SPA,)))
    started = time.perf_counter()
    items = ItemGroups(judged, statistics)
    by_item = {metric.name: items.acc_eq(metric) for metric in metrics}
    times["acc-eq (seg, by item)"] = time.perf_counter() - started
    pooled = timed("acc-eq (seg, pooled), BLEU alone", times,
                   lambda: meta(Granularity.SEG, (Criterion.ACC_EQ,), chosen=metrics[:1]))
    king = None
    if two_references:
        both = load_judged(folder, pair, ["ref", "refB"])
        king = timed("king (trans-topic, ref + refB)", times, lambda: meta(Granularity.SEG, (Criterion.KING,), both))

    found = optimal_set(judged, metrics, statistics, times)
    ulc = get_metric(f"ULC({','.join(found.metrics)})", options, cache)
    combined = run_meta(judged, [ulc], MetaOptions(
        level=Granularity.SYS, ci=CIMethod.NONE, samples=samples, seed=seed,
        criteria=(Criterion.PEARSON, Criterion.KENDALL, Criterion.PAIRWISE_ACCURACY, Criterion.SPA)))
    by_item[ulc.name] = items.acc_eq(ulc)
    combinations: list[tuple[str, Metric, MetaResult]] = []
    if linguistic is not None and found_linguistic:
        started = time.perf_counter()
        subset = [name for name in FIXED_LINGUISTIC if name in found_linguistic]
        chosen_sets = [("ULC(lexical)", lexical), ("ULC(linguistic)", found_linguistic),
                       ("ULC(lexical+linguistic)", lexical + found_linguistic)]
        small = [name for name in SMALL_LEXICAL if name in lexical]
        if subset:
            chosen_sets.append((f"ULC(lexical+{','.join(subset)})", lexical + subset))
        if small:
            chosen_sets.append((f"ULC({','.join(small)})", small))
        if small and subset:
            chosen_sets.append((f"ULC({','.join(small + subset)})", small + subset))
        for label, parts in chosen_sets:
            if not parts:
                continue
            made = fitted_ulc(parts, options, cache, judged, statistics)
            combinations.append((label, made, run_meta(judged, [made], MetaOptions(
                level=Granularity.SYS, ci=CIMethod.NONE, samples=samples, seed=seed,
                criteria=(Criterion.PEARSON, Criterion.KENDALL, Criterion.PAIRWISE_ACCURACY, Criterion.SPA)),
                statistics=statistics)))
            by_item[made.name] = items.acc_eq(made)
        times["ULC of lexical, linguistic, both"] = time.perf_counter() - started

    width = max([22, *(len(label) for label, _, _ in combinations)])
    header = f"{'metric':<{width}} {'pearson':>8} {'kendall':>8} {'pair-acc':>8} {'spa':>6} {'acc-eq':>7} {'king':>6}"
    print(header)
    print("-" * len(header))

    def cell(number: float | None, width: int) -> str:
        return f"{number:{width}.3f}" if number is not None else f"{'—':>{width}}"

    def row(name: str, sys_result: MetaResult, spa_result: MetaResult, king_result: MetaResult | None,
            label: str | None = None) -> None:
        print(f"{label or name:<{width}} {cell(value(sys_result, name, Criterion.PEARSON), 8)} "
              f"{cell(value(sys_result, name, Criterion.KENDALL), 8)} "
              f"{cell(value(sys_result, name, Criterion.PAIRWISE_ACCURACY), 8)} "
              f"{cell(value(spa_result, name, Criterion.SPA), 6)} "
              f"{cell(by_item[name], 7)} "
              f"{cell(value(king_result, name, Criterion.KING) if king_result is not None else None, 6)}")

    for name in names:
        row(name, system, spa, king)
    row(ulc.name, combined, combined, None)
    for label, made, result in combinations:
        row(made.name, result, result, None, label)
    print(f"greedy optimal set for system-level Pearson: {', '.join(found.metrics)} (Pearson {cell(found.value, 0)})")
    if combinations:
        for label, made, _ in combinations:
            print(f"{label}: {len(made.parts)} metrics")  # type: ignore[attr-defined]
        for criterion in (Criterion.PEARSON, Criterion.KENDALL):
            def score(name: str, criterion: Criterion = criterion) -> float:
                found_value = value(system, name, criterion)
                return -np.inf if found_value is None else found_value

            best = {family: max(members, key=score)
                    for family, members in (("lexical", lexical), ("linguistic", found_linguistic))}
            print(f"system-level {criterion.value}: best lexical {best['lexical']} "
                  f"{cell(value(system, best['lexical'], criterion), 0)}, best linguistic {best['linguistic']} "
                  f"{cell(value(system, best['linguistic'], criterion), 0)}; "
                  + ", ".join(f"{label} {cell(value(result, made.name, criterion), 0)}"
                              for label, made, result in combinations))
    print(f"acc-eq pooled over all {pooled.n} rated system–segment pairs, BLEU: "
          f"{cell(value(pooled, metrics[0].name, Criterion.ACC_EQ), 0)}")
    if not two_references:
        print("king: not defined with one human reference (each KING trial leaves one reference out)")
    total = sum(times.values())
    print("time:")
    for label, seconds in times.items():
        print(f"  {label:<44} {seconds:6.2f} s")
    print(f"  {'total':<44} {total:6.2f} s")
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", nargs="+", default=["en-de", "zh-en"], choices=sorted(INFIX))
    parser.add_argument("--metrics", default=None, help="comma-separated metric names (default: the lexical set)")
    parser.add_argument("--samples", type=int, default=1000, help="permutations of SPA")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes scoring metrics (meta --jobs; default: the machine's cores)")
    parser.add_argument("--ray-workers", type=int, default=None,
                        help="score metrics on a local Ray runtime with N workers (meta --engine ray) instead of --jobs")
    parser.add_argument("--linguistic", action="store_true",
                        help="add the linguistic metric set (SP, DP, CP, NE, SR), the target side parsed with stanza")
    parser.add_argument("--linguistic-metrics", default=None,
                        help="with --linguistic: comma-separated linguistic metric names instead of the whole set")
    parser.add_argument("--stanza-dir-root", type=Path, default=ROOT / "models",
                        help="folder of stanza model directories, one per target language (default: the repo's models/)")
    parser.add_argument("--annotation-cache", type=Path, default=None,
                        help="where parses are kept between runs (default: $CHECKPOINTS_CACHE_DIR, else ~/.cache/checkpoints)")
    args = parser.parse_args(argv)
    names = args.metrics.split(",") if args.metrics else list(metric_names("lexical"))
    linguistic = None
    if args.linguistic:
        chosen = split_metric_list(args.linguistic_metrics) if args.linguistic_metrics else metric_names("linguistic")
        linguistic = Linguistic(tuple(chosen), args.stanza_dir_root.resolve(),
                                (args.annotation_cache or default_cache_dir()).resolve())
    engine = None
    started = time.perf_counter()
    if args.ray_workers:
        import ray

        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)  # once, its start-up timed
        engine = EngineSpec("ray", workers=args.ray_workers)
    for pair in args.pairs:
        run_pair(pair, names, args.samples, args.seed, args.jobs, linguistic, engine)
    whole = time.perf_counter() - started
    count = len(names) + (len(linguistic.names) if linguistic is not None else 0)
    print(f"\nwhole table, {len(args.pairs)} pairs × {count} metrics: {whole:.1f} s "
          f"(target {TARGET_SECONDS:.0f} s: {'met' if whole <= TARGET_SECONDS else 'not met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
