"""Metric combinations usable wherever a metric name is: ``ULC(BLEU,METEOR-ex,-TER)``, ``QUEEN(BLEU,ROUGE-L)``.

Asiya combines metrics with its ``-eval ulc`` and ``-eval queen`` schemes
(Asiya 3.0 source, ``ULC::compute_normalized_ULC`` and ``QARLA::QUEEN``);
here a combination is one more :class:`~checkpoints.evaluate.metrics.base.Metric`,
named by its parts, so the metric runner scores it at every granularity and
tests it with the same resampling engine as any other metric.

ULC (uniformly averaged linear combination)
    At each granularity ``g`` and for each part ``m``, the bounds are taken
    over every scored output's ``g``-level scores (every system, and every
    reference with ``--include-refs``, as Asiya), both anchored at 0:
    ``hi = max(0, max x)``, ``lo = min(0, min x)``. A score is normalised to
    ``(x − lo) / (hi − lo)`` when ``lo < 0`` (negated error rates such as
    ``-TER``: the best possible 0 maps to 1), else to ``x / hi`` (0 when
    ``hi`` is 0: Asiya's safe division). ULC is the mean of the normalised
    part scores. So a system's ULC is the ULC of the parts' *system* scores
    (not a mean of segment ULCs), a document's of their document scores, a
    segment's of their segment scores, each with its own level's bounds.

    The bounds depend on the whole test bed, so a ULC metric is *fitted*
    (:meth:`ULC.fit`) on every output's statistics before it scores. Its
    statistics are the parts' statistics side by side, and its score
    function applies the fitted system-level bounds to the parts' scores of
    summed statistics. Resampling therefore keeps the bounds fixed: the
    significance test asks whether two systems differ under that one fixed
    linear combination of the parts (re-fitting the bounds on every resample
    would change the weights with the sample, and would make one pair's test
    depend on systems outside the pair).

QUEEN (QARLA, Amigó et al. 2005, as Asiya implements it)
    At one segment, over the samples ``(r, r', r'')`` with ``r`` any
    reference and ``(r', r'')`` an ordered pair of distinct references,
    QUEEN is the share of samples where every part ``x`` has
    ``x(a, r) ≥ x(r', r'')``, each similarity the part's segment score
    against one reference (:func:`checkpoints.evaluate.queen.queen_counts`).
    Document and system QUEEN pool the counts (Σ hits / Σ samples; every
    segment has the same number of samples, so this is the mean of segment
    QUEEN, as IQMT's tables imply). Asiya's document accumulator is never
    reset (a bug, digest §17 item 23); documents here are scored separately.
    The statistics ``[hits, samples]`` of a segment depend on that segment's
    references only, so resampling is exact.

    *Rule*: QUEEN needs at least three references, as Asiya (which stops with
    "QUEEN computation requires at least three references!!") and IQMT
    require. With ``--include-refs`` each reference is a peer of the others
    (two references as models, as in KING's leave-one-out). IQMT's
    trans-topic mode, which borrows reference pairs from other segments so
    that two references suffice, is not offered as a metric: Asiya has no
    such mode, and a segment's QUEEN would then depend on the whole test set;
    ``checkpoints qarla`` offers it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.base import (
    Aggregation,
    Granularity,
    Metric,
    MetricCache,
    MetricOptions,
    check_corpus,
    mean_score,
)
from checkpoints.evaluate.queen import queen_counts
from checkpoints.signature import Signature

COMBINERS = ("ULC", "QUEEN")
QUEEN_MIN_REFERENCES = 3

_FORM = re.compile(r"^\s*([^\s(),]+)\s*\((.*)\)\s*$", re.DOTALL)


def split_metric_list(value: str) -> list[str]:
    """``-m`` values: names separated by commas *outside* parentheses, so ``ULC(BLEU,chrF),-TER``
    is two names. Empty items (a trailing comma, as Asiya allows) are dropped."""
    return [canonical_name(item) for item in _top_level_items(value) if item.strip()]


def _top_level_items(value: str) -> list[str]:
    """``value`` split at the commas outside parentheses (a typed name ``SP-Op(*)`` stays whole)."""
    items: list[str] = []
    depth, start = 0, 0
    for position, char in enumerate(value):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise UsageError(f"metric list {value.strip()!r}: ')' without '('")
        elif char == "," and depth == 0:
            items.append(value[start:position])
            start = position + 1
    if depth:
        raise UsageError(f"metric list {value.strip()!r}: '(' without ')'")
    items.append(value[start:])
    return items


@dataclass(frozen=True, slots=True)
class CombinationName:
    kind: str
    """``ULC`` or ``QUEEN``."""
    parts: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.kind}({','.join(self.parts)})"


def parse_combination(name: str) -> CombinationName | None:
    """``KIND(PART,...)``, or None for a plain metric name (``BLEU``, or a typed one: ``SP-Op(NN)``).

    Spaces around names are ignored; parts are named once each and do not
    nest (a typed part such as ``SP-Op(*)`` is a name, not a combination). Whether each part is a metric is the registry's to say
    (:func:`checkpoints.evaluate.metrics.registry.entry`).
    """
    if "(" not in name and ")" not in name:
        return None
    if "-" in name.split("(", 1)[0]:  # FAMILY-Measure(type): a linguistic metric's type, not a combination
        return None
    match = _FORM.match(name)
    if match is None:
        raise UsageError(f"metric {name.strip()!r}: write a combination as ULC(NAME,...) or QUEEN(NAME,...)")
    kind, inner = match.group(1), match.group(2)
    if kind not in COMBINERS:
        folded = {combiner.lower(): combiner for combiner in COMBINERS}
        hint = f"did you mean {folded[kind.lower()]}?" if kind.lower() in folded else "choose ULC or QUEEN"
        raise UsageError(f"unknown metric combination {kind!r} ({hint})")
    parts = tuple(part.strip() for part in _top_level_items(inner))
    if any("(" in part and "-" not in part.split("(", 1)[0] for part in parts):
        raise UsageError(f"{kind}: combinations do not nest, name plain metrics in {name.strip()!r}")
    if not any(parts):
        raise UsageError(f"{kind}() names no metric: give {kind}(NAME,...)")
    if not all(parts):
        raise UsageError(f"{kind}({inner.strip()}): an empty metric name")
    repeated = sorted({part for part in parts if parts.count(part) > 1})
    if repeated:
        raise UsageError(f"{kind}({','.join(parts)}) names {', '.join(repeated)} more than once")
    return CombinationName(kind, parts)


def canonical_name(name: str) -> str:
    """The name as reports print it: spaces removed inside a combination, stripped outside."""
    parsed = parse_combination(name)
    return str(parsed) if parsed is not None else name.strip()


class Combination(Metric):
    """A metric made of registered metrics (its ``parts``), which share the run's cache."""

    kind: str = ""

    def __init__(self, parts: Sequence[Metric], options: MetricOptions | None = None) -> None:
        super().__init__(options)
        if not parts:
            raise UsageError(f"{self.kind} needs at least one metric")
        self.parts = tuple(parts)
        self.name = f"{self.kind}({','.join(part.name for part in self.parts)})"

    @property
    def cache(self) -> MetricCache:
        return Metric.cache.fget(self)  # type: ignore[attr-defined]

    @cache.setter
    def cache(self, value: MetricCache) -> None:
        # The parts share what the run already computed (tokens, reference tables) with plain metrics.
        self._cache = value
        for part in self.parts:
            part.cache = value

    def signature(self) -> Signature:
        """The combination's fields, then every part's own fields under ``PART.key`` (its tokenizer and case
        only where they differ from the combination's), so the signature says exactly what was combined."""
        own = super().signature()
        fields: dict[str, object] = {}
        for part in self.parts:
            for key, value in part.signature().items():
                if key == "metric" or (key in {"tok", "case"} and own.get(key) == value):
                    continue
                fields[f"{part.name}.{key}"] = value
        return own.with_fields(fields)


class ULC(Combination):
    """Asiya's uniformly averaged linear combination of normalised metric scores (module docstring)."""

    kind = "ULC"
    description = "uniform linear combination of metrics normalised over the test bed (Asiya's ULC)"
    aggregation = Aggregation.COMBINED
    fitted = True

    def __init__(self, parts: Sequence[Metric], options: MetricOptions | None = None) -> None:
        super().__init__(parts, options)
        widths = [part.n_stats for part in self.parts]
        edges = np.cumsum([0, *widths])
        self._slices = [slice(int(a), int(b)) for a, b in pairwise(edges)]
        self._bounds: dict[Granularity, tuple[np.ndarray, np.ndarray]] = {}

    @property
    def n_stats(self) -> int:
        return int(sum(part.n_stats for part in self.parts))

    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        return np.concatenate([part.segment_stats(hypothesis, references, source) for part in self.parts])

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        check_corpus(hypotheses, references)
        blocks = [np.asarray(part.corpus_stats(hypotheses, references, sources), dtype=np.float64) for part in self.parts]
        return np.hstack([block.reshape(len(hypotheses), part.n_stats) for block, part in zip(blocks, self.parts, strict=True)])

    def part_scores(self, stats: np.ndarray, level: Granularity) -> np.ndarray:
        """Each part's scores ``(..., parts)``: of summed statistics (sys, doc) or of each segment row."""
        stats = np.asarray(stats, dtype=np.float64)
        columns = []
        for part, columns_of in zip(self.parts, self._slices, strict=True):
            own = stats[..., columns_of]
            scores = part.segment_scores(own) if level is Granularity.SEG else part.score(own)
            columns.append(np.broadcast_to(np.asarray(scores, dtype=np.float64), stats.shape[:-1]))
        return np.stack(columns, axis=-1)

    def fit(self, statistics: Mapping[str, np.ndarray], doc_ids: Sequence[str]) -> None:
        """Asiya's bounds at each level, over every scored output (systems, and references when scored)."""
        if not statistics:
            raise UsageError(f"{self.name} needs at least one scored output to normalise over")
        documents = list(dict.fromkeys(doc_ids))
        position = {doc: index for index, doc in enumerate(documents)}
        doc_index = np.fromiter((position[doc] for doc in doc_ids), dtype=np.intp, count=len(doc_ids))
        values: dict[Granularity, list[np.ndarray]] = {level: [] for level in Granularity}
        for stats in statistics.values():
            stats = np.asarray(stats, dtype=np.float64)
            sums = np.zeros((len(documents), stats.shape[1]))
            np.add.at(sums, doc_index, stats)
            values[Granularity.SYS].append(self.part_scores(stats.sum(axis=0), Granularity.SYS)[None])
            values[Granularity.DOC].append(self.part_scores(sums, Granularity.DOC))
            values[Granularity.SEG].append(self.part_scores(stats, Granularity.SEG))
        for level, blocks in values.items():
            every = np.concatenate(blocks, axis=0)
            with np.errstate(invalid="ignore"):
                low = np.minimum(0.0, np.nanmin(every, axis=0)) if every.size else np.zeros(len(self.parts))
                high = np.maximum(0.0, np.nanmax(every, axis=0)) if every.size else np.zeros(len(self.parts))
            self._bounds[level] = (np.nan_to_num(low), np.nan_to_num(high))

    def bounds(self, level: Granularity) -> tuple[np.ndarray, np.ndarray]:
        """``(lo, hi)`` per part at ``level``; a ULC that was never fitted cannot score."""
        try:
            return self._bounds[level]
        except KeyError:
            raise UsageError(
                f"{self.name} is normalised over a whole test bed: score it with the metric runner"
            ) from None

    def normalised(self, stats: np.ndarray, level: Granularity) -> np.ndarray:
        low, high = self.bounds(level)
        values = self.part_scores(stats, level)
        shifted = low < 0
        span = np.where(shifted, high - low, high)
        numerator = np.where(shifted, values - low, values)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(span > 0, numerator / np.where(span > 0, span, 1.0), 0.0)

    def score(self, stats: np.ndarray) -> np.ndarray:
        """ULC of summed statistics with the *system-level* bounds: system scores and resampled ones."""
        return self.normalised(stats, Granularity.SYS).mean(axis=-1)

    def document_scores(self, sums: np.ndarray) -> np.ndarray:
        return self.normalised(sums, Granularity.DOC).mean(axis=-1)

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return self.normalised(stats, Granularity.SEG).mean(axis=-1)

    def signature_extras(self) -> dict[str, str]:
        return {"norm": "asiya-0-anchored", "resample-norm": "fixed"}


class QUEEN(Combination):
    """QARLA's QUEEN of a candidate over the parts, as Asiya computes it (module docstring)."""

    kind = "QUEEN"
    description = "QARLA QUEEN: share of reference triples every metric accepts (Asiya's queen)"
    aggregation = Aggregation.MEAN

    @property
    def n_stats(self) -> int:
        return 2

    def check_references(self, n_references: int) -> None:
        if n_references < QUEEN_MIN_REFERENCES:
            raise UsageError(
                f"{self.name} needs at least {QUEEN_MIN_REFERENCES} references, not {n_references} "
                "(Asiya's rule; `checkpoints qarla --trans-topic` works with two)"
            )

    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        return self.corpus_stats([hypothesis], [[reference] for reference in references],
                                 None if source is None else [source])[0]

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        """``[hits, samples]`` per segment, with ``references`` as QUEEN's models (at least two: one
        pair ``(r', r'')``; the three-reference rule is :meth:`check_references`)."""
        check_corpus(hypotheses, references)
        n_models, n_segments = len(references), len(hypotheses)
        if n_models < 2:
            raise UsageError(f"{self.name} needs at least two references as models, not {n_models}")
        peers = np.empty((len(self.parts), 1, n_segments, n_models))
        between = np.full((len(self.parts), n_segments, n_models, n_models), np.nan)
        for x, part in enumerate(self.parts):
            for k, reference in enumerate(references):
                peers[x, 0, :, k] = self._similarity(part, hypotheses, reference, sources)
                for j, other in enumerate(references):
                    if j != k:
                        between[x, :, k, j] = self._similarity(part, reference, other, sources)
        hits, samples = queen_counts(peers, between, range(n_models), trans_topic=False)
        return np.column_stack([hits[0].astype(np.float64), np.full(n_segments, float(samples))])

    def _similarity(
        self, part: Metric, candidate: Sequence[str], reference: Sequence[str], sources: Sequence[str] | None
    ) -> np.ndarray:
        """``x(candidate, reference)`` per segment: the part's segment score against one reference,
        kept in the run's cache (reference pairs recur for every system)."""

        def build() -> np.ndarray:
            stats = np.asarray(part.corpus_stats(candidate, [reference], sources), dtype=np.float64)
            return np.asarray(part.segment_scores(stats), dtype=np.float64).reshape(len(candidate))

        key = ("combination-similarity", part.name, tuple(candidate), tuple(reference))
        return self.cache.get(key, build)

    def score(self, stats: np.ndarray) -> np.ndarray:
        return mean_score(stats)


FACTORIES = {"ULC": ULC, "QUEEN": QUEEN}


def describe_combination(name: CombinationName) -> str:
    return f"{FACTORIES[name.kind].description} over {', '.join(name.parts)}"
