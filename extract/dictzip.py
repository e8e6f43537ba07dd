"""Byte ranges of a dictd data file: plain ``.dict``, gzip, or dictzip ``.dict.dz``.

dictzip is gzip with a random-access table: the deflate stream is flushed
every ``chunk_length`` uncompressed bytes and the gzip header's ``RA`` extra
field lists each chunk's compressed size, so one entry can be inflated
without inflating everything before it. That is what lets a 15 MB
``freedict-eng-deu.dict.dz`` (80 MB inflated) serve the few thousand entries
a corpus needs in a fraction of the time a full decompression takes. A gzip
file without the table is inflated whole, once.
"""

from __future__ import annotations

import gzip
import struct
import zlib
from pathlib import Path

from checkpoints.errors import InputError

_GZIP_MAGIC = b"\x1f\x8b"
_FHCRC, _FEXTRA, _FNAME, _FCOMMENT = 2, 4, 8, 16


class DictData:
    """Read-only access to a dictd data file by (offset, length) in uncompressed bytes."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._raw = self.path.read_bytes()
        except FileNotFoundError:
            raise InputError(path, None, "no such file") from None
        except IsADirectoryError:
            raise InputError(path, None, "is a directory, not a file") from None
        self._plain: bytes | None = None
        self._chunks: dict[int, bytes] = {}
        self._table: tuple[int, list[int]] | None = None
        if not self._raw.startswith(_GZIP_MAGIC):
            self._plain = self._raw
            self.size = len(self._raw)
            return
        self._table = random_access_table(self._raw, self.path)
        if self._table is None:
            try:
                self._plain = gzip.decompress(self._raw)
            except (OSError, EOFError, zlib.error) as error:
                raise InputError(path, None, f"not a readable gzip file ({error})") from None
            self.size = len(self._plain)
        else:
            # ISIZE, the uncompressed size modulo 2**32 (dictd files stay far below 4 GiB)
            self.size = struct.unpack("<I", self._raw[-4:])[0]

    def read(self, offset: int, length: int) -> bytes:
        if self._plain is not None:
            return self._plain[offset : offset + length]
        assert self._table is not None
        chunk_length, _starts = self._table
        first, last = offset // chunk_length, (offset + length - 1) // chunk_length
        data = b"".join(self._chunk(index) for index in range(first, last + 1))
        start = offset - first * chunk_length
        return data[start : start + length]

    def _chunk(self, index: int) -> bytes:
        chunk = self._chunks.get(index)
        if chunk is None:
            assert self._table is not None
            _chunk_length, starts = self._table
            if index + 1 >= len(starts):
                return b""
            try:
                chunk = zlib.decompressobj(-zlib.MAX_WBITS).decompress(self._raw[starts[index] : starts[index + 1]])
            except zlib.error as error:
                raise InputError(self.path, None, f"dictzip chunk {index} cannot be inflated ({error})") from None
            self._chunks[index] = chunk
        return chunk


def _extra_fields(head: bytes) -> dict[bytes, bytes]:
    """The gzip header's extra subfields by their two-byte id (empty without FEXTRA)."""
    if len(head) < 12 or not head[3] & _FEXTRA:
        return {}
    (extra_length,) = struct.unpack("<H", head[10:12])
    extra = head[12 : 12 + extra_length]
    fields: dict[bytes, bytes] = {}
    at = 0
    while at + 4 <= len(extra):
        (length,) = struct.unpack("<H", extra[at + 2 : at + 4])
        fields[extra[at : at + 2]] = extra[at + 4 : at + 4 + length]
        at += 4 + length
    return fields


def random_access_table(raw: bytes, path: Path) -> tuple[int, list[int]] | None:
    """(chunk length, byte offset of each chunk and of the end) from a dictzip header,
    or None for a gzip file without the ``RA`` field."""
    if len(raw) < 18 or raw[2] != 8:
        raise InputError(path, None, "not a readable gzip file (bad header)")
    field = _extra_fields(raw).get(b"RA")
    if field is None:
        return None
    try:
        _version, chunk_length, count = struct.unpack("<HHH", field[:6])
        sizes = struct.unpack(f"<{count}H", field[6 : 6 + 2 * count])
    except struct.error:
        raise InputError(path, None, "damaged dictzip header (random-access table cut short)") from None
    flags = raw[3]
    position = 12 + struct.unpack("<H", raw[10:12])[0]
    for flag in (_FNAME, _FCOMMENT):
        if flags & flag:
            position = raw.index(b"\0", position) + 1
    if flags & _FHCRC:
        position += 2
    starts = [position]
    for size in sizes:
        starts.append(starts[-1] + size)
    return chunk_length, starts


def is_dictzip(path: str | Path) -> bool:
    """True for a gzip file whose header carries dictzip's random-access table."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(12 + 65535)
    except OSError:
        return False
    return head.startswith(_GZIP_MAGIC) and b"RA" in _extra_fields(head)
