"""The linguistic and confidence metrics in ``meta`` and ``qarla``, as in ``metrics`` (the HTML report:
``tests/report/test_report_linguistic.py``).

Texts are the spec's fixture sentences (``tests/data/linguistic``), parses
given as CoNLL-U, so every figure below is checked against what ``metrics``
prints for the same outputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy import stats

DATA = Path(__file__).parent.parent / "data" / "linguistic"
FIXTURE = DATA / "linguistic_fixture.conllu"
REFERENCES = ["The cat was chased by the dog .", "John did not buy a new car yesterday .",
              "The man who lives here can speak French ."]
SYSTEMS = {
    "C": ["The dog chased the cat .", "Yesterday John bought a car .", "The man living here speaks French ."],
    "S": ["The cat was chased by the dog .", "John bought a car yesterday .", "The man who lives here can speak French ."],
    "M": ["The dog chased the cat .", "John bought a car yesterday .", "The man living here speaks French ."],
}
HUMAN = {"C": 1.0, "S": 3.0, "M": 2.5}
METRICS = "SP-Op(*),DP-HWCM_r-4,SR-Or(*),CE-Op,CE-length"


@pytest.fixture
def texts(tmp_path: Path) -> dict[str, Path]:
    files = {"ref": REFERENCES, **SYSTEMS}
    for name, lines in files.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "human.csv").write_text("# systemId, score\n" + "".join(f"{k}, {v}\n" for k, v in HUMAN.items()),
                                        encoding="utf-8")
    return {name: tmp_path / f"{name}.txt" for name in files} | {"human": tmp_path / "human.csv"}


def common(texts: dict[str, Path], tmp_path: Path) -> list[object]:
    """The options every command gets: the source is the reference text (English, like the outputs),
    parses given, a fresh cache."""
    systems = [arg for name in SYSTEMS for arg in ("--system", f"{name}={texts[name]}")]
    return ["--reference", texts["ref"], *systems, "--source", texts["ref"], "--src-lang", "en", "--tgt-lang", "en",
            "--parsed", FIXTURE, "--annotation-cache", tmp_path / "cache"]


def test_meta_correlates_what_metrics_scores(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("metrics", *common(texts, tmp_path), "-m", METRICS, "-f", "json")
    assert code == 0, err
    scores = json.loads(out)["scores"]
    code, out, err = run_cli("meta", *common(texts, tmp_path), "--assessments", texts["human"], "-m", METRICS,
                             "--criteria", "pearson", "--format", "json")
    assert code == 0, err
    results = json.loads(out)["results"]
    for metric in METRICS.split(","):
        values = [scores[name][metric] for name in SYSTEMS]
        expected = stats.pearsonr(values, [HUMAN[name] for name in SYSTEMS]).statistic
        assert results[metric]["pearson"]["r"] == pytest.approx(expected, abs=1e-9), metric


def test_meta_names_a_missing_resource(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run_cli("meta", *common(texts, tmp_path), "--assessments", texts["human"], "-m", "CE-logp")
    assert code == 2
    assert err.strip() == "checkpoints: error: CE-logp needs a target-language language model: --lm en=FILE"


def test_qarla_takes_linguistic_similarities_and_refuses_source_measures(run_cli, texts: dict[str, Path],  # type: ignore[no-untyped-def]
                                                                         tmp_path: Path) -> None:
    references = [arg for name in ("ref", "S", "M") for arg in ("--reference", texts[name])]
    options = ["--system", f"C={texts['C']}", "--tgt-lang", "en", "--parsed", FIXTURE,
               "--annotation-cache", tmp_path / "cache"]
    code, out, err = run_cli("qarla", *references, *options, "-m", "SP-Op(*),DP-HWCM_r-4", "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert set(document["metrics"]) == {"SP-Op(*)", "DP-HWCM_r-4"}
    assert 0.0 <= document["queen"]["C"] <= 1.0
    code, _out, err = run_cli("qarla", *references, *options, "-m", "SP-Op(*),CE-Op")
    assert code == 2
    assert "CE-Op compares a translation with its source, not two translations with each other" in err
