"""Every command has help with an example, and the README covers every command."""

from __future__ import annotations

from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")

COMMANDS = [
    ["build"], ["evaluate"], ["compare"], ["show"], ["audit"], ["attribute"], ["export"], ["import"], ["demo"], ["metrics"],
    ["meta"], ["qarla"],
    ["taxonomy", "list"], ["taxonomy", "show"], ["taxonomy", "validate"], ["models", "download"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_help_with_an_example(run_cli, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, out, _err = run_cli(*command, "--help")
    assert code == 0
    assert "Example" in out
    assert f"checkpoints {command[0]}" in README


def test_version_and_bare_command(run_cli) -> None:  # type: ignore[no-untyped-def]
    from checkpoints import __version__

    code, out, _err = run_cli("--version")
    assert (code, out) == (0, f"checkpoints {__version__}\n")
    code, out, err = run_cli()
    assert code in (0, 2) and "build" in out + err


def test_unknown_command_is_a_usage_error(run_cli) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run_cli("frobnicate")
    assert code == 2 and "No such command" in err


SUBCOMMANDS = [
    ["build"], ["align"], ["evaluate"], ["compare"], ["show"], ["audit"], ["attribute"], ["report"], ["export"],
    ["import"], ["demo"], ["metrics"], ["meta"], ["qarla"], ["suites", "list"], ["suites", "show"], ["runs", "list"],
    ["runs", "show"], ["taxonomy", "list"], ["taxonomy", "show"], ["models", "train"],
]


@pytest.mark.parametrize("command", SUBCOMMANDS, ids=" ".join)
def test_one_option_vocabulary(run_cli, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    """--format is -f, --output is -o, the target language is --tgt-lang everywhere (--target-lang is hidden)."""
    code, out, _ = run_cli(*command, "--help")
    assert code == 0
    options = [line.split()[:2] for line in out.splitlines() if line.startswith("  -")]  # the options table
    for long, short in (("--format", "-f,"), ("--output", "-o,")):
        for names in options:
            if long in names:
                assert names[0] == short, (long, names)
    assert "--target-lang" not in out and "--source-lang" not in out


def test_the_old_language_spelling_still_works(run_cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    reference, system = tmp_path / "ref.txt", tmp_path / "sys.txt"
    reference.write_text("the cat sat on the mat\n", encoding="utf-8")
    system.write_text("the cat sat on a mat\n", encoding="utf-8")
    new = run_cli("metrics", "-r", reference, "-s", f"A={system}", "-m", "METEOR-ex", "--tgt-lang", "en", "-f", "json")
    old = run_cli("metrics", "-r", reference, "-s", f"A={system}", "-m", "METEOR-ex", "--target-lang", "en", "-f", "json")
    assert new[0] == 0 and new == old
