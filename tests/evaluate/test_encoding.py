"""Word ids for matching and BLEU: chunk-wise tokenization and :class:`TextEncoder` give exactly
the tokenizers' own words, on random text and on real references and system outputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkpoints.evaluate.compiled import CHUNKWISE_TOKENIZERS, TextEncoder
from checkpoints.io.conllu import read_conllu
from checkpoints.tokenizers import TOKENIZERS, get_tokenizer

# letters, digits, the punctuation and symbols the tokenizers' rules look at, HTML entities,
# 13a's <skipped>, CJK, the encoder's own separator, and whitespace that str.split() splits at
PIECES = [*"aZé9 ", "5", ".", ",", "-", "'", "*", "&quot;", "&amp;", "<skipped>", "(", ")", "$", "%", "€", "“", "”",
          "。", "在", "国", "\ue001", "\t", "\xa0", "\u3000", "\x1c", "  "]
texts = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


@pytest.mark.parametrize("name", sorted(CHUNKWISE_TOKENIZERS))
@settings(max_examples=300, deadline=None)
@given(text=texts)
def test_chunkwise_tokenizers_cut_a_text_as_they_cut_its_chunks(name: str, text: str) -> None:
    tokenize = get_tokenizer(name)
    assert tokenize(text) == [word for chunk in text.split() for word in tokenize(chunk)]


@pytest.mark.parametrize("name", ["intl", "zh"])
def test_the_other_tokenizers_are_not_chunkwise(name: str) -> None:
    """Why they tokenize whole texts: a text-final "1990." stays whole, mid-text it is split."""
    tokenize = get_tokenizer(name)
    assert set(TOKENIZERS) == CHUNKWISE_TOKENIZERS | {"intl", "zh"}
    assert tokenize("in 1990. Then") != tokenize("in 1990.") + tokenize("Then")


def decoded(encoder: TextEncoder, batch: list[str]) -> list[list[str]]:
    ids, lengths = encoder.encode(batch)
    words = [encoder.words[i] for i in ids.tolist()]
    out, at = [], 0
    for length in lengths.tolist():
        out.append(words[at : at + length])
        at += length
    return out


@pytest.mark.parametrize("name", TOKENIZERS)
@settings(max_examples=100, deadline=None)
@given(batches=st.lists(st.lists(texts, max_size=6), min_size=1, max_size=3))
def test_encoder_gives_the_tokenizers_words(name: str, batches: list[list[str]]) -> None:
    """Across calls too: ids stay valid as the vocabulary grows."""
    tokenize = get_tokenizer(name)
    encoder = TextEncoder(name)
    for batch in batches:
        assert decoded(encoder, batch) == [tokenize(text) for text in batch]


@pytest.mark.parametrize("name", TOKENIZERS)
def test_encoder_on_real_references_and_outputs(name: str, demo_dir: Path) -> None:
    """The demo's Spanish references (with their parser tokens one by one, as references are
    encoded) and the two Apertium outputs."""
    tokenize = get_tokenizer(name)
    sentences = read_conllu(demo_dir / "es_pud.conllu.gz", "es")
    outputs = [line for system in ("direct", "pivot") for line in (demo_dir / f"{system}.es.txt").read_text("utf-8").splitlines()]
    tokens = [form for sentence in sentences for form in sentence.forms]
    encoder = TextEncoder(name)
    for batch in ([s.text for s in sentences], outputs, tokens):
        assert decoded(encoder, batch) == [tokenize(text) for text in batch]
