"""Writing output files: checked before any work is stored, written atomically.

Every command that writes a file checks the target first (:func:`check_writable`),
so a missing folder or a read-only location is reported before a run is stored,
and writes it with :func:`write_atomic`, so an interrupted write never leaves a
half-written file in place of a good one.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from checkpoints.errors import OutputError

STDOUT = "-"
"""The output file name that means standard output, as in most command-line tools."""


def check_writable(path: str | Path) -> Path:
    """``path`` as a :class:`Path`, or an :class:`OutputError` saying why it cannot be written
    (``-`` is standard output)."""
    target = Path(path)
    if str(path) == STDOUT:
        return target
    if target.is_dir():
        raise OutputError(f"{target}: is a directory, not a file")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.exists():
        raise OutputError(f"{target}: folder {folder} does not exist")
    if not folder.is_dir():
        raise OutputError(f"{target}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{target}: folder {folder} is not writable")
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(f"{target}: file is not writable")
    return target


def write_atomic(path: str | Path, content: str | bytes) -> None:
    """Write ``content`` beside ``path`` and rename it into place only when complete."""
    target = check_writable(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    if str(path) == STDOUT:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    if target.is_symlink():  # replace the file the link points to, not the link
        target = target.resolve()
    if target.exists() and not target.is_file():
        # /dev/null, a named pipe, a terminal: nothing to rename over (renaming would replace the
        # device with a regular file), and nothing half-written to protect a reader from
        try:
            with target.open("wb") as handle:
                handle.write(data)
        except OSError as error:
            raise OutputError(f"{target}: {error.strerror or error}") from error
        return
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent or ".")
    except OSError as error:
        raise OutputError(f"{target}: {error.strerror or error}") from error
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        # mkstemp makes the file 0600; a file the user asked for gets the mode open() would give it
        os.chmod(temporary, _mode_of(target))
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise OutputError(f"{target}: {error.strerror or error}") from error
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_of(target: Path) -> int:
    """The mode of the file being replaced, else 0666 less the process's umask."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
