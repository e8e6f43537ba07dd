"""chrF and chrF++ (Popović 2015, 2017) exactly as sacreBLEU computes them.

Configuration is sacreBLEU's default ``CHRF``: character n-grams of orders
1–6 with whitespace removed, β = 2, no epsilon smoothing (sacreBLEU ≥ 2
"effective order": orders with no hypothesis or reference n-gram are left out
of the averages), plus word uni- and bigrams for chrF++ (``word_order=2``,
punctuation split off word edges as sacreBLEU does). ``case=ci`` lower-cases
like sacreBLEU's ``lowercase=True``; chrF never tokenizes, so the tokenize
option does not apply.

Statistics per segment are sacreBLEU's: for every order the hypothesis
n-gram count (0 when the reference has none of that order), the reference
n-gram count and the clipped matches, taken from the reference with the best
segment chrF (the first one on ties). sacreBLEU has no public API for them,
so they are computed here with sacreBLEU's own n-gram extractors and the same
arithmetic, which makes the corpus score equal to ``sacrebleu.corpus_chrf``.
System and document scores are chrF of the summed statistics
(corpus-level); scores are on sacreBLEU's 0–100 scale.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from sacrebleu.metrics.helpers import extract_all_char_ngrams, extract_word_ngrams

from checkpoints.evaluate.metrics.base import (
    Aggregation,
    MetricCache,
    MetricOptions,
    ReferenceKey,
    TableMetric,
    check_corpus,
)
from checkpoints.evaluate.metrics.overlap import check_options
from checkpoints.evaluate.metrics.registry import MetricEntry
from checkpoints.signature import Signature

CHAR_ORDER = 6
BETA = 2
EPSILON = 1e-16
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')
"""The characters sacreBLEU's chrF++ splits off the start or end of a word."""


def split_punctuation(text: str) -> list[str]:
    """chrF++ words: one leading or trailing punctuation mark becomes its own word (sacreBLEU's rule)."""
    words: list[str] = []
    for word in text.split():
        if len(word) == 1:
            words.append(word)
        elif word[-1] in PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif word[0] in PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


def extract_ngrams(text: str, word_order: int, char_order: int = CHAR_ORDER) -> list[Counter[str]]:
    """Character n-grams of orders 1..char_order, then word n-grams of orders 1..word_order."""
    ngrams = extract_all_char_ngrams(text, char_order, False) if char_order else []
    if word_order:
        words = split_punctuation(text)
        ngrams.extend(extract_word_ngrams(words, order) for order in range(1, word_order + 1))
    return ngrams


def chrf_from_stats(stats: np.ndarray, beta: float = BETA) -> np.ndarray:
    """sacreBLEU's ``_compute_f_score`` (effective-order branch), vectorised over leading axes.

    The operations run in sacreBLEU's order (sequential sums over orders), so
    the floating-point result is the same, not merely close.
    """
    stats = np.asarray(stats, dtype=np.float64)
    factor = beta ** 2
    orders = stats.shape[-1] // 3
    shape = stats.shape[:-1]
    average_precision = np.zeros(shape)
    average_recall = np.zeros(shape)
    effective = np.zeros(shape)
    for order in range(orders):
        n_hyp, n_ref, n_match = stats[..., 3 * order], stats[..., 3 * order + 1], stats[..., 3 * order + 2]
        valid = (n_hyp > 0) & (n_ref > 0)
        average_precision = average_precision + np.where(valid, n_match / np.where(valid, n_hyp, 1.0), 0.0)
        average_recall = average_recall + np.where(valid, n_match / np.where(valid, n_ref, 1.0), 0.0)
        effective = effective + valid
    safe_effective = np.where(effective > 0, effective, 1.0)
    average_precision = np.where(effective > 0, average_precision / safe_effective, 0.0)
    average_recall = np.where(effective > 0, average_recall / safe_effective, 0.0)
    total = average_precision + average_recall
    numerator = (1 + factor) * average_precision * average_recall
    denominator = factor * average_precision + average_recall
    with np.errstate(divide="ignore", invalid="ignore"):
        score = numerator / np.where(total != 0, denominator, 1.0)
    return np.where(total != 0, 100 * score, 0.0)


def segment_chrf(stats: Sequence[int], beta: float = BETA) -> float:
    """Scalar :func:`chrf_from_stats` for choosing among references (same operations, no numpy overhead)."""
    factor = beta ** 2
    average_precision = average_recall = 0.0
    effective = 0
    for order in range(len(stats) // 3):
        n_hyp, n_ref, n_match = stats[3 * order:3 * order + 3]
        if n_hyp > 0 and n_ref > 0:
            average_precision += n_match / n_hyp
            average_recall += n_match / n_ref
            effective += 1
    if effective:
        average_precision /= effective
        average_recall /= effective
    if not average_precision + average_recall:
        return 0.0
    score = (1 + factor) * average_precision * average_recall
    score /= factor * average_precision + average_recall
    return 100 * score


class ChrfReferences:
    """Reference n-grams of a corpus, prepared once per run and shared by every system (sacreBLEU's cache).

    Statistics of (segment, hypothesis) pairs already seen are kept too, since
    systems often produce the same output for a segment.
    """

    def __init__(self, references: ReferenceKey, word_order: int, lowercase: bool, char_order: int = CHAR_ORDER) -> None:
        self.word_order = word_order
        self.char_order = char_order
        self.lowercase = lowercase
        self.ngrams: list[list[list[Counter[str]]]] = []
        self.sizes: list[list[list[int]]] = []
        for segment in zip(*references, strict=True):
            per_reference = [extract_ngrams(self.prepare(text), word_order, char_order) for text in segment]
            self.ngrams.append(per_reference)
            self.sizes.append([[sum(counter.values()) for counter in ngrams] for ngrams in per_reference])
        self._rows: dict[tuple[int, str], tuple[int, ...]] = {}

    def prepare(self, text: str) -> str:
        return text.lower() if self.lowercase else text

    def row(self, index: int, hypothesis: str) -> tuple[int, ...]:
        key = (index, hypothesis)
        cached = self._rows.get(key)
        if cached is None:
            cached = self._rows[key] = self._statistics(index, self.prepare(hypothesis))
        return cached

    def _statistics(self, index: int, hypothesis: str) -> tuple[int, ...]:
        hypothesis_ngrams = extract_ngrams(hypothesis, self.word_order, self.char_order)
        hypothesis_sizes = [sum(counter.values()) for counter in hypothesis_ngrams]
        candidates = []
        for reference_ngrams, reference_sizes in zip(self.ngrams[index], self.sizes[index], strict=True):
            stats: list[int] = []
            for hyp, ref, hyp_size, ref_size in zip(hypothesis_ngrams, reference_ngrams, hypothesis_sizes,
                                                    reference_sizes, strict=True):
                matches = sum(min(hyp[ngram], ref[ngram]) for ngram in hyp.keys() & ref.keys())
                stats += [hyp_size if ref else 0, ref_size, matches]
            candidates.append(tuple(stats))
        if len(candidates) == 1:
            return candidates[0]
        # The reference with the best segment chrF, the first one on ties (sacreBLEU's choice).
        return max(candidates, key=segment_chrf)


def chrf_table(cache: MetricCache, hypotheses: Sequence[str], references: ReferenceKey, word_order: int,
               lowercase: bool) -> np.ndarray:
    """Per-segment statistics of one system output, from the run's shared reference n-grams.

    With one reference, chrF++'s character columns are chrF's statistics (each
    order is counted on its own, and there is no best reference to choose), so
    they come from chrF's table of the run and only the word n-grams are
    counted here.
    """
    if word_order and len(references) == 1:
        characters = _table(cache, hypotheses, references, 0, lowercase, CHAR_ORDER)
        return np.hstack((characters, _table(cache, hypotheses, references, word_order, lowercase, 0)))
    return _table(cache, hypotheses, references, word_order, lowercase, CHAR_ORDER)


def _table(cache: MetricCache, hypotheses: Sequence[str], references: ReferenceKey, word_order: int,
           lowercase: bool, char_order: int) -> np.ndarray:
    corpus = cache.get(("chrf", references, word_order, lowercase, char_order),
                       lambda: ChrfReferences(references, word_order, lowercase, char_order))
    width = 3 * (char_order + word_order)
    return np.array([corpus.row(index, hypothesis) for index, hypothesis in enumerate(hypotheses)],
                    dtype=np.float64).reshape(len(hypotheses), width)


class Chrf(TableMetric):
    """chrF (``word_order=0``) or chrF++ (``word_order=2``); corpus-level from summed statistics."""

    aggregation = Aggregation.CORPUS

    def __init__(self, name: str, word_order: int, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        check_options(self.options)
        self.name = name
        self.word_order = word_order
        self.description = DESCRIPTIONS[name]

    @property
    def n_stats(self) -> int:
        return 3 * (CHAR_ORDER + self.word_order)

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        key = check_corpus(hypotheses, references)
        return chrf_table(self.cache, hypotheses, key, self.word_order, self.options.lowercase)

    def score(self, stats: np.ndarray) -> np.ndarray:
        return chrf_from_stats(stats)

    def signature(self) -> Signature:
        # chrF reads characters, never tokens: report that instead of the tokenize option.
        return super().signature().with_fields(tok="none")

    def signature_extras(self) -> dict[str, str]:
        return {"nc": str(CHAR_ORDER), "nw": str(self.word_order), "beta": str(BETA), "space": "no"}


DESCRIPTIONS = {
    "chrF": "chrF: character 1–6-gram F-beta (beta 2), sacreBLEU CHRF; corpus-level, 0–100",
    "chrF++": "chrF++: chrF plus word uni- and bigrams (sacreBLEU word_order 2); corpus-level, 0–100",
}

METRICS: dict[str, MetricEntry] = {
    "chrF": MetricEntry(DESCRIPTIONS["chrF"], lambda options: Chrf("chrF", 0, options)),
    "chrF++": MetricEntry(DESCRIPTIONS["chrF++"], lambda options: Chrf("chrF++", 2, options)),
}
