"""Drilling down to single check-points: what ``checkpoints show`` prints (Zhou et al. 2008, Tables 8–9).

Each check-point comes back as plain data: the source with the span, the
references with DM, and per evaluated system its translation, the matched
n-grams per reference, r* and the score, recomputed from the stored run's
settings so it agrees with what ``evaluate`` counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from checkpoints.db.repo import find_suite, load_suite
from checkpoints.db.runs import SystemResults, evaluated_systems, latest_results
from checkpoints.db.session import transaction
from checkpoints.errors import SuiteError, UsageError
from checkpoints.evaluate.alternatives import alternative_for
from checkpoints.evaluate.run_options import RunOptions
from checkpoints.model import CheckPoint, SuiteData
from checkpoints.service.store import Store, engine_for


@dataclass(slots=True)
class Drilldown:
    suite: str
    checkpoints: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """The ``show --format json`` object."""
        return {"suite": self.suite, "checkpoints": self.checkpoints}


def show_checkpoints(
    store: Store,
    *,
    suite_name: str | None = None,
    category: str | None = None,
    systems: Sequence[str] | None = None,
    ids: Sequence[int] | None = None,
    limit: int = 5,
) -> Drilldown:
    """Up to ``limit`` check-points (those with ``ids``, or the first of ``category``), each with
    every chosen system's latest stored result."""
    if limit < 1:
        raise UsageError(f"the limit must be at least 1, not {limit}")
    with engine_for(store) as engine, transaction(engine) as session:
        data = load_suite(session, suite_name)
        suite_id = find_suite(session, data.name).id
        names = list(systems) if systems else evaluated_systems(session, suite_id)
        results = {name: latest_results(session, suite_id, name) for name in names}
    category = data.resolve_category(category) if category is not None else None
    selected = select_checkpoints(data, category, ids, limit)
    if not selected:
        raise SuiteError(f"suite {data.name!r} has no check-points of category {category!r}")
    return Drilldown(data.name, [describe(data, checkpoint, results) for checkpoint in selected])


def select_checkpoints(data: SuiteData, category: str | None, ids: Sequence[int] | None, limit: int) -> list[CheckPoint]:
    by_id = {cp.id: cp for cp in data.checkpoints}
    if ids:
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise SuiteError(f"no check-point {missing[0]} in suite {data.name!r} (ids run from 1 to {len(by_id)})")
        chosen = [by_id[i] for i in ids]
        if category is not None:
            chosen = [cp for cp in chosen if cp.category == category]
        return chosen[:limit]
    return [cp for cp in data.checkpoints if category is None or cp.category == category][:limit]


def describe(
    data: SuiteData, checkpoint: CheckPoint, results: dict[str, SystemResults], pair_index: int | None = None
) -> dict[str, Any]:
    """The drill-down of one check-point as plain data.

    ``pair_index`` is the position of the check-point's pair in ``data.pairs``:
    callers describing every check-point (the HTML report) pass it, since
    finding it is a scan of the pairs.
    """
    from checkpoints.evaluate.explain import explain

    if pair_index is None:
        pair_index = next(i for i, pair in enumerate(data.pairs) if pair.id == checkpoint.pair_id)
    pair = data.pairs[pair_index]
    marked = set(checkpoint.source_indices)
    item: dict[str, Any] = {
        "id": checkpoint.id,
        "category": checkpoint.category,
        "level": data.category(checkpoint.category).level.value,
        "pair": pair.id,
        "source": pair.source.forms,
        "span": checkpoint.source_indices,
        "marked_source": " ".join(f"[{w}]" if i in marked else w for i, w in enumerate(pair.source.forms)),
        "references": [
            {"reference": ref.reference_index + 1, "dm": ref.dm, "tokens": " ".join(ref.tokens),
             "sentence": pair.references[ref.reference_index].text}
            for ref in checkpoint.references
        ],
        "systems": {},
    }
    for name, result in results.items():
        options = RunOptions.stored(result.run_options)
        translation = result.translations[pair_index]
        if checkpoint.id not in result.checkpoints:
            item["systems"][name] = {"translation": translation, "evaluated": False}
            continue
        explanation = explain(
            checkpoint, translation, tokenize=options.tokenize, match=options.match, language=data.target_lang,
            max_order=options.order,
        )
        score, weighted, alternative = explanation.score, explanation.weighted, None
        if options.uses_alternatives and explanation.best is not None and score < 1.0:
            found = alternative_for(data, checkpoint, translation, options.tokenize)
            if found:  # the run counted the check-point as matched through it
                score, weighted, alternative = 1.0, explanation.best.dm, found.label
        item["systems"][name] = {
            "translation": translation,
            "evaluated": True,
            "run": result.run_id,
            "references": [
                {"reference": m.reference_index + 1, "dm": m.dm, "matched_ngrams": m.matched_ngrams,
                 "matched": m.matched, "total": m.total, "chosen": m.position == explanation.chosen}
                for m in explanation.references
            ],
            "score": score,
            "weighted": weighted,
            "alternative": alternative,
        }
    return item
