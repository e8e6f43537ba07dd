"""Pausing Python's cyclic garbage collector during bulk work.

A build or an evaluation allocates hundreds of thousands of small objects
(tokens, check-points, references, rows) that all stay alive until the work
ends. The cyclic collector is triggered by allocation counts and rescans those
live objects again and again: on the 1000-pair PUD build that was half of the
extraction time. None of these objects need collecting while the work runs, so
the collector is paused and, when the work ends, left as it was found (enabled
again if it was enabled). Reference counting still frees everything that is
dropped, during the work and after.

What the work made and still holds when it ends is then handed to the oldest
generation at once (:func:`gc.freeze` followed at once by :func:`gc.unfreeze`,
which puts everything frozen back into the oldest generation without walking
it). Left in the youngest generation, the next collections would walk all of
it two or three times over on its way there, which took longer than the work
itself: 2.3 s of the 7 s ``checkpoints demo``. Nothing stays frozen, so the
collector's behaviour afterwards is as before: a full collection still walks
and frees these objects as any others. A process that keeps objects frozen
itself (a pre-fork server) is left alone: unfreezing would thaw its objects too.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic collector for the ``with`` block, then restore its previous state."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def bulk_work(function: Callable[P, R]) -> Callable[P, R]:
    """Marks a service entry point (a build, an evaluation, an import, a report): the collector
    is paused for the whole call. Declared once per entry point, so the code below it, the
    library, never pauses anything itself; nested entry points (a report that evaluates
    first) leave the pause to the outermost."""

    @functools.wraps(function)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        with paused_gc():
            return function(*args, **kwargs)

    return paused
