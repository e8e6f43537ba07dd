"""System comparison with significance (Zhou §6, Koehn 2004): flags where the answer is known,
the minimum category size, multiple-comparison correction, clusters, baseline, seeds, AR."""

from __future__ import annotations

import json

import numpy as np
import pytest

from checkpoints.errors import SuiteError, UsageError
from checkpoints.evaluate.comparison import compare
from checkpoints.evaluate.resample import Method, Resampler, ResampleSpec
from checkpoints.evaluate.scopes import Scope, ScopeKind, score_from_stats
from checkpoints.evaluate.scoring import CheckpointScorer, SystemScores
from checkpoints.evaluate.significance import Correction, adjust_p_values
from checkpoints.model import Level

PAIRS = 200
RARE = 10
CATEGORIES = [("Good", Level.WORD), ("Other", Level.WORD), ("Rare", Level.PHRASE), ("Rel", Level.SENTENCE)]


def translation(p: int, *, x: bool = True, z: bool = True, r: bool = True) -> str:
    """Pair p's reference is "x{p} y{p} z{p} r{p} q{p}"; a missing word becomes "u" (same length)."""
    return " ".join([f"x{p}" if x else "u", f"y{p}", f"z{p}" if z else "u", f"r{p}" if r else "u", f"q{p}"])


@pytest.fixture(scope="module")
def scorer(make_suite) -> CheckpointScorer:
    """200 pairs; Good, Other, Rel: one check-point per pair; Rare: only the first 10 pairs."""
    checkpoints = [
        (p + 1, category, [(0, f"{word}{p}", 1.0)])
        for p in range(PAIRS)
        for category, word in (("Good", "x"), ("Other", "y"), ("Rel", "r"), ("Rare", "z"))
        if category != "Rare" or p < RARE
    ]
    return CheckpointScorer(make_suite([[translation(p)] for p in range(PAIRS)], checkpoints, CATEGORIES))


@pytest.fixture(scope="module")
def systems(scorer: CheckpointScorer) -> dict[str, SystemScores]:
    """A perfect; C = A; B misses x on even pairs (Good .5), z on all Rare pairs, r when p % 10 < 3
    (Rel .7); D misses r when p % 10 < 6 (Rel .4)."""
    outputs = {
        "A": [translation(p) for p in range(PAIRS)],
        "B": [translation(p, x=p % 2 == 1, z=False, r=p % 10 >= 3) for p in range(PAIRS)],
        "C": [translation(p) for p in range(PAIRS)],
        "D": [translation(p, r=p % 10 >= 6) for p in range(PAIRS)],
    }
    return {name: scorer.score(lines) for name, lines in outputs.items()}


GOOD, OTHER, RARE_SCOPE, REL = (Scope(ScopeKind.CATEGORY, name) for name in ("Good", "Other", "Rare", "Rel"))


def test_system_scores_are_as_constructed(systems: dict[str, SystemScores]) -> None:
    categories = {name: {c: s.score for c, s in scores.report().categories.items()} for name, scores in systems.items()}
    assert categories["A"] == {"Good": 1.0, "Other": 1.0, "Rare": 1.0, "Rel": 1.0}
    assert categories["B"] == {"Good": 0.5, "Other": 1.0, "Rare": 0.0, "Rel": 0.7}
    assert categories["D"] == {"Good": 1.0, "Other": 1.0, "Rare": 1.0, "Rel": 0.4}


def test_identical_systems_are_never_significant(systems: dict[str, SystemScores]) -> None:
    comparison = compare({"A": systems["A"], "C": systems["C"]})
    (pair,) = comparison.pairs
    for result in pair.results:
        assert result.outcome.difference == 0.0
        assert result.outcome.p_value == 1.0
        assert result.outcome.interval == (0.0, 0.0)
        assert not result.significant
    assert comparison.clusters[GOOD] == [["A", "C"]]


def test_better_on_one_category_is_significant_there_only(systems: dict[str, SystemScores]) -> None:
    comparison = compare({"A": systems["A"], "B": systems["B"]})
    pair = comparison.pair("A", "B")
    flagged = {r.scope.name for r in pair.results if r.significant and r.scope.kind is ScopeKind.CATEGORY}
    assert flagged == {"Good", "Rel"}  # Rel is constructed worse for B too (.7); Other is identical
    good = pair.category("Good")
    assert (good.outcome.score_a, good.outcome.score_b, good.outcome.difference) == (1.0, 0.5, -0.5)
    low, high = good.outcome.interval
    assert low <= -0.5 <= high < 0
    assert good.outcome.t < -2.17
    other = pair.category("Other")
    assert (other.outcome.difference, other.outcome.p_value, other.significant) == (0.0, 1.0, False)
    # the word group holds Good and Other; the taxonomy everything
    assert pair.result(Scope(ScopeKind.GROUP, "word")).significant
    assert pair.result(Scope(ScopeKind.TAXONOMY, "test")).significant


def test_small_category_is_shown_but_never_flagged(systems: dict[str, SystemScores]) -> None:
    comparison = compare({"A": systems["A"], "B": systems["B"]})
    rare = comparison.pair("A", "B").category("Rare")
    assert rare.checkpoints == RARE
    assert rare.outcome.difference == -1.0
    assert rare.too_few and not rare.significant and rare.adjusted_p is None
    phrase = comparison.pair("A", "B").result(Scope(ScopeKind.GROUP, "phrase"))
    assert phrase.too_few and not phrase.significant
    lowered = compare({"A": systems["A"], "B": systems["B"]}, min_checkpoints=RARE).pair("A", "B").category("Rare")
    assert lowered.significant and not lowered.too_few


@pytest.mark.parametrize("correction", list(Correction))
def test_correction_family_is_the_eligible_categories(systems: dict[str, SystemScores], correction: Correction) -> None:
    pair = compare({"A": systems["A"], "B": systems["B"]}, correction=correction).pair("A", "B")
    family = [pair.category(name) for name in ("Good", "Other", "Rel")]
    expected = adjust_p_values([r.outcome.p_value for r in family], correction)
    assert [r.adjusted_p for r in family] == expected
    # groups are a family of their own: word and sentence (phrase holds only the 10 Rare ones)
    groups = [pair.result(Scope(ScopeKind.GROUP, name)) for name in ("word", "sentence")]
    assert [r.adjusted_p for r in groups] == adjust_p_values([r.outcome.p_value for r in groups], correction)
    top = pair.result(Scope(ScopeKind.TAXONOMY, "test"))
    assert top.adjusted_p == top.outcome.p_value  # a family of one


def test_t_statistic_is_difference_over_bootstrap_sd(systems: dict[str, SystemScores], scorer: CheckpointScorer) -> None:
    """t = (B − A) / sd of the resampled differences, the same resamples for both systems."""
    spec = ResampleSpec(samples=500, seed=7)
    good = compare({"A": systems["A"], "B": systems["B"]}, spec).pair("A", "B").category("Good")
    resampler = Resampler(PAIRS, spec)
    index = scorer.scopes.index(GOOD)
    boot = {name: score_from_stats(resampler.bootstrap_sums(systems[name].statistics()))[:, index] for name in "AB"}
    assert good.outcome.t == pytest.approx(-0.5 / np.std(boot["B"] - boot["A"], ddof=1), rel=1e-12)


def test_four_systems_form_significance_clusters(systems: dict[str, SystemScores]) -> None:
    comparison = compare(systems)
    assert [(p.system_a, p.system_b) for p in comparison.pairs] == [
        ("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D"), ("C", "D"),
    ]  # fmt: skip
    assert comparison.clusters[REL] == [["A", "C"], ["B"], ["D"]]
    assert comparison.cluster_text(REL) == "{A, C} > {B} > {D}"
    assert comparison.clusters[GOOD] == [["A", "C", "D"], ["B"]]
    assert comparison.clusters[RARE_SCOPE] == [["A", "C", "D", "B"]]  # too few: nobody differs
    assert comparison.clusters[OTHER] == [["A", "B", "C", "D"]]


def test_baseline_compares_every_other_system_against_it(systems: dict[str, SystemScores]) -> None:
    comparison = compare(systems, baseline="B")
    assert [(p.system_a, p.system_b) for p in comparison.pairs] == [("B", "A"), ("B", "C"), ("B", "D")]
    assert comparison.pair("B", "D").category("Rel").outcome.difference == pytest.approx(-0.3)
    assert comparison.pair("B", "D").category("Rel").significant
    assert comparison.clusters == {}


def test_seed_makes_results_reproducible(systems: dict[str, SystemScores]) -> None:
    pair = {"A": systems["A"], "B": systems["B"]}
    first = compare(pair, ResampleSpec(samples=300, seed=3)).to_json()
    assert compare(pair, ResampleSpec(samples=300, seed=3)).to_json() == first
    other = compare(pair, ResampleSpec(samples=300, seed=4)).to_json()
    assert other["comparisons"][0]["categories"]["Good"]["interval"] != first["comparisons"][0]["categories"]["Good"]["interval"]


def test_approximate_randomization(systems: dict[str, SystemScores]) -> None:
    spec = ResampleSpec(method=Method.AR, samples=500, seed=1)
    pair = compare({"A": systems["A"], "B": systems["B"]}, spec).pair("A", "B")
    assert pair.category("Good").significant
    assert pair.category("Good").outcome.p_value == pytest.approx(1 / 501)  # no trial reaches |−0.5|
    assert pair.category("Other").outcome.p_value == 1.0
    assert not pair.category("Rare").significant
    same = compare({"A": systems["A"], "C": systems["C"]}, spec).pair("A", "C")
    assert not any(r.significant for r in same.results)


def test_json_report(systems: dict[str, SystemScores]) -> None:
    data = json.loads(json.dumps(compare(systems, ResampleSpec(samples=200)).to_json()))
    assert data["correction"] == "holm"
    assert "within each system pair" in data["correction_family"]
    assert data["clusters"]["category:Rel"] == [["A", "C"], ["B"], ["D"]]
    assert data["scores"]["B"]["category:Rel"] == 0.7
    assert data["scores"]["D"]["category:Good"] == 1.0
    good = data["comparisons"][0]["categories"]["Good"]
    assert set(good) == {
        "kind", "checkpoints", "score_a", "score_b", "difference", "interval", "t", "p_value",
        "adjusted_p", "significant", "too_few",
    }  # fmt: skip
    assert data["comparisons"][0]["categories"]["Rare"]["too_few"] is True
    assert data["signature"].startswith("resample:bootstrap|samples:200|seed:12345|correction:holm|alpha:0.05|")
    assert "match:normal|tok:words|order:4" in data["signature"]


def test_bad_requests(systems: dict[str, SystemScores], scorer: CheckpointScorer) -> None:
    with pytest.raises(UsageError, match="at least two systems"):
        compare({"A": systems["A"]})
    with pytest.raises(SuiteError, match="baseline 'Z' is not among the compared systems"):
        compare(systems, baseline="Z")
    with pytest.raises(UsageError, match="unknown correction 'bonferroni'"):
        compare(systems, correction="bonferroni")
    with pytest.raises(UsageError, match="alpha"):
        compare(systems, alpha=1.5)
    other = CheckpointScorer(scorer.suite, match="lower").score([translation(p) for p in range(PAIRS)])
    with pytest.raises(UsageError, match="same check-point scorer"):
        compare({"A": systems["A"], "L": other})
