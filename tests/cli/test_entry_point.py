"""The installed ``checkpoints`` command (``checkpoints.cli:run``) leaves with ``os._exit``
after a command: what it printed, its exit status and the exit handlers must all be as a
normal interpreter exit would leave them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from checkpoints import __version__

SCRIPT = """
import atexit, sys
from pathlib import Path
from checkpoints.cli import run
marker = Path(sys.argv[1])
atexit.register(lambda: marker.write_text("exit handlers ran"))
sys.argv = ["checkpoints", *sys.argv[2:]]
run()
"""


def _run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], str | None]:
    marker = tmp_path / "marker"
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(marker), *args], capture_output=True, text=True, timeout=120)
    return done, marker.read_text() if marker.exists() else None


def test_output_is_flushed_and_exit_handlers_run(tmp_path: Path) -> None:
    done, marker = _run(tmp_path, "--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"checkpoints {__version__}\n", "")
    assert marker == "exit handlers ran"


def test_large_output_through_a_pipe_arrives_whole(tmp_path: Path) -> None:
    done, marker = _run(tmp_path, "evaluate", "--help")
    assert done.returncode == 0 and done.stderr == ""
    assert "checkpoints evaluate --db pud.db" in done.stdout and done.stdout.rstrip().endswith("Show this message and exit.")
    assert marker == "exit handlers ran"


def test_errors_keep_their_exit_status(tmp_path: Path) -> None:
    done, marker = _run(tmp_path, "evaluate", "--db", str(tmp_path / "missing.db"), "--system", "a=b")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("checkpoints: error: ") and done.stderr.count("\n") == 1
    assert marker == "exit handlers ran"
    done, _ = _run(tmp_path, "no-such-command")
    assert done.returncode == 2 and done.stderr.startswith("checkpoints: error: ")


def test_a_progress_bar_for_short_stages_draws_without_a_thread(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``demo`` forks work beside its progress bar, which a redraw thread would forbid
    (:func:`checkpoints.workers.can_run_beside`): its bar redraws as the work advances instead."""
    import threading

    from checkpoints import workers
    from checkpoints.cli import common

    monkeypatch.setattr(common, "progress_enabled", lambda: True)
    before = threading.active_count()
    with common.progress_bar(refresh_thread=False) as bar:
        assert threading.active_count() == before
        advance = common.stage_progress(bar)("stage", 3)
        advance(1)
        advance(2)
        assert bar.tasks[0].completed == 3 and bar.tasks[0].finished
        assert workers.can_run_beside() == (workers.can_fork() and workers.usable_cpus() > 1 and before == 1)
    with common.progress_bar() as bar:
        assert threading.active_count() == before + 1 and not workers.can_run_beside()
