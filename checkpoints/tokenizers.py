"""Tokenizers shared by check-point matching, reference building and the metric suite.

Candidates and references are tokenized by the same tokenizer when they are
matched, so the parser's tokenization of a reference never leaks into scores.
The suite builder uses the same tokenizers to decide which surface tokens a
reference must keep together (:mod:`checkpoints.extract.surface`).

Two defaults, for two jobs:

* metrics default to sacreBLEU's own choice (``13a``, ``zh`` for Chinese), so
  that BLEU, chrF and TER equal sacreBLEU's;
* check-point matching defaults to ``words`` (``zh`` for Chinese). ``13a``
  leaves "Clinton's", "don't", "it’s" and curly quotes glued to their word, so
  a check-point "Clinton" could never match "Clinton's bank"; ``words`` splits
  punctuation and symbols off letters as sacreBLEU's international tokenizer
  (``intl``) does, keeps them inside numbers (3.5, 1,000), and treats every
  whitespace-separated chunk alike wherever it stands: ``intl`` keeps a
  sentence-final "1990." in one piece (mteval-v14's behaviour, kept by
  sacreBLEU on purpose) but splits "1990. The" mid-sentence. Tokenizing
  chunk by chunk the same way is what lets a reference, which is a few chunks
  of its sentence, match that sentence exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from checkpoints.errors import UsageError

TOKENIZERS = ("words", "13a", "intl", "zh", "char", "none")

Tokenize = Callable[[str], list[str]]


@cache
def get_tokenizer(name: str) -> Tokenize:
    """A function from text to tokens. ``none`` splits on whitespace only."""
    if name == "13a":
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        tokenizer = Tokenizer13a()
    elif name in ("intl", "words"):
        from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

        international = TokenizerV14International()
        if name == "words":
            # Spaces around the text make intl's rules ("punctuation after a
            # non-digit" and "punctuation before a non-digit" are split off)
            # see both ends of the text as they see any chunk boundary, so a
            # chunk tokenizes alike wherever it stands: "(1918" and "1990." too.
            return lambda text: international(f" {text} ").split()
        tokenizer = international
    elif name == "zh":
        from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

        tokenizer = TokenizerZh()
    elif name == "char":
        from sacrebleu.tokenizers.tokenizer_char import TokenizerChar

        tokenizer = TokenizerChar()
    elif name == "none":
        return str.split
    else:
        raise UsageError(f"unknown tokenizer {name!r} (choose from {', '.join(TOKENIZERS)})")
    return lambda text: tokenizer(text).split()


def is_chinese(language: str) -> bool:
    return language.lower().startswith("zh")


def default_tokenizer(target_language: str) -> str:
    """sacreBLEU's choice for metrics: ``zh`` for Chinese targets, ``13a`` otherwise."""
    return "zh" if is_chinese(target_language) else "13a"


def default_match_tokenizer(target_language: str) -> str:
    """Check-point matching: ``zh`` for Chinese targets, ``words`` otherwise (see the module docstring)."""
    return "zh" if is_chinese(target_language) else "words"


SACREBLEU_TOKENIZERS = frozenset({"13a", "intl", "zh", "char", "none"})


def bleu_tokenizer(match_tokenizer: str, target_language: str) -> str:
    """The tokenizer of the BLEU row beside check-point scores.

    sacreBLEU's own tokenizer when the match tokenizer is one of them, so the
    BLEU row is what ``sacrebleu --tokenize`` prints; sacreBLEU's default for
    the language otherwise (``words`` is ours).
    """
    return match_tokenizer if match_tokenizer in SACREBLEU_TOKENIZERS else default_tokenizer(target_language)
