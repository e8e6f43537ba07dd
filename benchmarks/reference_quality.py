"""How right are a built suite's references? Measured against hand-made gold word alignments.

A check-point's *gold reference* is the set of reference words that the gold
alignment links to its source words. For every stored check-point of the
gold pairs whose reference comes from the alignment, this compares its
reference words (``Reference.target_indices``) with the gold ones:

- **exact**: the two sets are equal;
- **F1**: token F1 between the two sets (1 when both are empty);
- **spurious**: the span has no gold link at all (a pronoun Spanish drops, a
  pair that is not a translation), yet the check-point was kept;

and, over the gold pairs,

- **coverage**: the share of gold-linked source words that lie in some stored
  word-level check-point (filters that drop check-points lower it);
- **AER** of the build's alignment against the gold links (Och & Ney 2003;
  :mod:`checkpoints.extract.align_quality`), over the gold pairs; a pair that
  is not a translation has no gold link, so its links all count as errors.

The suites are built the way docs/building.md recommends, with the real command
(``checkpoints build ... --aligner eflomal --dictionary ...``): English→Spanish
from the bundled gold-parsed PUD sample with the bundled FreeDict and Apertium
dictionaries (``--dictionary freedict-eng-spa --dictionary apertium-eng-spa``),
Chinese→English from the Chinese PUD (tests/data) with CC-CEDICT
(``--dictionary cedict``), English→French and English→German from the French
and German PUD (tests/data/build) with Debian's FreeDict dictionaries
(``apt-get install dict-freedict-eng-fra dict-freedict-eng-deu``). The
en→es and zh→en gold pairs are the ones the builder's rules were developed
on; en→fr and en→de were aligned by hand later, to measure them on pairs
they were not written for. The same gold also measures the four directions read the
other way round (``--pair es-en``, ``fr-en``, ``de-en``, ``en-zh``): source
and target swap, and the rules meet languages on the side they were not
written for (German cases on the source side, Chinese on the target side). Pairs
without English (``--pair es-fr``, ``de-zh``, any two of es, fr, de, zh) are
measured against the gold composed through the English words of the same
sentences (:func:`pivoted_gold`), an approximation. A build's links depend on eflomal's seed
(``build --seed``), so one build is one draw; ``--repeat`` builds with seeds
1, 2, ... and prints every figure as mean (min–max) over them. ``--audit`` also prints each build's audit
(:mod:`checkpoints.evaluate.audit`: ``checkpoints audit`` on the suite) and
the mean sensitivity and largest leakage of the six word categories that
stand for one part of speech (Noun, Verb, Adjective, Adverb, Pronoun,
Preposition).

    python benchmarks/reference_quality.py                # the four gold directions, 3 builds each
    python benchmarks/reference_quality.py --pair de-en --pair en-zh   # gold read the other way round
    python benchmarks/reference_quality.py --pair es-fr --pair de-zh   # pairs without English: gold composed through English
    python benchmarks/reference_quality.py --pair en-es --repeat 1 --per-category
    python benchmarks/reference_quality.py --pair en-fr --audit
    python benchmarks/reference_quality.py --gold-dir OTHER_GOLD --pairs-file OTHER_IDS
    python benchmarks/reference_quality.py --build-args "--min-dm 0.2"   # another build option
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from checkpoints.db.repo import load_suite
from checkpoints.db.session import open_engine, transaction
from checkpoints.evaluate.audit import audit_suite
from checkpoints.extract.align_quality import (
    AlignmentQuality,
    alignment_quality,
    read_gold,
    read_pair_numbers,
)
from checkpoints.io.conllu import read_conllu
from checkpoints.model import Alignment, Level, SuiteData

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
DEMO = Path(str(resources.files("checkpoints"))) / "data" / "demo"
DICTD = Path("/usr/share/dictd")
SIX_WORD_CATEGORIES = ("Noun", "Verb", "Adjective", "Adverb", "Pronoun", "Preposition")

@dataclass(frozen=True)
class PairConfig:
    source_lang: str
    target_lang: str
    source: Path
    reference: Path
    gold: str
    """File name of the gold links in the gold folder."""
    dictionaries: tuple[str, ...]
    reversed_gold: bool = False
    """The gold file is the other direction's (``en-de`` for de→en): its links are read target-first."""
    pivot: tuple[str, str] | None = None
    """For a pair without English (es→fr): the English gold directions of its source and target
    language, whose links are composed through the English words (:func:`pivoted_gold`)."""


CONFIGS = {
    "en-es": PairConfig(
        "en", "es", DEMO / "en_pud.conllu.gz", DEMO / "es_pud.conllu.gz", "en-es.dev.pharaoh",
        ("freedict-eng-spa", "apertium-eng-spa"),
    ),
    "zh-en": PairConfig(
        "zh", "en", DATA / "taxonomy" / "zh_pud-ud-test.conllu.gz", DEMO / "en_pud.conllu.gz", "zh-en.dev.pharaoh",
        ("cedict",),
    ),
    "en-fr": PairConfig(
        "en", "fr", DEMO / "en_pud.conllu.gz", DATA / "build" / "fr_pud.conllu.gz", "en-fr.dev.pharaoh",
        (str(DICTD / "freedict-eng-fra.index"),),
    ),
    "en-de": PairConfig(
        "en", "de", DEMO / "en_pud.conllu.gz", DATA / "build" / "de_pud.conllu.gz", "en-de.dev.pharaoh",
        (str(DICTD / "freedict-eng-deu.index"),),
    ),
}
FORWARD_PAIRS = tuple(CONFIGS)
"""The directions the gold was made for, and the default of a run."""

CONFIGS |= {
    f"{forward.target_lang}-{forward.source_lang}": PairConfig(
        forward.target_lang, forward.source_lang, forward.reference, forward.source, forward.gold, dictionaries,
        reversed_gold=True,
    )
    for forward, dictionaries in (
        (CONFIGS["en-es"], (str(DICTD / "freedict-spa-eng.index"),)),
        (CONFIGS["en-fr"], (str(DICTD / "freedict-fra-eng.index"),)),
        (CONFIGS["en-de"], (str(DICTD / "freedict-deu-eng.index"),)),
        (CONFIGS["zh-en"], ("cedict",)),
    )
}
"""The same gold read the other way round (es→en, fr→en, de→en, en→zh): directions no rule
was written for, with Debian's FreeDict dictionaries of that direction
(``apt-get install dict-freedict-spa-eng dict-freedict-fra-eng dict-freedict-deu-eng``) and
CC-CEDICT, which a build reads both ways."""

PIVOTED_LANGUAGES = {"es": "en-es", "fr": "en-fr", "de": "en-de", "zh": "zh-en"}
"""Each language the gold has and the gold direction that links it to English."""

def _freedict(name: str) -> str:
    return str(DICTD / f"freedict-{name}.index")


PIVOTED_DICTIONARIES = {
    "es-fr": (_freedict("fra-spa"),), "fr-es": (_freedict("fra-spa"),),
    "de-fr": (_freedict("deu-fra"),), "fr-de": (_freedict("fra-deu"),),
    "es-de": (_freedict("spa-deu"),), "de-es": (_freedict("deu-spa"),),
} | {
    pair: ("cedict", english)
    for other, english in (("es", "freedict-eng-spa"), ("fr", _freedict("eng-fra")), ("de", _freedict("eng-deu")))
    for pair in (f"zh-{other}", f"{other}-zh")
}
"""The dictionaries of pairs without English: FreeDict's where Debian has one (``dict-freedict-fra-spa``,
``-deu-fra``, ``-fra-deu``, ``-deu-spa``, ``-spa-deu``; a build reads one written the other way round
inverted); for Chinese, none exists, and CC-CEDICT with FreeDict's English one of the other language
make one through English (:func:`checkpoints.extract.dictionary.pivot_legs`)."""

CONFIGS |= {
    f"{source}-{target}": PairConfig(
        source, target,
        CONFIGS[PIVOTED_LANGUAGES[source]].source if source == "zh" else CONFIGS[PIVOTED_LANGUAGES[source]].reference,
        CONFIGS[PIVOTED_LANGUAGES[target]].source if target == "zh" else CONFIGS[PIVOTED_LANGUAGES[target]].reference,
        "",
        PIVOTED_DICTIONARIES[f"{source}-{target}"],
        pivot=(PIVOTED_LANGUAGES[source], PIVOTED_LANGUAGES[target]),
    )
    for source in PIVOTED_LANGUAGES
    for target in PIVOTED_LANGUAGES
    if source != target
}
"""Pairs without English (es→fr, de→zh, ...), which no rule was written for and no one aligned by
hand: their gold is composed through English (:func:`pivoted_gold`), with the dictionaries of
:data:`PIVOTED_DICTIONARIES`."""


def build_command(config: PairConfig, db: Path, extra: Sequence[str] = (), seed: int = 1) -> list[str]:
    command = [
        "checkpoints", "build", "--db", str(db), "--name", "quality",
        "--src-lang", config.source_lang, "--tgt-lang", config.target_lang,
        "--source-conllu", str(config.source), "--reference-conllu", str(config.reference),
        "--aligner", "eflomal", "--seed", str(seed),
    ]
    for dictionary in config.dictionaries:
        command += ["--dictionary", dictionary]
    return [*command, *extra]


def build(config: PairConfig, folder: Path, number: int, extra: Sequence[str]) -> tuple[SuiteData, float]:
    db = folder / f"{config.source_lang}-{config.target_lang}-{number}.db"
    started = time.perf_counter()
    done = subprocess.run(build_command(config, db, extra, seed=number + 1), capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"build failed ({done.returncode}): {done.stderr.strip()}")
    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        suite = load_suite(session)
    engine.dispose()
    return suite, elapsed


@dataclass
class Tally:
    checkpoints: int = 0
    exact: int = 0
    spurious: int = 0
    f1: float = 0.0

    def add(self, reference: set[int], gold: set[int]) -> None:
        self.checkpoints += 1
        self.exact += reference == gold
        self.spurious += not gold
        both = len(reference) + len(gold)
        self.f1 += 2 * len(reference & gold) / both if both else 1.0

    def rates(self) -> dict[str, float]:
        n = self.checkpoints or 1
        return {"exact": self.exact / n, "f1": self.f1 / n, "spurious": self.spurious / n}


@dataclass
class Measurement:
    categories: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    overall: Tally = field(default_factory=Tally)
    coverage: float = 0.0
    alignment: AlignmentQuality | None = None
    skipped_pairs: list[int] = field(default_factory=list)
    audit: dict[str, object] | None = None


def read_suite_gold(suite: SuiteData, path: Path, pairs_file: Path, reversed_gold: bool = False) -> dict[int, Alignment]:
    """Gold alignments of the listed pairs, by pair id, checked against the suite's sentences
    (``reversed_gold``: the file is the other direction's, and its links are turned round)."""
    sources = [len(p.source) for p in suite.pairs]
    targets = [len(p.references[0]) for p in suite.pairs]
    if reversed_gold:
        sources, targets = targets, sources
    entries = read_gold(path, sources, targets, read_pair_numbers(pairs_file))
    if reversed_gold:
        entries = [(position, Alignment(frozenset((t, s) for s, t in gold.links))) for position, gold in entries]
    return {suite.pairs[position].id: alignment for position, alignment in entries}


Judged = dict[int, tuple[frozenset[int], frozenset[int]]]
"""Pair id → the source and the target words a pivoted gold can speak for."""


def pivoted_gold(
    suite: SuiteData, gold_dir: Path, pairs_file: Path, config: PairConfig
) -> tuple[dict[int, Alignment], Judged]:
    """Gold links of a pair without English, composed through the English words of the same PUD
    sentence: a source word and a target word are linked when some English word is gold-linked to
    both; and the words it can judge, those gold-linked to some English word. A word English does
    not say (an article before "Los análisis", a reflexive clitic) has no counterpart through
    English, and a check-point over one or a reference word that is one cannot be judged, so
    :func:`measure` leaves them out. Still an approximation (a Spanish reflexive "se" is linked to
    the French verb the English verb stands for), so its figures compare builds, not tools."""
    assert config.pivot is not None
    english = [len(sentence) for sentence in read_conllu(DEMO / "en_pud.conllu.gz")]
    numbers = read_pair_numbers(pairs_file)

    def with_english(direction: str, lengths: list[int]) -> dict[int, set[tuple[int, int]]]:
        """``(English word, word)`` gold links of one language, by pair position."""
        forward = CONFIGS[direction]
        if forward.source_lang == "en":
            entries = read_gold(gold_dir / forward.gold, english, lengths, numbers)
            return {position: set(gold.links) for position, gold in entries}
        entries = read_gold(gold_dir / forward.gold, lengths, english, numbers)
        return {position: {(e, word) for word, e in gold.links} for position, gold in entries}

    sources = with_english(config.pivot[0], [len(p.source) for p in suite.pairs])
    targets = with_english(config.pivot[1], [len(p.references[0]) for p in suite.pairs])
    composed: dict[int, Alignment] = {}
    judged: Judged = {}
    for position, source_links in sources.items():
        pair_id = suite.pairs[position].id
        composed[pair_id] = Alignment(frozenset(
            (s, t) for e, s in source_links for f, t in targets[position] if e == f
        ))
        judged[pair_id] = (frozenset(s for _, s in source_links), frozenset(t for _, t in targets[position]))
    return composed, judged


def measure(suite: SuiteData, gold: dict[int, Alignment], judged: Judged | None = None) -> Measurement:
    """``judged`` (pivoted gold): only the words the gold can speak for count, the rest is left out
    of the check-points' spans and references and of the alignment's links."""
    result = Measurement()
    levels = {category.name: category.level for category in suite.categories}
    by_pair = defaultdict(list)
    for checkpoint in suite.checkpoints:
        by_pair[checkpoint.pair_id].append(checkpoint)
    pairs = {pair.id: pair for pair in suite.pairs}
    linked_total = covered_total = 0
    for pair_id, truth in gold.items():
        gold_links = truth.links
        covered: set[int] = set()
        for checkpoint in by_pair.get(pair_id, []):
            aligned = [r for r in checkpoint.references if r.from_alignment and r.reference_index == 0]
            if not aligned:
                continue
            span = set(checkpoint.source_indices)
            gold_reference = {t for s, t in gold_links if s in span}
            reference = set(aligned[0].target_indices)
            if judged is not None:
                sources, targets = judged[pair_id]
                if not span <= sources:
                    continue
                reference &= targets
            result.categories[checkpoint.category].add(reference, gold_reference)
            result.overall.add(reference, gold_reference)
            if levels[checkpoint.category] is Level.WORD:
                covered.update(span)
        linked = {s for s, _ in gold_links}
        linked_total += len(linked)
        covered_total += len(linked & covered)
    result.coverage = covered_total / linked_total if linked_total else 0.0
    predicted = [pairs[pair_id].alignments[0] for pair_id in gold]
    if judged is not None:
        predicted = [
            Alignment(frozenset((s, t) for s, t in alignment.links if s in judged[pair_id][0] and t in judged[pair_id][1]))
            for alignment, pair_id in zip(predicted, gold, strict=True)
        ]
    result.alignment = alignment_quality(predicted, list(gold.values()))
    skipped = suite.summary.get("skipped_pairs", [])
    result.skipped_pairs = [int(p) for p in skipped if int(p) in gold] if isinstance(skipped, list) else []
    return result


def spread(values: Sequence[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.3f}"
    return f"{statistics.mean(values):.3f} ({min(values):.3f}–{max(values):.3f})"


def report(
    name: str, config: PairConfig, runs: list[tuple[Measurement, float]], per_category: bool, extra: Sequence[str]
) -> None:
    print(f"\n## {name}: {len(runs)} build(s)")
    print("$ " + " ".join(build_command(config, Path("SUITE.db"), extra)))
    print(f"build time (whole command): {spread([seconds for _, seconds in runs])} s")
    measurements = [m for m, _ in runs]
    if per_category:
        names = sorted({c for m in measurements for c in m.categories}, key=lambda c: -measurements[0].categories[c].checkpoints)
        print(f"{'category':36s} {'n':>5s} {'F1':>7s} {'exact':>7s} {'spurious':>8s}")
        for category in names:
            tallies = [m.categories[category] for m in measurements]
            rates = [t.rates() for t in tallies]
            print(
                f"{category:36s} {statistics.mean(t.checkpoints for t in tallies):5.0f} "
                f"{statistics.mean(r['f1'] for r in rates):7.3f} {statistics.mean(r['exact'] for r in rates):7.3f} "
                f"{statistics.mean(r['spurious'] for r in rates):8.3f}"
            )
    overall = [m.overall.rates() for m in measurements]
    print(f"check-points (gold pairs): {spread([m.overall.checkpoints for m in measurements])}")
    print(f"reference F1:  {spread([r['f1'] for r in overall])}")
    print(f"exact:         {spread([r['exact'] for r in overall])}")
    print(f"spurious:      {spread([r['spurious'] for r in overall])}")
    print(f"coverage:      {spread([m.coverage for m in measurements])}")
    quality = [m.alignment for m in measurements if m.alignment is not None]
    print(f"alignment AER: {spread([q.aer for q in quality])}  "
          f"(P {spread([q.precision for q in quality])}, R {spread([q.recall for q in quality])})")
    audits = [m.audit for m in measurements if m.audit is not None]
    if audits:
        sensitivities = [six_word_figures(audit)[0] for audit in audits]
        leaks = [six_word_figures(audit)[1] for audit in audits]
        print(f"audit, six word categories: mean sensitivity {spread(sensitivities)}, largest leakage {spread(leaks)}")
        for category in SIX_WORD_CATEGORIES:
            rows = [row for audit in audits for row in audit["categories"] if row["category"] == category]  # type: ignore[attr-defined]
            if rows:
                print(f"  {category:12s} sensitivity {spread([r['sensitivity'] for r in rows])}, "
                      f"leakage {spread([r['leakage'] for r in rows])} ({rows[0]['leak_class']})")
        for audit in audits:
            print(f"  {audit['summary']}")
    skipped = sorted({p for m in measurements for p in m.skipped_pairs})
    if skipped:
        print(f"gold pairs skipped as not parallel: {', '.join(map(str, skipped))}")


def six_word_figures(audit: dict[str, object]) -> tuple[float, float]:
    """Mean sensitivity and largest leakage of the :data:`SIX_WORD_CATEGORIES` a suite has."""
    rows = [row for row in audit["categories"] if row["category"] in SIX_WORD_CATEGORIES]  # type: ignore[attr-defined]
    return statistics.mean(row["sensitivity"] for row in rows), max(row["leakage"] for row in rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pair", choices=sorted(CONFIGS), action="append",
                        help="language pair; repeat for several (default: the four the gold was made for)")
    parser.add_argument("--repeat", type=int, default=3, help="builds per pair, with eflomal seeds 1..N")
    parser.add_argument("--gold-dir", type=Path, default=DATA / "gold-align", help="folder with the gold Pharaoh files")
    parser.add_argument("--pairs-file", type=Path, help="PUD pair ids of the gold lines (default: GOLD_DIR/dev-pairs.txt)")
    parser.add_argument("--per-category", action="store_true", help="also print every category")
    parser.add_argument("--build-args", default="", help='more options for `checkpoints build`, e.g. "--min-dm 0.2"')
    parser.add_argument("--audit", action="store_true", help="also print each build's audit (checkpoints audit)")
    args = parser.parse_args(argv)
    pairs_file = args.pairs_file or args.gold_dir / "dev-pairs.txt"
    extra = shlex.split(args.build_args)
    with tempfile.TemporaryDirectory(prefix="checkpoints-quality-") as folder:
        for name in args.pair or sorted(FORWARD_PAIRS):
            config = CONFIGS[name]
            missing = [d for d in config.dictionaries if d.startswith("/") and not Path(d).is_file()]
            if missing:
                print(f"\n## {name}: skipped, {missing[0]} is missing (apt-get install {debian_package(missing[0])})")
                continue
            runs = []
            for number in range(args.repeat):
                suite, seconds = build(config, Path(folder), number, extra)
                judged = None
                if config.pivot:
                    gold, judged = pivoted_gold(suite, args.gold_dir, pairs_file, config)
                else:
                    gold = read_suite_gold(suite, args.gold_dir / config.gold, pairs_file, config.reversed_gold)
                measured = measure(suite, gold, judged)
                if args.audit:  # the build keeps its audit in the suite's summary
                    stored = suite.summary.get("audit")
                    measured.audit = stored if isinstance(stored, dict) else audit_suite(suite).to_json()
                runs.append((measured, seconds))
            report(name, config, runs, args.per_category, extra)


def debian_package(path: str) -> str:
    """The Debian package of a FreeDict file (``freedict-eng-fra.index`` → ``dict-freedict-eng-fra``)."""
    return "dict-" + Path(path).name.split(".")[0]


if __name__ == "__main__":
    main()
