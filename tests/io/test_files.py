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
