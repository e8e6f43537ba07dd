"""Evaluation runs: score systems on a stored suite, keep every result, compare from stored results.

``evaluate`` matches each system once and stores, per check-point, the chosen
reference r*, its DM and n-gram counts, and per pair the translation and
lengths; ``compare`` then rebuilds the systems' statistics from those rows and
only resamples (no re-matching). One transaction per run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

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
from checkpoints.evaluate.matching import DEFAULT_MAX_ORDER, MatchMode, order_label, parse_max_order
from checkpoints.evaluate.scoring import CheckpointScorer, SystemReport, SystemScores
from checkpoints.gcpause import paused_gc
from checkpoints.io.text import read_sentences
from checkpoints.model import SuiteData
from checkpoints.report.checkpoint_json import evaluation_json
from checkpoints.service.store import Store, engine_for
from checkpoints.signature import Signature, suite_signature


@dataclass(slots=True)
class Evaluation:
    """Everything a report about one run needs."""

    suite: SuiteData
    scorer: CheckpointScorer
    scores: dict[str, SystemScores]
    reports: dict[str, SystemReport]
    bleu: dict[str, float]
    signature: Signature
    run_ids: dict[str, int] = field(default_factory=dict)
    """Per system, the stored evaluation run its scores come from."""


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


def run_signature(suite: SuiteData, scorer: CheckpointScorer) -> Signature:
    """The suite's build signature plus how this run matched (tokenizer, mode, order, size)."""
    return suite_signature(suite).with_fields(
        tok=scorer.tokenize,
        match=scorer.match.value,
        order=order_label(scorer.max_order),
        checkpoints=len(scorer.checkpoints),
    )


def evaluate_systems(
    store: Store,
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
        raise UsageError("no system to evaluate: give at least one NAME=FILE")
    with engine_for(store) as engine, paused_gc(), transaction(engine) as session:
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
        run_id = store_run(session, suite_id, "evaluate", options, signature.format(), evaluation_json(evaluation))
        evaluation.run_ids = dict.fromkeys(scores, run_id)
        pair_ids, checkpoint_ids = suite_row_ids(session, suite_id)
        positions = [int(p) for p in scorer.pair_positions]
        reference_lengths = scorer.reference_lengths
        numbers = [cp.id for cp in scorer.checkpoints]
        for name, result in scores.items():
            store_system_results(
                session,
                run_id,
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
    store: Store,
    system_names: Sequence[str],
    *,
    suite_name: str | None = None,
    runs: Mapping[str, int] | None = None,
) -> Evaluation:
    """Systems' stored results (the run given in ``runs``, else each one's latest), rebuilt as
    scores without re-matching.

    All systems must have been evaluated with the same tokenizer, matching
    mode, maximum n-gram order and category selection, or their scores would
    not be comparable.
    """
    with engine_for(store) as engine, paused_gc(), transaction(engine) as session:
        suite = load_suite(session, suite_name)
        suite_id = find_suite(session, suite.name).id
        stored = {
            name: latest_results(session, suite_id, name, (runs or {}).get(name)) for name in system_names
        }
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
    run_ids = {name: result.run_id for name, result in stored.items()}
    return Evaluation(suite, scorer, scores, reports, bleu, run_signature(suite, scorer), run_ids)


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
