"""Pausing Python's cyclic garbage collector during bulk work.

A build or an evaluation allocates hundreds of thousands of small objects
(tokens, check-points, references, rows) that all stay alive until the work
ends. The cyclic collector is triggered by allocation counts and rescans those
live objects again and again: on the 1000-pair PUD build that was half of the
extraction time. None of these objects need collecting while the work runs, so
the collector is paused and, when the work ends, left as it was found (enabled
again if it was enabled). Reference counting still frees everything that is
dropped, during the work and after.

Nothing else about the collector changes: objects are not moved to its
permanent generation (:func:`gc.freeze`), which would exempt them from
collection for the rest of the process. A library cannot know what else the
process holds, so it must not change how the whole process collects garbage.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic collector for the ``with`` block, then restore its previous state."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
