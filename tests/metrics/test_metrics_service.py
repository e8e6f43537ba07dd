"""``score_metrics``, the service behind ``checkpoints metrics``: library use, errors that name values."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import UsageError
from checkpoints.io.testsets import InputFormat
from checkpoints.service.metrics import MetricsRequest, TargetLanguageNeeded, score_metrics

FORMATS = Path(__file__).parent.parent / "data" / "metrics" / "formats"


@pytest.fixture
def raw(tmp_path: Path) -> MetricsRequest:
    (tmp_path / "ref.txt").write_text("a b c d\ne f\n", encoding="utf-8")
    (tmp_path / "A.txt").write_text("a b c d\ne g\n", encoding="utf-8")
    return MetricsRequest(references=[tmp_path / "ref.txt"], systems=[("A", tmp_path / "A.txt")])


def test_scores_raw_text(raw: MetricsRequest) -> None:
    raw.metrics = ["BLEU-1", "chrF"]
    report = score_metrics(raw)
    assert report.metrics == ("BLEU-1", "chrF")
    assert report.scores["A"]["BLEU-1"].system == pytest.approx(5 / 6)
    assert report.signatures["BLEU-1"].startswith("nrefs:1|metric:BLEU-1|")


def test_language_is_needed_and_named_as_a_value(raw: MetricsRequest) -> None:
    raw.metrics = ["BLEU", "METEOR-st"]
    with pytest.raises(TargetLanguageNeeded) as caught:
        score_metrics(raw)
    assert caught.value.metrics == ("METEOR-st",)
    assert "--" not in str(caught.value)  # services name values, the command line names its options
    raw.target_lang = "en"
    assert score_metrics(raw).signatures["METEOR-st"].count("|lang:en|") == 1


def test_language_from_the_test_set() -> None:
    path = FORMATS / "wmt.xml"
    request = MetricsRequest(references=[path], systems=[(None, path)], metrics=["ROUGE-1"], input_format=InputFormat.WMT)
    assert "text:lc+alnum+snowball" in score_metrics(request).signatures["ROUGE-1"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"case": "lc"}, "case 'lc': choose cs or ci"),
        ({"tokenize": "moses"}, "tokenizer 'moses': choose words, 13a, intl, zh, char or none"),
        ({"brevity_penalty": "longest"}, "brevity penalty 'longest': choose closest or shortest"),
        ({"metrics": []}, "no metric requested: name metrics or a metric set"),
        ({"systems": []}, "at least one system output is required"),
    ],
)
def test_request_errors_name_values(raw: MetricsRequest, change: dict[str, object], message: str) -> None:
    raw.metrics = ["BLEU"]
    for key, value in change.items():
        setattr(raw, key, value)
    with pytest.raises(UsageError) as caught:
        score_metrics(raw)
    assert str(caught.value) == message


def test_unknown_metric_fails_before_any_file_is_read(tmp_path: Path) -> None:
    request = MetricsRequest(references=[tmp_path / "none.txt"], systems=[("A", tmp_path / "none.txt")], metrics=["BLUE"])
    with pytest.raises(UsageError, match="unknown metric 'BLUE'"):
        score_metrics(request)
