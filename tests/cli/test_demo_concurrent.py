"""Two ``checkpoints demo`` runs at once in one database both succeed (the second waits for the first)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_concurrent_demos_do_not_break_each_other(tmp_path: Path) -> None:
    executable = str(Path(sys.executable).with_name("checkpoints"))
    database = tmp_path / "demo.db"
    runs = [
        subprocess.Popen([executable, "demo", "--db", str(database), "--samples", "20"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    results = [run.communicate(timeout=600) for run in runs]
    for run, (_out, err) in zip(runs, results, strict=True):
        assert run.returncode == 0, err
    assert (tmp_path / "demo-report.html").is_file()
