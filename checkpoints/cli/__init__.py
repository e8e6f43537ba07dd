"""The ``checkpoints`` command: a thin layer that parses options, calls the library, renders.

Each command group lives in its own module with a ``register(app)`` function;
:data:`COMMAND_MODULES` lists them in the order ``--help`` shows them.
"""

from __future__ import annotations

import atexit
import importlib
import os
import signal
import sys
from collections.abc import Sequence

import typer
import typer.main

try:  # recent typer bundles its own copy of click
    import typer._click as click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - older typer uses click itself
    import click  # type: ignore[no-redef]
    from click.exceptions import ClickException, NoArgsIsHelpError  # type: ignore[assignment]

from checkpoints import __version__
from checkpoints.errors import CheckpointsError, UsageError

COMMAND_MODULES = (
    "build",
    "align",
    "evaluate",
    "compare",
    "show",
    "audit",
    "attribute",
    "catalog",
    "report",
    "suite_xml",
    "taxonomy",
    "demo",
    "models",
    "metrics",
    "meta",
    "qarla",
)

app = typer.Typer(
    name="checkpoints",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
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


METAVARS = {"Path": "FILE", "str": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "BOOLEAN"}
"""Help shows what to type (FILE, TEXT), not Python annotations (``<list[Path]>``)."""

NAMED_METAVARS = {"db": "DB"}
"""Options whose value is better named by what it is: ``--db`` takes a file or a URL."""


def command() -> click.Command:
    """The click command tree of :data:`app`, with help made for 80-column terminals."""
    root = typer.main.get_command(app)
    _tidy_help(root)
    return root


HIDDEN_ALIASES = frozenset({"--target-lang", "--source-lang"})
"""Other spellings an option accepts but help does not show: one vocabulary (``--src-lang``,
``--tgt-lang`` everywhere), and the commands that said ``--target-lang`` keep working."""


def _hide_aliases(param: click.Parameter) -> None:
    shown = [name for name in param.opts if name not in HIDDEN_ALIASES]
    if len(shown) == len(param.opts) or not shown:
        return
    record = param.get_help_record

    def help_record(ctx: click.Context) -> tuple[str, str] | None:
        every = param.opts
        param.opts = shown
        try:
            return record(ctx)
        finally:
            param.opts = every

    param.get_help_record = help_record  # type: ignore[method-assign]


def _tidy_help(node: click.Command) -> None:
    for param in node.params:
        _hide_aliases(param)
        if param.metavar is None and not getattr(param, "is_flag", False) and hasattr(param, "bare_type"):
            bare = param.bare_type()
            element = bare.removeprefix("list[").removesuffix("]")
            param.metavar = NAMED_METAVARS.get(param.name or "", METAVARS.get(element, element.upper()))
    if node.help:
        node.help = _keep_examples(node.help)
    for child in getattr(node, "commands", {}).values():
        _tidy_help(child)


def _keep_examples(text: str) -> str:
    """Mark indented paragraphs (command examples) so click prints them as written, unwrapped."""
    paragraphs = text.split("\n\n")
    return "\n\n".join(
        f"\b\n{paragraph}" if any(line.startswith((" ", "\t")) for line in paragraph.splitlines()) else paragraph
        for paragraph in paragraphs
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: one-line errors on stderr, exit 1 for failures and 2 for usage errors."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        result = command().main(
            args=list(argv) if argv is not None else sys.argv[1:], prog_name="checkpoints", standalone_mode=False
        )
    except typer.Abort:
        sys.stderr.write("checkpoints: aborted\n")
        sys.exit(130)
    except NoArgsIsHelpError as error:  # `checkpoints`, `checkpoints taxonomy`: the help, as --help prints it
        context = error.ctx
        sys.stdout.write(context.get_help() + "\n" if context is not None else error.format_message() + "\n")
        sys.exit(0)
    except ClickException as error:
        sys.stderr.write(f"checkpoints: error: {_click_message(error)}\n")
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


def run() -> None:
    """The ``checkpoints`` command: :func:`main`, then leave without tearing the interpreter down.

    A finished command has nothing left to free that the operating system does
    not take back at once, yet Python's teardown frees every object and module
    one by one: 0.1 s for the imported libraries alone and as much again after
    evaluating a large suite. So exit handlers run (``atexit``, which also
    removes temporary files), the output streams are flushed, and the process
    exits with :func:`os._exit`. :func:`main` itself exits normally, for
    callers that stay in Python.
    """
    try:
        main()
        code: object = 0
    except SystemExit as done:
        code = done.code
    atexit._run_exitfuncs()
    if code is not None and not isinstance(code, int):  # what Python prints for sys.exit("message")
        sys.stderr.write(f"{code}\n")
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: Python's own exit would not report it either
            code = code or 120
    os._exit(code or 0)


def _click_message(error: ClickException) -> str:
    """click's own errors in the one-line style of every other error, with where to look for help."""
    message = _one_line_text(error.format_message()).rstrip(".")
    context = getattr(error, "ctx", None)
    if context is not None and error.exit_code == 2:
        message += f" (see `{context.command_path} --help`)"
    return message


def _one_line_text(text: str) -> str:
    return " ".join(text.split())


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())
