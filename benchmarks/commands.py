"""Whole commands as a user waits for them: ``checkpoints --help`` and ``checkpoints demo``.

    python benchmarks/commands.py [--repeat 5]

Each command runs as a fresh process (Python start-up, imports, loading and
storing included), best and slowest of ``--repeat`` runs, beside the bare
Python interpreter's start-up timed the same way, with the package's
bytecode written first as ``pip install`` writes it (``installed.py``). The demo's in-process
figure (``run_demo`` called in this process, imports already paid) shows how
much of the command is start-up.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from installed import compile_package_bytecode


def timed(command: Sequence[str], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return min(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    executable = str(Path(sys.executable).with_name("checkpoints"))
    compile_package_bytecode()
    best, worst = timed([sys.executable, "-c", "pass"], args.repeat)
    print(f"python -c pass (interpreter start-up):  {best:6.3f} s (slowest {worst:.3f} s)")
    best, worst = timed([executable, "--help"], args.repeat)
    print(f"checkpoints --help:                     {best:6.3f} s (slowest {worst:.3f} s)   target <= 0.3 s")
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "demo.db"
        best, worst = timed([executable, "demo", "--db", str(database)], max(1, args.repeat // 2))
        print(f"checkpoints demo (whole command):       {best:6.3f} s (slowest {worst:.3f} s)   target <= 5 s")
        from checkpoints.service.demo import run_demo

        run_demo(database, samples=1000)  # imports and caches paid once
        started = time.perf_counter()
        run_demo(database, samples=1000)
        print(f"run_demo in-process (imports paid):     {time.perf_counter() - started:6.3f} s")


if __name__ == "__main__":
    main()
