"""METEOR-ex/st/sy/pa: Meteor 1.x scoring with Asiya's modules, hand-worked.

Formula (metric-literature-reference.md §3.2, Meteor 1.3+ code):
P = Σ w_i m_i / |h|, R = Σ w_i m_i / |r| (no function-word list),
Fmean = P·R / (α·P + (1−α)·R), frag = chunks / matches (0 for a whole
one-chunk match), score = Fmean · (1 − γ·frag^β).
English rank parameters: α = 0.85, β = 0.20, γ = 0.60, δ = 0.75; weights
exact 1.0, stem 0.6, synonym 0.8, paraphrase 0.6.
Running example: Koehn ch. 8, Figure 8.4 (iqmt-koehn-reference.md B.2).
"""

from __future__ import annotations

import gzip
import itertools
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

from checkpoints.errors import InputError, ResourceNotAvailable, UsageError
from checkpoints.evaluate.metrics.base import Aggregation, MetricOptions
from checkpoints.evaluate.metrics.meteor import (
    Match,
    count_chunks,
    coverage_gain,
    meteor_scores,
    parameters_for,
    resolve,
)
from checkpoints.evaluate.metrics.meteor_align import (
    EXACT,
    PARAPHRASE,
    SEARCH_WEIGHTS,
    ParaphraseTable,
    candidates,
)
from checkpoints.evaluate.metrics.meteor_paraphrase import read_paraphrase_table
from checkpoints.evaluate.metrics.registry import get_metric, metric_names
from checkpoints.wordnet import ENVIRONMENT_VARIABLE, synonym_sets

DATA = Path(__file__).parent.parent / "data" / "metrics" / "fscore"
PARAPHRASES = str(DATA / "paraphrases.tsv")

ALPHA, BETA, GAMMA = 0.85, 0.20, 0.60

REF = "Israeli officials are responsible for airport security"
SYSTEM_A = "Israeli officials responsibility of airport safety"
SYSTEM_B = "airport security Israeli officials are responsible"


def expected(weighted: float, hyp_length: int, ref_length: int, chunks: int, matches: int, whole: bool = False) -> float:
    precision, recall = weighted / hyp_length, weighted / ref_length
    fmean = precision * recall / (ALPHA * precision + (1 - ALPHA) * recall)
    fragmentation = 0.0 if whole else chunks / matches
    return fmean * (1 - GAMMA * fragmentation**BETA)


def meteor(name: str, hypothesis: str, references: list[str], **extra: str) -> float:
    metric = get_metric(name, MetricOptions(extra=extra))
    return metric.scalar(metric.segment_stats(hypothesis, references))


def test_registered_variants() -> None:
    lexical = set(metric_names("lexical"))
    assert {"METEOR-ex", "METEOR-st", "METEOR-sy"} <= lexical
    # METEOR-pa needs a user's paraphrase table, so it is asked for by name only.
    assert "METEOR-pa" in metric_names() and "METEOR-pa" not in lexical
    assert get_metric("METEOR-ex").aggregation is Aggregation.CORPUS


def test_english_rank_parameters() -> None:
    parameters = parameters_for("en-US")
    assert (parameters.alpha, parameters.beta, parameters.gamma, parameters.delta) == (0.85, 0.20, 0.60, 0.75)
    assert parameters.weights == (1.0, 0.6, 0.8, 0.6)


def test_exact_matching_of_koehn_system_a() -> None:
    # Exact matches: Israeli, officials, airport (m = 3). Chunks: "Israeli
    # officials" and "airport" = 2. P = 3/6, R = 3/7, frag = 2/3.
    assert meteor("METEOR-ex", SYSTEM_A, [REF]) == pytest.approx(expected(3, 6, 7, 2, 3), abs=1e-12)
    # Fmean = 0.5·(3/7) / (0.85·0.5 + 0.15·3/7) = 0.437956;
    # penalty = 0.6·(2/3)^0.2 = 0.6·0.922108 = 0.553265; 0.437956·0.446735 = 0.195650
    assert meteor("METEOR-ex", SYSTEM_A, [REF]) == pytest.approx(0.195650, abs=5e-7)


def test_stem_match_of_koehn_system_a() -> None:
    # + responsibility ~ responsible (Snowball stem "respons"), weight 0.6:
    # weighted matches 3 + 0.6 = 3.6; 4 matches in 3 chunks ("Israeli
    # officials" | "responsibility" | "airport"): the unmatched "are" breaks the first.
    assert meteor("METEOR-st", SYSTEM_A, [REF]) == pytest.approx(expected(3.6, 6, 7, 3, 4), abs=1e-12)
    # safety and security share no WordNet synset: METEOR-sy adds nothing.
    assert meteor("METEOR-sy", SYSTEM_A, [REF]) == pytest.approx(expected(3.6, 6, 7, 3, 4), abs=1e-12)


def test_fragmentation_of_koehn_system_b() -> None:
    # All 6 words match exactly, in 2 chunks; P = 1, R = 6/7, frag = 2/6.
    assert meteor("METEOR-ex", SYSTEM_B, [REF]) == pytest.approx(expected(6, 6, 7, 2, 6), abs=1e-12)
    # Fmean = (6/7) / (0.85 + 0.15·6/7) = 0.875912; penalty = 0.6·(1/3)^0.2 = 0.481645
    assert meteor("METEOR-ex", SYSTEM_B, [REF]) == pytest.approx(0.454034, abs=5e-7)


def test_identical_sentences_score_one() -> None:
    assert meteor("METEOR-sy", REF, [REF]) == 1.0


def test_stem_only_match() -> None:
    # "cats"/"cat" and "run"/"runs" match by stem only (weight 0.6), "the" exactly:
    # 3 matches in one chunk covering both sentences -> frag = 0; P = R = 2.2/3.
    assert meteor("METEOR-st", "the cats run", ["the cat runs"]) == pytest.approx(2.2 / 3, abs=1e-12)
    # Without the stem module only "the" matches: P = R = 1/3, frag = 1/1.
    assert meteor("METEOR-ex", "the cats run", ["the cat runs"]) == pytest.approx(expected(1, 3, 3, 1, 1), abs=1e-12)


def test_synonym_only_match() -> None:
    # big ~ large and car ~ automobile share WordNet synsets but no stem: weight 0.8.
    # P = R = (1 + 0.8 + 0.8)/3, one chunk over both sentences -> frag = 0.
    assert meteor("METEOR-sy", "the big car", ["the large automobile"]) == pytest.approx(2.6 / 3, abs=1e-12)
    assert meteor("METEOR-st", "the big car", ["the large automobile"]) == pytest.approx(
        expected(1, 3, 3, 1, 1), abs=1e-12
    )


def test_a_pair_with_stem_and_synonym_is_proposed_twice_as_meteor_does() -> None:
    # running/run share a stem and synsets; Meteor 1.5's synonym stage proposes the pair again, so
    # the stem match is not fixed and its beam search keeps the path without it (fewer chunks, and
    # a one-word match below weight 1 adds no coverage): the jar scores 0.0 here, and with "exact
    # stem" alone (one candidate, fixed) 0.6.
    stats = get_metric("METEOR-sy").segment_stats("running", ["run"])
    assert stats[4 + 4 * 1] == 0 and stats[4 + 4 * 2] == 0
    assert meteor("METEOR-st", "running", ["run"]) == pytest.approx(0.6, abs=1e-12)


def test_meteor_synonym_sets_follow_meteor_1_5() -> None:
    from checkpoints.evaluate.metrics.meteor_synonym import MeteorSynonyms, meteor_offset

    synonyms = MeteorSynonyms()
    # As given: the data is lower-case, so a capitalised word has no synonyms (Meteor without -lower).
    assert synonyms("Automobile") == frozenset() and 2958343 in synonyms("automobile")
    # One morphological form, the first suffix rule giving a WordNet word: cars -> car.
    assert 2958343 in synonyms("cars")
    # Exception forms use all their listed bases, across parts of speech: "offer" also reaches "off".
    assert synonyms("off") <= synonyms("offer")
    # Offsets as Meteor's data has them (two ranges shifted), part of speech dropped.
    assert meteor_offset("v", 613035) == 613035 and meteor_offset("v", 613036) == 613018
    assert meteor_offset("a", 1681478) == 1681477 and meteor_offset("n", 1681478) == 1681478


def test_paraphrase_match() -> None:
    # Table: "passed away" <TAB> "died". he (exact), passed away ~ died
    # (2 hypothesis words, 1 reference word, weight 0.6), today (exact): one chunk
    # covering both sentences. P = (1 + 0.6·2 + 1)/4 = 0.8; R = (1 + 0.6 + 1)/3.
    # ("passed" ~ "died" is also a synonym candidate, but the phrase covers more.)
    precision, recall = 3.2 / 4, 2.6 / 3
    fmean = precision * recall / (ALPHA * precision + (1 - ALPHA) * recall)
    score = meteor("METEOR-pa", "he passed away today", ["he died today"], **{"paraphrase-table": PARAPHRASES})
    assert score == pytest.approx(fmean, abs=1e-12)
    assert score == pytest.approx(0.855967, abs=5e-7)
    # The table works in both directions.
    assert meteor("METEOR-pa", "he died today", ["he passed away today"],
                  **{"paraphrase-table": PARAPHRASES}) == pytest.approx(
        (2.6 / 3) * 0.8 / (ALPHA * 2.6 / 3 + (1 - ALPHA) * 0.8), abs=1e-12)
    # The variants are cumulative: English METEOR-pa has all four modules, German no synonyms.
    table = {"paraphrase-table": PARAPHRASES}
    assert get_metric("METEOR-pa", MetricOptions(language="en", extra=table)).modules == (0, 1, 2, 3)
    assert get_metric("METEOR-pa", MetricOptions(language="de", extra=table)).modules == (0, 1, 3)


def test_meteor_table_format_is_read_in_order(tmp_path: Path) -> None:
    # Meteor's own format (paraphrase-en.gz): probability, phrase, paraphrase lines. A phrase's
    # paraphrases keep the file's order; entries are directed; a self-pair is dropped.
    table_file = tmp_path / "paraphrase.gz"
    with gzip.open(table_file, "wt", encoding="utf-8") as out:
        out.write("0.5\npassed away\ndied\n0.25\npassed away\nperished\n1e-3\ndied\ndied\n0.1\nmany  thanks\nthank you\n")
    table = read_paraphrase_table(table_file)
    assert table.entries == {"passed away": ["died", "perished"], "many thanks": ["thank you"]}
    assert (table.max_phrase, table.longest) == (2, 2)


def test_bad_meteor_tables_are_one_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("0.5\na\nb\nnot a number\nc\nd\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.txt:4: expected a probability"):
        read_paraphrase_table(bad)
    bad.write_text("0.5\na\nb\n0.5\nc\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.txt:4: incomplete entry"):
        read_paraphrase_table(bad)
    bad.write_text("0.5\na\n\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.txt:3: empty phrase"):
        read_paraphrase_table(bad)


def test_paraphrase_candidates_come_in_meteor_order() -> None:
    # Meteor 1.5's ParaphraseMatcher: first the reference's phrases found in the table (by start,
    # then length, then table order) with each occurrence of their paraphrase in the hypothesis,
    # then the hypothesis's phrases. A pair the table lists both ways is proposed twice, and a
    # pair the exact stage matched is proposed again.
    table = ParaphraseTable({"a b": ["c"], "c": ["a b", "a"], "a": ["c"]}, max_phrase=2, longest=2)
    metric = get_metric("METEOR-ex")
    hyp, ref = metric._analyse("a b a"), metric._analyse("c a")
    found = candidates(hyp, ref, (EXACT, PARAPHRASE), table)
    assert found == [
        [Match(0, 1, 0, 2, PARAPHRASE), Match(0, 1, 0, 1, PARAPHRASE), Match(0, 1, 2, 1, PARAPHRASE),
         Match(0, 1, 0, 1, PARAPHRASE), Match(0, 1, 0, 2, PARAPHRASE), Match(0, 1, 2, 1, PARAPHRASE)],
        [Match(1, 1, 0, 1, EXACT), Match(1, 1, 2, 1, EXACT)],
    ]
    # Duplicated candidates keep a match out of the fixed ones: "c" ~ "a b" here is alone
    # at its position but proposed twice, so the search decides it.
    twice = candidates(metric._analyse("a b"), metric._analyse("c"), (EXACT, PARAPHRASE),
                       ParaphraseTable({"a b": ["c"], "c": ["a b"]}, max_phrase=2, longest=2))
    assert twice == [[Match(0, 1, 0, 2, PARAPHRASE)] * 2]


def test_paraphrase_variant_needs_a_table() -> None:
    with pytest.raises(UsageError, match=r"METEOR-pa needs a paraphrase table \(option 'paraphrase-table'\)"):
        get_metric("METEOR-pa")


def test_bad_paraphrase_tables_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError) as error:
        get_metric("METEOR-pa", MetricOptions(extra={"paraphrase-table": str(DATA / "paraphrases-bad.tsv")}))
    assert str(error.value) == f"{DATA / 'paraphrases-bad.tsv'}:2: expected 'phrase<TAB>paraphrase'"
    missing = tmp_path / "none.tsv"
    with pytest.raises(InputError, match=r"none\.tsv: paraphrase table not found"):
        get_metric("METEOR-pa", MetricOptions(extra={"paraphrase-table": str(missing)}))
    empty_phrase = tmp_path / "empty.tsv"
    empty_phrase.write_text("a\t \n", encoding="utf-8")
    with pytest.raises(InputError, match=r"empty\.tsv:1: empty phrase"):
        get_metric("METEOR-pa", MetricOptions(extra={"paraphrase-table": str(empty_phrase)}))
    comments_only = tmp_path / "comments.tsv"
    comments_only.write_text("# nothing\n\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"comments\.tsv: paraphrase table has no pairs"):
        get_metric("METEOR-pa", MetricOptions(extra={"paraphrase-table": str(comments_only)}))
    latin1 = tmp_path / "latin1.tsv"
    latin1.write_bytes("caf\xe9\tbar\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"latin1\.tsv: not UTF-8 text"):
        get_metric("METEOR-pa", MetricOptions(extra={"paraphrase-table": str(latin1)}))


def test_function_words_weight_content_words_more() -> None:
    # Function words "the", "of", "a" (file); δ = 0.75. Hypothesis "the cat",
    # reference "the dog": only "the" (a function word) matches.
    # P = R = (1 − δ)·1 / (δ·1 + (1 − δ)·1) = 0.25; m = 1 in 1 chunk -> frag = 1.
    score = meteor("METEOR-ex", "the cat", ["the dog"], **{"function-words": str(DATA / "function-words.txt")})
    assert score == pytest.approx(0.25 * (1 - GAMMA), abs=1e-12)
    # Without a list every word is a content word: P = R = 1/2.
    assert meteor("METEOR-ex", "the cat", ["the dog"]) == pytest.approx(0.5 * (1 - GAMMA), abs=1e-12)


def test_bad_function_word_list(tmp_path: Path) -> None:
    bad = tmp_path / "words.txt"
    bad.write_text("the\nof the\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"words\.txt:2: expected one word per line"):
        get_metric("METEOR-ex", MetricOptions(extra={"function-words": str(bad)}))
    with pytest.raises(InputError, match=r"nope\.txt: function word list not found"):
        get_metric("METEOR-ex", MetricOptions(extra={"function-words": str(tmp_path / "nope.txt")}))


def test_synonyms_need_english_and_stems_a_stemmer() -> None:
    with pytest.raises(UsageError, match="METEOR-sy: no synonym matching for target language 'de'"):
        get_metric("METEOR-sy", MetricOptions(language="de"))
    with pytest.raises(UsageError, match="METEOR-st: no stem matching for target language 'zh'"):
        get_metric("METEOR-st", MetricOptions(language="zh"))
    # German has Meteor's own rank parameters and a Snowball stemmer.
    assert get_metric("METEOR-st", MetricOptions(language="de")).parameters.weights[1] == 0.8


def test_missing_wordnet_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The packaged WordNet is the default; a user's directory without WordNet files is reported in one line.
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path))
    with pytest.raises(ResourceNotAvailable) as error:
        get_metric("METEOR-sy")
    assert str(error.value) == (f"METEOR-sy needs WordNet: {tmp_path} (from {ENVIRONMENT_VARIABLE}) "
                                "is not a WordNet 3.0 dict/ directory (missing index.noun)")


def test_synonym_lookup_over_the_packaged_wordnet() -> None:
    lookup = synonym_sets().lookup
    # "cars" reaches car.n.01 (offset 02958343) through WordNet's morphology; it holds "automobile".
    assert ("n", 2958343) in lookup("cars") and ("n", 2958343) in lookup("Automobile")
    assert not lookup("cars").isdisjoint(lookup("automobile"))
    assert lookup("safety").isdisjoint(lookup("security"))
    assert lookup(",") == frozenset() and lookup("Über-") == frozenset()
    # Each metric has its own lookup cache: nothing keyed by a corpus's words is kept globally.
    assert synonym_sets().lookup is not lookup


def test_best_reference_wins() -> None:
    metric = get_metric("METEOR-ex")
    alone = metric.segment_stats(SYSTEM_B, [REF])
    np.testing.assert_array_equal(metric.segment_stats(SYSTEM_B, ["nothing in common", REF]), alone)
    np.testing.assert_array_equal(metric.segment_stats(SYSTEM_B, [REF, SYSTEM_A]), alone)


def test_alignment_minimises_chunks_then_distance() -> None:
    metric = get_metric("METEOR-ex")
    # x a b a vs a b a: reference "a"s may take either hypothesis "a"; in order
    # they form one chunk (a b a = hypothesis 1..3), crossed they make three.
    matches = metric.align(metric._analyse("x a b a"), metric._analyse("a b a"))
    assert [(m.ref_start, m.hyp_start) for m in matches] == [(0, 1), (1, 2), (2, 3)]
    assert count_chunks(matches, 3) == 1
    assert meteor("METEOR-ex", "x a b a", ["a b a"]) == pytest.approx(expected(3, 4, 3, 1, 3), abs=1e-12)
    # a a vs a: both choices make one chunk and, as Meteor counts distance (a candidate's goes to
    # the paths tried after it), tie; the first candidate, on the diagonal, wins.
    matches = metric.align(metric._analyse("a a"), metric._analyse("a"))
    assert [(m.ref_start, m.hyp_start) for m in matches] == [(0, 0)]




def _brute_force(candidates: list[list[Match]], ref_length: int) -> tuple[int, int]:
    """Best (−coverage, chunks) over every consistent choice of candidates (Meteor's integer coverage)."""
    flat = [match for at in candidates for match in at]
    best = (0, 0)
    for size in range(1, len(flat) + 1):
        for subset in itertools.combinations(flat, size):
            hyp = [i for m in subset for i in range(m.hyp_start, m.hyp_end)]
            ref = [j for m in subset for j in range(m.ref_start, m.ref_end)]
            if len(set(hyp)) < len(hyp) or len(set(ref)) < len(ref):
                continue
            key = (-sum(coverage_gain(m, SEARCH_WEIGHTS) for m in subset), count_chunks(list(subset), ref_length))
            best = min(best, key)
    return best


def test_search_finds_the_best_alignment_of_small_pairs() -> None:
    # With a beam wide enough to keep every partial alignment, Meteor's search
    # is exhaustive in coverage and chunks: it must find their optimum. (Not
    # in distance, the last tie-break: Meteor adds a match's distance to the
    # paths that skip it, and the search does as Meteor does.)
    metric = get_metric("METEOR-ex")
    rng = random.Random(3)
    for _ in range(150):
        hyp = metric._analyse(" ".join(rng.choice("abc") for _ in range(rng.randint(1, 5))))
        ref = metric._analyse(" ".join(rng.choice("abc") for _ in range(rng.randint(1, 5))))
        candidates = metric.candidates(hyp, ref)
        found = resolve(candidates, len(hyp.tokens), len(ref.tokens), SEARCH_WEIGHTS, beam_size=10**6)
        key = (-sum(coverage_gain(m, SEARCH_WEIGHTS) for m in found), count_chunks(found, len(ref.tokens)))
        assert key == _brute_force(candidates, len(ref.tokens)), (hyp.tokens, ref.tokens)


def test_stem_matches_add_no_coverage_in_the_search() -> None:
    # Meteor's partial alignments count coverage in whole numbers, adding
    # (int) (covered + length × weight) with the search's weights (exact 1,
    # any other module 0.5, whatever the language): a one-word stem match adds
    # nothing, an exact one 2 (one word each side), a two- or three-word
    # paraphrase 1 + 1, a three-word against a one-word paraphrase 1 + 0.
    assert SEARCH_WEIGHTS == (1.0, 0.5, 0.5, 0.5)
    assert coverage_gain(Match(0, 1, 0, 1, 1), SEARCH_WEIGHTS) == 0
    assert coverage_gain(Match(0, 1, 0, 1, 0), SEARCH_WEIGHTS) == 2
    assert coverage_gain(Match(0, 2, 0, 2, 3), SEARCH_WEIGHTS) == 2
    assert coverage_gain(Match(0, 3, 0, 3, 3), SEARCH_WEIGHTS) == 2
    assert coverage_gain(Match(0, 3, 0, 1, 3), SEARCH_WEIGHTS) == 1


def test_exact_alignment_covers_every_clipped_match_on_real_text() -> None:
    # On 20 real TED segments (two systems), the exact alignment matches as
    # many words as the clipped unigram counts allow.
    from collections import Counter

    metric = get_metric("METEOR-ex", MetricOptions(language="de"))
    references = (DATA / "ted-ende.ref.txt").read_text(encoding="utf-8").splitlines()
    for system in ("Online-W", "HuaweiTSC"):
        outputs = (DATA / f"ted-ende.{system}.txt").read_text(encoding="utf-8").splitlines()
        for output, reference in zip(outputs, references, strict=True):
            hyp, ref = metric._analyse(output), metric._analyse(reference)
            clipped = sum((Counter(hyp.tokens) & Counter(ref.tokens)).values())
            stats = metric.segment_stats(output, [reference])
            assert stats[4] == clipped == len(metric.align(hyp, ref))


def test_corpus_score_from_summed_statistics() -> None:
    metric = get_metric("METEOR-ex")
    stats = metric.corpus_stats([SYSTEM_A, SYSTEM_B], [[REF, REF]])
    # Sums: |h| = 12, |r| = 14, matches 3 + 6 = 9, chunks 2 + 2 = 4.
    assert metric.system_score(stats) == pytest.approx(expected(9, 12, 14, 4, 9), abs=1e-12)


def test_empty_segments_score_zero_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert meteor("METEOR-st", "", [REF]) == 0.0
        assert meteor("METEOR-st", SYSTEM_A, [""]) == 0.0
        assert meteor("METEOR-st", "", [""]) == 0.0
        assert meteor_scores(np.zeros(21), parameters_for("en")) == 0.0


def test_score_is_vectorised_over_leading_axes() -> None:
    metric = get_metric("METEOR-st")
    rows = metric.corpus_stats([SYSTEM_A, SYSTEM_B, "", "airport"], [[REF, REF, REF, REF]])
    counts = np.random.default_rng(2).integers(0, 3, size=(5, 4, len(rows)))
    summed = counts @ rows
    scores = metric.score(summed)
    assert scores.shape == (5, 4)
    np.testing.assert_allclose(
        scores, [[metric.scalar(summed[i, j]) for j in range(4)] for i in range(5)], rtol=0, atol=1e-15
    )


def test_signature_names_modules_and_parameters() -> None:
    signature = get_metric("METEOR-st").signature().format()
    assert "metric:METEOR-st" in signature and "modules:exact+stem" in signature
    assert "params:0.85,0.2,0.6,0.75" in signature and "weights:exact=1,stem=0.6" in signature


@pytest.mark.parametrize(("word", "stem"), [
    # Meteor 1.5's Java Snowball (stems taken from the jar); today's PyStemmer differs on each.
    ("organism", "organ"), ("organization", "organ"), ("organization's", "organ"), ("evening", "even"),
    ("international", "intern"), ("internationally", "intern"),
    # Unchanged Porter2 behaviour and its exceptions.
    ("generously", "generous"), ("skies", "sky"), ("dying", "die"), ("news", "news"), ("succeeding", "succeed"),
    ("Arsenal", "Arsenal"), ("cry", "cri"), ("say", "say"), ("hopping", "hop"), ("hoping", "hope"),
])
def test_meteor_english_stemmer(word: str, stem: str) -> None:
    from checkpoints.evaluate.metrics.meteor_stem import english_stem

    assert english_stem(word) == stem


@pytest.mark.parametrize(("word", "stem"), [
    ("Ergebnisse", "Ergebniss"), ("Ergebnissen", "Ergebniss"), ("betrachtet", "betrachtet"),
    ("Darwin's", "Darwin's"), ("Tetraeder", "Tetraed"),
    ("Straße", "Strass"), ("USA", "uSA"), ("schön", "schon"), ("bauen", "bau"), ("Universum", "universum"),
])
def test_meteor_german_stemmer(word: str, stem: str) -> None:
    from checkpoints.evaluate.metrics.meteor_stem import german_stem

    assert german_stem(word) == stem
