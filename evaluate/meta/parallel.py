"""Per-metric work of ``checkpoints meta`` spread over worker processes (``--jobs``).

Meta-evaluating tens of metrics is dominated by scoring every system output
with every metric, one metric at a time and independent of the others, so
metrics are handed to forked workers. Forking (Linux only) lets a worker use
the metrics, the test bed and the caches the parent built without pickling
them; only the results (numpy arrays and plain records) travel back. Metrics
of one class go to the same worker in their order, so families that share a
run's cache (TER and TERbase, the ROUGE and NGRAM measures, chrF and chrF++)
still share it. A metric whose work fails in a worker is done again in the
parent, so errors are raised there exactly as without workers.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

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
    try:
        with multiprocessing.get_context("fork").Pool(processes=min(jobs, len(groups))) as pool:
            for done in pool.imap_unordered(_run_group, range(len(groups))):
                yield from done
    finally:
        _work, _groups = None, ()


def _run_group(group: int) -> list[tuple[int, object | None]]:
    assert _work is not None
    done: list[tuple[int, object | None]] = []
    for index in _groups[group]:
        try:
            done.append((index, _work(index)))
        except Exception:  # redone in the parent, which raises it as it would without workers
            done.append((index, None))
    return done
