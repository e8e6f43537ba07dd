"""``checkpoints metrics ARGS`` run in-process, for the metric command tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``checkpoints metrics ARGS``."""
    with pytest.raises(SystemExit) as exit_info:
        main(["metrics", *(str(arg) for arg in args)])
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err
