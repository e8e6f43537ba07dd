"""METEOR-ex, -st and -sy against the real Meteor 1.5 jar (shipped in the PyPI wheel ``pycocoevalcap``).

What is compared, and why only that:

* ``METEOR-ex`` (``-m exact``) and ``METEOR-st`` (``-m "exact stem"``), for
  English (``-l en``; the zh-en TED reference and one system) and German
  (``-l de``; en-de TED), and ``METEOR-sy`` (``-m "exact stem synonym"``,
  English only, as Meteor has synonyms for English only; the jar's WordNet
  data against the packaged WordNet 3.0 through
  :mod:`checkpoints.evaluate.metrics.meteor_synonym`), first 100 segments, segment and system scores to
  1e-9. The text is tokenized with the project's 13a tokenizer first and
  given to both sides as whitespace-separated tokens (``tokenize=none``), so
  only the metric is compared, not the tokenizers. The jar's English
  function-word list is passed as ``function-words`` for both languages,
  because the jar uses that list whatever ``-l`` says. Case: as given (no
  ``-lower``) and lower-cased (``-lower`` / ``ci``).
* The English and German stemmers (:mod:`checkpoints.evaluate.metrics.meteor_stem`)
  against the jar's own Snowball classes on every distinct TED word.
* ``METEOR-pa`` (``-m "exact stem synonym paraphrase"`` for English,
  ``"exact stem paraphrase"`` for German): English with the jar's own
  table ``data/paraphrase-en.gz``, cut to the entries whose phrase and
  paraphrase both occur in the compared segments (cased or lower-cased; a
  table entry can only take part in a match when both do) and given to both
  sides (the jar's ``-a``). Cutting keeps the entries' order, and the jar
  scores the segments the same with the cut and the whole table (tested).
  English and German also with a table of random phrase pairs drawn from the
  segments (thousands of competing phrase matches a segment, to test the
  search; German weighs paraphrases 0.2, English 0.6).
* Not compared: other languages, Meteor's ``-norm``.

Skipped with the reason when pycocoevalcap or java is missing, except under
``CI``, where the missing tool is a failure (as the PostgreSQL tests do).
"""

from __future__ import annotations

import gzip
import importlib.util
import random
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import NoReturn

import numpy as np
import pytest
from required_tools import tool_missing

from checkpoints.evaluate.metrics.base import Metric, MetricOptions
from checkpoints.evaluate.metrics.registry import get_metric
from checkpoints.tokenizers import get_tokenizer

TED = Path(__file__).parent.parent / "data" / "metrics" / "ted"
SEGMENTS = 100


def _missing(reason: str) -> NoReturn:
    tool_missing(reason, skipped="METEOR cannot be compared with the Meteor 1.5 jar",
                 ci_needs="compare METEOR with Meteor 1.5 (pip install pycocoevalcap, and java)")


@pytest.fixture(scope="module")
def meteor_jar() -> Path:
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        _missing("pycocoevalcap is not installed")
    jar = Path(next(iter(spec.submodule_search_locations))) / "meteor" / "meteor-1.5.jar"  # type: ignore[union-attr]
    if not jar.is_file():
        _missing(f"pycocoevalcap has no {jar.name}")
    if shutil.which("java") is None:
        _missing("java is not installed")
    return jar


def _segments(pair: str, system: str) -> tuple[list[str], list[str]]:
    tokenize = get_tokenizer("13a")
    read = lambda path: [" ".join(tokenize(line)) for line in path.read_text(encoding="utf-8").splitlines()[:SEGMENTS]]  # noqa: E731
    return read(TED / pair / "sys" / system), read(TED / pair / "ref.txt")


def _run_meteor(jar: Path, tmp: Path, hypotheses: list[str], references: list[str], language: str,
                modules: str, *options: str) -> tuple[np.ndarray, float]:
    (tmp / "hyp.txt").write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    (tmp / "ref.txt").write_text("\n".join(references) + "\n", encoding="utf-8")
    done = subprocess.run(["java", "-Xmx2G", "-jar", str(jar), str(tmp / "hyp.txt"), str(tmp / "ref.txt"),
                           "-l", language, "-m", modules, "-q", *options],
                          capture_output=True, text=True, check=True, timeout=600)
    # -q: segment scores on stderr, the system score on stdout.
    segments = np.array([float(value) for value in done.stderr.split()])
    assert len(segments) == len(hypotheses), done.stderr[-500:]
    return segments, float(done.stdout.split()[-1])


def _function_words(jar: Path, tmp: Path) -> str:
    """Meteor 1.5's English function-word list: the jar uses it whatever ``-l`` says.

    ``MeteorConfiguration`` sets the word-list URL from its default language
    (English) and ``-l`` does not change it, so German is scored with the
    English list too (checked: with ``german.words`` 96 of 100 en-de segments
    differ, with ``english.words`` none).
    """
    with zipfile.ZipFile(jar) as archive:
        (tmp / "function.words").write_bytes(archive.read("function/english.words"))
    return str(tmp / "function.words")


CASES = [
    pytest.param("zh-en", "en", "METEOR-ex", "exact", id="en-ex"),
    pytest.param("zh-en", "en", "METEOR-st", "exact stem", id="en-st"),
    pytest.param("zh-en", "en", "METEOR-sy", "exact stem synonym", id="en-sy"),
    pytest.param("en-de", "de", "METEOR-ex", "exact", id="de-ex"),
    pytest.param("en-de", "de", "METEOR-st", "exact stem", id="de-st"),
]


@pytest.mark.parametrize("lower", [False, True], ids=["cased", "lowercased"])
@pytest.mark.parametrize(("pair", "language", "name", "modules"), CASES)
def test_meteor_equals_meteor_1_5_on_ted(meteor_jar: Path, tmp_path: Path, pair: str, language: str, name: str,
                                         modules: str, lower: bool) -> None:
    hypotheses, references = _segments(pair, "Facebook-AI.txt")
    expected_segments, expected_system = _run_meteor(meteor_jar, tmp_path, hypotheses, references, language, modules,
                                                     *(["-lower"] if lower else []))
    metric = get_metric(name, MetricOptions(tokenize="none", language=language, case="ci" if lower else "cs",
                                            extra={"function-words": _function_words(meteor_jar, tmp_path)}))
    stats = metric.corpus_stats(hypotheses, [references])
    assert np.max(np.abs(metric.score(stats) - expected_segments)) < 1e-9
    assert abs(metric.scalar(stats.sum(axis=0)) - expected_system) < 1e-9


STEM_PROGRAM = """
import java.io.*;
import org.tartarus.snowball.SnowballStemmer;
public class Stem {
  public static void main(String[] args) throws Exception {
    SnowballStemmer stemmer = (SnowballStemmer) Class.forName("org.tartarus.snowball.ext." + args[0] + "Stemmer")
        .getDeclaredConstructor().newInstance();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    PrintStream out = new PrintStream(System.out, true, "UTF-8");
    for (String word; (word = in.readLine()) != null; ) {
      stemmer.setCurrent(word); stemmer.stem(); out.println(stemmer.getCurrent());
    }
  }
}
"""


@pytest.mark.parametrize(("pair", "language", "snowball"), [
    pytest.param("zh-en", "en", "english", id="english"),
    pytest.param("en-de", "de", "german", id="german"),
])
def test_stemmers_equal_meteor_1_5_snowball(meteor_jar: Path, tmp_path: Path, pair: str, language: str,
                                            snowball: str) -> None:
    """Every distinct TED word, as cased and lower-cased, stems as the jar's own Snowball class stems it.

    The jar's stemmer is called through a one-file Java program (run from
    source, which needs a JDK's compiler); METEOR-st's equality above depends
    on these stems only where a stem decides a match, so this checks them all.
    """
    from checkpoints.evaluate.metrics.meteor_stem import METEOR_STEMMERS

    tokenize = get_tokenizer("13a")
    words: set[str] = set()
    for path in [TED / pair / "ref.txt", *sorted((TED / pair / "sys").iterdir())]:
        for line in path.read_text(encoding="utf-8").splitlines():
            for token in tokenize(line):
                words.update((token, token.lower()))
    ordered = sorted(words)
    (tmp_path / "Stem.java").write_text(STEM_PROGRAM, encoding="utf-8")
    done = subprocess.run(["java", "-cp", str(meteor_jar), str(tmp_path / "Stem.java"), snowball],
                          input="\n".join(ordered) + "\n", capture_output=True, text=True, encoding="utf-8",
                          timeout=600)
    if done.returncode != 0 and "compiler" in done.stderr.lower():
        _missing("java cannot run a source file (no JDK compiler)")
    assert done.returncode == 0, done.stderr[-500:]
    expected = done.stdout.split("\n")[: len(ordered)]
    stem = METEOR_STEMMERS[language]
    differ = [(word, jar, stem(word)) for word, jar in zip(ordered, expected, strict=True) if stem(word) != jar]
    assert not differ, differ[:20]


PARAPHRASE_SEGMENTS = 100
ENGLISH_PA = "exact stem synonym paraphrase"
"""Meteor's English default modules: METEOR-pa for English."""
LONGEST_PHRASE = 7
"""The most words of a phrase in Meteor's English table."""


def _phrases(texts: list[str]) -> set[str]:
    phrases = set()
    for text in texts:
        for form in (text, text.lower()):
            words = form.split()
            for start in range(len(words)):
                for end in range(start + 1, min(start + LONGEST_PHRASE, len(words)) + 1):
                    phrases.add(" ".join(words[start:end]))
    return phrases


def _cut_table(table: Path, phrases: set[str], out: Path) -> int:
    """The entries of Meteor's table (probability, phrase, paraphrase lines) whose phrase and
    paraphrase are both in ``phrases``, in their order, written in the same format; how many."""
    kept = 0
    with gzip.open(table, "rt", encoding="utf-8") as lines, gzip.open(out, "wt", encoding="utf-8") as written:
        for probability in lines:
            phrase, paraphrase = next(lines), next(lines)
            if " ".join(phrase.split()) in phrases and " ".join(paraphrase.split()) in phrases:
                written.write(probability + phrase + paraphrase)
                kept += 1
    return kept


def _meteor_pa(language: str, lower: bool, table: Path, function_words: str) -> Metric:
    return get_metric("METEOR-pa", MetricOptions(tokenize="none", language=language, case="ci" if lower else "cs",
                                                  extra={"function-words": function_words,
                                                         "paraphrase-table": str(table)}))


@pytest.fixture(scope="module")
def english_table(meteor_jar: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Meteor's English table cut to the phrases of the zh-en segments compared below."""
    whole = meteor_jar.parent / "data" / "paraphrase-en.gz"
    if not whole.is_file():
        _missing(f"pycocoevalcap has no {whole.name}")
    texts = [line for system in ("Facebook-AI.txt", "Online-W.txt") for side in _segments("zh-en", system)
             for line in side[:PARAPHRASE_SEGMENTS]]
    cut = tmp_path_factory.mktemp("meteor-pa") / "paraphrase-ted.gz"
    assert _cut_table(whole, _phrases(texts), cut) > 1000
    return cut


@pytest.mark.parametrize("lower", [False, True], ids=["cased", "lowercased"])
@pytest.mark.parametrize("system", ["Facebook-AI.txt", "Online-W.txt"])
def test_meteor_pa_equals_meteor_1_5_with_its_english_table(meteor_jar: Path, english_table: Path, tmp_path: Path,
                                                            system: str, lower: bool) -> None:
    hypotheses, references = (side[:PARAPHRASE_SEGMENTS] for side in _segments("zh-en", system))
    expected_segments, expected_system = _run_meteor(meteor_jar, tmp_path, hypotheses, references, "en",
                                                     ENGLISH_PA, "-a", str(english_table),
                                                     *(["-lower"] if lower else []))
    metric = _meteor_pa("en", lower, english_table, _function_words(meteor_jar, tmp_path))
    stats = metric.corpus_stats(hypotheses, [references])
    assert np.max(np.abs(metric.score(stats) - expected_segments)) < 1e-9
    assert abs(metric.scalar(stats.sum(axis=0)) - expected_system) < 1e-9
    # Paraphrases decide matches here: without them the scores differ.
    plain = get_metric("METEOR-sy", MetricOptions(tokenize="none", language="en", case="ci" if lower else "cs",
                                                   extra={"function-words": _function_words(meteor_jar, tmp_path)}))
    assert np.sum(np.abs(plain.score(plain.corpus_stats(hypotheses, [references])) - expected_segments) > 1e-9) > 30


def test_the_cut_table_scores_as_the_whole_one_in_meteor_1_5(meteor_jar: Path, english_table: Path,
                                                              tmp_path: Path) -> None:
    """Why the comparison above may cut the table: the jar's own output is the same with it."""
    hypotheses, references = (side[:PARAPHRASE_SEGMENTS] for side in _segments("zh-en", "Facebook-AI.txt"))
    whole = _run_meteor(meteor_jar, tmp_path, hypotheses, references, "en", ENGLISH_PA)
    cut = _run_meteor(meteor_jar, tmp_path, hypotheses, references, "en", ENGLISH_PA,
                      "-a", str(english_table))
    assert np.array_equal(whole[0], cut[0]) and whole[1] == cut[1]


@pytest.mark.parametrize("lower", [False, True], ids=["cased", "lowercased"])
@pytest.mark.parametrize(("pair", "language"), [("zh-en", "en"), ("en-de", "de")])
def test_meteor_pa_equals_meteor_1_5_with_random_phrase_pairs(meteor_jar: Path, tmp_path: Path, pair: str,
                                                              language: str, lower: bool) -> None:
    """A table of 20,000 random pairs of the segments' own phrases (1–4 words, either side, some
    listed both ways): many overlapping phrase matches of unequal lengths a segment."""
    hypotheses, references = (side[:PARAPHRASE_SEGMENTS] for side in _segments(pair, "Facebook-AI.txt"))
    rng = random.Random(7)
    phrases = sorted(phrase for phrase in _phrases(hypotheses + references) if phrase.count(" ") < 4)
    entries = [tuple(rng.sample(phrases, 2)) for _ in range(20000)]
    entries += [(second, first) for first, second in entries[:2000]]
    table = tmp_path / "random.gz"
    with gzip.open(table, "wt", encoding="utf-8") as written:
        written.writelines(f"0.5\n{first}\n{second}\n" for first, second in entries)
    expected_segments, expected_system = _run_meteor(meteor_jar, tmp_path, hypotheses, references, language,
                                                     ENGLISH_PA if language == "en" else "exact stem paraphrase",
                                                     "-a", str(table),
                                                     *(["-lower"] if lower else []))
    metric = _meteor_pa(language, lower, table, _function_words(meteor_jar, tmp_path))
    stats = metric.corpus_stats(hypotheses, [references])
    assert np.max(np.abs(metric.score(stats) - expected_segments)) < 1e-9
    assert abs(metric.scalar(stats.sum(axis=0)) - expected_system) < 1e-9
