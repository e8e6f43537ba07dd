"""``meta_evaluate``, the service behind ``checkpoints meta``: library use, errors that name values."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import CorpusMismatch, UsageError
from checkpoints.evaluate.meta.correlation import Criterion
from checkpoints.evaluate.meta.runner import MetaOptions
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.service.meta import AssessmentJudgments, MetaRequest, MQMJudgments, meta_evaluate
from checkpoints.service.metrics import TargetLanguageNeeded


@pytest.mark.usefixtures("test_metrics")
def test_mqm_judgments(meta_data: Path) -> None:
    judgments = MQMJudgments(meta_data / "mqm_ted_ende.small.tsv", "ref")
    result = meta_evaluate(MetaRequest(judgments, ["TEST-len"], MetaOptions(criteria=(Criterion.PEARSON,))))
    assert (result.level, result.n, result.judgments) == (Granularity.SYS, 13, "mqm")
    assert result.signatures["TEST-len"].startswith("metric:TEST-len|")


@pytest.mark.usefixtures("test_metrics")
def test_assessment_files_must_line_up(tmp_path: Path) -> None:
    (tmp_path / "ref.txt").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("a\n", encoding="utf-8")
    (tmp_path / "human.csv").write_text("a, 1\n", encoding="utf-8")
    judgments = AssessmentJudgments(tmp_path / "human.csv", [tmp_path / "ref.txt"], [("a", tmp_path / "a.txt")])
    with pytest.raises(CorpusMismatch, match=r"a\.txt \(system a\) has 1 lines but .*ref\.txt has 2"):
        meta_evaluate(MetaRequest(judgments, ["TEST-len"]))
    with pytest.raises(UsageError, match=r"^assessments need at least one reference file$"):
        meta_evaluate(MetaRequest(AssessmentJudgments(tmp_path / "human.csv", [], []), ["TEST-len"]))


def test_language_metrics_need_the_language_before_any_file_is_read(tmp_path: Path) -> None:
    request = MetaRequest(MQMJudgments(tmp_path / "none.tsv", "ref"), ["METEOR-ex", "chrF"])
    with pytest.raises(TargetLanguageNeeded) as caught:
        meta_evaluate(request)
    assert caught.value.metrics == ("METEOR-ex",)
    assert "--" not in str(caught.value)
