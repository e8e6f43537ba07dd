"""BLEU and NIST exactly as NIST's ``mteval-v13a.pl`` computes them (Asiya runs it for both).

Text processing
    mteval's default tokenization is sacreBLEU's ``13a`` tokenizer; other
    tokenizers can be chosen with the tokenize option. mteval lower-cases
    unless ``-c`` is given, and Asiya passes ``-c`` only for a case-sensitive
    target, so ``case=cs`` (Asiya's default) keeps case and ``case=ci``
    lower-cases. For ``13a`` the lower-casing is mteval's ``tr/[A-Z]/[a-z]/``:
    ASCII letters only (``Über`` stays ``Über``); other tokenizers lower-case
    all of Unicode, like mteval's international tokenization and sacreBLEU.

Statistics (``score_segment``)
    Per segment and order n: test n-grams ``t_n = max(0, len − n + 1)``,
    clipped matches ``m_n = Σ_g min(count_tst(g), max_ref count_ref(g))``
    (the maximum over *single* references), the effective reference length
    (closest to the test length, the shorter one on ties: mteval's default
    ``--brevity-penalty closest``; ``shortest`` is available through
    ``MetricOptions.extra["brevity-penalty"]``), and for NIST the information
    gained by the matches and the average reference length.

Scores
    * ``BLEU`` — cumulative 4-gram BLEU with mteval-v13a's default smoothing:
      the k-th order without matches counts ``1 / (2^k · t_n)`` matches. This
      is what Asiya's default BLEU runs (mteval without ``--no-smoothing``);
      Asiya's manual credits the smoothing to Lin & Och (2004b), whose add-one
      variant is sacreBLEU's ``add-k``, but mteval's geometric smoothing is
      sacreBLEU's ``smooth_method="exp"`` — sacreBLEU's default. ``BLEU``
      therefore equals ``sacrebleu.corpus_bleu(...).score / 100``.
    * ``BLEU-n`` / ``BLEUi-n`` — cumulative / individual scores of mteval with
      ``--no-smoothing`` (the IQMT definitions, asiya-reference §5.1 and
      iqmt-koehn C.1): ``BLEU-n = exp(Σ_{j≤n} log(m_j/t_j)/n + min(0, 1 − r/c))``,
      0 when ``m_n = 0``; ``BLEUi-n = m_n / t_n`` without brevity penalty.
      ``BLEU-4`` equals sacreBLEU with ``smooth_method="none"``; at system level
      it equals ``BLEU`` whenever every order has a match somewhere.
    * ``NIST-n`` / ``NISTi-n`` — ``LP · Σ_{k≤n} info_k / max(t_k, 1)`` and
      ``LP · info_n / max(t_n, 1)`` with ``info(w1..wn) = −log2(count(w1..wn) /
      count(w1..wn−1))`` (unigrams: over the total number of reference words)
      counted over **every reference segment of the test set** (see *The "0"
      prefix* below), and
      ``LP = exp(−β · ln²(c / r̄))`` for ``c < r̄``, ``r̄`` the average reference
      length, ``β = −ln 0.5 / ln² 1.5`` (LP = 0.5 at 2/3 of the length).
      ``NIST`` = ``NIST-5``.

The "0" prefix (mteval-v13a's information weights, kept on purpose)
    mteval's ``compute_ngram_info`` picks the denominator with Perl's
    ``$mgram ? count(mgram) : total words``, where ``$mgram`` is the n-gram
    without its last word. Perl treats the string ``"0"`` as false, so for a
    *bigram whose first token is* ``0`` the prefix count is skipped and the
    bigram count is divided by the total number of reference words, exactly
    as for a unigram: ``info("0 w") = −log2(count("0 w") / total words)``
    instead of ``−log2(count("0 w") / count("0"))``. (Unigrams have an empty
    prefix and longer n-grams a prefix with a space, never ``"0"``.) Asiya
    runs mteval, so NIST scores of texts with a ``0`` token (TED: 3.8e-3 on
    en-de) only agree with Asiya's with the quirk; it is the default. The
    intended formula is ``nist_info="intended"`` on :class:`MtevalNist` or
    ``MetricOptions.extra["nist-info"] = "intended"`` (default ``"mteval"``).

Aggregation
    System and document scores are corpus-level scores of the summed
    statistics, as mteval prints them (Asiya's Table 2 shows document and set
    BLEU are not means of segment BLEU); segment scores are the same formula on
    one segment's statistics. NIST information weights come from the whole
    reference corpus passed to :meth:`corpus_stats` and are fixed before any
    segment is scored, so the per-segment information sums add up exactly like
    counts. Scoring one segment alone (:meth:`segment_stats`) uses the weights
    of that segment's references, as mteval run on a one-segment test set.
"""

from __future__ import annotations

import math
import string
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.base import (
    Aggregation,
    MetricCache,
    MetricOptions,
    ReferenceKey,
    TableMetric,
    check_corpus,
)
from checkpoints.evaluate.metrics.overlap import Tokens, check_options
from checkpoints.evaluate.metrics.registry import MetricEntry
from checkpoints.tokenizers import get_tokenizer

BLEU_ORDER = 4
NIST_ORDER = 5
NIST_BETA = -math.log(0.5) / math.log(1.5) / math.log(1.5)
NIST_INFO = ("mteval", "intended")
"""Information weights: mteval-v13a's, with its Perl "0"-is-false quirk (default), or the intended formula."""
BREVITY_PENALTIES = ("closest", "shortest")
_LOG2 = math.log(2)
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def mteval_tokens(tokenize: str, lowercase: bool) -> Callable[[str], Tokens]:
    """Segment → tokens as mteval normalises it (see the module docstring for lower-casing)."""
    split = get_tokenizer(tokenize)
    if not lowercase:
        def tokens(text: str) -> Tokens:
            return tuple(split(text))
    elif tokenize == "13a":
        # mteval lower-cases ASCII after un-escaping entities and before the
        # punctuation rules; those rules never look at letter case, so
        # lower-casing the tokens afterwards gives the same result.
        def tokens(text: str) -> Tokens:
            return tuple(split(text.translate(_ASCII_LOWER)))
    else:
        def tokens(text: str) -> Tokens:
            return tuple(split(text.lower()))
    return tokens


def ngram_counts(tokens: Tokens, max_order: int) -> Counter[Tokens]:
    """All n-grams of orders 1..max_order with their counts (mteval's ``Words2Ngrams``)."""
    length = len(tokens)
    return Counter([tokens[i:i + order] for order in range(1, max_order + 1) for i in range(length - order + 1)])


def closest_length(hypothesis_length: int, reference_lengths: Sequence[int]) -> int:
    """mteval's ``brevity_penalty_closest``: the closest reference length, the shorter on ties."""
    return min(reference_lengths, key=lambda length: (abs(hypothesis_length - length), length))


class MtevalReferences:
    """Everything mteval derives from a reference corpus, computed once per reference set and run.

    Statistics of every (segment, hypothesis) already scored are kept:
    systems often agree on a segment, and every BLEU (or NIST) variant and
    every system of a run share this object (through the run's
    :class:`~checkpoints.evaluate.metrics.base.MetricCache`) — sacreBLEU's
    reference cache, extended to hypotheses. NIST information weights are
    derived on first use only.
    """

    def __init__(self, references: ReferenceKey, tokens: Callable[[str], Tokens]) -> None:
        self.tokens = tokens
        self.n_references = len(references)
        segments = len(references[0])
        self.max_counts: list[dict[Tokens, int]] = [{} for _ in range(segments)]
        lengths: list[list[int]] = [[] for _ in range(segments)]
        self._corpus_counts: Counter[Tokens] = Counter()
        self._total_words = 0
        for reference_set in references:
            for index, text in enumerate(reference_set):
                words = tokens(text)
                counts = ngram_counts(words, NIST_ORDER)
                self._corpus_counts.update(counts)
                self._total_words += len(words)
                lengths[index].append(len(words))
                best = self.max_counts[index]
                for ngram, count in counts.items():
                    if count > best.get(ngram, 0):
                        best[ngram] = count
        self.lengths = [tuple(item) for item in lengths]
        self.average_lengths = [sum(item) / self.n_references for item in lengths]
        self._info: dict[str, dict[Tokens, float]] = {}
        self._rows: dict[tuple[str, int, str], tuple[float, ...]] = {}

    def info(self, variant: str = "mteval") -> dict[Tokens, float]:
        """mteval's ``compute_ngram_info`` over every reference segment of the corpus.

        ``variant="mteval"`` keeps mteval-v13a's Perl quirk: a bigram whose
        prefix is the token ``"0"`` (false in Perl) is divided by the total
        word count instead of the prefix count (module docstring).
        """
        weights = self._info.get(variant)
        if weights is None:
            counts = self._corpus_counts
            total = self._total_words
            quirk = variant == "mteval"

            def denominator(ngram: Tokens) -> int:
                if len(ngram) == 1 or (quirk and len(ngram) == 2 and ngram[0] == "0"):
                    return total
                return counts[ngram[:-1]]

            weights = {ngram: -math.log(count / denominator(ngram)) / _LOG2 for ngram, count in counts.items()}
            self._info[variant] = weights
        return weights

    def row(self, kind: str, index: int, hypothesis: str) -> tuple[float, ...]:
        """Statistics of ``kind`` (``bleu``, or ``nist``/``nist-intended`` for the two information weights)."""
        key = (kind, index, hypothesis)
        cached = self._rows.get(key)
        if cached is None:
            tokens = self.tokens(hypothesis)
            if kind == "bleu":
                cached = self._bleu_row(index, tokens)
            else:
                cached = self._nist_row(index, tokens, "intended" if kind == "nist-intended" else "mteval")
            self._rows[key] = cached
        return cached

    def _bleu_row(self, index: int, tokens: Tokens) -> tuple[float, ...]:
        """mteval ``score_segment`` for BLEU: ``[c, closest r, shortest r, m_1..m_4, t_1..t_4]``."""
        length = len(tokens)
        lengths = self.lengths[index]
        max_counts = self.max_counts[index]
        counts = ngram_counts(tokens, BLEU_ORDER)
        matches = [0] * BLEU_ORDER
        for ngram in counts.keys() & max_counts.keys():
            matches[len(ngram) - 1] += min(counts[ngram], max_counts[ngram])
        totals = [max(length - order, 0) for order in range(BLEU_ORDER)]
        return (length, closest_length(length, lengths), min(lengths), *matches, *totals)

    def _nist_row(self, index: int, tokens: Tokens, variant: str) -> tuple[float, ...]:
        """mteval ``score_segment`` for NIST: ``[t_1..t_5, info_1..info_5, average reference length]``."""
        length = len(tokens)
        max_counts = self.max_counts[index]
        weights = self.info(variant)
        counts = ngram_counts(tokens, NIST_ORDER)
        info = [0.0] * NIST_ORDER
        # In the hypothesis' n-gram order, not a set's: float sums then come out the same in every
        # process (set order follows string hashing, which Python randomises per process).
        for ngram, count in counts.items():
            reference_count = max_counts.get(ngram)
            if reference_count:
                info[len(ngram) - 1] += weights[ngram] * min(count, reference_count)
        totals = [max(length - order, 0) for order in range(NIST_ORDER)]
        return (*totals, *info, self.average_lengths[index])


def mteval_references(cache: MetricCache, references: ReferenceKey, tokenize: str, lowercase: bool) -> MtevalReferences:
    """The reference corpus prepared once per (references, tokenizer, case) in a run."""
    tokens = cache.memo(("mteval-tokens", tokenize, lowercase), lambda: mteval_tokens(tokenize, lowercase))
    return cache.get(("mteval", references, tokenize, lowercase), lambda: MtevalReferences(references, tokens))


BLEU_WIDTH = 3 + 2 * BLEU_ORDER
NIST_WIDTH = 2 * NIST_ORDER + 1


def mteval_table(
    cache: MetricCache, kind: str, hypotheses: Sequence[str], references: ReferenceKey, tokenize: str, lowercase: bool
) -> np.ndarray:
    """Per-segment statistics of one system output (``kind`` = ``bleu``, ``nist`` or ``nist-intended``)."""
    corpus = mteval_references(cache, references, tokenize, lowercase)
    width = BLEU_WIDTH if kind == "bleu" else NIST_WIDTH
    return np.array([corpus.row(kind, index, hypothesis) for index, hypothesis in enumerate(hypotheses)],
                    dtype=np.float64).reshape(len(hypotheses), width)


def bleu_from_stats(stats: np.ndarray, order: int, individual: bool, smooth: bool) -> np.ndarray:
    """mteval ``bleu_score`` (smooth) / ``bleu_score_nosmoothing``, vectorised over leading axes.

    ``stats[..., :]`` = ``[c, r, m_1..m_4, t_1..t_4]``.
    """
    stats = np.asarray(stats, dtype=np.float64)
    length, reference = stats[..., 0], stats[..., 1]
    matches = stats[..., 2:2 + order]
    totals = stats[..., 2 + BLEU_ORDER:2 + BLEU_ORDER + order]
    with np.errstate(divide="ignore", invalid="ignore"):
        safe_totals = np.where(totals > 0, totals, 1.0)
        safe_length = np.where(length > 0, length, 1.0)
        log_brevity = np.minimum(0.0, 1.0 - reference / safe_length)
        if smooth:
            unmatched = (totals > 0) & (matches == 0)
            halvings = np.cumsum(unmatched, axis=-1)
            log_precision = np.where(
                totals == 0,
                0.0,
                np.where(matches == 0, -(halvings * _LOG2 + np.log(safe_totals)),
                         np.log(np.where(matches > 0, matches, 1.0) / safe_totals)),
            )
            if individual:
                return np.exp(log_precision[..., -1])
            cumulative = np.exp(log_precision.sum(axis=-1) / order)
            return np.where(length > 0, cumulative * np.exp(log_brevity), 0.0)
        matched = matches > 0
        if individual:
            return np.where(matched[..., -1], matches[..., -1] / safe_totals[..., -1], 0.0)
        log_precision = np.where(matched, np.log(np.where(matched, matches, 1.0) / safe_totals), 0.0)
        cumulative = np.exp(log_precision.sum(axis=-1) / order + log_brevity)
        return np.where(matched[..., -1], cumulative, 0.0)


def nist_length_penalty(ratio: np.ndarray) -> np.ndarray:
    """mteval ``nist_length_penalty``: 1 at or above the average reference length, 0.5 at 2/3."""
    ratio = np.asarray(ratio, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        penalty = np.exp(-NIST_BETA * np.log(np.where(ratio > 0, ratio, 1.0)) ** 2)
    return np.where(ratio >= 1, 1.0, np.where(ratio <= 0, 0.0, penalty))


def nist_from_stats(stats: np.ndarray, order: int, individual: bool) -> np.ndarray:
    """mteval ``nist_score`` vectorised; ``stats`` = ``[t_1..t_5, info_1..info_5, r̄]``."""
    stats = np.asarray(stats, dtype=np.float64)
    totals = stats[..., :NIST_ORDER]
    info = stats[..., NIST_ORDER:2 * NIST_ORDER]
    average_reference = stats[..., 2 * NIST_ORDER]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(average_reference > 0, totals[..., 0] / np.where(average_reference > 0, average_reference, 1.0),
                         np.where(totals[..., 0] > 0, np.inf, 0.0))
    per_order = info / np.maximum(totals, 1.0)
    value = per_order[..., order - 1] if individual else per_order[..., :order].sum(axis=-1)
    return value * nist_length_penalty(ratio)


class MtevalMetric(TableMetric):
    """Shared set-up of the mteval family: options, the shared statistics table, signatures."""

    aggregation = Aggregation.CORPUS

    kind = ""

    def __init__(self, name: str, order: int, individual: bool, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        check_options(self.options)
        self.name = name
        self.order = order
        self.individual = individual
        self.columns: list[int] = []
        self.brevity = self.options.extra.get("brevity-penalty", "closest")
        if self.brevity not in BREVITY_PENALTIES:
            raise UsageError(f"unknown brevity penalty {self.brevity!r} (choose closest or shortest)")

    @property
    def n_stats(self) -> int:
        return len(self.columns)

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        key = check_corpus(hypotheses, references)
        table = mteval_table(self.cache, self.kind, hypotheses, key, self.options.tokenize, self.options.lowercase)
        return table[:, self.columns]


class MtevalBleu(MtevalMetric):
    """mteval BLEU: cumulative or individual, smoothed (v13a default) or not (``--no-smoothing``)."""

    kind = "bleu"

    def __init__(self, name: str, order: int, individual: bool, smooth: bool, options: MetricOptions | None = None) -> None:
        super().__init__(name, order, individual, options)
        self.smooth = smooth
        # Table columns: c, closest r, shortest r, m_1..m_4, t_1..t_4; the score reads [c, r, m, t].
        reference_column = 1 if self.brevity == "closest" else 2
        self.columns = [0, reference_column, *range(3, BLEU_WIDTH)]
        self.description = bleu_description(order, individual, smooth)

    def score(self, stats: np.ndarray) -> np.ndarray:
        return bleu_from_stats(stats, self.order, self.individual, self.smooth)

    def signature_extras(self) -> dict[str, str]:
        return {"order": str(self.order), "type": "ind" if self.individual else "cum",
                "smooth": "exp" if self.smooth else "none", "bp": self.brevity, "impl": "mteval-v13a"}


class MtevalNist(MtevalMetric):
    """mteval NIST, cumulative or individual, information weights from the reference corpus.

    ``nist_info`` (or ``MetricOptions.extra["nist-info"]``; the keyword wins)
    chooses the information weights: ``"mteval"`` (default) reproduces
    mteval-v13a and so Asiya, including its treatment of bigrams starting
    with the token ``0``; ``"intended"`` divides every n-gram count by its
    prefix count (module docstring, *The "0" prefix*).
    """

    kind = "nist"

    def __init__(self, name: str, order: int, individual: bool, options: MetricOptions | None = None,
                 *, nist_info: str | None = None) -> None:
        super().__init__(name, order, individual, options)
        self.nist_info = nist_info if nist_info is not None else self.options.extra.get("nist-info", "mteval")
        if self.nist_info not in NIST_INFO:
            raise UsageError(f"unknown NIST information weights {self.nist_info!r} (choose mteval or intended)")
        self.kind = "nist" if self.nist_info == "mteval" else "nist-intended"
        self.columns = list(range(NIST_WIDTH))
        self.description = nist_description(order, individual)

    def score(self, stats: np.ndarray) -> np.ndarray:
        return nist_from_stats(stats, self.order, self.individual)

    def signature_extras(self) -> dict[str, str]:
        extras = {"order": str(self.order), "type": "ind" if self.individual else "cum", "impl": "mteval-v13a"}
        if self.nist_info != "mteval":
            extras["info"] = self.nist_info  # only when not mteval's, so default signatures are unchanged
        return extras


def bleu_description(order: int, individual: bool, smooth: bool) -> str:
    if smooth:
        return ("smoothed cumulative 4-gram BLEU, mteval-v13a default (= sacreBLEU default, smooth exp); "
                "corpus-level from summed statistics")
    if individual:
        return f"individual {order}-gram BLEU precision, mteval --no-smoothing, no brevity penalty; corpus-level"
    return f"cumulative BLEU up to {order}-grams, mteval --no-smoothing (IQMT BLEU-{order}); corpus-level"


def nist_description(order: int, individual: bool) -> str:
    kind = f"individual {order}-gram" if individual else f"cumulative up to {order}-grams"
    return f"NIST {kind}, mteval-v13a information weights from the reference set; corpus-level"


def _bleu(name: str, order: int, individual: bool, smooth: bool) -> MetricEntry:
    return MetricEntry(
        bleu_description(order, individual, smooth),
        lambda options: MtevalBleu(name, order, individual, smooth, options),
    )


def _nist(name: str, order: int, individual: bool) -> MetricEntry:
    return MetricEntry(nist_description(order, individual), lambda options: MtevalNist(name, order, individual, options))


METRICS: dict[str, MetricEntry] = {
    "BLEU": _bleu("BLEU", BLEU_ORDER, False, True),
    **{f"BLEU-{n}": _bleu(f"BLEU-{n}", n, False, False) for n in range(1, BLEU_ORDER + 1)},
    **{f"BLEUi-{n}": _bleu(f"BLEUi-{n}", n, True, False) for n in range(2, BLEU_ORDER + 1)},
    "NIST": _nist("NIST", NIST_ORDER, False),
    **{f"NIST-{n}": _nist(f"NIST-{n}", n, False) for n in range(1, NIST_ORDER + 1)},
    **{f"NISTi-{n}": _nist(f"NISTi-{n}", n, True) for n in range(2, NIST_ORDER + 1)},
}
