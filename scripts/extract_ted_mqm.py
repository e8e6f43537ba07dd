"""Derive a compact plain-text copy of the WMT 2021 TED MQM data for tests and benchmarks.

The MQM release stores one row per annotated error span, so every system
output appears once per error and per rater, with the error span marked by
``<v>...</v>``. Metric tests only need each system's output once per segment,
the source and the human references; this script writes them as one line per
segment (segment order = ascending ``seg_id``), which is also the input format
of ``checkpoints metrics --input raw``::

    <output>/<pair>/source.txt       source segments
    <output>/<pair>/ids.tsv          doc <TAB> doc_id <TAB> seg_id per segment
    <output>/<pair>/ref.txt          the human reference rated as system "ref"
    <output>/<pair>/refB.txt         second human reference (zh-en only)
    <output>/<pair>/sys/<name>.txt   every MT system's output
    <output>/<pair>/mqm_ted_<infix>.avg_seg_scores.tsv   the release's segment MQM scores, unchanged
    <output>/<pair>/mqm_ted_<infix>.tsv.gz   the release's error file itself, gzipped: every
                                     rated error with its ``<v>`` span, as ``checkpoints
                                     attribute`` and ``checkpoints meta --mqm`` read it
    <output>/LICENSE                 the Apache-2.0 licence of the MQM release

Usage::

    python scripts/extract_ted_mqm.py --mqm-dir RELEASE/ted [--output DIR]

The script refuses inconsistent input (a system whose output differs between
rows of the same segment, systems covering different segments) with a
``FILE:LINE: problem`` message, so a regenerated copy is never silently wrong.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import re
import shutil
import sys
from pathlib import Path

PAIRS = {"en-de": "ende", "zh-en": "zhen"}
"""Language pair as written in the output → folder and file infix of the MQM release."""

MARK = re.compile(r"</?v>")
REFERENCE_PREFIX = "ref"
"""MQM rates the human translations as systems named ``ref``, ``refB``."""


class ExtractionError(Exception):
    """The MQM file does not have the shape this script relies on."""


def strip_marks(text: str) -> str:
    """Remove the ``<v>``/``</v>`` error-span marks, giving the plain segment."""
    return MARK.sub("", text)


def read_pair(path: Path) -> tuple[dict[int, tuple[str, str, str]], dict[str, dict[int, str]]]:
    """Segments (id → (doc, doc_id, source)) and outputs (system → id → text) of one MQM TSV."""
    segments: dict[int, tuple[str, str, str]] = {}
    outputs: dict[str, dict[int, str]] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        rows = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(rows, None)
        if header is None or header[:7] != ["system", "doc", "doc_id", "seg_id", "rater", "source", "target"]:
            raise ExtractionError(f"{path}:1: not an MQM error file (header {header!r})")
        for line, row in enumerate(rows, start=2):
            if len(row) < 7:
                raise ExtractionError(f"{path}:{line}: expected at least 7 tab-separated fields, found {len(row)}")
            system, doc, doc_id, seg_text, _rater, source, target = row[:7]
            try:
                seg_id = int(seg_text)
            except ValueError:
                raise ExtractionError(f"{path}:{line}: seg_id {seg_text!r} is not an integer") from None
            entry = (doc, doc_id, strip_marks(source))
            if segments.setdefault(seg_id, entry) != entry:
                raise ExtractionError(f"{path}:{line}: segment {seg_id} has a different source or document than before")
            text = strip_marks(target)
            if outputs.setdefault(system, {}).setdefault(seg_id, text) != text:
                raise ExtractionError(f"{path}:{line}: system {system} has two different outputs for segment {seg_id}")
    for system, by_id in outputs.items():
        if by_id.keys() != segments.keys():
            raise ExtractionError(f"{path}: system {system} covers {len(by_id)} of {len(segments)} segments")
    return segments, outputs


def write_lines(path: Path, lines: list[str]) -> None:
    for number, text in enumerate(lines, start=1):
        if "\n" in text or "\r" in text:
            raise ExtractionError(f"{path}:{number}: segment contains a line break")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{text}\n" for text in lines), encoding="utf-8")


def extract(mqm_dir: Path, output: Path) -> None:
    for pair, infix in PAIRS.items():
        segments, outputs = read_pair(mqm_dir / infix / f"mqm_ted_{infix}.tsv")
        order = sorted(segments)
        target = output / pair
        write_lines(target / "source.txt", [segments[i][2] for i in order])
        write_lines(target / "ids.tsv", [f"{segments[i][0]}\t{segments[i][1]}\t{i}" for i in order])
        for system, by_id in sorted(outputs.items()):
            folder = target if system.startswith(REFERENCE_PREFIX) else target / "sys"
            write_lines(folder / f"{system}.txt", [by_id[i] for i in order])
        release = mqm_dir / infix / f"mqm_ted_{infix}.tsv"
        with release.open("rb") as plain, gzip.GzipFile(target / f"{release.name}.gz", "wb", mtime=0) as packed:
            shutil.copyfileobj(plain, packed)  # mtime 0: the same release gives the same bytes
        scores = f"mqm_ted_{infix}.avg_seg_scores.tsv"
        shutil.copyfile(mqm_dir / infix / scores, target / scores)
        print(f"{pair}: {len(order)} segments, {len(outputs)} systems (references included)")
    shutil.copyfile(mqm_dir.parent / "LICENSE", output / "LICENSE")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("--mqm-dir", type=Path, required=True,
                        help="the release's ted/ folder, holding ende/ and zhen/")
    parser.add_argument("--output", type=Path, default=root / "tests" / "data" / "metrics" / "ted",
                        help="where to write the plain-text copy")
    args = parser.parse_args(argv)
    try:
        extract(args.mqm_dir, args.output)
    except (ExtractionError, OSError) as error:
        print(f"extract_ted_mqm: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
