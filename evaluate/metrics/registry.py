"""Registry of metrics by Asiya name.

Each family module of this package defines ``METRICS: dict[str, MetricEntry]``;
the registry finds them with :mod:`pkgutil`, so adding a family never touches
a shared list. Modules are imported on first use only (``checkpoints --help``
stays fast).

Combinations (``ULC(BLEU,-TER)``, ``QUEEN(BLEU,ROUGE-L)``,
:mod:`checkpoints.evaluate.metrics.combination`) are names too: :func:`entry`
and :func:`get_metric` build them from their parts, so every caller that
checks or builds a metric by name accepts them without knowing about them.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.base import Metric, MetricCache, MetricOptions

if TYPE_CHECKING:
    from checkpoints.evaluate.metrics.combination import CombinationName


@dataclass(frozen=True, slots=True)
class MetricEntry:
    description: str
    factory: Callable[[MetricOptions], Metric]
    sets: tuple[str, ...] = ("lexical", "all")
    language: bool = False
    """The metric depends on the target language (stemmers, synonyms, tuned parameters), so
    callers must know it rather than assume one (``MetricOptions.language``)."""
    requires: tuple[str, ...] = ()
    """``MetricOptions.extra`` keys the metric cannot run without (METEOR-pa's paraphrase table)."""


@cache
def _families() -> tuple[dict[str, MetricEntry], tuple[Callable[[str], MetricEntry | None], ...]]:
    """Every family module's ``METRICS``, and the ``resolve_metric`` functions of families whose names
    take open-ended types (``SP-Op(NN)``: any tag a parser writes)."""
    import checkpoints.evaluate.metrics as package

    entries: dict[str, MetricEntry] = {}
    resolvers = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name in {"base", "registry", "combination"} or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, entry in getattr(module, "METRICS", {}).items():
            if name in entries:
                raise RuntimeError(f"metric {name} registered twice (second time in {module.__name__})")
            entries[name] = entry
        if hasattr(module, "resolve_metric"):
            resolvers.append(module.resolve_metric)
    return entries, tuple(resolvers)


def _entries() -> dict[str, MetricEntry]:
    return _families()[0]


def metric_names(metric_set: str | None = None) -> list[str]:
    entries = _entries()
    if metric_set is None:
        return list(entries)
    names = [name for name, entry in entries.items() if metric_set in entry.sets]
    if not names:
        raise UsageError(f"unknown metric set {metric_set!r} (known: {', '.join(sorted(metric_sets()))})")
    return names


def metric_sets() -> set[str]:
    return {s for entry in _entries().values() for s in entry.sets}


def describe(name: str) -> str:
    return entry(name).description


def _part_entry(combination: CombinationName, part: str) -> MetricEntry:
    """A part's entry; an unknown part names the combination it is in."""
    try:
        return _entry(part)
    except UsageError as error:
        raise UsageError(f"{combination.kind}({','.join(combination.parts)}): {error}") from None


def entry(name: str) -> MetricEntry:
    """The registry entry of ``name`` (what the metric needs before it can be built).

    A combination's entry depends on the target language when a part does, and
    requires what its parts require.
    """
    from checkpoints.evaluate.metrics.combination import (
        FACTORIES,
        describe_combination,
        parse_combination,
    )

    combination = parse_combination(name)
    if combination is None:
        return _entry(name)
    parts = [_part_entry(combination, part) for part in combination.parts]
    factory = FACTORIES[combination.kind]

    def build(options: MetricOptions) -> Metric:
        return factory([part.factory(options) for part in parts], options)

    return MetricEntry(
        description=describe_combination(combination),
        factory=build,
        sets=(),
        language=any(part.language for part in parts),
        requires=tuple(dict.fromkeys(key for part in parts for key in part.requires)),
    )


def get_metric(name: str, options: MetricOptions | None = None, cache: MetricCache | None = None) -> Metric:
    """A metric by Asiya name; ``cache`` is the run's shared cache (the metric's own when None)."""
    metric = entry(name).factory(options or MetricOptions())
    if cache is not None:
        metric.cache = cache
    return metric


def _entry(name: str) -> MetricEntry:
    entries = _entries()
    if name in entries:
        return entries[name]
    for resolve in _families()[1]:
        found = resolve(name)
        if found is not None:
            return found
    folded = {key.lower(): key for key in entries}
    hint = folded.get(name.lower())
    suggestion = f" (did you mean {hint}?)" if hint else " (see `checkpoints metrics --list`)"
    raise UsageError(f"unknown metric {name!r}{suggestion}")
