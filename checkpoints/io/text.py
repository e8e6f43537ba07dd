"""Raw text: one sentence (or one system translation) per line."""

from __future__ import annotations

from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.io.lines import read_lines


def read_sentences(path: str | Path, *, allow_empty: bool = False) -> list[str]:
    """Lines of a one-sentence-per-line UTF-8 file.

    Corpus sentences may not be empty (there is nothing to extract from, and an
    empty line usually means the files are misaligned); system outputs may be,
    since a system can fail to translate a sentence.
    """
    lines = read_lines(path)
    if not lines:
        raise InputError(path, None, "the file is empty")
    if not allow_empty:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                raise InputError(path, number, "empty line: one sentence per line expected")
    return lines


def output_warnings(path: str | Path, lines: list[str]) -> list[str]:
    """What deserves a look in a system output that is still readable: empty lines (an untranslated
    sentence, or a shifted file) and NUL characters (a binary or badly converted file), with their lines."""
    warnings = []
    for what, numbers in (
        ("empty line", [n for n, line in enumerate(lines, start=1) if not line.strip()]),
        ("NUL character", [n for n, line in enumerate(lines, start=1) if "\0" in line]),
    ):
        if numbers:
            shown = ", ".join(map(str, numbers[:10])) + (", ..." if len(numbers) > 10 else "")
            plural = "s" if len(numbers) > 1 else ""
            warnings.append(f"{path}: {len(numbers)} {what}{plural} (line{plural} {shown})")
    return warnings
