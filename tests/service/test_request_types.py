"""The request types commands fill from their options: every check there, without a command line.

Issue: `cli/meta.py` (complexity 21) and `cli/metrics.py` (27 parameters) checked their options
themselves; the checks now live with the requests (`MetaArguments`, `MetricsArguments`,
`ScoreRequest`), so a program building a request gets the same one-line errors.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import InputError, ModelNotAvailable, UsageError
from checkpoints.evaluate.meta.criteria import Criterion
from checkpoints.evaluate.meta.learn import Learner
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.evaluate.resample import Method
from checkpoints.io.testsets import InputFormat
from checkpoints.service.meta import AssessmentJudgments, MQMJudgments
from checkpoints.service.meta_arguments import MetaArguments, metric_names
from checkpoints.service.metrics_arguments import MetricsArguments, system_specs
from checkpoints.service.models import ScoreRequest
from checkpoints.service.option_values import parse_named_files, store_and_suite


def test_meta_arguments_become_a_request(tmp_path: Path) -> None:
    mqm = tmp_path / "mqm.tsv"
    request = MetaArguments(
        metrics=["BLEU,chrF", "BLEU"], mqm=mqm, reference_systems=["ref", "ref"], granularity="seg",
        criteria="pearson,kendall", clusters="pearson", learn="perceptron", features="BLEU,chrF", folds=4,
    ).request()
    assert request.metrics == ["BLEU", "chrF"]
    assert isinstance(request.judgments, MQMJudgments) and request.judgments.reference_system == "ref"
    options = request.options
    assert options.level is Granularity.SEG
    assert options.criteria == (Criterion.PEARSON, Criterion.KENDALL)
    assert options.clusters is Criterion.PEARSON
    assert options.learn is not None and options.learn.method is Learner.PERCEPTRON and options.learn.folds == 4


def test_meta_arguments_with_assessments(tmp_path: Path) -> None:
    request = MetaArguments(metrics=["BLEU"], assessments=tmp_path / "a.csv", references=[tmp_path / "r"],
                            systems=["A=a.txt"]).request()
    assert isinstance(request.judgments, AssessmentJudgments)
    assert request.judgments.systems == [("A", Path("a.txt"))]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, "give human judgments: --mqm FILE or --assessments FILE"),
        ({"granularity": "word"}, "--granularity 'word'"),
        ({"samples": 0}, "--samples must be at least 1, not 0"),
        ({"alpha": 1.0}, "--alpha must lie strictly between 0 and 1, not 1.0"),
        ({"clusters": "pearson,kendall"}, "--clusters takes one criterion, not 'pearson,kendall'"),
        ({"optimize": "nonsense"}, "--optimize: "),
        ({"features": "BLEU"}, "--features names the features of --learn"),
        ({"learn": "perceptron"}, "--learn perceptron needs --features NAMES"),
        ({"learn": "perceptron", "features": "BLEU", "folds": 1}, "--folds must be at least 2, not 1"),
        ({"mqm": Path("m.tsv")}, "--mqm needs --reference-system NAME"),
        ({"mqm": Path("m.tsv"), "reference_systems": ["ref"], "criteria": "king"}, "king score each reference"),
        ({"mqm": Path("m.tsv"), "reference_systems": ["ref"], "systems": ["A=a"]}, "--mqm holds systems"),
        ({"assessments": Path("a.csv")}, "--assessments needs at least one --reference FILE"),
        ({"suite": "name-only"}, "--suite NAME chooses a suite of --db DB: give --db"),
        ({"by_category": "x.db"}, "--by-category attributes MQM error spans to check-points: give --mqm FILE"),
        ({"metrics": [","]}, "-m names no metric"),
    ],
)
def test_meta_arguments_name_the_option(arguments: dict, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        MetaArguments(**{"metrics": ["BLEU"], **arguments}).request()
    assert str(caught.value).startswith(message)


def test_metric_names_keep_combinations_whole() -> None:
    assert metric_names(["ULC(BLEU,chrF),-TER", "BLEU"]) == ["ULC(BLEU,chrF)", "-TER", "BLEU"]


def test_metrics_arguments_become_a_request(tmp_path: Path) -> None:
    arguments = MetricsArguments(references=[tmp_path / "r"], systems=["A=a", "B=b"], metrics=["BLEU,ULC(BLEU,chrF)"],
                                 baseline="A", significance="ar", samples=50, granularity="all")
    request = arguments.request()
    assert request.metrics == ["BLEU", "ULC(BLEU,chrF)"]
    assert request.systems == [("A", Path("a")), ("B", Path("b"))]
    assert request.significance is not None and request.significance.spec.method is Method.AR
    assert request.significance.spec.samples == 50
    assert arguments.granularities() == (Granularity.SYS, Granularity.DOC, Granularity.SEG)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"metrics": []}, "no metric requested: give -m NAMES or --metric-set SET (see --list)"),
        ({"references": []}, "at least one --reference FILE is required"),
        ({"systems": []}, "at least one --system NAME=FILE is required"),
        ({"systems": ["a.txt"]}, "--system a.txt: raw input needs NAME=FILE"),
        ({"significance": "ar"}, "--significance needs --baseline NAME or --all-pairs"),
        ({"baseline": "A", "alpha": 1.5}, "--alpha must lie strictly between 0 and 1, not 1.5"),
        ({"baseline": "A", "samples": 0}, "--samples must be at least 1, not 0"),
        ({"metrics": ["METEOR-pa"]}, "METEOR-pa needs --paraphrase-table FILE"),
        ({"input_format": "tmx"}, "--input 'tmx'"),
        ({"nist_info": "both"}, "--nist-info 'both'"),
        ({"suite": "name-only"}, "--suite NAME chooses a suite of --db DB: give --db"),
    ],
)
def test_metrics_arguments_name_the_option(arguments: dict, message: str) -> None:
    base = {"references": [Path("r")], "systems": ["A=a"], "metrics": ["BLEU"]}
    with pytest.raises(UsageError) as caught:
        MetricsArguments(**{**base, **arguments}).request()
    assert str(caught.value).startswith(message)


def test_xml_input_takes_a_file_for_all_its_systems() -> None:
    assert system_specs(["A=a.xml", "b.xml"], raw=False) == [("A", Path("a.xml")), (None, Path("b.xml"))]
    assert MetricsArguments(references=[Path("r.xml")], systems=["b.xml"], metrics=["BLEU"],
                            input_format="wmt").request().input_format is InputFormat.WMT


def test_option_values() -> None:
    assert parse_named_files(["A=a.txt", "B=x=y"], "--system") == [("A", Path("a.txt")), ("B", Path("x=y"))]
    for bad, message in ((["A"], "--system 'A': expected NAME=FILE"), (["A=a", "A=b"], "--system: system name 'A' given twice")):
        with pytest.raises(UsageError, match=message):
            parse_named_files(bad, "--system")
    assert store_and_suite("x.db", "one", None) == ("x.db", "one")
    assert store_and_suite(None, None, "old") == (None, "old")
    with pytest.raises(UsageError, match="--suite and --suite-name both name the suite"):
        store_and_suite("x.db", "one", "two")


def test_score_request_checks_before_parsing(tmp_path: Path) -> None:
    treebank = tmp_path / "gold.conllu"
    treebank.write_text("", encoding="utf-8")
    cases = [
        (ScoreRequest(tmp_path, "en", treebank, gold_tokens=True, gold_sentences=True), UsageError,
         "--gold-tokens and --gold-sentences exclude each other: choose one"),
        (ScoreRequest(tmp_path, "en", treebank, record="test"), UsageError, "--record 'test'"),
        (ScoreRequest(tmp_path, "en", treebank, record="dev", gold_tokens=True), UsageError,
         "--record keeps scores from raw text; it cannot be used with --gold-tokens"),
        (ScoreRequest(tmp_path, "en", treebank, threads=0), UsageError, "--threads must be at least 1, not 0"),
        (ScoreRequest(tmp_path, "en", tmp_path / "none.conllu"), InputError, f"{tmp_path / 'none.conllu'}: no such file"),
        (ScoreRequest(tmp_path, "en", treebank), ModelNotAvailable, f"{tmp_path}: no manifest.json"),
    ]
    for request, error, message in cases:
        with pytest.raises(error) as caught:
            request.validate()
        assert str(caught.value).startswith(message)
    assert ScoreRequest(tmp_path, "en", treebank, gold_sentences=True).given == "sentences"
