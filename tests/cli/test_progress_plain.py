"""Progress in a log (stderr not a terminal): silent for short stages, a line every while for long ones."""

from __future__ import annotations

import pytest

from checkpoints.cli import common


def test_a_short_stage_prints_nothing_and_a_long_one_says_how_far_it_got(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    clock = iter([0.0, 1.0, 2.0, 6.0, 10.0, 22.0, 30.0])
    monkeypatch.setattr(common.time, "monotonic", lambda: next(clock))
    advance = common.plain_progress("parsing en", 100)  # started at 0 s
    advance(10)   # 1 s: too early
    advance(10)   # 2 s
    advance(20)   # 6 s: past 5 s, a first line
    advance(10)   # 10 s: within 15 s of the last line
    advance(30)   # 22 s: 16 s later, another line
    advance(20)   # 30 s: finished, the closing line
    assert capsys.readouterr().err.splitlines() == [
        "parsing en: 40/100 (40%) so far, 6 s",
        "parsing en: 80/100 (80%) so far, 22 s",
        "parsing en: 100/100 (100%) done, 30 s",
    ]


def test_a_quick_stage_stays_silent_even_when_done(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    clock = iter([0.0, 0.5])
    monkeypatch.setattr(common.time, "monotonic", lambda: next(clock))
    common.plain_progress("aligning", 1)(1)
    assert capsys.readouterr().err == ""


def test_threads_must_be_positive(run_cli, build_table3, tmp_path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = build_table3(tmp_path / "t.db", "--threads", "0")
    assert code == 2 and err == "checkpoints: error: --threads must be at least 1, not 0\n"


@pytest.mark.parametrize("disabled", [True])
def test_stage_progress_falls_back_to_plain_lines_without_a_terminal(disabled: bool) -> None:
    with common.progress_bar() as bar:  # stderr is captured here: not a terminal
        assert bar.disable is disabled
        callback = common.stage_progress(bar)("finding check-points", 3)
        assert callback.__qualname__.startswith("plain_progress")
