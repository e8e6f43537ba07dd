"""Raw text against gold trees: PUD en→de built from raw text with the trained models, and from gold CoNLL-U.

    python benchmarks/raw_text.py --models models
    python benchmarks/raw_text.py --models models --pairs 200

Both builds use the same 1000 PUD sentence pairs (the English file the demo
ships, the German one the tests ship), eflomal and a real English–German
dictionary (FreeDict, Debian's ``dict-freedict-eng-deu``; ``--dictionary``
names another file), the ``en`` taxonomy and default filters. The only
difference is where the trees come from:

* gold: ``--source-conllu``/``--reference-conllu``, the treebanks' own trees;
* raw: ``--source``/``--reference``, the treebanks' ``# text`` lines parsed
  by the models in ``--models`` (``checkpoints models train``).

Printed: both whole ``checkpoints build`` commands (sentence pairs/s), the
project's parser alone in this process on the English side (sentences/s,
models loaded once) beside stanza's pipeline called directly, and per
category the check-points each build found and how many of the raw build's
are also in the gold build (same pair, category and source words: the
precision of the raw path against the gold one) and of the gold build's in
the raw one (recall), and for those found by both, how often the first
reference is the same words. eflomal samples, so two gold builds also differ
a little: the last column is that floor, from a second gold build.
"""

from __future__ import annotations

import argparse
import gzip
import tempfile
from collections import Counter
from importlib import resources
from pathlib import Path

from parsing import (
    DEFAULT_DICTIONARY,
    check_dictionary,
    checkpoints_command,
    parse_speed,
    run_command,
    stored_suite,
)

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(str(resources.files("checkpoints"))) / "data" / "demo" / "en_pud.conllu.gz"
REFERENCE = ROOT / "tests" / "data" / "build" / "de_pud.conllu.gz"

Key = tuple[int, str, tuple[str, ...]]


def texts(conllu: Path, limit: int) -> list[str]:
    with gzip.open(conllu, "rt", encoding="utf-8") as handle:
        found = [line[len("# text = "):].rstrip("\n") for line in handle if line.startswith("# text = ")]
    return found[:limit]


def first_sentences(conllu: Path, limit: int, target: Path) -> Path:
    with gzip.open(conllu, "rt", encoding="utf-8") as handle:
        blocks = handle.read().strip().split("\n\n")[:limit]
    target.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    return target


def checkpoints_of(database: Path) -> dict[Key, tuple[str, ...]]:
    """Each check-point as (pair position, category, source words) → its first reference's words."""
    suite = stored_suite(database)
    position = {pair.id: index for index, pair in enumerate(suite.pairs)}
    found = {}
    for checkpoint in suite.checkpoints:
        forms = suite.pairs[position[checkpoint.pair_id]].source.forms
        key = (position[checkpoint.pair_id], checkpoint.category, tuple(forms[i] for i in checkpoint.source_indices))
        found[key] = tuple(checkpoint.references[0].tokens) if checkpoint.references else ()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, required=True, help="folder holding the en and de model directories")
    parser.add_argument("--dictionary", type=Path, default=DEFAULT_DICTIONARY)
    parser.add_argument("--pairs", type=int, default=1000, help="the first N PUD pairs")
    args = parser.parse_args()
    check_dictionary(args.dictionary)
    executable = checkpoints_command()
    common = ["--src-lang", "en", "--tgt-lang", "de", "--aligner", "eflomal", "--dictionary", str(args.dictionary),
              "--taxonomy", "en", "--name", "pud"]
    with tempfile.TemporaryDirectory(prefix="raw-text-") as temp:
        work = Path(temp)
        english, german = texts(SOURCE, args.pairs), texts(REFERENCE, args.pairs)
        (work / "en.txt").write_text("\n".join(english) + "\n", encoding="utf-8")
        (work / "de.txt").write_text("\n".join(german) + "\n", encoding="utf-8")
        source = first_sentences(SOURCE, args.pairs, work / "en.conllu")
        reference = first_sentences(REFERENCE, args.pairs, work / "de.conllu")
        seconds = {}
        seconds["raw"] = run_command([executable, "build", "--db", str(work / "raw.db"), *common, "--source", str(work / "en.txt"),
                                "--reference", str(work / "de.txt"), "--stanza-dir", str(args.models)])
        for name in ("gold", "gold-again"):
            seconds[name] = run_command([executable, "build", "--db", str(work / f"{name}.db"), *common,
                                   "--source-conllu", str(source), "--reference-conllu", str(reference)])
        speed = parse_speed(args.models, "en", english)
        raw, gold, again = (checkpoints_of(work / f"{name}.db") for name in ("raw", "gold", "gold-again"))
    pairs = len(english)
    print(f"PUD en→de, {pairs} sentence pairs, eflomal + {args.dictionary.name}")
    print(f"build from raw text (whole command): {seconds['raw']:.1f} s = {pairs / seconds['raw']:.1f} pairs/s; "
          f"from gold CoNLL-U: {seconds['gold']:.1f} s = {pairs / seconds['gold']:.1f} pairs/s")
    print(f"parsing the English side in process: {speed.project_per_s:.1f} sentences/s (stanza's pipeline directly: "
          f"{speed.stanza_per_s:.1f}/s; loading the models {speed.load_s:.1f} s)")
    print()
    print("| category | gold | raw | raw also in gold | gold also in raw | same first reference | gold vs gold again |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    categories = Counter(key[1] for key in gold) + Counter(key[1] for key in raw)
    for category in [*sorted(categories, key=lambda c: -categories[c]), None]:
        def of(found: dict[Key, tuple[str, ...]], category: str | None = category) -> set[Key]:
            return {key for key in found if category is None or key[1] == category}

        g, r, a = of(gold), of(raw), of(again)
        both = g & r
        same = sum(gold[key] == raw[key] for key in both)
        floor = len(g & a) / len(g | a) if g | a else 0.0
        print(f"| {category or 'all'} | {len(g)} | {len(r)} | {_share(len(both), len(r))} | {_share(len(both), len(g))} "
              f"| {_share(same, len(both))} | {100 * floor:.0f}% |")


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "–"


if __name__ == "__main__":
    main()
