"""How good is an alignment? Precision, recall and AER against gold links (Och & Ney 2003).

Gold alignments mark *sure* links S and *possible* ones P (S ⊆ P; in Pharaoh
files ``i-j`` and ``i?j``). For predicted links A:

    precision = |A ∩ P| / |A|,   recall = |A ∩ S| / |S|,
    AER = 1 − (|A ∩ S| + |A ∩ P|) / (|A| + |S|).

With sure links only (P = S) AER is 1 − F1. A gold line without links (a pair
that is not a translation) makes every predicted link of that pair an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.io.lines import read_lines
from checkpoints.io.pharaoh import parse_pharaoh_line
from checkpoints.model import Alignment


@dataclass(frozen=True, slots=True)
class AlignmentQuality:
    """Link counts over the gold pairs, and the scores made of them."""

    pairs: int
    predicted: int
    sure: int
    hits_sure: int
    """|A ∩ S|"""
    hits_possible: int
    """|A ∩ P|"""

    @property
    def precision(self) -> float:
        return self.hits_possible / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.hits_sure / self.sure if self.sure else 0.0

    @property
    def aer(self) -> float:
        total = self.predicted + self.sure
        return 1.0 - (self.hits_sure + self.hits_possible) / total if total else 0.0

    def to_json(self) -> dict[str, float | int]:
        return {
            "pairs": self.pairs, "predicted_links": self.predicted, "sure_links": self.sure,
            "precision": self.precision, "recall": self.recall, "aer": self.aer,
        }


def alignment_quality(predicted: Sequence[Alignment], gold: Sequence[Alignment]) -> AlignmentQuality:
    """Scores of ``predicted`` against ``gold``, pair by pair (the two lists align)."""
    if len(predicted) != len(gold):
        raise ValueError(f"{len(predicted)} predicted alignments for {len(gold)} gold ones")
    counts = [0, 0, 0, 0]
    for guess, truth in zip(predicted, gold, strict=True):
        possible = truth.links
        sure = possible if truth.sure is None else truth.sure
        counts[0] += len(guess.links)
        counts[1] += len(sure)
        counts[2] += len(guess.links & sure)
        counts[3] += len(guess.links & possible)
    return AlignmentQuality(len(gold), *counts)


def read_gold(
    path: str | Path,
    source_lengths: Sequence[int],
    target_lengths: Sequence[int],
    pair_numbers: Sequence[int] | None = None,
) -> list[tuple[int, Alignment]]:
    """Gold alignments as ``(pair position, alignment)``, checked against the sentences' lengths.

    Without ``pair_numbers`` the file has one line per pair of the corpus;
    with them (1-based pair numbers, as a file of gold lines for a sample of
    the corpus lists them) line i belongs to pair ``pair_numbers[i]``.
    """
    lines = read_lines(path)
    numbers = list(pair_numbers) if pair_numbers is not None else list(range(1, len(source_lengths) + 1))
    if len(lines) != len(numbers):
        expected = "pair numbers listed" if pair_numbers is not None else "sentence pairs"
        raise InputError(path, None, f"{len(lines)} gold lines for {len(numbers)} {expected}: one line per pair expected")
    gold = []
    for line_number, (line, pair) in enumerate(zip(lines, numbers, strict=True), start=1):
        if not 1 <= pair <= len(source_lengths):
            raise InputError(path, line_number, f"pair {pair} is not in the corpus ({len(source_lengths)} pairs)")
        position = pair - 1
        gold.append((position, parse_pharaoh_line(line, source_lengths[position], target_lengths[position], path, line_number)))
    return gold


def read_pair_numbers(path: str | Path) -> list[int]:
    """1-based pair numbers separated by white space (``dev-pairs.txt``)."""
    numbers = []
    for line_number, line in enumerate(read_lines(path), start=1):
        for word in line.split():
            if not word.isdigit() or int(word) == 0:
                raise InputError(path, line_number, f"{word!r} is not a pair number (1-based)")
            numbers.append(int(word))
    return numbers
