"""Evaluation runs: score systems on a stored suite, keep every result, compare from stored results.

``evaluate`` matches each system once and stores, per check-point, the chosen
reference r*, its DM and n-gram counts, and per pair the translation and
lengths; ``compare`` then rebuilds the systems' statistics from those rows and
only resamples (no re-matching). One transaction per run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from sqlalchemy.orm import Session

from checkpoints.db.repo import find_suite, load_suite
from checkpoints.db.runs import (
    NOT_EVALUATED,
    SystemResults,
    latest_results,
    pair_row_ids,
    store_run,
    store_system_results,
    system_row,
)
from checkpoints.db.session import transaction
from checkpoints.engine import EngineSpec, open_engine
from checkpoints.errors import InputError, SuiteError, UsageError
from checkpoints.evaluate.columns import checkpoint_count
from checkpoints.evaluate.evaluation import Evaluation
from checkpoints.evaluate.matching import DEFAULT_MAX_ORDER, MatchMode, order_label
from checkpoints.evaluate.run_options import RunOptions
from checkpoints.evaluate.scoring import CheckpointScorer, SystemScores
from checkpoints.gcpause import bulk_work
from checkpoints.io.text import output_warnings, read_sentences
from checkpoints.model import SuiteData
from checkpoints.report.checkpoint_json import evaluation_json
from checkpoints.service.kept_index import adopt_kept_index, keep_compiled_index
from checkpoints.service.store import Store, engine_for
from checkpoints.signature import Signature, suite_signature
from checkpoints.workers import in_background


def read_system_outputs(
    systems: Sequence[tuple[str, Path]], suite: SuiteData, warnings: list[str] | None = None
) -> dict[str, list[str]]:
    """Each system's translations, one line per sentence pair of the suite; what looks wrong in
    them (empty lines, NUL characters: :func:`~checkpoints.io.text.output_warnings`) goes to ``warnings``."""
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
        if warnings is not None:
            warnings.extend(output_warnings(path, lines))
    return outputs


def run_signature(suite: SuiteData, scorer: CheckpointScorer) -> Signature:
    """The suite's build signature plus how this run matched (tokenizer, mode, order, size)."""
    signature = suite_signature(suite).with_fields(
        tok=scorer.tokenize,
        match=scorer.match.value,
        order=order_label(scorer.max_order),
        checkpoints=len(scorer.checkpoint_numbers),
    )
    return signature.with_fields(alt=scorer.alternatives_label) if scorer.alternatives else signature


@bulk_work
def evaluate_systems(
    store: Store,
    systems: Sequence[tuple[str, Path]],
    *,
    suite_name: str | None = None,
    match: MatchMode | str = MatchMode.NORMAL,
    tokenize: str | None = None,
    categories: Sequence[str] | None = None,
    max_order: int | None = DEFAULT_MAX_ORDER,
    alternatives: bool = False,
    engine: EngineSpec | None = None,
) -> Evaluation:
    """Score the systems, store the run and its results in one transaction.

    ``max_order`` is the longest n-gram counted per reference (None: every order);
    ``alternatives`` lets word-level check-points also match dictionary translations,
    stems and synonyms (:mod:`checkpoints.evaluate.alternatives`). With a Ray
    ``engine`` each system is matched by a worker holding the compiled suite;
    the store is written here, by this one writer.
    """
    if not systems:
        raise UsageError("no system to evaluate: give at least one NAME=FILE")
    with engine_for(store) as database, transaction(database) as session:
        suite = load_suite(session, suite_name)
        if not checkpoint_count(suite):
            raise SuiteError(f"suite {suite.name!r} has no check-points: nothing to evaluate")
        warnings: list[str] = []
        outputs = read_system_outputs(systems, suite, warnings)
        if categories is not None:  # "noun phrase" is "Noun phrase"; an unknown name suggests the closest
            categories = [suite.resolve_category(name) for name in categories]
        scorer = CheckpointScorer(
            suite, tokenize=tokenize, match=match, categories=categories, max_order=max_order, alternatives=alternatives
        )
        suite_id = find_suite(session, suite.name).id
        if not adopt_kept_index(session, suite_id, scorer) and engine is not None and engine.name != "local":
            scorer.compile()  # once, here: the workers receive it, and the store keeps it
        # the BLEU row needs none of the matching: a second CPU computes it meanwhile
        with in_background(lambda: {name: scorer.bleu(lines) for name, lines in outputs.items()}) as bleu_row:
            scores = _score_systems(scorer, outputs, engine)
            reports = {name: result.report() for name, result in scores.items()}
            bleu = bleu_row.result()
        evaluation = Evaluation(suite, scorer, scores, reports, bleu, run_signature(suite, scorer), warnings=warnings)
        options = RunOptions.of_scorer(scorer, categories, {name: str(path) for name, path in systems})
        store_evaluation(session, evaluation, outputs, options.to_json())
        keep_compiled_index(session, suite_id, scorer)
    return evaluation


def _score_systems(
    scorer: CheckpointScorer, outputs: dict[str, list[str]], engine: EngineSpec | None
) -> dict[str, SystemScores]:
    if engine is None or engine.name == "local":
        return {name: scorer.score(lines) for name, lines in outputs.items()}
    with open_engine(engine) as workers:
        return {name: scores for (name, _), scores in workers.map(lambda: scorer, _score_one, outputs.items())}


def _score_one(scorer: CheckpointScorer, output: tuple[str, list[str]]) -> SystemScores:
    return scorer.score(output[1])


def store_evaluation(
    session: Session, evaluation: Evaluation, outputs: Mapping[str, Sequence[str]], options: dict[str, object]
) -> int:
    """Store a run (its options, signature and report) and every system's results; returns the run id.

    Per system: the translation of every pair (a row per pair: metrics such as
    the gate's BLEU rule score whole outputs), with its lengths where the pair
    was evaluated (:data:`~checkpoints.db.runs.NOT_EVALUATED` where it has no
    selected check-point), the check-points' r*, DM and counts (one row of packed
    arrays), and the scope scores.
    """
    scorer = evaluation.scorer
    suite_id = find_suite(session, evaluation.suite.name).id
    run_id = store_run(
        session, suite_id, "evaluate", options, evaluation.signature.format(), evaluation_json(evaluation)
    )
    evaluation.run_ids = dict.fromkeys(evaluation.scores, run_id)
    row_of = pair_row_ids(session, suite_id)
    pair_ids = [row_of[p] for p in range(len(evaluation.suite.pairs))]
    evaluated = scorer.pair_positions
    numbers = scorer.checkpoint_numbers
    for name, result in evaluation.scores.items():
        lengths = np.full(len(pair_ids), NOT_EVALUATED, dtype=np.float64)
        lengths[evaluated] = result.translation_lengths
        reference_lengths = np.full(len(pair_ids), NOT_EVALUATED, dtype=np.float64)
        reference_lengths[evaluated] = scorer.reference_lengths
        store_system_results(
            session,
            run_id,
            system_row(session, suite_id, name).id,
            pair_ids=pair_ids,
            translations=outputs[name],
            translation_lengths=lengths,
            reference_lengths=reference_lengths,
            checkpoint_numbers=numbers,
            chosen=result.chosen,
            dm=result.dm,
            matched=result.matched,
            total=result.total,
            scopes=[
                {"scope": line.scope.kind.value, "name": line.scope.name, "checkpoints": line.checkpoints,
                 "recall": line.recall, "penalty": line.penalty, "score": line.score}
                for line in evaluation.reports[name].scopes
            ],
        )
    return run_id


@bulk_work
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
    with engine_for(store) as engine, transaction(engine) as session:
        suite = load_suite(session, suite_name)
        suite_id = find_suite(session, suite.name).id
        stored = {
            name: latest_results(session, suite_id, name, (runs or {}).get(name)) for name in system_names
        }
    settings = {name: RunOptions.stored(result.run_options) for name, result in stored.items()}
    if len({options.settings() for options in settings.values()}) > 1:
        described = "; ".join(f"{name}: {options.describe()}" for name, options in settings.items())
        raise SuiteError(f"the systems were evaluated with different settings and cannot be compared ({described}); re-evaluate them together")
    options = next(iter(settings.values()))
    scorer = CheckpointScorer(
        suite, tokenize=options.tokenize, match=options.match, categories=list(options.categories) or None,
        max_order=options.order, alternatives=options.uses_alternatives,
    )
    scores = {name: _rebuild(scorer, result) for name, result in stored.items()}
    reports = {name: score.report() for name, score in scores.items()}
    bleu = {name: scorer.bleu(result.translations) for name, result in stored.items()}
    run_ids = {name: result.run_id for name, result in stored.items()}
    return Evaluation(suite, scorer, scores, reports, bleu, run_signature(suite, scorer), run_ids)


def _rebuild(scorer: CheckpointScorer, result: SystemResults) -> SystemScores:
    numbers = scorer.checkpoint_numbers
    try:
        chosen, dm, matched, total = result.checkpoints.arrays(numbers)
    except KeyError as missing:
        raise SuiteError(
            f"run {result.run_id} has no result for check-point {missing.args[0]}: re-evaluate the system"
        ) from None
    lengths = np.array([result.translation_lengths[p] for p in scorer.pair_positions.tolist()], dtype=np.float64)
    return SystemScores(scorer, chosen, dm, matched, total, lengths)
