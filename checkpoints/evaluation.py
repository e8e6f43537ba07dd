"""Evaluation runs: score systems on a stored suite, keep every result, compare from stored results.

``evaluate`` matches each system once and stores, per check-point, the chosen
reference r*, its DM and n-gram counts, and per pair the translation and
lengths; ``compare`` then rebuilds the systems' statistics from those rows and
only resamples (no re-matching). One transaction per run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Engine

from checkpoints.db.repo import (
    SystemResults,
    find_suite,
    latest_results,
    load_suite,
    store_run,
    store_system_results,
    suite_row_ids,
    system_row,
)
from checkpoints.db.session import transaction
from checkpoints.errors import InputError, SuiteError, UsageError
from checkpoints.evaluate.compare import Comparison, compare
from checkpoints.evaluate.matching import DEFAULT_MAX_ORDER, MatchMode, order_label, parse_max_order
from checkpoints.evaluate.resample import ResampleSpec
from checkpoints.evaluate.scoring import CheckpointScorer, SystemReport, SystemScores
from checkpoints.evaluate.significance import Correction
from checkpoints.gcpause import paused_gc
from checkpoints.io.text import read_sentences
from checkpoints.model import SuiteData
from checkpoints.signature import format_signature, suite_signature_fields


@dataclass(slots=True)
class Evaluation:
    """Everything a report about one run needs."""

    suite: SuiteData
    scorer: CheckpointScorer
    scores: dict[str, SystemScores]
    reports: dict[str, SystemReport]
    bleu: dict[str, float]
    signature: str
    run_id: int | None = None


def read_system_outputs(systems: Sequence[tuple[str, Path]], suite: SuiteData) -> dict[str, list[str]]:
    """Each system's translations, one line per sentence pair of the suite."""
    outputs: dict[str, list[str]] = {}
    expected = len(suite.pairs)
    for name, path in systems:
        lines = read_sentences(path, allow_empty=True)
        if len(lines) != expected:
            raise InputError(
                path, None,
                f"{len(lines)} lines, but suite {suite.name!r} has {expected} sentence pairs (one translation per line, in pair order)",
            )
        outputs[name] = lines
    return outputs


def run_signature(suite: SuiteData, scorer: CheckpointScorer, extra: dict[str, object] | None = None) -> str:
    fields: dict[str, object] = {
        **suite_signature_fields(suite),
        "tok": scorer.tokenize,
        "match": scorer.match.value,
        "order": order_label(scorer.max_order),
        "checkpoints": len(scorer.checkpoints),
    }
    fields.update(extra or {})
    return format_signature(fields)


def evaluate_systems(
    engine: Engine,
    systems: Sequence[tuple[str, Path]],
    *,
    suite_name: str | None = None,
    match: MatchMode | str = MatchMode.NORMAL,
    tokenize: str | None = None,
    categories: Sequence[str] | None = None,
    max_order: int | None = DEFAULT_MAX_ORDER,
) -> Evaluation:
    """Score the systems, store the run and its results in one transaction.

    ``max_order`` is the longest n-gram counted per reference (None: every order).
    """
    if not systems:
        raise UsageError("give at least one --system NAME=FILE")
    with paused_gc(), transaction(engine) as session:
        suite = load_suite(session, suite_name)
        if not suite.checkpoints:
            raise SuiteError(f"suite {suite.name!r} has no check-points: nothing to evaluate")
        outputs = read_system_outputs(systems, suite)
        scorer = CheckpointScorer(suite, tokenize=tokenize, match=match, categories=categories, max_order=max_order)
        scores = {name: scorer.score(lines) for name, lines in outputs.items()}
        reports = {name: result.report() for name, result in scores.items()}
        bleu = {name: scorer.bleu(lines) for name, lines in outputs.items()}
        signature = run_signature(suite, scorer)
        evaluation = Evaluation(suite, scorer, scores, reports, bleu, signature)
        suite_id = find_suite(session, suite.name).id
        options = {
            "match": scorer.match.value,
            "tokenize": scorer.tokenize,
            "max_order": order_label(scorer.max_order),
            "categories": list(categories) if categories else None,
            "systems": {name: str(path) for name, path in systems},
        }
        evaluation.run_id = store_run(session, suite_id, "evaluate", options, signature, evaluation_json(evaluation))
        pair_ids, checkpoint_ids = suite_row_ids(session, suite_id)
        positions = [int(p) for p in scorer.pair_positions]
        reference_lengths = scorer.reference_lengths
        numbers = [cp.id for cp in scorer.checkpoints]
        for name, result in scores.items():
            store_system_results(
                session,
                evaluation.run_id,
                system_row(session, suite_id, name).id,
                pair_ids=[pair_ids[p] for p in positions],
                translations=[outputs[name][p] for p in positions],
                translation_lengths=result.translation_lengths.tolist(),
                reference_lengths=reference_lengths.tolist(),
                checkpoint_ids=[checkpoint_ids[n] for n in numbers],
                chosen=result.chosen.tolist(),
                dm=result.dm.tolist(),
                matched=result.matched.tolist(),
                total=result.total.tolist(),
                scopes=[
                    {"scope": line.scope.kind.value, "name": line.scope.name, "checkpoints": line.checkpoints,
                     "recall": line.recall, "penalty": line.penalty, "score": line.score}
                    for line in reports[name].scopes
                ],
            )
    return evaluation


def stored_evaluation(
    engine: Engine,
    system_names: Sequence[str],
    *,
    suite_name: str | None = None,
) -> Evaluation:
    """Systems' latest stored results, rebuilt as scores without re-matching.

    All systems must have been evaluated with the same tokenizer, matching
    mode, maximum n-gram order and category selection, or their scores would
    not be comparable.
    """
    with paused_gc(), transaction(engine) as session:
        suite = load_suite(session, suite_name)
        suite_id = find_suite(session, suite.name).id
        stored = {name: latest_results(session, suite_id, name) for name in system_names}
    settings = {name: _settings(result) for name, result in stored.items()}
    distinct = set(settings.values())
    if len(distinct) > 1:
        described = "; ".join(
            f"{name}: tokenize={s[0]} match={s[1]} max-order={s[2]} categories={s[3] or 'all'}" for name, s in settings.items()
        )
        raise SuiteError(f"the systems were evaluated with different settings and cannot be compared ({described}); re-evaluate them together")
    tokenize, match, order, categories = distinct.pop()
    scorer = CheckpointScorer(
        suite, tokenize=tokenize, match=match, categories=list(categories) if categories else None,
        max_order=parse_max_order(order),
    )
    scores = {name: _rebuild(scorer, result) for name, result in stored.items()}
    reports = {name: score.report() for name, score in scores.items()}
    bleu = {name: scorer.bleu(result.translations) for name, result in stored.items()}
    return Evaluation(suite, scorer, scores, reports, bleu, run_signature(suite, scorer))


def _settings(result: SystemResults) -> tuple[str, str, str, tuple[str, ...]]:
    options = result.run_options
    categories = options.get("categories") or ()
    # runs stored before --max-order existed counted every order
    order = str(options.get("max_order", "all"))
    return str(options.get("tokenize")), str(options.get("match")), order, tuple(categories)


def _rebuild(scorer: CheckpointScorer, result: SystemResults) -> SystemScores:
    count = len(scorer.checkpoints)
    chosen = np.full(count, -1, dtype=np.int64)
    dm = np.zeros(count)
    matched = np.zeros(count, dtype=np.int64)
    total = np.zeros(count, dtype=np.int64)
    for index, checkpoint in enumerate(scorer.checkpoints):
        stored = result.checkpoints.get(checkpoint.id)  # type: ignore[arg-type]
        if stored is None:
            raise SuiteError(f"run {result.run_id} has no result for check-point {checkpoint.id}: re-evaluate the system")
        chosen[index], dm[index], matched[index], total[index] = stored
    lengths = np.array([result.translation_lengths[int(p)] for p in scorer.pair_positions], dtype=np.float64)
    return SystemScores(scorer, chosen, dm, matched, total, lengths)


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
        raise UsageError(f"--baseline {baseline!r} is not one of the compared systems ({', '.join(evaluation.scores)})")
    return compare(
        evaluation.scores, spec, correction=correction, baseline=baseline, min_checkpoints=min_checkpoints, alpha=alpha
    )


def evaluation_json(evaluation: Evaluation) -> dict[str, Any]:
    """The ``evaluate --format json`` object (the shape fixed by the architecture document)."""
    return {
        "suite": evaluation.suite.name,
        "match": evaluation.scorer.match.value,
        "tokenize": evaluation.scorer.tokenize,
        "max_order": order_label(evaluation.scorer.max_order),
        "bleu_tokenize": evaluation.scorer.bleu_tokenize,
        "systems": {name: report.to_dict() for name, report in evaluation.reports.items()},
        "bleu": dict(evaluation.bleu),
        "signature": evaluation.signature,
    }


def comparison_json(comparison: Comparison, evaluation: Evaluation) -> dict[str, Any]:
    """The ``compare --format json`` object: the comparison, the systems' BLEU and one signature."""
    report = comparison.to_dict()
    report["suite"] = evaluation.suite.name
    report["match"] = evaluation.scorer.match.value
    report["tokenize"] = evaluation.scorer.tokenize
    report["max_order"] = order_label(evaluation.scorer.max_order)
    report["bleu"] = dict(evaluation.bleu)
    report["signature"] = run_signature(
        evaluation.suite,
        evaluation.scorer,
        {
            "resample": comparison.spec.method.value,
            "samples": comparison.spec.samples,
            "seed": comparison.spec.seed,
            "correction": comparison.correction.value,
        },
    )
    return report


def store_comparison(engine: Engine, evaluation: Evaluation, comparison: Comparison, report: dict[str, Any]) -> int:
    """Keep the comparison as a run of its own (its report and options)."""
    with transaction(engine) as session:
        suite_id = find_suite(session, evaluation.suite.name).id
        options = {
            "systems": list(comparison.systems),
            "baseline": comparison.baseline,
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
        f"use --samples {needed} or more"
    )
