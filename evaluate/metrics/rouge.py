"""ROUGE-1..4, ROUGE-L, ROUGE-S*, ROUGE-SU*, ROUGE-W as Asiya runs ROUGE 1.5.5.

Asiya calls ``ROUGE-1.5.5.pl -z SPL -2 -1 -U -r 1000 -n 4 -w 1.2 -c 95 -d -m``
with one evaluation unit per segment (the candidate segment against that
segment of every reference), and stores the **F-measure**: the system score
is ROUGE's ``Average_F`` and the segment scores are the ``F:`` values of the
``-d`` lines (Asiya's ``IQ::Scoring::ROUGE::read_rouge``). So:

* scores are F = P·R / ((1−α)·P + α·R) with ROUGE's default α = 0.5
  (``-p``), 0 when P or R is 0;
* the system (and document) score is the **mean of segment scores**
  (``Average_F`` averages the evaluation units; ``-t 0``), hence
  :class:`~checkpoints.evaluate.metrics.base.MeanOfSegments`;
* several references are **pooled** (ROUGE's default ``-f A``): hits and
  totals are summed over the references, so recall = Σ hits / Σ reference
  totals and precision = Σ hits / (references × candidate total);
* ``-n 4``: ROUGE-N = clipped n-gram co-occurrences, N = 1..4;
* ROUGE-L: longest common subsequence; ROUGE-W (``-w 1.2``): ROUGE 1.5.5's
  own weighted LCS, not Lin's table value: the weighted-LCS table only picks
  which reference tokens match, and runs of consecutive matched *reference*
  positions earn f(k) = k^1.2 (:func:`wlcs_score`); R = f⁻¹(hits / |ref|^1.44)
  (ROUGE weights the reference length twice) and P = f⁻¹(hits / |cand|^1.2);
* ``-2 -1``: skip bigrams with unlimited gap, C(n, 2) per sentence;
  ``-U``: also ROUGE-SU*, which adds the unigram of every token that starts
  a skip bigram, i.e. all but the last: C(n, 2) + n − 1 grams, so a one-word
  segment scores 0 as it does in ROUGE 1.5.5;
* ``-m``: tokens longer than three characters are stemmed as ROUGE's
  ``MorphStem`` does (:mod:`~checkpoints.evaluate.metrics.rouge_stem`):
  WordNet's irregular forms first (``went`` → ``go``), else ROUGE's own
  Porter stemmer (``element`` → ``elem``);
* ROUGE's own text normalisation: lower-cased whatever ``--case`` says, every
  run of characters other than letters and digits is a separator. ROUGE 1.5.5
  keeps ASCII ``[a-z0-9]`` only; letters and digits of every script are kept
  here, so that German or Chinese output is not erased. Text is first split by
  the project tokenizer (``--tokenize``; ``zh`` separates Chinese characters).
  English is stemmed as ROUGE does (``-m`` below); other languages with
  their Snowball stemmer (ROUGE 1.5.5 has none), or not at all.
* an empty candidate or reference contributes nothing: its scores are 0
  (Asiya replaces empty lines by a placeholder token only to keep ROUGE from
  failing).

Equal to ROUGE-1.5.5.pl (checked to 1e-9 on TED segments by
``tests/metrics/test_rouge_reference_tool.py``): every segment F of the eight
variants, for English with ``-m`` and, on ASCII-coded tokens, unstemmed. The
remaining, documented conventions are: non-ASCII letters are kept and other
languages use Snowball (above); values are not rounded (ROUGE rounds R and P
to five decimals before forming F, and F again); the system score is the
exact mean of the segment F, which ROUGE computes, whereas the ``Average_F``
it prints is the mean of its ``-r 1000`` bootstrap resamples, an estimate of
that mean that differs from it by about 1e-3; text the project tokenizer
rewrites (``13a`` unescapes ``&amp;``) reaches ROUGE as written.

All eight measures come from one comparison of each (candidate, reference)
pair, kept in the run's cache, so asking for every ROUGE variant costs one
pass. Every measure depends on the target language (its stemmer), which must
be known.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.base import MeanOfSegments, MetricOptions
from checkpoints.evaluate.metrics.registry import MetricEntry
from checkpoints.evaluate.metrics.rouge_stem import rouge_stem
from checkpoints.evaluate.stemming import get_stemmer
from checkpoints.tokenizers import get_tokenizer

ALPHA = 0.5
"""ROUGE 1.5.5's ``-p`` default: F weights precision and recall equally."""

WLCS_WEIGHT = 1.2
"""Asiya's ``-w 1.2``: f(k) = k^1.2 rewards consecutive matches in ROUGE-W."""

MIN_STEM_LENGTH = 4
"""ROUGE 1.5.5 stems a token only when it is longer than three characters."""

_SEPARATORS = re.compile(r"[\W_]+")


@dataclass(frozen=True, slots=True)
class PairCounts:
    """Everything ROUGE counts for one candidate against one reference."""

    candidate_length: int
    reference_length: int
    ngram_hits: tuple[int, int, int, int]
    """Clipped co-occurrences of 1..4-grams."""
    lcs: int
    wlcs: float
    """ROUGE 1.5.5's ROUGE-W hit value (:func:`wlcs_score`)."""
    skip_hits: int
    """Clipped co-occurrences of skip bigrams (unlimited gap)."""
    su_unigram_hits: int
    """Clipped unigram co-occurrences without each side's last token (ROUGE-SU*'s unigram part)."""


# ---------------------------------------------------------------------------
# Text normalisation


def rouge_tokens(text: str, tokenize: str = "13a", language: str = "en") -> tuple[str, ...]:
    """ROUGE 1.5.5's view of a segment: lower-cased, letters and digits only, stemmed (``-m``)."""
    words = _SEPARATORS.sub(" ", " ".join(get_tokenizer(tokenize)(text)).lower()).split()
    stem = _rouge_stemmer(language)
    if stem is None:
        return tuple(words)
    return tuple(stem(word) if len(word) >= MIN_STEM_LENGTH else word for word in words)


def _is_english(language: str) -> bool:
    return language.lower().replace("_", "-").split("-")[0] == "en"


def stemmer_name(language: str) -> str:
    """Which stemmer ``-m`` means for a target language: ``rouge155`` (ROUGE's own), ``snowball`` or ``none``."""
    if _is_english(language):
        return "rouge155"
    return "snowball" if _rouge_stemmer(language) is not None else "none"


@cache
def _rouge_stemmer(language: str) -> Callable[[str], str] | None:
    if _is_english(language):
        return rouge_stem
    try:
        return get_stemmer(language)
    except UsageError:
        return None


# ---------------------------------------------------------------------------
# Counting


def lcs_length(first: Sequence[str], second: Sequence[str]) -> int:
    """Length of the longest common subsequence, bit-parallel (Allison & Dix 1986; Hyyrö 2004).

    Bit i of ``v`` is 0 where row i of the LCS table steps up; one addition
    per token of ``second`` updates the whole column at once.
    """
    if not first or not second:
        return 0
    masks: dict[str, int] = {}
    for position, token in enumerate(first):
        masks[token] = masks.get(token, 0) | (1 << position)
    full = (1 << len(first)) - 1
    v = full
    for token in second:
        u = v & masks.get(token, 0)
        v = ((v + u) | (v - u)) & full
    return len(first) - v.bit_count()


def wlcs_score(reference: Sequence[str], candidate: Sequence[str], weight: float = WLCS_WEIGHT) -> float:
    """ROUGE-W's hit value as ROUGE 1.5.5 computes it (``wlcs``), not the weighted-LCS table value.

    ROUGE fills Lin's (2004) weighted-LCS table with rows following the
    reference (its model) and columns the candidate (its peer), breaking ties
    upwards (``c[i-1][j] >= c[i][j-1]``); it then only keeps *which reference
    tokens* the traced-back path matches and scores runs of consecutive
    matched reference positions: a run of k earns k^weight. Matches that are
    adjacent in the reference but not in the candidate therefore form one
    run, so this can exceed the table value (which is what Lin's paper
    scores). Unigram clipping as ROUGE does it is kept: a matched token only
    counts while both sides still have an unused occurrence of it, and a run
    is only flushed at a counted match, exactly as in ``wlcs``.
    """
    m, n = len(reference), len(candidate)
    if not m or not n:
        return 0.0
    f = [k**weight for k in range(min(m, n) + 2)]
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    run = [[0] * (n + 1) for _ in range(m + 1)]
    move = [[0] * (n + 1) for _ in range(m + 1)]  # 1 diagonal, 2 up, 3 left
    for i in range(1, m + 1):
        token, above, row, above_run, row_run, row_move = reference[i - 1], c[i - 1], c[i], run[i - 1], run[i], move[i]
        for j in range(1, n + 1):
            if candidate[j - 1] == token:
                k = above_run[j - 1]
                row[j] = above[j - 1] + f[k + 1] - f[k]
                row_run[j] = k + 1
                row_move[j] = 1
            elif above[j] >= row[j - 1]:
                row[j] = above[j]
                row_move[j] = 2
            else:
                row[j] = row[j - 1]
                row_move[j] = 3
    hit_mask = [False] * m
    i, j = m, n
    while i and j:
        step = move[i][j]
        if step == 1:
            i -= 1
            j -= 1
            hit_mask[i] = True
        elif step == 2:
            i -= 1
        else:
            j -= 1
    reference_left, candidate_left = Counter(reference), Counter(candidate)
    hits = 0.0
    run_length = 0
    for position, token in enumerate(reference):
        if not hit_mask[position] or reference_left[token] <= 0 or candidate_left[token] <= 0:
            continue
        run_length += 1
        if position + 1 == m or not hit_mask[position + 1]:
            hits += f[run_length] if run_length < len(f) else run_length**weight
            run_length = 0
        reference_left[token] -= 1
        candidate_left[token] -= 1
    return hits


def _ngram_counts(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _skip_bigrams(tokens: Sequence[str]) -> Counter[tuple[str, str]]:
    return Counter((tokens[i], tokens[j]) for i in range(len(tokens)) for j in range(i + 1, len(tokens)))


def _clipped(first: Counter, second: Counter) -> int:  # type: ignore[type-arg]
    if len(first) > len(second):
        first, second = second, first
    return sum(min(count, second[gram]) for gram, count in first.items() if gram in second)


def pair_counts(candidate: tuple[str, ...], reference: tuple[str, ...]) -> PairCounts:
    """Every ROUGE count of one (candidate, reference) pair of normalised token tuples."""
    hits = tuple(_clipped(_ngram_counts(candidate, n), _ngram_counts(reference, n)) for n in range(1, 5))
    return PairCounts(
        candidate_length=len(candidate),
        reference_length=len(reference),
        ngram_hits=hits,  # type: ignore[arg-type]
        lcs=lcs_length(reference, candidate),
        wlcs=wlcs_score(reference, candidate),
        skip_hits=_clipped(_skip_bigrams(candidate), _skip_bigrams(reference)),
        su_unigram_hits=_clipped(_ngram_counts(candidate[:-1], 1), _ngram_counts(reference[:-1], 1)),
    )


def _ngrams(length: int, n: int) -> int:
    return max(length - n + 1, 0)


# ---------------------------------------------------------------------------
# Measures: (hits, reference total, candidate total) of one pair, then F


Extract = Callable[[PairCounts], tuple[float, float, float]]


def _rouge_n(n: int) -> Extract:
    return lambda c: (c.ngram_hits[n - 1], _ngrams(c.reference_length, n), _ngrams(c.candidate_length, n))


def _rouge_l(c: PairCounts) -> tuple[float, float, float]:
    return c.lcs, c.reference_length, c.candidate_length


def _rouge_w(c: PairCounts) -> tuple[float, float, float]:
    # ROUGE 1.5.5 weights the reference length twice (wlcs adds |ref|^w, and
    # computeWLCSScore raises that sum to w again) but the candidate's once.
    return c.wlcs, (c.reference_length**WLCS_WEIGHT) ** WLCS_WEIGHT, c.candidate_length**WLCS_WEIGHT


def _rouge_s(c: PairCounts) -> tuple[float, float, float]:
    return c.skip_hits, comb(c.reference_length, 2), comb(c.candidate_length, 2)


def _rouge_su(c: PairCounts) -> tuple[float, float, float]:
    # ROUGE 1.5.5's createSkipBigram adds the unigram of every token that
    # starts a skip bigram, i.e. all but the last: n - 1 more grams per side.
    return (
        c.skip_hits + c.su_unigram_hits,
        comb(c.reference_length, 2) + max(c.reference_length - 1, 0),
        comb(c.candidate_length, 2) + max(c.candidate_length - 1, 0),
    )


def f_measure(precision: float, recall: float, alpha: float = ALPHA) -> float:
    """ROUGE 1.5.5's F = P·R / ((1−α)·P + α·R); 0 when the denominator is 0."""
    denominator = (1 - alpha) * precision + alpha * recall
    return precision * recall / denominator if denominator > 0 else 0.0


def pooled_scores(counts: Sequence[PairCounts], extract: Extract, inverse: float = 1.0) -> tuple[float, float, float]:
    """(recall, precision, F) over several references, pooled as ROUGE's ``-f A``.

    ``inverse`` is the exponent that undoes ROUGE-W's weighting (1/1.2).
    """
    hits = reference_total = candidate_total = 0.0
    for pair in counts:
        hit, reference, candidate = extract(pair)
        hits += hit
        reference_total += reference
        candidate_total += candidate
    recall = (hits / reference_total) ** inverse if reference_total > 0 else 0.0
    precision = (hits / candidate_total) ** inverse if candidate_total > 0 else 0.0
    return recall, precision, f_measure(precision, recall)


class Rouge(MeanOfSegments):
    """One ROUGE measure; segment score = ROUGE's F against all references (``-f A``)."""

    def __init__(self, name: str, description: str, extract: Extract, inverse: float = 1.0,
                 options: MetricOptions | None = None) -> None:
        super().__init__(options)
        self.name = name
        self.description = description
        self._extract = extract
        self._inverse = inverse
        self.language = self.options.target_language(name)

    def segment_score(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> float:
        # The eight measures share the tokens and the counts of each pair within a run.
        tokenize, language = self.options.tokenize, self.language
        tokens = self.cache.memo(("rouge-tokens", tokenize, language),
                                 lambda: lambda text: rouge_tokens(text, tokenize, language))
        counted = self.cache.memo("rouge-pairs", lambda: pair_counts)
        candidate = tokens(hypothesis)
        counts = [counted(candidate, tokens(reference)) for reference in references]
        return pooled_scores(counts, self._extract, self._inverse)[2]

    def signature_extras(self) -> dict[str, str]:
        return {"rouge": "1.5.5", "opts": "-2_-1_-U_-m_-n_4_-w_1.2_-f_A_-p_0.5", "value": "F",
                "text": f"lc+alnum+{stemmer_name(self.language)}"}


def _factory(name: str, description: str, extract: Extract, inverse: float = 1.0) -> Callable[[MetricOptions], Rouge]:
    return lambda options: Rouge(name, description, extract, inverse, options)


_DEFINITIONS: dict[str, tuple[str, Extract, float]] = {
    **{f"ROUGE-{n}": (f"ROUGE-{n}: F of clipped {n}-gram co-occurrences (ROUGE 1.5.5, stemmed, references pooled)",
                      _rouge_n(n), 1.0) for n in range(1, 5)},
    "ROUGE-L": ("ROUGE-L: F of the longest common subsequence (ROUGE 1.5.5, stemmed)", _rouge_l, 1.0),
    "ROUGE-S*": ("ROUGE-S*: F of skip bigrams with unlimited gap (ROUGE 1.5.5 -2 -1, stemmed)", _rouge_s, 1.0),
    "ROUGE-SU*": ("ROUGE-SU*: ROUGE-S* plus unigrams (ROUGE 1.5.5 -U, stemmed)", _rouge_su, 1.0),
    "ROUGE-W": ("ROUGE-W: F of the weighted LCS, f(k) = k^1.2 (ROUGE 1.5.5 -w 1.2, stemmed)", _rouge_w,
                1.0 / WLCS_WEIGHT),
}

METRICS: dict[str, MetricEntry] = {
    name: MetricEntry(description, _factory(name, description, extract, inverse), language=True)
    for name, (description, extract, inverse) in _DEFINITIONS.items()
}
