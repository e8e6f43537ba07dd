"""Benchmark: the suite interchange XML, ``checkpoints import`` and ``checkpoints export``.

A generated suite the size of a large real one (``benchmarks/evaluate.py``'s
generator: 5,000 sentence pairs × 20 check-points = 100,000 check-points, about
22 MB of XML) is written with :func:`write_suite_xml`, then timed

- as whole commands, what a user waits for (start-up included):
  ``checkpoints import --db X suite.xml`` and ``checkpoints export --db X -o copy.xml``;
- in-process, stage by stage: parse + schema-validate + build the model
  (:func:`read_suite_xml`), store (one transaction), load, write the XML.

    python benchmarks/suite_xml.py [--pairs 5000] [--checkpoints-per-pair 20] [--repeat 3] [--profile parse]

``--profile parse|store|export`` prints the top of a cProfile of that stage.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from checkpoints.cli.common import store_new_suite
from checkpoints.db.repo import load_suite
from checkpoints.db.session import open_engine, transaction
from checkpoints.suite_xml import read_suite_xml, taxonomy_categories, write_suite_xml


def _evaluation_benchmark() -> ModuleType:
    """``benchmarks/evaluate.py`` (its suite generator), loaded by path: the bare name
    ``evaluate`` would shadow the package and Hugging Face's library."""
    path = Path(__file__).resolve().parent / "evaluate.py"
    spec = importlib.util.spec_from_file_location("benchmark_evaluate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def timed_command(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``checkpoints ARGS`` in a fresh
    process, which must succeed. On a busy machine the CPU time is the steadier figure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(["checkpoints", *args], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"checkpoints {' '.join(args)} failed: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def in_process(xml: Path, scratch: Path, run: int, profile: str | None) -> dict[str, float]:
    times: dict[str, float] = {}
    profiler = cProfile.Profile()

    def stage(name: str, label: str, work):  # type: ignore[no-untyped-def]
        started, cpu = time.perf_counter(), time.process_time()
        if profile == name:
            profiler.enable()
        result = work()
        if profile == name:
            profiler.disable()
        times[label] = time.perf_counter() - started
        times[f"{label} (CPU)"] = time.process_time() - cpu
        return result

    data = stage("parse", "parse + validate + model (read_suite_xml)", lambda: read_suite_xml(xml, taxonomy_categories))
    db = scratch / f"in-process-{run}.db"
    stage("store", "store (one transaction)", lambda: store_new_suite(db, data))
    engine = open_engine(db, create=False)

    def load():  # type: ignore[no-untyped-def]
        with transaction(engine) as session:
            return load_suite(session)

    loaded = stage("load", "load (export's read from the database)", load)
    engine.dispose()
    stage("export", "write XML (export's write)", lambda: write_suite_xml(loaded, scratch / f"in-process-{run}.xml"))
    if profile:
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.sort_stats("cumulative").print_stats(30)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5000)
    parser.add_argument("--checkpoints-per-pair", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest is reported")
    parser.add_argument("--profile", choices=["parse", "store", "load", "export"], help="cProfile one in-process stage")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        raise SystemExit("--repeat must be at least 1")

    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        suite = _evaluation_benchmark().generate_suite(args.pairs, args.checkpoints_per_pair, args.seed)
        xml = scratch / "suite.xml"
        write_suite_xml(suite, xml)
        size = xml.stat().st_size
        imports: list[tuple[float, float]] = []
        exports: list[tuple[float, float]] = []
        best: dict[str, float] | None = None
        for run in range(args.repeat):
            db = scratch / f"cli-{run}.db"
            imports.append(timed_command(["import", "--db", str(db), str(xml)]))
            exports.append(timed_command(["export", "--db", str(db), "--output", str(scratch / f"cli-{run}.xml")]))
            times = in_process(xml, scratch, run, args.profile if run == 0 else None)
            if best is None or _wall(times) < _wall(best):
                best = times
        assert best is not None
        print(
            f"generated suite: {len(suite.pairs):,} pairs, {len(suite.checkpoints):,} check-points, "
            f"{size / 1e6:.1f} MB of XML (best of {args.repeat} runs; wall / CPU seconds)"
        )
        for command, runs in (("import", imports), ("export", exports)):
            wall, cpu = min(runs)
            print(f"whole command `checkpoints {command}`: {wall:6.2f} s / {cpu:5.2f} s CPU (slowest {max(runs)[0]:.2f} s)")
        print("in-process:")
        for label, seconds in best.items():
            if not label.endswith("(CPU)"):
                print(f"  {label:44s} {seconds:7.3f} s / {best[f'{label} (CPU)']:6.3f} s CPU")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak memory of this process (max RSS): {peak:,.0f} MiB")


def _wall(times: dict[str, float]) -> float:
    return sum(seconds for label, seconds in times.items() if not label.endswith("(CPU)"))


if __name__ == "__main__":
    main()
