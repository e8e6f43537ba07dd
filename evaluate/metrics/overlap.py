"""Asiya's lexical overlap family: Ol, Pl, Rl, Fl (bag-of-words similarity).

Definitions (Asiya 3.0 ``IQ::Scoring::Overlap``, asiya-reference §4.1, §4.4,
§5.1): candidate and reference are multisets of tokens; with ``c(x)``/``r(x)``
the counts of token ``x``,

* ``hits  = Σ min(c(x), r(x))``, ``union = Σ max(c(x), r(x))``;
* ``Ol = hits / union`` (multiset Jaccard), ``Pl = hits / |C|``,
  ``Rl = hits / |R|``, ``Fl = 2·Pl·Rl / (Pl + Rl)``; every division by zero
  gives 0 (Asiya's safe division).

Asiya always lower-cases these items (``LC = 1``) whatever the case option,
splits on whitespace the text it has tokenized itself; here the configured
tokenizer (13a by default, ``none`` = whitespace only) plays the part of
Asiya's tokenizer. With several references the segment score is the **maximum
over references** and the system (and document) score is the **mean of the
segment maxima** (``Overlap::computeMultiOl``): these metrics use
:class:`~checkpoints.evaluate.metrics.base.TableMeanOfSegments`.

This module also holds the small helpers every lexical family of the package
shares: input checks and the tokenizer that applies the case option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.base import (
    MetricCache,
    MetricOptions,
    ReferenceKey,
    TableMeanOfSegments,
    check_corpus,
)
from checkpoints.evaluate.metrics.registry import MetricEntry
from checkpoints.signature import Signature
from checkpoints.tokenizers import get_tokenizer

Tokens = tuple[str, ...]

CASES = ("cs", "ci")


def check_options(options: MetricOptions) -> None:
    """Reject a case option other than Asiya's ``cs``/``ci`` and unknown tokenizers up front."""
    if options.case not in CASES:
        raise UsageError(f"unknown case option {options.case!r} (choose cs or ci)")
    get_tokenizer(options.tokenize)


def token_function(tokenize: str, lowercase: bool) -> Callable[[str], Tokens]:
    """Tokens of a segment with the configured tokenizer; lower-cased first when asked.

    Lower-casing comes before tokenization, as in sacreBLEU.
    """
    split = get_tokenizer(tokenize)

    def tokens(text: str) -> Tokens:
        return tuple(split(text.lower() if lowercase else text))

    return tokens


def segment_tokens(text: str, tokenize: str, lowercase: bool) -> Tokens:
    """Tokens as GTM and METEOR compare them: tokenized, then each token lower-cased when asked."""
    words = get_tokenizer(tokenize)(text)
    return tuple(word.lower() for word in words) if lowercase else tuple(words)


def cached_tokens(cache: MetricCache, tokenize: str, lowercase: bool) -> Callable[[str], Tokens]:
    """:func:`token_function` memoised in the run's cache: every metric of the overlap, NGRAM
    and WER/PER/CDER families tokenizes the same segments, once per system."""
    return cache.memo(("tokens", tokenize, lowercase), lambda: token_function(tokenize, lowercase))


def safe_divide(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else 0.0


# Columns of the per-(segment, reference) overlap counts.
HITS, HYP, REF, UNION = range(4)


def overlap_counts(candidate: Counter[str], reference: Counter[str]) -> tuple[int, int, int, int]:
    """``(hits, |C|, |R|, union)`` of two token multisets (asiya-reference §4.1)."""
    hits = sum(min(count, reference[token]) for token, count in candidate.items() if token in reference)
    size_c = sum(candidate.values())
    size_r = sum(reference.values())
    return hits, size_c, size_r, size_c + size_r - hits


def overlap_scores(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Ol, Pl, Rl, Fl from ``(..., 4)`` overlap counts, vectorised, with safe division."""
    counts = np.asarray(counts, dtype=np.float64)
    hits = counts[..., HITS]

    def ratio(denominator: np.ndarray) -> np.ndarray:
        return np.divide(hits, denominator, out=np.zeros_like(hits), where=denominator > 0)

    precision, recall = ratio(counts[..., HYP]), ratio(counts[..., REF])
    total = precision + recall
    f_measure = np.divide(2 * precision * recall, total, out=np.zeros_like(total), where=total > 0)
    return {"Ol": ratio(counts[..., UNION]), "Pl": precision, "Rl": recall, "Fl": f_measure}


class OverlapReferences:
    """Token multisets of a reference corpus and the Ol/Pl/Rl/Fl maxima of every (segment, hypothesis) seen.

    One object serves the four metrics of the family (same tokens, same
    counts) and every system of a run.
    """

    def __init__(self, references: ReferenceKey, tokens: Callable[[str], Tokens]) -> None:
        self.tokens = tokens
        self.counts = [[Counter(tokens(text)) for text in segment] for segment in zip(*references, strict=True)]
        self._rows: dict[tuple[int, str], tuple[float, ...]] = {}

    def row(self, index: int, hypothesis: str) -> tuple[float, ...]:
        """Ol, Pl, Rl, Fl of one segment, each the maximum over the references."""
        key = (index, hypothesis)
        cached = self._rows.get(key)
        if cached is None:
            candidate = Counter(self.tokens(hypothesis))
            counts = np.array([overlap_counts(candidate, reference) for reference in self.counts[index]],
                              dtype=np.float64)
            scores = overlap_scores(counts)
            cached = self._rows[key] = tuple(float(scores[name].max()) for name in FAMILY)
        return cached


def overlap_table(cache: MetricCache, hypotheses: Sequence[str], references: ReferenceKey, tokenize: str) -> np.ndarray:
    """Per-segment Ol/Pl/Rl/Fl maxima over references: ``(segments, 4)`` in that order."""
    corpus = cache.get(("overlap", references, tokenize),
                       lambda: OverlapReferences(references, cached_tokens(cache, tokenize, True)))
    rows = [corpus.row(index, hypothesis) for index, hypothesis in enumerate(hypotheses)]
    return np.array(rows, dtype=np.float64).reshape(len(hypotheses), len(FAMILY))


FAMILY = ("Ol", "Pl", "Rl", "Fl")


class LexicalOverlap(TableMeanOfSegments):
    """One of Ol, Pl, Rl, Fl; system and document scores are means of segment maxima."""

    def __init__(self, which: str, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        if which not in FAMILY:
            raise UsageError(f"unknown overlap measure {which!r} (choose from {', '.join(FAMILY)})")
        check_options(self.options)
        self.name = which
        self.description = DESCRIPTIONS[which]
        self._column = FAMILY.index(which)

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        key = check_corpus(hypotheses, references)
        table = overlap_table(self.cache, hypotheses, key, self.options.tokenize)
        return np.column_stack([table[:, self._column], np.ones(len(hypotheses))])

    def signature_extras(self) -> dict[str, str]:
        return {"items": "tokens-lc", "refs": "max"}

    def signature(self) -> Signature:
        # Asiya lower-cases these items whatever the case option says.
        return super().signature().with_fields(case="lc")


DESCRIPTIONS = {
    "Ol": "lexical overlap: |C∩R| / |C∪R| over lower-cased token multisets; max over refs, mean of segments",
    "Pl": "lexical precision: |C∩R| / |C| over lower-cased token multisets; max over refs, mean of segments",
    "Rl": "lexical recall: |C∩R| / |R| over lower-cased token multisets; max over refs, mean of segments",
    "Fl": "lexical F1: 2·Pl·Rl / (Pl+Rl) per reference; max over refs, mean of segments",
}


def _factory(which: str) -> Callable[[MetricOptions], LexicalOverlap]:
    return lambda options: LexicalOverlap(which, options)


METRICS: dict[str, MetricEntry] = {name: MetricEntry(DESCRIPTIONS[name], _factory(name)) for name in FAMILY}
