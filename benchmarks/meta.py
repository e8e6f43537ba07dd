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
processes, as ``checkpoints meta --jobs N`` does (default: every core).

zh-en is scored against ``refB``, mt-metrics-eval's standard reference for
this test set: MQM rates ``ref`` below every system (−5.52 against −2.99 …
−1.65), and ``checkpoints meta`` warns when scoring against it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.correlation import Criterion
from checkpoints.evaluate.meta.judged import JudgedSet, referents
from checkpoints.evaluate.meta.optimize import GreedyResult, optimize_metrics
from checkpoints.evaluate.meta.pairwise import tie_calibration_grouped
from checkpoints.evaluate.meta.runner import CIMethod, MetaOptions, MetaResult, run_meta
from checkpoints.evaluate.meta.scores import metric_values, segment_statistics
from checkpoints.evaluate.metrics.base import Granularity, Metric, MetricCache, MetricOptions
from checkpoints.evaluate.metrics.registry import get_metric, metric_names
from checkpoints.io.lines import read_lines
from checkpoints.io.mqm import read_avg_seg_scores
from checkpoints.tokenizers import default_tokenizer

TED = Path(__file__).resolve().parent.parent / "tests" / "data" / "metrics" / "ted"
INFIX = {"en-de": "ende", "zh-en": "zhen"}
SCORED_REFERENCE = {"en-de": "ref", "zh-en": "refB"}
TARGET_SECONDS = 60.0


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


def run_pair(pair: str, names: Sequence[str], samples: int, seed: int, jobs: int) -> float:
    folder = TED / pair
    target = pair.split("-")[1]
    references = [SCORED_REFERENCE[pair]]
    two_references = (folder / "refB.txt").exists()
    options = MetricOptions(tokenize=default_tokenizer(target), language=target)
    cache = MetricCache()
    metrics = []
    for name in names:
        try:
            metrics.append(get_metric(name, options, cache))
        except UsageError as error:  # a metric the target language does not support (METEOR-sy for German)
            print(f"skipped: {error}")
    names = [metric.name for metric in metrics]
    judged = load_judged(folder, pair, references)
    times: dict[str, float] = {}
    print(f"\n== {pair}: {len(judged.outputs)} systems × {judged.size} segments, reference {references[0]}, "
          f"tokenize {options.tokenize} ==")

    statistics: dict[str, dict[str, np.ndarray]] = {}  # every run on ``judged`` scores each metric once

    def meta(level: Granularity, criteria: tuple[Criterion, ...], on: JudgedSet = judged,
             chosen: Sequence[Metric] = metrics) -> MetaResult:
        return run_meta(on, chosen, MetaOptions(level=level, criteria=criteria, ci=CIMethod.NONE, samples=samples,
                                                seed=seed, jobs=jobs), statistics=statistics if on is judged else None)

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

    header = f"{'metric':<22} {'pearson':>8} {'kendall':>8} {'pair-acc':>8} {'spa':>6} {'acc-eq':>7} {'king':>6}"
    print(header)
    print("-" * len(header))

    def cell(number: float | None, width: int) -> str:
        return f"{number:{width}.3f}" if number is not None else f"{'—':>{width}}"

    def row(name: str, sys_result: MetaResult, spa_result: MetaResult, king_result: MetaResult | None) -> None:
        print(f"{name:<22} {cell(value(sys_result, name, Criterion.PEARSON), 8)} "
              f"{cell(value(sys_result, name, Criterion.KENDALL), 8)} "
              f"{cell(value(sys_result, name, Criterion.PAIRWISE_ACCURACY), 8)} "
              f"{cell(value(spa_result, name, Criterion.SPA), 6)} "
              f"{cell(by_item[name], 7)} "
              f"{cell(value(king_result, name, Criterion.KING) if king_result is not None else None, 6)}")

    for name in names:
        row(name, system, spa, king)
    row(ulc.name, combined, combined, None)
    print(f"greedy optimal set for system-level Pearson: {', '.join(found.metrics)} (Pearson {cell(found.value, 0)})")
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
    args = parser.parse_args(argv)
    names = args.metrics.split(",") if args.metrics else list(metric_names("lexical"))
    started = time.perf_counter()
    for pair in args.pairs:
        run_pair(pair, names, args.samples, args.seed, args.jobs)
    whole = time.perf_counter() - started
    print(f"\nwhole table, {len(args.pairs)} pairs × {len(names)} metrics: {whole:.1f} s "
          f"(target {TARGET_SECONDS:.0f} s: {'met' if whole <= TARGET_SECONDS else 'not met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
