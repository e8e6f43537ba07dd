"""A comparison in one sentence per pair of systems: what `compare` prints last and the HTML report
shows first, readable without JavaScript.

Read from the comparison's JSON (:func:`checkpoints.report.checkpoint_json.comparison_json`), the
document both the command and the report hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def summary_sentences(report: Mapping[str, Any]) -> list[str]:
    """``B against A: …`` for every compared pair: the overall score, the categories where B is
    significantly better or worse, and how many were not tested for lack of check-points."""
    method = f"paired {report['method']}" if report["method"] == "bootstrap" else "approximate randomization"
    correction = {"holm": "Holm", "bh": "Benjamini-Hochberg", "none": "uncorrected"}.get(report["correction"],
                                                                                          report["correction"])
    test = f"{method}, {report['samples']} samples, {correction} p ≤ {report['alpha']:g}"
    return [_sentence(pair, int(report["min_checkpoints"]), test) for pair in report["comparisons"]]


def _sentence(pair: Mapping[str, Any], min_checkpoints: int, test: str) -> str:
    a, b = pair["system_a"], pair["system_b"]
    (overall,) = pair["taxonomy"].values()
    categories: Mapping[str, Mapping[str, Any]] = pair["categories"]
    better = [name for name, row in categories.items() if row["significant"] and row["difference"] > 0]
    worse = [name for name, row in categories.items() if row["significant"] and row["difference"] < 0]
    untested = [name for name, row in categories.items() if row["too_few"]]
    rest = len(categories) - len(better) - len(worse) - len(untested)
    if overall["significant"]:
        verdict = "significantly higher" if overall["difference"] > 0 else "significantly lower"
    else:
        verdict = "not significantly different"
    parts = [f"{b} against {a}: overall {overall['score_b']:.3f} against {overall['score_a']:.3f}, {verdict}"]
    if better:
        parts.append(f"better on {_names(better)}")
    if worse:
        parts.append(f"worse on {_names(worse)}")
    if rest:
        others = "the other " if better or worse else ""
        parts.append(f"no significant difference on {others}{rest} categor{'y' if rest == 1 else 'ies'}")
    if untested:
        parts.append(f"{len(untested)} with fewer than {min_checkpoints} check-points not tested")
    return "; ".join(parts) + f" ({test})."


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
