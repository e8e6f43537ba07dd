"""Benchmark: building the PUD en→es suite from gold CoNLL-U, an alignment file and two dictionaries.

What a user runs, timed whole (start-up, reading, extraction, storing):
``checkpoints build`` on the bundled demo data (1000 sentence pairs, the `en`
taxonomy, the demo's alignment file, FreeDict and Apertium dictionaries),
beside the same work in-process, stage by stage:

- read: the CoNLL-U files, the alignment file and the dictionaries;
- extract: the taxonomy, the non-parallel pair check, references, filters, DM;
- store: the suite in SQLite, one transaction.

Sentence pairs/s and check-points/s are for extraction plus storage; the peak
memory is the in-process run's.

    python benchmarks/build.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import tempfile
import time
from importlib import resources
from pathlib import Path

from checkpoints.cli.common import store_new_suite
from checkpoints.gcpause import paused_gc
from checkpoints.service.build import BuildRequest, align_pairs, build_suite_from
from checkpoints.service.demo import demo_request

DEMO = Path(str(resources.files("checkpoints"))) / "data" / "demo"


def request(name: str) -> BuildRequest:
    """The demo's build request, under another suite name."""
    demo = demo_request(DEMO)
    demo.name = name
    return demo


def command(db: Path) -> list[str]:
    built = request("bench")
    args = [
        "checkpoints", "build", "--db", str(db), "--name", "bench", "--src-lang", "en", "--tgt-lang", "es",
        "--source-conllu", str(built.source_conllu), "--reference-conllu", str(built.reference_conllu[0]),
        "--alignment", str(built.alignments[0]), "--taxonomy", "en",
    ]
    for dictionary in built.dictionaries:
        args += ["--dictionary", str(dictionary)]
    return args


def in_process(db: Path) -> dict[str, float]:
    times: dict[str, float] = {}
    built = request("bench")
    with paused_gc():
        start = time.perf_counter()
        corpus = align_pairs(built)
        times["read CoNLL-U, alignments, dictionaries"] = time.perf_counter() - start
        start = time.perf_counter()
        result = build_suite_from(built, corpus)
        times["extract (taxonomy, filters, references, DM)"] = time.perf_counter() - start
    start = time.perf_counter()
    store_new_suite(db, result.suite)
    times["store (one transaction)"] = time.perf_counter() - start
    times["pairs"] = len(result.suite.pairs)
    times["checkpoints"] = len(result.suite.checkpoints)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest is reported")
    args = parser.parse_args()
    best: dict[str, float] | None = None
    commands: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        for run in range(args.repeat):
            started = time.perf_counter()
            subprocess.run(command(Path(scratch) / f"cli{run}.db"), check=True, capture_output=True)
            commands.append(time.perf_counter() - started)
            times = in_process(Path(scratch) / f"bench{run}.db")
            total = times["extract (taxonomy, filters, references, DM)"] + times["store (one transaction)"]
            if best is None or total < best["total"]:
                best = {**times, "total": total}
    if best is None:
        raise SystemExit("--repeat must be at least 1")
    pairs, checkpoints, total = best["pairs"], best["checkpoints"], best["total"]
    print(f"PUD en→es, {int(pairs)} sentence pairs, {int(checkpoints)} check-points (best of {args.repeat} runs)")
    print(f"whole command `checkpoints build ...`: {min(commands):.2f} s (slowest {max(commands):.2f} s)")
    for stage, seconds in best.items():
        if stage not in {"pairs", "checkpoints", "total"}:
            print(f"  {stage:46s} {seconds:7.3f} s")
    print(f"extraction + storage: {total:.3f} s = {pairs / total:,.0f} sentence pairs/s, {checkpoints / total:,.0f} check-points/s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
