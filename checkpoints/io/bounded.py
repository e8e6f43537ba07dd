"""Reading input files with bounds: a small gzip file that inflates to gigabytes, or one line of
fifty megabytes, is refused in one line instead of taking the machine's memory.

* **Decompression** streams (``zlib.decompressobj``) and stops as soon as the
  output passes :func:`inflate_limit` — the larger of :data:`MIN_INFLATE_LIMIT`
  and :data:`MAX_RATIO` times the compressed size (text compresses 3–12 times;
  a decompression bomb a thousand times), or ``$CHECKPOINTS_MAX_INFLATED_BYTES``.
* **Lines** longer than :data:`MAX_LINE_CHARS` (``$CHECKPOINTS_MAX_LINE_CHARS``)
  are refused with their line number: no sentence is a million characters
  long, and the metrics' edit distances grow with the square of a segment.
"""

from __future__ import annotations

import os
import sys
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from checkpoints.errors import InputError

GZIP_MAGIC = b"\x1f\x8b"
MIN_INFLATE_LIMIT = 512 * 1024 * 1024
MAX_RATIO = 100
MAX_LINE_CHARS = 1_000_000
CHUNK = 1 << 20


def read_file_bytes(path: str | Path) -> bytes:
    """The file's bytes, with one-line errors for a missing, directory or unreadable file;
    ``-`` reads standard input."""
    return b"".join(file_chunks(path))


def file_chunks(path: str | Path) -> Iterator[bytes]:
    """The file's bytes in pieces (``-``: standard input), with the errors of :func:`read_file_bytes`:
    a reader that streams a corpus never holds the whole of it."""
    if str(path) == "-":
        while piece := sys.stdin.buffer.read(CHUNK):
            yield piece
        return
    try:
        with Path(path).open("rb") as handle:
            while piece := handle.read(CHUNK):
                yield piece
    except OSError as error:
        raise _read_error(path, error) from None


def _read_error(path: str | Path, error: OSError) -> InputError:
    if isinstance(error, FileNotFoundError):
        return InputError(path, None, "no such file")
    if isinstance(error, IsADirectoryError):
        return InputError(path, None, "is a directory, not a file")
    if isinstance(error, PermissionError):
        return InputError(path, None, "permission denied")
    return InputError(path, None, f"cannot read: {error.strerror or error}")


def inflate_limit(compressed: int) -> int:
    """Most bytes a compressed input of ``compressed`` bytes may inflate to."""
    configured = os.environ.get("CHECKPOINTS_MAX_INFLATED_BYTES")
    if configured and configured.isdigit():
        return int(configured)
    return max(MIN_INFLATE_LIMIT, MAX_RATIO * compressed)


def gunzip_bounded(raw: bytes, path: str | Path) -> bytes:
    """``raw`` gzip data inflated in chunks, refused once past :func:`inflate_limit` (concatenated
    gzip members, as ``cat a.gz b.gz`` makes, are read in turn)."""
    view = memoryview(raw)
    pieces = (view[start : start + CHUNK] for start in range(0, len(raw), CHUNK))
    return b"".join(gunzip_stream(pieces, path, inflate_limit(len(raw))))


def gunzip_stream(chunks: Iterable[bytes | memoryview], path: str | Path, limit: int) -> Iterator[bytes]:
    """Gzip data arriving in ``chunks``, inflated piece by piece and refused once more than
    ``limit`` bytes came out: a reader that streams a corpus never holds the whole of it."""
    pending = bytearray()
    source = iter(chunks)
    exhausted = False
    size = 0

    def feed() -> bool:
        nonlocal exhausted
        if exhausted:
            return False
        piece = next(source, None)
        if piece is None:
            exhausted = True
            return False
        pending.extend(piece)
        return True

    try:
        while pending or feed():
            inflater = zlib.decompressobj(wbits=31)
            while not inflater.eof:
                data = inflater.unconsumed_tail
                if not data:
                    if not pending and not feed():
                        raise InputError(path, None, "not a readable gzip file (it ends before its end-of-stream marker)")
                    data, pending[:] = bytes(pending), b""
                out = inflater.decompress(data, CHUNK)
                size += len(out)
                if size > limit:
                    raise InputError(
                        path, None,
                        f"inflates to more than {limit:,} bytes: refused as a decompression bomb "
                        "(set CHECKPOINTS_MAX_INFLATED_BYTES to allow more)",
                    )
                if out:
                    yield out
            pending[:0] = inflater.unused_data
            while len(pending) < 2 and feed():
                pass
            if bytes(pending[:2]) != GZIP_MAGIC:
                break  # trailing bytes after the last member, which gzip itself ignores
    except zlib.error as error:
        raise InputError(path, None, f"not a readable gzip file ({error})") from None


def max_line_chars() -> int:
    configured = os.environ.get("CHECKPOINTS_MAX_LINE_CHARS")
    return int(configured) if configured and configured.isdigit() else MAX_LINE_CHARS


def check_line_length(path: str | Path, number: int, line: str, limit: int) -> None:
    if len(line) > limit:
        raise InputError(
            path, number,
            f"a line of {len(line):,} characters (more than {limit:,}): refused, no sentence is that long "
            "(set CHECKPOINTS_MAX_LINE_CHARS to allow longer lines)",
        )
