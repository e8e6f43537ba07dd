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


def test_limit_draws_a_fixed_sample_per_category(run_cli, demo_db: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    def items(seed: str) -> list[dict]:
        code, _, err = run_cli("challenge", "--db", demo_db, "--output", tmp_path / seed, "--limit", "7",
                                 "--seed", seed, "--category", "Verb", "--category", "Hyperbaton")
        assert code == 0, err
        return [json.loads(line) for line in (tmp_path / seed / "challenge.jsonl").read_text(encoding="utf-8").splitlines()]

    first, again, other = items("1"), items("1"), items("2")
    assert first == again
    assert [item["category"] for item in first].count("Verb") == 7
    assert [item["category"] for item in first].count("Hyperbaton") == 7
    assert [item["checkpoint"] for item in first] == sorted(item["checkpoint"] for item in first)  # suite order
    assert [item["checkpoint"] for item in first] != [item["checkpoint"] for item in other]
    assert run_cli("challenge", "--db", demo_db, "--output", tmp_path / "x", "--limit", "0")[0] == 2


GOOD = """# text = Then the commercial ends.
1	Then	then	ADV	RB	PronType=Dem	4	advmod	_	_
2	the	the	DET	DT	Definite=Def|PronType=Art	3	det	_	_
3	commercial	commercial	NOUN	NN	Number=Sing	4	nsubj	_	_
4	ends	end	VERB	VBZ	Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin	0	root	_	SpaceAfter=No
5	.	.	PUNCT	.	_	4	punct	_	_

"""
REORDERED = """# text = Then commercial the ends.
1	Then	then	ADV	RB	PronType=Dem	4	advmod	_	_
2	commercial	commercial	NOUN	NN	Number=Sing	4	nsubj	_	_
3	the	the	DET	DT	Definite=Def|PronType=Art	2	det	_	_
4	ends	end	VERB	VBZ	Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin	0	root	_	SpaceAfter=No
5	.	.	PUNCT	.	_	4	punct	_	_

"""
SUBSTITUTED = """# text = Then the film ends.
1	Then	then	ADV	RB	PronType=Dem	4	advmod	_	_
2	the	the	DET	DT	Definite=Def|PronType=Art	3	det	_	_
3	film	film	NOUN	NN	Number=Sing	4	nsubj	_	_
4	ends	end	VERB	VBZ	Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin	0	root	_	SpaceAfter=No
5	.	.	PUNCT	.	_	4	punct	_	_

"""


def test_linguistic_metrics_score_items_from_given_parses(tmp_path: Path) -> None:
    """SP-Op(*) compares lemmas per part of speech: it sees a substituted noun ("commercial" → "film")
    but not a reordered phrase whose words keep their tags, so it ties there (chance)."""
    from checkpoints.evaluate.contrastive import Breakage, ChallengeItem
    from checkpoints.evaluate.resample import ResampleSpec
    from checkpoints.service.challenge import ChallengeSet, score_challenge_set
    from checkpoints.service.linguistic_options import LinguisticOptions

    parses = tmp_path / "parses.conllu"
    parses.write_text(GOOD + REORDERED + SUBSTITUTED, encoding="utf-8")
    good = "Then the commercial ends."
    items = (
        ChallengeItem(1, 1, "Noun phrase", Breakage.REORDER, "reordered", "Dann endet der Werbespot.", good,
                      "Then commercial the ends.", good, True),
        ChallengeItem(2, 1, "Noun", Breakage.SUBSTITUTE, "NOUN commercial → film", "Dann endet der Werbespot.", good,
                      "Then the film ends.", good, True),
    )
    challenge = ChallengeSet("s", "de", "en", 1, items)
    scores = score_challenge_set(challenge, ["SP-Op(*)", "BLEU"], spec=ResampleSpec(samples=20),
                                 linguistic=LinguisticOptions(parsed=[parses], annotation_cache=tmp_path / "cache"))
    rows = {(r.metric, r.group): r for r in scores.accuracies}
    assert (rows[("SP-Op(*)", "reorder")].accuracy, rows[("SP-Op(*)", "reorder")].ties) == (0.5, 1.0)
    assert rows[("SP-Op(*)", "substitute")].accuracy == 1.0
    assert rows[("BLEU", "reorder")].accuracy == 1.0
    assert scores.good["SP-Op(*)"][0] == scores.bad["SP-Op(*)"][0] == 1.0
