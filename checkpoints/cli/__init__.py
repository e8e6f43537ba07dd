"""The ``checkpoints`` command: a thin layer that parses options, calls the library, renders.

Each command group lives in its own module with a ``register(app)`` function.
:data:`COMMANDS` names every command, the module that registers it and the
line ``checkpoints --help`` shows for it; a command's module is imported only
when that command runs or shows its own help (click's lazy loading, by
:class:`LazyGroup`), so command modules import what they use at the top and
``--help`` stays fast.
"""

from __future__ import annotations

import atexit
import importlib
import os
import signal
import sys
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from typing import Any

import typer
import typer.main
from typer.core import TyperGroup

from checkpoints import __version__
from checkpoints.errors import CheckpointsError, UsageError

COMMANDS: dict[str, tuple[str, str]] = {
    "build": ("build", "Build a check-point suite from a parallel corpus."),
    "align": ("align", "Word-align a parallel corpus, write Pharaoh links, measure them against gold."),
    "evaluate": ("evaluate", "Score MT systems on a check-point suite."),
    "compare": ("compare", "Compare systems per category with significance tests."),
    "gate": ("gate", "Fail when a candidate system regresses significantly against a baseline."),
    "show": ("show", "Show check-points with their references and each system's matches."),
    "audit": ("audit", "Audit a suite: reference self-score, substitution test, gaps and DM."),
    "attribute": ("attribute", "Attribute expert MQM error spans to check-points: do misses mean real errors?"),
    "challenge": ("challenge", "Build contrastive challenge sets from a suite and score metrics on them."),
    "report": ("report", "Write the diagnostic report as one self-contained HTML file."),
    "export": ("suite_xml", "Write a suite as interchange XML."),
    "import": ("suite_xml", "Read a suite from interchange XML into a database."),
    "demo": ("demo", "Build, evaluate and compare on bundled data (offline)."),
    "metrics": ("metrics", "Score system translations with Asiya-named metrics (BLEU, NIST, METEOR, ROUGE, -TER, chrF, ...)."),
    "annotate": ("annotate", "Parse text files for the linguistic metrics, into the cache and CoNLL-U."),
    "meta": ("meta", "Correlate metric scores with human judgments at system, document or segment level."),
    "qarla": ("qarla", "Meta-evaluate a metric set by human likeness (QARLA, as in IQMT): no human judgments needed."),
    "suites": ("catalog", "List, show, rename and delete the suites of a store."),
    "runs": ("catalog", "List, show and delete the stored evaluation and comparison runs."),
    "taxonomy": ("taxonomy", "Inspect and check check-point taxonomies."),
    "models": ("models", "Manage the stanza models used to parse raw text."),
}
"""Command name → (module under ``checkpoints.cli``, the first sentence of its help), in the order
``--help`` lists them; a test holds the sentences to the commands' own help."""


class LazyCommands(MutableMapping[str, Any]):
    """The root's commands: every name of :data:`COMMANDS` is there, its module imported on first lookup."""

    def __init__(self, loaded: Mapping[str, Any]) -> None:
        self._loaded = dict(loaded)

    def __getitem__(self, name: str) -> Any:
        if name not in self._loaded and name in COMMANDS:
            self._loaded[name] = load_command(name)
        return self._loaded[name]

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS or name in self._loaded

    def __iter__(self) -> Iterator[str]:
        yield from COMMANDS
        yield from (name for name in self._loaded if name not in COMMANDS)

    def __len__(self) -> int:
        return len(set(COMMANDS) | set(self._loaded))

    def __setitem__(self, name: str, command: Any) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]


class LazyGroup(TyperGroup):
    """The root group (click's lazy loading): commands load on first use, and the listing in
    ``--help`` comes from :data:`COMMANDS` without importing any."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = LazyCommands(self.commands)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, _shortened(summary, limit)) for name, (_module, summary) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def load_command(name: str) -> Any:
    """The click command ``name``, from its module's ``register`` (help tidied as for every command)."""
    module = importlib.import_module(f"checkpoints.cli.{COMMANDS[name][0]}")
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    holder.callback()(_holder)  # a callback makes typer build a group even for a module of one command
    module.register(holder)
    loaded = typer.main.get_command(holder).commands[name]  # type: ignore[attr-defined]
    _tidy_help(loaded)
    return loaded


def _holder() -> None:
    """Stands in as the callback of the group a command module registers into."""


def _shortened(summary: str, limit: int) -> str:
    """The summary cut to ``limit`` characters at a word, as click shortens a command's help."""
    if len(summary) <= limit:
        return summary
    return summary[: limit - 3].rsplit(" ", 1)[0] + "..."


app = typer.Typer(
    name="checkpoints",
    cls=LazyGroup,
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


METAVARS = {"Path": "FILE", "str": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "BOOLEAN"}
"""Help shows what to type (FILE, TEXT), not Python annotations (``<list[Path]>``)."""

NAMED_METAVARS = {"db": "DB"}
"""Options whose value is better named by what it is: ``--db`` takes a file or a URL."""


def command() -> Any:
    """The click command tree of :data:`app` (commands load on first use), with help made for 80-column terminals."""
    root = typer.main.get_command(app)
    _tidy_help(root)
    return root


HIDDEN_ALIASES = frozenset({"--target-lang", "--source-lang"})
"""Other spellings an option accepts but help does not show: one vocabulary (``--src-lang``,
``--tgt-lang`` everywhere), and the commands that said ``--target-lang`` keep working."""


def _hide_aliases(param: Any) -> None:
    shown = [name for name in param.opts if name not in HIDDEN_ALIASES]
    if len(shown) == len(param.opts) or not shown:
        return
    record = param.get_help_record

    def help_record(ctx: Any) -> tuple[str, str] | None:
        every = param.opts
        param.opts = shown
        try:
            return record(ctx)
        finally:
            param.opts = every

    param.get_help_record = help_record  # type: ignore[method-assign]


def _tidy_help(node: Any) -> None:
    for param in node.params:
        _hide_aliases(param)
        if param.metavar is None and not getattr(param, "is_flag", False) and hasattr(param, "bare_type"):
            bare = param.bare_type()
            element = bare.removeprefix("list[").removesuffix("]")
            param.metavar = NAMED_METAVARS.get(param.name or "", METAVARS.get(element, element.upper()))
    if node.help:
        node.help = _keep_examples(node.help)
    children = getattr(node, "commands", {})
    if not isinstance(children, LazyCommands):  # the root's commands are tidied as they load
        for child in children.values():
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
    except typer.Exit as error:
        sys.exit(error.exit_code)
    except UsageError as error:
        sys.stderr.write(f"checkpoints: error: {_one_line(error)}\n")
        sys.exit(2)
    except CheckpointsError as error:
        sys.stderr.write(f"checkpoints: error: {_one_line(error)}\n")
        sys.exit(1)
    except Exception as error:
        if not _is_click_error(error):
            raise
        if _is_help_request(error):  # `checkpoints`, `checkpoints taxonomy`: the help, as --help prints it
            sys.stdout.write(error.format_message() + "\n")  # type: ignore[attr-defined]
            sys.exit(0)
        sys.stderr.write(f"checkpoints: error: {_click_message(error)}\n")
        sys.exit(error.exit_code)  # type: ignore[attr-defined]
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


def _is_click_error(error: BaseException) -> bool:
    """An error click raises for the command line (a missing option, a bad value): it formats its
    own message and carries its exit code. Recognised by that, so nothing private of typer's
    bundled click is imported."""
    return callable(getattr(error, "format_message", None)) and isinstance(getattr(error, "exit_code", None), int)


def _is_help_request(error: BaseException) -> bool:
    """click's answer to a group (or a ``no_args_is_help`` command) given no arguments: an
    "error" whose message is the help itself, which is printed as ``--help`` prints it."""
    context = getattr(error, "ctx", None)
    return context is not None and error.format_message() == context.get_help()  # type: ignore[attr-defined]


def _click_message(error: Any) -> str:
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
