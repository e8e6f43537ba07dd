"""Symmetrisation of two directional word alignments (Koehn, Och & Marcu 2003).

Statistical aligners such as eflomal model one direction at a time: in the
forward direction every target word gets at most one source word, in the
reverse direction every source word gets at most one target word. Neither is
a good many-to-many alignment on its own; the heuristics here combine them.

``grow-diag-final-and`` (the Moses default, Koehn et al. 2003 §4; Koehn,
*Statistical Machine Translation* 2010 §4.5.3):

1. start from the intersection of the two directions (high precision);
2. **grow-diag**: repeatedly visit the current links in row-major order
   (source index, then target index) and add any of the eight neighbouring
   points — horizontal, vertical and diagonal — that is in the *union* of the
   two directions and whose source word or target word is still unaligned;
   stop when a full pass adds nothing;
3. **final-and**: visit the forward links, then the backward links, in
   row-major order and add a link if *both* its words are still unaligned.

``grow-diag-final`` differs only in step 3, which adds a link if *either*
word is unaligned. ``grow-diag`` stops after step 2.

A pass visits links added during the same pass when they come later in
row-major order (the grid loop of the published pseudo-code does the same),
which a heap keyed on ``(source, target)`` reproduces without scanning the
whole grid.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

from checkpoints.errors import UsageError
from checkpoints.model import Alignment

Link = tuple[int, int]

NEIGHBOURS: tuple[Link, ...] = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
"""The order of the published pseudo-code: horizontal/vertical first, then diagonal."""

METHODS = ("intersection", "union", "grow-diag", "grow-diag-final", "grow-diag-final-and")


def symmetrize(
    forward: Sequence[Alignment],
    backward: Sequence[Alignment],
    method: str = "grow-diag-final-and",
) -> list[Alignment]:
    """Combine per-sentence forward and backward alignments (both source-target order).

    The links both directions found are kept as the alignment's ``sure`` links.
    """
    if method not in METHODS:
        raise UsageError(f"unknown symmetrisation {method!r} (choose {', '.join(METHODS)})")
    if len(forward) != len(backward):
        raise ValueError(f"{len(forward)} forward alignments but {len(backward)} backward ones")
    return [
        Alignment(frozenset(symmetrize_links(f.links, b.links, method)), sure=f.links & b.links)
        for f, b in zip(forward, backward, strict=True)
    ]


def symmetrize_links(forward: Iterable[Link], backward: Iterable[Link], method: str = "grow-diag-final-and") -> set[Link]:
    """One sentence's symmetrised links; see the module docstring for the algorithm."""
    forward_set, backward_set = set(forward), set(backward)
    if method == "intersection":
        return forward_set & backward_set
    if method == "union":
        return forward_set | backward_set
    if method not in METHODS:
        raise UsageError(f"unknown symmetrisation {method!r} (choose {', '.join(METHODS)})")
    links = forward_set & backward_set
    union = forward_set | backward_set
    aligned_source = {s for s, _ in links}
    aligned_target = {t for _, t in links}

    def add(link: Link) -> None:
        links.add(link)
        aligned_source.add(link[0])
        aligned_target.add(link[1])

    changed = True
    while changed:
        changed = False
        pending = sorted(links)
        heapq.heapify(pending)
        while pending:
            source, target = current = heapq.heappop(pending)
            for ds, dt in NEIGHBOURS:
                candidate = (source + ds, target + dt)
                if candidate in union and (candidate[0] not in aligned_source or candidate[1] not in aligned_target):
                    add(candidate)
                    changed = True
                    if candidate > current:
                        heapq.heappush(pending, candidate)
    if method == "grow-diag":
        return links
    both = method == "grow-diag-final-and"
    for direction in (forward_set, backward_set):
        for source, target in sorted(direction):
            source_free = source not in aligned_source
            target_free = target not in aligned_target
            if (source_free and target_free) if both else (source_free or target_free):
                add((source, target))
    return links
