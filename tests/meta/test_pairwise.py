"""WMT / mt-metrics-eval statistics: hand-worked cases, and TED MQM values against loop re-implementations.

The re-implementations below follow mt-metrics-eval's definitions
(``stats.Agreement``, ``tau_optimization`` with ``acc_23``, ``pce.py``,
``PermutationSigDiff``) one pair and one permutation at a time, with exact
fractions where the library sums floats, so they share no code path with
:mod:`checkpoints.evaluate.meta.pairwise` beyond the permutation masks.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from checkpoints.cli import main
from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.clusters import assign_ranks, batch_statistic, permutation_sig_diff
from checkpoints.evaluate.meta.criteria import Criterion
from checkpoints.evaluate.meta.judged import judged_from_mqm, referents
from checkpoints.evaluate.meta.pairwise import (
    pairwise_accuracy,
    pairwise_p_values,
    permutation_signs,
    soft_pairwise_accuracy,
    tie_calibration,
    tie_calibration_grouped,
)
from checkpoints.evaluate.meta.runner import (
    MetaOptions,
    metric_values,
    run_meta,
    segment_statistics,
)
from checkpoints.evaluate.metrics.base import Granularity, Metric
from checkpoints.io.mqm import read_mqm

# --- independent loop implementations of the mt-metrics-eval definitions ---------------------------


def loop_agreement(x: list[float], y: list[float]) -> Fraction:
    pairs = list(itertools.combinations(range(len(x)), 2))
    agree = sum(np.sign(x[i] - x[j]) == np.sign(y[i] - y[j]) for i, j in pairs)
    return Fraction(int(agree), len(pairs))


def loop_acc23(rows: list[tuple[list[float], list[float]]]) -> tuple[Fraction, float]:
    """tau_optimization with acc_23, every pair, exact: thresholds 0 and every |Δm|, first maximum."""
    rows = [r for r in rows if len(r[0]) >= 2]
    candidates = sorted({0.0} | {abs(x[i] - x[j]) for x, _ in rows for i, j in itertools.combinations(range(len(x)), 2)})
    best: tuple[Fraction, float] | None = None
    for eps in candidates:
        total = Fraction(0)
        for x, y in rows:
            con_or_both = 0
            pairs = list(itertools.combinations(range(len(x)), 2))
            for i, j in pairs:
                metric_tie = abs(x[i] - x[j]) <= eps
                human_tie = y[i] == y[j]
                if (metric_tie and human_tie) or (not metric_tie and not human_tie and (x[i] - x[j]) * (y[i] - y[j]) > 0):
                    con_or_both += 1
            total += Fraction(con_or_both, len(pairs))
        value = total / len(rows)
        if best is None or value > best[0]:
            best = (value, eps)
    assert best is not None
    return best


def loop_p_values(scores: list[list[float]], swaps: np.ndarray) -> dict[tuple[int, int], float]:
    out = {}
    for i, j in itertools.combinations(range(len(scores)), 2):
        observed = math.fsum(scores[i]) - math.fsum(scores[j])
        count = 0
        for mask in swaps:
            a = math.fsum(scores[j][s] if m else scores[i][s] for s, m in enumerate(mask))
            b = math.fsum(scores[i][s] if m else scores[j][s] for s, m in enumerate(mask))
            count += (a - b) >= observed - 1e-9
        out[(i, j)] = count / len(swaps)
    return out


def loop_sig_diff_pearson(better: list[float], worse: list[float], y: list[float], swaps: np.ndarray) -> float:
    a, b = stats.zscore(better), stats.zscore(worse)
    delta = stats.pearsonr(a, y).statistic - stats.pearsonr(b, y).statistic
    count = 0
    for mask in swaps:
        first = [b[k] if m else a[k] for k, m in enumerate(mask)]
        second = [a[k] if m else b[k] for k, m in enumerate(mask)]
        count += stats.pearsonr(first, y).statistic - stats.pearsonr(second, y).statistic >= delta - 1e-12
    return count / len(swaps)


# --- hand-worked cases -----------------------------------------------------------------------------


def test_pairwise_accuracy_by_hand() -> None:
    # x = [1, 2, 3], y = [1, 3, 2]: pairs (0,1) Δx −1 Δy −2 agree; (0,2) −2/−1 agree; (1,2) −1/+1 not → 2/3.
    assert pairwise_accuracy(np.array([1, 2, 3]), np.array([1, 3, 2])) == pytest.approx(2 / 3)
    # Tied on both sides agrees: x = [1, 1, 2], y = [5, 5, 7] → 3/3.
    assert pairwise_accuracy(np.array([1, 1, 2]), np.array([5, 5, 7])) == 1.0
    # Tied on the metric side only disagrees: x = [1, 1, 2], y = [1, 2, 3] → 2/3.
    assert pairwise_accuracy(np.array([1, 1, 2]), np.array([1, 2, 3])) == pytest.approx(2 / 3)
    assert math.isnan(pairwise_accuracy(np.array([1.0]), np.array([2.0])))


def test_tie_calibration_chooses_epsilon() -> None:
    # x = [1, 2, 2.5], y = [1, 3, 3]. Pairs: (0,1) |Δx| 1 concordant; (0,2) 1.5 concordant; (1,2) 0.5, humans tie.
    # ε = 0: 2/3; ε = 0.5: (1,2) becomes a tie on both sides → 3/3; ε = 1: (0,1) tied by the metric only → 2/3;
    # ε = 1.5: 1/3. Best: ε = 0.5, acc-eq = 1.
    result = tie_calibration(np.array([1, 2, 2.5]), np.array([1, 3, 3]))
    assert (result.value, result.epsilon) == (1.0, 0.5)
    # No human tie: introducing metric ties only loses, so ε = 0 and acc-eq = pairwise accuracy (2/3).
    result = tie_calibration(np.array([1, 2, 3]), np.array([1, 3, 2]))
    assert (result.value, result.epsilon) == (pytest.approx(2 / 3), 0.0)
    # All humans tie: x = [0, 1, 2]; ε = 0: 0/3, ε = 1: 2/3, ε = 2: 3/3.
    assert tie_calibration(np.array([0, 1, 2]), np.array([4, 4, 4])).epsilon == 2.0


def test_tie_calibration_smallest_epsilon_among_equal_maxima() -> None:
    # x = [0, 1, 3], y = [0, 0, 1]: (0,1) |Δx| 1 humans tie; (0,2) 3 concordant; (1,2) 2 concordant.
    # ε = 0: 2/3; ε = 1: 3/3; ε = 2: 2/3; ε = 3: 1/3.
    assert tie_calibration(np.array([0, 1, 3]), np.array([0, 0, 1])).epsilon == 1.0
    # x = [0, 1, 2, 3], y = [0, 0, 1, 1]: ε = 0 → 4/6 (the four cross pairs);
    # ε = 1 → the two human ties join (6/6) but (1,2) |Δx| 1 is lost → 5/6; ε = 2 → 3/6 … maximum 5/6 at ε = 1 only.
    assert tie_calibration(np.array([0, 1, 2, 3]), np.array([0, 0, 1, 1])).value == pytest.approx(5 / 6)
    # Equal maxima: x = [0, 1], y = [0, 1] → ε = 0: 1; ε = 1: 0 → ε = 0. x = [0, 2, 3], y = [0, 1, 1]:
    # ε = 0: 2/3; ε = 1: 3/3; ε = 2: (0,1) lost 2/3; ε = 3: 1/3 → ε = 1. Both with the loop oracle too.
    for x, y in (([0, 1], [0, 1]), ([0, 2, 3], [0, 1, 1]), ([0, 1, 2, 3, 4], [0, 0, 1, 1, 1])):
        value, eps = loop_acc23([(x, y)])
        got = tie_calibration(np.array(x, float), np.array(y, float))
        assert (got.value, got.epsilon) == (pytest.approx(float(value)), eps)


def test_tie_calibration_grouped_by_hand() -> None:
    # Item 1: x = [1, 2, 2.5], y = [1, 3, 3] (as above); item 2: x = [0, 1], y = [0, 0] (humans tie, |Δx| 1).
    # ε = 0: (2/3 + 0)/2 = 1/3; ε = 0.5: (1 + 0)/2 = 1/2; ε = 1: (2/3 + 1)/2 = 5/6; ε = 1.5: (1/3 + 1)/2 = 2/3.
    result = tie_calibration_grouped([(np.array([1, 2, 2.5]), np.array([1, 3, 3])), (np.array([0, 1.0]), np.array([0, 0.0]))])
    assert result.epsilon == 1.0
    assert result.value == pytest.approx(5 / 6)
    assert result.item_values == pytest.approx((2 / 3, 1.0))


def test_tie_calibration_random_against_loop() -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        rows = [(list(rng.integers(0, 4, 5).astype(float)), list(rng.integers(0, 3, 5).astype(float))) for _ in range(3)]
        value, eps = loop_acc23(rows)
        grouped = tie_calibration_grouped([(np.array(x), np.array(y)) for x, y in rows])
        assert (grouped.value, grouped.epsilon) == (pytest.approx(float(value), abs=1e-12), eps)
        value, eps = loop_acc23(rows[:1])
        single = tie_calibration(np.array(rows[0][0]), np.array(rows[0][1]))
        assert (single.value, single.epsilon) == (pytest.approx(float(value), abs=1e-12), eps)


def test_spa_by_hand() -> None:
    # Two systems, two segments; the four possible swap masks, each once.
    swaps = np.array([[False, False], [True, False], [False, True], [True, True]])
    # Human A = [1, 0], B = [0, 0]: observed ΣA − ΣB = 1. Null deltas: none 1, swap seg 0 −1, swap seg 1 1
    # (equal scores there), both −1 → #(≥ 1) = 2 → p = 2/4.
    # Metric A = [0.5, 0.5], B = [0, 0]: observed 1; null: 1, 0, 0, −1 → p = 1/4.
    # SPA = 1 − |0.5 − 0.25| = 0.75.
    outcome = soft_pairwise_accuracy(np.array([[1.0, 0.0], [0.0, 0.0]]), np.array([[0.5, 0.5], [0.0, 0.0]]), swaps)
    assert outcome.human_p[0, 1] == 0.5
    assert outcome.metric_p[0, 1] == 0.25
    assert outcome.value == 0.75
    assert math.isnan(outcome.human_p[1, 0])


def test_p_values_three_systems_against_loop() -> None:
    scores = [[0.1, 0.7, 0.3, 0.0], [0.2, 0.2, 0.2, 0.2], [0.9, 0.0, 0.1, 0.4]]
    swaps = permutation_signs(500, 4, 3)
    got = pairwise_p_values(np.array(scores), swaps)
    for (i, j), p in loop_p_values(scores, swaps).items():
        assert got[i, j] == p


def test_permutation_sig_diff_by_hand() -> None:
    # y = [1, 2, 3]; better = [1, 2, 3] (accuracy 1), worse = [3, 2, 1] (accuracy 0); z-scores a = [−c, 0, c], b = −a.
    # Over the 8 masks: no swap → 1 − 0 = 1 ≥ 1; only the middle swapped (a₁ = b₁ = 0) → 1; first only → both
    # mixtures [c, 0, c] / [−c, 0, −c] score 1/3 → 0; last only → 0; the others are mirror images → −1 or 0.
    # p = 2/8.
    swaps = np.array(list(itertools.product([False, True], repeat=3)))
    statistic = batch_statistic(Criterion.PAIRWISE_ACCURACY, np.array([1.0, 2, 3]), None)
    p, delta = permutation_sig_diff(statistic, np.array([1.0, 2, 3]), np.array([3.0, 2, 1]), swaps)
    assert (p, delta) == (0.25, 1.0)


def test_assign_ranks_by_hand() -> None:
    # Sorted best first. p[0,1] = 0.2 (not significant): rank 1; p[0,2] = 0.01 ≤ 0.05: metric 2 opens rank 2.
    p = np.array([[1, 0.2, 0.01], [1, 1, 0.3], [1, 1, 1]])
    assert assign_ranks(p, 0.05) == [1, 1, 2]
    # Once metric 1 opens rank 2, only metrics from 1 on count: p[0,2] = 0.001 is ignored, p[1,2] = 0.5 → rank 2.
    p = np.array([[1, 0.01, 0.001], [1, 1, 0.5], [1, 1, 1]])
    assert assign_ranks(p, 0.05) == [1, 2, 2]


# --- TED MQM (tests/data/meta) ------------------------------------------------------------------------


@pytest.fixture
def ted(meta_data: Path):  # type: ignore[no-untyped-def]
    return judged_from_mqm(read_mqm(meta_data / "mqm_ted_ende.small.tsv"), "ref")


def test_ted_system_level_against_loops(ted, token_count: Metric, unigram_hits: Metric) -> None:  # type: ignore[no-untyped-def]
    options = MetaOptions(
        level=Granularity.SYS,
        criteria=(Criterion.PAIRWISE_ACCURACY, Criterion.ACC_EQ, Criterion.SPA),
        samples=300, seed=11, clusters=Criterion.PEARSON,
    )
    result = run_meta(ted, [token_count, unigram_hits], options)
    units = referents(ted, Granularity.SYS)
    y = [u.human for u in units]
    common = sorted(set.intersection(*({int(p) for p in u.positions} for u in units)))
    human = [[ted.segment_scores[(u.system, p)] for p in common] for u in units]
    swaps = permutation_signs(300, len(common), 11)
    human_p = loop_p_values(human, swaps)
    xs = {}
    for metric in (token_count, unigram_hits):
        stats_ = segment_statistics(ted, metric)
        x = list(metric_values(metric, stats_, units, Granularity.SYS))
        xs[metric.name] = x
        got = result.results[metric.name]
        assert got[Criterion.PAIRWISE_ACCURACY].r == pytest.approx(float(loop_agreement(x, y)), abs=1e-12)
        value, eps = loop_acc23([(x, y)])
        assert got[Criterion.ACC_EQ].r == pytest.approx(float(value), abs=1e-12)
        assert got[Criterion.ACC_EQ].extra == {"epsilon": eps}
        segs = [list(metric.segment_scores(np.nan_to_num(stats_[u.system]))[common]) for u in units]
        metric_p = loop_p_values(segs, swaps)
        spa = 1 - math.fsum(abs(human_p[k] - metric_p[k]) for k in human_p) / len(human_p)
        assert got[Criterion.SPA].r == pytest.approx(spa, abs=1e-12)
    assert result.spa is not None and result.spa["segments"] == len(common)
    # Clusters: PERM-BOTH p-value of the better metric over the worse one, with the same masks.
    clusters = result.clusters
    assert clusters is not None
    (best, _, _), (worse, _, _) = clusters.ranking
    expected = loop_sig_diff_pearson(xs[best], xs[worse], y, permutation_signs(300, len(y), 11))
    assert clusters.p_values[best][worse] == expected


def test_ted_segment_level_acc_eq_against_loops(ted, token_count: Metric) -> None:  # type: ignore[no-untyped-def]
    options = MetaOptions(level=Granularity.SEG, criteria=(Criterion.ACC_EQ, Criterion.PAIRWISE_ACCURACY))
    result = run_meta(ted, [token_count], options)
    units = referents(ted, Granularity.SEG)
    x = list(metric_values(token_count, segment_statistics(ted, token_count), units, Granularity.SEG))
    y = [u.human for u in units]
    value, eps = loop_acc23([(x, y)])
    pooled = result.results[token_count.name][Criterion.ACC_EQ]
    assert (pooled.r, pooled.extra) == (pytest.approx(float(value), abs=1e-12), {"epsilon": eps})
    assert result.results[token_count.name][Criterion.PAIRWISE_ACCURACY].r == pytest.approx(float(loop_agreement(x, y)))
    by_item: dict[int, list[int]] = {}
    for k, u in enumerate(units):
        by_item.setdefault(int(u.positions[0]), []).append(k)
    rows = [([x[k] for k in ks], [y[k] for k in ks]) for _, ks in sorted(by_item.items())]
    value, eps = loop_acc23(rows)
    assert result.grouped is not None
    grouped = result.grouped.results[token_count.name][Criterion.ACC_EQ]
    assert (grouped.r, grouped.extra) == (pytest.approx(float(value), abs=1e-12), {"epsilon": eps})


def test_spa_needs_system_level() -> None:
    with pytest.raises(UsageError, match="system level"):
        MetaOptions(level=Granularity.SEG, criteria=(Criterion.SPA,))
    with pytest.raises(UsageError, match="clusters"):
        MetaOptions(clusters=Criterion.SPA)


def test_permutation_test_is_fast() -> None:
    # 1000 permutations of 2000 referents, Pearson: one vectorised pass, well under a second.
    import time

    rng = np.random.default_rng(0)
    y = rng.normal(size=2000)
    statistic = batch_statistic(Criterion.PEARSON, y, None)
    start = time.perf_counter()
    permutation_sig_diff(statistic, y + rng.normal(size=2000), y + 2 * rng.normal(size=2000), permutation_signs(1000, 2000, 1))
    assert time.perf_counter() - start < 2.0


# --- command line -------------------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    out, err = capsys.readouterr()
    return int(caught.value.code or 0), out, err


@pytest.mark.usefixtures("test_metrics")
def test_cli_json_shape(meta_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tsv = str(meta_data / "mqm_ted_ende.small.tsv")
    code, out, err = run(
        ["meta", "--mqm", tsv, "--reference-system", "ref", "-m", "TEST-len,TEST-hits", "--criteria",
         "pairwise-accuracy,acc-eq,spa,pce", "--clusters", "pearson", "--samples", "100", "--format", "json"],
        capsys,
    )
    assert code == 0, err
    document = json.loads(out)
    result = document["results"]["TEST-len"]
    assert list(result) == ["pairwise-accuracy", "acc-eq", "spa", "pce"]
    assert set(result["acc-eq"]) == {"r", "ci", "epsilon"}
    assert set(result["spa"]) == {"r", "ci", "p_values"}
    # PCE comes from the same p-values as SPA: 1 − PCE is SPA (mt-metrics-eval compute_one_minus_pce).
    assert set(result["pce"]) == {"r", "ci", "p_values"} and result["pce"]["p_values"] == result["spa"]["p_values"]
    assert result["spa"]["r"] == 1.0 - result["pce"]["r"]
    systems = list(result["spa"]["p_values"])
    assert len(systems) == 12 and len(result["spa"]["p_values"][systems[0]]) == 12
    assert set(document["spa"]) == {"segments", "human_p_values"}
    assert document["samples"] == 100 and document["seed"] == 12345
    assert document["clusters"]["criterion"] == "pearson"
    assert document["clusters"]["ranking"][0]["rank"] == 1
    assert "clusters:pearson" in document["signature"]
    code, out, err = run(
        ["meta", "--mqm", tsv, "--reference-system", "ref", "-m", "TEST-len,TEST-hits", "-g", "seg",
         "--criteria", "acc-eq", "--clusters", "kendall", "--samples", "50", "--format", "json"],
        capsys,
    )
    assert code == 0, err
    document = json.loads(out)
    assert set(document["results"]["TEST-len"]["acc-eq"]) == {"r", "ci", "epsilon"}
    assert set(document["grouped"]["results"]["TEST-len"]["acc-eq"]) == {"r", "ci", "epsilon", "items"}
    assert document["clusters"]["criterion"] == "kendall"
    assert len(document["grouped"]["clusters"]["ranking"]) == 2


@pytest.mark.usefixtures("test_metrics")
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--criteria", "spa", "-g", "seg"], "spa compares systems"),
        (["--clusters", "spa"], "significance clusters are not defined for spa"),
        (["--criteria", "pce", "-g", "doc"], "pce compares systems"),
        (["--clusters", "pce"], "significance clusters are not defined for pce"),
        (["--clusters", "pearson,kendall"], "--clusters takes one criterion"),
        (["--clusters", "tau"], "unknown criterion 'tau'"),
    ],
)
def test_cli_bad_input_one_line(
    meta_data: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    tsv = str(meta_data / "mqm_ted_ende.small.tsv")
    code, out, err = run(["meta", "--mqm", tsv, "--reference-system", "ref", "-m", "TEST-len", *arguments], capsys)
    assert code != 0 and out == ""
    assert message in err
    assert err.count("\n") == 1
