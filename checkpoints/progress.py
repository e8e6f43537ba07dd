"""The two progress callbacks the library takes, so that it never draws anything itself.

* a **stage** callback, ``progress(description, total)``, returns ``advance(n)``: builds and model
  training report their stages this way (the command line draws a bar, or log lines);
* a **track** wraps a loop over items, ``track(items)``, yielding them: meta-evaluation and QARLA
  score their metrics in one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

Advance = Callable[[int], None]
"""``advance(n)``: n more units of the current stage are done."""
Progress = Callable[[str, int], Advance]
"""``progress(description, total)`` starts a stage and returns its :data:`Advance`; a total of 0
means the stage does not know its size in advance (a corpus read as it streams)."""
Track = Callable[[Sequence[T]], Iterable[T]]
"""``track(items)`` yields ``items``, showing how far the loop got."""


def no_progress(description: str, total: int) -> Advance:
    """The stage callback that shows nothing (the library's default)."""
    return lambda n: None
