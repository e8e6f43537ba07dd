"""Bounded input: decompression bombs, monster lines and monster segments are one-line errors, in bounded memory.

The memory figures are measured in a child process (``ru_maxrss`` of the finished child).
"""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

from checkpoints.errors import InputError
from checkpoints.io.bounded import MIN_INFLATE_LIMIT, gunzip_bounded
from checkpoints.io.lines import read_lines

CHECKPOINTS = str(Path(sys.executable).with_name("checkpoints"))


MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stderr.write(done.stderr)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
"""A fresh Python that runs the command as its only child: its RUSAGE_CHILDREN peak is that
command's alone (this test process has had larger children before)."""


def run_measured(*args: str) -> tuple[int, str, int]:
    """Exit code, stderr, and the command's peak resident memory in bytes."""
    done = subprocess.run([sys.executable, "-c", MEASURE, CHECKPOINTS, *args], capture_output=True, text=True,
                          timeout=600)
    code, peak_kib = done.stdout.split()
    return int(code), done.stderr, int(peak_kib) * 1024


def test_gzip_members_and_truncation() -> None:
    assert gunzip_bounded(gzip.compress(b"a\n") + gzip.compress(b"b\n"), "x.gz") == b"a\nb\n"
    with pytest.raises(InputError, match=r"x\.gz: not a readable gzip file"):
        gunzip_bounded(gzip.compress(b"hello world" * 100)[:-12], "x.gz")


def test_a_decompression_bomb_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    bomb = tmp_path / "suite.xml.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as handle:
        block = b"\0" * (1 << 24)
        for _ in range((2 << 30) // len(block)):  # 2 GiB of zeros: about 2 MB compressed
            handle.write(block)
    assert bomb.stat().st_size < 3_000_000
    code, err, peak = run_measured("import", "--db", str(tmp_path / "x.db"), str(bomb))
    assert code == 1 and err.count("\n") == 1
    assert "refused as a decompression bomb (set CHECKPOINTS_MAX_INFLATED_BYTES to allow more)" in err
    assert peak < MIN_INFLATE_LIMIT + 400 * 1024 * 1024  # stops at the limit, not after inflating 2 GiB
    assert not (tmp_path / "x.db").exists()


def test_a_monster_line_is_refused_with_its_line_number(tmp_path: Path) -> None:
    reference, system = tmp_path / "ref.txt", tmp_path / "sys.txt"
    reference.write_text("a b c\nd e f\n", encoding="utf-8")
    system.write_text("a b c\n" + "x" * 2_000_000 + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_lines(system)
    assert str(caught.value) == (
        f"{system}:2: a line of 2,000,000 characters (more than 1,000,000): refused, no sentence is that long "
        "(set CHECKPOINTS_MAX_LINE_CHARS to allow longer lines)")
    code, err, _ = run_measured("metrics", "-r", str(reference), "-s", f"A={system}", "-m", "BLEU")
    assert code == 1 and f"{system}:2: a line of 2,000,000 characters" in err


def test_a_monster_segment_is_refused_by_the_edit_distance_metrics(tmp_path: Path) -> None:
    reference, system = tmp_path / "ref.txt", tmp_path / "sys.txt"
    reference.write_text("a b c\n" + " ".join(["w"] * 10) + "\n", encoding="utf-8")
    system.write_text("a b c\n" + " ".join(f"w{i}" for i in range(3_000)) + "\n", encoding="utf-8")
    for metric, name in (("-TER", "TER"), ("-WER", "WER"), ("-CDER", "CDER")):
        code, err, peak = run_measured("metrics", "-r", str(reference), "-s", f"A={system}", "-m", metric)
        assert code == 1, err
        assert f"{system}:2: 3,000 words, longer than the 2,000 that {name} aligns" in err
        assert peak < 1024 * 1024 * 1024
    code, err, _ = run_measured("metrics", "-r", str(reference), "-s", f"A={system}", "-m", "BLEU")
    assert code == 0, err  # n-gram metrics are linear in the length: no bound needed
