"""Pharaoh word alignments: one line per sentence pair, ``i-j`` links, 0-based.

A link written ``i?j`` is a *possible* link (Och & Ney 2003's P, against the
sure S): gold alignments mark links annotators were unsure of that way, and
``checkpoints align --mark-unsure`` marks links the aligner is unsure of. A
line with possible links reads as an alignment whose ``sure`` links are its
``i-j`` ones; a file without any reads as all sure.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.io.files import write_atomic
from checkpoints.io.lines import read_lines
from checkpoints.model import Alignment


def read_pharaoh(
    path: str | Path,
    source_lengths: Sequence[int],
    target_lengths: Sequence[int],
) -> list[Alignment]:
    """Alignments checked against the lengths of the sentences they link.

    An index beyond its sentence almost always means the alignment was made on
    another tokenization (surface tokens instead of syntactic words, say), so
    it is an error rather than a link to drop silently.
    """
    lines = read_lines(path)
    if len(lines) != len(source_lengths):
        raise InputError(
            path,
            None,
            f"{len(lines)} alignment lines for {len(source_lengths)} sentence pairs: one line per pair expected",
        )
    alignments = []
    for number, (line, n_source, n_target) in enumerate(
        zip(lines, source_lengths, target_lengths, strict=True), start=1
    ):
        alignments.append(parse_pharaoh_line(line, n_source, n_target, path, number))
    return alignments


def parse_pharaoh_line(
    line: str, n_source: int, n_target: int, path: str | Path = "<string>", number: int = 1
) -> Alignment:
    links: set[tuple[int, int]] = set()
    possible: set[tuple[int, int]] = set()
    for item in line.split():
        sep = "?" if "?" in item else "-"
        source, _, target = item.partition(sep)
        if not source.isdigit() or not target.isdigit():
            raise InputError(path, number, f"bad link {item!r}: expected i-j (or i?j for a possible link) with 0-based integers")
        s, t = int(source), int(target)
        if s >= n_source:
            raise InputError(path, number, f"link {item}: source index {s} out of range (sentence has {n_source} words)")
        if t >= n_target:
            raise InputError(path, number, f"link {item}: target index {t} out of range (sentence has {n_target} words)")
        (possible if sep == "?" else links).add((s, t))
    if not possible:
        return Alignment(frozenset(links))
    return Alignment(frozenset(links | possible), sure=frozenset(links - possible))


def format_pharaoh(alignment: Alignment, *, mark_unsure: bool = False) -> str:
    """One line of links; with ``mark_unsure``, links the aligner is unsure of as ``i?j``."""
    if not mark_unsure:
        return alignment.to_pharaoh()
    return " ".join(f"{s}{'-' if alignment.is_sure((s, t)) else '?'}{t}" for s, t in sorted(alignment.links))


def write_pharaoh(path: str | Path, alignments: Sequence[Alignment], *, mark_unsure: bool = False) -> None:
    """Write the alignments to ``path`` atomically (a half-written file never replaces a good one)."""
    write_atomic(path, "".join(format_pharaoh(a, mark_unsure=mark_unsure) + "\n" for a in alignments))
