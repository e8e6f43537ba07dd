"""The BLEU row of check-point reports is sacreBLEU's corpus BLEU, on real MT output.

Data: the WMT 2021 TED MQM systems bundled for the metric tests (13 en-de
systems against one reference, 13 zh-en systems against two). The
statistics are compared with sacreBLEU's per segment, exactly; the score to
1e-9 (it is sacreBLEU's own formula on those statistics).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sacrebleu

from checkpoints.evaluate.bleu_row import BleuReferences, system_bleu
from checkpoints.evaluate.compiled import TextEncoder
from checkpoints.evaluate.scoring import CheckpointScorer
from checkpoints.model import Level

TED = Path(__file__).parent.parent / "data" / "metrics" / "ted"
REFERENCES = {"en-de": ["ref"], "zh-en": ["ref", "refB"]}


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def corpus(pair: str) -> tuple[dict[str, list[str]], list[list[str]]]:
    folder = TED / pair
    streams = [read_lines(folder / f"{name}.txt") for name in REFERENCES[pair]]
    systems = {path.stem: read_lines(path) for path in sorted((folder / "sys").glob("*.txt"))}
    return systems, streams


def ours(hypotheses: list[str], streams: list[list[str | None]], tokenize: str) -> tuple[np.ndarray, float]:
    encoder = TextEncoder(tokenize)
    references = BleuReferences([list(segment) for segment in zip(*streams, strict=True)], encoder)
    ids, lengths = encoder.encode([h.rstrip() for h in hypotheses])
    return references.statistics(ids, lengths), references.score(ids, lengths)


@pytest.mark.parametrize("pair", sorted(REFERENCES))
def test_every_system_equals_sacrebleu(pair: str) -> None:
    systems, streams = corpus(pair)
    assert len(systems) == 13
    for name, hypotheses in systems.items():
        stats, score = ours(hypotheses, streams, "13a")  # type: ignore[arg-type]
        reference = sacrebleu.BLEU(tokenize="13a")
        assert stats.tolist() == reference._extract_corpus_statistics(hypotheses, streams), name
        assert score == pytest.approx(sacrebleu.corpus_bleu(hypotheses, streams).score, abs=1e-9), name


@pytest.mark.parametrize("tokenize", ["intl", "zh", "char", "none"])
def test_other_tokenizers_equal_sacrebleu(tokenize: str) -> None:
    systems, streams = corpus("zh-en")
    for name in sorted(systems)[:2]:
        hypotheses = systems[name]
        stats, score = ours(hypotheses, streams, tokenize)  # type: ignore[arg-type]
        reference = sacrebleu.BLEU(tokenize=tokenize)
        assert stats.tolist() == reference._extract_corpus_statistics(hypotheses, streams), name
        assert score == pytest.approx(reference.corpus_score(hypotheses, streams).score, abs=1e-9), name


def test_missing_references_and_short_hypotheses_equal_sacrebleu() -> None:
    """sacreBLEU's variable-reference mode (None), segments shorter than 4 words (an order
    without n-grams makes BLEU 0), empty hypotheses and references, trailing spaces."""
    systems, streams = corpus("en-de")
    hypotheses = systems[sorted(systems)[0]][:60]
    second: list[str | None] = [None if i % 3 else text[::-1] for i, text in enumerate(streams[0][:60])]
    cases: list[tuple[list[str], list[list[str | None]]]] = [
        (hypotheses, [list(streams[0][:60]), second]),
        (["a b c", "a", "", "x y  "], [["a b c", "a b", "c", ""], [None, "a", None, "x y"]]),
        (["the cat", "on the mat"], [["the cat", "on the mat"]]),
    ]
    for hyps, refs in cases:
        stats, score = ours(hyps, refs, "13a")
        reference = sacrebleu.BLEU(tokenize="13a")
        assert stats.tolist() == reference._extract_corpus_statistics(hyps, refs)
        assert score == pytest.approx(reference.corpus_score(hyps, refs).score, abs=1e-9)


def test_the_scorers_bleu_row_equals_sacrebleu_on_real_data(make_suite) -> None:  # type: ignore[no-untyped-def]
    """Through a suite: the BLEU row covers the evaluated pairs only, with all their references."""
    systems, streams = corpus("zh-en")
    pairs = [[a, b] for a, b in zip(*streams, strict=True)]
    evaluated = list(range(0, len(pairs), 2))
    suite = make_suite(
        pairs, [(p + 1, "Noun", [(0, "the", 1.0)]) for p in evaluated], [("Noun", Level.WORD)], target_lang="en"
    )
    scorer = CheckpointScorer(suite, tokenize="13a")
    for name in sorted(systems)[:3]:
        hypotheses = systems[name]
        expected = sacrebleu.corpus_bleu([hypotheses[p] for p in evaluated], [[s[p] for p in evaluated] for s in streams])
        assert scorer.bleu(hypotheses) == pytest.approx(expected.score, abs=1e-9)
        assert system_bleu(hypotheses, suite, evaluated, "13a") == pytest.approx(expected.score, abs=1e-9)
