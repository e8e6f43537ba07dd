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
* Not compared: ``METEOR-pa`` (its variant here is ``exact stem
  paraphrase`` with a user's ``phrase<TAB>paraphrase`` table, while the jar's
  paraphrase stage reads its own probability-phrase-phrase table
  ``data/paraphrase-en.gz`` through a transducer whose candidate order was not
  reproduced), other languages, Meteor's ``-norm``.

Skipped with the reason when pycocoevalcap or java is missing, except under
``CI``, where the missing tool is a failure (as the PostgreSQL tests do).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import NoReturn

import numpy as np
import pytest
from required_tools import tool_missing

from checkpoints.evaluate.metrics.base import MetricOptions
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
