"""Time check-point evaluation: the whole ``checkpoints evaluate`` command, its steps, and the comparison.

    python benchmarks/evaluate.py                      # the demo suite, then a generated one (100,000 check-points, 4 systems)
    python benchmarks/evaluate.py --pairs 2000 --checkpoints-per-pair 10
    python benchmarks/evaluate.py --db SUITE.db        # a suite stored by `checkpoints build`

The generated suite imitates a real one: 5,000 sentence pairs of ~25 tokens
drawn from a Zipf-distributed vocabulary, 20 check-points per pair in 20
categories over the three levels, references of 1–8 tokens cut from the
reference translations (15% with a gap), half the pairs with a second
reference translation and then a second reference per check-point. System
outputs are the first reference with words substituted, dropped and swapped
at rates that differ per system. With ``--db`` the systems are made the same
way from the stored suite's references.

The suite is stored in a temporary SQLite database, and the script prints:

* the whole ``checkpoints evaluate`` command on it (a fresh process: Python
  start-up, loading the suite, matching, BLEU, storing the run, the report),
  best of ``--repeat`` runs, with the package's bytecode written first as
  ``pip install`` writes it (``installed.py``), twice: the first evaluation of the suite (it
  compiles the references and keeps the index with the suite) and a later one
  (it adopts the kept index), in seconds and check-point·system evaluations per
  second, beside sacreBLEU's command scoring the same outputs (first
  reference only) in the same run;
* the same steps in this process: loading the suite, compiling its
  references (once per suite), matching and r* for every system, BLEU,
  reports, storing the run (wall and CPU time: on a busy machine CPU time is
  the steadier figure);
* a paired bootstrap and approximate randomization over all system pairs,
  and peak memory (max RSS).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

from checkpoints.errors import CheckpointsError
from checkpoints.evaluate.comparison import compare
from checkpoints.evaluate.resample import Method, ResampleSpec
from checkpoints.evaluate.scoring import CheckpointScorer
from checkpoints.model import (
    Alignment,
    Category,
    CheckPoint,
    Level,
    Reference,
    Sentence,
    SentencePair,
    SuiteData,
    Token,
    surface_with_gaps,
)

LEVELS = [Level.WORD] * 11 + [Level.PHRASE] * 5 + [Level.SENTENCE] * 4


def _sentence(words: list[str]) -> Sentence:
    return Sentence(tokens=[Token(form=w) for w in words], text=" ".join(words))


def generate_suite(pairs: int, per_pair: int, seed: int) -> SuiteData:
    rng = np.random.default_rng(seed)
    vocabulary = np.array([f"w{i}" for i in range(20000)])
    categories = [Category(f"Category {i + 1}", level) for i, level in enumerate(LEVELS)]
    suite_pairs: list[SentencePair] = []
    checkpoints: list[CheckPoint] = []
    for pair_id in range(1, pairs + 1):
        length = int(rng.integers(18, 33))
        ref1 = list(vocabulary[np.minimum(rng.zipf(1.3, length), len(vocabulary)) - 1])
        refs = [ref1]
        if rng.random() < 0.5:
            ref2 = _perturb(ref1, 0.3, vocabulary, rng)
            refs.append(ref2)
        source = _sentence([f"s{i}" for i in range(length)])
        suite_pairs.append(
            SentencePair(pair_id, source, [_sentence(r) for r in refs], [Alignment.from_pairs([]) for _ in refs])
        )
        for _ in range(per_pair):
            category = categories[int(rng.integers(len(categories)))]
            references = []
            for index, words in enumerate(refs):
                size = int(rng.integers(1, 9))
                start = int(rng.integers(0, max(1, len(words) - size)))
                indices = list(range(start, min(len(words), start + size)))
                if len(indices) >= 3 and rng.random() < 0.15:
                    del indices[len(indices) // 2]
                tokens = surface_with_gaps(words, indices)
                references.append(Reference(index, indices, tokens, dm=float(rng.choice([0.5, 0.75, 1.0]))))
            checkpoints.append(CheckPoint(pair_id, category.name, [0], references, id=len(checkpoints) + 1))
    return SuiteData("benchmark", "xx", "en", "bench", categories, suite_pairs, checkpoints)


def _perturb(words: list[str], rate: float, vocabulary: np.ndarray, rng: np.random.Generator) -> list[str]:
    out: list[str] = []
    for word in words:
        roll = rng.random()
        if roll < rate / 3:
            continue
        if roll < rate:
            out.append(str(vocabulary[int(rng.integers(len(vocabulary)))]))
        else:
            out.append(word)
    for _ in range(int(len(out) * rate / 2)):
        i = int(rng.integers(0, max(1, len(out) - 1)))
        if i + 1 < len(out):
            out[i], out[i + 1] = out[i + 1], out[i]
    return out


def system_outputs(suite: SuiteData, systems: int, seed: int) -> dict[str, list[str]]:
    rng = np.random.default_rng(seed + 1)
    vocabulary = np.array(sorted({w for p in suite.pairs for r in p.references for w in r.forms}) or ["x"])
    outputs = {}
    for number in range(systems):
        rate = 0.15 + 0.1 * number
        outputs[f"system{number + 1}"] = [
            " ".join(_perturb(pair.references[0].forms, rate, vocabulary, rng)) if pair.references else ""
            for pair in suite.pairs
        ]
    return outputs


def load_stored_suite(path: Path) -> SuiteData:
    from checkpoints.db.repo import load_suite
    from checkpoints.db.session import open_engine, transaction

    engine = open_engine(path, create=False)
    with transaction(engine) as session:
        return load_suite(session)


class Clock:
    """Wall and CPU time since the last lap: on a busy machine CPU time is the steadier figure."""

    def __init__(self) -> None:
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        self.wall = self.cpu = 0.0

    def lap(self) -> str:
        wall, cpu = time.perf_counter(), time.process_time()
        self.wall, self.cpu = wall - self._wall, cpu - self._cpu
        self._wall, self._cpu = wall, cpu
        return f"{self.wall:7.2f} s wall {self.cpu:7.2f} s CPU"


def run_demo(samples: int, seed: int) -> None:
    """The bundled demo suite (PUD en→es) with its two real Apertium systems."""
    from importlib import resources

    from checkpoints.service.build import BuildRequest, build_suite

    clock = Clock()
    folder = Path(str(resources.files("checkpoints"))) / "data" / "demo"
    request = BuildRequest(
        source_lang="en", target_lang="es", source_conllu=folder / "en_pud.conllu.gz",
        reference_conllu=[folder / "es_pud.conllu.gz"], alignments=[folder / "en-es.align"], taxonomy="en",
        dictionaries=[folder / "freedict-eng-spa.index", folder / "apertium-eng-spa.tsv"],
    )
    suite = build_suite(request).suite
    outputs = {name: (folder / f"{name}.es.txt").read_text(encoding="utf-8").splitlines() for name in ("direct", "pivot")}
    print(f"demo suite: {len(suite.pairs)} pairs, {len(suite.checkpoints)} check-points, 2 Apertium systems "
          f"(built in {clock.lap()})")
    scorer = CheckpointScorer(suite)
    print(f"  compile:                 {clock.lap()}")
    scores = {name: scorer.score(lines) for name, lines in outputs.items()}
    print(f"  match + r*, 2 systems:   {clock.lap()}")
    print(f"  = {len(suite.checkpoints) * 2 / clock.wall:,.0f} check-point·system evaluations/s")
    comparison = compare(scores, ResampleSpec(method=Method.BOOTSTRAP, samples=samples, seed=seed))
    flagged = sum(r.significant for pair in comparison.pairs for r in pair.results)
    print(f"  compare, bootstrap, {samples} samples: {clock.lap()} ({flagged} significant scopes)")
    whole_commands(folder)


def whole_commands(folder: Path) -> None:
    """What a user waits for: ``checkpoints evaluate`` and ``compare`` as commands (start-up,
    loading the suite from SQLite, matching, storing the run), beside sacreBLEU's command
    scoring the same two outputs."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "demo.db"
        subprocess.run(["checkpoints", "demo", "--db", str(db), "--samples", "10"], check=True, capture_output=True)
        systems = [f"--system={name}={folder / f'{name}.es.txt'}" for name in ("direct", "pivot")]
        timed = {
            "checkpoints evaluate (2 systems)": ["checkpoints", "evaluate", "--db", str(db), *systems],
            "checkpoints compare (1000 samples)": ["checkpoints", "compare", "--db", str(db),
                                                   "--system", "direct", "--system", "pivot"],
        }
        references = Path(scratch) / "reference.es"
        references.write_text("".join(s.text + "\n" for s in _demo_references(folder)), encoding="utf-8")
        timed["sacrebleu BLEU chrF TER (2 systems)"] = [
            "sacrebleu", str(references), "-i", str(folder / "direct.es.txt"), str(folder / "pivot.es.txt"),
            "-m", "bleu", "chrf", "ter",
        ]
        for label, command in timed.items():
            started = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            print(f"  whole command, {label}: {time.perf_counter() - started:6.2f} s")


def _demo_references(folder: Path) -> list[Sentence]:
    from checkpoints.io.conllu import read_conllu

    return read_conllu(folder / "es_pud.conllu.gz", "es")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-demo", action="store_true", help="skip the bundled demo suite")
    parser.add_argument("--db", type=Path, help="evaluate a stored suite instead of a generated one")
    parser.add_argument("--pairs", type=int, default=5000)
    parser.add_argument("--checkpoints-per-pair", type=int, default=20)
    parser.add_argument("--systems", type=int, default=4)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--tokenize", default="13a")
    parser.add_argument("--match", default="normal", choices=["normal", "lower", "stem"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each whole command (the best counts)")
    args = parser.parse_args(argv)

    if not args.no_demo:
        run_demo(args.samples, args.seed)

    import shutil
    import tempfile

    from checkpoints.cli.common import store_new_suite

    clock = Clock()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        stored = folder / "suite.db"
        if args.db:
            try:
                suite = load_stored_suite(args.db)
            except CheckpointsError as error:
                print(f"error: {error}", file=sys.stderr)
                return 1
            shutil.copyfile(args.db, stored)  # runs are added to a copy, never to the given database
            origin = f"stored suite {suite.name!r} ({args.db})"
        else:
            suite = generate_suite(args.pairs, args.checkpoints_per_pair, args.seed)
            store_new_suite(stored, suite)
            origin = "generated suite"
        outputs = system_outputs(suite, args.systems, args.seed)
        files = []
        for name, lines in outputs.items():
            files.append((name, folder / f"{name}.txt"))
            files[-1][1].write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        checkpoints = len(suite.checkpoints)
        references = sum(len(cp.references) for cp in suite.checkpoints)
        print(f"{origin}: {len(suite.pairs)} pairs, {checkpoints} check-points, {references} references, "
              f"{args.systems} systems (prepared and stored in {clock.lap()})")
        evaluations = checkpoints * args.systems
        whole_evaluate(stored, files, suite, args, evaluations)
        scores = in_process(stored, outputs, args, evaluations)

    clock.lap()
    for method in (Method.BOOTSTRAP, Method.AR):
        comparison = compare(scores, ResampleSpec(method=method, samples=args.samples, seed=args.seed))
        flagged = sum(r.significant for pair in comparison.pairs for r in pair.results)
        print(f"compare, {method.value}, {args.samples} samples, {len(comparison.pairs)} system pairs × "
              f"{len(comparison.scopes)} scopes: {clock.lap()} ({flagged} significant)")

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS):        {peak:7.0f} MiB")
    return 0


def _timed(command: list[str], repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time (user + system) of ``repeat`` runs of a command."""
    import subprocess

    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


def whole_evaluate(stored: Path, files: list[tuple[str, Path]], suite: SuiteData, args: argparse.Namespace,
                   evaluations: int) -> None:
    """``checkpoints evaluate`` as a user runs it, on a fresh copy of the stored suite each time,
    and sacreBLEU's command on the same outputs."""
    import shutil

    from installed import compile_package_bytecode

    compile_package_bytecode()
    copy = stored.with_name("evaluate.db")
    systems = [f"--system={name}={path}" for name, path in files]
    command = ["checkpoints", "evaluate", "--db", str(copy), "--tokenize", args.tokenize, "--match", args.match, *systems]
    walls, cpus = [], []
    for _ in range(args.repeat):
        shutil.copyfile(stored, copy)
        wall, cpu = _timed(command, 1)
        walls.append(wall)
        cpus.append(cpu)
    wall, cpu = min(walls), min(cpus)
    print(f"whole command, checkpoints evaluate ({args.systems} systems), first on the suite (compiles, keeps the index), "
          f"best of {args.repeat}: {wall:6.2f} s wall {cpu:6.2f} s CPU = {evaluations / wall:,.0f} check-point·system "
          f"evaluations/s ({evaluations / cpu:,.0f} per CPU second)")
    wall, cpu = _timed(command, args.repeat)  # the copy now keeps the index the last run compiled
    print(f"whole command, checkpoints evaluate ({args.systems} systems), again (adopts the kept index), "
          f"best of {args.repeat}: {wall:6.2f} s wall {cpu:6.2f} s CPU = {evaluations / wall:,.0f} check-point·system "
          f"evaluations/s ({evaluations / cpu:,.0f} per CPU second)")
    reference = stored.with_name("reference.txt")
    reference.write_text("".join(pair.references[0].text + "\n" if pair.references else "\n" for pair in suite.pairs),
                         encoding="utf-8")
    wall, cpu = _timed(["sacrebleu", str(reference), "-i", *(str(path) for _, path in files), "-m", "bleu",
                        "--tokenize", args.tokenize if args.tokenize in ("13a", "intl", "zh", "char", "none") else "13a"],
                       args.repeat)
    print(f"whole command, sacrebleu BLEU ({args.systems} systems, first reference), best of {args.repeat}: "
          f"{wall:6.2f} s wall {cpu:6.2f} s CPU")


def in_process(stored: Path, outputs: dict[str, list[str]], args: argparse.Namespace, evaluations: int) -> dict:
    """The steps of ``checkpoints evaluate`` in this process, timed one by one."""
    from checkpoints.db.repo import load_suite
    from checkpoints.db.session import open_engine, transaction
    from checkpoints.gcpause import paused_gc
    from checkpoints.service.evaluate import Evaluation, run_signature, store_evaluation

    print("in process:")
    engine = open_engine(stored, create=False)
    clock = Clock()
    with paused_gc():  # as the service does
        with transaction(engine) as session:
            suite = load_suite(session)
        print(f"  load the suite:          {clock.lap()}")
        scorer = CheckpointScorer(suite, tokenize=args.tokenize, match=args.match)
        scorer.compile()
        print(f"  compile (first run):     {clock.lap()}")
        payload = scorer.kept_index()
        print(f"  pack the index to keep:  {clock.lap()} ({len(payload) / 2**20:.1f} MiB)")
        kept = CheckpointScorer(suite, tokenize=args.tokenize, match=args.match)
        kept.adopt_kept_index(payload)
        print(f"  adopt the kept index:    {clock.lap()}")
        scores = {name: scorer.score(lines) for name, lines in outputs.items()}
        print(f"  match + r*, {args.systems} systems:   {clock.lap()}")
        print(f"    = {evaluations / clock.wall:,.0f} check-point·system evaluations/s "
              f"({evaluations / clock.cpu:,.0f} per CPU second)")
        bleu = {name: scorer.bleu(lines) for name, lines in outputs.items()}
        print(f"  BLEU, {args.systems} systems:         {clock.lap()}")
        reports = {name: s.report() for name, s in scores.items()}
        print(f"  reports:                 {clock.lap()}")
        evaluation = Evaluation(suite, scorer, scores, reports, bleu, run_signature(suite, scorer))
        with transaction(engine) as session:
            store_evaluation(session, evaluation, outputs, {"tokenize": args.tokenize, "match": args.match})
        print(f"  store the run:           {clock.lap()}")
    engine.dispose()
    for name, report in reports.items():
        top = report.taxonomy
        print(f"  {name}: score {top.score:.4f} recall {top.recall:.4f} penalty {top.penalty:.4f} BLEU {bleu[name]:.2f}")
    return scores


if __name__ == "__main__":
    sys.exit(main())
