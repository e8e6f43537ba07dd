"""Registry of metrics by Asiya name.

Each family module of this package defines ``METRICS: dict[str, MetricEntry]``;
the registry finds them with :mod:`pkgutil`, so adding a family never touches
a shared list. Modules are imported on first use only (``checkpoints --help``
stays fast).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.base import Metric, MetricCache, MetricOptions


@dataclass(frozen=True, slots=True)
class MetricEntry:
    description: str
    factory: Callable[[MetricOptions], Metric]
    sets: tuple[str, ...] = ("lexical",)
    language: bool = False
    """The metric depends on the target language (stemmers, synonyms, tuned parameters), so
    callers must know it rather than assume one (``MetricOptions.language``)."""
    requires: tuple[str, ...] = ()
    """``MetricOptions.extra`` keys the metric cannot run without (METEOR-pa's paraphrase table)."""


@cache
def _entries() -> dict[str, MetricEntry]:
    import checkpoints.evaluate.metrics as package

    entries: dict[str, MetricEntry] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name in {"base", "registry"} or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, entry in getattr(module, "METRICS", {}).items():
            if name in entries:
                raise RuntimeError(f"metric {name} registered twice (second time in {module.__name__})")
            entries[name] = entry
    return entries


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
    return _entry(name).description


def entry(name: str) -> MetricEntry:
    """The registry entry of ``name`` (what the metric needs before it can be built)."""
    return _entry(name)


def get_metric(name: str, options: MetricOptions | None = None, cache: MetricCache | None = None) -> Metric:
    """A metric by Asiya name; ``cache`` is the run's shared cache (the metric's own when None)."""
    metric = _entry(name).factory(options or MetricOptions())
    if cache is not None:
        metric.cache = cache
    return metric


def _entry(name: str) -> MetricEntry:
    entries = _entries()
    if name in entries:
        return entries[name]
    folded = {key.lower(): key for key in entries}
    hint = folded.get(name.lower())
    suggestion = f" (did you mean {hint}?)" if hint else " (see `checkpoints metrics --list`)"
    raise UsageError(f"unknown metric {name!r}{suggestion}")
