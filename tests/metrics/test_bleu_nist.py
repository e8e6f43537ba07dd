"""mteval-v13a BLEU and NIST against the published test vectors.

Sources (all under /work/shared/docs): iqmt-koehn-reference.md B.2.3, B.7,
C.1, C.2 and the vector index D.1 (#3 textbook BLEU, #4 mteval BLEU, #5 mteval
NIST, #6 closest reference length, #7 LinearB, #11 Exercise 1),
metric-literature-reference.md §7 #1 (E06-1032 clipped precisions). Values
quoted with four decimals are mteval's printed precision and are compared
after rounding; every other value is exact.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sacrebleu

from checkpoints.errors import CorpusMismatch, UsageError
from checkpoints.evaluate.metrics.base import Aggregation, MetricOptions
from checkpoints.evaluate.metrics.bleu_nist import (
    NIST_BETA,
    MtevalNist,
    closest_length,
    mteval_tokens,
    nist_length_penalty,
)
from checkpoints.evaluate.metrics.registry import get_metric

# Koehn, Figure 8.4 (B.2) and references 1–4 of Figure 8.1 (B.0) as used for
# Figure 8.7: the vectors in D.1 #4/#5 count no sentence-final period
# (reference lengths 7, 10, 13, 11), so the periods are left out here.
REF = "Israeli officials are responsible for airport security"
SYSTEM_A = "Israeli officials responsibility of airport safety"
SYSTEM_B = "airport security Israeli officials are responsible"
FOUR_REFS = [
    REF,
    "Israel is in charge of the security at this airport",
    "The security work for this airport is the responsibility of the Israel government",
    "Israeli side was in charge of the security of this airport",
]

# IQMT's LinearB sentence and its five references (iqmt-koehn A.2.2).
LINEARB = "On Tuesday several missiles and mortar shells fell in southern Israel , but there were no casualties ."
LINEARB_REFS = [
    "Several Qassam rockets and mortar shells were fired on southern Israel today Tuesday without victims .",
    "Several Qassam rockets and mortars hit southern Israel today without causing any casualties .",
    "A number of Qassam rockets and Howitzer missiles fell over southern Israel today , Tuesday, without causing any casualties .",
    "Several Qassam rockets and mortar shells fell today, Tuesday, on southern Israel without causing any victim .",
    "Several Qassam rockets and mortar shells fell today, Tuesday, in southern Israel without causing any casualties .",
]

# Koehn's Exercise 1 (iqmt-koehn B.7).
EXERCISE_REF = "The large dog chased the man across the street."
EXERCISE_SYS = "The big dog chases a man across the street."

# Callison-Burch et al. 2006 (E06-1032) Table 1: four references and a hypothesis.
ORE_HYP = "Appeared calm when he was taken to the American plane, which will to Miami, Florida."
ORE_REFS = [
    "Orejuela appeared calm as he was led to the American plane which will take him to Miami, Florida.",
    "Orejuela appeared calm while being escorted to the plane that would take him to Miami, Florida.",
    "Orejuela appeared calm as he was being led to the American plane that was to carry him to Miami in Florida.",
    "Orejuela seemed quite calm as he was being led to the American plane that would take him to Miami in Florida.",
]


def score(name: str, hypothesis: str, references: list[str], **options: object) -> float:
    metric = get_metric(name, MetricOptions(**options))  # type: ignore[arg-type]
    return metric.scalar(metric.segment_stats(hypothesis, references))


def counts(hypothesis: str, references: list[str], **options: object) -> tuple[list[Fraction], int, int]:
    """Clipped n-gram precisions p1..p4, hypothesis length and effective reference length."""
    stats = get_metric("BLEU-4", MetricOptions(**options)).segment_stats(hypothesis, references)  # type: ignore[arg-type]
    precisions = [Fraction(int(stats[2 + n]), int(stats[6 + n])) for n in range(4)]
    return precisions, int(stats[0]), int(stats[1])


def rounded(values: list[float], digits: int = 4) -> list[float]:
    return [round(value, digits) for value in values]


# --- D.1 #4: mteval BLEU, cumulative ------------------------------------------------------------


@pytest.mark.parametrize(("hypothesis", "references", "expected"), [
    (SYSTEM_A, [REF], [0.4232, 0.2677, 0.0, 0.0]),
    (SYSTEM_B, [REF], [0.8465, 0.7571, 0.6237, 0.5115]),
    (SYSTEM_A, FOUR_REFS, [0.7054, 0.4887, 0.0, 0.0]),
    (SYSTEM_B, FOUR_REFS, [0.8465, 0.7571, 0.6237, 0.5115]),
])
@pytest.mark.parametrize("case", ["cs", "ci"])
def test_mteval_cumulative_bleu_koehn(hypothesis: str, references: list[str], expected: list[float], case: str) -> None:
    """iqmt-koehn B.2.3 / D.1 #4: identical with and without -c."""
    values = [score(f"BLEU-{n}", hypothesis, references, case=case) for n in range(1, 5)]
    assert rounded(values) == expected


def test_bleu_closed_forms_koehn_single_reference() -> None:
    """B.2.3: BP = exp(1 − 7/6) and p1..p4 = 3/6, 1/5 (A); 6/6, 4/5, 2/4, 1/3 (B)."""
    brevity = math.exp(1 - 7 / 6)
    assert score("BLEU-1", SYSTEM_A, [REF]) == pytest.approx(brevity * 3 / 6, abs=1e-15)
    assert score("BLEU-2", SYSTEM_A, [REF]) == pytest.approx(brevity * math.sqrt(3 / 6 * 1 / 5), abs=1e-15)
    assert score("BLEU-4", SYSTEM_B, [REF]) == pytest.approx(brevity * (1 * 4 / 5 * 2 / 4 * 1 / 3) ** 0.25, abs=1e-15)
    assert score("BLEUi-2", SYSTEM_B, [REF]) == pytest.approx(4 / 5, abs=1e-15)
    assert score("BLEUi-3", SYSTEM_A, [REF]) == 0.0


def test_individual_bleu_has_no_brevity_penalty() -> None:
    """C.1: BLEU_ind(n) = m_n / t_n, no brevity penalty (A with 4 refs: p2 = 2/5)."""
    assert score("BLEUi-2", SYSTEM_A, FOUR_REFS) == pytest.approx(2 / 5, abs=1e-15)
    assert score("BLEUi-4", SYSTEM_B, FOUR_REFS) == pytest.approx(1 / 3, abs=1e-15)


# --- D.1 #3: Koehn's textbook BLEU from the same statistics -------------------------------------


def koehn_bleu(precisions: list[Fraction], length: int, reference: int, order: int) -> Fraction:
    """Koehn eq. 8.9 (product of precisions, linear BP): a test helper, not a metric of the suite."""
    value = min(Fraction(1), Fraction(length, reference))
    for precision in precisions[:order]:
        value *= precision
    return value


@pytest.mark.parametrize(("hypothesis", "references", "expected"), [
    (SYSTEM_A, [REF], [Fraction(3, 7), Fraction(3, 35), 0, 0]),
    (SYSTEM_B, [REF], [Fraction(6, 7), Fraction(24, 35), Fraction(12, 35), Fraction(4, 35)]),
    (SYSTEM_A, FOUR_REFS, [Fraction(5, 7), Fraction(2, 7), 0, 0]),
    (SYSTEM_B, FOUR_REFS, [Fraction(6, 7), Fraction(24, 35), Fraction(12, 35), Fraction(4, 35)]),
])
def test_koehn_textbook_bleu(hypothesis: str, references: list[str], expected: list[Fraction]) -> None:
    """B.2.3 table, exact values: our clipped counts and closest reference length feed eq. 8.9."""
    precisions, length, reference = counts(hypothesis, references)
    assert [koehn_bleu(precisions, length, reference, n) for n in range(1, 5)] == expected


# --- D.1 #5: mteval NIST ------------------------------------------------------------------------


@pytest.mark.parametrize(("hypothesis", "references", "nist1", "nist2_5", "individual2"), [
    (SYSTEM_A, [REF], 1.2699, 1.2699, 0.0),
    (SYSTEM_B, [REF], 2.5397, 2.5397, 0.0),
    (SYSTEM_A, FOUR_REFS, 1.0838, 1.1435, 0.0597),
    (SYSTEM_B, FOUR_REFS, 1.3503, 1.5294, 0.1791),
])
def test_mteval_nist_koehn(hypothesis: str, references: list[str], nist1: float, nist2_5: float,
                           individual2: float) -> None:
    """iqmt-koehn C.2 test vectors (cumulative NIST-1, NIST-2..5 and the individual 2-gram score)."""
    assert round(score("NIST-1", hypothesis, references), 4) == nist1
    assert rounded([score(f"NIST-{n}", hypothesis, references) for n in range(2, 6)]) == [nist2_5] * 4
    assert round(score("NIST", hypothesis, references), 4) == nist2_5
    assert round(score("NISTi-2", hypothesis, references), 4) == individual2


def test_nist_closed_form_single_reference() -> None:
    """C.2: 3 · log2(7) / 6 × LP(6/7) = 1.26986 (every unigram of a 7-word reference carries log2 7)."""
    expected = 3 * math.log2(7) / 6 * math.exp(-NIST_BETA * math.log(6 / 7) ** 2)
    assert score("NIST-1", SYSTEM_A, [REF]) == pytest.approx(expected, abs=1e-12)


def test_nist_length_penalty_rule() -> None:
    """C.2: LP = 1 at or above the average reference length, 0.5 at 2/3 of it (beta from the 0.5/1.5 rule), 0 at 0."""
    assert math.isclose(NIST_BETA, -math.log(0.5) / math.log(1.5) ** 2, rel_tol=0, abs_tol=1e-15)
    assert round(NIST_BETA, 5) == 4.21617
    assert nist_length_penalty(np.array([1.0, 1.3, 2 / 3, 0.0])) == pytest.approx([1.0, 1.0, 0.5, 0.0], abs=1e-12)


def test_nist_information_weights_come_from_the_whole_reference_corpus() -> None:
    """C.2 consequence (a): weights are computed over every reference segment, not per sentence.

    References "a b" and "a c": count(a) = 2 of 4 words → info 1; count(b) = 1 → info 2;
    "a b" once after "a" twice → info 1. Segment 1 ("a b") inside the corpus:
    NIST-2 = (1 + 2)/2 + 1/1 = 2.5. Alone, its own reference gives a = b = 1 bit,
    "a b" = 0 bits: NIST-2 = 2/2 + 0 = 1.
    """
    metric = get_metric("NIST-2")
    in_corpus = metric.corpus_stats(["a b", "a c"], [["a b", "a c"]])
    assert metric.scalar(in_corpus[0]) == pytest.approx(2.5, abs=1e-12)
    assert metric.scalar(metric.segment_stats("a b", ["a b"])) == pytest.approx(1.0, abs=1e-12)


def test_nist_zero_prefix_follows_mteval_v13a_by_default() -> None:
    """mteval's Perl tests the bigram prefix "0" as false and divides by the total word count.

    Reference "0 a 0 b" (4 words): count(0) = 2, count(a) = count(b) = 1, each bigram once.
    Hypothesis = reference, so no length penalty; t_1 = 4, t_2 = 3, t_3 = 2.
    Unigrams: info(0) = log2(4/2) = 1 (twice), info(a) = info(b) = log2(4/1) = 2 → 6 / 4 = 1.5.
    Bigrams, mteval: "0 a" and "0 b" have the prefix "0" → log2(4/1) = 2 each; "a 0": log2(1/1) = 0
      → info_2 = 4, NISTi-2 = 4/3, NIST-2 = 1.5 + 4/3.
    Bigrams, intended: "0 a", "0 b" → log2(count(0)/1) = log2(2) = 1 each → info_2 = 2,
      NISTi-2 = 2/3, NIST-2 = 1.5 + 2/3.
    Trigrams "0 a 0", "a 0 b": prefix bigram seen once, trigram once → 0 bits in both, so
      NIST-3 = NIST-2 (a prefix "0 a" is a true string in Perl: no quirk beyond bigrams).
    """
    text = "0 a 0 b"
    for name, mteval, intended in (("NIST-2", 1.5 + 4 / 3, 1.5 + 2 / 3), ("NIST-3", 1.5 + 4 / 3, 1.5 + 2 / 3),
                                   ("NISTi-2", 4 / 3, 2 / 3), ("NISTi-3", 0.0, 0.0)):
        assert score(name, text, [text]) == pytest.approx(mteval, abs=1e-12)
        default = get_metric(name, MetricOptions(extra={"nist-info": "mteval"}))
        assert default.scalar(default.segment_stats(text, [text])) == pytest.approx(mteval, abs=1e-12)
        option = get_metric(name, MetricOptions(extra={"nist-info": "intended"}))
        assert option.scalar(option.segment_stats(text, [text])) == pytest.approx(intended, abs=1e-12)
        order, individual = int(name[-1]), name.startswith("NISTi")
        keyword = MtevalNist(name, order, individual, nist_info="intended")
        assert keyword.scalar(keyword.segment_stats(text, [text])) == pytest.approx(intended, abs=1e-12)


def test_nist_zero_quirk_is_only_the_string_zero() -> None:
    """Other tokens, even "00" or "0.0" (true strings in Perl), keep the prefix count in both variants.

    Reference "00 a 00 b": as above but every bigram is ordinary: "00 a", "00 b" → log2(2/1) = 1,
    "a 00" → 0: NIST-2 = 6/4 + 2/3. Same for "0.0".
    """
    for zero in ("00", "0.0"):
        text = f"{zero} a {zero} b"
        assert score("NIST-2", text, [text]) == pytest.approx(1.5 + 2 / 3, abs=1e-12)
        intended = get_metric("NIST-2", MetricOptions(extra={"nist-info": "intended"}))
        assert intended.scalar(intended.segment_stats(text, [text])) == pytest.approx(1.5 + 2 / 3, abs=1e-12)


def test_nist_zero_quirk_in_a_corpus_with_a_shorter_hypothesis() -> None:
    """Corpus weights and the length penalty with the quirk.

    References "0 x y" and "0 z w" (6 words): count(0) = 2, every other unigram and bigram once.
    Segment 1, hypothesis "0 x": t_1 = 2, t_2 = 1; info(0) = log2(6/2) = log2 3, info(x) = log2 6.
    "0 x": mteval log2(6/1) = log2 6, intended log2(2/1) = 1.
    c = 2, r̄ = 3: LP = exp(−β ln²(2/3)) = 0.5 (the penalty is 0.5 at 2/3 of the length).
    NIST-2 = 0.5 · ((log2 3 + log2 6)/2 + log2 6) with the quirk, 0.5 · ((log2 3 + log2 6)/2 + 1) without.
    """
    hypotheses, references = ["0 x", "0 z w"], [["0 x y", "0 z w"]]
    unigrams = (math.log2(3) + math.log2(6)) / 2
    for info, bigram in (("mteval", math.log2(6)), ("intended", 1.0)):
        metric = get_metric("NIST-2", MetricOptions(extra={"nist-info": info}))
        stats = metric.corpus_stats(hypotheses, references)
        assert metric.scalar(stats[0]) == pytest.approx(0.5 * (unigrams + bigram), abs=1e-12)


def test_nist_info_option_is_checked_and_signed() -> None:
    with pytest.raises(UsageError, match="unknown NIST information weights 'perl'"):
        get_metric("NIST", MetricOptions(extra={"nist-info": "perl"}))
    assert "info" not in get_metric("NIST").signature()
    assert get_metric("NIST", MetricOptions(extra={"nist-info": "intended"})).signature()["info"] == "intended"


# --- D.1 #6: closest reference length -----------------------------------------------------------


def test_closest_reference_length() -> None:
    """B.2.3: output 10, references {8, 9, 11, 15} → 9; mteval's own example (7; 11, 8, 6, 7) → 7; ties → shorter."""
    assert closest_length(10, [8, 9, 11, 15]) == 9
    assert closest_length(7, [11, 8, 6, 7]) == 7
    assert closest_length(7, [8, 6]) == 6
    assert closest_length(7, [6, 8]) == 6


def test_effective_reference_length_in_statistics() -> None:
    """The BLEU statistics carry the closest length (9) or, with brevity-penalty=shortest, the shortest (8)."""
    hypothesis = " ".join("h" * 10)
    references = [" ".join("r" * n) for n in (8, 9, 11, 15)]
    closest = get_metric("BLEU-1").segment_stats(hypothesis, references)
    shortest = get_metric("BLEU-1", MetricOptions(extra={"brevity-penalty": "shortest"})).segment_stats(hypothesis, references)
    assert (closest[:2].tolist(), shortest[:2].tolist()) == ([10, 9], [10, 8])


# --- D.1 #7: the LinearB sentence ---------------------------------------------------------------


def test_linearb_precisions() -> None:
    """A.2.2 recount: 15/18, 6/17, 3/16, 1/15 (lower-cased, as mteval without -c)."""
    precisions, length, _ = counts(LINEARB, LINEARB_REFS, case="ci")
    assert precisions == [Fraction(15, 18), Fraction(6, 17), Fraction(3, 16), Fraction(1, 15)]
    assert length == 18


def test_linearb_bleu_and_nist() -> None:
    """D.1 #7: BLEU 0.2462 and NIST 4.2602 (individual 4.1069 / 0.0778 / 0.0366 / 0.0390).

    0.2462 was produced by mteval-v11b, whose brevity penalty uses the shortest
    reference (14 words < 18: BP = 1); mteval-v13a's default closest length is
    19 (references 4 and 5), BP = exp(1 − 19/18), BLEU = 0.2329.
    """
    shortest = {"case": "ci", "extra": {"brevity-penalty": "shortest"}}
    assert round(score("BLEU-4", LINEARB, LINEARB_REFS, **shortest), 4) == 0.2462
    expected_closest = math.exp(1 - 19 / 18) * (15 / 18 * 6 / 17 * 3 / 16 * 1 / 15) ** 0.25
    assert score("BLEU-4", LINEARB, LINEARB_REFS, case="ci") == pytest.approx(expected_closest, abs=1e-15)
    assert round(expected_closest, 4) == 0.2329
    assert round(score("NIST", LINEARB, LINEARB_REFS, case="ci"), 4) == 4.2602
    assert round(score("NIST-1", LINEARB, LINEARB_REFS, case="ci"), 4) == 4.1069
    assert rounded([score(f"NISTi-{n}", LINEARB, LINEARB_REFS, case="ci") for n in (2, 3, 4)]) == [0.0778, 0.0366, 0.0390]


# --- D.1 #11: Koehn Exercise 1 ------------------------------------------------------------------


@pytest.mark.parametrize("case", ["cs", "ci"])
def test_exercise_1_bleu(case: str) -> None:
    """B.7 (b): p = 7/10, 4/9, 3/8, 2/7 with the period tokenized; BLEU 0.427287; mteval cumulative 0.7000 … 0.4273."""
    precisions, length, reference = counts(EXERCISE_SYS, [EXERCISE_REF], case=case)
    assert precisions == [Fraction(7, 10), Fraction(4, 9), Fraction(3, 8), Fraction(2, 7)]
    assert (length, reference) == (10, 10)
    assert round(score("BLEU-4", EXERCISE_SYS, [EXERCISE_REF], case=case), 6) == 0.427287
    assert rounded([score(f"BLEU-{n}", EXERCISE_SYS, [EXERCISE_REF], case=case) for n in range(1, 5)]) == [
        0.7000, 0.5578, 0.4886, 0.4273]


def test_exercise_1_nist_case() -> None:
    """B.7: mteval NIST = 2.3365 with -c (case=cs) and 2.1845 lower-cased (case=ci): "The"/"the" merge."""
    assert round(score("NIST", EXERCISE_SYS, [EXERCISE_REF], case="cs"), 4) == 2.3365
    assert round(score("NIST", EXERCISE_SYS, [EXERCISE_REF], case="ci"), 4) == 2.1845


# --- metric-literature §7 #1: E06-1032 ------------------------------------------------------------


def test_e06_1032_clipped_precisions() -> None:
    """15/18, 10/17, 5/16, 3/15 with lower-casing, punctuation as tokens, clipping by the best single reference."""
    precisions, _, _ = counts(ORE_HYP, ORE_REFS, case="ci")
    assert precisions == [Fraction(15, 18), Fraction(10, 17), Fraction(5, 16), Fraction(3, 15)]
    assert [round(float(p), 2) for p in precisions] == [0.83, 0.59, 0.31, 0.2]


# --- smoothing (Asiya's default BLEU) -----------------------------------------------------------


def test_default_bleu_is_mteval_smoothed() -> None:
    """mteval-v13a ``bleu_score``: the k-th order without matches counts 1/2^k matches.

    System A (single reference): p3 = 1/(2·4), p4 = 1/(4·3). sacreBLEU's default
    (smooth_method="exp") is the same smoothing: an independent check.
    """
    expected = math.exp(1 - 7 / 6) * (3 / 6 * 1 / 5 * 1 / 8 * 1 / 12) ** 0.25
    assert score("BLEU", SYSTEM_A, [REF]) == pytest.approx(expected, abs=1e-15)
    assert score("BLEU", SYSTEM_A, [REF]) == pytest.approx(sacrebleu.corpus_bleu([SYSTEM_A], [[REF]]).score / 100, abs=1e-12)
    assert score("BLEU", SYSTEM_B, [REF]) == pytest.approx(score("BLEU-4", SYSTEM_B, [REF]), abs=1e-15)


def test_smoothing_with_short_hypothesis_follows_mteval() -> None:
    """A 2-word hypothesis has no 3- or 4-grams: mteval scores those orders with log 1 = 0, not as misses."""
    value = score("BLEU", "the cat", ["the cat sat"])
    assert value == pytest.approx(math.exp(1 - 3 / 2) * (1 * 1 * 1 * 1) ** 0.25, abs=1e-15)
    assert score("BLEU", "", ["the cat"]) == 0.0
    assert score("BLEU-4", "", ["the cat"]) == 0.0
    assert score("NIST", "", ["the cat"]) == 0.0


# --- aggregation, vectorisation, options --------------------------------------------------------


def test_system_score_is_corpus_level() -> None:
    """Asiya Table 2: BLEU's set score comes from summed statistics, not the mean of segment scores."""
    metric = get_metric("BLEU-2")
    assert metric.aggregation is Aggregation.CORPUS
    stats = metric.corpus_stats([SYSTEM_A, SYSTEM_B], [[REF, REF]])
    # Summed: c = 12, r = 14, m1 = 3 + 6, t1 = 12, m2 = 1 + 4, t2 = 10.
    expected = math.exp(1 - 14 / 12) * math.sqrt(9 / 12 * 5 / 10)
    assert metric.system_score(stats) == pytest.approx(expected, abs=1e-15)
    assert metric.system_score(stats) != pytest.approx(metric.segment_scores(stats).mean())


@pytest.mark.parametrize("name", ["BLEU", "BLEU-3", "BLEUi-2", "NIST", "NISTi-2"])
def test_score_is_vectorised(name: str) -> None:
    """The resampler calls score() on (samples, k) arrays: rows must score like single vectors."""
    metric = get_metric(name)
    first_references = [FOUR_REFS[0], FOUR_REFS[1], EXERCISE_REF]
    second_references = [FOUR_REFS[1], FOUR_REFS[2], EXERCISE_REF]
    stats = metric.corpus_stats([SYSTEM_A, SYSTEM_B, EXERCISE_SYS], [first_references, second_references])
    batch = np.stack([stats, stats * 2])
    expected = [[metric.scalar(row) for row in block] for block in batch]
    assert np.any(np.asarray(expected) > 0)
    np.testing.assert_allclose(metric.score(batch), expected, rtol=0, atol=1e-15)


def test_thirteen_a_lowercasing_is_ascii_only() -> None:
    """mteval's default tokenization lower-cases with tr/[A-Z]/[a-z]/; its international mode with lc()."""
    assert mteval_tokens("13a", True)("Über Tag, OK.") == ("Über", "tag", ",", "ok", ".")
    assert mteval_tokens("intl", True)("Über Tag") == ("über", "tag")
    assert mteval_tokens("13a", False)("Über Tag") == ("Über", "Tag")


def test_signature_names_the_configuration() -> None:
    assert get_metric("BLEU").signature() == (
        "metric:BLEU|agg:corpus|tok:13a|case:mixed|order:4|type:cum|smooth:exp|bp:closest|impl:mteval-v13a|version:0.1.0"
    )
    assert get_metric("NISTi-3", MetricOptions(case="ci")).signature()["case"] == "lc"


def test_bad_options_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="unknown case option 'lower'"):
        get_metric("BLEU", MetricOptions(case="lower"))
    with pytest.raises(UsageError, match="unknown brevity penalty 'average'"):
        get_metric("BLEU", MetricOptions(extra={"brevity-penalty": "average"}))
    with pytest.raises(UsageError, match="unknown tokenizer 'moses'"):
        get_metric("NIST", MetricOptions(tokenize="moses"))


def test_bad_corpora_are_rejected() -> None:
    metric = get_metric("BLEU")
    with pytest.raises(CorpusMismatch, match="reference set 2 has 1 segments but the system output has 2"):
        metric.corpus_stats(["a", "b"], [["a", "b"], ["a"]])
    with pytest.raises(UsageError, match="at least one reference is needed"):
        metric.corpus_stats(["a"], [])


def test_nist_statistics_are_the_same_in_every_process() -> None:
    # Information sums used to follow a set's order, which Python's string hashing randomises per
    # process: NIST differed in the last bits from one run to the next.
    ted = Path(__file__).parent.parent / "data" / "metrics" / "ted" / "en-de"
    script = (
        "import sys; from pathlib import Path; from checkpoints.evaluate.metrics.registry import get_metric; "
        "ted = Path(sys.argv[1]); ref = (ted / 'ref.txt').read_text(encoding='utf-8').splitlines()[:60]; "
        "hyp = (ted / 'sys' / 'Nemo.txt').read_text(encoding='utf-8').splitlines()[:60]; "
        "print(get_metric('NIST').corpus_stats(hyp, [ref]).tobytes().hex())"
    )
    outputs = {
        subprocess.run([sys.executable, "-c", script, str(ted)], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1
