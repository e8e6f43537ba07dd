"""The ``checkpoints`` command: a thin layer that parses options, calls the library, renders.

Each command group lives in its own module with a ``register(app)`` function;
:data:`COMMAND_MODULES` lists them in the order ``--help`` shows them.
"""

from __future__ import annotations

import importlib
import signal
import sys
from collections.abc import Sequence

import typer

try:  # recent typer bundles its own copy of click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer uses click itself
    from click.exceptions import ClickException

from checkpoints import __version__
from checkpoints.errors import CheckpointsError, UsageError

COMMAND_MODULES = (
    "build",
    "align",
    "evaluate",
    "compare",
    "show",
    "suite_xml",
    "taxonomy",
    "demo",
    "models",
    "metrics",
    "meta",
)

app = typer.Typer(
    name="checkpoints",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help=(
        "Diagnostic evaluation of machine translation with linguistic check-points "
        "(Zhou et al. 2008), and the Asiya/IQMT metric and meta-evaluation suite.\n\n"
        "Start with `checkpoints demo`, which builds a suite from the bundled UD PUD "
        "English-Spanish sample and compares two Apertium systems, offline."
    ),
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"checkpoints {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Diagnostic evaluation of machine translation."""


for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(f"checkpoints.cli.{_name}")
    except ModuleNotFoundError as _error:
        if _error.name != f"checkpoints.cli.{_name}":
            raise
        continue
    _module.register(app)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: one-line errors on stderr, exit 1 for failures and 2 for usage errors."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        result = app(args=list(argv) if argv is not None else None, prog_name="checkpoints", standalone_mode=False)
    except typer.Abort:
        sys.stderr.write("checkpoints: aborted\n")
        sys.exit(130)
    except ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except typer.Exit as error:
        sys.exit(error.exit_code)
    except UsageError as error:
        sys.stderr.write(f"checkpoints: error: {_one_line(error)}\n")
        sys.exit(2)
    except CheckpointsError as error:
        sys.stderr.write(f"checkpoints: error: {_one_line(error)}\n")
        sys.exit(1)
    except KeyboardInterrupt:
        sys.stderr.write("checkpoints: interrupted\n")
        sys.exit(130)
    sys.exit(result if isinstance(result, int) else 0)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())
