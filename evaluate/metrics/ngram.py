"""Asiya's NGRAM family: cosine and Jaccard similarity over token and character n-grams.

Asiya's manual (asiya-reference §5.1) names the measures but defines them only
in words: "cosine and Jaccard similarity over token and character n-grams,
n ∈ [2, 5]", "Jaccard over pseudo-prefixes (the first 4 characters of each
token)", and ``NGRAM-lenratio`` with no description at all. The definitions
used here:

* Items are n-grams of exactly order n, counted as multisets (an n-gram
  repeated in a sentence counts as often as it occurs), built from the
  segment's tokens (configured tokenizer, lower-cased with ``case=ci``).
  Token n-grams are n consecutive tokens; character n-grams are n
  consecutive characters of the tokens joined by single spaces, so n-grams
  that span a word boundary contain the space that marks it.
* ``cos`` = ``Σ_g c(g)·r(g) / (‖c‖·‖r‖)`` over the count vectors;
  ``jac`` = ``Σ_g min(c(g), r(g)) / Σ_g max(c(g), r(g))``, the multiset
  Jaccard of Asiya's overlap measures (§4.1).
* ``NGRAM-jacCognates`` = ``jac`` over the multisets of token prefixes of at
  most 4 characters ("pseudo-cognates").
* ``NGRAM-lenratio`` = ``min(|C|, |R|) / max(|C|, |R|)`` in tokens: 1 for
  equal lengths, symmetric, in [0, 1].
* Any division by zero (a segment without n-grams of the order) gives 0, as
  Asiya's safe division.

Like Asiya's other lexical similarity families, the segment score is the
maximum over references and system and document scores are the mean of the
segment scores (:class:`MeanOfSegments`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.base import (
    MetricCache,
    MetricOptions,
    ReferenceKey,
    TableMeanOfSegments,
    check_corpus,
)
from checkpoints.evaluate.metrics.overlap import Tokens, cached_tokens, check_options, safe_divide
from checkpoints.evaluate.metrics.registry import MetricEntry

ORDERS = range(2, 6)
PREFIX_LENGTH = 4
UNITS = ("Tok", "Char")
SIMILARITIES = ("cos", "jac")


def token_ngrams(tokens: Tokens, order: int) -> Counter[Tokens]:
    return Counter([tokens[i:i + order] for i in range(len(tokens) - order + 1)])


def char_ngrams(tokens: Tokens, order: int) -> Counter[str]:
    text = " ".join(tokens)
    return Counter([text[i:i + order] for i in range(len(text) - order + 1)])


def prefixes(tokens: Tokens) -> Counter[str]:
    return Counter(token[:PREFIX_LENGTH] for token in tokens)


def cosine(candidate: Counter, reference: Counter) -> float:
    """Cosine of two count vectors; 0 when either is empty."""
    dot = sum(count * reference[item] for item, count in candidate.items() if item in reference)
    norms = math.sqrt(sum(c * c for c in candidate.values())) * math.sqrt(sum(r * r for r in reference.values()))
    return safe_divide(dot, norms)


def jaccard(candidate: Counter, reference: Counter) -> float:
    """Multiset Jaccard ``Σ min / Σ max``; 0 when both are empty."""
    hits = sum(min(count, reference[item]) for item, count in candidate.items() if item in reference)
    union = sum(candidate.values()) + sum(reference.values()) - hits
    return safe_divide(hits, union)


def length_ratio(candidate: Tokens, reference: Tokens) -> float:
    return safe_divide(min(len(candidate), len(reference)), max(len(candidate), len(reference)))


Items = Callable[[Tokens], Counter]
Similarity = Callable[[Counter, Counter], float]


@cache
def parts(name: str) -> tuple[str, Items, Similarity] | None:
    """What an NGRAM measure compares: its kind of items (``"Char3"``: shared by the cosine and
    the Jaccard measure), how they are extracted, and the similarity; None for NGRAM-lenratio."""
    if name not in DESCRIPTIONS:
        raise UsageError(f"unknown NGRAM measure {name!r}")
    if name == "NGRAM-lenratio":
        return None
    if name == "NGRAM-jacCognates":
        return "Cognates", prefixes, jaccard
    body = name.removeprefix("NGRAM-").removesuffix("ngrams")
    similarity, unit, order = body[:3], body[3:-1], int(body[-1])
    extract = token_ngrams if unit == "Tok" else char_ngrams
    return f"{unit}{order}", lambda tokens: extract(tokens, order), jaccard if similarity == "jac" else cosine


class NgramSimilarity(TableMeanOfSegments):
    """One NGRAM measure: items extracted from both sides, compared, best reference kept."""

    def __init__(self, name: str, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        check_options(self.options)
        parts(name)
        self.name = name
        self.description = DESCRIPTIONS[name]

    def corpus_stats(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> np.ndarray:
        key = check_corpus(hypotheses, references)
        scores = segment_maxima(self.cache, self.name, self.options.tokenize, self.options.lowercase, hypotheses, key)
        return np.column_stack([scores, np.ones(len(hypotheses))])

    def signature_extras(self) -> dict[str, str]:
        return {"refs": "max"}


def segment_maxima(cache: MetricCache, name: str, tokenize: str, lowercase: bool, hypotheses: Sequence[str],
                   references: ReferenceKey) -> np.ndarray:
    """Per-segment maximum over references of one measure.

    Identical (segment, hypothesis) pairs — frequent across systems — are
    scored once per reference corpus and run.
    """
    tokens = cached_tokens(cache, tokenize, lowercase)
    seen: dict[tuple[int, str], float] = cache.get(("ngram", name, tokenize, lowercase, references), dict)
    found = parts(name)
    if found is None:
        def against(index: int, candidate: Tokens) -> float:
            return max(length_ratio(candidate, tokens(reference_set[index])) for reference_set in references)
    else:
        kind, items, similarity = found
        # The references' items, extracted once for every system and for both similarities.
        reference_items: dict[int, list[Counter]] = cache.get(  # type: ignore[type-arg]
            ("ngram-items", kind, tokenize, lowercase, references), dict)

        def against(index: int, candidate: Tokens) -> float:
            counted = reference_items.get(index)
            if counted is None:
                counted = reference_items[index] = [items(tokens(reference_set[index])) for reference_set in references]
            candidate_items = items(candidate)
            return max(similarity(candidate_items, reference) for reference in counted)
    scores = np.empty(len(hypotheses))
    for index, hypothesis in enumerate(hypotheses):
        entry = (index, hypothesis)
        score = seen.get(entry)
        if score is None:
            score = seen[entry] = against(index, tokens(hypothesis))
        scores[index] = score
    return scores


_WORDS = {"cos": "cosine", "jac": "multiset Jaccard", "Tok": "token", "Char": "character"}

DESCRIPTIONS: dict[str, str] = {
    f"NGRAM-{similarity}{unit}{order}ngrams":
        f"{_WORDS[similarity]} similarity of {_WORDS[unit]} {order}-gram counts; max over refs, mean of segments"
    for similarity in SIMILARITIES for unit in UNITS for order in ORDERS
}
DESCRIPTIONS["NGRAM-jacCognates"] = (
    "multiset Jaccard of token prefixes of up to 4 characters (pseudo-cognates); max over refs, mean of segments"
)
DESCRIPTIONS["NGRAM-lenratio"] = "token length ratio min(|C|,|R|) / max(|C|,|R|); max over refs, mean of segments"


def _factory(name: str) -> Callable[[MetricOptions], NgramSimilarity]:
    return lambda options: NgramSimilarity(name, options)


METRICS: dict[str, MetricEntry] = {name: MetricEntry(description, _factory(name))
                                   for name, description in DESCRIPTIONS.items()}
