"""The gate's settings from three places, in order of precedence: options, a rules file, the defaults.

A CI job keeps its thresholds in a file under version control and a person
tries a stricter one on the command line without editing it; both must mean
the same thing, so both are merged here into one :class:`GateRequest`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import UsageError, check_choice
from checkpoints.evaluate.defaults import (
    DEFAULT_ALPHA,
    DEFAULT_CORRECTION,
    DEFAULT_MIN_CHECKPOINTS,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
)
from checkpoints.evaluate.gate import DEFAULT_MIN_DROP, SCOPE_KINDS, GateRules
from checkpoints.evaluate.resample import Method, ResampleSpec
from checkpoints.service.gate import GateRequest
from checkpoints.service.gate_rules import RulesFile, read_rules
from checkpoints.service.option_values import check_at_least, check_probability


@dataclass(frozen=True, slots=True)
class GateOptions:
    """What the command line gave; None and empty lists leave the decision to the rules file or the default."""

    min_drop: float | None = None
    category_drops: Sequence[str] = ()
    """``CATEGORY=DROP`` values."""
    metrics: Sequence[str] = ()
    metric_drops: Sequence[str] = ()
    """``METRIC=DROP`` values."""
    scopes: Sequence[str] = ()
    min_checkpoints: int | None = None
    samples: int | None = None
    seed: int | None = None
    method: str | None = None
    correction: str | None = None
    alpha: float | None = None


def gate_request(
    store: str, baseline: str, candidate: str, options: GateOptions, *, rules: Path | None = None,
    suite: str | None = None, runs: Mapping[str, int] | None = None, tokenize: str | None = None,
) -> GateRequest:
    """Merge options over the rules file over the defaults, and check every value."""
    given = read_rules(rules) if rules is not None else RulesFile()
    file = given.settings

    def pick(option: object, key: str, default: object) -> object:
        return option if option is not None else file.get(key, default)

    min_drop = float(pick(options.min_drop, "min_drop", DEFAULT_MIN_DROP))  # type: ignore[arg-type]
    category_drops = {**given.categories, **_named_numbers(options.category_drops, "--category-drop", "CATEGORY")}
    metric_drops = _named_numbers(options.metric_drops, "--metric-drop", "METRIC")
    metrics: dict[str, float | None] = dict(given.metrics)
    metrics.update({name: None for name in options.metrics if name not in metrics})
    for name, value in metric_drops.items():
        metrics[name] = value  # a drop given for a metric makes it a rule
    if metrics:  # unknown names fail before any comparison; rules are keyed as the metrics report them
        from checkpoints.service.metric_texts import checked_metric_names

        metrics = {checked_metric_names([name])[0]: drop for name, drop in metrics.items()}
    scopes = tuple(options.scopes) or tuple(file.get("scopes", SCOPE_KINDS))  # type: ignore[arg-type]
    method = str(pick(options.method, "method", Method.BOOTSTRAP.value))
    check_choice("--method", method, tuple(m.value for m in Method))
    correction = str(pick(options.correction, "correction", DEFAULT_CORRECTION))
    check_choice("--correction", correction, ("holm", "bh", "none"))
    alpha = float(pick(options.alpha, "alpha", DEFAULT_ALPHA))  # type: ignore[arg-type]
    check_probability("--alpha", alpha)
    samples = int(pick(options.samples, "samples", DEFAULT_SAMPLES))  # type: ignore[call-overload]
    check_at_least("--samples", samples, 1)
    min_checkpoints = int(pick(options.min_checkpoints, "min_checkpoints", DEFAULT_MIN_CHECKPOINTS))  # type: ignore[call-overload]
    check_at_least("--min-checkpoints", min_checkpoints, 0)
    seed = int(pick(options.seed, "seed", DEFAULT_SEED))  # type: ignore[call-overload]
    gate_rules = GateRules(min_drop=min_drop, category_drops=category_drops, scopes=scopes, metrics=metrics)
    return GateRequest(
        store=store, baseline=_system(baseline, "--baseline"), candidate=_system(candidate, "--candidate"),
        rules=gate_rules, suite=suite, runs=dict(runs or {}), spec=ResampleSpec(Method(method), samples, seed),
        correction=correction, alpha=alpha, min_checkpoints=min_checkpoints, tokenize=tokenize,
    )


def _system(value: str, option: str) -> str | tuple[str, Path]:
    """NAME (a stored evaluation) or NAME=FILE (evaluated now)."""
    name, sep, path = value.partition("=")
    if not name or (sep and not path):
        raise UsageError(f"{option} {value!r}: expected NAME or NAME=FILE")
    return (name, Path(path)) if sep else name


def _named_numbers(values: Sequence[str], option: str, what: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for value in values:
        name, sep, number = value.rpartition("=")
        try:
            drop = float(number)
        except ValueError:
            drop = float("nan")
        if not sep or not name or drop != drop:
            raise UsageError(f"{option} {value!r}: expected {what}=DROP with DROP a number")
        if name in found:
            raise UsageError(f"{option}: {name!r} given twice")
        found[name] = drop
    return found
