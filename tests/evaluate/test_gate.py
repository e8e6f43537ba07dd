"""The gate's decision rule on hand-made outcomes: significant, large enough, a drop, enough check-points."""

from __future__ import annotations

import pytest

from checkpoints.errors import UsageError
from checkpoints.evaluate.comparison import ScopeComparison
from checkpoints.evaluate.gate import METRIC_DROPS, GateRules, Outcome, Verdict, _scope_verdict
from checkpoints.evaluate.resample import PairedOutcome
from checkpoints.evaluate.scopes import Scope, ScopeKind


def _result(difference: float, significant: bool, *, too_few: bool = False, name: str = "Verb") -> ScopeComparison:
    outcome = PairedOutcome(0.5, 0.5 + difference, difference, (difference - 0.01, difference + 0.01), -3.0, 0.001)
    return ScopeComparison(Scope(ScopeKind.CATEGORY, name), 40, outcome, None if too_few else 0.01, significant, too_few)


@pytest.mark.parametrize(
    ("difference", "significant", "too_few", "expected"),
    [
        (-0.03, True, False, Outcome.FAILED),     # significant and at least the minimum drop
        (-0.02, True, False, Outcome.FAILED),     # exactly the minimum drop fails
        (-0.019, True, False, Outcome.PASSED),    # significant but under the minimum drop
        (-0.30, False, False, Outcome.PASSED),    # large but not significant
        (+0.30, True, False, Outcome.PASSED),     # a significant gain is never a regression
        (-0.30, False, True, Outcome.TOO_FEW),    # too few check-points: never failed
    ],
)
def test_a_scope_fails_only_when_significant_and_large_enough(difference: float, significant: bool, too_few: bool,
                                                              expected: Outcome) -> None:
    verdict = _scope_verdict(_result(difference, significant, too_few=too_few), GateRules(min_drop=0.02))
    assert verdict.outcome is expected
    assert verdict.failed is (expected is Outcome.FAILED)


def test_category_drops_override_the_minimum_drop_for_that_category_only() -> None:
    rules = GateRules(min_drop=0.02, category_drops={"Verb": 0.05})
    assert _scope_verdict(_result(-0.03, True), rules).outcome is Outcome.PASSED
    assert _scope_verdict(_result(-0.03, True, name="Noun"), rules).outcome is Outcome.FAILED
    assert rules.drop_for(ScopeKind.GROUP, "Verb") == 0.02  # a group named like a category keeps the default


def test_messages_say_what_happened() -> None:
    failed = _scope_verdict(_result(-0.03, True), GateRules())
    assert failed.message() == "category Verb regressed by 0.0300 ≥ 0.02: -0.0300 (95% interval -0.0400 to -0.0200, p=0.0100)"
    assert "passed (not significant)" in _scope_verdict(_result(-0.03, False), GateRules()).message()
    assert "passed (drop under 0.02)" in _scope_verdict(_result(-0.01, True), GateRules()).message()
    assert "passed (no drop)" in _scope_verdict(_result(0.01, True), GateRules()).message()
    assert "40 check-points, too few to gate" in _scope_verdict(_result(-0.5, False, too_few=True), GateRules()).message()


def test_metric_drops_default_to_kocmi_et_al_2024_table_1_at_75_percent() -> None:
    # Table 1 of "Navigating the Metrics Maze" (Kocmi, Zouhar, Federmann, Post 2024): BLEU 1.79, chrF 1.28
    assert METRIC_DROPS == {"BLEU": 0.0179, "chrF": 1.28}
    rules = GateRules(metrics={"BLEU": None, "chrF": 2.0, "-TER": 0.01})
    assert rules.metric_drop("BLEU") == 0.0179 and rules.metric_drop("chrF") == 2.0 and rules.metric_drop("-TER") == 0.01
    with pytest.raises(UsageError, match="metric NIST has no default minimum drop"):
        GateRules(metrics={"NIST": None}).metric_drop("NIST")


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"scopes": ("category", "word")}, "unknown scope kind 'word'"),
        ({"min_drop": -0.1}, "min drop must be a number ≥ 0"),
        ({"category_drops": {"Verb": float("nan")}}, "Verb must be a number ≥ 0"),
        ({"metrics": {"BLEU": -1.0}}, "BLEU must be a number ≥ 0"),
    ],
)
def test_bad_rules_are_refused(rules: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        GateRules(**rules)


def test_a_result_passes_when_no_rule_failed() -> None:
    from checkpoints.evaluate.gate import GateResult

    passed = _scope_verdict(_result(-0.01, True), GateRules())
    failed = _scope_verdict(_result(-0.05, True), GateRules())
    assert GateResult("s", "a", "b", (passed,), "sig").passed
    result = GateResult("s", "a", "b", (passed, failed), "sig")
    assert not result.passed and result.failures == [failed]
    assert result.to_json()["failures"] == 1 and result.to_json()["verdicts"][1]["outcome"] == "failed"
    assert isinstance(failed, Verdict)
