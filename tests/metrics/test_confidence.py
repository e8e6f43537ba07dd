"""CE (confidence estimation, no reference) and ESA-xl: the spec's vectors (``linguistic-metrics-spec.md``
§9, §10.6, §10.7) and the command line.

Fixtures: ``tests/data/linguistic/ce_fixture.conllu`` (an English source and its
Spanish translation, read with the project's CoNLL-U reader), ``tiny-en-es.dix``
(the spec's 12-entry Apertium dictionary) and ``tiny.arpa`` (the spec's bigram
model, scored by kenlm).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from required_tools import tool_missing

from checkpoints.errors import InputError, UsageError
from checkpoints.evaluate.metrics.base import MetricOptions
from checkpoints.evaluate.metrics.linguistic import ce
from checkpoints.evaluate.metrics.linguistic.ce_metric import ConfidenceMetric
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence, Word
from checkpoints.evaluate.metrics.linguistic.esa import ConceptSpace, CrossLingualSpace
from checkpoints.extract.dictionary import read_dictionaries
from checkpoints.io.conllu import parse_conllu_string, read_conllu

DATA = Path(__file__).parent.parent / "data" / "linguistic"
CE_FIXTURE = DATA / "ce_fixture.conllu"
DIX = DATA / "tiny-en-es.dix"
ARPA = DATA / "tiny.arpa"
SOURCE, CANDIDATE = "The new car is red .", "El coche es rojo ."


@pytest.fixture(scope="module")
def pair() -> tuple[ParsedSentence, ParsedSentence]:
    source, candidate = (ParsedSentence.from_model(s) for s in read_conllu(CE_FIXTURE, "en"))
    return source, candidate


def needs_kenlm() -> None:
    """The LM measures need the kenlm module (the ``lm`` extra, which CI installs)."""
    try:
        import kenlm  # noqa: F401
    except ImportError:
        tool_missing("kenlm is not installed", skipped="the language-model measures cannot be checked",
                     ci_needs="install the lm extra (pip install -e '.[lm]')")


def tokens_only(text: str) -> ParsedSentence:
    return ParsedSentence(tuple(Word(i, form, form, "X", "_", {}, 0, "dep") for i, form in enumerate(text.split(), 1)))


# -- §10.7: the measures of one pair --------------------------------------------------------


@pytest.mark.parametrize(("name", "value"), [
    ("CE-length", 0.746901), ("CE-short", 0.746901), ("CE-long", 1.0), ("CE-srclen", 0.166667),
    ("CE-Op", 0.833333), ("CE-Oc", 1.0), ("CE-Nc", 1.0), ("CE-Oe", 0.0), ("CE-Ne", 0.0),
])
def test_pair_measures_spec_vectors(pair: tuple[ParsedSentence, ParsedSentence], name: str, value: float) -> None:
    measure, _ = ce.PAIR_MEASURES[name]
    num, weight = measure(*pair, ce.length_factor("en", "es"))
    assert (num / weight if weight else 0.0) == pytest.approx(value, abs=1e-6)


def test_pooled_measures_keep_hits_and_totals(pair: tuple[ParsedSentence, ParsedSentence]) -> None:
    alpha = 1.0
    assert ce.upos_overlap(*pair, alpha) == (5.0, 6.0)  # {DET, ADJ×2, NOUN, AUX, PUNCT} vs {DET, NOUN, AUX, ADJ, PUNCT}
    assert ce.chunk_overlap(*pair, alpha) == (3.0, 3.0)  # NP VP ADJP on both sides
    assert ce.entity_count(*pair, alpha) == (0.0, 0.0)  # no entities: 0/0


def test_length_factor_is_asiyas_and_reverses() -> None:
    assert ce.length_factor("en", "es") == pytest.approx(1.11572076, abs=1e-8)
    assert ce.length_factor("es", "en") == pytest.approx(1 / 1.11572076, abs=1e-8)
    assert ce.length_factor("ca", "es") == pytest.approx(0.95990760, abs=1e-8)
    assert ce.length_factor("de", "fr") == 1.0
    # spec §11 D1: n_s 10, n_c 12, en→es → CE-long 0.92976730 (the manual's formula would give 0.8333)
    ten, twelve = tokens_only(" ".join("a" * 10)), tokens_only(" ".join("b" * 12))
    assert ce.long(ten, twelve, ce.length_factor("en", "es"))[0] == pytest.approx(0.92976730, abs=1e-8)


def test_symbols_and_numbers() -> None:
    num, weight = ce.symbols(tokens_only("It costs 20 $ ."), tokens_only("Cuesta 20 euros ."), 1.0)
    assert num / weight == pytest.approx(2 / 3, abs=1e-6)  # {20, $, .} vs {20, .}
    for number in ("20", "1.5", "-3", "1e5", ".5", "5.", "+7", "inf", "NaN"):
        assert ce.is_number(number), number
    for other in ("2,000", "0x1F", "abc", ""):
        assert not ce.is_number(other), other
    assert {"«", "»", "—", "…", "€", "£"} <= ce.SYMBOLS  # spec §11 D17: the intended set


def test_a_multiword_token_counts_once() -> None:
    conllu = ("# text = Voy al mercado .\n1\tVoy\tir\tVERB\t_\t_\t0\troot\t_\t_\n2-3\tal\t_\t_\t_\t_\t_\t_\t_\t_\n"
              "2\ta\ta\tADP\t_\t_\t4\tcase\t_\t_\n3\tel\tel\tDET\t_\t_\t4\tdet\t_\t_\n"
              "4\tmercado\tmercado\tNOUN\t_\t_\t1\tobl\t_\t_\n5\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n\n")
    sentence = ParsedSentence.from_model(parse_conllu_string(conllu)[0])
    assert sentence.tokens == ("Voy", "al", "mercado", ".") and len(sentence.words) == 5
    assert ce.srclen(sentence, sentence, 1.0)[0] == pytest.approx(0.25)


def test_dictionary_directions_and_measures(pair: tuple[ParsedSentence, ParsedSentence]) -> None:
    forward = read_dictionaries([DIX], "en", "es").entries
    assert forward == {"the": {"el", "la", "los"}, "new": {"nuevo"}, "car": {"coche", "carro"},
                       "car park": {"aparcamiento"}, "be": {"ser", "estar"}, "red": {"red", "rojo"}}
    backward = read_dictionaries([DIX], "es", "en").entries
    assert backward["lo"] == {"the"} and "los" not in backward  # r="LR" and r="RL" entries
    dictionary = ce.BilingualDictionary({key: frozenset(value) for key, value in forward.items()})
    assert dictionary.ambiguity(pair[0]) == (0.5, 1.0)  # the(3) new(1) car(2) be(2) red(2): 10/5 = 2
    assert dictionary.overlap(*pair) == pytest.approx((0.8, 1.0))  # new: nuevo absent → 4/5
    assert dictionary.ambiguity(tokens_only("zzz qqq")) == (0.0, 1.0)


def test_apertiums_pronoun_placeholder_is_skipped(tmp_path: Path) -> None:
    dix = tmp_path / "apertium-eng-spa.eng-spa.dix"
    dix.write_text('<dictionary><section id="main" type="standard">'
                   '<e><p><l>prpers<s n="prn"/></l><r>prpers<s n="prn"/></r></p></e>'
                   '<e><p><l>house<s n="n"/></l><r>casa<s n="n"/></r></p></e></section></dictionary>', encoding="utf-8")
    assert read_dictionaries([dix], "en", "es").entries == {"house": {"casa"}}


def test_mixed_ngrams_take_forms_and_lemmas(pair: tuple[ParsedSentence, ParsedSentence]) -> None:
    grams = ce.mixed_ngrams(pair[0])
    assert grams["is"] == 1 and grams["be"] == 1 and grams["car be"] == 1 and grams["car is"] == 1
    assert grams["the"] == 1  # form and lemma alike: one string per start
    assert sum(1 for gram in grams if len(gram.split()) == 6) == 0  # n ≤ 5


def test_lem() -> None:
    model = ce.LengthModel(1.1, 0.2)
    assert model.score("a" * 20, "b" * 25)[0] == pytest.approx(0.754840, abs=1e-6)  # r = 1.25, exp(−0.28125)
    assert model.score("a b", "c d")[0] == pytest.approx(math.exp(-0.5 * (0.1 / 0.2) ** 2))  # spaces do not count
    fitted = ce.LengthModel.from_corpus(["aaaa", "aaaa"], ["aaaa", "aaaaaaaa"])
    assert (fitted.mean, fitted.deviation) == pytest.approx((1.5, 0.5))


# -- §10.6: language models ----------------------------------------------------------------


@pytest.mark.parametrize(("line", "logp", "ippl", "known"), [
    ("the cat sat", -1.0, 0.562341, 1.0),
    ("the dog sat", -1.5, 0.316228, 0.666667),
    ("cat the", -3.2, 0.085770, 1.0),
    ("", 0.0, 0.0, 0.0),
])
def test_language_model_spec_vectors(line: str, logp: float, ippl: float, known: float) -> None:
    needs_kenlm()
    from checkpoints.evaluate.metrics.linguistic.lm import LanguageModel

    score = LanguageModel(ARPA).score(line.split())
    assert score.logp == pytest.approx(logp, abs=1e-6)
    assert score.ippl == pytest.approx(ippl, abs=1e-6)
    assert score.known == pytest.approx(known, abs=1e-6)


def test_a_bad_model_file_is_one_line(tmp_path: Path) -> None:
    needs_kenlm()
    from checkpoints.evaluate.metrics.linguistic.lm import LanguageModel

    bad = tmp_path / "bad.arpa"
    bad.write_text("hello\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.arpa: not an ARPA or KenLM binary model: first non-empty line was"):
        LanguageModel(bad)
    with pytest.raises(InputError, match="no such language model file"):
        LanguageModel(tmp_path / "missing.arpa")


def test_a_vocabulary_gives_oov_without_a_model(tmp_path: Path) -> None:
    from checkpoints.evaluate.metrics.linguistic.lm import Vocabulary

    vocabulary = tmp_path / "vocab.txt"
    vocabulary.write_text("the\ncat\n", encoding="utf-8")
    assert Vocabulary(vocabulary).score(["the", "dog", "cat"]).known == pytest.approx(2 / 3)


# -- the metrics, built with a command's options ---------------------------------------------


def options(**extra: str) -> MetricOptions:
    return MetricOptions(language="es", extra={"source": "given", "src-lang": "en", "parsed": str(CE_FIXTURE),
                                               "annotation-cache": "", **extra})


def system_score(name: str, **extra: str) -> float:
    metric = ConfidenceMetric(name, options(**extra))
    return metric.system_score(metric.corpus_stats([CANDIDATE], [["unused"]], [SOURCE]))


@pytest.mark.parametrize(("name", "value"), [
    ("CE-Op", 5 / 6), ("CE-length", 0.746901), ("CE-srclen", 1 / 6), ("CE-Oc", 1.0), ("CE-Oe", 0.0),
])
def test_metrics_read_source_and_candidate(name: str, value: float) -> None:
    assert system_score(name) == pytest.approx(value, abs=1e-6)


def test_dictionary_lm_and_lem_metrics() -> None:
    assert system_score("CE-BiDictA", dictionary=str(DIX)) == pytest.approx(0.5)
    assert system_score("CE-BiDictO", dictionary=str(DIX)) == pytest.approx(0.8)
    assert system_score("LeM", **{"lem-params": "1.1,0.2"}) == pytest.approx(
        math.exp(-0.5 * ((14 / 15 - 1.1) / 0.2) ** 2))
    needs_kenlm()
    # the source "The new car is red ." under the bigram model: every word OOV but "the"
    # (case-sensitive: "The" is OOV too), so only </s> from the empty context: −0.7
    assert system_score("CE-srclogp", **{"lm:en": str(ARPA)}) == pytest.approx(-0.7, abs=1e-6)
    assert system_score("CE-srcoov", **{"lm:en": str(ARPA)}) == pytest.approx(0.0)


@pytest.mark.parametrize(("name", "extra", "message"), [
    ("CE-logp", {}, r"needs a target-language language model: --lm es=FILE"),
    ("CE-srcipplP", {}, r"needs a source-language part-of-speech language model: --lm pos:en=FILE"),
    ("CE-oov", {}, r"--lm es=FILE or --vocab es=FILE"),
    ("CE-BiDictO", {}, r"needs --dictionary FILE"),
    ("LeM", {}, r"needs --lem-params MU,SIGMA or --lem-corpus"),
    ("CE-Op", {"source": "none"}, r"compares each translation with its source: give --source FILE"),
    ("CE-Op", {"src-lang": ""}, r"give its language with --src-lang LANG"),
    ("ESA-xl", {"source": "none"}, r"give --source FILE"),
    ("ESA-xl", {}, r"needs --esa-corpus en=PATH and --esa-corpus es=PATH"),
])
def test_missing_resources_are_one_line(name: str, extra: dict[str, str], message: str) -> None:
    from checkpoints.evaluate.metrics.registry import get_metric

    with pytest.raises(UsageError, match=message):
        get_metric(name, options(**extra))


# -- ESA-xl -----------------------------------------------------------------------------------


def test_cross_lingual_esa_pairs_documents_by_name(tmp_path: Path) -> None:
    for language, documents in {"en": {"a": "cats and dogs", "b": "cars and roads", "c": "only english"},
                                "es": {"b": "coches y carreteras", "a": "gatos y perros"}}.items():
        (tmp_path / language).mkdir()
        for name, text in documents.items():
            (tmp_path / language / name).write_text(text, encoding="utf-8")
    space = CrossLingualSpace.from_corpora(tmp_path / "en", tmp_path / "es")
    assert space.source.weights.shape[0] == space.target.weights.shape[0] == 2  # "c" has no Spanish side
    assert space.similarity(["cats"], ["gatos"]) == pytest.approx(1.0)
    assert space.similarity(["cats"], ["coches"]) == pytest.approx(0.0)
    assert space.similarity(["."], ["gatos"]) == 0.0
    assert isinstance(space.target, ConceptSpace)
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "z").write_text("chats", encoding="utf-8")
    with pytest.raises(InputError, match="no document named as one of"):
        CrossLingualSpace.from_corpora(tmp_path / "en", tmp_path / "fr")


# -- the command line -------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    found = {}
    for name, text in {"src": SOURCE, "out": CANDIDATE, "ref": CANDIDATE}.items():
        found[name] = tmp_path / f"{name}.txt"
        found[name].write_text(text + "\n", encoding="utf-8")
    return found


def test_the_ce_set_runs_what_it_has_resources_for(run_cli, files: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(
        "metrics", "-r", files["ref"], "-s", f"A={files['out']}", "--source", files["src"], "--src-lang", "en",
        "--tgt-lang", "es", "--parsed", CE_FIXTURE, "--metric-set", "ce", "--dictionary", DIX,
        "--lem-params", "1.1,0.2", "--annotation-cache", tmp_path / "cache", "-f", "json")
    assert code == 0, err
    report = json.loads(out)
    scores = report["scores"]["A"]
    assert scores["CE-Op"] == pytest.approx(5 / 6) and scores["CE-BiDictO"] == pytest.approx(0.8)
    assert scores["CE-length"] == pytest.approx(0.746901, abs=1e-6)
    assert "CE-logp" not in scores
    assert "checkpoints: warning: CE-logp skipped: needs a target-language language model: --lm es=FILE" in err
    assert "alpha:1.1157208" in report["signature"]["CE-length"] and "ref:none" in report["signature"]["CE-Op"]


def test_without_a_source_ce_is_refused_by_name(run_cli, files: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run_cli("metrics", "-r", files["ref"], "-s", f"A={files['out']}", "--tgt-lang", "es",
                              "--parsed", CE_FIXTURE, "-m", "CE-Op", "--annotation-cache", tmp_path / "cache")
    assert code == 2
    assert err.strip() == "checkpoints: error: CE-Op compares each translation with its source: give --source FILE"


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--lm", "es", "--lm 'es': expected LANG=PATH"),
    ("--lem-params", "1.1", "--lem-params '1.1': expected MU,SIGMA"),
    ("--lem-params", "1.1,0", "the standard deviation must be positive"),
    ("--lem-corpus", "a.txt", "--lem-corpus 'a.txt': expected SOURCE_FILE,TARGET_FILE"),
    ("--ce-length-factor", "-1", "--ce-length-factor -1.0: must be positive"),
    ("--vocab", "x", "--vocab 'x': expected LANG=PATH"),
])
def test_bad_option_values_name_the_option(run_cli, files: dict[str, Path], option: str, value: str,  # type: ignore[no-untyped-def]
                                           message: str) -> None:
    code, _out, err = run_cli("metrics", "-r", files["ref"], "-s", f"A={files['out']}", "--source", files["src"],
                              "-m", "CE-Op", option, value)
    assert code == 2 and message in err


def test_language_models_from_the_command_line(run_cli, files: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    needs_kenlm()
    code, out, err = run_cli(
        "metrics", "-r", files["ref"], "-s", f"A={files['src']}", "--source", files["src"], "--src-lang", "en",
        "--tgt-lang", "en", "--parsed", CE_FIXTURE, "-m", "CE-logp,CE-ippl,CE-oov", "--lm", f"en={ARPA}",
        "--case", "ci", "--annotation-cache", tmp_path / "cache", "-f", "json")
    assert code == 0, err
    scores = json.loads(out)["scores"]["A"]
    # lower-cased: "the" is known (−0.2 after <s>), "new car is red ." are not; </s> from the empty context −0.7
    assert scores["CE-logp"] == pytest.approx(-0.9, abs=1e-6)
    assert scores["CE-ippl"] == pytest.approx(10 ** (-0.9 / 2), abs=1e-6)
    assert scores["CE-oov"] == pytest.approx(1 / 6)


def test_esa_xl_from_the_command_line(run_cli, files: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for language, text in {"en": {"cars": "new car red car", "pets": "cat dog"},
                           "es": {"cars": "coche rojo nuevo", "pets": "gato perro"}}.items():
        (tmp_path / language).mkdir()
        for name, words in text.items():
            (tmp_path / language / name).write_text(words, encoding="utf-8")
    code, out, err = run_cli(
        "metrics", "-r", files["ref"], "-s", f"A={files['out']}", "--source", files["src"], "--src-lang", "en",
        "--tgt-lang", "es", "--parsed", CE_FIXTURE, "-m", "ESA-xl", "--esa-corpus", f"en={tmp_path / 'en'}",
        "--esa-corpus", f"es={tmp_path / 'es'}", "--annotation-cache", tmp_path / "cache", "-f", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["scores"]["A"]["ESA-xl"] == pytest.approx(1.0)  # both sides evoke only the "cars" concept
    assert "concepts:en+es" in report["signature"]["ESA-xl"]


def test_ce_in_combinations_and_significance(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A CE measure is a part of ULC and is compared between systems like any metric."""
    (tmp_path / "src.txt").write_text(f"{SOURCE}\n{SOURCE}\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text(f"{CANDIDATE}\n{CANDIDATE}\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text(f"{SOURCE}\n{CANDIDATE}\n", encoding="utf-8")
    code, out, err = run_cli(
        "metrics", "-r", tmp_path / "a.txt", "-s", f"A={tmp_path / 'a.txt'}", "-s", f"B={tmp_path / 'b.txt'}",
        "--source", tmp_path / "src.txt", "--src-lang", "en", "--tgt-lang", "es", "--parsed", CE_FIXTURE,
        "-m", "CE-Op,ULC(BLEU,CE-Op)", "--baseline", "A", "--samples", "200", "--annotation-cache", tmp_path / "c",
        "-f", "json")
    assert code == 0, err
    report = json.loads(out)
    # B's first line is the English source itself: its parts of speech equal the source's (6/6), the
    # second line is A's translation (5 of 6 pooled): (6 + 5) / (6 + 6)
    assert report["scores"]["B"]["CE-Op"] == pytest.approx(11 / 12)
    assert report["scores"]["A"]["CE-Op"] == pytest.approx(10 / 12)
    assert "ULC(BLEU,CE-Op)" in report["scores"]["A"]
    comparison = [row for row in report["significance"]["comparisons"] if row["metric"] == "CE-Op"]
    assert comparison and comparison[0]["difference"] == pytest.approx(11 / 12 - 10 / 12)
