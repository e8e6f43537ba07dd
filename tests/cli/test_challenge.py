"""``checkpoints challenge`` on the demo's en→es PUD suite: ACES-layout files, and metrics scored on them."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

ACES = ["ID", "source", "good-translation", "incorrect-translation", "reference", "phenomena", "langpair"]


@pytest.fixture(scope="module")
def scored(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    from checkpoints.cli import main

    folder = tmp_path_factory.mktemp("challenge")
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stopped:
        main(["challenge", "--db", str(demo_db), "--output", str(folder), "--score", "-m", "BLEU", "-m", "-PER",
              "-m", "chrF", "--category", "Preposition", "--category", "noun phrase", "--samples", "200",
              "--format", "json"])
    assert stopped.value.code == 0
    return folder, json.loads(out.getvalue())


def test_items_are_written_in_aces_layout_and_as_jsonl(scored: tuple[Path, dict]) -> None:
    folder, report = scored
    with (folder / "challenge.tsv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert list(rows[0])[:7] == ACES  # ACES' columns first, in ACES' order
    lines = (folder / "challenge.jsonl").read_text(encoding="utf-8").splitlines()
    items = [json.loads(line) for line in lines]
    assert len(rows) == len(items) == report["items"] > 1000
    assert [int(row["ID"]) for row in rows] == list(range(1, len(rows) + 1))
    assert {row["category"] for row in rows} == {"Preposition", "Noun phrase"}
    assert set(report["categories"]) == {"Preposition", "Noun phrase"}
    assert sum(report["categories"].values()) == sum(report["breakages"].values()) == report["items"]
    for row, item in zip(rows, items, strict=True):
        assert row["good-translation"] == item["good-translation"] != item["incorrect-translation"]
        assert row["langpair"] == "en-es" and row["phenomena"] == f"{row['category']} / {row['breakage']}"
        # one reference per PUD pair: the metric scores against the good translation itself
        assert item["reference-is-good"] is True and item["reference"] == item["good-translation"]
    # a Preposition item swaps a preposition for another: one word differs, the rest is the same sentence
    preposition = next(item for item in items if item["category"] == "Preposition")
    assert preposition["breakage"] == "substitute" and preposition["detail"].startswith("ADP ")


def test_scores_are_per_category_and_breakage_with_chance_for_a_blind_metric(scored: tuple[Path, dict]) -> None:
    folder, report = scored
    assert report["metrics"] == ["BLEU", "-PER", "chrF"]
    rows = {(r["metric"], r["grouping"], r["group"]): r for r in report["accuracy"]}
    # -PER is a bag of words: a reordered phrase has the same words, so every reorder item ties
    reorder = rows[("-PER", "breakage", "reorder")]
    assert reorder["accuracy"] == 0.5 and reorder["ties"] == 1.0 and reorder["chance"] == 0.5
    assert reorder["interval"] == [0.5, 0.5]
    # BLEU counts bigrams: it sees every reordering
    assert rows[("BLEU", "breakage", "reorder")]["accuracy"] == 1.0
    # every metric sees a substituted preposition when the reference is the good translation
    assert all(rows[(m, "category", "Preposition")]["accuracy"] == 1.0 for m in report["metrics"])
    whole = rows[("-PER", "all", "all")]
    assert whole["items"] == report["items"] and whole["interval"][0] <= whole["accuracy"] <= whole["interval"][1]
    # the scored TSV carries ACES' <metric>-good and <metric>-bad columns
    with (folder / "challenge.scored.tsv").open(encoding="utf-8", newline="") as handle:
        scored_rows = list(csv.DictReader(handle, delimiter="\t"))
    assert {"BLEU-good", "BLEU-bad", "-PER-good", "-PER-bad", "chrF-good", "chrF-bad"} <= set(scored_rows[0])
    ties = [r for r in scored_rows if r["breakage"] == "reorder"]
    assert ties and all(r["-PER-good"] == r["-PER-bad"] for r in ties)
    assert all(float(r["BLEU-good"]) == 1.0 for r in scored_rows)


def test_the_table_and_the_files_without_scores(run_cli, demo_db: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("challenge", "--db", demo_db, "--output", tmp_path / "set", "--category", "Possessive")
    assert code == 0, err
    assert out == "" and "items written to" in err
    assert sorted(p.name for p in (tmp_path / "set").iterdir()) == ["challenge.jsonl", "challenge.tsv"]
    code, out, err = run_cli("challenge", "--db", demo_db, "--output", tmp_path / "set", "--category", "Possessive",
                             "--score", "-m", "BLEU", "--samples", "50")
    assert code == 0, err
    assert "challenge set of suite pud-en-es-demo (en-es)" in out and "Possessive" in out and "BLEU (ties)" in out


@pytest.mark.parametrize(
    ("options", "code", "message"),
    [
        (("-m", "BLEU"), 2, "-m names metrics to score with: add --score"),
        (("--score",), 2, "--score needs at least one metric"),
        (("--score", "-m", "BLUE"), 2, "BLUE"),
        (("--category", "Prepositon"), 1, "did you mean 'Preposition'"),
        (("--samples", "0"), 2, "--samples must be at least 1"),
    ],
)
def test_bad_options_write_nothing(run_cli, demo_db: Path, tmp_path: Path, options: tuple[str, ...], code: int,  # type: ignore[no-untyped-def]
                                   message: str) -> None:
    found, out, err = run_cli("challenge", "--db", demo_db, "--output", tmp_path / "set", *options)
    assert found == code and message in err and out == ""
    assert not (tmp_path / "set" / "challenge.tsv").exists()


def test_an_output_that_is_a_file_is_refused(run_cli, demo_db: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "file.txt"
    target.write_text("x", encoding="utf-8")
    code, _, err = run_cli("challenge", "--db", demo_db, "--output", target)
    assert code == 2 and "not a folder" in err and target.read_text(encoding="utf-8") == "x"
