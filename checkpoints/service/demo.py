"""The demo workflow: build the bundled English→Spanish suite, evaluate two Apertium systems, compare.

Everything comes from package data (gold UD PUD sample, eflomal alignments,
FreeDict and Apertium dictionaries, the two systems' outputs), so the demo
needs no network and no models. Running it again replaces the demo suite in
the same database and keeps anything else stored there.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from checkpoints.evaluate.defaults import (
    DEFAULT_CORRECTION,
    DEFAULT_MIN_CHECKPOINTS,
    DEFAULT_SAMPLES,
)
from checkpoints.evaluate.resample import ResampleSpec
from checkpoints.gcpause import bulk_work
from checkpoints.service.build import BuildRequest, BuildResult, Progress, build_suite, no_progress
from checkpoints.service.compare import ComparisonResult, compare_systems
from checkpoints.service.report import ReportRequest, write_report

DEMO_SUITE = "pud-en-es-demo"
SYSTEMS = ("direct", "pivot")


@dataclass(slots=True)
class DemoResult:
    database: str | Path
    build: BuildResult
    comparison: ComparisonResult
    outputs: dict[str, Path]
    """Each system's translations, where the package keeps them (for the commands to try next)."""
    report: Path
    """The HTML report of the comparison, next to the database."""


def default_database() -> Path:
    return Path(tempfile.gettempdir()) / "checkpoints-demo.db"


@contextmanager
def demo_folder() -> Iterator[Path]:
    """The bundled demo files as a real folder (a wheel may keep them zipped)."""
    with resources.as_file(resources.files("checkpoints") / "data" / "demo") as folder:
        yield Path(folder)


def demo_request(folder: Path) -> BuildRequest:
    return BuildRequest(
        source_lang="en",
        target_lang="es",
        source_conllu=folder / "en_pud.conllu.gz",
        reference_conllu=[folder / "es_pud.conllu.gz"],
        alignments=[folder / "en-es.align"],
        dictionaries=[folder / "freedict-eng-spa.index", folder / "apertium-eng-spa.tsv"],
        taxonomy="en",
        name=DEMO_SUITE,
    )


@bulk_work
def run_demo(
    database: str | Path | None = None, *, samples: int = DEFAULT_SAMPLES, progress: Progress = no_progress
) -> DemoResult:
    """Build, store (replacing an earlier demo suite), evaluate, compare with ``direct`` as baseline,
    and write the HTML report beside the database."""
    target: str | Path = database if database is not None else _fresh_default_database()
    with _one_demo_at_a_time(target), demo_folder() as folder:
        build = build_suite(demo_request(folder), progress)
        _replace_demo_suite(target, build)
        systems = [(name, folder / f"{name}.es.txt") for name in SYSTEMS]
        comparison = compare_systems(
            target, systems, baseline="direct", suite_name=DEMO_SUITE, spec=ResampleSpec(samples=samples),
            correction=DEFAULT_CORRECTION, min_checkpoints=DEFAULT_MIN_CHECKPOINTS,
        )
        outputs = dict(systems)
        report = write_report(ReportRequest(target, report_path(target), SYSTEMS, baseline="direct")).output
    return DemoResult(target, build, comparison, outputs, report)


def report_path(database: str | Path) -> Path:
    """``NAME-report.html`` beside an SQLite database; in the temporary folder for a server URL."""
    from checkpoints.db.session import sqlite_file, store_url

    path = sqlite_file(store_url(database))
    if path is None:
        return Path(tempfile.gettempdir()) / "checkpoints-demo-report.html"
    return path.with_name(f"{path.stem}-report.html")


def _fresh_default_database() -> Path:
    """The default demo file, removed first when an older release left it with another schema:
    it holds nothing but the demo suite, which is rebuilt anyway."""
    from checkpoints.errors import StoreError
    from checkpoints.service.store import engine_for

    path = default_database()
    if path.exists():
        try:
            with engine_for(path):
                pass
        except StoreError:
            path.unlink()
    return path


@contextmanager
def _one_demo_at_a_time(target: str | Path) -> Iterator[None]:
    """Hold an exclusive lock on ``<database>.lock`` beside an SQLite demo database.

    Two demos in one database would each delete the other's half-stored suite
    ("no suite named ...", "... already exists"): the second waits for the
    first instead. A server database (or a system without ``fcntl``) is not
    locked here.
    """
    from checkpoints.db.session import sqlite_file, store_url

    path = sqlite_file(store_url(target))
    try:
        import fcntl
    except ImportError:  # not POSIX
        fcntl = None  # type: ignore[assignment]
    if path is None or fcntl is None:
        yield
        return
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _replace_demo_suite(target: str | Path, build: BuildResult) -> None:
    from checkpoints.db.repo import delete_suite, suite_names
    from checkpoints.db.session import sqlite_file, store_url, transaction
    from checkpoints.service.store import engine_for, store_new_suite

    path = sqlite_file(store_url(target))
    if path is None or path.exists():
        with engine_for(target, create=True) as engine, transaction(engine) as session:
            if DEMO_SUITE in suite_names(session):
                delete_suite(session, DEMO_SUITE)
    store_new_suite(target, build.suite)
