"""GTM-1/2/3: hand-worked matchings, Koehn's running example, aggregation, edge cases.

Oracles: Koehn ch. 8, Figure 8.4 / iqmt-koehn-reference.md B.2.1 (bag-of-words
F of systems A and B: 6/13 and 12/13), and GTM's definition (C.6):
MMS_e = (Σ|run|^e)^(1/e), P = MMS/|C|, R = MMS/|R|, F = 2PR/(P+R). For one
segment F = 2·MMS/(|C| + |R|).
"""

from __future__ import annotations

import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from checkpoints.evaluate.metrics.base import Aggregation, MetricOptions
from checkpoints.evaluate.metrics.gtm import greedy_runs, gtm_scores, matching_size
from checkpoints.evaluate.metrics.registry import get_metric, metric_names

DATA = Path(__file__).parent.parent / "data" / "metrics" / "fscore"

REF = "Israeli officials are responsible for airport security"
SYSTEM_A = "Israeli officials responsibility of airport safety"
SYSTEM_B = "airport security Israeli officials are responsible"


def gtm(name: str, hypothesis: str, references: list[str], **options: str) -> float:
    metric = get_metric(name, MetricOptions(**options))
    return metric.scalar(metric.segment_stats(hypothesis, references))


def test_registered_in_the_lexical_set() -> None:
    assert {"GTM-1", "GTM-2", "GTM-3"} <= set(metric_names("lexical"))
    assert get_metric("GTM-2").aggregation is Aggregation.CORPUS


def test_gtm1_is_koehns_bag_of_words_f_measure() -> None:
    # Koehn B.2.1: A has 3 correct words of 6 (ref 7): F = 2·3/(6+7) = 6/13;
    # B has all 6 words correct: F = 12/13.
    assert gtm("GTM-1", SYSTEM_A, [REF]) == pytest.approx(6 / 13, abs=1e-12)
    assert gtm("GTM-1", SYSTEM_B, [REF]) == pytest.approx(12 / 13, abs=1e-12)


def test_runs_of_system_b() -> None:
    # B against the reference: "Israeli officials are responsible" (4 words)
    # and "airport security" (2 words) are the runs.
    assert greedy_runs(tuple(SYSTEM_B.split()), tuple(REF.split())) == (4, 2)
    # GTM-2: MMS = sqrt(4² + 2²) = sqrt(20); F = 2·sqrt(20)/(6 + 7)
    assert gtm("GTM-2", SYSTEM_B, [REF]) == pytest.approx(2 * 20**0.5 / 13, abs=1e-12)
    # GTM-3: MMS = (4³ + 2³)^(1/3) = 72^(1/3)
    assert gtm("GTM-3", SYSTEM_B, [REF]) == pytest.approx(2 * 72 ** (1 / 3) / 13, abs=1e-12)
    # A: "Israeli officials" (2) and "airport" (1): GTM-2 F = 2·sqrt(5)/13
    assert gtm("GTM-2", SYSTEM_A, [REF]) == pytest.approx(2 * 5**0.5 / 13, abs=1e-12)


def test_longest_run_first_cuts_crossing_runs() -> None:
    # C = a b c d, R = c d a b c. Hits form the runs "a b c" (C0-2 ↔ R2-4)
    # and "c d" (C2-3 ↔ R0-1). The longest (3) is taken first; it uses C2, so
    # only "d" (C3 ↔ R1) is left of the other: runs (3, 1), Σr² = 10.
    assert greedy_runs(tuple("abcd"), tuple("cdabc")) == (3, 1)
    assert matching_size((3, 1), 2) == pytest.approx(10**0.5)
    # C = a b x a b c, R = a b c: the run "a b c" (C3-5) beats "a b" (C0-1),
    # which then has no free reference column left.
    assert greedy_runs(tuple("abxabc"), tuple("abc")) == (3,)


def test_ties_go_to_the_earliest_candidate_then_reference_position() -> None:
    # Two runs of 2 from C0: R0-1 and R2-3; the first is taken, and the
    # second is then blocked in the candidate.
    assert greedy_runs(tuple("ab"), tuple("abab")) == (2,)
    # Crossed words give two runs of one word each.
    assert greedy_runs(("a", "b"), ("b", "a")) == (1, 1)


def test_e1_matching_equals_clipped_unigram_counts_on_real_text() -> None:
    # GTM-1's greedy matching is a maximum matching, i.e. Σ_w min(count_C, count_R):
    # checked against Counter on 20 real TED segments (tokenized with 13a).
    metric = get_metric("GTM-1")
    references = (DATA / "ted-ende.ref.txt").read_text(encoding="utf-8").splitlines()
    for system in ("Online-W", "HuaweiTSC"):
        outputs = (DATA / f"ted-ende.{system}.txt").read_text(encoding="utf-8").splitlines()
        for output, reference in zip(outputs, references, strict=True):
            candidate, ref = metric._tokens(output), metric._tokens(reference)
            clipped = sum((Counter(candidate) & Counter(ref)).values())
            assert sum(greedy_runs(candidate, ref)) == clipped
            assert metric.scalar(metric.segment_stats(output, [reference])) == pytest.approx(
                2 * clipped / (len(candidate) + len(ref)), abs=1e-12
            )


def test_best_reference_is_kept() -> None:
    metric = get_metric("GTM-2")
    alone = metric.segment_stats(SYSTEM_B, [REF])
    # A worse reference first, then the good one: the statistics of the good one are kept.
    both = metric.segment_stats(SYSTEM_B, ["completely different words here", REF])
    np.testing.assert_array_equal(both, alone)
    np.testing.assert_array_equal(metric.segment_stats(SYSTEM_B, [REF, "airport security"]), alone)


def test_corpus_score_divides_summed_matching_sizes_by_summed_lengths() -> None:
    metric = get_metric("GTM-2")
    stats = metric.corpus_stats([SYSTEM_A, SYSTEM_B], [[REF, REF]])
    # A: MMS = sqrt(5), |C| = 6, |R| = 7; B: MMS = sqrt(20), 6, 7.
    np.testing.assert_allclose(stats, [[5**0.5, 6, 7], [20**0.5, 6, 7]])
    mms = 5**0.5 + 20**0.5
    precision, recall = mms / 12, mms / 14
    assert metric.system_score(stats) == pytest.approx(2 * precision * recall / (precision + recall), abs=1e-12)


def test_case_option() -> None:
    assert gtm("GTM-1", "AIRPORT security", ["airport security"]) == pytest.approx(0.5)
    assert gtm("GTM-1", "AIRPORT security", ["airport security"], case="ci") == pytest.approx(1.0)


def test_empty_segments_score_zero_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert gtm("GTM-2", "", [REF]) == 0.0
        assert gtm("GTM-2", SYSTEM_A, [""]) == 0.0
        assert gtm("GTM-2", "", [""]) == 0.0
        assert gtm_scores(np.zeros(3)) == 0.0


def test_score_is_vectorised_over_leading_axes() -> None:
    metric = get_metric("GTM-3")
    rows = metric.corpus_stats([SYSTEM_A, SYSTEM_B, "", "airport"], [[REF, REF, REF, REF]])
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 3, size=(5, 7, len(rows)))
    summed = counts @ rows  # (5, 7, 3): resamples of summed statistics
    scores = metric.score(summed)
    assert scores.shape == (5, 7)
    expected = np.array([[metric.scalar(summed[i, j]) for j in range(7)] for i in range(5)])
    np.testing.assert_allclose(scores, expected, rtol=0, atol=1e-15)


def test_signature_names_exponent_and_matching() -> None:
    signature = get_metric("GTM-3").signature().format()
    assert "metric:GTM-3|agg:corpus" in signature and "e:3|match:longest-run-first|refs:best" in signature
