"""Work spread over forked processes: ``meta --jobs``, and beside the main work ``evaluate``'s
BLEU row, a stored suite's content hash and half of the HTML report's drill-downs.

Forking (Linux only) lets a worker use what the parent built (metrics, test
beds, a loaded suite and its caches) without pickling it; only results
(numpy arrays, floats and plain records) travel back. Work that fails in a
worker is done again in the parent, so errors are raised there exactly as
without workers, and results never depend on whether work was forked.

:func:`forked_map` spreads many independent items over a pool (meta-evaluating
tens of metrics: metrics of one class go to the same worker in their order,
so families that share a run's cache still share it). :func:`in_background`
runs one function in a single child while the parent goes on.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Generic, TypeVar

R = TypeVar("R")

_work: Callable[[int], object] | None = None
_groups: Sequence[Sequence[int]] = ()


def can_fork() -> bool:
    """Whether workers can be forked here (Linux; elsewhere the work runs in this process)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def forked_map(work: Callable[[int], R], groups: Sequence[Sequence[int]], jobs: int) -> Iterator[tuple[int, R | None]]:
    """``(index, work(index))`` for every index of ``groups``, in the order workers finish them.

    Each group runs in one worker, its indices in order. The result is None
    where ``work`` raised in the worker (the caller does that index itself).
    """
    global _work, _groups
    _work, _groups = work, groups
    pool = multiprocessing.get_context("fork").Pool(processes=min(jobs, len(groups)), initializer=_default_signals)
    try:
        for done in pool.imap_unordered(_run_group, range(len(groups))):
            yield from done
        pool.close()  # every worker leaves on its own once the work is done: nothing is signalled
        pool.join()
    finally:
        pool.terminate()
        _work, _groups = None, ()


def _default_signals() -> None:
    """Give a forked worker the default SIGTERM and SIGINT handling.

    A worker inherits the parent's handlers, and a library may have installed
    one in C that logs and locks (Ray's driver does): run in a child forked
    while another thread held that lock, it waits forever, and so does the
    pool that signalled the child. Ctrl-C reaches the parent, which stops the pool.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_group(group: int) -> list[tuple[int, object | None]]:
    assert _work is not None
    done: list[tuple[int, object | None]] = []
    for index in _groups[group]:
        try:
            done.append((index, _work(index)))
        except Exception:  # redone in the parent, which raises it as it would without workers
            done.append((index, None))
    return done


def can_run_beside() -> bool:
    """Whether a forked child would run beside this process rather than take turns with it.

    A second CPU must be free to use, and the process must have no other
    thread: a fork copies only the calling thread, so a lock another thread
    held (a progress bar's, a logging handler's) would stay locked in the child.
    """
    return can_fork() and usable_cpus() > 1 and threading.active_count() == 1


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity where the platform tells it)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class Pending(Generic[R]):
    """The result of a function that a forked child computes (see :func:`in_background`)."""

    def __init__(self, work: Callable[[], R], pid: int | None, pipe: int | None) -> None:
        self._work = work
        self._pid = pid
        self._pipe = pipe
        self._done: list[R] = []

    @property
    def forked(self) -> bool:
        return self._pid is not None

    def result(self) -> R:
        """The child's result; computed here when nothing was forked or the child failed.
        Asked again, it gives the same result without computing it again."""
        if self._done:
            return self._done[0]
        if self._pid is not None and self._pipe is not None:
            with os.fdopen(self._pipe, "rb") as pipe:
                self._pipe = None
                payload = pipe.read()
            _, status = os.waitpid(self._pid, 0)
            self._pid = None
            if payload and os.waitstatus_to_exitcode(status) == 0:
                self._done.append(pickle.loads(payload))  # our own child's result, through our own pipe
                return self._done[0]
        self._done.append(self._work())
        return self._done[0]

    def _discard(self) -> None:
        """Stop a child whose result is no longer wanted (the parent failed meanwhile)."""
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self._pid is not None:
            os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
            self._pid = None


@contextmanager
def in_background(work: Callable[[], R]) -> Iterator[Pending[R]]:
    """Run ``work()`` in a forked child while the ``with`` block runs; ``.result()`` collects it.

    Where :func:`can_run_beside` says no, nothing is forked and ``.result()``
    calls ``work()`` itself. The child shares nothing writable with the
    parent: it must not touch open connections or files (it leaves with
    :func:`os._exit`, closing nothing the parent still uses), and whatever
    ``work`` changes in its objects stays in the child. A child still running
    when the block ends without ``.result()`` is stopped.
    """
    if not can_run_beside():
        yield Pending(work, None, None)
        return
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, and leave without running any of the parent's clean-up
        status = 1
        try:
            os.close(read)
            payload = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as pipe:
                pipe.write(payload)
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    pending = Pending(work, pid, read)
    try:
        yield pending
    finally:
        pending._discard()
