"""Where a command's independent pieces of work run: here, in this process (the default), or
on a Ray cluster (``--engine ray``), through one small interface.

A piece of work is ``work(state, item)``: the state (a parser pipeline, a
prepared taxonomy with its dictionary) is made once per worker by ``setup``
and the items (chunks of sentence pairs, groups of metrics) stream through in
order. The local engine is a plain loop and imports nothing of Ray; the Ray
engine (:mod:`checkpoints.ray_engine`) keeps one actor per worker, each with
its own state, and Ray's ``ActorPool`` hands them the items. Both give the
results in the order of the items, so a command's output does not depend on
where it ran.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol, TypeVar

from checkpoints.errors import UsageError

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

ENGINES = ("local", "ray")


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """Which engine a command asked for, and how much of it."""

    name: str = "local"
    address: str | None = None
    """A running Ray cluster (``ray://host:10001`` or ``host:6379``); None starts one on this machine."""
    workers: int | None = None
    """Worker processes (actors); None: one per CPU the cluster has."""
    gpus_per_worker: float = 0.0

    def validate(self) -> None:
        if self.name not in ENGINES:
            raise UsageError(f"unknown engine {self.name!r} (choose {' or '.join(ENGINES)})")
        if self.name == "local" and (self.address is not None or self.workers is not None or self.gpus_per_worker):
            raise UsageError("--address, --workers and --gpus-per-worker apply to --engine ray")
        if self.workers is not None and self.workers < 1:
            raise UsageError(f"--workers must be at least 1, not {self.workers}")
        if self.gpus_per_worker < 0:
            raise UsageError(f"--gpus-per-worker must not be negative, not {self.gpus_per_worker}")


class Engine(Protocol):
    name: str
    workers: int

    def map(self, setup: Callable[[], S], work: Callable[[S, T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        """``(item, work(state, item))`` for every item, in the items' order."""
        ...


class LocalEngine:
    """Everything in this process, one item after the other."""

    name = "local"
    workers = 1

    def map(self, setup: Callable[[], S], work: Callable[[S, T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        state = setup()
        for item in items:
            yield item, work(state, item)


@contextmanager
def open_engine(spec: EngineSpec | None = None) -> Iterator[Engine]:
    """The engine ``spec`` names, for the ``with`` block (a Ray runtime started here is stopped after)."""
    spec = spec or EngineSpec()
    spec.validate()
    if spec.name == "local":
        yield LocalEngine()
        return
    from checkpoints.ray_engine import RayEngine

    engine = RayEngine(spec.address, spec.workers, spec.gpus_per_worker)
    try:
        yield engine
    finally:
        engine.close()
