"""Gate rules from a TOML file, so that a CI job keeps its thresholds under version control.

::

    min_drop = 0.02                 # every scope; check-point scores are in [0, 1]
    min_checkpoints = 30            # smaller categories never fail
    scopes = ["taxonomy", "group", "category"]
    alpha = 0.05
    samples = 1000
    correction = "holm"

    [categories]                    # per-category minimum drops
    Preposition = 0.05

    [metrics]                       # metric rules: a minimum drop in the metric's scale,
    BLEU = "default"                # or "default" for the published one (BLEU, chrF)
    "-TER" = 0.02

A mistake names the file, the line and the problem; keys are checked, not ignored.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkpoints.errors import InputError

_NUMBERS = {"min_drop": float, "alpha": float}
_INTEGERS = {"min_checkpoints", "samples", "seed"}
_TEXTS = {"correction", "method"}
_TABLES = {"categories", "metrics"}
KEYS = frozenset({*_NUMBERS, *_INTEGERS, *_TEXTS, *_TABLES, "scopes"})


@dataclass(frozen=True, slots=True)
class RulesFile:
    """What a rules file sets; keys it does not set are absent from ``settings`` (the options decide)."""

    settings: dict[str, Any] = field(default_factory=dict)
    categories: dict[str, float] = field(default_factory=dict)
    metrics: dict[str, float | None] = field(default_factory=dict)


def read_rules(path: Path) -> RulesFile:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(path, None, f"cannot read the rules file: {getattr(error, 'strerror', None) or error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"at line (\d+)", str(error))
        raise InputError(path, int(line.group(1)) if line else None, f"not valid TOML: {error}") from None

    def fail(key: str, problem: str) -> InputError:
        return InputError(path, _line_of(text, key), problem)

    settings: dict[str, Any] = {}
    for key, value in data.items():
        if key not in KEYS:
            raise fail(key, f"unknown key {key!r} (known: {', '.join(sorted(KEYS))})")
        if key in _NUMBERS and not _is_number(value):
            raise fail(key, f"{key} must be a number, not {value!r}")
        if key in _INTEGERS and (not isinstance(value, int) or isinstance(value, bool)):
            raise fail(key, f"{key} must be a whole number, not {value!r}")
        if key in _TEXTS and not isinstance(value, str):
            raise fail(key, f"{key} must be a string, not {value!r}")
        if key == "scopes" and (not isinstance(value, list) or not all(isinstance(v, str) for v in value)):
            raise fail(key, f"scopes must be a list of strings, not {value!r}")
        if key in _TABLES and not isinstance(value, dict):
            raise fail(key, f"[{key}] must be a table of names")
        if key not in _TABLES:
            settings[key] = float(value) if key in _NUMBERS else value
    categories: dict[str, float] = {}
    for name, value in data.get("categories", {}).items():
        if not _is_number(value):
            raise fail(name, f"the minimum drop of category {name!r} must be a number, not {value!r}")
        categories[name] = float(value)
    metrics: dict[str, float | None] = {}
    for name, value in data.get("metrics", {}).items():
        if value == "default":
            metrics[name] = None
        elif _is_number(value):
            metrics[name] = float(value)
        else:
            raise fail(name, f'the minimum drop of metric {name!r} must be a number or "default", not {value!r}')
    return RulesFile(settings, categories, metrics)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _line_of(text: str, key: str) -> int | None:
    """The line that sets ``key`` (bare or quoted), for messages that point at it."""
    pattern = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return None
