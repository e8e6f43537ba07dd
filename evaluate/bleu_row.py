"""The BLEU row of a check-point report: sacreBLEU's corpus BLEU of the evaluated pairs, from
n-gram counts made with numpy (equal to sacreBLEU's own counts, tested)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from checkpoints.errors import CorpusMismatch
from checkpoints.evaluate.compiled import TextEncoder, unique_counts
from checkpoints.model import SuiteData

MATCHED, TOTAL, TRANSLATION_LENGTH, REFERENCE_LENGTH, PAIRS = range(5)
"""Columns of the per-pair statistics."""


def system_bleu(
    translations: Sequence[str],
    suite: SuiteData,
    pairs: Sequence[int] | None = None,
    tokenize: str = "13a",
) -> float:
    """sacreBLEU corpus BLEU (0–100) of a system on some pairs of a suite (Zhou Table 7's last row).

    ``pairs`` are positions in ``suite.pairs`` (default: all); every reference
    translation of a pair is used, pairs with fewer references than others
    leave the missing ones out (sacreBLEU's variable-reference mode).
    """
    positions = range(len(suite.pairs)) if pairs is None else pairs
    encoder = TextEncoder(tokenize)
    references = BleuReferences([[ref.text for ref in suite.pairs[p].references] for p in positions], encoder)
    return references.score(*encoder.encode([translations[p].rstrip() for p in positions]))


class BleuReferences:
    """The reference side of sacreBLEU's corpus BLEU, prepared once for any number of systems.

    sacreBLEU counts, per segment, every hypothesis n-gram of orders 1–4 up to
    its largest count in any one reference of the segment, and takes the
    reference length closest to the hypothesis length (the shorter on ties);
    the score is then :meth:`sacrebleu.metrics.bleu.BLEU.compute_bleu` of the
    summed counts with sacreBLEU's default ``exp`` smoothing. Here the counts
    are found for all segments at once on word ids: reference n-grams are
    numbered level by level (an n-gram is its prefix's number and its last
    word), a hypothesis n-gram is looked up the same way, and clipping is an
    ``np.minimum`` over (segment, n-gram) keys. :meth:`statistics` gives
    sacreBLEU's per-segment statistics exactly (tests compare them).

    ``references[s]`` are segment ``s``'s reference texts (None for a missing
    one); texts are right-stripped before tokenizing, as sacreBLEU does.
    """

    ORDER = 4

    def __init__(self, references: Sequence[Sequence[str | None]], encoder: TextEncoder) -> None:
        self.encoder = encoder
        self.segments = len(references)
        texts: list[str] = []
        owners: list[int] = []
        for segment, texts_of_segment in enumerate(references):
            for text in texts_of_segment:
                if text is not None:
                    texts.append(text.rstrip())
                    owners.append(segment)
        ids, lengths = encoder.encode(texts)
        segment_of = np.asarray(owners, dtype=np.int64)
        per_segment = np.bincount(segment_of, minlength=self.segments)
        if (per_segment == 0).any():
            raise ValueError("every segment needs at least one reference")
        rank = np.arange(len(texts)) - (np.cumsum(per_segment) - per_segment)[segment_of]
        self._reference_lengths = np.full((self.segments, int(per_segment.max(initial=1))), np.iinfo(np.int32).max, dtype=np.int64)
        self._reference_lengths[segment_of, rank] = lengths
        self._width = len(encoder.words)  # words seen later appear in no reference

        text_of_word = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
        remaining = np.cumsum(lengths)[text_of_word] - np.arange(len(ids))
        self._level_keys: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]  # per order > 1: sorted (prefix·width + word)
        self._sizes: list[int] = [self._width]
        self._max_keys: list[np.ndarray] = []  # per order: sorted segment·size + n-gram
        self._max_counts: list[np.ndarray] = []
        positions, grams = np.arange(len(ids), dtype=np.int64), ids
        for order in range(1, self.ORDER + 1):
            if order > 1:
                longer = remaining[positions] >= order
                positions = positions[longer]
                unique, grams = np.unique(grams[longer] * self._width + ids[positions + order - 1], return_inverse=True)
                grams = grams.reshape(-1)
                self._level_keys.append(unique)
                self._sizes.append(len(unique))
            size = self._sizes[-1]
            keys, counts = unique_counts(text_of_word[positions] * size + grams)
            per_segment_keys = segment_of[keys // size] * size + keys % size
            order_by = np.argsort(per_segment_keys, kind="stable")
            per_segment_keys, counts = per_segment_keys[order_by], counts[order_by]
            first = np.flatnonzero(np.append(True, per_segment_keys[1:] != per_segment_keys[:-1]))[: len(per_segment_keys)]
            self._max_keys.append(per_segment_keys[first])
            self._max_counts.append(np.maximum.reduceat(counts, first) if len(first) else counts)

    def statistics(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """sacreBLEU's per-segment statistics ``[hyp_len, ref_len, correct_1..4, total_1..4]``
        of hypotheses given as word ids (from the same encoder) and word counts."""
        if len(lengths) != self.segments:
            raise CorpusMismatch(f"{len(lengths)} hypotheses for {self.segments} reference segments")
        stats = np.zeros((self.segments, 2 + 2 * self.ORDER), dtype=np.int64)
        stats[:, 0] = lengths
        distance = np.abs(lengths[:, None] - self._reference_lengths)
        closest = np.argmin(distance * 2**32 + self._reference_lengths, axis=1)
        stats[:, 1] = self._reference_lengths[np.arange(self.segments), closest]
        segment_of = np.repeat(np.arange(self.segments, dtype=np.int64), lengths)
        remaining = np.cumsum(lengths)[segment_of] - np.arange(len(ids))
        known = ids < self._width
        positions, grams = np.flatnonzero(known), ids[known]
        for order in range(1, self.ORDER + 1):
            if order > 1:
                longer = remaining[positions] >= order
                positions, grams = positions[longer], grams[longer]
                following = ids[positions + order - 1]
                keys = grams * self._width + following
                table = self._level_keys[order - 1]
                at = np.minimum(np.searchsorted(table, keys), max(len(table) - 1, 0))
                found = (following < self._width) & (table[at] == keys) if len(table) else np.zeros(len(keys), dtype=bool)
                positions, grams = positions[found], at[found]
            size = self._sizes[order - 1]
            keys, counts = unique_counts(segment_of[positions] * size + grams)
            table, most = self._max_keys[order - 1], self._max_counts[order - 1]
            at = np.minimum(np.searchsorted(table, keys), max(len(table) - 1, 0))
            clipped = np.where(table[at] == keys, np.minimum(counts, most[at]), 0) if len(table) else np.zeros(len(keys), dtype=np.int64)
            stats[:, 1 + order] = np.bincount(keys // size, weights=clipped, minlength=self.segments).astype(np.int64)
            stats[:, 1 + self.ORDER + order] = np.maximum(lengths - order + 1, 0)
        return stats

    def score(self, ids: np.ndarray, lengths: np.ndarray) -> float:
        """Corpus BLEU (0–100): sacreBLEU's own formula on the summed statistics."""
        from sacrebleu.metrics.bleu import BLEU

        sums = [int(value) for value in self.statistics(ids, lengths).sum(axis=0)]
        order = self.ORDER
        return float(
            BLEU.compute_bleu(
                correct=sums[2 : 2 + order], total=sums[2 + order :], sys_len=sums[0], ref_len=sums[1],
                smooth_method="exp", max_ngram_order=order,
            ).score
        )
