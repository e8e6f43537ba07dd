"""grow-diag-final-and and friends on hand-made link sets, results worked out by hand.

Algorithm as in Koehn, Och & Marcu (2003) and Koehn, *Statistical Machine
Translation* (2010) §4.5.3: start from the intersection, grow through the
eight neighbours (row-major order; neighbours in the order (-1,0), (0,-1),
(1,0), (0,1), then the diagonals) while one side of the candidate is
unaligned, then add forward and backward links whose words are both
unaligned ("final-and") or either unaligned ("final").
"""

from __future__ import annotations

import pytest

from checkpoints.errors import UsageError
from checkpoints.extract.symmetrize import METHODS, symmetrize, symmetrize_links
from checkpoints.model import Alignment

# Case 1 — diagonal growth. Intersection {(0,0)}; (1,1) touches it only
# diagonally. Growth: from (0,0) add (1,1) (source 1 unaligned); from (1,1)
# add (1,2) (target 2 unaligned), then diagonal (2,2) (source 2 unaligned).
DIAG_FORWARD = {(0, 0), (1, 1), (2, 2)}
DIAG_BACKWARD = {(0, 0), (1, 2)}

# Case 2 — final-and versus final. No link touches the intersection {(0,0)},
# so growth adds nothing. final-and: forward (0,2) is refused (source 0 is
# aligned); backward (2,1) is added (source 2 and target 1 both free).
# final: (0,2) is added too, since its target 2 is free.
FINAL_FORWARD = {(0, 0), (0, 2)}
FINAL_BACKWARD = {(0, 0), (2, 1)}

# Case 3 — the visiting order decides. From (1,1) the neighbours are tried in
# order: (1,2) is added (target 2 free), then the diagonal (2,0) (source 2
# free); by the time (2,2) is tried both its words are aligned, so the
# forward link (2,2) is lost, and final-and cannot bring it back either.
ORDER_FORWARD = {(0, 0), (1, 1), (2, 2), (2, 0)}
ORDER_BACKWARD = {(0, 0), (1, 2)}


@pytest.mark.parametrize(
    ("forward", "backward", "method", "expected"),
    [
        (DIAG_FORWARD, DIAG_BACKWARD, "intersection", {(0, 0)}),
        (DIAG_FORWARD, DIAG_BACKWARD, "grow-diag", {(0, 0), (1, 1), (1, 2), (2, 2)}),
        (DIAG_FORWARD, DIAG_BACKWARD, "grow-diag-final-and", {(0, 0), (1, 1), (1, 2), (2, 2)}),
        (FINAL_FORWARD, FINAL_BACKWARD, "grow-diag", {(0, 0)}),
        (FINAL_FORWARD, FINAL_BACKWARD, "grow-diag-final-and", {(0, 0), (2, 1)}),
        (FINAL_FORWARD, FINAL_BACKWARD, "grow-diag-final", {(0, 0), (0, 2), (2, 1)}),
        (FINAL_FORWARD, FINAL_BACKWARD, "union", {(0, 0), (0, 2), (2, 1)}),
        (ORDER_FORWARD, ORDER_BACKWARD, "grow-diag-final-and", {(0, 0), (1, 1), (1, 2), (2, 0)}),
        (ORDER_FORWARD, ORDER_BACKWARD, "grow-diag-final", {(0, 0), (1, 1), (1, 2), (2, 0)}),
    ],
    ids=[
        "diag-intersection",
        "diag-grow-diag",
        "diag-gdfa",
        "final-grow-diag",
        "final-gdfa",
        "final-gdf",
        "final-union",
        "order-gdfa",
        "order-gdf",
    ],
)
def test_hand_worked_cases(forward: set, backward: set, method: str, expected: set) -> None:
    assert symmetrize_links(forward, backward, method) == expected


def test_growth_reaches_links_added_in_the_same_pass() -> None:
    # A chain along the diagonal, only its start in both directions: each
    # added link is later in row-major order, so one pass walks the chain.
    forward = {(0, 0), (1, 1), (2, 2), (3, 3)}
    backward = {(0, 0)}
    assert symmetrize_links(forward, backward, "grow-diag") == forward


def test_growth_needs_an_unaligned_word() -> None:
    # (1,1) neighbours the intersection, but both its words are already aligned.
    forward = {(0, 0), (1, 0), (0, 1), (1, 1)}
    backward = {(0, 0), (1, 0), (0, 1)}
    assert symmetrize_links(forward, backward, "grow-diag-final-and") == {(0, 0), (1, 0), (0, 1)}


def test_empty_and_identical_directions() -> None:
    assert symmetrize_links(set(), set()) == set()
    same = {(0, 1), (1, 0), (3, 2)}
    for method in METHODS:
        assert symmetrize_links(same, same, method) == same


def test_corpus_level() -> None:
    forward = [Alignment(frozenset(FINAL_FORWARD)), Alignment(frozenset())]
    backward = [Alignment(frozenset(FINAL_BACKWARD)), Alignment(frozenset({(0, 0)}))]
    # the links both directions found are the sure ones
    assert symmetrize(forward, backward) == [
        Alignment(frozenset({(0, 0), (2, 1)}), sure=frozenset(FINAL_FORWARD) & frozenset(FINAL_BACKWARD)),
        Alignment(frozenset({(0, 0)}), sure=frozenset()),
    ]


def test_bad_arguments() -> None:
    with pytest.raises(UsageError, match="unknown symmetrisation 'grow'"):
        symmetrize([], [], "grow")
    with pytest.raises(UsageError, match="unknown symmetrisation 'grow'"):
        symmetrize_links(set(), set(), "grow")
    with pytest.raises(ValueError, match="1 forward alignments but 0 backward ones"):
        symmetrize([Alignment(frozenset())], [])
