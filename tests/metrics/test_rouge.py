"""ROUGE-N/L/W/S*/SU* with ROUGE 1.5.5 semantics under Asiya's options.

Hand-worked pair (the one of asiya-reference.md §16.2):
reference "the cat is on the mat", candidate "the cat sat on the mat"
(6 words each; no word longer than three characters, so ``-m`` stems nothing).
Definitions: iqmt-koehn-reference.md C.7 (ROUGE-N recall over references,
LCS, WLCS with f(k) = k^1.2, skip bigrams C(n,2), SU = S + begin-of-sentence
token); Asiya stores F with α = 0.5.
"""

from __future__ import annotations

import random
import warnings
from math import comb

import numpy as np
import pytest

from checkpoints.evaluate.metrics.base import Aggregation, MetricOptions
from checkpoints.evaluate.metrics.registry import get_metric, metric_names
from checkpoints.evaluate.metrics.rouge import (
    f_measure,
    lcs_length,
    pair_counts,
    rouge_tokens,
    wlcs_score,
)

REF = "the cat is on the mat"
HYP = "the cat sat on the mat"


def rouge(name: str, hypothesis: str, references: list[str], **options: str) -> float:
    metric = get_metric(name, MetricOptions(**options))
    return metric.scalar(metric.segment_stats(hypothesis, references))


def test_all_eight_variants_are_registered_as_means_of_segments() -> None:
    names = ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L", "ROUGE-S*", "ROUGE-SU*", "ROUGE-W"]
    assert set(names) <= set(metric_names("lexical"))
    assert all(get_metric(name).aggregation is Aggregation.MEAN for name in names)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # 5 clipped unigram hits (the×2, cat, on, mat) of 6 on both sides
        ("ROUGE-1", 5 / 6),
        # bigrams: the-cat, on-the, the-mat of 5 on both sides
        ("ROUGE-2", 3 / 5),
        # trigrams: on-the-mat of 4
        ("ROUGE-3", 1 / 4),
        # no common 4-gram
        ("ROUGE-4", 0.0),
        # LCS "the cat on the mat" = 5 of 6
        ("ROUGE-L", 5 / 6),
        # WLCS: runs "the cat" and "on the mat": 2^1.2 + 3^1.2; ROUGE 1.5.5 divides by
        # |ref|^(1.2·1.2) for R and |cand|^1.2 for P (was R = P = (WLCS / 6^1.2)^(1/1.2) =
        # 0.7454, which ROUGE-1.5.5.pl does not give: it gives 0.6132521636250661)
        ("ROUGE-W", f_measure(((2**1.2 + 3**1.2) / 6**1.2) ** (1 / 1.2), ((2**1.2 + 3**1.2) / 6**1.44) ** (1 / 1.2))),
        # skip bigrams: the 5 common words keep their order, C(5,2) = 10 of C(6,2) = 15
        ("ROUGE-S*", 10 / 15),
        # plus the unigrams of every word but the last (ROUGE 1.5.5's createSkipBigram):
        # the, cat, on, the of "the cat sat on the" → 10 + 4 hits of 15 + 5 (was 15/21 with
        # every unigram; ROUGE-1.5.5.pl gives 0.7)
        ("ROUGE-SU*", 14 / 20),
    ],
)
def test_hand_worked_pair(name: str, expected: float) -> None:
    assert rouge(name, HYP, [REF]) == pytest.approx(expected, abs=1e-12)


def test_rouge_l_of_koehn_system_b() -> None:
    # iqmt-koehn-reference.md B.2.1: the LCS reading of system B gives
    # P = 4/6, R = 4/7, F = 8/13 ("Israeli officials are responsible").
    assert rouge("ROUGE-L", "airport security Israeli officials are responsible",
                 ["Israeli officials are responsible for airport security"]) == pytest.approx(8 / 13, abs=1e-12)


def test_precision_and_recall_differ_by_length() -> None:
    # "the cat" against REF: 2 unigram hits; R = 2/6, P = 2/2; F = 2PR/(P+R) = 0.5
    assert rouge("ROUGE-1", "the cat", [REF]) == pytest.approx(f_measure(1.0, 1 / 3), abs=1e-12)
    assert f_measure(1.0, 1 / 3) == pytest.approx(0.5)
    # ROUGE-W: WLCS = f(2) = 2^1.2; R = (2^1.2 / 6^1.44)^(1/1.2); P = (2^1.2 / 2^1.2)^(1/1.2) = 1
    # (was 0.5 with R = 1/3 from 6^1.2; ROUGE-1.5.5.pl gives 0.3778641695498693)
    recall = (2**1.2 / 6**1.44) ** (1 / 1.2)
    assert rouge("ROUGE-W", "the cat", [REF]) == pytest.approx(f_measure(1.0, recall), abs=1e-12)
    assert rouge("ROUGE-W", "the cat", [REF]) == pytest.approx(0.3778641695498693, abs=1e-12)


def test_normalisation_lowercases_strips_punctuation_and_stems_long_words() -> None:
    # Stemming (-m) applies to tokens longer than three characters only; ROUGE 1.5.5
    # looks a token up in WordNet's exception lists first ("were" → "be", which the
    # old Porter-only expectation "were" missed), then uses its own Porter stemmer.
    assert rouge_tokens("The CATS were running, wasn't it?") == ("the", "cat", "be", "run", "wasn", "t", "it")
    assert rouge_tokens("went children element") == ("go", "child", "elem")
    assert rouge_tokens("was") == ("was",)  # Porter would give "wa"
    # Case never matters (ROUGE lower-cases), whatever --case says.
    assert rouge("ROUGE-1", "The CAT", ["the cat"]) == 1.0
    assert rouge("ROUGE-1", "The CAT", ["the cat"], case="cs") == 1.0
    # Stemming makes inflected forms match.
    assert rouge("ROUGE-1", "running cats", ["run cat"]) == 1.0


def test_letters_of_other_scripts_are_kept() -> None:
    assert rouge_tokens("Übersetzung, bitte!", language="de")[1] == "bitt"
    assert rouge("ROUGE-2", "Die Übersetzung ist gut.", ["Die Übersetzung ist gut."], language="de") == 1.0
    assert rouge("ROUGE-L", "我 爱 你", ["我 爱 他"], tokenize="zh", language="zh") == pytest.approx(2 / 3)


def test_references_are_pooled_as_rouge_f_a() -> None:
    # -f A: R = Σ hits / Σ reference lengths = (2 + 0)/(2 + 2);
    # P = Σ hits / (2 references × 2 candidate words) = 2/4. Best-reference would give 1.0.
    assert rouge("ROUGE-1", "the cat", ["the cat", "a dog"]) == pytest.approx(0.5, abs=1e-12)
    # ROUGE-W pools before undoing the weighting: P = ((2^1.2 + 0)/(2·2^1.2))^(1/1.2),
    # R = (2^1.2/(2^1.44 + 2^1.44))^(1/1.2) (was R = P = 0.5^(1/1.2) = 0.5612;
    # ROUGE-1.5.5.pl gives 0.52239163570771285)
    precision = 0.5 ** (1 / 1.2)
    recall = (2**1.2 / (2 * 2**1.44)) ** (1 / 1.2)
    assert rouge("ROUGE-W", "the cat", ["the cat", "a dog"]) == pytest.approx(f_measure(precision, recall), abs=1e-12)


def test_system_score_is_the_mean_of_segment_f() -> None:
    metric = get_metric("ROUGE-2")
    stats = metric.corpus_stats([HYP, "the cat"], [[REF, REF]])
    # segment 2: one bigram hit; R = 1/5, P = 1/1 -> F = 2·0.2/1.2 = 1/3
    np.testing.assert_allclose(metric.segment_scores(stats), [3 / 5, 1 / 3])
    assert metric.system_score(stats) == pytest.approx((3 / 5 + 1 / 3) / 2, abs=1e-12)


def test_skip_bigram_counts_are_n_choose_2() -> None:
    tokens = tuple("abcdefg")
    counts = pair_counts(tokens, tokens)
    assert counts.skip_hits == comb(7, 2) == 21
    # reversed order shares no ordered pair
    assert pair_counts(tokens, tokens[::-1]).skip_hits == 0
    # repeated words are clipped: a a vs a: one pair on the left, none on the right
    assert pair_counts(("a", "a"), ("a",)).skip_hits == 0
    assert pair_counts(("a", "a", "a"), ("a", "a")).skip_hits == 1


def test_su_never_counts_the_last_unigram() -> None:
    # ROUGE-1.5.5.pl scores a one-word segment 0 in ROUGE-SU* (it only adds the
    # unigrams that start a skip bigram); ROUGE-W and ROUGE-1 give 1.
    assert rouge("ROUGE-SU*", "Applause", ["Applause"]) == 0.0
    assert rouge("ROUGE-W", "Applause", ["Applause"]) == 1.0


def test_rouge_w_runs_are_counted_on_the_reference() -> None:
    # candidate "a x b" against reference "a b": the LCS matches reference
    # positions 1 and 2, one run of 2 for ROUGE 1.5.5 (2^1.2), where the weighted-LCS
    # table gives 1 + 1 (the candidate's matches are not adjacent).
    assert wlcs_score(tuple("ab"), tuple("axb")) == pytest.approx(2**1.2)


def test_wlcs_rewards_consecutive_matches() -> None:
    # "a b c d" vs "a b x c d": two runs of 2 -> 2·2^1.2; an unbroken run of 4 -> 4^1.2
    assert wlcs_score(tuple("abxcd"), tuple("abcd")) == pytest.approx(2 * 2**1.2)
    assert wlcs_score(tuple("abcd"), tuple("abcd")) == pytest.approx(4**1.2)
    assert wlcs_score((), tuple("abc")) == 0.0


def _dp_lcs(first: list[str], second: list[str]) -> int:
    table = [[0] * (len(second) + 1) for _ in range(len(first) + 1)]
    for i, a in enumerate(first, 1):
        for j, b in enumerate(second, 1):
            table[i][j] = table[i - 1][j - 1] + 1 if a == b else max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def test_bit_parallel_lcs_equals_dynamic_programming() -> None:
    rng = random.Random(7)
    for _ in range(500):
        first = [rng.choice("abcd") for _ in range(rng.randint(0, 70))]
        second = [rng.choice("abcd") for _ in range(rng.randint(0, 70))]
        assert lcs_length(first, second) == _dp_lcs(first, second)


def test_empty_segments_score_zero_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in ("ROUGE-1", "ROUGE-4", "ROUGE-L", "ROUGE-W", "ROUGE-S*", "ROUGE-SU*"):
            assert rouge(name, "", [REF]) == 0.0
            assert rouge(name, HYP, [""]) == 0.0
            assert rouge(name, "", [""]) == 0.0
            assert rouge(name, "...", [REF]) == 0.0  # nothing left after normalisation


def test_score_is_vectorised_over_leading_axes() -> None:
    metric = get_metric("ROUGE-SU*")
    rows = metric.corpus_stats([HYP, "the cat", "mat"], [[REF, REF, REF]])
    counts = np.random.default_rng(1).integers(0, 3, size=(4, 6, len(rows)))
    summed = counts @ rows
    expected = np.where(summed[..., 1] > 0, summed[..., 0] / np.maximum(summed[..., 1], 1), 0.0)
    np.testing.assert_allclose(metric.score(summed), expected, rtol=0, atol=1e-15)
    assert metric.score(summed).shape == (4, 6)


def test_signature_says_what_is_stored_and_how_text_is_normalised() -> None:
    assert get_metric("ROUGE-W").signature()["value"] == "F"
    assert get_metric("ROUGE-1").signature()["text"] == "lc+alnum+rouge155"
    assert get_metric("ROUGE-1", MetricOptions(language="de")).signature()["text"] == "lc+alnum+snowball"
    assert get_metric("ROUGE-1", MetricOptions(language="zh")).signature()["text"] == "lc+alnum+none"
