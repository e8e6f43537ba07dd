"""The Ray engine (``--engine ray``, ``pip install 'mt-checkpoints[ray]'``): one actor per worker.

Each actor makes its state once (``setup``: a stanza pipeline, a prepared
taxonomy) and then works through the items Ray's ``ActorPool`` hands it;
results come back in the items' order. At most two items per worker are in
flight, so the driver holds a bounded number of chunks however long the
corpus is. Without ``--address`` a Ray runtime is started on this machine
for the command and stopped after; with one, the command joins that
cluster, whose nodes need this package installed.

An error raised by the work in an actor is raised here as itself (a bad
input line stays a one-line ``InputError``), not wrapped in Ray's error.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, TypeVar

from checkpoints.errors import UsageError

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT_PER_WORKER = 2
"""Items submitted per worker before the first result is taken: one working, one waiting."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UsageError("--engine ray needs Ray: pip install 'mt-checkpoints[ray]'") from None
    return ray


class RayEngine:
    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None, gpus_per_worker: float = 0.0) -> None:
        ray = _ray()
        self.started_here = not ray.is_initialized()
        if self.started_here:
            try:
                ray.init(
                    address=address,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                    configure_logging=False,
                    # a local runtime sees the package the way this process does
                    runtime_env=None if address else {"env_vars": _passed_environment()},
                )
            except ConnectionError as error:
                raise UsageError(f"--address {address}: cannot join the Ray cluster ({error})") from None
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = workers or max(cpus, 1)
        self.gpus_per_worker = gpus_per_worker

    def map(self, setup: Callable[[], S], work: Callable[[S, T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        ray = _ray()
        from ray.util import ActorPool

        actor_class = ray.remote(_Worker)
        options: dict[str, Any] = {"num_cpus": 1}
        if self.gpus_per_worker:
            options["num_gpus"] = self.gpus_per_worker
        actors = [actor_class.options(**options).remote(setup, work) for _ in range(self.workers)]
        pool = ActorPool(actors)
        pending: list[T] = []
        source = iter(items)

        def submit(item: T) -> None:
            pending.append(item)
            pool.submit(lambda actor, value: actor.run.remote(value), item)

        try:
            for item in islice(source, IN_FLIGHT_PER_WORKER * len(actors)):
                submit(item)
            while pool.has_next():
                try:
                    result = pool.get_next()
                except ray.exceptions.RayTaskError as error:
                    cause = getattr(error, "cause", None)
                    if isinstance(cause, Exception):
                        raise cause from None
                    raise
                item = pending.pop(0)
                following = next(source, _END)
                if following is not _END:
                    submit(following)  # type: ignore[arg-type]
                yield item, result
        finally:
            for actor in actors:
                ray.kill(actor)

    def close(self) -> None:
        if self.started_here:
            _ray().shutdown()


_END = object()


class _Worker:
    """An actor's state and its work (made remote by :meth:`RayEngine.map`)."""

    def __init__(self, setup: Callable[[], Any], work: Callable[[Any, Any], Any]) -> None:
        # an error making the state (a missing model) is kept and raised by the first item, so it
        # reaches the caller as itself rather than as an actor that died in its creation
        self.failure: Exception | None = None
        try:
            self.state = setup()
        except Exception as error:
            self.failure = error
        self.work = work

    def run(self, item: Any) -> Any:
        if self.failure is not None:
            raise self.failure
        from checkpoints.gcpause import paused_gc

        with paused_gc():  # as in the driver's bulk work: the cyclic collector would rescan every chunk's objects
            return self.work(self.state, item)


def _passed_environment() -> dict[str, str]:
    """The settings a worker of a local runtime needs as this process has them (model folders,
    limits, thread counts); everything else it inherits from Ray."""
    names = ("CHECKPOINTS_STANZA_DIR", "STANZA_RESOURCES_DIR", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE",
             "CHECKPOINTS_MAX_LINE_CHARS", "CHECKPOINTS_MAX_INFLATED_BYTES", "OMP_NUM_THREADS")
    return {name: os.environ[name] for name in names if name in os.environ}
