"""Edit-distance metrics: -WER, -PER, -TER, -TERbase and CDER (negated as -CDER).

Error rates are negated so that higher is better, as Asiya does ("We use
−WER"); every one is an error count per reference word with statistics
``[errors, reference length]`` per segment, so system and document scores are
corpus-level: summed errors over summed reference lengths.

* ``-WER`` — word error rate (Nießen et al. 2000): Levenshtein distance over
  tokens (substitution, insertion, deletion, each cost 1) divided by the
  reference length (Koehn eq. 8.7). With several references the segment uses
  the reference with the fewest edits (ties: the longer one, i.e. the lower
  sentence-level error rate) — mWER as in W07-0707 and iqmt-koehn C.10.
* ``-PER`` — position-independent error rate (Tillmann et al. 1997), Koehn
  eq. 8.6: ``max(|R|, |H|) − matches`` errors per reference word, i.e.
  W07-0707's ``½(|N_ref − N_hyp| + Σ_e |n(e,ref) − n(e,hyp)|)``; references
  chosen as for WER.
* ``-TER`` / ``-TERbase`` — sacreBLEU's TER (tercom algorithm: edits
  including block shifts, of the closest reference, over the *average*
  reference length). Asiya's default ``-TER`` runs TERp with stemming and
  synonyms, which sacreBLEU does not implement: both names compute TER
  without stemming, synonyms or paraphrases, i.e. TERbase, so ``-TER`` and
  ``-TERbase`` give the same numbers. tercom's own preprocessing applies
  (whitespace tokens, no 13a tokenizer); ``case=ci`` is sacreBLEU's default
  ``case_sensitive=False``.
* ``CDER`` / ``-CDER`` (Leusch, Ueffing & Ney 2006, E06-1031) — edit distance
  with block movements where each reference word is covered exactly once and
  candidate words any number of times: ``D(i,l) = min{D(i−1,l−1) + c(e_i,
  ẽ_l), D(i−1,l) + 1, D(i,l−1) + 1, min_i' D(i',l) + 1}`` (the last term is a
  "long jump"), ``D(I, L) / L``. ``c`` is 0/1 word identity by default;
  :func:`levenshtein_substitution_cost` and :func:`prefix_substitution_cost`
  are the paper's word-dependent costs. ``-CDER`` is the negated score in the
  lexical set; ``CDER`` is the plain error rate.

WER, PER and CDER tokenize with the configured tokenizer (13a by default) and
lower-case with ``case=ci``.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np
from sacrebleu.metrics import lib_ter
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

from checkpoints.errors import CorpusMismatch
from checkpoints.evaluate.metrics.base import (
    Aggregation,
    MetricCache,
    MetricOptions,
    ReferenceKey,
    TableMetric,
    check_corpus,
)
from checkpoints.evaluate.metrics.overlap import Tokens, cached_tokens, check_options
from checkpoints.evaluate.metrics.registry import MetricEntry
from checkpoints.signature import Signature

SubstitutionCost = Callable[[str, str], float]


# --- distances -------------------------------------------------------------------------------


def _ids(hypothesis: Sequence[str], reference: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Both token sequences as integer arrays over one shared vocabulary."""
    vocabulary: dict[str, int] = {}
    hyp = np.array([vocabulary.setdefault(token, len(vocabulary)) for token in hypothesis], dtype=np.int64)
    ref = np.array([vocabulary.setdefault(token, len(vocabulary)) for token in reference], dtype=np.int64)
    return hyp, ref


def levenshtein_matrix(hypothesis: Sequence[str], reference: Sequence[str]) -> np.ndarray:
    """Koehn's Figure 8.5 matrix: rows = reference prefixes, columns = output prefixes.

    Each row is one vector step: diagonal (match/substitution) and vertical
    (deletion) moves are elementwise; horizontal insertions chain along the
    row, which ``minimum.accumulate`` of ``value − column`` resolves at once.
    """
    hyp, ref = _ids(hypothesis, reference)
    columns = np.arange(len(hyp) + 1, dtype=np.int64)
    matrix = np.empty((len(ref) + 1, len(hyp) + 1), dtype=np.int64)
    matrix[0] = columns
    for row in range(1, len(ref) + 1):
        previous = matrix[row - 1]
        best = np.empty_like(columns)
        best[0] = row
        best[1:] = np.minimum(previous[:-1] + (hyp != ref[row - 1]), previous[1:] + 1)
        matrix[row] = np.minimum.accumulate(best - columns) + columns
    return matrix


def levenshtein(hypothesis: Sequence[str], reference: Sequence[str]) -> int:
    """Word edit distance (substitutions + insertions + deletions): the last cell of
    :func:`levenshtein_matrix`, computed one row at a time (memory linear in the length)."""
    hyp, ref = _ids(hypothesis, reference)
    columns = np.arange(len(hyp) + 1, dtype=np.int64)
    previous = columns
    best = np.empty_like(columns)
    for row in range(1, len(ref) + 1):
        best[0] = row
        best[1:] = np.minimum(previous[:-1] + (hyp != ref[row - 1]), previous[1:] + 1)
        previous = np.minimum.accumulate(best - columns) + columns
    return int(previous[-1])


MAX_EDIT_WORDS = 2_000
"""Longest segment (words, either side) the edit-distance metrics align; ``$CHECKPOINTS_MAX_EDIT_WORDS``
raises it. TER's shift search caches rows of the reference's length, and a segment of 150,000 words
(one 1 MB line) took gigabytes: such a segment is refused with its line number instead."""


class SegmentTooLong(CorpusMismatch):
    """A segment longer than the edit-distance metrics align (:data:`MAX_EDIT_WORDS`); ``index`` is
    the 0-based segment, ``side`` ``system`` or ``reference``, so that a caller can name the file."""

    def __init__(self, index: int, side: str, problem: str) -> None:
        super().__init__(f"segment {index + 1} ({side}): {problem}")
        self.index, self.side, self.problem = index, side, problem


def check_edit_length(index: int, words: Sequence[str], metric: str, side: str) -> None:
    """Refuse segment ``index`` (0-based) when ``words`` is longer than the bound."""
    configured = os.environ.get("CHECKPOINTS_MAX_EDIT_WORDS")
    limit = int(configured) if configured and configured.isdigit() else MAX_EDIT_WORDS
    if len(words) > limit:
        raise SegmentTooLong(
            index, side,
            f"{len(words):,} words, longer than the {limit:,} that {metric} aligns (its time and memory grow with "
            "the square of the length): split it, or set CHECKPOINTS_MAX_EDIT_WORDS",
        )


def per_errors(hypothesis: Sequence[str], reference: Sequence[str]) -> tuple[int, int, int]:
    """``(matches, reference errors, hypothesis errors)`` of the bag-of-words comparison.

    Reference errors are reference words left unmatched (W07-0707 ``rerr``),
    hypothesis errors hypothesis words left unmatched (``herr``); PER errors
    are ``max(rerr, herr)``, FPER is ``(rerr + herr) / (|R| + |H|)``.
    """
    hyp_counts, ref_counts = Counter(hypothesis), Counter(reference)
    matches = sum(min(count, ref_counts[token]) for token, count in hyp_counts.items() if token in ref_counts)
    return matches, len(reference) - matches, len(hypothesis) - matches


def per_distance(hypothesis: Sequence[str], reference: Sequence[str]) -> int:
    """Koehn eq. 8.6 numerator: ``|R| − (matches − max(0, |H| − |R|))`` = ``max(|R|, |H|) − matches``."""
    matches, _, _ = per_errors(hypothesis, reference)
    return max(len(reference), len(hypothesis)) - matches


def _alignment(a: str, b: str) -> tuple[int, int]:
    """Character Levenshtein distance of two words and the length of the shortest optimal alignment path."""
    previous = [(j, j) for j in range(len(b) + 1)]
    for i, char_a in enumerate(a, start=1):
        current = [(i, i)]
        for j, char_b in enumerate(b, start=1):
            diagonal = previous[j - 1]
            current.append(min(
                (diagonal[0] + (char_a != char_b), diagonal[1] + 1),
                (previous[j][0] + 1, previous[j][1] + 1),
                (current[j - 1][0] + 1, current[j - 1][1] + 1),
            ))
        previous = current
    return previous[-1]


def levenshtein_substitution_cost(a: str, b: str) -> float:
    """E06-1031 word-dependent cost (a): character Levenshtein distance over the alignment path length.

    Where several optimal alignments exist, the shortest path is taken.
    """
    distance, path = _alignment(a, b)
    return distance / path if path else 0.0


def prefix_substitution_cost(a: str, b: str) -> float:
    """E06-1031 word-dependent cost (b): ``1 − common prefix length / mean word length``."""
    if not a and not b:
        return 0.0
    prefix = 0
    for char_a, char_b in zip(a, b, strict=False):
        if char_a != char_b:
            break
        prefix += 1
    return 1.0 - prefix / ((len(a) + len(b)) / 2)


def cder_distance(
    hypothesis: Sequence[str], reference: Sequence[str], substitution: SubstitutionCost | None = None
) -> float:
    """CDER distance ``D(I, L)`` (E06-1031 recursion with long jumps), ``I`` = candidate length.

    Computed one reference position at a time: diagonal and reference-skip
    moves are elementwise, candidate-skip moves chain along the column
    (``minimum.accumulate``), and a long jump reaches any candidate position
    from the column's minimum at cost 1.
    """
    hyp, ref = _ids(hypothesis, reference)

    def costs(position: int) -> np.ndarray:
        """c(e_i, r) of every candidate word against reference word ``position`` (one column at a time:
        memory linear in the length)."""
        if substitution is None:
            return (hyp != ref[position]).astype(np.float64)
        word = reference[position]
        return np.array([substitution(e, word) for e in hypothesis], dtype=np.float64)

    positions = np.arange(len(hypothesis) + 1, dtype=np.float64)
    column = np.minimum(positions, 1.0)  # D(0, 0) = 0; any D(i, 0) is one long jump away
    for position in range(len(reference)):
        best = np.empty_like(column)
        best[0] = column[0] + 1
        best[1:] = np.minimum(column[:-1] + costs(position), column[1:] + 1)
        column = np.minimum.accumulate(best - positions) + positions
        column = np.minimum(column, column.min() + 1)
    return float(column[-1])


# --- per-segment statistics with reference choice ------------------------------------------


def _best_reference(candidates: list[tuple[float, int]]) -> tuple[float, int]:
    """``(errors, reference length)`` of the reference with the fewest errors, the longer on ties."""
    return min(candidates, key=lambda item: (item[0], -item[1]))


Distance = Callable[[Tokens, Tokens], float]
DISTANCES: dict[str, Distance] = {"wer": levenshtein, "per": per_distance, "cder": cder_distance}


def error_table(cache: MetricCache, kind: str, hypotheses: Sequence[str], references: ReferenceKey, tokenize: str,
                lowercase: bool) -> np.ndarray:
    """``(segments, 2)`` = ``[errors, reference length]`` for WER, PER or CDER.

    Rows already computed against the same references in this run (systems
    often agree on a segment) are reused.
    """
    tokens = cached_tokens(cache, tokenize, lowercase)
    distance = DISTANCES[kind]
    seen: dict[tuple[int, str], tuple[float, int]] = cache.get(("edit", kind, references, tokenize, lowercase), dict)
    rows = []
    for index, hypothesis in enumerate(hypotheses):
        key = (index, hypothesis)
        row = seen.get(key)
        if row is None:
            hyp = tokens(hypothesis)
            check_edit_length(index, hyp, kind.upper(), "system")
            candidates = []
            for ref in (tokens(ref_set[index]) for ref_set in references):
                check_edit_length(index, ref, kind.upper(), "reference")
                candidates.append((distance(hyp, ref), len(ref)))
            row = seen[key] = _best_reference(candidates)
        rows.append(row)
    return np.array(rows, dtype=np.float64).reshape(len(hypotheses), 2)


# --- TER ------------------------------------------------------------------------------------
#
# sacreBLEU's TER (``lib_ter``) spends almost all of its time in its beam edit
# distance, evaluated once per shift candidate, whose matrix cells are
# (cost, operation) tuples. The class below computes the same matrix rows as
# plain integer lists (about three times faster; the rows are at most a beam
# of 50 cells wide, too short for numpy calls to pay off), derives the
# operations only along the backtracked path, with tercom's preference among
# equal costs, and is passed to sacreBLEU's own shift search
# (``lib_ter._shift``). The edit counts are therefore sacreBLEU's; the TED
# equality tests check it on every system.

_INF = lib_ter._INT_INFINITY
_BEAM = lib_ter._BEAM_WIDTH
_MAX_CACHED_ROWS = lib_ter._MAX_CACHE_SIZE


class BeamEditDistance:
    """Drop-in for ``lib_ter.BeamEditDistance``: ``(distance, trace)`` of a hypothesis against one reference.

    Row ``i`` of the matrix only depends on the first ``i`` hypothesis words
    (every shift candidate has the same length), so rows are cached in a trie
    over hypothesis prefixes, as sacreBLEU does.
    """

    def __init__(self, words_ref: Sequence[str]) -> None:
        self._ref = list(words_ref)
        self._n_ref = len(words_ref)
        self._initial = list(range(self._n_ref + 1))
        self._empty = [_INF] * (self._n_ref + 1)
        self._tries: dict[int, dict] = {}
        self._cached_rows = 0

    def __call__(self, words_hyp: Sequence[str]) -> tuple[int, str]:
        n_hyp = len(words_hyp)
        ratio = self._n_ref / n_hyp if n_hyp else 1
        beam = math.ceil(ratio / 2 + _BEAM) if ratio / 2 > _BEAM else _BEAM
        rows = [self._initial]
        node: dict | None = self._tries.setdefault(n_hyp, {})
        for position, word in enumerate(words_hyp, start=1):
            cached = node.get(word) if node is not None else None
            if cached is None:
                row = self._row(position, n_hyp, ratio, beam, word, rows[-1])
                if node is not None and self._cached_rows < _MAX_CACHED_ROWS:
                    cached = node[word] = ({}, row)
                    self._cached_rows += 1
                else:  # cache full (sacreBLEU's bound): compute the rest without storing it
                    cached = (None, row)
            node = cached[0]
            rows.append(cached[1])
        return rows[-1][-1], self._trace(words_hyp, rows)

    def _row(self, i: int, n_hyp: int, ratio: float, beam: int, word: str, previous: list[int]) -> list[int]:
        """Row ``i``: cells outside the beam stay infinite; each cell is the cheapest of the three moves."""
        reference = self._ref
        diagonal_position = math.floor(i * ratio)
        low = max(0, diagonal_position - beam)
        high = self._n_ref + 1 if i == n_hyp else min(self._n_ref + 1, diagonal_position + beam)
        row = self._empty[:]
        if low == 0:
            row[0] = previous[0] + 1
        first = max(low, 1)
        left = row[first - 1]
        for j in range(first, high):
            best = previous[j - 1] + (reference[j - 1] != word)
            up = previous[j] + 1
            if up < best:
                best = up
            left += 1
            if left < best:
                best = left
            if best > _INF:
                best = _INF  # no finite move reaches the cell
            row[j] = left = best
        return row

    def _trace(self, words_hyp: Sequence[str], rows: list[list[int]]) -> str:
        """Operations along the optimal path; ties resolved as tercom: diagonal, then deletion, then insertion."""
        i, j = len(rows) - 1, self._n_ref
        trace: list[str] = []
        while i > 0 or j > 0:
            if i == 0:
                operation = lib_ter._OP_INS
            elif j == 0:
                operation = lib_ter._OP_DEL
            else:
                different = self._ref[j - 1] != words_hyp[i - 1]
                diagonal = min(rows[i - 1][j - 1] + different, _INF)
                up = rows[i - 1][j] + 1
                left = rows[i][j - 1] + 1
                if left < min(diagonal, up):
                    operation = lib_ter._OP_INS
                elif up < diagonal:
                    operation = lib_ter._OP_DEL
                elif diagonal < _INF:
                    operation = lib_ter._OP_SUB if different else lib_ter._OP_NOP
                else:
                    raise RuntimeError("TER alignment left the beam")
            trace.append(operation)
            if operation in (lib_ter._OP_SUB, lib_ter._OP_NOP):
                i, j = i - 1, j - 1
            elif operation == lib_ter._OP_INS:
                j -= 1
            else:
                i -= 1
        return "".join(reversed(trace))


def ter_edits(words_hyp: list[str], words_ref: list[str]) -> tuple[int, int]:
    """``lib_ter.translation_edit_rate`` with the vectorised edit distance: ``(edits, reference length)``."""
    if not words_ref:
        return len(words_hyp), 0
    if words_hyp == words_ref:
        return 0, len(words_ref)
    distance = BeamEditDistance(words_ref)
    shifts, words, checked = 0, words_hyp, 0
    while True:
        delta, shifted, checked = lib_ter._shift(words, words_ref, distance, checked)
        if checked >= lib_ter._MAX_SHIFT_CANDIDATES or delta <= 0:
            break
        shifts += 1
        words = shifted
    return shifts + distance(words)[0], len(words_ref)


class TerReferences:
    """Tercom-tokenized references and the TER statistics of every (segment, hypothesis) seen."""

    def __init__(self, references: ReferenceKey, case_sensitive: bool) -> None:
        self.tokenizer = TercomTokenizer(normalized=False, no_punct=False, asian_support=False,
                                         case_sensitive=case_sensitive)
        self.words = [[self.prepare(text) for text in segment] for segment in zip(*references, strict=True)]
        self._rows: dict[tuple[int, str], tuple[float, float]] = {}

    def prepare(self, text: str) -> list[str]:
        """sacreBLEU's TER preprocessing: strip trailing space, tercom tokenizer, whitespace split."""
        return self.tokenizer(text.rstrip()).split()

    def row(self, index: int, hypothesis: str) -> tuple[float, float]:
        """sacreBLEU ``TER._compute_segment_statistics``: ``[fewest edits, average reference length]``."""
        key = (index, hypothesis)
        cached = self._rows.get(key)
        if cached is None:
            words = self.prepare(hypothesis)
            check_edit_length(index, words, "TER", "system")
            best, total_length = None, 0
            for reference in self.words[index]:
                check_edit_length(index, reference, "TER", "reference")
                edits, length = ter_edits(words, reference)
                total_length += length
                if best is None or edits < best:
                    best = edits
            cached = self._rows[key] = (float(best), total_length / len(self.words[index]))
        return cached


def ter_table(cache: MetricCache, hypotheses: Sequence[str], references: ReferenceKey, case_sensitive: bool) -> np.ndarray:
    """``[fewest edits, average reference length]`` per segment, from the run's shared tercom references."""
    corpus = cache.get(("ter", references, case_sensitive), lambda: TerReferences(references, case_sensitive))
    return np.array([corpus.row(index, hypothesis) for index, hypothesis in enumerate(hypotheses)],
                    dtype=np.float64).reshape(len(hypotheses), 2)


# --- metrics ----------------------------------------------------------------------------------


def error_rate(stats: np.ndarray) -> np.ndarray:
    """Errors per reference word from summed ``[errors, length]``; 1 (or 0) with no reference words, as sacreBLEU's TER."""
    stats = np.asarray(stats, dtype=np.float64)
    errors, length = stats[..., 0], stats[..., 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = errors / np.where(length > 0, length, 1.0)
    return np.where(length > 0, rate, np.where(errors > 0, 1.0, 0.0))


class EditRate(TableMetric):
    """An edit-based error rate; ``negate`` gives Asiya's higher-is-better form (``-WER``)."""

    aggregation = Aggregation.CORPUS

    def __init__(self, name: str, kind: str, negate: bool, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        check_options(self.options)
        if kind not in {"wer", "per", "cder", "ter"}:
            raise ValueError(f"unknown edit distance {kind!r}")
        self.name = name
        self.kind = kind
        self.negate = negate
        self.description = DESCRIPTIONS[name]

    @property
    def n_stats(self) -> int:
        return 2

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        key = check_corpus(hypotheses, references)
        if self.kind == "ter":
            return ter_table(self.cache, hypotheses, key, not self.options.lowercase)
        return error_table(self.cache, self.kind, hypotheses, key, self.options.tokenize, self.options.lowercase)

    def score(self, stats: np.ndarray) -> np.ndarray:
        rate = error_rate(stats)
        return -rate if self.negate else rate

    def signature(self) -> Signature:
        signature = super().signature()
        if self.kind == "ter":
            # tercom preprocessing replaces the tokenize option.
            signature = signature.with_fields(tok="tercom")
        return signature

    def signature_extras(self) -> dict[str, str]:
        extras = {"refs": "avg-len" if self.kind == "ter" else "best"}
        if self.kind == "ter":
            extras.update({"shifts": "yes", "stem": "no", "synonyms": "no", "impl": "sacrebleu"})
        return extras


DESCRIPTIONS = {
    "-WER": "negated word error rate: Levenshtein edits / reference length (best reference); corpus-level",
    "-PER": "negated position-independent error rate: (max(|R|,|H|) − bag matches) / |R| (best reference); corpus-level",
    "-TER": "negated TER (sacreBLEU/tercom: edits with shifts / avg ref length; no TERp stemming or synonyms, = -TERbase); corpus-level",
    "-TERbase": "negated TER base: sacreBLEU/tercom TER without stemming, synonyms or paraphrases; corpus-level",
    "-CDER": "negated CDER (Leusch et al. 2006): block-movement edit distance with long jumps / reference length; corpus-level",
    "CDER": "CDER error rate (lower is better): block-movement edit distance with long jumps / reference length; corpus-level",
}


def _entry(name: str, kind: str, negate: bool, sets: tuple[str, ...] = ("lexical",)) -> MetricEntry:
    return MetricEntry(DESCRIPTIONS[name], lambda options: EditRate(name, kind, negate, options), sets)


METRICS: dict[str, MetricEntry] = {
    "-WER": _entry("-WER", "wer", True),
    "-PER": _entry("-PER", "per", True),
    "-TER": _entry("-TER", "ter", True),
    "-TERbase": _entry("-TERbase", "ter", True),
    "-CDER": _entry("-CDER", "cder", True),
    "CDER": _entry("CDER", "cder", False, ()),
}
