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
   segments' scores);
5. with ``--linguistic``: the linguistic metrics as a user runs them, each a
   whole command in a subprocess (``python -m checkpoints``), timed by the
   wall clock, on the target side (German for en-de, English for zh-en;
   ``ref.txt`` and every system):

   a. ``checkpoints annotate --lang L ref.txt sys/*.txt --stanza-dir
      models/L --annotation-cache DIR`` into an empty cache: sentences/s
      annotated (distinct texts parsed / seconds of the whole command, model
      loading included);
   b. ``checkpoints metrics -r ref.txt -s NAME=FILE ... --tgt-lang L
      --metric-set linguistic --stanza-dir models/L --annotation-cache DIR
      -f json -o FILE`` with that cache filled: a cache hit, nothing parsed
      (were a metric of the set to make the command fail rather than be
      skipped, the same command with ``-m`` and the set's metrics that run
      here, each of the others named with its reason);
   c. the same command with ``--metric-set lexical`` (no parsing at all);

   b and c ``--repeat`` times each, alternating; the fastest of each, and the
   ratio b / c against the 2.0 target. DIR is a new temporary folder, removed
   afterwards, unless ``--annotation-cache`` names one (to keep the parses
   for ``benchmarks/meta.py --linguistic``; a: only a cold parse when DIR
   holds none of these texts yet, which the line says).

    python benchmarks/metrics.py --linguistic --annotation-cache /tmp/ted-annotations
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import subprocess
import sys
import tempfile
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

ROOT = Path(__file__).resolve().parent.parent
TED = ROOT / "tests" / "data" / "metrics" / "ted"
INFIX = {"en-de": "ende", "zh-en": "zhen"}
TARGET_SECONDS = 30.0
CORPUS_METRICS = ("BLEU", "chrF", "-TER")
TARGET_RATIO = 2.0
"""A cache-hit run of the linguistic set against the lexical set, both whole commands."""
CHECKPOINTS = (sys.executable, "-m", "checkpoints")
ANNOTATED = re.compile(r"(\d+) lines: (\d+) texts from --parsed, (\d+) from the cache, (\d+) parsed now")


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


def run_timed(command: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    """The command's wall-clock seconds and its outcome (stdout and stderr kept)."""
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    return time.perf_counter() - start, result


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def runnable_linguistic(target: str, stanza_dir: Path, cache: Path, hypothesis: str, reference: str) -> list[str]:
    """The metrics of the linguistic set that run with these models (tried on one parsed segment, in
    this process, untimed); one line for each that does not."""
    extra = {"stanza-dir": str(stanza_dir), "annotation-cache": str(cache)}
    options = MetricOptions(tokenize=default_tokenizer(target), language=target, extra=extra)
    cache_of_run = MetricCache()
    names = []
    for name in metric_names("linguistic"):
        try:
            get_metric(name, options, cache_of_run).corpus_stats([hypothesis], [[reference]])
        except CheckpointsError as error:
            print(f"    skipped: {' '.join(str(error).split())}")
            continue
        names.append(name)
    return names


def linguistic_commands(folder: Path, pair: str, stanza_root: Path, cache_dir: Path | None, repeat: int) -> None:
    """Annotation, a cache-hit linguistic run and a lexical run, each the whole command (module docstring, 5)."""
    target = pair.split("-")[1]
    stanza_dir = stanza_root / target
    reference = folder / "ref.txt"
    systems = sorted((folder / "sys").glob("*.txt"))
    with tempfile.TemporaryDirectory(prefix="ted-annotations-") as scratch:
        cache = cache_dir if cache_dir is not None else Path(scratch) / "annotations"
        annotate = [*CHECKPOINTS, "annotate", "--lang", target, str(reference), *map(str, systems),
                    "--stanza-dir", str(stanza_dir), "--annotation-cache", str(cache)]
        seconds, result = run_timed(annotate)
        if result.returncode != 0:
            print(f"  (a) checkpoints annotate failed ({seconds:.1f} s): {last_line(result.stderr)}")
            return
        found = ANNOTATED.search(result.stderr)
        if found is None:
            print(f"  (a) checkpoints annotate: {seconds:.1f} s; no count line in its output: {last_line(result.stderr)}")
            return
        lines, given, cached, parsed = (int(group) for group in found.groups())
        where = stanza_dir.relative_to(ROOT) if stanza_dir.is_relative_to(ROOT) else stanza_dir
        print(f"  (a) checkpoints annotate --lang {target} ref.txt + {len(systems)} systems --stanza-dir {where}, "
              f"empty cache:")
        print(f"      {lines:,} lines, {given + cached + parsed:,} distinct texts, {parsed:,} parsed now: "
              f"{seconds:.1f} s whole command = {parsed / seconds:.1f} sentences/s annotated "
              f"({lines / seconds:.1f} lines/s)")
        if cached or given:
            print(f"      note: {cached:,} texts were already in the cache {cache}: not a cold parse")

        def metrics_command(kind: str, *chosen: str) -> list[str]:
            return [*CHECKPOINTS, "metrics", "-r", str(reference),
                    *(part for path in systems for part in ("-s", f"{path.stem}={path}")), "--tgt-lang", target, *chosen,
                    "-f", "json", "-o", str(Path(scratch) / f"{kind}.json")]

        parsing = ("--stanza-dir", str(stanza_dir), "--annotation-cache", str(cache))
        commands = {"linguistic": metrics_command("linguistic", "--metric-set", "linguistic", *parsing),
                    "lexical": metrics_command("lexical", "--metric-set", "lexical")}
        how = "--metric-set linguistic"
        seconds, result = run_timed(commands["linguistic"])
        if result.returncode != 0:
            print(f"  (b) checkpoints metrics {how} failed ({seconds:.1f} s): {last_line(result.stderr)}")
            first = next(line for line in reference.read_text(encoding="utf-8").splitlines() if line.strip())
            names = runnable_linguistic(target, stanza_dir, cache, first, first)
            commands["linguistic"] = metrics_command("linguistic", "-m", ",".join(names), *parsing)
            how = f"-m <the {len(names)} metrics of the linguistic set that run here>"
        times: dict[str, list[float]] = {kind: [] for kind in commands}
        outcome: dict[str, subprocess.CompletedProcess[str]] = {}
        for _ in range(repeat):
            for kind, command in commands.items():
                seconds, outcome[kind] = run_timed(command)
                if outcome[kind].returncode != 0:
                    print(f"  checkpoints metrics ({kind}) failed: {last_line(outcome[kind].stderr)}")
                    return
                times[kind].append(seconds)
        counts = {}
        for kind in commands:
            written = json.loads((Path(scratch) / f"{kind}.json").read_text(encoding="utf-8"))
            counts[kind] = f"{len(written['metrics'])} metrics scored, {len(written.get('skipped') or {})} skipped"
        parse_lines = [line.strip() for line in outcome["linguistic"].stderr.splitlines() if "with stanza" in line]
        hit = "cache hit, nothing parsed" if not parse_lines else f"NOT a cache hit: {parse_lines[-1]}"
        print(f"  (b) checkpoints metrics {how}, {len(systems)} systems: "
              f"{', '.join(f'{t:.1f}' for t in times['linguistic'])} s ({counts['linguistic']}; {hit})")
        print(f"  (c) checkpoints metrics --metric-set lexical, same systems: "
              f"{', '.join(f'{t:.1f}' for t in times['lexical'])} s ({counts['lexical']})")
        best = {kind: min(values) for kind, values in times.items()}
        ratio = best["linguistic"] / best["lexical"]
        verdict = "met" if ratio <= TARGET_RATIO else "NOT met"
        print(f"  cache-hit linguistic / lexical, fastest of {repeat} each: {best['linguistic']:.1f} s / "
              f"{best['lexical']:.1f} s = {ratio:.2f} (target <= {TARGET_RATIO:.1f}: {verdict})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", nargs="+", default=["en-de", "zh-en"], choices=sorted(INFIX))
    parser.add_argument("--data", type=Path, default=TED, help="folder with <pair>/ref.txt, sys/*.txt, ...")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--mqm-dir", type=Path, default=None, help="MQM release folder (<infix>/mqm_ted_<infix>.avg_seg_scores.tsv)")
    parser.add_argument("--linguistic", action="store_true",
                        help="also time annotation, a cache-hit linguistic run and a lexical run as whole commands")
    parser.add_argument("--stanza-dir-root", type=Path, default=ROOT / "models",
                        help="folder of stanza model directories, one per target language (default: the repo's models/)")
    parser.add_argument("--annotation-cache", type=Path, default=None,
                        help="annotation cache of --linguistic (default: a new temporary folder, removed afterwards)")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each --linguistic metrics command (the fastest counts)")
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
        else:
            try:
                correlations(scores, mqm_system_scores(found, testbed))
            except ImportError as error:
                print(f"  skipped: {error}")
        if args.linguistic:
            print("\n[5] linguistic metrics as whole commands")
            cache = None if args.annotation_cache is None else args.annotation_cache.resolve()
            linguistic_commands(folder.resolve(), pair, args.stanza_dir_root.resolve(), cache, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
