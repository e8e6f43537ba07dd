"""The reserved names of a resumable build's staged chunks (:mod:`checkpoints.db.staging`), and the
condition that keeps them out of every listing and look-up of suites."""

from __future__ import annotations

from sqlalchemy import ColumnElement

from checkpoints.db.tables import Suite

STAGING_PREFIX = ".build:"
"""Names of staged chunks start so; a suite name may not."""


def staging_name(name: str, chunk: int) -> str:
    return f"{STAGING_PREFIX}{name}#{chunk:06d}"


def visible() -> ColumnElement[bool]:
    """The condition that leaves staged chunks out of a query on suites."""
    return ~Suite.name.startswith(STAGING_PREFIX, autoescape=True)
