"""Helpers shared by commands: consoles, progress bars, option parsing."""

from __future__ import annotations

import io
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from checkpoints.errors import UsageError, check_choice
from checkpoints.io.files import write_atomic
from checkpoints.progress import Advance
from checkpoints.progress import Progress as StageProgress

if TYPE_CHECKING:
    from checkpoints.model import SuiteData

T = TypeVar("T")

ALIGN_SEED_HELP = (
    "Seed of eflomal's sampling: the same inputs and seed give the same links and the same suite "
    "(Linux; where user namespaces are not allowed the runs stay random and the signature says align-seed:none)."
)


def stdout_console() -> Console:
    """Reports go to stdout; when it is not a terminal (a pipe, a CI log) tables get
    140 columns instead of rich's default 80, so wide comparisons stay readable."""
    width = None if sys.stdout.isatty() else 140
    return Console(no_color=bool(os.environ.get("NO_COLOR")), highlight=False, width=width)


def stderr_console() -> Console:
    return Console(stderr=True, no_color=bool(os.environ.get("NO_COLOR")), highlight=False)


def progress_enabled() -> bool:
    """Progress bars only when a person watches: off when stderr is not a terminal."""
    return sys.stderr.isatty()


@contextmanager
def progress_bar(*, refresh_thread: bool = True) -> Iterator[Progress]:
    """A progress bar on stderr (drawn only on a terminal).

    rich redraws it from a thread of its own, which keeps the clock moving
    through a stage of many minutes (training). Work that forks a second
    process meanwhile (``evaluate``'s BLEU row, the report's drill-downs) only
    does so without other threads, so commands of short stages ask for
    ``refresh_thread=False``: :func:`stage_progress` then redraws as the work
    advances, at most ten times a second.
    """
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=stderr_console(),
        disable=not progress_enabled(),
        transient=True,
        auto_refresh=refresh_thread,
    )
    with progress:
        yield progress


PLAIN_AFTER_S = 5.0
"""Without a terminal, a stage says how far it got once it has run this long ..."""
PLAIN_EVERY_S = 15.0
"""... and then this often, and when it ends: a CI log shows that a long build is alive."""


def plain_progress(description: str, total: int) -> Advance:
    """Progress as plain lines on stderr, for logs: nothing for a stage shorter than
    :data:`PLAIN_AFTER_S`, then a line every :data:`PLAIN_EVERY_S` and one at the end."""
    started = time.monotonic()
    state = {"done": 0, "shown": started, "printed": False}

    def advance(n: int) -> None:
        state["done"] += n
        now = time.monotonic()
        finished = total > 0 and state["done"] >= total
        wait = PLAIN_EVERY_S if state["printed"] else PLAIN_AFTER_S
        if (finished and state["printed"]) or (not finished and now - state["shown"] >= wait):
            share = f" ({100 * state['done'] / total:.0f}%)" if total > 0 else ""
            status = "done" if finished else "so far"
            count = f"{state['done']:,}/{total:,}" if total > 0 else f"{state['done']:,}"
            sys.stderr.write(f"{description}: {count}{share} {status}, {now - started:.0f} s\n")
            sys.stderr.flush()
            state["shown"], state["printed"] = now, True

    return advance


def stage_progress(bar: Progress) -> StageProgress:
    """The library's ``progress(description, total) -> advance(n)`` callback, drawn on ``bar``
    (on a terminal), or :func:`plain_progress` lines (in a log)."""

    redrawn = [0.0]

    def progress(description: str, total: int) -> Callable[[int], None]:
        if bar.disable:
            return plain_progress(description, total)
        task = bar.add_task(description, total=total or None)  # 0: a count not known in advance
        if bar.live.auto_refresh:
            return lambda n: bar.advance(task, n)

        def advance(n: int) -> None:
            bar.advance(task, n)
            now = time.monotonic()
            if now - redrawn[0] >= 0.1 or bar.tasks[task].finished:
                redrawn[0] = now
                bar.refresh()

        bar.refresh()
        return advance

    return progress


def track(items: Sequence[T] | Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    with progress_bar() as progress:
        yield from progress.track(items, total=total, description=description)


def parse_runs(values: Sequence[str]) -> dict[str, int]:
    """``NAME=ID`` pairs choosing a stored run per system."""
    runs: dict[str, int] = {}
    for value in values:
        name, sep, number = value.partition("=")
        if not sep or not name or not number.strip().isdigit():
            raise UsageError(f"--run {value!r}: expected NAME=ID, the id of a stored evaluation run")
        if name in runs:
            raise UsageError(f"--run: system {name!r} given twice")
        runs[name] = int(number)
    return runs


def quiet_libraries() -> None:
    """stanza attaches its own handler at import; keep its chatter out of our output."""
    for name in ("stanza", "transformers", "simalign", "simalign.simalign", "urllib3", "huggingface_hub"):
        logging.getLogger(name).setLevel(logging.ERROR)
    # transformers reads this setting when it loads, so it need not be imported here
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


def store_new_suite(db: str | Path, data: SuiteData, *, replace: bool = False) -> int:
    """The store service's :func:`~checkpoints.service.store.store_new_suite`, imported
    only when a command stores a suite so that ``--help`` stays quick."""
    from checkpoints.service.store import store_new_suite as store

    return store(db, data, replace=replace)


def check_name_free(db: str | Path, name: str) -> None:
    """The store service's :func:`~checkpoints.service.store.check_name_free`, imported when used."""
    from checkpoints.service.store import check_name_free as check

    check(db, name)


def emit(content: object, output: Path | None) -> None:
    """Print text or a rich renderable to stdout, or write it to ``output`` (atomically)."""
    if output is None:
        if isinstance(content, str):
            sys.stdout.write(content)
        else:
            stdout_console().print(content, crop=False)
        return
    if isinstance(content, str):
        text = content
    else:
        console = Console(file=io.StringIO(), width=160, no_color=True, highlight=False)
        console.print(content, crop=False)
        text = console.file.getvalue()  # type: ignore[attr-defined]
    write_atomic(output, text)


def check_format(value: str, allowed: tuple[str, ...]) -> None:
    check_choice("--format", value, allowed)
