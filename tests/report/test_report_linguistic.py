"""The HTML report's metric tables hold the linguistic and confidence metrics as any other
(``checkpoints metrics -f json`` → ``report --metrics``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent.parent / "data" / "linguistic"
FIXTURE = DATA / "linguistic_fixture.conllu"
REFERENCES = ["The cat was chased by the dog .", "John did not buy a new car yesterday .",
              "The man who lives here can speak French ."]
SYSTEMS = {
    "C": ["The dog chased the cat .", "Yesterday John bought a car .", "The man living here speaks French ."],
    "S": REFERENCES,
}


@pytest.fixture
def texts(tmp_path: Path) -> dict[str, Path]:
    for name, lines in {"ref": REFERENCES, **SYSTEMS}.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {name: tmp_path / f"{name}.txt" for name in ("ref", *SYSTEMS)}


def test_the_report_embeds_linguistic_metric_tables(run_cli, texts: dict[str, Path], tmp_path: Path,  # type: ignore[no-untyped-def]
                                                    demo: dict[str, Any]) -> None:
    from checkpoints.service.report import ReportRequest, write_report

    renamed = [arg for old, new in (("C", "direct"), ("S", "pivot"))
               for arg in ("--system", f"{new}={texts[old]}")]
    metrics = tmp_path / "metrics.json"
    code, _out, err = run_cli("metrics", "--reference", texts["ref"], *renamed, "--source", texts["ref"],
                              "--src-lang", "en", "--tgt-lang", "en", "--parsed", FIXTURE,
                              "--annotation-cache", tmp_path / "cache", "-m", "BLEU,SP-Op(*),CE-Op",
                              "-f", "json", "-o", metrics)
    assert code == 0, err
    output = tmp_path / "r.html"
    write_report(ReportRequest(demo["db"], output, metrics=metrics))
    found = re.search(r'<script type="application/json" id="report-data">(.*?)</script>',
                      output.read_text(encoding="utf-8"), re.S)
    assert found is not None
    data = json.loads(found.group(1))
    assert data["metrics"]["scores"]["pivot"]["SP-Op(*)"] == pytest.approx(1.0)
    assert data["metrics"]["scores"]["direct"]["CE-Op"] == json.loads(metrics.read_text())["scores"]["direct"]["CE-Op"]
    assert "parse:given" in data["metrics"]["signature"]["SP-Op(*)"]
