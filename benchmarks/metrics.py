"""Time the metric suite on real MT output: WMT 2021 TED talks (MQM release), 13 systems × 529 segments.

    python benchmarks/metrics.py                         # en-de and zh-en from tests/data/metrics/ted
    python benchmarks/metrics.py --pairs en-de --samples 1000
    python benchmarks/metrics.py --mqm-dir DIR           # DIR/<ende|zhen>/mqm_ted_<infix>.avg_seg_scores.tsv

Reads the compact plain-text copy made by ``scripts/extract_ted_mqm.py``
(``tests/data/metrics/ted/<pair>/{ref.txt,source.txt,ids.tsv,sys/*.txt}``);
nothing outside the checkout is read unless ``--mqm-dir`` says so.

Prints, per language pair:

1. the time of every lexical metric for all systems (per-segment statistics
   plus system, document and segment scores), and the total against the
   30-second target;
2. corpus BLEU + chrF + TER for all systems against sacreBLEU in the same run
   (sacreBLEU's fastest path: metric objects with cached references), the
   ratio of the two times (target ≤ 1.0), and the largest score difference;
3. a 1000-sample paired bootstrap of BLEU, chrF and TER, every system against
   the first one, with the project's resampling engine and with
   ``sacrebleu.significance.PairedTest`` (what ``sacrebleu --paired-bs``
   runs) on the same data: both times;
4. when MQM segment scores are found (``mqm_ted_<infix>.avg_seg_scores.tsv``
   next to the compact copy, or under ``--mqm-dir``) and
   ``checkpoints.evaluate.meta`` is installed: the system-level Pearson and
   Kendall (tau-b) of every metric with MQM (system MQM = mean of its rated
   segments' scores).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import numpy as np

from checkpoints.errors import CheckpointsError
from checkpoints.evaluate.metric_runner import (
    SignificanceRequest,
    aggregate,
    compare_systems,
    segment_statistics,
)
from checkpoints.evaluate.metrics.base import MetricCache, MetricOptions
from checkpoints.evaluate.metrics.registry import get_metric, metric_names
from checkpoints.evaluate.resample import Method, ResampleSpec
from checkpoints.io.lines import read_lines
from checkpoints.io.testsets import SetKind, Testbed, read_raw
from checkpoints.tokenizers import default_tokenizer

TED = Path(__file__).resolve().parent.parent / "tests" / "data" / "metrics" / "ted"
INFIX = {"en-de": "ende", "zh-en": "zhen"}
TARGET_SECONDS = 30.0
CORPUS_METRICS = ("BLEU", "chrF", "-TER")


def load_pair(folder: Path) -> Testbed:
    """The compact copy as a test set: documents from ids.tsv, the first reference ``ref.txt``."""
    ids = [line.split("\t") for line in read_lines(folder / "ids.tsv")]
    doc_ids = tuple(fields[0] for fields in ids)
    seg_ids = tuple(fields[2] for fields in ids)

    def with_ids(text_set):
        if len(text_set) != len(ids):
            raise CheckpointsError(f"{text_set.path}: {len(text_set)} lines, expected {len(ids)}")
        return dataclasses.replace(text_set, doc_ids=doc_ids, seg_ids=seg_ids)

    systems = tuple(with_ids(read_raw(path, SetKind.SYSTEM, path.stem)) for path in sorted((folder / "sys").glob("*.txt")))
    return Testbed(
        doc_ids=doc_ids,
        seg_ids=seg_ids,
        references=(with_ids(read_raw(folder / "ref.txt", SetKind.REFERENCE, "ref")),),
        systems=systems,
        source=with_ids(read_raw(folder / "source.txt", SetKind.SOURCE, "source")),
    )


def clear_metric_caches() -> None:
    """Forget what the metric modules still cache at module level (tokenizer objects, stemmers by
    language), so every timed section starts cold, as a fresh ``checkpoints metrics`` run does.
    Reference tables and per-segment rows live in each run's ``MetricCache``: a new one per
    section is cold by construction."""
    import importlib
    import pkgutil

    import checkpoints.evaluate.metrics as package

    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def time_metrics(testbed: Testbed, options: MetricOptions) -> dict[str, dict[str, float]]:
    """Every lexical metric for every system, each timed from cold caches (as ``-m NAME`` alone),
    then all of them in one run (as ``--metric-set lexical``: related metrics share the run's
    ``MetricCache`` of tokens and reference statistics). Returns the system scores per metric."""
    scores: dict[str, dict[str, float]] = {}
    cold_total = 0.0
    print(f"  {'metric':<22} {'seconds':>8}  aggregation")
    names = metric_names("lexical")
    available = []
    for name in names:
        clear_metric_caches()
        try:
            start = time.perf_counter()
            metric = get_metric(name, options)
            stats = segment_statistics(metric, testbed)
            scores[name] = {system: aggregate(metric, matrix, testbed.doc_ids).system for system, matrix in stats.items()}
            elapsed = time.perf_counter() - start
        except CheckpointsError as error:
            print(f"  {name:<22} {'-':>8}  unavailable: {error}")
            continue
        available.append(name)
        cold_total += elapsed
        print(f"  {name:<22} {elapsed:8.3f}  {metric.aggregation.value}")
    print(f"  sum of the cold times: {cold_total:.2f} s")

    clear_metric_caches()
    start = time.perf_counter()
    cache = MetricCache()
    for name in available:
        metric = get_metric(name, options, cache)
        for matrix in segment_statistics(metric, testbed).values():
            aggregate(metric, matrix, testbed.doc_ids)
    total = time.perf_counter() - start
    verdict = "within" if total <= TARGET_SECONDS else "OVER"
    print(
        f"  all {len(available)} lexical metrics in one run, {len(testbed.systems)} systems: {total:.2f} s "
        f"({verdict} the {TARGET_SECONDS:.0f} s target)"
    )
    return scores


def against_sacrebleu(testbed: Testbed, options: MetricOptions) -> None:
    """Corpus BLEU, chrF and TER: ours and sacreBLEU's, timed in the same run, scores compared."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    references = [list(testbed.references[0].segments)]
    clear_metric_caches()
    start = time.perf_counter()
    ours = {}
    cache = MetricCache()
    for name in CORPUS_METRICS:
        metric = get_metric(name, options, cache)
        stats = segment_statistics(metric, testbed)
        ours[name] = {system: metric.system_score(matrix) for system, matrix in stats.items()}
    ours_time = time.perf_counter() - start

    start = time.perf_counter()
    cached = {
        "BLEU": BLEU(references=references),
        "chrF": CHRF(references=references),
        "-TER": TER(references=references, case_sensitive=not options.lowercase),
    }
    theirs = {
        name: {system.name: metric.corpus_score(list(system.segments), None).score for system in testbed.systems}
        for name, metric in cached.items()
    }
    sacre_time = time.perf_counter() - start

    # Our scales: BLEU in [0,1] (Asiya), chrF 0-100 (sacreBLEU), -TER negated and in [0,1] (Asiya).
    scale = {"BLEU": 0.01, "chrF": 1.0, "-TER": -0.01}
    worst = max(
        abs(ours[name][system] - scale[name] * theirs[name][system]) for name in CORPUS_METRICS for system in ours[name]
    )
    ratio = ours_time / sacre_time if sacre_time > 0 else float("inf")
    print(f"  checkpoints {ours_time:.3f} s, sacreBLEU {sacre_time:.3f} s: ratio {ratio:.2f} (target <= 1.0)")
    print(f"  largest |difference| from sacreBLEU over {len(testbed.systems)} systems × 3 metrics: {worst:.2e}")


def paired_bootstrap(testbed: Testbed, options: MetricOptions, samples: int) -> None:
    """BLEU, chrF, TER; every system against the first; ours and sacreBLEU's PairedTest."""
    from sacrebleu.metrics import BLEU, CHRF, TER
    from sacrebleu.significance import PairedTest

    systems = [system.name for system in testbed.systems]
    baseline = systems[0]
    request = SignificanceRequest(baseline=baseline, spec=ResampleSpec(Method.BOOTSTRAP, samples=samples))

    clear_metric_caches()
    start = time.perf_counter()
    cache = MetricCache()
    metrics = {name: get_metric(name, options, cache) for name in CORPUS_METRICS}
    statistics = {name: segment_statistics(metric, testbed) for name, metric in metrics.items()}
    stats_time = time.perf_counter() - start
    start = time.perf_counter()
    report = compare_systems(metrics, statistics, systems, request)
    resample_time = time.perf_counter() - start
    significant = sum(comparison.significant for comparison in report.comparisons)

    references = [list(testbed.references[0].segments)]
    start = time.perf_counter()
    cached = {
        "BLEU": BLEU(references=references),
        "chrF": CHRF(references=references),
        "TER": TER(references=references, case_sensitive=not options.lowercase),
    }
    named = [(system.name, list(system.segments)) for system in testbed.systems]
    PairedTest(named, cached, references=None, test_type="bs", n_samples=samples)()
    sacre_time = time.perf_counter() - start

    print(
        f"  {samples}-sample paired bootstrap, {len(systems) - 1} systems vs {baseline}, BLEU+chrF+TER: "
        f"checkpoints {stats_time + resample_time:.2f} s (statistics {stats_time:.2f} s + resampling {resample_time:.2f} s), "
        f"sacreBLEU PairedTest {sacre_time:.2f} s"
    )
    print(f"  {significant} of {len(report.comparisons)} comparisons significant after Holm's correction")


def mqm_system_scores(path: Path, testbed: Testbed) -> dict[str, float]:
    """Mean MQM score of each system over its rated segments of this test set."""
    from checkpoints.io.mqm import read_avg_seg_scores

    wanted = {int(seg) for seg in testbed.seg_ids}
    by_system: dict[str, list[float]] = {}
    for (system, seg), score in read_avg_seg_scores(path).items():
        if score is not None and seg in wanted:
            by_system.setdefault(system, []).append(score)
    return {system: float(np.mean(values)) for system, values in by_system.items()}


def correlations(scores: dict[str, dict[str, float]], mqm: dict[str, float]) -> None:
    from checkpoints.evaluate.meta.correlation import Criterion, correlate

    systems = sorted(set(mqm) & set(next(iter(scores.values()))))
    human = np.array([mqm[system] for system in systems])
    print(f"  system-level correlation with MQM ({len(systems)} systems)")
    print(f"  {'metric':<22} {'pearson':>8} {'kendall':>8}")
    for name, per_system in scores.items():
        values = np.array([per_system[system] for system in systems])
        pearson = correlate(Criterion.PEARSON, values, human)
        kendall = correlate(Criterion.KENDALL, values, human)
        print(f"  {name:<22} {pearson:8.3f} {kendall:8.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", nargs="+", default=["en-de", "zh-en"], choices=sorted(INFIX))
    parser.add_argument("--data", type=Path, default=TED, help="folder with <pair>/ref.txt, sys/*.txt, ...")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--mqm-dir", type=Path, default=None, help="MQM release folder (<infix>/mqm_ted_<infix>.avg_seg_scores.tsv)")
    args = parser.parse_args(argv)

    for pair in args.pairs:
        folder = args.data / pair
        if not (folder / "ref.txt").exists():
            print(f"{pair}: no compact copy under {folder} (run scripts/extract_ted_mqm.py)")
            continue
        testbed = load_pair(folder)
        options = MetricOptions(tokenize=default_tokenizer(pair.split("-")[1]), language=pair.split("-")[1])
        print(f"\n== {pair}: {len(testbed.systems)} systems × {testbed.n_segments} segments, tokenize {options.tokenize} ==")
        print("\n[1] every lexical metric")
        scores = time_metrics(testbed, options)
        print("\n[2] corpus BLEU + chrF + TER against sacreBLEU")
        against_sacrebleu(testbed, options)
        print("\n[3] paired bootstrap")
        paired_bootstrap(testbed, options, args.samples)
        infix = INFIX[pair]
        candidates = [folder / f"mqm_ted_{infix}.avg_seg_scores.tsv"]
        if args.mqm_dir is not None:
            candidates.insert(0, args.mqm_dir / infix / f"mqm_ted_{infix}.avg_seg_scores.tsv")
        found = next((path for path in candidates if path.exists()), None)
        print("\n[4] correlation with MQM")
        if found is None:
            print(f"  skipped: no MQM segment scores (looked for {', '.join(str(p) for p in candidates)}; use --mqm-dir)")
            continue
        try:
            correlations(scores, mqm_system_scores(found, testbed))
        except ImportError as error:
            print(f"  skipped: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
