"""Language-model measures of CE (``CE-logp``, ``CE-ippl``, ``CE-oov`` and their source, PoS and
chunk variants), with the semantics Asiya got from SRILM's ``ngram -ppl -debug 1``.

Models are ARPA or KenLM binary files queried with the ``kenlm`` module (the
``lm`` extra): it reads what KenLM's ``lmplz``, SRILM and IRSTLM write, and it
cannot train, which is why users bring their models. SRILM skips a word that is
not in the vocabulary and starts the next word from an empty context; kenlm
scores the word after an OOV from the empty context plus the ``<unk>`` backoff
(0), which is the same number, so dropping the OOV entries of
``full_scores`` gives SRILM's log-probability.

Without a model, a vocabulary file (one word a line) still gives ``CE-oov``.
"""

from __future__ import annotations

import math
import os
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkpoints.errors import InputError, ResourceNotAvailable


def _load_quietly(kenlm: Any, path: Path) -> Any:
    """kenlm's loader prints progress bars and notes (a missing ``<unk>``) to the process's
    standard error; they are kept aside and shown only when loading fails."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            return kenlm.Model(str(path))
        except (OSError, RuntimeError) as error:
            os.dup2(saved, 2)
            sink.seek(0)
            reason = re.search(r"threw \w+\.\s*(.*?)\)?$", str(error), re.S)
            said = reason.group(1) if reason else str(error)
            raise InputError(path, None, f"not an ARPA or KenLM binary model: {' '.join(said.split())}") from None
        finally:
            os.dup2(saved, 2)
            os.close(saved)


@dataclass(frozen=True, slots=True)
class LmScore:
    """One sentence under a model: log10 probability of its in-vocabulary words and ``</s>``,
    its length in tokens and how many of them the model does not know."""

    logp: float
    tokens: int
    oov: int

    @property
    def ippl(self) -> float:
        """1 / perplexity, perplexity = 10^(−logp / (n − n_oov + 1)) (``</s>`` counts); 0 for an empty line."""
        if self.tokens == 0:
            return 0.0
        return 1.0 / math.pow(10.0, -self.logp / (self.tokens - self.oov + 1))

    @property
    def known(self) -> float:
        """1 − n_oov / n: the share of tokens in the vocabulary (``CE-oov``); 0 for an empty line."""
        return 1.0 - self.oov / self.tokens if self.tokens else 0.0


class LanguageModel:
    """An n-gram model from an ARPA or KenLM binary file."""

    def __init__(self, path: str | Path) -> None:
        try:
            import kenlm
        except ImportError:
            raise ResourceNotAvailable(
                "the language-model measures need the kenlm module: pip install 'mt-checkpoints[lm]'") from None
        self.path = Path(path)
        if not self.path.is_file():
            raise InputError(self.path, None, "no such language model file")
        self._model = _load_quietly(kenlm, self.path)
        self.order = int(self._model.order)

    def score(self, tokens: Sequence[str]) -> LmScore:
        if not tokens:
            return LmScore(0.0, 0, 0)
        logp = 0.0
        oov = 0
        for probability, _length, unknown in self._model.full_scores(" ".join(tokens), bos=True, eos=True):
            if unknown:
                oov += 1
            else:
                logp += probability
        return LmScore(logp, len(tokens), oov)

    def __contains__(self, word: str) -> bool:
        return word in self._model


class Vocabulary:
    """The words of a vocabulary file (one a line): what ``CE-oov`` counts as known without a model."""

    def __init__(self, path: str | Path) -> None:
        from checkpoints.io.lines import read_lines

        self.path = Path(path)
        self.words = frozenset(word for line in read_lines(self.path) if (word := line.strip()))
        if not self.words:
            raise InputError(self.path, None, "the vocabulary file has no words")

    def score(self, tokens: Sequence[str]) -> LmScore:
        return LmScore(0.0, len(tokens), sum(1 for token in tokens if token not in self.words))
