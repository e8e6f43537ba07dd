"""What a new user hit in the first wave's command line: each test failed before its fix.

One-line usage errors in one style, help that reads at 80 columns, the
baseline counting as a system, chosen runs, output problems found before
anything is stored, signatures never wrapped, degenerate builds that warn.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import func, select

from checkpoints.db.session import open_engine, transaction
from checkpoints.db.tables import RunRow

PUD = Path(__file__).resolve().parents[1] / "data"


def runs(db: Path) -> int:
    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        value = session.scalar(select(func.count(RunRow.id)))
    engine.dispose()
    return int(value or 0)


@pytest.fixture
def demo_suite(run_cli, tmp_path: Path, demo_dir: Path) -> dict[str, Path]:  # type: ignore[no-untyped-def]
    """The first 60 demo pairs, built and evaluated with both Apertium systems."""
    folder = tmp_path / "in"
    folder.mkdir()

    def head(name: str, sentences: int) -> Path:
        with gzip.open(demo_dir / name, "rt", encoding="utf-8") as handle:
            text = handle.read()
        blocks = text.strip("\n").split("\n\n")[:sentences]
        target = folder / name.removesuffix(".gz")
        target.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
        return target

    en, es = head("en_pud.conllu.gz", 60), head("es_pud.conllu.gz", 60)
    alignment = folder / "en-es.align"
    alignment.write_text("".join((demo_dir / "en-es.align").read_text().splitlines(keepends=True)[:60]))
    systems = {}
    for name in ("direct", "pivot"):
        systems[name] = folder / f"{name}.es"
        systems[name].write_text("".join((demo_dir / f"{name}.es.txt").read_text().splitlines(keepends=True)[:60]))
    db = tmp_path / "demo.db"
    code, _out, err = run_cli("build", "--db", db, "--src-lang", "en", "--tgt-lang", "es", "--source-conllu", en,
                              "--reference-conllu", es, "--alignment", alignment, "--taxonomy", "en", "--name", "d")
    assert code == 0, err
    code, _out, err = run_cli("evaluate", "--db", db, "--system", f"direct={systems['direct']}",
                              "--system", f"pivot={systems['pivot']}", "--format", "json")
    assert code == 0, err
    return {"db": db, "en": en, "es": es, "alignment": alignment, **systems}


# -- one style of usage error ----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["evaluate"], "checkpoints: error: Missing option '--db' (see `checkpoints evaluate --help`)\n"),
        (["evalute"], "checkpoints: error: No such command 'evalute'. Did you mean 'evaluate'? (see `checkpoints --help`)\n"),
        (["taxonomy", "show", "en", "--level", "clause"], "checkpoints: error: --level 'clause': choose word, phrase or sentence\n"),
        (["taxonomy", "list", "--format", "xml"], "checkpoints: error: --format 'xml': choose text or json\n"),
        (["show", "--db", "x.db", "--limit", "many"], "checkpoints: error: Invalid value for '--limit': Input should be a valid integer, unable to parse string as an integer (see `checkpoints show --help`)\n"),
    ],
)
def test_usage_errors_are_one_line(run_cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(*args)
    assert (code, out, err) == (2, "", message)


# -- help at 80 columns ------------------------------------------------------------


def test_help_fits_80_columns_and_names_values_plainly(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _err = run_cli("build", "--help")
    assert code == 0
    assert "--reference-conllu FILE" in out and "--db DB" in out
    assert "…" not in out and "<list[Path]>" not in out and "<bool>" not in out and "<path>" not in out
    # examples are printed as written, one command per line, not re-wrapped into prose
    assert "    --source-conllu en.conllu --reference-conllu es.conllu --alignment en-es.align\n" in out
    code, out, _err = run_cli("show", "--help")
    assert "marked [like this]" in " ".join(out.split())
    code, out, _err = run_cli("import", "--help")
    assert "{file}" not in out


# -- compare: the baseline is a system, runs can be chosen ---------------------------


def test_compare_counts_the_baseline_as_a_system_and_names_the_runs(run_cli, demo_suite: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    db = demo_suite["db"]
    code, out, err = run_cli("compare", "--db", db, "--baseline", "direct", "--system", "pivot",
                             "--samples", "200", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["systems"] == ["direct", "pivot"] and report["baseline"] == "direct"
    assert report["runs"] == {"direct": 1, "pivot": 1}
    # a second evaluation of pivot is run 2 (compare stored run 2 in between: runs share one id sequence)
    assert run_cli("evaluate", "--db", db, "--system", f"pivot={demo_suite['direct']}")[0] == 0
    latest = runs(db)
    code, out, err = run_cli("compare", "--db", db, "--baseline", "direct", "--system", "pivot",
                             "--samples", "200", "--format", "json")
    assert json.loads(out)["runs"] == {"direct": 1, "pivot": latest}
    # with --run the first evaluation is compared again, and gives the first answer
    code, out2, err = run_cli("compare", "--db", db, "--baseline", "direct", "--system", "pivot", "--run", "pivot=1",
                              "--samples", "200", "--format", "json")
    assert code == 0, err
    again = json.loads(out2)
    assert again["runs"] == {"direct": 1, "pivot": 1} and again["comparisons"] == report["comparisons"]
    code, _out, err = run_cli("compare", "--db", db, "--baseline", "direct", "--system", "pivot", "--run", "pivot=999")
    assert code == 1 and "run 999 did not evaluate system 'pivot'" in err
    code, _out, err = run_cli("compare", "--db", db, "--system", "direct", "--system", "pivot", "--run", "pivot")
    assert (code, err) == (2, "checkpoints: error: --run 'pivot': expected NAME=ID, the id of a stored evaluation run\n")


# -- output problems are found before anything is stored ------------------------------


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_a_bad_output_path_stores_nothing(run_cli, demo_suite: dict[str, Path], tmp_path: Path, command: str) -> None:  # type: ignore[no-untyped-def]
    db = demo_suite["db"]
    before = runs(db)
    args = ["--system", f"direct={demo_suite['direct']}", "--system", "pivot"] if command == "compare" else [
        "--system", f"direct={demo_suite['direct']}"]
    code, _out, err = run_cli(command, "--db", db, *args, "--output", tmp_path / "missing" / "report.txt")
    assert code == 1 and err == f"checkpoints: error: {tmp_path / 'missing' / 'report.txt'}: folder {tmp_path / 'missing'} does not exist\n"
    code, _out, err = run_cli(command, "--db", db, *args, "--output", tmp_path)
    assert code == 1 and err == f"checkpoints: error: {tmp_path}: is a directory, not a file\n"
    assert runs(db) == before


# -- signatures are never wrapped ---------------------------------------------------------


def test_signatures_stay_on_one_line(run_cli, demo_suite: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = demo_suite["db"]
    target = tmp_path / "report.txt"
    code, out, err = run_cli("compare", "--db", db, "--system", "direct", "--system", "pivot", "--samples", "100",
                             "--output", target)
    assert code == 0, err
    for text in (target.read_text(encoding="utf-8"),):
        lines = [line for line in text.splitlines() if line.startswith("signature: ")]
        assert len(lines) == 1
        assert re.fullmatch(r"signature: (\S+:\S+\|)+version:\S+", lines[0]), lines[0]
    code, out, _err = run_cli("compare", "--db", db, "--system", "direct", "--system", "pivot", "--samples", "100",
                              "--format", "json")
    assert json.loads(out)["signature"] == lines[0].removeprefix("signature: ")
    assert "min-checkpoints:30" in lines[0] and "alpha:0.05" in lines[0]


# -- category names ------------------------------------------------------------------------


def test_category_names_ignore_case_and_suggest(run_cli, demo_suite: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    db = demo_suite["db"]
    code, out, err = run_cli("show", "--db", db, "--category", "noun   PHRASE", "--limit", "1", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["checkpoints"][0]["category"] == "Noun phrase"
    code, _out, err = run_cli("show", "--db", db, "--category", "Prepositon phrase")
    assert code == 1 and err == "checkpoints: error: no category 'Prepositon phrase' in suite 'd' (did you mean 'Preposition phrase'?)\n"


# -- degenerate builds warn ---------------------------------------------------------------------


def test_a_build_with_empty_alignments_warns(run_cli, demo_suite: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    empty = tmp_path / "empty.align"
    empty.write_text("\n" * 60)
    code, _out, err = run_cli("build", "--db", tmp_path / "e.db", "--src-lang", "en", "--tgt-lang", "es",
                              "--source-conllu", demo_suite["en"], "--reference-conllu", demo_suite["es"],
                              "--alignment", empty, "--taxonomy", "en")
    assert code == 0
    warnings = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert any(re.match(r"warning: \d+ of \d+ check-points found were skipped \(most as '", w) for w in warnings), err
    assert "warning: 60 sentence pairs have no alignment link at all" in warnings
    assert "noise filter" not in err


def test_a_taxonomy_for_another_language_warns(run_cli, demo_suite: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run_cli("build", "--db", tmp_path / "z.db", "--src-lang", "en", "--tgt-lang", "es",
                              "--source-conllu", demo_suite["en"], "--reference-conllu", demo_suite["es"],
                              "--alignment", demo_suite["alignment"], "--taxonomy", "zh")
    assert code == 0
    assert "warning: taxonomy 'zh' is for zh sources, but the source language is en" in err
    code, _out, err = run_cli("build", "--db", tmp_path / "u.db", "--src-lang", "en", "--tgt-lang", "es",
                              "--source-conllu", demo_suite["en"], "--reference-conllu", demo_suite["es"],
                              "--alignment", demo_suite["alignment"], "--taxonomy", "ud")
    assert code == 0 and "warning:" not in err


# -- the demo's database ----------------------------------------------------------------------------


def test_the_demo_takes_a_url_and_replaces_a_stale_default_file(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import sqlite3

    from checkpoints.service import demo

    stale = tmp_path / "checkpoints-demo.db"
    with sqlite3.connect(stale) as connection:  # what another program, or an older schema, left there
        connection.execute("CREATE TABLE suite (id INTEGER)")
    monkeypatch.setattr(demo, "default_database", lambda: stale)
    assert demo._fresh_default_database() == stale and not stale.exists()
    code, out, err = run_cli("demo", "--db", f"sqlite:///{tmp_path / 'url.db'}", "--samples", "20")
    assert code == 0, err
    assert (tmp_path / "url.db").exists() and "SYSTEM (BLEU)" in out


def test_the_command_line_loads_no_numeric_library_and_shares_the_resampling_defaults() -> None:
    """`checkpoints --help` starts fast because no command module imports numpy or scipy at load."""
    import subprocess
    import sys

    from checkpoints.cli import command
    from checkpoints.evaluate.resample import DEFAULT_SAMPLES, DEFAULT_SEED

    code = "import sys, checkpoints.cli; print(sorted({'numpy', 'scipy', 'sqlalchemy', 'torch'} & set(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
    root = command()
    for name in ("compare", "meta", "metrics", "demo"):
        defaults = {param.name: param.default for param in root.get_command(None, name).params}
        assert defaults["samples"] == DEFAULT_SAMPLES
        if "seed" in defaults:
            assert defaults["seed"] == DEFAULT_SEED


def test_evaluate_resolves_category_names_too(run_cli, demo_suite: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    db = demo_suite["db"]
    code, out, err = run_cli("evaluate", "--db", db, "--system", f"direct={demo_suite['direct']}",
                             "--category", "VERB", "--format", "json")
    assert code == 0, err
    assert list(json.loads(out)["systems"]["direct"]["categories"]) == ["Verb"]
    code, _out, err = run_cli("evaluate", "--db", db, "--system", f"direct={demo_suite['direct']}", "--category", "Vrb")
    assert code == 1 and err == "checkpoints: error: no category 'Vrb' in suite 'd' (did you mean 'Verb'?)\n"


def test_root_help_lists_every_command_without_importing_one() -> None:
    """Issue: 194 function-local imports kept `--help` fast. Commands now load lazily (click's
    lazy group): the root help imports no command module, and its one-line summaries are the
    first sentences of the commands' own help."""
    import subprocess
    import sys

    from checkpoints.cli import COMMANDS, load_command

    code = ("import sys, checkpoints.cli as c; c.command().get_help(c.typer.Context(c.command())); "
            "print(sorted(m for m in sys.modules if m.startswith('checkpoints.cli.') and m != 'checkpoints.cli.common'))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
    for name, (_module, summary) in COMMANDS.items():
        text = " ".join((load_command(name).help or "").split("\n\n")[0].replace("\b", "").split())
        assert text.startswith(summary), (name, text)


def test_every_command_module_registers_what_the_table_says(run_cli) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.cli import COMMANDS

    code, out, err = run_cli("--help")
    assert code == 0, err
    listed = [line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == list(COMMANDS)
    for name in COMMANDS:
        code, out, err = run_cli(name, "--help")
        assert code == 0, (name, err)
        assert out.startswith(f"Usage: checkpoints {name} ")


def test_the_command_line_imports_nothing_private_of_typer() -> None:
    package = Path(__file__).resolve().parents[2] / "checkpoints"
    offending = [str(path) for path in package.rglob("*.py") if "typer._click" in path.read_text(encoding="utf-8")]
    assert offending == []
