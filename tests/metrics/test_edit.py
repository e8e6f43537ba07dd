"""-WER, -PER, -TER, -TERbase and CDER against the worked examples of the sources.

Sources: iqmt-koehn-reference.md B.2.1–B.2.2 (D.1 #1, #2), B.7 (#11),
C.4, C.5, C.10; metric-literature-reference.md §4.2 (W07-0707, E06-1031) and
§7 #2 (W07-0707 WER/PER/FPER) and #4 (E06-1031 Table 1 substitution costs).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import lib_ter

from checkpoints.errors import CorpusMismatch, UsageError
from checkpoints.evaluate.metrics.base import Aggregation, MetricOptions
from checkpoints.evaluate.metrics.edit import (
    BeamEditDistance,
    cder_distance,
    levenshtein,
    levenshtein_matrix,
    levenshtein_substitution_cost,
    per_distance,
    per_errors,
    prefix_substitution_cost,
    ter_edits,
)
from checkpoints.evaluate.metrics.registry import get_metric

REF = "Israeli officials are responsible for airport security"
SYSTEM_A = "Israeli officials responsibility of airport safety"
SYSTEM_B = "airport security Israeli officials are responsible"

# W07-0707 Tables 1–3 (metric-literature §7 #2).
W07_REF = "Mister Commissioner , twenty-four hours sometimes can be too much time ."
W07_HYP = "Mrs Commissioner , twenty-four hours is sometimes too much time ."


def score(name: str, hypothesis: str, references: list[str], **options: object) -> float:
    metric = get_metric(name, MetricOptions(**options))  # type: ignore[arg-type]
    return metric.scalar(metric.segment_stats(hypothesis, references))


# --- WER (D.1 #2, #11; W07-0707) ------------------------------------------------------------------


def test_koehn_wer_matrices() -> None:
    """Koehn Figure 8.5 (iqmt-koehn B.2.2): both full matrices, rows = reference prefixes."""
    expected_a = [
        [0, 1, 2, 3, 4, 5, 6],
        [1, 0, 1, 2, 3, 4, 5],
        [2, 1, 0, 1, 2, 3, 4],
        [3, 2, 1, 1, 2, 3, 4],
        [4, 3, 2, 2, 2, 3, 4],
        [5, 4, 3, 3, 3, 3, 4],
        [6, 5, 4, 4, 4, 3, 4],
        [7, 6, 5, 5, 5, 4, 4],
    ]
    expected_b = [
        [0, 1, 2, 3, 4, 5, 6],
        [1, 1, 2, 2, 3, 4, 5],
        [2, 2, 2, 3, 2, 3, 4],
        [3, 3, 3, 3, 3, 2, 3],
        [4, 4, 4, 4, 4, 3, 2],
        [5, 5, 5, 5, 5, 4, 3],
        [6, 5, 6, 6, 6, 5, 4],
        [7, 6, 5, 6, 7, 6, 5],
    ]
    assert levenshtein_matrix(SYSTEM_A.split(), REF.split()).tolist() == expected_a
    assert levenshtein_matrix(SYSTEM_B.split(), REF.split()).tolist() == expected_b


def test_koehn_wer() -> None:
    """D.1 #2: A distance 4 → WER 4/7; B distance 5 → WER 5/7 (negated by -WER)."""
    assert (levenshtein(SYSTEM_A.split(), REF.split()), levenshtein(SYSTEM_B.split(), REF.split())) == (4, 5)
    assert score("-WER", SYSTEM_A, [REF]) == -4 / 7
    assert score("-WER", SYSTEM_B, [REF]) == -5 / 7


def test_exercise_1_wer() -> None:
    """B.7 (a): 3 substitutions over 10 tokens, the period tokenized by 13a → 0.30."""
    assert score("-WER", "The big dog chases a man across the street.", ["The large dog chased the man across the street."]) == -0.3


def test_w07_0707_wer_per_fper() -> None:
    """W07-0707: WER 4/12, PER 3/12; herr = 2, rerr = 3, FPER = 5/23."""
    assert score("-WER", W07_HYP, [W07_REF]) == -4 / 12
    assert score("-PER", W07_HYP, [W07_REF]) == -3 / 12
    matches, reference_errors, hypothesis_errors = per_errors(W07_HYP.split(), W07_REF.split())
    assert (matches, reference_errors, hypothesis_errors) == (9, 3, 2)
    assert (reference_errors + hypothesis_errors) / (len(W07_REF.split()) + len(W07_HYP.split())) == 5 / 23


def test_levenshtein_matches_a_plain_dynamic_programme() -> None:
    """The row-vectorised matrix equals the textbook cell-by-cell recurrence on random sentences."""
    generator = random.Random(7)
    for _ in range(200):
        hyp = [generator.choice("abcd") for _ in range(generator.randint(0, 9))]
        ref = [generator.choice("abcd") for _ in range(generator.randint(0, 9))]
        table = [[0] * (len(hyp) + 1) for _ in range(len(ref) + 1)]
        for i in range(len(ref) + 1):
            for j in range(len(hyp) + 1):
                if i == 0 or j == 0:
                    table[i][j] = i + j
                else:
                    table[i][j] = min(table[i - 1][j - 1] + (ref[i - 1] != hyp[j - 1]),
                                      table[i - 1][j] + 1, table[i][j - 1] + 1)
        assert levenshtein_matrix(hyp, ref).tolist() == table


def test_multi_reference_wer_uses_the_best_reference() -> None:
    """C.10 / W07-0707: fewest edits, normalised by that reference's length; ties → the longer reference."""
    metric = get_metric("-WER")
    # "a b d": 1 edit over 3 words; "a b c d e": 2 edits over 5 words (a lower rate, but more edits).
    assert metric.segment_stats("a b c", ["a b d", "a b c d e"]).tolist() == [1.0, 3.0]
    # "a b c d" and "a b d" both need 1 edit: the longer one gives the lower sentence error rate.
    assert metric.segment_stats("a b c", ["x y z", "a b c d", "a b d"]).tolist() == [1.0, 4.0]


def test_error_rates_are_corpus_level() -> None:
    """Summed edits over summed reference lengths: (4 + 5) / (7 + 7)."""
    metric = get_metric("-WER")
    assert metric.aggregation is Aggregation.CORPUS
    stats = metric.corpus_stats([SYSTEM_A, SYSTEM_B], [[REF, REF]])
    assert metric.system_score(stats) == -9 / 14


def test_empty_references() -> None:
    """No reference words: rate 1 when anything must be edited, 0 when both sides are empty (sacreBLEU's TER rule)."""
    assert score("-WER", "a b", [""]) == -1.0
    assert score("-WER", "", [""]) == 0.0
    assert score("-WER", "", ["a b"]) == -1.0


def test_case_option() -> None:
    assert score("-WER", "The Cat", ["the cat"]) == -1.0
    assert score("-WER", "The Cat", ["the cat"], case="ci") == 0.0


# --- PER (D.1 #1) ---------------------------------------------------------------------------------


def test_koehn_per() -> None:
    """Koehn eq. 8.6: A 4/7, B 1/7 (superfluous words count as errors)."""
    assert (per_distance(SYSTEM_A.split(), REF.split()), per_distance(SYSTEM_B.split(), REF.split())) == (4, 1)
    assert score("-PER", SYSTEM_A, [REF]) == -4 / 7
    assert score("-PER", SYSTEM_B, [REF]) == -1 / 7
    assert per_distance(["a", "a", "a", "b"], ["a", "b"]) == 2  # max(2, 4) − 2 matches


# --- TER (C.4) ------------------------------------------------------------------------------------


def test_ter_counts_a_block_shift_as_one_edit() -> None:
    """C.4: moving "a" (or the block "a b") to the front is one edit: 1/3 and 1/4."""
    assert score("-TER", "b c a", ["a b c"]) == -1 / 3
    assert score("-TER", "c d a b", ["a b c d"]) == -1 / 4
    assert score("-WER", "c d a b", ["a b c d"]) == -1.0


def test_ter_uses_the_average_reference_length() -> None:
    """C.4 (multiple references): edits to the closest reference over the average reference length."""
    metric = get_metric("-TER")
    assert metric.segment_stats("a b c", ["a b c", "a b c d e"]).tolist() == [0.0, 4.0]
    assert metric.segment_stats("a b x", ["a b c", "a b c d e"]).tolist() == [1.0, 4.0]


def test_ter_and_terbase_are_the_same_computation() -> None:
    """sacreBLEU's TER has no stemming or synonyms: -TER is TERbase."""
    for hypothesis in (SYSTEM_A, SYSTEM_B):
        assert score("-TER", hypothesis, [REF]) == score("-TERbase", hypothesis, [REF])


def test_ter_case_option_maps_to_case_sensitive() -> None:
    """case=ci is sacreBLEU's default (case_sensitive=False); case=cs keeps case."""
    assert score("-TER", "A B c", ["a b c"], case="ci") == 0.0
    assert score("-TER", "A B c", ["a b c"], case="cs") == -2 / 3


def test_ter_signature_reports_tercom_preprocessing() -> None:
    signature = get_metric("-TER").signature().format()
    assert "tok:tercom" in signature and "stem:no" in signature


words = st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=14)


@settings(max_examples=300, deadline=None)
@given(words, words)
def test_beam_edit_distance_equals_sacrebleu(hypothesis: list[str], reference: list[str]) -> None:
    """Same distances and the same edit traces (tercom's tie-breaking) as lib_ter.BeamEditDistance."""
    ours, theirs = BeamEditDistance(reference), lib_ter.BeamEditDistance(reference)
    assert ours(hypothesis) == theirs(hypothesis)


@settings(max_examples=300, deadline=None)
@given(words, words)
def test_ter_edits_equal_sacrebleu(hypothesis: list[str], reference: list[str]) -> None:
    """Small vocabularies force many shift candidates: the edit counts stay sacreBLEU's."""
    assert ter_edits(hypothesis, reference) == lib_ter.translation_edit_rate(hypothesis, reference)


def test_beam_edit_distance_with_a_narrow_beam() -> None:
    """Long sentences (beyond the 25-cell half-beam) and very unequal lengths match sacreBLEU too."""
    generator = random.Random(3)
    for hyp_length, ref_length in [(80, 75), (120, 3), (4, 140), (60, 60)]:
        hypothesis = [generator.choice("abcdefgh") for _ in range(hyp_length)]
        reference = [generator.choice("abcdefgh") for _ in range(ref_length)]
        assert BeamEditDistance(reference)(hypothesis) == lib_ter.BeamEditDistance(reference)(hypothesis)
        assert ter_edits(hypothesis, reference) == lib_ter.translation_edit_rate(hypothesis, reference)


def test_full_row_cache_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the row cache is full (sacreBLEU bounds it too), rows are computed without being stored."""
    from checkpoints.evaluate.metrics import edit

    monkeypatch.setattr(edit, "_MAX_CACHED_ROWS", 5)
    generator = random.Random(5)
    for _ in range(50):
        hypothesis = [generator.choice("abcde") for _ in range(generator.randint(0, 15))]
        reference = [generator.choice("abcde") for _ in range(generator.randint(1, 15))]
        assert ter_edits(hypothesis, reference) == lib_ter.translation_edit_rate(hypothesis, reference)


# --- CDER (C.5; E06-1031) ------------------------------------------------------------------------


def test_cder_block_movement() -> None:
    """E06-1031 recursion: "c d a b" → "a b c d" = jump (1) + "a b" + jump back (1) + "c d" + jump to the end (1) = 3."""
    assert cder_distance(["c", "d", "a", "b"], ["a", "b", "c", "d"]) == 3.0
    assert score("-CDER", "c d a b", ["a b c d"]) == -3 / 4
    assert score("CDER", "c d a b", ["a b c d"]) == 3 / 4


def test_cder_koehn_examples() -> None:
    """System B covers "Israeli officials are responsible" after one jump, then "for", then "airport security"
    after a second jump, and jumps to the end: 4 (WER 5). System A needs 4 as WER does."""
    assert cder_distance(SYSTEM_B.split(), REF.split()) == 4.0
    assert cder_distance(SYSTEM_A.split(), REF.split()) == 4.0
    assert cder_distance(REF.split(), REF.split()) == 0.0


def test_cder_covers_reference_words_once_and_candidate_words_freely() -> None:
    """Reference words are covered exactly once, candidate words any number of times (C.5)."""
    assert cder_distance(["a", "b"], ["a", "b", "a", "b"]) == 1.0  # one jump back reuses "a b"
    assert cder_distance(["a", "b", "a", "b"], ["a", "b"]) == 1.0  # one jump skips the unused rest
    assert cder_distance([], ["a", "b"]) == 2.0
    assert cder_distance(["a", "b"], []) == 1.0


def test_cder_never_exceeds_wer() -> None:
    generator = random.Random(11)
    for _ in range(200):
        hyp = [generator.choice("abc") for _ in range(generator.randint(0, 8))]
        ref = [generator.choice("abc") for _ in range(generator.randint(1, 8))]
        assert cder_distance(hyp, ref) <= levenshtein(hyp, ref)


@pytest.mark.parametrize(("a", "b", "levenshtein_cost", "prefix_cost"), [
    ("usual", "unusual", 2 / 7, 1 - 1 / 6),
    ("understanding", "misunderstanding", 3 / 16, 1.0),
    ("talk", "talks", 1 / 5, 1 - 4 / 4.5),
])
def test_e06_1031_substitution_costs(a: str, b: str, levenshtein_cost: float, prefix_cost: float) -> None:
    """E06-1031 Table 1 (metric-literature §7 #4): 0.29 / 0.83, 0.19 / 1.00, 0.20 / 0.11."""
    assert levenshtein_substitution_cost(a, b) == pytest.approx(levenshtein_cost, abs=1e-15)
    assert prefix_substitution_cost(a, b) == pytest.approx(prefix_cost, abs=1e-15)
    assert levenshtein_substitution_cost(b, a) == pytest.approx(levenshtein_cost, abs=1e-15)
    assert levenshtein_substitution_cost(a, a) == prefix_substitution_cost(a, a) == 0.0


def test_cder_with_word_dependent_costs() -> None:
    """E06-1031 replaces 1 − δ(e, ẽ) by c_SUB: talks/talk costs 0.2 or 0.11 instead of 1."""
    assert cder_distance(["talks"], ["talk"]) == 1.0
    assert cder_distance(["talks"], ["talk"], levenshtein_substitution_cost) == pytest.approx(0.2, abs=1e-15)
    assert cder_distance(["talks"], ["talk"], prefix_substitution_cost) == pytest.approx(1 / 9, abs=1e-15)


# --- contract and errors --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["-WER", "-PER", "-TER", "-TERbase", "-CDER", "CDER"])
def test_score_is_vectorised(name: str) -> None:
    metric = get_metric(name)
    stats = metric.corpus_stats([SYSTEM_A, SYSTEM_B, "c d a b"], [[REF, REF, "a b c d"]])
    batch = np.stack([stats, stats[::-1] * 3])
    expected = [[metric.scalar(row) for row in block] for block in batch]
    np.testing.assert_array_equal(metric.score(batch), expected)


def test_bad_input() -> None:
    with pytest.raises(CorpusMismatch, match="reference set 1 has 2 segments but the system output has 1"):
        get_metric("-TER").corpus_stats(["a"], [["a", "b"]])
    with pytest.raises(UsageError, match="unknown case option 'CS'"):
        get_metric("-WER", MetricOptions(case="CS"))
    with pytest.raises(UsageError, match="unknown tokenizer 'spacy'"):
        get_metric("-PER", MetricOptions(tokenize="spacy"))


def test_levenshtein_row_by_row_equals_the_matrix_corner() -> None:
    import random

    rng = random.Random(7)
    for _ in range(200):
        hyp = [rng.choice("abcde") for _ in range(rng.randrange(0, 12))]
        ref = [rng.choice("abcde") for _ in range(rng.randrange(0, 12))]
        assert levenshtein(hyp, ref) == levenshtein_matrix(hyp, ref)[-1, -1]
