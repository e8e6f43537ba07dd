"""UTF-8 line reading that reports the line of a decoding error.

Files ending in ``.gz`` are decompressed on the fly, so large corpora (and the
bundled demo data) can stay compressed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.io.bounded import (
    check_line_length,
    file_chunks,
    gunzip_stream,
    inflate_limit,
    max_line_chars,
)


def read_lines(path: str | Path) -> list[str]:
    """All lines of a UTF-8 file without their line ends; a decoding error names its line."""
    return list(iter_lines(path))


def iter_lines(path: str | Path) -> Iterator[str]:
    """The file's lines, read piece by piece so that a corpus of any size streams through in
    bounded memory; a ``.gz`` file inflated with a bound, and every line bounded
    (:mod:`checkpoints.io.bounded`)."""
    chunks: Iterable[bytes] = file_chunks(path)
    if str(path).endswith(".gz"):
        chunks = gunzip_stream(chunks, path, inflate_limit(_size(path)))
    limit = max_line_chars()
    number = 0
    for block in _line_blocks(chunks, limit):
        if number == 0:
            block = block.removeprefix(b"\xef\xbb\xbf")
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError as error:
            if not block.endswith(b"\n") and len(block) > 4 * limit:  # a monster line cut short
                check_line_length(path, number + 1, block.decode("utf-8", "replace"), limit)
            line = number + block.count(b"\n", 0, error.start) + 1
            column = error.start - (block.rfind(b"\n", 0, error.start) + 1) + 1
            raise InputError(path, line, f"not valid UTF-8 (byte {column} of the line)") from None
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        for line in lines:
            number += 1
            if len(line) > limit:
                check_line_length(path, number, line, limit)
            yield line.removesuffix("\r")


def _line_blocks(chunks: Iterable[bytes], limit: int) -> Iterator[bytes]:
    """The input cut after the last line end of each piece, so that no line is split between
    two blocks; a line growing past four bytes per allowed character comes out unfinished,
    to be refused before it is whole."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        end = pending.rfind(b"\n")
        if end < 0:
            if len(pending) > 4 * limit:
                yield pending
                return
            continue
        block, pending = pending[: end + 1], pending[end + 1 :]
        yield block
    if pending:
        yield pending


def _size(path: str | Path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0
