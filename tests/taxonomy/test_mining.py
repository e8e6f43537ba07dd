"""Corpus-mined resources: association strength (G², PMI) and translation entropy."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from checkpoints.io.conllu import read_conllu
from checkpoints.model import Alignment, Sentence, SentencePair, Token
from checkpoints.taxonomy import PreparedTaxonomy, load_taxonomy
from checkpoints.taxonomy.mining import (
    association_scores,
    log_likelihood_ratio,
    translation_entropy,
)


def test_g2_equals_scipy_log_likelihood_test_on_random_tables() -> None:
    """Independent oracle: scipy's G-test (lambda_="log-likelihood", no Yates correction)."""
    rng = np.random.default_rng(7)
    for _ in range(50):
        table = rng.integers(1, 40, size=(2, 2))
        o11, r1, c1, n = table[0, 0], table[0].sum(), table[:, 0].sum(), table.sum()
        ours = log_likelihood_ratio(np.array([o11], float), np.array([r1], float), np.array([c1], float), float(n))[0]
        theirs = chi2_contingency(table, correction=False, lambda_="log-likelihood")[0]
        assert ours == pytest.approx(theirs, rel=1e-12)


def test_g2_with_an_empty_cell() -> None:
    # [[6, 0], [0, 12]]: G² = 2 (6 ln 3 + 12 ln 1.5)
    value = log_likelihood_ratio(np.array([6.0]), np.array([6.0]), np.array([6.0]), 18.0)[0]
    assert value == pytest.approx(2 * (6 * math.log(3) + 12 * math.log(1.5)), rel=1e-12)
    assert value == pytest.approx(chi2_contingency(np.array([[6, 0], [0, 12]]), correction=False, lambda_="log-likelihood")[0])


def test_association_scores_keep_only_attraction_for_g2() -> None:
    counts = Counter({("喝", "茶"): 6, ("看", "書"): 6, ("喝", "書"): 1, ("買", "車"): 6})
    scores = association_scores(counts, "g2")
    n = 19
    # (喝, 茶): O11 = 6, R1 = 7, C1 = 6
    expected = chi2_contingency(np.array([[6, 1], [0, n - 7]]), correction=False, lambda_="log-likelihood")[0]
    assert scores[("喝", "茶")].count == 6
    assert scores[("喝", "茶")].score == pytest.approx(expected, rel=1e-12)
    # (喝, 書) is observed less often than expected (1 < 7·7/19): no attraction, score 0
    assert scores[("喝", "書")].score == 0.0


def test_pmi() -> None:
    counts = Counter({("a", "x"): 2, ("a", "y"): 2, ("b", "x"): 4})
    scores = association_scores(counts, "pmi")
    # P(a,x) = 2/8, P(a) = 4/8, P(x) = 6/8 → log2(0.25 / 0.375)
    assert scores[("a", "x")].score == pytest.approx(math.log2(0.25 / (0.5 * 0.75)), rel=1e-12)
    assert scores[("b", "x")].score == pytest.approx(math.log2(0.5 / (0.5 * 0.75)), rel=1e-12)


def test_empty_counts_and_unknown_measure() -> None:
    assert association_scores(Counter(), "g2") == {}
    with pytest.raises(ValueError, match="unknown association measure 'dice'"):
        association_scores(Counter({("a", "b"): 1}), "dice")


def test_translation_entropy_in_bits() -> None:
    entries = translation_entropy(
        {
            "打": Counter({"play": 1, "hit": 1, "make": 1, "call": 1}),
            "看": Counter({"see": 4}),
            "說": Counter({"say": 2, "speak": 1, "tell": 1}),
        }
    )
    assert (entries["打"].count, entries["打"].bits) == (4, pytest.approx(2.0))
    assert (entries["看"].count, entries["看"].bits) == (4, 0.0)
    assert entries["說"].bits == pytest.approx(1.5)


# -- the <translation-entropy> filter on an aligned corpus ----------------------------------

DATA = Path(__file__).parent.parent / "data" / "taxonomy"

ENTROPY_TAXONOMY = """<?xml version="1.0" encoding="UTF-8"?>
<taxonomy name="entropy" language="zh" version="1">
  <category name="Ambiguous word" level="word">
    <description>A noun, verb or adjective whose aligned translations have an entropy of at least 2 bits.</description>
    <pattern>
      <node id="w" upos="NOUN|VERB|ADJ"/>
      <translation-entropy node="w" min-count="5" min-bits="2.0" target-upos="NOUN|PROPN|VERB|ADJ|ADV|NUM"/>
      <checkpoint nodes="w"/>
    </pattern>
  </category>
</taxonomy>
"""
"""The rule the built-in zh taxonomy used for Ambiguous word before CC-CEDICT sense counts replaced it
(over the noisy links of a 1000-sentence corpus it picked 在, 有, 是, 為 and 個); the filter stays
available to taxonomies built on large aligned corpora."""


def tokens(spec: str, language: str) -> Sentence:
    """FORM/LEMMA/UPOS/HEAD/DEPREL tokens, heads 1-based."""
    parsed = []
    for item in spec.split():
        form, lemma, upos, head, deprel = item.split("/")
        parsed.append(Token(form=form, lemma=lemma, upos=upos, xpos="_", head=int(head), deprel=deprel))
    return Sentence(tokens=parsed, language=language)


def test_translation_entropy_filter_reproduces_zhou_table_3(tmp_path: Path) -> None:
    """建立 is aligned to five different words (building, establish, create, found, set): log2 5 = 2.32 bits
    over 5 occurrences, above the 2-bit threshold. 書 always gives "book" once the article aligned with
    it is left out (target-upos): 0 bits. 說 has four different translations (2 bits) but only 4
    occurrences, below the minimum of 5."""
    raw = [
        # Zhou Table 3's alignment (1;1) (2;2) (3;4) (4;6,7), 0-based
        (
            "他們/他/PRON/2/nsubj 反對/反對/VERB/0/root 建立/建立/VERB/2/ccomp 儲備金/儲備金/NOUN/3/obj",
            "they/they/PRON/2/nsubj opposed/oppose/VERB/0/root the/the/DET/4/det building/building/NOUN/2/obj "
            "of/of/ADP/7/case reserve/reserve/NOUN/7/compound funds/fund/NOUN/4/nmod",
            [(0, 0), (1, 1), (2, 3), (3, 5), (3, 6)],
        )
    ]
    for verb in ("established/establish", "created/create", "founded/found", "set/set"):
        raw.append(
            (
                "他們/他/PRON/2/nsubj 建立/建立/VERB/0/root 公司/公司/NOUN/2/obj",
                f"they/they/PRON/2/nsubj {verb}/VERB/0/root companies/company/NOUN/2/obj",
                [(0, 0), (1, 1), (2, 2)],
            )
        )
    raw += [
        (
            "他/他/PRON/2/nsubj 讀/讀/VERB/0/root 書/書/NOUN/2/obj",
            "he/he/PRON/2/nsubj reads/read/VERB/0/root the/the/DET/4/det book/book/NOUN/2/obj",
            [(0, 0), (1, 1), (2, 2), (2, 3)],
        )
    ] * 5
    for verb in ("said/say", "spoke/speak", "talked/talk", "told/tell"):
        raw.append(("他/他/PRON/2/nsubj 說/說/VERB/0/root", f"he/he/PRON/2/nsubj {verb}/VERB/0/root", [(0, 0), (1, 1)]))
    corpus = [
        SentencePair(number, tokens(source, "zh"), [tokens(target, "en")], [Alignment.from_pairs(links)])
        for number, (source, target, links) in enumerate(raw)
    ]
    path = tmp_path / "entropy.xml"
    path.write_text(ENTROPY_TAXONOMY, encoding="utf-8")
    taxonomy = load_taxonomy(path)
    prepared = taxonomy.prepare(corpus)
    # observations: aligned content words (Table 3: 反對 建立 儲備金; 4 × (建立, 公司); 5 × (讀, 書); 4 × 說)
    # = 3 + 8 + 10 + 4 = 25, over 反對 建立 儲備金 公司 讀 書 說 = 7 lemmas
    assert prepared.resources["Ambiguous word"] == {
        "kind": "translation-entropy",
        "min_count": 5,
        "min_bits": 2.0,
        "target_upos": "NOUN|PROPN|VERB|ADJ|ADV|NUM",
        "observations": 25,
        "distinct_keys": 7,
        "accepted_keys": 1,
    }

    def ambiguous(prepared: PreparedTaxonomy, sentence: Sentence) -> list[tuple[int, ...]]:
        return [f.indices for f in prepared.find(sentence)]

    (table3,) = read_conllu(DATA / "table3-zh.conllu", "zh")
    assert ambiguous(prepared, table3) == [(2,)]  # 建立, as in Zhou's Table 3
    assert ambiguous(prepared, corpus[5].source) == []  # 讀 and 書: one translation each
    assert ambiguous(prepared, corpus[-1].source) == []  # 說: too few occurrences
    # without alignments nothing is mined
    assert ambiguous(taxonomy.prepare([SentencePair(0, table3, [], [])]), table3) == []
