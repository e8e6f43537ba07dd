"""``checkpoints.workers.in_background``: a forked child's result is the parent's own, and
every way it can go wrong falls back to computing in the parent."""

from __future__ import annotations

import os

import pytest

from checkpoints import workers
from checkpoints.errors import CheckpointsError
from checkpoints.workers import in_background

needs_fork = pytest.mark.skipif(not workers.can_fork(), reason="only Linux forks here")


@pytest.fixture
def beside(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fork even on a one-CPU machine or with pytest's helper threads around."""
    monkeypatch.setattr(workers, "can_run_beside", workers.can_fork)


@needs_fork
def test_the_child_computes_what_the_parent_would(beside: None) -> None:
    parent = os.getpid()
    with in_background(lambda: (os.getpid(), [1.5, "two", {"three": 3}])) as pending:
        assert pending.forked
        pid, value = pending.result()
    assert pid != parent and value == [1.5, "two", {"three": 3}]


@needs_fork
def test_a_failing_child_is_redone_here_and_raises_here(beside: None) -> None:
    calls: list[int] = []

    def work() -> int:
        calls.append(os.getpid())
        raise CheckpointsError("cannot score")

    with pytest.raises(CheckpointsError, match="cannot score"), in_background(work) as pending:
        assert pending.forked
        pending.result()
    assert calls == [os.getpid()]  # the child's own call is not seen here; the parent's raised


@needs_fork
def test_a_child_whose_result_is_not_wanted_is_stopped(beside: None) -> None:
    with pytest.raises(KeyError), in_background(lambda: __import__("time").sleep(60)) as pending:
        child = pending._pid
        raise KeyError("the parent failed meanwhile")
    assert child is not None
    with pytest.raises(ChildProcessError):  # reaped: no zombie left behind
        os.waitpid(child, os.WNOHANG)


def test_without_forking_the_work_runs_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "can_run_beside", lambda: False)
    with in_background(os.getpid) as pending:
        assert not pending.forked
        assert pending.result() == os.getpid()


def test_no_fork_beside_other_threads() -> None:
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not workers.can_run_beside()
    finally:
        stop.set()
        thread.join()


@needs_fork
def test_a_result_asked_for_twice_is_computed_once(beside: None) -> None:
    calls: list[int] = []

    def work() -> list[int]:
        calls.append(os.getpid())
        return [len(calls)]

    with in_background(work) as pending:
        first = pending.result()
        assert pending.result() is first and first == [1]
    assert calls == []  # computed in the child only


_STUCK_SIGTERM = """
import os, signal, sys, time
from checkpoints.workers import forked_map

# A SIGTERM handler that never returns, as a C library's logging handler can when the child was
# forked while another thread held its lock (Ray's driver installs one).
signal.signal(signal.SIGTERM, lambda *_: time.sleep(1000))
squares = dict(forked_map(lambda index: index * index, [[0, 1], [2], [3]], 2))
for _ in forked_map(lambda index: index, [[0], [1], [2], [3]], 2):
    break  # a caller that stops early: the pool is torn down while workers wait for work
print(sorted(squares.items()))
"""


@needs_fork
def test_forked_workers_do_not_inherit_the_parents_sigterm_handler() -> None:
    """``meta --jobs`` once hung for an hour in a process that ran Ray: the pool signalled its
    workers, which ran the handler they had inherited and never left."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _STUCK_SIGTERM], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "[(0, 0), (1, 1), (2, 4), (3, 9)]\n"), done.stderr
