"""Option values as a user types them (``NAME=FILE``, ``--db DB --suite NAME``), checked.

Request types and commands share these, so every command reads a value the
same way and names the option in its error.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from checkpoints.errors import UsageError


def store_and_suite(db: str | None, suite: str | None, suite_name: str | None) -> tuple[str | None, str | None]:
    """``(store, suite name)`` of ``--db DB --suite NAME``, the vocabulary of every command.

    The metric commands once took the store as ``--suite DB`` and the name as ``--suite-name``:
    a ``--suite`` that names an existing file or a URL, given without ``--db``, is still the store.
    """
    if db is None and suite is not None and ("://" in suite or Path(suite).is_file()):
        return suite, suite_name
    if suite is not None and suite_name is not None:
        raise UsageError("--suite and --suite-name both name the suite: give --suite NAME only")
    return db, suite if suite is not None else suite_name


def parse_named_files(values: Sequence[str], option: str) -> list[tuple[str, Path]]:
    """``NAME=FILE`` pairs, names unique."""
    result: list[tuple[str, Path]] = []
    seen: set[str] = set()
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            raise UsageError(f"{option} {value!r}: expected NAME=FILE")
        if name in seen:
            raise UsageError(f"{option}: system name {name!r} given twice")
        seen.add(name)
        result.append((name, Path(path)))
    return result


def check_probability(option: str, value: float) -> None:
    """A significance level or similar: strictly between 0 and 1."""
    if not 0.0 < value < 1.0:
        raise UsageError(f"{option} must lie strictly between 0 and 1, not {value}")


def check_at_least(option: str, value: int, least: int) -> None:
    if value < least:
        raise UsageError(f"{option} must be at least {least}, not {value}")
