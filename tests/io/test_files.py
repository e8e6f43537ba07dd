"""write_atomic: complete files only, with the mode the user's umask gives."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from checkpoints.errors import OutputError
from checkpoints.io.files import write_atomic


@pytest.fixture()
def umask_022():
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_a_new_file_gets_the_umask_mode_not_0600(tmp_path: Path, umask_022) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "report.html"
    write_atomic(target, "<p>x</p>")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert target.read_text() == "<p>x</p>"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no partial file left


def test_a_replaced_file_keeps_its_mode(tmp_path: Path, umask_022) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "private.json"
    target.write_text("old")
    target.chmod(0o600)
    write_atomic(target, b"new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and target.read_bytes() == b"new"


def test_a_missing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="does not exist"):
        write_atomic(tmp_path / "no" / "file.txt", "x")


def test_a_device_or_pipe_is_written_not_replaced(tmp_path: Path) -> None:
    """``-o /dev/null`` must not turn the device into a regular file (renaming over it would, as root)."""
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, "through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    write_atomic("/dev/null", "nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_link_keeps_pointing_at_the_written_file(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"
