"""The MQM error spans bundled for the TED study (``scripts/extract_ted_mqm.py`` → ``errors.tsv``).

``benchmarks/ted_study.py`` reads which characters of each system output a
rater marked; a span off by one would move every overlap it reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TED = Path(__file__).parent.parent / "data" / "metrics" / "ted"
CATEGORIES = ("Accuracy", "Fluency", "Terminology", "Style", "Other", "Source error", "Locale convention")


def rows(pair: str) -> list[list[str]]:
    lines = (TED / pair / "errors.tsv").read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == ["system", "segment", "rater", "category", "severity", "start", "end"]
    return [line.split("\t") for line in lines[1:]]


def outputs(pair: str, system: str) -> list[str]:
    folder = TED / pair
    path = folder / f"{system}.txt" if system.startswith("ref") else folder / "sys" / f"{system}.txt"
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.mark.parametrize(("pair", "count"), [("en-de", 4031), ("zh-en", 5618)])
def test_every_rated_error_is_kept_with_a_span_inside_its_output(pair: str, count: int) -> None:
    """Counts: the release's rows minus its "No-error" rows (en-de 8,435 − 4,404)."""
    found = rows(pair)
    assert len(found) == count
    for system, segment, _rater, category, severity, start, end in found:
        lines = outputs(pair, system)
        assert 1 <= int(segment) <= len(lines) == 529
        assert category.split("/")[0] in CATEGORIES and severity in ("Major", "Minor")
        if start == "-1":
            assert end == "-1"
        else:
            assert 0 <= int(start) <= int(end) <= len(lines[int(segment) - 1])


def test_span_offsets_are_characters_of_the_plain_output() -> None:
    """The release's first error row: Facebook-AI, talk 1 segment 1, "<v>in Betracht zu ziehen</v>"."""
    system, segment, rater, category, severity, start, end = rows("en-de")[0]
    assert (system, segment, rater, category, severity) == (
        "Facebook-AI", "1", "rater1", "Terminology/Inappropriate for context", "Minor",
    )
    line = outputs("en-de", "Facebook-AI")[0]
    assert line[int(start) : int(end)] == "in Betracht zu ziehen"
    assert "ö" in line[: int(start)]  # offsets count characters, not UTF-8 bytes


def test_omissions_have_no_span_in_the_output() -> None:
    omissions = [row for row in rows("en-de") if row[3] == "Accuracy/Omission"]
    assert len(omissions) == 14 and all(row[5:] == ["-1", "-1"] for row in omissions)
