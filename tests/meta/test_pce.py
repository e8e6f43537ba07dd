"""PCE, pairwise confidence error (Thompson et al. 2024; mt-metrics-eval ``pce.py``): hand-worked cases.

Definition (mt-metrics-eval ``pce.compute_one_minus_pce``): for every pair of
systems i < j, ``p[i, j]`` is the one-sided paired-permutation p-value that
system i beats system j (system score = sum of its segment scores; a
permutation swaps the two systems' scores on some segments; ``p = #(null
delta ≥ observed delta) / permutations``), once from human and once from
metric segment scores with the same permutations. PCE is the mean over the
pairs of ``|p_human − p_metric|``, an error (lower is better);
``compute_one_minus_pce`` returns ``1 − PCE``, which is SPA.

Most cases below pass every one of the 2^segments swap masks exactly once,
so each p-value is an exact count that can be worked out by hand. In a mask
row, ``True`` swaps that segment (sign −1), ``False`` keeps it (sign +1).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from checkpoints.cli import main
from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.criteria import SYSTEM_ONLY, Criterion
from checkpoints.evaluate.meta.judged import judged_from_mqm
from checkpoints.evaluate.meta.pairwise import (
    pairwise_confidence_error,
    pairwise_p_values,
    permutation_signs,
    soft_pairwise_accuracy,
)
from checkpoints.evaluate.meta.runner import MetaOptions, run_meta
from checkpoints.evaluate.metrics.base import Granularity, Metric
from checkpoints.io.mqm import read_mqm

NAN = math.nan


def every_mask(segments: int) -> np.ndarray:
    """All 2^segments swap masks, each once: p-values become exact counts over them."""
    return np.array(list(itertools.product([False, True], repeat=segments)))


# --- the statistic on given p-value matrices --------------------------------------------------------


def test_pce_of_given_p_value_matrices_by_hand() -> None:
    # Three systems: pairs (0,1), (0,2), (1,2) in the upper triangles; what lies on and below the
    # diagonal is not a p-value and must be ignored (filled with junk here).
    human_p = np.array([[7.0, 0.5, 0.25], [7.0, 7.0, 1.0], [7.0, 7.0, 7.0]])
    metric_p = np.array([[-3.0, 0.25, 0.25], [-3.0, -3.0, 0.5], [-3.0, -3.0, -3.0]])
    # |0.5 − 0.25| = 0.25, |0.25 − 0.25| = 0, |1.0 − 0.5| = 0.5 → PCE = (0.25 + 0 + 0.5) / 3 = 0.75 / 3 = 0.25.
    assert pairwise_confidence_error(human_p, metric_p) == 0.25
    # Identical matrices: every term 0. Opposite certainties (1 against 0 on every pair): every term 1.
    assert pairwise_confidence_error(human_p, human_p) == 0.0
    ones = np.triu(np.ones((3, 3)), k=1)
    assert pairwise_confidence_error(ones, np.zeros((3, 3))) == 1.0
    # One system has no pair: undefined.
    assert math.isnan(pairwise_confidence_error(np.array([[NAN]]), np.array([[NAN]])))


# --- p-values from segment scores, every mask once ----------------------------------------------------

# Three systems, two segments (4 masks: kept/kept, swap 1st, swap 2nd, both).
# Human segment scores: A = [2, 0], B = [1, 1], C = [0, 0].
#   (A,B): d = A − B = [1, −1], observed Σd = 0. Null s·d over the masks: (+,+) 0, (−,+) −2, (+,−) 2,
#          (−,−) 0 → three ≥ 0 → p = 3/4.
#   (A,C): d = [2, 0], observed 2. s·d = 2·s₁: 2, −2, 2, −2 → two ≥ 2 → p = 2/4.
#   (B,C): d = [1, 1], observed 2. s·d: 2, 0, 0, −2 → one ≥ 2 → p = 1/4.
HUMAN = np.array([[2.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
HUMAN_P = (0.75, 0.5, 0.25)
PAIRS = ((0, 1), (0, 2), (1, 2))


def upper(p: np.ndarray) -> tuple[float, ...]:
    return tuple(float(p[i, j]) for i, j in PAIRS)


def test_human_p_values_by_hand() -> None:
    assert upper(pairwise_p_values(HUMAN, every_mask(2))) == HUMAN_P


def test_perfect_metric_has_no_error() -> None:
    # Metric = 10·human + 3: every segment difference is 10 times the human one (the +3 cancels),
    # so for every mask "s·d_metric ≥ Σd_metric" ⇔ "10·s·d ≥ 10·Σd" ⇔ "s·d ≥ Σd": the same counts,
    # the same p-values, every term |p − p| = 0 → PCE = 0, SPA = 1.
    outcome = soft_pairwise_accuracy(HUMAN, 10 * HUMAN + 3, every_mask(2))
    assert upper(outcome.metric_p) == HUMAN_P
    assert outcome.pce == 0.0
    assert outcome.value == 1.0


def test_reversed_metric_by_hand() -> None:
    # Metric = −human: A = [−2, 0], B = [−1, −1], C = [0, 0].
    #   (A,B): d = [−1, 1], observed 0. s·d: (+,+) 0, (−,+) 2, (+,−) −2, (−,−) 0 → three ≥ 0 → 3/4
    #          (the two systems tie in total on both sides, so reversing changes nothing there).
    #   (A,C): d = [−2, 0], observed −2. s·d = −2·s₁: −2, 2, −2, 2 → all four ≥ −2 → 1.
    #   (B,C): d = [−1, −1], observed −2, the least s·d can be → all four → 1.
    # Terms: |3/4 − 3/4| = 0, |1/2 − 1| = 1/2, |1/4 − 1| = 3/4 → PCE = (0 + 1/2 + 3/4) / 3 = 5/12;
    # SPA = 1 − 5/12 = 7/12. Not 1: a reversed metric is only maximally wrong where the humans are sure.
    outcome = soft_pairwise_accuracy(HUMAN, -HUMAN, every_mask(2))
    assert upper(outcome.metric_p) == (0.75, 1.0, 1.0)
    assert outcome.pce == pytest.approx(5 / 12, abs=1e-15)
    assert outcome.value == pytest.approx(7 / 12, abs=1e-15)


def test_equal_systems_by_hand() -> None:
    # Humans score all three systems alike: A = B = C = [1, 1]. Every d = [0, 0], observed 0, every
    # null delta 0 ≥ 0 → p = 1 on every pair.
    equal = np.ones((3, 2))
    # A metric that also finds them equal (all [5, 2]): p = 1 everywhere too → PCE = 0.
    outcome = soft_pairwise_accuracy(equal, np.tile([5.0, 2.0], (3, 1)), every_mask(2))
    assert upper(outcome.human_p) == (1.0, 1.0, 1.0)
    assert (outcome.pce, outcome.value) == (0.0, 1.0)
    # A metric that prefers A: A = [1, 0], B = C = [0, 0].
    #   (A,B) and (A,C): d = [1, 0], observed 1; s·d = s₁: 1, −1, 1, −1 → two ≥ 1 → 1/2.
    #   (B,C): d = [0, 0] → 1.
    # Terms: 1/2, 1/2, 0 → PCE = 1/3.
    outcome = soft_pairwise_accuracy(equal, np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]]), every_mask(2))
    assert upper(outcome.metric_p) == (0.5, 0.5, 1.0)
    assert outcome.pce == pytest.approx(1 / 3, abs=1e-15)


def test_mt_metrics_eval_example() -> None:
    # mt-metrics-eval stats_test.testPairwiseConfidenceError: two systems, three segments,
    # gold [1, 2, 3 | 2, 3, 4], metric [2, 2, 4 | 1, 3, 5]; its PairwiseConfidenceError (which is
    # 1 − PCE) is 0.872 with 1000 random masks from its own generator.
    gold = np.array([[1.0, 2, 3], [2, 3, 4]])
    metric = np.array([[2.0, 2, 4], [1, 3, 5]])
    # Every mask once (8): gold d = [−1, −1, −1], observed −3, the least s·d can be → p = 8/8 = 1.
    # Metric d = [1, −1, −1], observed −1; s·d = s₁ − s₂ − s₃ < −1 only for (−,+,+) (= −3) → p = 7/8.
    # PCE = |1 − 7/8| = 1/8 = 0.125; 1 − PCE = 0.875, the exact value behind mt-metrics-eval's 0.872.
    outcome = soft_pairwise_accuracy(gold, metric, every_mask(3))
    assert (outcome.human_p[0, 1], outcome.metric_p[0, 1]) == (1.0, 0.875)
    assert (outcome.pce, outcome.value) == (0.125, 0.875)
    # With 1000 random masks p_metric is 1 − (share of masks that swap only the first segment, about 1/8):
    # 1 − PCE lands near 0.875 as mt-metrics-eval's does (binomial sd √(7/64/1000) ≈ 0.011).
    sampled = soft_pairwise_accuracy(gold, metric, permutation_signs(1000, 3, 4))
    assert sampled.human_p[0, 1] == 1.0
    assert abs(sampled.value - 0.875) < 0.05 and abs(sampled.value - 0.872) < 0.05


def test_pce_is_one_minus_spa() -> None:
    # mt-metrics-eval's compute_one_minus_pce returns 1 − mean|Δp|, the statistic published as SPA:
    # here both come from one pair of p-value matrices, so SPA = 1 − PCE exactly, and PCE is the
    # plain mean of |Δp| over the upper triangle (recomputed here one pair at a time).
    rng = np.random.default_rng(5)
    for systems in (2, 3, 6):
        human = rng.normal(size=(systems, 7))
        metric = human + rng.normal(scale=0.7, size=(systems, 7))
        outcome = soft_pairwise_accuracy(human, metric, permutation_signs(200, 7, 9))
        terms = [abs(outcome.human_p[i, j] - outcome.metric_p[i, j]) for i, j in itertools.combinations(range(systems), 2)]
        assert outcome.pce == pytest.approx(math.fsum(terms) / len(terms), abs=1e-12)
        assert outcome.value == 1.0 - outcome.pce
        assert 0.0 <= outcome.pce <= 1.0


def test_pce_is_system_level_only_and_has_no_clusters() -> None:
    assert Criterion.PCE in SYSTEM_ONLY and Criterion("pce") is Criterion.PCE
    with pytest.raises(UsageError, match="pce compares systems"):
        MetaOptions(level=Granularity.SEG, criteria=(Criterion.PCE,))
    with pytest.raises(UsageError, match="significance clusters are not defined for pce"):
        MetaOptions(clusters=Criterion.PCE)
    with pytest.raises(UsageError, match="cannot be searched by pce"):
        MetaOptions(optimize=Criterion.PCE)


# --- the runner on the TED MQM excerpt -----------------------------------------------------------------


def test_run_meta_pce_with_and_without_spa(meta_data: Path, token_count: Metric, unigram_hits: Metric) -> None:
    ted = judged_from_mqm(read_mqm(meta_data / "mqm_ted_ende.small.tsv"), "ref")
    both = run_meta(ted, [token_count, unigram_hits],
                    MetaOptions(criteria=(Criterion.SPA, Criterion.PCE), samples=200, seed=3))
    alone = run_meta(ted, [token_count, unigram_hits], MetaOptions(criteria=(Criterion.PCE,), samples=200, seed=3))
    for name in (token_count.name, unigram_hits.name):
        spa, pce = both.results[name][Criterion.SPA], both.results[name][Criterion.PCE]
        assert spa.r is not None and pce.r is not None
        assert spa.r == 1.0 - pce.r and pce.extra == spa.extra
        assert alone.results[name][Criterion.PCE] == pce
        assert list(alone.results[name]) == [Criterion.PCE]
        # PCE from the p-values reported beside it (human side shared in result.spa), pair by pair.
        human_p = alone.spa["human_p_values"] if alone.spa else {}
        metric_p = pce.extra["p_values"] if pce.extra else {}
        terms = [abs(human_p[a][b] - metric_p[a][b]) for a in human_p for b in human_p[a]]  # type: ignore[index]
        assert len(terms) == 13 * 12 // 2
        assert pce.r == pytest.approx(math.fsum(terms) / len(terms), abs=1e-12)
    assert alone.spa == both.spa and alone.spa is not None and alone.spa["segments"] == 3


# --- command line --------------------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    out, err = capsys.readouterr()
    return int(caught.value.code or 0), out, err


@pytest.mark.usefixtures("test_metrics")
def test_cli_pce_on_ted(meta_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tsv = str(meta_data / "mqm_ted_ende.small.tsv")
    code, out, err = run(
        ["meta", "--mqm", tsv, "--reference-system", "ref", "-m", "TEST-len,TEST-hits", "--criteria", "spa,pce",
         "--samples", "100", "--format", "json"],
        capsys,
    )
    assert code == 0, err
    document = json.loads(out)
    assert document["criteria"] == ["spa", "pce"] and "criteria:spa,pce" in document["signature"]
    human_p = document["spa"]["human_p_values"]
    for name in ("TEST-len", "TEST-hits"):
        result = document["results"][name]
        assert set(result["pce"]) == {"r", "ci", "p_values"} and result["pce"]["ci"] is None
        # PCE = mean over the 13·12/2 = 78 system pairs of |p_human − p_metric|, from the JSON's own p-values.
        metric_p = result["pce"]["p_values"]
        terms = [abs(human_p[a][b] - metric_p[a][b]) for a in human_p for b in human_p[a]]
        assert len(terms) == 78
        assert result["pce"]["r"] == pytest.approx(math.fsum(terms) / 78, abs=1e-12)
        assert result["spa"]["r"] == 1.0 - result["pce"]["r"]
    # The table heads the column with its direction and says what it is.
    code, out, err = run(
        ["meta", "--mqm", tsv, "--reference-system", "ref", "-m", "TEST-len", "--criteria", "pce", "--samples", "50"],
        capsys,
    )
    assert code == 0, err
    assert "pce ↓" in out and "lower is better" in out and "= 1 − spa" in out


# A made-up MQM file whose metric (hypothesis length, TEST-len) is perfect on segment scores:
# MQM score = −(minor errors) = tokens − 3 for every system and segment.
#   segment 1: A "a b c" 3 tokens, no error → 0;  B "a b" 2, one minor → −1;  C "a" 1, two minor → −2.
#   segment 2: A "x" 1, two minor → −2;  B "x y z" 3, no error → 0;  C "x y" 2, one minor → −1.
# For every pair the metric's segment differences equal the human ones (the −3 cancels), so for every
# permutation the metric's null delta and observed delta equal the human ones: identical p-values on
# every pair, PCE = 0 and SPA = 1 whatever masks the seed draws.
PERFECT = [
    ("A", 1, "a b c", "No-error", "No-error"),
    ("B", 1, "a b", "Accuracy/Mistranslation", "Minor"),
    ("C", 1, "a", "Accuracy/Mistranslation", "Minor"),
    ("C", 1, "a", "Fluency/Grammar", "Minor"),
    ("ref", 1, "a b c", "No-error", "No-error"),
    ("A", 2, "x", "Accuracy/Mistranslation", "Minor"),
    ("A", 2, "x", "Fluency/Grammar", "Minor"),
    ("B", 2, "x y z", "No-error", "No-error"),
    ("C", 2, "x y", "Accuracy/Mistranslation", "Minor"),
    ("ref", 2, "x y z", "No-error", "No-error"),
]


@pytest.mark.usefixtures("test_metrics")
def test_cli_perfect_metric_has_zero_pce(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    rows = "".join(f"{s}\tdoc\t1\t{seg}\trater1\tsource {seg}\t{t}\t{c}\t{v}\n" for s, seg, t, c, v in PERFECT)
    tsv = tmp_path / "perfect.tsv"
    tsv.write_text(header + rows, encoding="utf-8")
    judged = judged_from_mqm(read_mqm(tsv), "ref")
    assert {k: judged.segment_scores[k] for k in sorted(judged.segment_scores)} == pytest.approx(
        {("A", 0): 0.0, ("A", 1): -2.0, ("B", 0): -1.0, ("B", 1): 0.0, ("C", 0): -2.0, ("C", 1): -1.0}
    )
    code, out, err = run(
        ["meta", "--mqm", str(tsv), "--reference-system", "ref", "-m", "TEST-len", "--criteria", "pce,spa",
         "--samples", "64", "--format", "json"],
        capsys,
    )
    assert code == 0, err
    document = json.loads(out)
    result = document["results"]["TEST-len"]
    assert result["pce"]["r"] == 0.0 and result["spa"]["r"] == 1.0
    assert result["pce"]["p_values"] == document["spa"]["human_p_values"]
    assert document["spa"]["segments"] == 2
    # Not a trivial zero: (A,B) has d = [0 − (−1), −2 − 0] = [1, −2], observed −1; a mask swapping only
    # segment 1 gives −1 − 2 = −3 < −1, so p(A,B) < 1 once such a mask is among the 64 (each is, with
    # chance 1/4: missing from all 64 has chance (3/4)^64 ≈ 1e-8).
    assert document["spa"]["human_p_values"]["A"]["B"] < 1.0


def test_help_mentions_pce(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["meta", "--help"], capsys)
    assert code == 0
    assert "pce (pairwise confidence error" in " ".join(out.split())
