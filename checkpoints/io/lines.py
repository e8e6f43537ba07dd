"""UTF-8 line reading that reports the line of a decoding error.

Files ending in ``.gz`` are decompressed on the fly, so large corpora (and the
bundled demo data) can stay compressed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.io.bounded import (
    check_line_length,
    gunzip_bounded,
    max_line_chars,
    read_file_bytes,
)


def read_lines(path: str | Path) -> list[str]:
    """All lines of a UTF-8 file without their line ends; a decoding error names its line."""
    return list(iter_lines(path))


def iter_lines(path: str | Path) -> Iterator[str]:
    """The file's lines; a ``.gz`` file inflated with a bound, and every line bounded
    (:mod:`checkpoints.io.bounded`)."""
    raw = read_file_bytes(path)
    if str(path).endswith(".gz"):
        raw = gunzip_bounded(raw, path)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputError(path, line, f"not valid UTF-8 (byte {column} of the line)") from None
    if not text:
        return
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    limit = max_line_chars()
    for number, line in enumerate(lines, start=1):
        if len(line) > limit:
            check_line_length(path, number, line, limit)
        yield line.removesuffix("\r")
