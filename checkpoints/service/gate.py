"""``checkpoints gate``: may the candidate system replace the baseline? One flow for the command and CI scripts.

The check-point rules reuse ``compare`` whole (evaluate what is given as a
file, resample the stored statistics, correct per family); the metric rules
score the suite's references against the two systems' stored translations
with ``metrics``' runner and paired tests, corrected over the metric rules as
one family. :mod:`checkpoints.evaluate.gate` decides; this module only
gathers what it decides on, and the check-points a failed scope lost, so that
a red gate says *what* regressed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from checkpoints.db.repo import find_suite
from checkpoints.db.runs import latest_results
from checkpoints.db.session import transaction
from checkpoints.errors import SuiteError, UsageError
from checkpoints.evaluate.defaults import DEFAULT_ALPHA, DEFAULT_CORRECTION, DEFAULT_MIN_CHECKPOINTS
from checkpoints.evaluate.evaluation import Evaluation
from checkpoints.evaluate.gate import GateResult, GateRules, Verdict, judge_metrics, judge_scopes
from checkpoints.evaluate.matching import DEFAULT_MAX_ORDER
from checkpoints.evaluate.metric_runner import MetricComparison, SignificanceRequest
from checkpoints.evaluate.resample import ResampleSpec
from checkpoints.evaluate.scopes import ScopeKind
from checkpoints.evaluate.significance import Correction, adjust_p_values
from checkpoints.model import SuiteData
from checkpoints.service.compare import compare_systems
from checkpoints.service.store import Store, engine_for

EXAMPLES = 3
"""Check-points shown per failed scope: enough to see a pattern, few enough to read in a CI log."""


@dataclass(frozen=True, slots=True)
class GateRequest:
    """What ``checkpoints gate`` was asked: two systems (a stored name, or ``(name, file)`` to
    evaluate now), the rules, and how significance is decided (``compare``'s options)."""

    store: Store
    baseline: str | tuple[str, Path]
    candidate: str | tuple[str, Path]
    rules: GateRules = field(default_factory=GateRules)
    suite: str | None = None
    runs: Mapping[str, int] = field(default_factory=dict)
    spec: ResampleSpec = field(default_factory=ResampleSpec)
    correction: str = DEFAULT_CORRECTION
    alpha: float = DEFAULT_ALPHA
    min_checkpoints: int = DEFAULT_MIN_CHECKPOINTS
    tokenize: str | None = None
    """For a system evaluated now: the match-time tokenizer (``evaluate``'s default otherwise)."""

    @property
    def names(self) -> tuple[str, str]:
        return _name(self.baseline), _name(self.candidate)


@dataclass(frozen=True, slots=True)
class GateOutcome:
    result: GateResult
    warnings: tuple[str, ...] = ()


def _name(system: str | tuple[str, Path]) -> str:
    return system if isinstance(system, str) else system[0]


def run_gate(request: GateRequest) -> GateOutcome:
    """Compare the candidate with the baseline and judge every rule (:mod:`checkpoints.evaluate.gate`)."""
    baseline, candidate = request.names
    if baseline == candidate:
        raise UsageError(f"the baseline and the candidate are both {baseline!r}: gate two different systems")
    with engine_for(request.store) as engine:
        compared = compare_systems(
            engine, [request.baseline, request.candidate], baseline=baseline, suite_name=request.suite,
            runs=request.runs, spec=request.spec, correction=request.correction, alpha=request.alpha,
            min_checkpoints=request.min_checkpoints, tokenize=request.tokenize, max_order=DEFAULT_MAX_ORDER,
            keep=False,
        )
        evaluation = compared.evaluation
        rules = _resolved(request.rules, evaluation.suite)
        verdicts = judge_scopes(compared.comparison, baseline, candidate, rules)
        needed = rules.metrics or any(verdict.failed for verdict in verdicts)
        translations = _translations(engine, evaluation, (baseline, candidate), bool(rules.metrics)) if needed else {}
    verdicts = [_with_examples(v, evaluation, (baseline, candidate), translations[candidate]) if v.failed else v for v in verdicts]
    if request.rules.metrics:
        comparisons = _metric_comparisons(request, evaluation.suite, translations)
        verdicts += judge_metrics(comparisons, rules)
    signature = compared.comparison.signature().with_fields({"min-drop": f"{request.rules.min_drop:g}"}).format()
    warnings = (compared.warning,) if compared.warning else ()
    return GateOutcome(GateResult(evaluation.suite.name, baseline, candidate, tuple(verdicts), signature), warnings)


def _resolved(rules: GateRules, suite: SuiteData) -> GateRules:
    """The rules with category names as the suite spells them; an unknown one is an error naming the closest."""
    drops = {suite.resolve_category(name): drop for name, drop in rules.category_drops.items()}
    return replace(rules, category_drops=drops)


def _translations(
    engine: object, evaluation: Evaluation, names: Sequence[str], whole: bool
) -> dict[str, list[str]]:
    """Each system's translations as the compared runs stored them (a file given now was stored by its run);
    ``whole``: every pair's, as metric rules need."""
    with transaction(engine) as session:
        suite_id = find_suite(session, evaluation.suite.name).id
        results = {name: latest_results(session, suite_id, name, evaluation.run_ids[name]) for name in names}
    for name, result in results.items():
        if whole and not result.every_translation:
            raise SuiteError(
                f"run {result.run_id} of system {name!r} kept only the translations of evaluated pairs (an older "
                f"version stored it): give the system as {name}=FILE to gate it"
            )
    return {name: result.translations for name, result in results.items()}


def _metric_comparisons(
    request: GateRequest, suite: SuiteData, translations: Mapping[str, list[str]]
) -> list[MetricComparison]:
    """Paired tests of every metric rule, candidate against baseline, corrected over the rules together."""
    from checkpoints.service.metric_texts import score_texts

    baseline, candidate = request.names
    names = list(request.rules.metrics)
    for name in names:
        request.rules.metric_drop(name)  # a metric without a minimum drop fails before any scoring
    sets = min(len(pair.references) for pair in suite.pairs)
    if sets == 0:
        raise UsageError(f"suite {suite.name!r} has a sentence pair without a reference: metric rules cannot be scored")
    references = [[pair.references[i].text for pair in suite.pairs] for i in range(sets)]
    significance = SignificanceRequest(
        baseline=baseline, spec=request.spec, correction=Correction.NONE, alpha=request.alpha
    )
    report = score_texts(
        names, references, {name: translations[name] for name in (baseline, candidate)},
        language=suite.target_lang or None, origin=f"suite {suite.name!r}", significance=significance,
    )
    assert report.significance is not None
    found = list(report.significance.comparisons)
    adjusted = adjust_p_values([item.outcome.p_value for item in found], Correction(request.correction))
    return [
        replace(item, p_adjusted=p, significant=p <= request.alpha) for item, p in zip(found, adjusted, strict=True)
    ]


def _with_examples(verdict: Verdict, evaluation: Evaluation, systems: tuple[str, str], output: Sequence[str]) -> Verdict:
    """The failed scope with the check-points the candidate lost most on (largest loss first), each
    with the candidate's translation of its sentence."""
    baseline, candidate = systems
    scorer = evaluation.scorer
    suite = evaluation.suite
    checkpoints = scorer.checkpoints
    if verdict.rule == ScopeKind.CATEGORY.value:
        inside = np.array([cp.category == verdict.name for cp in checkpoints], dtype=bool)
    elif verdict.rule == ScopeKind.GROUP.value:
        levels = {category.name: category.level.value for category in suite.categories}
        inside = np.array([levels.get(cp.category) == verdict.name for cp in checkpoints], dtype=bool)
    else:
        inside = np.ones(len(checkpoints), dtype=bool)
    before = evaluation.scores[baseline].checkpoint_scores()
    after = evaluation.scores[candidate].checkpoint_scores()
    loss = np.where(inside, before - after, 0.0)
    chosen = [int(i) for i in np.argsort(-loss, kind="stable")[:EXAMPLES] if loss[i] > 0]
    positions = {pair.id: position for position, pair in enumerate(suite.pairs)}
    reference_of = evaluation.scores[baseline].chosen
    examples = []
    for index in chosen:
        checkpoint = checkpoints[index]
        pair = suite.pairs[positions[checkpoint.pair_id]]
        position = int(reference_of[index])
        reference = checkpoint.references[position] if 0 <= position < len(checkpoint.references) else None
        examples.append({
            "checkpoint": int(scorer.checkpoint_numbers[index]),
            "pair": checkpoint.pair_id,
            "category": checkpoint.category,
            "source": " ".join(pair.source.tokens[i].form for i in checkpoint.source_indices),
            "reference": " ".join(reference.tokens) if reference is not None else "",
            "baseline": round(float(before[index]), 4),
            "candidate": round(float(after[index]), 4),
            "output": output[positions[checkpoint.pair_id]],
        })
    return replace(verdict, examples=tuple(examples))
