"""GTM-1, GTM-2, GTM-3: the General Text Matcher (Melamed, Green & Turian 2003; GTM 1.4 in Asiya).

GTM compares a candidate C and a reference R through their *bitext grid*: a
hit wherever a candidate word equals a reference word. A matching uses each
candidate and each reference word at most once; its maximal diagonal runs of
hits (contiguous in both texts, same order) are its *runs*, and its size is

    MMS_e = (Σ_runs |run|^e)^(1/e)

so with e = 1 it counts matched words and with e > 1 it rewards long runs.
Precision = MMS/|C|, recall = MMS/|R|, and GTM is their F-measure
2PR/(P+R) (GTM's default report, which Asiya reads).

**Matching.** The maximum-size matching is NP-hard for e > 1; GTM takes the
longest run first: it repeatedly picks the longest run of hits whose rows and
columns are still free, keeps it and blocks its rows and columns, until no hit
is left. Runs that cross a blocked row or column are cut at it. Ties between
equally long runs go to the one starting first in the candidate, then in the
reference. The runs chosen do not depend on e, so GTM-1/2/3 share one
matching per segment; with e = 1 the greedy result is the maximum matching
(Σ over words of min(count in C, count in R)), i.e. unigram F.

**Aggregation.** A segment's statistics are ``[MMS_e, |C|, |R|]``; system
and document scores divide the summed MMS by the summed lengths
(``Aggregation.CORPUS``), so a long segment weighs more than a short one and
a corpus score stays on the scale of segment scores. (Taking the e-th root of
run weights pooled over the whole corpus instead, as one block-diagonal grid
would, makes every corpus score with e > 1 shrink towards 0 as the corpus
grows: about 0.016 for GTM-2 on 529 TED segments.) Asiya reads GTM's
system score and averages segment scores for its documents; here documents
are scored like the system, from their own sums.

**Several references.** The candidate is matched against each reference and
the reference giving the highest segment F is kept (the first one on ties);
its statistics enter the sums.

The corpus and multi-reference rules above are this implementation's
decisions: GTM 1.4's own code, which would settle how it pools a corpus and
several references, was not available to check them against.

Tokens come from the project tokenizer (``--tokenize``), lower-cased with
``--case ci``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from checkpoints.evaluate.metrics.base import Aggregation, Metric, MetricOptions
from checkpoints.evaluate.metrics.overlap import segment_tokens
from checkpoints.evaluate.metrics.registry import MetricEntry

EXPONENTS = (1, 2, 3)


def greedy_runs(candidate: tuple[str, ...], reference: tuple[str, ...]) -> tuple[int, ...]:
    """Lengths of the runs GTM's longest-run-first matching selects, in the order selected."""
    positions: dict[str, list[int]] = {}
    for j, token in enumerate(reference):
        positions.setdefault(token, []).append(j)
    hits = {(i, j) for i, token in enumerate(candidate) for j in positions.get(token, ())}
    # Maximal diagonal runs: (length, candidate start, reference start).
    runs = []
    for i, j in hits:
        if (i - 1, j - 1) not in hits:
            length = 1
            while (i + length, j + length) in hits:
                length += 1
            runs.append((length, i, j))
    used_rows: set[int] = set()
    used_columns: set[int] = set()
    selected: list[int] = []
    while runs:
        length, i0, j0 = min(runs, key=lambda run: (-run[0], run[1], run[2]))
        selected.append(length)
        used_rows.update(range(i0, i0 + length))
        used_columns.update(range(j0, j0 + length))
        runs = [piece for run in runs for piece in _free_pieces(run, used_rows, used_columns)]
    return tuple(selected)


def _free_pieces(run: tuple[int, int, int], used_rows: set[int], used_columns: set[int]) -> list[tuple[int, int, int]]:
    """The parts of a run whose cells lie in free rows and columns."""
    length, i0, j0 = run
    pieces = []
    start = None
    for t in range(length + 1):
        free = t < length and (i0 + t) not in used_rows and (j0 + t) not in used_columns
        if free and start is None:
            start = t
        elif not free and start is not None:
            pieces.append((t - start, i0 + start, j0 + start))
            start = None
    return pieces


def matching_size(runs: Sequence[int], exponent: float) -> float:
    """MMS_e = (Σ |run|^e)^(1/e)."""
    return float(sum(length**exponent for length in runs) ** (1.0 / exponent))


def gtm_scores(stats: np.ndarray) -> np.ndarray:
    """F-measure from summed ``[MMS, |C|, |R|]``, vectorised over leading axes; 0 where undefined."""
    stats = np.asarray(stats, dtype=np.float64)
    mms, candidate, reference = stats[..., 0], stats[..., 1], stats[..., 2]
    precision = np.divide(mms, candidate, out=np.zeros_like(mms), where=candidate > 0)
    recall = np.divide(mms, reference, out=np.zeros_like(mms), where=reference > 0)
    total = precision + recall
    return np.divide(2 * precision * recall, total, out=np.zeros_like(mms), where=total > 0)


class GTM(Metric):
    """GTM-e: F-measure of GTM's maximum matching size with run exponent e."""

    aggregation = Aggregation.CORPUS

    def __init__(self, exponent: int, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        self.exponent = exponent
        self.name = f"GTM-{exponent}"
        self.description = _description(exponent)

    @property
    def n_stats(self) -> int:
        return 3

    def _tokens(self, text: str) -> tuple[str, ...]:
        # GTM-1/2/3 (and METEOR) share the tokens of each text within a run.
        tokenize, lowercase = self.options.tokenize, self.options.lowercase
        return self.cache.memo(("segment-tokens", tokenize, lowercase),
                               lambda: lambda text: segment_tokens(text, tokenize, lowercase))(text)

    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        # GTM-1/2/3 share the matching of each pair within a run: the runs do not depend on e.
        runs = self.cache.memo("gtm-runs", lambda: greedy_runs)
        tokens = self._tokens
        candidate = tokens(hypothesis)
        rows = np.array([
            [matching_size(runs(candidate, reference), self.exponent), len(candidate), len(reference)]
            for reference in map(tokens, references)
        ], dtype=np.float64).reshape(-1, 3)
        if len(rows) == 0:
            return np.array([0.0, float(len(candidate)), 0.0])
        return rows[int(np.argmax(self.score(rows)))]

    def score(self, stats: np.ndarray) -> np.ndarray:
        return gtm_scores(stats)

    def signature_extras(self) -> dict[str, str]:
        return {"gtm": "1.4", "e": str(self.exponent), "match": "longest-run-first", "refs": "best"}


def _description(exponent: int) -> str:
    what = "unigram F (bag of words)" if exponent == 1 else f"runs weighted |run|^{exponent}, rewarding word order"
    return f"GTM-{exponent}: F-measure of GTM's maximum matching size, e = {exponent}: {what}"


def _factory(exponent: int) -> Callable[[MetricOptions], GTM]:
    return lambda options: GTM(exponent, options)


METRICS: dict[str, MetricEntry] = {
    f"GTM-{e}": MetricEntry(_description(e), _factory(e)) for e in EXPONENTS
}
