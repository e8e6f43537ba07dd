"""``checkpoints suites`` and ``checkpoints runs``: what a store holds, and tidying it.

Listing reads a few rows per suite (:mod:`checkpoints.db.catalog`); deleting
and renaming each run in one transaction, so an interrupted one changes
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from checkpoints.db.catalog import RunEntry, SuiteEntry, find_run, list_runs, list_suites
from checkpoints.service.store import Store, engine_for

HIDDEN_OPTIONS = frozenset({"lexicon"})
"""Build options too large to show (the stored dictionary entries)."""


@dataclass(frozen=True, slots=True)
class SuiteDetails:
    entry: SuiteEntry
    categories: dict[str, int]
    """Category → its check-points, in taxonomy order."""
    systems: list[str]
    """Systems with a stored evaluation."""
    options: dict[str, Any]
    """How it was built (without the stored lexicon)."""

    def to_json(self) -> dict[str, Any]:
        return {**self.entry.to_json(), "categories": self.categories, "systems": self.systems, "options": self.options}


@dataclass(frozen=True, slots=True)
class RunDetails:
    entry: RunEntry
    options: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {**self.entry.to_json(), "options": self.options}


def suites(store: Store) -> list[SuiteEntry]:
    from checkpoints.db.session import transaction

    with engine_for(store) as engine, transaction(engine) as session:
        return list_suites(session)


def suite_details(store: Store, name: str) -> SuiteDetails:
    import numpy as np

    from checkpoints.db.repo import find_suite, load_suite
    from checkpoints.db.runs import evaluated_systems
    from checkpoints.db.session import transaction
    from checkpoints.evaluate.columns import suite_columns

    with engine_for(store) as engine, transaction(engine) as session:
        found = find_suite(session, name)
        entry = next(item for item in list_suites(session) if item.name == found.name)
        systems = evaluated_systems(session, found.id)
        data = load_suite(session, found.name)
    columns = suite_columns(data)  # the packed columns: no check-point objects built
    counts = np.bincount(columns.categories, minlength=len(columns.category_names))
    by_name = dict(zip(columns.category_names, counts.tolist(), strict=True))
    categories = {category.name: by_name.get(category.name, 0) for category in data.categories}
    options = {key: value for key, value in data.options.items() if key not in HIDDEN_OPTIONS}
    return SuiteDetails(entry, categories, systems, options)


def delete_suite(store: Store, name: str) -> None:
    from checkpoints.db.repo import delete_suite as delete
    from checkpoints.db.session import transaction

    with engine_for(store) as engine, transaction(engine) as session:
        delete(session, name)


def rename_suite(store: Store, old: str, new: str) -> None:
    from checkpoints.db.catalog import rename_suite as rename
    from checkpoints.db.session import transaction

    with engine_for(store) as engine, transaction(engine) as session:
        rename(session, old, new)


def runs(store: Store, suite: str | None = None) -> list[RunEntry]:
    from checkpoints.db.session import transaction

    with engine_for(store) as engine, transaction(engine) as session:
        return list_runs(session, suite)


def run_details(store: Store, run_id: int) -> RunDetails:
    from checkpoints.db.session import transaction

    with engine_for(store) as engine, transaction(engine) as session:
        options = dict(find_run(session, run_id).options or {})
        entry = next(item for item in list_runs(session) if item.id == run_id)
    return RunDetails(entry, options)


def delete_run(store: Store, run_id: int) -> None:
    from checkpoints.db.catalog import delete_run as delete
    from checkpoints.db.session import transaction

    with engine_for(store) as engine, transaction(engine) as session:
        delete(session, run_id)
