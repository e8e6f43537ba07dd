"""The MQM error spans of the bundled TED release files (``scripts/extract_ted_mqm.py`` → ``mqm_ted_*.tsv.gz``).

``checkpoints attribute`` and ``benchmarks/ted_study.py`` read which
characters of each system output a rater marked
(:func:`checkpoints.io.mqm.marked_spans`); a span off by one would move every
overlap they report.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.io.mqm import read_mqm

TED = Path(__file__).parent.parent / "data" / "metrics" / "ted"
FILES = {"en-de": TED / "en-de" / "mqm_ted_ende.tsv.gz", "zh-en": TED / "zh-en" / "mqm_ted_zhen.tsv.gz"}
CATEGORIES = ("Accuracy", "Fluency", "Terminology", "Style", "Other", "Source error", "Locale convention")


def outputs(pair: str, system: str) -> list[str]:
    folder = TED / pair
    path = folder / f"{system}.txt" if system.startswith("ref") else folder / "sys" / f"{system}.txt"
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.mark.parametrize(("pair", "count"), [("en-de", 4031), ("zh-en", 5618)])
def test_every_rated_error_has_its_span_inside_the_plain_output(pair: str, count: int) -> None:
    """Counts: the release's rows minus its "No-error" rows (en-de 8,435 − 4,404)."""
    data = read_mqm(FILES[pair])
    rated = [error for error in data.errors if error.category != "No-error"]
    assert len(rated) == count
    order = {seg: line for line, seg in enumerate(data.segments)}
    for error in rated:
        line = outputs(pair, error.system)[order[error.seg_id]]
        assert data.outputs[error.system][error.seg_id] == line  # the plain-text copy is the rated output
        assert error.category.split("/")[0] in CATEGORIES and error.severity in ("Major", "Minor", "Neutral")
        for start, end in error.target_spans:
            assert 0 <= start <= end <= len(line)


def test_span_offsets_are_characters_of_the_plain_output() -> None:
    """The release's first error row: Facebook-AI, talk 1 segment 1, "<v>in Betracht zu ziehen</v>"."""
    data = read_mqm(FILES["en-de"])
    first = next(error for error in data.errors if error.category != "No-error")
    assert (first.system, first.seg_id, first.rater, first.category, first.severity) == (
        "Facebook-AI", 1, "rater1", "Terminology/Inappropriate for context", "Minor",
    )
    line = outputs("en-de", "Facebook-AI")[0]
    ((start, end),) = first.target_spans
    assert line[start:end] == "in Betracht zu ziehen"
    assert "ö" in line[:start]  # offsets count characters, not UTF-8 bytes


def test_omissions_are_marked_in_the_source() -> None:
    data = read_mqm(FILES["en-de"])
    omissions = [error for error in data.errors if error.category == "Accuracy/Omission"]
    assert len(omissions) == 14
    assert all(not error.target_spans and error.source_spans for error in omissions)
    for error in omissions:
        for start, end in error.source_spans:
            assert 0 <= start < end <= len(data.sources[error.seg_id])
