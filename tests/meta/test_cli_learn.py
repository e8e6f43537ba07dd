"""``meta --learn`` and ``meta --suite`` end to end: JSON, the LC metrics' own n, one-line errors.

The suite is hand-built with one pair per segment of the bundled TED en→de MQM copy
(segments 10, 47, 244): a Noun check-point on the first two segments only, so
``LC-Noun`` has no score on the third and is correlated over 2 × 13 outputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from checkpoints import model as m
from checkpoints.evaluate.meta.judged import judged_from_mqm
from checkpoints.evaluate.metrics.checkpoint_metrics import checkpoint_metrics
from checkpoints.io.mqm import read_mqm
from checkpoints.service.store import store_new_suite


def sentence(text: str) -> m.Sentence:
    return m.Sentence(tokens=[m.Token(form=w) for w in text.split()], text=text)


def ted_suite(references: list[str]) -> m.SuiteData:
    pairs = [m.SentencePair(n, sentence(f"source {n}"), [sentence(text)], [m.Alignment.from_pairs([])])
             for n, text in enumerate(references, start=1)]
    points = [
        m.CheckPoint(1, "Noun", [0], [m.Reference(0, [], ["visuellen"], 1.0)], id=1),
        m.CheckPoint(2, "Noun", [0], [m.Reference(0, [], ["Schatten"], 1.0)], id=2),
        m.CheckPoint(2, "Noun", [0], [m.Reference(0, [], ["schwarzen"], 1.0)], id=3),
        m.CheckPoint(3, "Verb phrase", [0], [m.Reference(0, [], ["Er", "*", "Wasser"], 1.0)], id=4),
    ][: 4 if len(references) == 3 else 3]
    categories = [m.Category("Noun", m.Level.WORD), m.Category("Verb phrase", m.Level.PHRASE)]
    return m.SuiteData(name="ted3", source_lang="en", target_lang="de", taxonomy="test",
                     categories=categories, pairs=pairs, checkpoints=points)


@pytest.fixture
def ende(meta_data: Path) -> list[object]:
    return ["--mqm", meta_data / "mqm_ted_ende.small.tsv", "--reference-system", "ref"]


@pytest.fixture
def suites(tmp_path: Path, meta_data: Path) -> dict[str, Path]:
    judged = judged_from_mqm(read_mqm(meta_data / "mqm_ted_ende.small.tsv"), "ref")
    files = {"three": tmp_path / "ted3.db", "two": tmp_path / "ted2.db"}
    store_new_suite(files["three"], ted_suite(list(judged.references[0])))
    store_new_suite(files["two"], ted_suite(list(judged.references[0][:2])))
    return files


def meta_json(run_cli, *args: object) -> dict:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("meta", *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.usefixtures("test_metrics")
def test_learn_perceptron_json(run_cli, ende: list[object]) -> None:  # type: ignore[no-untyped-def]
    document = meta_json(run_cli, *ende, "-m", "TEST-len", "-g", "seg", "--learn", "perceptron",
                         "--features", "TEST-len,TEST-hits", "--folds", "3", "--criteria", "pearson")
    learned = document["learn"]
    assert learned["method"] == "perceptron" and learned["features"] == ["TEST-len", "TEST-hits"]
    assert sorted(s for fold in learned["folds"] for s in fold) == [0, 1, 2]  # one segment per fold
    assert set(learned["weights"]) == {"TEST-len", "TEST-hits"} and learned["weights_scale"] == "standardised"
    assert set(learned["cv"]) == {"pearson", "pairwise-accuracy"}
    assert len(learned["cv"]["pearson"]["folds"]) == 3
    # Each feature alone on one-segment folds is the grouped-by-item value (mean of per-segment correlations).
    assert learned["baseline"]["TEST-len"]["pearson"] == pytest.approx(
        document["grouped"]["results"]["TEST-len"]["pearson"]["r"], abs=1e-12)
    pairs = learned["cv"]["pairwise-accuracy"]
    assert pairs["r"] == pairs["correct"] / pairs["pairs"]
    assert "TEST-hits" in document["results"]  # a feature is meta-evaluated like any metric
    assert "learn:perceptron" in document["signature"]


@pytest.mark.usefixtures("test_metrics")
def test_learn_ranksvm_is_deterministic(run_cli, ende: list[object]) -> None:  # type: ignore[no-untyped-def]
    args = [*ende, "-m", "TEST-len", "--learn", "ranksvm", "--features", "TEST-len,TEST-hits", "--folds", "2",
            "--seed", "3"]
    first, second = meta_json(run_cli, *args), meta_json(run_cli, *args)
    assert first["learn"] == second["learn"]
    assert first["learn"]["weights_scale"] == "standardised"
    assert first["learn"]["level"] == "sys" and len(first["learn"]["folds"]) == 2


@pytest.mark.usefixtures("test_metrics")
def test_suite_lc_metrics_leave_undefined_segments_out(run_cli, ende: list[object], suites: dict[str, Path],
                                                       meta_data: Path) -> None:  # type: ignore[no-untyped-def]
    document = meta_json(run_cli, *ende, "-m", "TEST-len", "-g", "seg", "--suite", suites["three"],
                         "--criteria", "pearson")
    assert document["n"] == 39
    results = document["results"]
    assert list(results) == ["TEST-len", "LC", "LC-WORDS", "LC-PHRASES", "LC-Noun", "LC-Verb phrase"]
    assert "n" not in results["TEST-len"]["pearson"] and "n" not in results["LC"]["pearson"]
    assert results["LC-Noun"]["pearson"]["n"] == 26  # segment 244 has no Noun check-point
    assert results["LC-Verb phrase"]["pearson"]["n"] == 13
    # Independently: LC-Noun's segment scores over the defined segments, against the MQM scores.
    judged = judged_from_mqm(read_mqm(meta_data / "mqm_ted_ende.small.tsv"), "ref")
    lc = checkpoint_metrics(ted_suite(list(judged.references[0])), 3)["LC-Noun"]
    x, y = [], []
    for system, outputs in judged.outputs.items():
        scores = lc.segment_scores(lc.corpus_stats(list(outputs), [], None))
        for p in range(2):
            x.append(scores[p])
            y.append(judged.segment_scores[(system, p)])
    assert not np.isnan(x).any()
    assert results["LC-Noun"]["pearson"]["r"] == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-12)


@pytest.mark.usefixtures("test_metrics")
def test_suite_lc_features(run_cli, ende: list[object], suites: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    document = meta_json(run_cli, *ende, "--suite", suites["three"], "-g", "seg", "--learn", "ranksvm",
                         "--features", "LC-Noun,LC", "--folds", "3", "--criteria", "pearson")
    assert list(document["learn"]["weights"]) == ["LC-Noun", "LC"]


@pytest.mark.usefixtures("test_metrics")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--learn", "perceptron", "--features", "TEST-len,NOPE"], "NOPE"),
        (["--learn", "perceptron", "--features", "TEST-len", "--folds", "1"], "--folds must be at least 2, not 1"),
        (["--learn", "perceptron", "--features", "TEST-len", "--folds", "4"],
         "4 folds need at least 4 judged segments, there are 3"),
        (["--learn", "perceptron"], "--learn perceptron needs --features NAMES"),
        (["--features", "TEST-len"], "--features names the features of --learn"),
        (["--learn", "svm", "--features", "TEST-len"], "--learn"),
        (["--learn", "ranksvm", "--features", "LC-Noun"], "LC-Noun"),
        (["--suite-name", "x"], "--suite NAME chooses a suite of --db DB"),
    ],
)
def test_learn_errors(run_cli, ende: list[object], args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("meta", *ende, "-m", "TEST-len", "-g", "seg", *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


@pytest.mark.usefixtures("test_metrics")
@pytest.mark.parametrize(
    ("which", "args", "message"),
    [
        ("two", [], "suite 'ted3' has 2 sentence pairs but the test set has 3 segments"),
        ("three", ["--learn", "ranksvm", "--features", "LC-Adverb"], "the suite has no check-point metric LC-Adverb"),
    ],
)
def test_suite_errors(run_cli, ende: list[object], suites: dict[str, Path], which: str, args: list[str],
                      message: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("meta", *ende, "-m", "TEST-len", "--suite", suites[which], *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


@pytest.mark.usefixtures("test_metrics")
@pytest.mark.parametrize("args", [["--criteria", "king"], ["--optimize", "orange"]])
def test_suite_refuses_human_likeness(run_cli, suites: dict[str, Path], meta_data: Path,
                                      args: list[str]) -> None:  # type: ignore[no-untyped-def]
    # zh-en has two references and three segments, as many as the suite's pairs.
    code, out, err = run_cli("meta", "--mqm", meta_data / "mqm_ted_zhen.small.tsv", "--reference-system", "ref",
                             "--reference-system", "refB", "-m", "TEST-len", "-g", "seg",
                             "--suite", suites["three"], *args)
    message = "score references against each other, and LC, LC-WORDS, LC-PHRASES, ... score against the suite's"
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1
