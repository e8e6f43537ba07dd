"""Errors that reach users.

Every error a user can cause derives from :class:`CheckpointsError`; the command
line prints its message as one line on stderr and exits with code 1. Subclasses
also derive from the built-in that fits, so library callers may catch either.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


class CheckpointsError(Exception):
    """Base of all errors the command line reports as one line."""


class InputError(CheckpointsError, ValueError):
    """A problem in an input file, located by file and line (``FILE:LINE: problem``)."""

    def __init__(self, path: str | Path, line: int | None, problem: str) -> None:
        self.path = str(path)
        self.line = line
        self.problem = problem
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {problem}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, int | None, str]]:
        """Pickled by its three parts, so that it crosses from a worker process (Ray, a fork) intact."""
        return (type(self), (self.path, self.line, self.problem))


class CorpusMismatch(CheckpointsError, ValueError):
    """Parallel inputs disagree (line counts, sentence lengths, ...)."""


class ModelNotAvailable(CheckpointsError, FileNotFoundError):
    """A parser or aligner model is not installed on this machine."""


class ResourceNotAvailable(CheckpointsError, FileNotFoundError):
    """A word list, dictionary, WordNet or another resource is missing."""


class TaxonomyError(CheckpointsError, ValueError):
    """A taxonomy file is invalid or names something that does not exist."""


class SuiteError(CheckpointsError, LookupError):
    """A suite, system or category asked for does not exist, or the suite is empty."""


class UsageError(CheckpointsError, ValueError):
    """Options that contradict each other or are out of range (exit code 2)."""


class StoreError(CheckpointsError, OSError):
    """A database that cannot be opened, is not a checkpoints store, or has another schema."""


class OutputError(CheckpointsError, OSError):
    """An output file that cannot be written (missing folder, no permission, a directory)."""


def check_choice(what: str, value: str, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed``, else the one-line error every choice gives:
    ``WHAT 'value': choose a, b or c`` (WHAT is an option on the command line, a name in the library)."""
    if value not in allowed:
        choices = ", ".join(allowed[:-1]) + f" or {allowed[-1]}" if len(allowed) > 1 else allowed[0]
        raise UsageError(f"{what} {value!r}: choose {choices}")
    return value
