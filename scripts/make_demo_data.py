"""Regenerate the bundled demo data in ``checkpoints/data/demo/``.

The demo suite is built from the English and Spanish Parallel Universal
Dependencies (PUD) treebanks (gold tokens, tags and trees) and evaluated on
two real rule-based MT systems from Debian's Apertium packages:

* ``direct``: ``apertium -u eng-spa`` (English → Spanish);
* ``pivot``:  ``apertium -u en-gl | apertium -u gl-es`` (through Galician).

``-u`` leaves unknown words unmarked (Apertium would otherwise prefix them
with ``*``, which is not part of a translation).

Two real English→Spanish dictionaries weigh references (DM) and guide the
alignment:

* FreeDict's English–Spanish dictionary, as Debian ships it for dictd
  (``freedict-eng-spa.index`` and ``.dict.dz``, copied unchanged);
* Apertium's English–Spanish bilingual dictionary, read out of the compiled
  transducer: every English word of WordNet and of the corpus is analysed
  with Apertium's English morphology (``eng-spa.automorf.bin``) and each
  analysis looked up in the bilingual transducer (``eng-spa.autobil.bin``,
  ``lt-proc -b``); the lemma pairs found make ``apertium-eng-spa.tsv``.

The alignment is made the way ``checkpoints build --aligner eflomal`` makes
it, with both dictionaries (priors and repairs), and written with links the
aligner is unsure of marked ``i?j``, so the demo's build trusts the same links
a build that aligns would. Everything is committed: the package needs neither
Apertium nor eflomal at run time.

Usage (needs the Debian packages apertium, apertium-eng-spa, apertium-en-gl,
apertium-es-gl, lttoolbox, dict-freedict-eng-spa and wordnet-base, and the
``eflomal`` extra)::

    python scripts/make_demo_data.py --ud-pud /path/to/ud-pud

where the folder holds ``en_pud-ud-test.conllu``, ``es_pud-ud-test.conllu``
and the PUD ``LICENSE.txt``. ``--alignment-only`` remakes the alignment
alone from the committed treebanks and dictionaries (needs only the
``eflomal`` extra), as after a change to the aligner or its repairs::

    python scripts/make_demo_data.py --alignment-only
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import subprocess
from pathlib import Path

from checkpoints.io.conllu import read_conllu
from checkpoints.io.pharaoh import write_pharaoh
from checkpoints.service.build import BuildRequest, align_pairs

DEMO = Path(__file__).resolve().parents[1] / "checkpoints" / "data" / "demo"
APERTIUM = Path("/usr/share/apertium/apertium-eng-spa")
FREEDICT = Path("/usr/share/dictd")
WORDNET = Path("/usr/share/wordnet")
GPL_2 = Path("/usr/share/common-licenses/GPL-2")

SYSTEMS = {
    "direct": [["apertium", "-u", "eng-spa"]],
    "pivot": [["apertium", "-u", "en-gl"], ["apertium", "-u", "gl-es"]],
}

_LEXICAL_UNIT = re.compile(r"\^([^/$]*)/([^$]*)\$")
_NOT_WORDS = {"sent", "cm", "lpar", "rpar", "guio", "apos", "lquot", "rquot", "num", "punct"}


def translate(lines: list[str], pipeline: list[list[str]]) -> list[str]:
    """Run the sentences through an Apertium pipeline, one sentence per line."""
    text = "".join(line + "\n" for line in lines)
    for command in pipeline:
        text = subprocess.run(command, input=text, capture_output=True, text=True, check=True).stdout
    output = text.split("\n")
    if output and output[-1] == "":
        output.pop()
    if len(output) != len(lines):
        raise SystemExit(f"{' | '.join(' '.join(c) for c in pipeline)}: {len(output)} lines out for {len(lines)} in")
    return [" ".join(line.split()) for line in output]


def english_words(corpus_words: set[str]) -> list[str]:
    """The words to look up: WordNet's single-word lemmas and the corpus's forms and lemmas."""
    words = set(corpus_words)
    for index in WORDNET.glob("index.*"):
        if index.name == "index.sense":
            continue
        for line in index.read_text(encoding="latin-1").splitlines():
            if line and not line.startswith(" "):
                lemma = line.split(" ", 1)[0]
                if "_" not in lemma:
                    words.add(lemma)
    return sorted(words)


def apertium_dictionary(words: list[str]) -> list[tuple[str, str]]:
    """(English lemma, Spanish lemma) pairs Apertium's bilingual transducer gives for ``words``."""
    text = "".join(word + "\n" for word in words)
    for command in (["apertium-destxt"], ["lt-proc", str(APERTIUM / "eng-spa.automorf.bin")], ["apertium-retxt"]):
        text = subprocess.run(command, input=text, capture_output=True, text=True, check=True).stdout
    analyses = sorted({
        analysis
        for match in _LEXICAL_UNIT.finditer(text)
        for analysis in match.group(2).split("/")
        if analysis and not analysis.startswith("*") and "<" in analysis
    })
    looked_up = subprocess.run(
        ["lt-proc", "-b", str(APERTIUM / "eng-spa.autobil.bin")],
        input="".join(f"^{analysis}$\n" for analysis in analyses), capture_output=True, text=True, check=True,
    ).stdout
    pairs: set[tuple[str, str]] = set()
    for match in re.finditer(r"\^([^$]*)\$", looked_up):
        source, *targets = match.group(1).split("/")
        tags = re.findall(r"<([^>]+)>", source)
        if not tags or tags[0] in _NOT_WORDS:
            continue
        lemma = _lemma(source)
        for target in targets:
            if target and not target.startswith("@"):
                pairs.add((lemma, _lemma(target)))
    return sorted(pair for pair in pairs if all(pair))


def _lemma(analysis: str) -> str:
    """``take# off<vblex>`` → ``take off``: the lemma of an Apertium analysis, lower-cased."""
    return " ".join(analysis.split("<", 1)[0].replace("+", " ").replace("#", " ").split()).lower()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ud-pud", type=Path, help="folder with the PUD CoNLL-U files")
    parser.add_argument("--alignment-only", action="store_true", help="remake en-es.align from the committed data")
    args = parser.parse_args()
    if args.alignment_only:
        write_alignment()
        return
    if args.ud_pud is None:
        parser.error("--ud-pud is required (unless --alignment-only)")
    DEMO.mkdir(parents=True, exist_ok=True)
    for language in ("en", "es"):
        raw = (args.ud_pud / f"{language}_pud-ud-test.conllu").read_bytes()
        (DEMO / f"{language}_pud.conllu.gz").write_bytes(gzip.compress(raw, mtime=0))
    shutil.copy(args.ud_pud / "LICENSE.txt", DEMO / "LICENSE-UD-PUD.txt")

    english = read_conllu(DEMO / "en_pud.conllu.gz", "en")
    for name, pipeline in SYSTEMS.items():
        output = translate([sentence.text for sentence in english], pipeline)
        (DEMO / f"{name}.es.txt").write_text("".join(line + "\n" for line in output), encoding="utf-8")

    for suffix in ("index", "dict.dz"):
        shutil.copy(FREEDICT / f"freedict-eng-spa.{suffix}", DEMO / f"freedict-eng-spa.{suffix}")
    corpus_words = {key for sentence in english for token in sentence.tokens for key in (token.form, token.lemma)}
    pairs = apertium_dictionary(english_words(corpus_words))
    (DEMO / "apertium-eng-spa.tsv").write_text("".join(f"{s}\t{t}\n" for s, t in pairs), encoding="utf-8")
    shutil.copy(GPL_2, DEMO / "LICENSE-GPL-2.txt")
    write_alignment()
    print(f"wrote demo data for {len(english)} sentence pairs ({len(pairs)} Apertium dictionary pairs) to {DEMO}")


def write_alignment() -> None:
    """``en-es.align``: the corpus aligned as ``build --aligner eflomal`` would, unsure links marked."""
    request = BuildRequest(
        source_lang="en",
        target_lang="es",
        source_conllu=DEMO / "en_pud.conllu.gz",
        reference_conllu=[DEMO / "es_pud.conllu.gz"],
        aligner="eflomal",
        dictionaries=[DEMO / "freedict-eng-spa.index", DEMO / "apertium-eng-spa.tsv"],
    )
    corpus = align_pairs(request)
    write_pharaoh(DEMO / "en-es.align", [pair.alignments[0] for pair in corpus.pairs], mark_unsure=True)


if __name__ == "__main__":
    main()
