"""``checkpoints metrics -m "ULC(...)"`` / ``"QUEEN(...)"`` end to end: json at every level, significance,
one-line errors, and a run on the TED zh-en systems bundled under tests/data/metrics/ted.

ULC's expected values are recomputed from the plain metrics' scores of the same run with Asiya's
normalisation (bounds anchored at 0, over every system, at each level), so the tests check the
combination, not BLEU or chrF.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from metrics_cli import run

TED = Path(__file__).parent.parent / "data" / "metrics" / "ted" / "zh-en"


@pytest.fixture
def files(write_texts: Callable[[dict[str, str]], dict[str, Path]]) -> dict[str, Path]:
    contents = {
        "ref.txt": "the cat sat on the mat\na dog ran in the park\nit is raining today\n",
        "ref2.txt": "a cat sat on the mat\nthe dog ran in a park\nit rains today\n",
        "ref3.txt": "the cat was sitting on the mat\na dog was running in the park\ntoday it is raining\n",
        "A.txt": "the cat sat on a mat\na dog runs in the park\nit is rain today\n",
        "B.txt": "cat on mat\ndog park\nraining\n",
    }
    return write_texts(contents)


def asiya_ulc(values: dict[str, list[np.ndarray]]) -> dict[str, np.ndarray]:
    """ULC per system from each part's scores ``{system: [part scores]}`` (Asiya digest §8.1)."""
    parts = len(next(iter(values.values())))
    normalised = {system: [] for system in values}
    for m in range(parts):
        every = np.concatenate([np.atleast_1d(scores[m]) for scores in values.values()])
        low, high = min(0.0, every.min()), max(0.0, every.max())
        for system, scores in values.items():
            x = np.atleast_1d(scores[m])
            normalised[system].append((x - low) / (high - low) if low < 0 else x / high)
    return {system: np.mean(columns, axis=0) for system, columns in normalised.items()}


@pytest.mark.parametrize("level", ["sys", "doc", "seg"])
def test_ulc_json_levels(capsys, files, level: str) -> None:
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-s", f"B={files['B.txt']}",
                         "-m", "ULC(BLEU, chrF),BLEU,chrF", "-g", level, "-f", "json")
    assert code == 0, err
    scores = json.loads(out)["scores"]
    if level == "doc":  # raw text: one document, UNKNOWN_DOC
        values = {s: [np.array([scores[s][m]["UNKNOWN_DOC"]]) for m in ("BLEU", "chrF")] for s in "AB"}
        got = {s: np.array([scores[s]["ULC(BLEU,chrF)"]["UNKNOWN_DOC"]]) for s in "AB"}
    else:
        values = {s: [np.array(scores[s][m], dtype=float) for m in ("BLEU", "chrF")] for s in "AB"}
        got = {s: np.atleast_1d(np.array(scores[s]["ULC(BLEU,chrF)"], dtype=float)) for s in "AB"}
    expected = asiya_ulc(values)
    for system in "AB":
        assert got[system] == pytest.approx(expected[system])
    if level == "sys":  # the better system gets 1 on both parts
        assert scores["A"]["ULC(BLEU,chrF)"] == pytest.approx(1.0)


def test_ulc_signature_and_significance(capsys, files) -> None:
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-s", f"B={files['B.txt']}",
                         "-m", "ULC(BLEU,chrF,-TER)", "--baseline", "A", "--samples", "100", "--seed", "3", "-f", "json")
    assert code == 0, err
    payload = json.loads(out)
    name = "ULC(BLEU,chrF,-TER)"
    assert payload["metrics"] == [name]
    signature = payload["signature"][name]
    assert signature.startswith(f"nrefs:1|metric:{name}|agg:combined|")
    assert "|BLEU.order:4|" in signature and "|chrF.nc:6|" in signature and "|-TER.tok:tercom|" in signature
    assert "|resample:bootstrap|samples:100|seed:3|" in signature
    (comparison,) = payload["significance"]["comparisons"]
    assert comparison["metric"] == name
    assert comparison["difference"] == pytest.approx(payload["scores"]["B"][name] - payload["scores"]["A"][name])


def test_queen_json(capsys, files) -> None:
    refs = [arg for name in ("ref.txt", "ref2.txt", "ref3.txt") for arg in ("-r", files[name])]
    code, out, err = run(capsys, *refs, "-s", f"A={files['A.txt']}", "-s", f"B={files['B.txt']}",
                         "-m", "QUEEN(BLEU, chrF)", "-g", "all", "-f", "json")
    assert code == 0, err
    sys_level, doc_level, seg_level = json.loads(out)
    for system in "AB":
        segments = seg_level["scores"][system]["QUEEN(BLEU,chrF)"]
        # 3 references: 18 samples a segment, so every value is k/18; system and document = mean of segments
        assert all(abs(value * 18 - round(value * 18)) < 1e-9 for value in segments)
        assert sys_level["scores"][system]["QUEEN(BLEU,chrF)"] == pytest.approx(np.mean(segments))
        assert doc_level["scores"][system]["QUEEN(BLEU,chrF)"]["UNKNOWN_DOC"] == pytest.approx(np.mean(segments))
    assert sys_level["scores"]["A"]["QUEEN(BLEU,chrF)"] > sys_level["scores"]["B"]["QUEEN(BLEU,chrF)"]


@pytest.mark.parametrize(("metrics", "message"), [
    ("ULC(BLEU,FOO)", "ULC(BLEU,FOO): unknown metric 'FOO' (see `checkpoints metrics --list`)"),
    ("ULC(BLEU", "metric list 'ULC(BLEU': '(' without ')'"),
    ("ULC(ULC(BLEU))", "ULC: combinations do not nest, name plain metrics in 'ULC(ULC(BLEU))'"),
    ("MAX(BLEU,chrF)", "unknown metric combination 'MAX' (choose ULC or QUEEN)"),
    ("QUEEN(BLEU,chrF)", "QUEEN(BLEU,chrF) needs at least 3 references, not 1 "
                         "(Asiya's rule; `checkpoints qarla --trans-topic` works with two)"),
    ("ULC(BLEU,METEOR-pa)", "ULC(BLEU,METEOR-pa) needs --paraphrase-table FILE"),
    ("ULC(BLEU,METEOR-ex)", "ULC(BLEU,METEOR-ex) depends on the target language, which raw text does not declare: "
                            "give --tgt-lang LANG"),
])
def test_bad_combinations(capsys, files, metrics: str, message: str) -> None:
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", metrics)
    assert code == 2
    assert out == ""
    assert err == f"checkpoints: error: {message}\n"


def test_ted_zh_en(capsys) -> None:
    """ULC of BLEU, chrF and -TER on three WMT20 TED zh-en systems (529 segments), two references, with
    significance; QUEEN cannot run there (two references)."""
    systems = ("SMU", "MiSS", "NiuTrans")
    args = ["-r", TED / "ref.txt", "-r", TED / "refB.txt",
            *[arg for name in systems for arg in ("-s", f"{name}={TED / 'sys' / name}.txt")]]
    code, out, err = run(capsys, *args, "-m", "ULC(BLEU,chrF,-TER),BLEU,chrF,-TER", "--baseline", "SMU",
                         "--samples", "200", "-f", "json")
    assert code == 0, err
    payload = json.loads(out)
    scores = payload["scores"]
    expected = asiya_ulc({s: [np.array([scores[s][m]]) for m in ("BLEU", "chrF", "-TER")] for s in systems})
    for system in systems:
        assert scores[system]["ULC(BLEU,chrF,-TER)"] == pytest.approx(float(expected[system][0]))
        assert 0 <= scores[system]["ULC(BLEU,chrF,-TER)"] <= 1
    ulc = [c for c in payload["significance"]["comparisons"] if c["metric"] == "ULC(BLEU,chrF,-TER)"]
    assert [(c["baseline"], c["system"]) for c in ulc] == [("SMU", "MiSS"), ("SMU", "NiuTrans")]
    code, _, err = run(capsys, *args, "-m", "QUEEN(BLEU,chrF)")
    assert (code, err) == (2, "checkpoints: error: QUEEN(BLEU,chrF) needs at least 3 references, not 2 "
                              "(Asiya's rule; `checkpoints qarla --trans-topic` works with two)\n")
