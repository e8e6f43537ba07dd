"""Reading the JSON that ``checkpoints metrics``, ``meta``, ``gate`` and ``challenge`` print, for the report.

The report only shows these files; it checks their shape first so that a
wrong file gives one line naming the file and what is missing, not a broken
page or a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from checkpoints.errors import InputError


class _Invalid(ValueError):
    """A problem with a file's content, turned into ``FILE: not a ... JSON (problem)``."""


def read_metrics_json(path: Path) -> dict[str, Any]:
    """The system-level report of ``metrics --format json`` (``-g all`` gives a list: its ``sys`` entry)."""
    data = _load(path, "metrics")
    try:
        if isinstance(data, list):
            system_level = [item for item in data if isinstance(item, dict) and item.get("granularity") == "sys"]
            if not system_level:
                raise _Invalid("no system-level (sys) report in the list")
            data = system_level[0]
        _object(data)
        if data.get("granularity", "sys") != "sys":
            raise _Invalid(f"granularity {data.get('granularity')!r}: run `checkpoints metrics` with -g sys or -g all")
        metrics = _list_of_strings(data, "metrics")
        scores = _map_of_objects(data, "scores", "each system to its metric scores")
        significance = data.get("significance")
        if significance is not None and not isinstance(significance.get("comparisons"), list):
            raise _Invalid('"significance" has no "comparisons" list')
    except _Invalid as problem:
        raise InputError(path, None, f"not a metrics JSON ({problem})") from None
    return {
        "metrics": metrics,
        "scores": scores,
        "significance": significance,
        "signature": data.get("signature", {}),
        "test_set": data.get("test_set"),
    }


def read_meta_json(path: Path) -> dict[str, Any]:
    """The report of ``meta --format json``, with the per-system ``points`` when the file has them."""
    data = _load(path, "meta")
    try:
        _object(data)
        criteria = _list_of_strings(data, "criteria")
        results = _map_of_objects(data, "results", "each metric to its correlations")
        points = data.get("points")
        if points is not None and not (
            isinstance(points, dict) and isinstance(points.get("human"), dict) and isinstance(points.get("metrics"), dict)
        ):
            raise _Invalid('"points" must hold "human" and "metrics" score maps')
    except _Invalid as problem:
        raise InputError(path, None, f"not a meta JSON ({problem})") from None
    return {
        "level": data.get("level"),
        "n": data.get("n"),
        "judgments": data.get("judgments"),
        "criteria": criteria,
        "ci": data.get("ci"),
        "results": results,
        "points": points,
        "warnings": [str(w) for w in data.get("warnings", [])],
        "signature": data.get("signature"),
    }


def read_gate_json(path: Path) -> dict[str, Any]:
    """The decision of ``gate --format json``: its verdicts, each with its message and examples."""
    data = _load(path, "gate")
    try:
        _object(data)
        for key in ("suite", "baseline", "candidate", "signature"):
            if not isinstance(data.get(key), str):
                raise _Invalid(f'no "{key}"')
        if not isinstance(data.get("passed"), bool):
            raise _Invalid('no "passed" decision')
        verdicts = data.get("verdicts")
        if not isinstance(verdicts, list) or not all(
            isinstance(v, dict) and all(isinstance(v.get(k), str) for k in ("rule", "name", "outcome", "message"))
            and isinstance(v.get("examples", []), list)
            for v in verdicts
        ):
            raise _Invalid('"verdicts" must be a list of rules, each with its "rule", "name", "outcome" and "message"')
    except _Invalid as problem:
        raise InputError(path, None, f"not a gate JSON ({problem}); write one with `checkpoints gate --format json`") from None
    return data


def read_challenge_json(path: Path) -> dict[str, Any]:
    """The report of ``challenge --score --format json``: every metric's accuracy per group."""
    data = _load(path, "challenge")
    try:
        _object(data)
        if not isinstance(data.get("suite"), str) or not isinstance(data.get("items"), int):
            raise _Invalid('no "suite" or "items" count')
        metrics = _list_of_strings(data, "metrics")
        rows = data.get("accuracy")
        if not isinstance(rows, list) or not all(
            isinstance(r, dict) and isinstance(r.get("metric"), str) and isinstance(r.get("group"), str)
            and isinstance(r.get("accuracy"), int | float) and isinstance(r.get("interval"), list)
            for r in rows
        ):
            raise _Invalid('"accuracy" must be a list of rows with "metric", "group", "accuracy" and "interval"')
        if not metrics:
            raise _Invalid("no metric scored it: run `checkpoints challenge --score -m METRIC`")
    except _Invalid as problem:
        raise InputError(path, None, f"not a challenge JSON ({problem})") from None
    return data


def _load(path: Path, kind: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(path, None, f"cannot read the {kind} JSON ({getattr(error, 'strerror', None) or error})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(path, None, f"not a {kind} JSON ({error.msg} at line {error.lineno})") from None


def _object(data: Any) -> None:
    if not isinstance(data, dict):
        raise _Invalid(f"a JSON {type(data).__name__}, not an object")


def _map_of_objects(data: dict[str, Any], key: str, what: str) -> dict[str, dict[str, Any]]:
    value = data.get(key)
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise _Invalid(f'"{key}" must map {what}')
    return value


def _list_of_strings(data: dict[str, Any], key: str) -> list[str]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Invalid(f'missing "{key}" list')
    return value
