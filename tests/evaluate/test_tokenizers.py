"""The match tokenizers, and the ``words`` default that treats every chunk of text alike."""

from __future__ import annotations

import pytest

from checkpoints.errors import UsageError
from checkpoints.io.conllu import read_conllu
from checkpoints.tokenizers import (
    bleu_tokenizer,
    default_match_tokenizer,
    default_tokenizer,
    get_tokenizer,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Clinton's bank", ["Clinton", "'", "s", "bank"]),
        ("it’s “fine”", ["it", "’", "s", "“", "fine", "”"]),
        ("don't", ["don", "'", "t"]),
        ("in 1990.", ["in", "1990", "."]),  # intl keeps "1990." at the end of a sentence
        ("(1918)", ["(", "1918", ")"]),
        ("3.5 and 1,000", ["3.5", "and", "1,000"]),
        ("$1.5 million", ["$", "1.5", "million"]),
    ],
)
def test_words_splits_what_13a_leaves_glued(text: str, expected: list[str]) -> None:
    assert get_tokenizer("words")(text) == expected


def test_13a_and_intl_as_sacrebleu_has_them() -> None:
    assert get_tokenizer("13a")("Clinton's bank.") == ["Clinton's", "bank", "."]
    assert get_tokenizer("intl")("in 1990.") == ["in", "1990."]


def test_words_tokenizes_each_chunk_alike_wherever_it_stands(demo_dir) -> None:  # type: ignore[no-untyped-def]
    """On all 2000 English and Spanish PUD sentences, tokenizing the text equals tokenizing its
    whitespace-separated chunks one by one: a reference made of chunks matches its sentence."""
    words = get_tokenizer("words")
    for name in ("en_pud.conllu.gz", "es_pud.conllu.gz"):
        for sentence in read_conllu(demo_dir / name):
            text = sentence.text
            assert words(text) == [token for chunk in text.split() for token in words(chunk)], text


def test_defaults() -> None:
    assert (default_match_tokenizer("es"), default_match_tokenizer("zh-Hant")) == ("words", "zh")
    assert (default_tokenizer("es"), default_tokenizer("zh")) == ("13a", "zh")
    assert (bleu_tokenizer("words", "de"), bleu_tokenizer("intl", "de"), bleu_tokenizer("words", "zh")) == ("13a", "intl", "zh")
    with pytest.raises(UsageError, match="unknown tokenizer 'moses'"):
        get_tokenizer("moses")
