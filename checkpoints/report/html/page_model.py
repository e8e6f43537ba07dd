"""The report's data model: plain JSON-ready data the page script draws from.

Scores, differences, p-values, significance and clusters are read from the
comparison report (``compare --format json``, stored or computed by the same
service function), and each check-point from :func:`checkpoints.service.show.describe`,
so the report never scores anything differently from the command line. The
only numbers computed here are each system's own 95% score interval per
scope, from the same resamples (method, count, seed) the comparison used.

To stay small (the demo suite has 20k check-points), every sentence is stored
once per pair and each check-point is a compact array that points at its
pair: ``[id, pair, span, references, systems]`` with references as
``[reference number, DM, tokens]`` and, per system, ``0`` when not evaluated
or ``[score, r* position, [[matched, total, n-grams], ...]]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from checkpoints.evaluate.evaluation import Evaluation
    from checkpoints.evaluate.resample import ResampleSpec

LEVELS = ("word", "phrase", "sentence")


def system_intervals(evaluation: Evaluation, spec: ResampleSpec, alpha: float) -> dict[str, dict[str, list[float]]]:
    """Per system and scope label, the percentile interval of its resampled score.

    Uses the comparison's resampler settings, so the draws are the ones its
    difference intervals came from.
    """
    from checkpoints.evaluate.resample import Resampler, percentile_interval
    from checkpoints.evaluate.scopes import score_from_stats

    scorer = evaluation.scorer
    resampler = Resampler(len(scorer.pair_positions), spec)
    intervals: dict[str, dict[str, list[float]]] = {}
    for name, scores in evaluation.scores.items():
        resampled = score_from_stats(resampler.bootstrap_sums(scores.statistics()))
        intervals[name] = {
            scope.label(): [round(v, 4) for v in percentile_interval(resampled[:, i], alpha)]
            for i, scope in enumerate(scorer.scopes)
        }
    return intervals


def scope_rows(
    report: Mapping[str, Any],
    kind: str,
    names: Sequence[str],
    levels: Mapping[str, str],
    reference: str,
    intervals: Mapping[str, Mapping[str, list[float]]],
) -> list[dict[str, Any]]:
    """One row per category (``kind="category"``) or level group, in the comparison's order.

    Differences are ``system − reference`` for every system; a pair stored the
    other way round is turned so.
    """
    systems = list(report["systems"])
    key = "categories" if kind == "category" else "groups"
    rows = []
    for name in names:
        label = f"{kind}:{name}"
        row: dict[str, Any] = {
            "name": name,
            "level": levels.get(name, name),
            "size": None,
            "tooFew": False,
            "scores": [_round(report["scores"][s].get(label)) for s in systems],
            "ci": [intervals.get(s, {}).get(label) for s in systems],
            "diff": [None] * len(systems),
            "dci": [None] * len(systems),
            "p": [None] * len(systems),
            "sig": [False] * len(systems),
            "cluster": _cluster_ranks(report.get("clusters", {}).get(label), systems),
        }
        for pair in report["comparisons"]:
            result = pair[key].get(name)
            if result is None:
                continue
            row["size"] = result["checkpoints"]
            row["tooFew"] = bool(result["too_few"])
            a, b = pair["system_a"], pair["system_b"]
            if reference not in (a, b):
                continue
            other, sign = (b, 1.0) if a == reference else (a, -1.0)
            i = systems.index(other)
            low, high = result["interval"]
            row["diff"][i] = _round(sign * result["difference"])
            row["dci"][i] = sorted([_round(sign * low), _round(sign * high)])
            row["p"][i] = _round(result["adjusted_p"])
            row["sig"][i] = bool(result["significant"])
        rows.append(row)
    return rows


def _cluster_ranks(clusters: list[list[str]] | None, systems: list[str]) -> list[int] | None:
    """Each system's significance cluster (1 = best), or None when the comparison has none."""
    if not clusters:
        return None
    rank = {name: position + 1 for position, members in enumerate(clusters) for name in members}
    return [rank.get(s, 0) for s in systems]


def _round(value: Any, digits: int = 4) -> Any:
    if isinstance(value, float):
        return round(value, digits) if np.isfinite(value) else None
    return value


def compact_checkpoint(item: Mapping[str, Any], pair_index: int, systems: Sequence[str]) -> list[Any]:
    """One check-point of :func:`~checkpoints.service.show.describe` as the page's compact array."""
    per_system: list[Any] = []
    for name in systems:
        shown = item["systems"].get(name)
        if not shown or not shown["evaluated"]:
            per_system.append(0)
            continue
        chosen = next((i for i, ref in enumerate(shown["references"]) if ref["chosen"]), -1)
        entry = [
            _round(shown["score"]),
            chosen,
            [[ref["matched"], ref["total"], ref["matched_ngrams"]] for ref in shown["references"]],
        ]
        if shown.get("alternative"):  # matched through an alternative reference (evaluate --alternatives)
            entry.append(shown["alternative"])
        per_system.append(entry)
    references = [[ref["reference"], _round(ref["dm"], 3), ref["tokens"]] for ref in item["references"]]
    return [item["id"], pair_index, list(item["span"]), references, per_system]


def pair_pieces(evaluation: Evaluation, translations: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """Each pair's source tokens, reference sentences and system translations, stored once."""
    pairs = evaluation.suite.pairs
    return {
        "ids": [pair.id for pair in pairs],
        "source": [pair.source.forms for pair in pairs],
        "references": [[reference.text for reference in pair.references] for pair in pairs],
        "translations": [list(translations[name]) for name in evaluation.scores],
    }
