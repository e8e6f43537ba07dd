"""Suites in and out of the interchange XML: ``checkpoints import`` and ``checkpoints export``.

Both hold a whole suite in memory for a moment: importing reads the file into
core types and stores them, exporting loads a stored suite and writes it. The
cyclic garbage collector stays paused over the whole of each (reading and
storing, not one then the other): hundreds of thousands of tokens,
check-points and references are made and none is garbage until the end, and
every collection that ran in between would walk all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.gcpause import bulk_work
from checkpoints.service.store import Store, engine_for, store_new_suite
from checkpoints.suite_xml import CategoryFindings, load_suite_xml


@dataclass(frozen=True, slots=True)
class ImportedSuite:
    """What an import stored (the suite itself is not kept: it may be large)."""

    name: str
    suite_id: int
    pairs: int
    checkpoints: int
    findings: CategoryFindings


@dataclass(frozen=True, slots=True)
class ExportedSuite:
    name: str
    pairs: int
    checkpoints: int


@bulk_work
def import_suite(
    store: Store, path: str | Path, *, name: str | None = None, strict: bool = False, replace: bool = False
) -> ImportedSuite:
    """Read a suite file and store it in one transaction.

    Categories outside the suite's taxonomy, or an unknown taxonomy, are
    stored as user-defined categories and reported in the result's
    ``findings``; with ``strict`` such a suite is refused (:class:`InputError`)
    and nothing is stored. ``replace`` replaces a suite of the same name.
    """
    imported = load_suite_xml(path)
    findings = imported.findings
    problem = findings.problem()
    if strict and problem is not None:
        raise InputError(path, None, f"{problem} (strict import: nothing imported)")
    data = imported.suite
    if name:
        data.name = name
    suite_id = store_new_suite(store, data, replace=replace)
    stored = ImportedSuite(data.name, suite_id, len(data.pairs), len(data.checkpoints), findings)
    del data, imported  # freed here, while the collector has nothing to walk
    return stored


@bulk_work
def export_suite(store: Store, output: str | Path, *, suite_name: str | None = None) -> ExportedSuite:
    """Write a stored suite as interchange XML (atomically: a failure leaves no file)."""
    from checkpoints.db.repo import load_suite
    from checkpoints.db.session import transaction
    from checkpoints.io.files import check_writable
    from checkpoints.suite_xml import write_suite_xml

    check_writable(Path(output))  # before loading: a large suite takes a moment to load
    with engine_for(store) as engine, transaction(engine) as session:
        data = load_suite(session, suite_name)
    write_suite_xml(data, output)
    written = ExportedSuite(data.name, len(data.pairs), len(data.checkpoints))
    del data
    return written
