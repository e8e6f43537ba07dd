"""Regenerate the dictionary excerpts in tests/data/dictionaries/ from installed copies.

    python scripts/make_dictionary_excerpts.py \
        /usr/share/dictd/freedict-eng-spa.index CEDICT_FILE

The FreeDict excerpt keeps the selected index lines in their order, copies
their entries into a new data file and rewrites the offsets; the data file is
written as dictzip with a small chunk length so that entries straddle chunks
and the random-access path is exercised. The CC-CEDICT excerpt keeps the
header and the selected lines unchanged.
"""

from __future__ import annotations

import gzip
import struct
import sys
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "tests" / "data" / "dictionaries"
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
CHUNK_LENGTH = 256

FREEDICT_HEADWORDS = {
    "00databasealphabet", "00databasedictfmt1130", "00databaseinfo", "00databaseshort", "00databaseurl",
    "00databaseutf8", "a", "abandon", "ability", "about", "above", "big", "build", "building", "car", "fund",
    "gods acre", "house", "how", "mexico", "new years day", "of", "red", "reserve", "robbed of sleep", "run",
    "spain", "the", "they", "water",
}
CEDICT_HEADWORDS = {
    "他們", "反對", "建立", "儲備", "儲備金", "家", "人", "的", "了", "大", "好", "看", "王", "台", "一",
    "銀行", "房子", "墨西哥", "月", "個", "去", "跑", "基金", "一丘之貉", "88", "3Q", "說", "不", "是",
}


def decode(text: str) -> int:
    value = 0
    for ch in text:
        value = value * 64 + BASE64.index(ch)
    return value


def encode(value: int) -> str:
    digits = ""
    while True:
        value, digit = divmod(value, 64)
        digits = BASE64[digit] + digits
        if not value:
            return digits


def dictzip(data: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    chunks: list[bytes] = []
    for start in range(0, len(data), CHUNK_LENGTH):
        chunks.append(compressor.compress(data[start : start + CHUNK_LENGTH]) + compressor.flush(zlib.Z_FULL_FLUSH))
    chunks[-1] += compressor.flush(zlib.Z_FINISH)
    table = struct.pack("<HHH", 1, CHUNK_LENGTH, len(chunks)) + b"".join(struct.pack("<H", len(c)) for c in chunks)
    extra = b"RA" + struct.pack("<H", len(table)) + table
    header = b"\x1f\x8b\x08\x04" + b"\0\0\0\0" + b"\x02\x03" + struct.pack("<H", len(extra)) + extra
    trailer = struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)
    return header + b"".join(chunks) + trailer


def freedict_excerpt(index_path: Path) -> None:

    data = gzip.decompress(index_path.with_name(index_path.name.removesuffix(".index") + ".dict.dz").read_bytes())
    lines: list[str] = []
    body = b""
    for line in index_path.read_text(encoding="utf-8").splitlines():
        headword, offset, length = line.split("\t")
        if headword in FREEDICT_HEADWORDS:
            entry = data[decode(offset) : decode(offset) + decode(length)]
            lines.append(f"{headword}\t{encode(len(body))}\t{encode(len(entry))}")
            body += entry
    (HERE / "freedict-eng-spa.index").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (HERE / "freedict-eng-spa.dict.dz").write_bytes(dictzip(body))


def cedict_excerpt(cedict_path: Path) -> None:
    kept = []
    for line in cedict_path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.split(" ", 1)[0] in CEDICT_HEADWORDS:
            kept.append(line)
    (HERE / "cedict-excerpt.u8").write_text("\n".join(kept) + "\n", encoding="utf-8")


if __name__ == "__main__":
    freedict_excerpt(Path(sys.argv[1]))
    cedict_excerpt(Path(sys.argv[2]))
