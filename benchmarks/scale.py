"""Benchmark: how a build scales with the corpus, whole command, time and peak memory.

The bundled PUD en→es demo (1,000 gold CoNLL-U pairs, its alignment file, the
FreeDict and Apertium dictionaries, the `en` taxonomy) is replicated to 1k,
10k and 100k pairs, and ``checkpoints build`` is run on each as a user runs it
(start-up, reading, extraction, storing in a new SQLite file, the audit).
Peak memory is the command's own maximum resident set size (``wait4``).

Beside it, as a reference tool in the same run, stanza's CoNLL-U reader
(``stanza.utils.conll.CoNLL.conll2doc``) reads the same two files and nothing
else: what holding the parsed corpus at once costs in the library users parse
with. It is skipped above ``--reference-limit`` pairs, where it needs more
memory than the build.

With ``--ray-workers 1 2`` the same command also runs with ``--engine ray
--workers N`` (a Ray runtime started on this machine by the command, its
start-up included), needing the ``ray`` extra.

With ``--raw-models DIR`` the corpus is raw text instead: the PUD en→de
sentences (the demo's English, ``tests/data/build/de_pud.conllu.gz``), parsed
by the trained models in DIR (``models/``), aligned by eflomal, replicated to
the sizes asked; where parsing dominates, the figure says what Ray's workers
each parse.

    python benchmarks/scale.py [--sizes 1000 10000 100000] [--reference-limit 10000] [--ray-workers 1 2]
    python benchmarks/scale.py --raw-models models --sizes 1000 2000 --ray-workers 2
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

DEMO = Path(str(resources.files("checkpoints"))) / "data" / "demo"
FREEDICT_DE = Path("/usr/share/dictd/freedict-eng-deu.index")
GERMAN = Path(__file__).resolve().parent.parent / "tests" / "data" / "build" / "de_pud.conllu.gz"


def replicate_raw(folder: Path, copies: int) -> tuple[Path, Path]:
    """The PUD en→de sentences as raw text, written ``copies`` times over."""
    paths = folder / f"en{copies}.txt", folder / f"de{copies}.txt"
    for path, conllu in zip(paths, (DEMO / "en_pud.conllu.gz", GERMAN), strict=True):
        text = gzip.decompress(conllu.read_bytes()).decode("utf-8")
        lines = "".join(line[len("# text = "):] + "\n" for line in text.splitlines() if line.startswith("# text = "))
        with path.open("w", encoding="utf-8") as out:
            for _ in range(copies):
                out.write(lines)
    return paths


def raw_command(db: Path, source: Path, reference: Path, models: Path) -> list[str]:
    return [
        "checkpoints", "build", "--db", str(db), "--name", "scale", "--src-lang", "en", "--tgt-lang", "de",
        "--source", str(source), "--reference", str(reference), "--stanza-dir", str(models), "--threads", "1",
        "--taxonomy", "en",
    ] + (["--dictionary", str(FREEDICT_DE)] if FREEDICT_DE.is_file() else [])


def replicate(folder: Path, copies: int) -> tuple[Path, Path, Path]:
    """The demo corpus written ``copies`` times over: source, reference, alignments."""
    paths = folder / f"en{copies}.conllu", folder / f"es{copies}.conllu", folder / f"en-es{copies}.align"
    for path, text in zip(
        paths,
        (
            gzip.decompress((DEMO / "en_pud.conllu.gz").read_bytes()).decode("utf-8"),
            gzip.decompress((DEMO / "es_pud.conllu.gz").read_bytes()).decode("utf-8"),
            (DEMO / "en-es.align").read_text(encoding="utf-8"),
        ),
        strict=True,
    ):
        with path.open("w", encoding="utf-8") as out:
            for _ in range(copies):
                out.write(text)
    return paths


def measured(command: list[str]) -> tuple[float, float, str]:
    """Seconds, peak resident memory in MiB, and stderr of one whole command."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{errors}")
    return seconds, usage.ru_maxrss / 1024, errors


def build_command(db: Path, source: Path, reference: Path, alignment: Path) -> list[str]:
    return [
        "checkpoints", "build", "--db", str(db), "--name", "scale", "--src-lang", "en", "--tgt-lang", "es",
        "--source-conllu", str(source), "--reference-conllu", str(reference), "--alignment", str(alignment),
        "--dictionary", str(DEMO / "freedict-eng-spa.index"), "--dictionary", str(DEMO / "apertium-eng-spa.tsv"),
        "--taxonomy", "en",
    ]


REFERENCE = """
import sys
from stanza.utils.conll import CoNLL
documents = [CoNLL.conll2doc(input_file=path) for path in sys.argv[1:]]
print(sum(len(document.sentences) for document in documents))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000], help="pairs (multiples of 1,000)")
    parser.add_argument("--reference-limit", type=int, default=10000, help="largest corpus stanza's reader reads")
    parser.add_argument("--ray-workers", type=int, nargs="*", default=[], help="also build on Ray with N workers")
    parser.add_argument("--raw-models", type=Path, default=None, help="build from raw text (en→de) parsed with these models")
    args = parser.parse_args()
    if args.raw_models is not None:
        raw_text(args.sizes, args.ray_workers, args.raw_models.resolve())
        return
    print(f"{'pairs':>8} {'engine':>8} {'build s':>8} {'pairs/s':>8} {'peak MiB':>9} {'KiB/pair':>9}  "
          f"{'stanza reader s':>15} {'MiB':>6}")
    with tempfile.TemporaryDirectory(prefix="checkpoints-scale-") as scratch:
        folder = Path(scratch)
        for size in args.sizes:
            if size % 1000:
                raise SystemExit(f"--sizes: {size} is not a multiple of the demo's 1,000 pairs")
            source, reference, alignment = replicate(folder, size // 1000)
            reference_figures = ""
            if size <= args.reference_limit:
                read_seconds, read_peak, _ = measured([sys.executable, "-c", REFERENCE, str(source), str(reference)])
                reference_figures = f"{read_seconds:15.1f} {read_peak:6.0f}"
            for engine in ["local", *[f"ray {workers}" for workers in args.ray_workers]]:
                db = folder / f"scale{size}.db"
                command = build_command(db, source, reference, alignment)
                if engine != "local":
                    command += ["--engine", "ray", "--workers", engine.split()[1]]
                seconds, peak, _ = measured(command)
                print(f"{size:8,} {engine:>8} {seconds:8.1f} {size / seconds:8,.0f} {peak:9,.0f} "
                      f"{peak * 1024 / size:9,.1f}  {reference_figures}", flush=True)
                db.unlink()
            for path in (source, reference, alignment):
                path.unlink()


def raw_text(sizes: list[int], ray_workers: list[int], models: Path) -> None:
    dictionary = f", {FREEDICT_DE}" if FREEDICT_DE.is_file() else ""
    print(f"raw text en→de, parsed with {models} (one torch thread per parser), eflomal{dictionary}")
    print(f"{'pairs':>8} {'engine':>8} {'build s':>8} {'pairs/s':>8} {'peak MiB':>9}")
    with tempfile.TemporaryDirectory(prefix="checkpoints-scale-") as scratch:
        folder = Path(scratch)
        for size in sizes:
            if size % 1000:
                raise SystemExit(f"--sizes: {size} is not a multiple of PUD's 1,000 pairs")
            source, reference = replicate_raw(folder, size // 1000)
            for engine in ["local", *[f"ray {workers}" for workers in ray_workers]]:
                db = folder / f"raw{size}.db"
                command = raw_command(db, source, reference, models)
                if engine != "local":
                    command += ["--engine", "ray", "--workers", engine.split()[1]]
                seconds, peak, _ = measured(command)
                print(f"{size:8,} {engine:>8} {seconds:8.1f} {size / seconds:8,.1f} {peak:9,.0f}", flush=True)
                db.unlink()


if __name__ == "__main__":
    main()
