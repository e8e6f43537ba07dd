"""``checkpoints taxonomy list | show | validate`` through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from checkpoints.cli.taxonomy import register
from checkpoints.errors import TaxonomyError


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    application = typer.Typer()

    @application.callback()
    def _root() -> None:
        """A root so that ``taxonomy`` is a sub-command, as in the real program."""

    register(application)
    return application


runner = CliRunner()


def test_list_json(app: typer.Typer) -> None:
    result = runner.invoke(app, ["taxonomy", "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["name"], r["language"], r["version"], r["categories"]) for r in rows] == [
        ("en", "en", "1", 20),
        ("ud", "*", "1", 26),
        ("zh", "zh", "1", 23),
    ]
    assert rows[0]["levels"] == {"word": 11, "phrase": 5, "sentence": 4}
    assert rows[2]["levels"] == {"word": 12, "phrase": 6, "sentence": 5}


def test_list_table(app: typer.Typer) -> None:
    result = runner.invoke(app, ["taxonomy", "list"])
    assert result.exit_code == 0
    assert "Built-in taxonomies" in result.stdout
    assert "11 / 5 / 4" in result.stdout and "12 / 6 / 5" in result.stdout


def test_show_json_with_level_filter(app: typer.Typer) -> None:
    result = runner.invoke(app, ["taxonomy", "show", "zh", "--format", "json", "--level", "sentence"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["name"] == "zh" and document["builtin"] is True
    assert [c["name"] for c in document["categories"]] == [
        "BA sentence",
        "BEI sentence",
        "SHI sentence",
        "YOU sentence",
        "Compound sentence",
    ]
    assert all(c["level"] == "sentence" and c["description"] for c in document["categories"])


def test_show_text_groups_by_level(app: typer.Typer) -> None:
    result = runner.invoke(app, ["taxonomy", "show", "en"])
    assert result.exit_code == 0
    text = result.stdout
    assert text.index("word level (11)") < text.index("phrase level (5)") < text.index("sentence level (4)")
    assert "Hyperbaton" in text and "acl:relcl" in text


def test_show_xml_prints_the_file_for_copying(app: typer.Typer, tmp_path: Path) -> None:
    result = runner.invoke(app, ["taxonomy", "show", "en", "--format", "xml"])
    assert result.exit_code == 0
    copy = tmp_path / "mine.xml"
    copy.write_text(result.stdout, encoding="utf-8")
    validated = runner.invoke(app, ["taxonomy", "validate", str(copy)])
    assert validated.exit_code == 0
    assert validated.stdout == f"{copy}: valid (20 categories)\n"


def test_show_unknown_taxonomy_raises_the_one_line_error(app: typer.Typer, tmp_path: Path) -> None:
    result = runner.invoke(app, ["taxonomy", "show", str(tmp_path / "none.xml")])
    assert result.exit_code != 0
    assert isinstance(result.exception, TaxonomyError)


def test_validate_reports_file_and_line(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.xml"
    bad.write_text(
        '<taxonomy name="t" language="en" version="1">\n'
        '<category name="X" level="word"><description>d</description>\n'
        '<pattern>\n<node id="a" head="b"/>\n<checkpoint nodes="a"/>\n</pattern>\n</category>\n</taxonomy>\n',
        encoding="utf-8",
    )
    code, out, err = run_cli("taxonomy", "validate", bad)
    assert (code, out) == (1, "")
    assert err == f"checkpoints: error: {bad}:4: node 'a': head='b' names no node of this pattern (nodes: a)\n"


def test_validate_reports_a_broken_word_list(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "terms.txt").write_text("fine\nbad\tX=1=2\n", encoding="utf-8")
    path = tmp_path / "t.xml"
    path.write_text(
        '<taxonomy name="t" language="en" version="1"><category name="T" level="word">'
        '<description>d</description><wordlist file="terms.txt"/></category></taxonomy>',
        encoding="utf-8",
    )
    code, _, err = run_cli("taxonomy", "validate", path)
    assert code == 1
    assert err == f"checkpoints: error: {tmp_path / 'terms.txt'}:2: bad tag 'X=1=2': expected NAME or NAME=COUNT\n"


@pytest.mark.parametrize("command", [["taxonomy"], ["taxonomy", "list"], ["taxonomy", "show"], ["taxonomy", "validate"]])
def test_every_help_has_an_example(app: typer.Typer, command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert "checkpoints taxonomy" in result.stdout
