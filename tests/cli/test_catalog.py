"""``checkpoints suites`` / ``runs``, ``--replace`` on build and import, the early name check, run ids."""

from __future__ import annotations

import json
from pathlib import Path


def test_suites_list_show_rename_delete(run_cli, build_table3, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t3.db"
    assert build_table3(db)[0] == 0
    assert build_table3(db, "--name", "second")[0] == 0
    code, out, err = run_cli("suites", "list", "--db", db, "--format", "json")
    assert code == 0, err
    listed = json.loads(out)
    assert [entry["name"] for entry in listed] == ["second", "table3"]
    assert listed[1]["pairs"] == 1 and listed[1]["checkpoints"] > 0 and listed[1]["runs"] == 0
    code, out, err = run_cli("suites", "show", "--db", db, "table3", "--format", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert sum(shown["categories"].values()) == listed[1]["checkpoints"] and "lexicon" not in shown["options"]
    code, _, err = run_cli("suites", "rename", "--db", db, "second", "table3")
    assert code == 1 and "a suite named 'table3' already exists" in err
    assert run_cli("suites", "rename", "--db", db, "second", "third")[0] == 0
    assert run_cli("suites", "delete", "--db", db, "third")[0] == 0
    code, out, _ = run_cli("suites", "list", "--db", db)
    assert "table3" in out and "third" not in out
    code, _, err = run_cli("suites", "delete", "--db", db, "nope")
    assert code == 1 and err == "checkpoints: error: no suite named 'nope' in this database (suites: table3)\n"


def test_evaluate_prints_its_run_id_and_runs_can_be_listed_shown_deleted(run_cli, build_table3, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t3.db"
    assert build_table3(db)[0] == 0
    output = tmp_path / "sys.txt"
    output.write_text("他們反對建立儲備金。\n", encoding="utf-8")
    code, _, err = run_cli("evaluate", "--db", db, "--system", f"A={output}")
    assert code == 0 and f"stored as run 1 (checkpoints runs list --db {db})" in err
    assert run_cli("evaluate", "--db", db, "--system", f"A={output}")[0] == 0
    code, out, _ = run_cli("runs", "list", "--db", db, "--format", "json")
    runs = json.loads(out)
    assert [(run["id"], run["kind"], run["systems"]) for run in runs] == [(1, "evaluate", ["A"]), (2, "evaluate", ["A"])]
    code, out, _ = run_cli("runs", "show", "--db", db, "1", "--format", "json")
    assert json.loads(out)["options"]["match"] == "normal"
    assert run_cli("runs", "delete", "--db", db, "1")[0] == 0
    code, out, _ = run_cli("runs", "list", "--db", db, "--format", "json")
    assert [run["id"] for run in json.loads(out)] == [2]
    code, _, err = run_cli("runs", "show", "--db", db, "1")
    assert code == 1 and err == "checkpoints: error: no run 1 in this store (runs: 2)\n"


def test_replace_and_the_name_check_before_the_work(run_cli, build_table3, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t3.db"
    assert build_table3(db)[0] == 0
    code, out, err = build_table3(db)
    # refused before any parsing or aligning: no build summary is printed
    assert code == 1 and out == "" and "already exists in this database: choose another --name, or --replace it" in err
    code, _, err = build_table3(db, "--replace")
    assert code == 0, err
    code, out, _ = run_cli("suites", "list", "--db", db, "--format", "json")
    assert [entry["name"] for entry in json.loads(out)] == ["table3"]
    xml = tmp_path / "t3.xml"
    assert run_cli("export", "--db", db, "--output", xml)[0] == 0
    assert run_cli("import", "--db", db, xml)[0] == 1
    code, _, err = run_cli("import", "--db", db, "--replace", xml)
    assert code == 0, err


def test_help_shows_examples(run_cli) -> None:  # type: ignore[no-untyped-def]
    for group in ("suites", "runs"):
        code, out, _ = run_cli(group, "--help")
        assert code == 0 and "Examples" in out and f"checkpoints {group} list --db pud.db" in out
