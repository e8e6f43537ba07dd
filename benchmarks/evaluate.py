"""Time check-point evaluation: matching, scoring and the bootstrap comparison.

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

Prints compile time (once per suite), check-point·system evaluations per
second (matching and r* selection for every system), report time, the time
of a paired bootstrap over all system pairs, and peak memory (max RSS).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

from checkpoints.errors import CheckpointsError
from checkpoints.evaluate.compare import compare
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
    args = parser.parse_args(argv)

    if not args.no_demo:
        run_demo(args.samples, args.seed)

    clock = Clock()
    if args.db:
        try:
            suite = load_stored_suite(args.db)
        except CheckpointsError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        origin = f"stored suite {suite.name!r} ({args.db})"
    else:
        suite = generate_suite(args.pairs, args.checkpoints_per_pair, args.seed)
        origin = "generated suite"
    outputs = system_outputs(suite, args.systems, args.seed)
    checkpoints = len(suite.checkpoints)
    references = sum(len(cp.references) for cp in suite.checkpoints)
    print(f"{origin}: {len(suite.pairs)} pairs, {checkpoints} check-points, {references} references, "
          f"{args.systems} systems (prepared in {clock.lap()})")

    scorer = CheckpointScorer(suite, tokenize=args.tokenize, match=args.match)
    print(f"compile (once per suite):  {clock.lap()}")

    scores = {name: scorer.score(lines) for name, lines in outputs.items()}
    print(f"match + r*, {args.systems} systems:   {clock.lap()}")
    wall, cpu = clock.wall, clock.cpu
    evaluations = checkpoints * args.systems
    print(f"  = {evaluations / wall:,.0f} check-point·system evaluations/s "
          f"({evaluations / cpu:,.0f} per CPU second)")

    reports = {name: s.report() for name, s in scores.items()}
    print(f"reports:                   {clock.lap()}")
    for name, report in reports.items():
        top = report.taxonomy
        print(f"  {name}: score {top.score:.4f} recall {top.recall:.4f} penalty {top.penalty:.4f}")

    for method in (Method.BOOTSTRAP, Method.AR):
        comparison = compare(scores, ResampleSpec(method=method, samples=args.samples, seed=args.seed))
        flagged = sum(r.significant for pair in comparison.pairs for r in pair.results)
        print(f"compare, {method.value}, {args.samples} samples, {len(comparison.pairs)} system pairs × "
              f"{len(comparison.scopes)} scopes: {clock.lap()} ({flagged} significant)")

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS):        {peak:7.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
