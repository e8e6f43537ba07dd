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
