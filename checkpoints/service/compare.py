"""Comparing systems category by category: evaluate what is new, resample what is stored.

One flow serves ``checkpoints compare``, ``checkpoints demo`` and library
callers: systems given with a file are evaluated first (one stored run), then
every system's chosen run is rebuilt from stored statistics, resampled,
corrected for multiple comparisons, and the comparison is stored as a run of
its own when the store is writable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from checkpoints.db.repo import find_suite
from checkpoints.db.runs import store_run
from checkpoints.db.session import store_is_writable, transaction
from checkpoints.errors import UsageError
from checkpoints.evaluate.comparison import Comparison, compare
from checkpoints.evaluate.defaults import DEFAULT_ALPHA, DEFAULT_CORRECTION, DEFAULT_MIN_CHECKPOINTS
from checkpoints.evaluate.matching import DEFAULT_MAX_ORDER, MatchMode
from checkpoints.evaluate.resample import ResampleSpec
from checkpoints.evaluate.significance import Correction
from checkpoints.report.checkpoint_json import comparison_json
from checkpoints.service.evaluate import Evaluation, evaluate_systems, stored_evaluation
from checkpoints.service.store import Store, engine_for


@dataclass(slots=True)
class ComparisonResult:
    """A comparison, the evaluation it resampled, its JSON report and any warning."""

    comparison: Comparison
    evaluation: Evaluation
    report: dict[str, Any]
    warning: str | None
    run_id: int | None


def compare_systems(
    store: Store,
    systems: Sequence[str | tuple[str, Path]],
    *,
    baseline: str | None = None,
    suite_name: str | None = None,
    runs: Mapping[str, int] | None = None,
    spec: ResampleSpec | None = None,
    correction: Correction | str = DEFAULT_CORRECTION,
    alpha: float = DEFAULT_ALPHA,
    min_checkpoints: int = DEFAULT_MIN_CHECKPOINTS,
    match: MatchMode | str = MatchMode.NORMAL,
    tokenize: str | None = None,
    max_order: int | None = DEFAULT_MAX_ORDER,
    keep: bool = True,
) -> ComparisonResult:
    """Compare ``systems`` (names evaluated before, or ``(name, file)`` to evaluate now).

    The baseline counts as a system: it is added when not listed. ``runs``
    picks a stored run per system (default: each system's latest). With
    ``keep`` the comparison is stored as a run, unless the store is read-only:
    then nothing is written and ``run_id`` is None.
    """
    names = [item if isinstance(item, str) else item[0] for item in systems]
    if baseline is not None and baseline not in names:
        names.insert(0, baseline)
    if len(set(names)) != len(names):
        raise UsageError("a system is named twice")
    if len(names) < 2:
        raise UsageError("a comparison needs at least two systems (the baseline counts as one)")
    if not 0 < alpha < 1:
        raise UsageError(f"alpha must be between 0 and 1, not {alpha}")
    to_evaluate = [item for item in systems if not isinstance(item, str)]
    clash = sorted(set(runs or {}) & {name for name, _ in to_evaluate})
    if clash:
        raise UsageError(f"system {clash[0]!r} is evaluated now, so a stored run cannot be chosen for it")
    with engine_for(store) as engine:
        fresh = None
        if to_evaluate:
            fresh = evaluate_systems(
                engine, to_evaluate, suite_name=suite_name, match=match, tokenize=tokenize, max_order=max_order
            )
            suite_name = fresh.suite.name
        if fresh is not None and list(fresh.scores) == names:
            evaluation = fresh  # every system was just scored: the stored run holds exactly these scores
        else:
            evaluation = stored_evaluation(engine, names, suite_name=suite_name, runs=runs)
        comparison = compare_evaluation(
            evaluation, spec=spec or ResampleSpec(), correction=correction, baseline=baseline,
            min_checkpoints=min_checkpoints, alpha=alpha,
        )
        report = comparison_json(comparison, evaluation)
        warning = resolution_warning(comparison)
        if warning:
            report["warning"] = warning
        run_id = store_comparison(engine, evaluation, comparison, report) if keep else None
    return ComparisonResult(comparison, evaluation, report, warning, run_id)


def compare_evaluation(
    evaluation: Evaluation,
    *,
    spec: ResampleSpec,
    correction: Correction | str,
    baseline: str | None,
    min_checkpoints: int,
    alpha: float = 0.05,
) -> Comparison:
    if baseline is not None and baseline not in evaluation.scores:
        raise UsageError(f"baseline {baseline!r} is not one of the compared systems ({', '.join(evaluation.scores)})")
    return compare(
        evaluation.scores, spec, correction=correction, baseline=baseline, min_checkpoints=min_checkpoints, alpha=alpha
    )


def store_comparison(
    store: Store, evaluation: Evaluation, comparison: Comparison, report: dict[str, Any]
) -> int | None:
    """Keep the comparison as a run of its own (its report and options); None, storing
    nothing, when the store is read-only (a write-protected SQLite file or folder, a
    ``mode=ro`` URL, a read-only PostgreSQL role), since comparing only reads."""
    with engine_for(store) as engine:
        if not store_is_writable(engine):
            return None
        with transaction(engine) as session:
            suite_id = find_suite(session, evaluation.suite.name).id
            options = {
                "systems": list(comparison.systems),
                "baseline": comparison.baseline,
                "runs": dict(evaluation.run_ids),
                "method": comparison.spec.method.value,
                "samples": comparison.spec.samples,
                "seed": comparison.spec.seed,
                "correction": comparison.correction.value,
                "alpha": comparison.alpha,
                "min_checkpoints": comparison.min_checkpoints,
            }
            return store_run(session, suite_id, "compare", options, str(report["signature"]), report)


def resolution_warning(comparison: Comparison) -> str | None:
    """A warning when too few resamples make significance impossible after correction.

    A resampled p-value is at least 1/(samples + 1), and Holm or
    Benjamini-Hochberg multiply the smallest one by the family size m, so with
    fewer than m/alpha - 1 resamples no category can be flagged however large
    its difference.
    """
    if comparison.correction is Correction.NONE:
        return None
    largest = 0
    for pair in comparison.pairs:
        largest = max(largest, sum(1 for r in pair.results if r.scope.kind.value == "category" and not r.too_few))
    if largest == 0:
        return None
    floor = largest / (comparison.spec.samples + 1)
    if floor <= comparison.alpha:
        return None
    needed = int(np.ceil(largest / comparison.alpha)) - 1
    return (
        f"with {comparison.spec.samples} samples the smallest p-value is 1/{comparison.spec.samples + 1}; "
        f"after {comparison.correction.value} over {largest} categories no category can reach {comparison.alpha}: "
        f"use {needed} samples or more"
    )
