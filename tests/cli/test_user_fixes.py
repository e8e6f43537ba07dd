"""What a new user hit: bare group commands, report's --system, mode of written files."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize("group", [[], ["taxonomy"], ["models"], ["suites"], ["runs"]], ids=lambda g: " ".join(g) or "bare")
def test_a_bare_group_prints_its_help_normally(run_cli, group: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(*group)
    assert (code, err) == (0, "")
    assert out.startswith(f"Usage: checkpoints {' '.join(group)}".rstrip() + " [OPTIONS] COMMAND")
    assert "\n\nCommands:\n" in out or "Commands" in out  # laid out as --help lays it out, not one line


def test_report_names_what_is_missing_and_evaluates_name_equals_file(run_cli, build_table3, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t3.db"
    assert build_table3(db)[0] == 0
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("他們反對建立儲備金。\n", encoding="utf-8")
    b.write_text("他們反對建立基金。\n", encoding="utf-8")
    assert run_cli("evaluate", "--db", db, "--system", f"A={a}")[0] == 0
    html = tmp_path / "r.html"
    code, _, err = run_cli("report", "--db", db, "-o", html)
    assert code == 2 and err == (
        "checkpoints: error: a report compares at least two systems, and suite 'table3' has 1 evaluated (A): "
        "evaluate more with `checkpoints evaluate`, or give --system NAME=FILE\n")
    code, _, err = run_cli("report", "--db", db, "-o", html, "--system", "A")
    assert code == 2 and err == (
        "checkpoints: error: a report compares at least two systems, and --system names only A "
        "(evaluated in suite 'table3': A)\n")
    assert not html.exists()
    code, out, err = run_cli("report", "--db", db, "-o", html, "--system", "A", "--system", f"B={b}")
    assert code == 0, err
    assert html.is_file() and "wrote" in out
    code, out, _ = run_cli("runs", "list", "--db", db, "--format", "json")
    assert '"B"' in out  # B was evaluated and stored first


def test_dash_reads_standard_input_and_writes_standard_output(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    reference = tmp_path / "ref.txt"
    reference.write_text("the cat sat on the mat\n", encoding="utf-8")
    done = subprocess.run(
        [str(Path(sys.executable).with_name("checkpoints")), "metrics", "-r", str(reference), "-s", "A=-",
         "-m", "BLEU", "-f", "json", "-o", "-"],
        input="the cat sat on the mat\n", capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"]["A"]["BLEU"] == 1.0
    assert not (tmp_path / "-").exists() and not Path("-").exists()


def test_empty_lines_and_nul_characters_in_a_system_output_are_named(run_cli, build_table3, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t3.db"
    assert build_table3(db)[0] == 0
    empty, nul = tmp_path / "empty.txt", tmp_path / "nul.txt"
    empty.write_text("\n", encoding="utf-8")
    nul.write_text("他們\0反對\n", encoding="utf-8")
    code, _, err = run_cli("evaluate", "--db", db, "--system", f"E={empty}", "--system", f"N={nul}")
    assert code == 0, err
    assert f"warning: {empty}: 1 empty line (line 1)\n" in err
    assert f"warning: {nul}: 1 NUL character (line 1)\n" in err


def test_long_category_names_are_not_cut_on_a_narrow_terminal(run_cli, table8_inputs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import io

    from rich.console import Console

    from checkpoints.report.checkpoint_reports import evaluation_table
    from checkpoints.service.evaluate import evaluate_systems

    db = tmp_path / "t8.db"
    assert run_cli("import", "--db", db, table8_inputs["xml"])[0] == 0
    evaluation = evaluate_systems(db, [("A", table8_inputs["a"]), ("B", table8_inputs["b"])])
    buffer = io.StringIO()
    Console(file=buffer, width=50, no_color=True).print(evaluation_table(evaluation))
    assert "│ Preposition-object phrase │" in buffer.getvalue()  # whole, where it used to end in "…"
