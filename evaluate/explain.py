"""Drill-down into one check-point and one system translation (Zhou Tables 8–9).

Shows, for each reference of the check-point: its DM, the n-grams that
matched (in the reference's own spelling, even under lower-case or stem
matching), matched/total, which reference formula (2) chose as r*, and the
check-point's score.

Two numbers describe the chosen reference and both are given: ``weighted``
is DM(r*)·matched/total, the value formula (2) maximises; ``score`` is the
recall (3) of the set {c}, in which DM(r*) cancels, leaving matched/total of
r*. Zhou Table 9 reports the latter ("Score 0.17" for 1/6 with DM = 0.5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from checkpoints.contractions import contraction_words, splitting_tokenizer
from checkpoints.evaluate.matching import (
    DEFAULT_MAX_ORDER,
    MatchMode,
    Ngram,
    candidate_match_tokens,
    ngram_matches,
    ngram_text,
    normalize_tokens,
    normalizer,
    reference_match_tokens,
    reference_ngram_list,
)
from checkpoints.model import GAP, CheckPoint
from checkpoints.tokenizers import get_tokenizer


@dataclass(frozen=True, slots=True)
class ReferenceMatch:
    """One reference of a check-point matched against a translation."""

    position: int
    """Index in ``CheckPoint.references``."""
    reference_index: int
    """Which reference translation of the pair it comes from."""
    tokens: list[str]
    """Match tokens with ``*`` gaps."""
    dm: float
    matched_ngrams: list[str]
    """Matched n-grams as text, each repeated as often as it counts after clipping."""
    matched: int
    total: int

    @property
    def ratio(self) -> float:
        return self.matched / self.total if self.total else 0.0

    @property
    def weighted(self) -> float:
        """DM·matched/total: what formula (2) maximises."""
        return self.dm * self.matched / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class CheckpointExplanation:
    checkpoint: CheckPoint
    translation: str
    translation_tokens: list[str]
    references: list[ReferenceMatch]
    chosen: int
    """Position of r* in ``references`` (first on ties), −1 without references."""

    @property
    def best(self) -> ReferenceMatch | None:
        return self.references[self.chosen] if self.chosen >= 0 else None

    @property
    def score(self) -> float:
        """Re({c}) = matched/total of r*: formulas (3) for one check-point, Zhou Table 9's "Score"."""
        return self.best.ratio if self.best else 0.0

    @property
    def weighted(self) -> float:
        """DM(r*)·matched/total of r*."""
        return self.best.weighted if self.best else 0.0


def _matched_texts(
    reference: ReferenceNgrams, candidate: Sequence[str], contiguous: Counter[Ngram]
) -> list[str]:
    """Matched n-grams in their original spelling, each as often as it counts after clipping.

    ``contiguous`` counts the candidate's gap-free n-grams (overlapping occurrences
    too, as :func:`ngram_matches` does), so a gap-free n-gram is one dictionary
    look-up; gapped ones are searched part by part.
    """
    matched: list[str] = []
    for key, text, count in reference.ngrams:
        found = ngram_matches(key, candidate) if GAP in key else contiguous.get(key, 0)
        matched.extend([text] * min(count, found))
    return matched


@dataclass(frozen=True, slots=True)
class ReferenceNgrams:
    """What matching needs of one check-point reference, whatever the translation."""

    tokens: tuple[str, ...]
    """Match tokens with ``*`` gaps."""
    ngrams: tuple[tuple[Ngram, str, int], ...]
    """Each distinct normalised n-gram, its text in the reference's own spelling (first occurrence) and its count."""
    total: int


@lru_cache(maxsize=256)
def _reference_ngrams(
    tokens: tuple[str, ...], tokenize: str, match: str, language: str | None, max_order: int | None
) -> ReferenceNgrams:
    """The reference side of :func:`explain`, kept for the next system's translation.

    The HTML report explains every check-point against every system in turn,
    so the same references come back once per system.
    """
    original, contraction_of = _split_words(reference_match_tokens(list(tokens), get_tokenizer(tokenize)), language)
    normalised = normalize_tokens(original, normalizer(match, language))
    positions = [token if token == GAP else str(i) for i, token in enumerate(original)]
    shown = [_spelled(ngram, original, contraction_of) for ngram in reference_ngram_list(positions, max_order)]
    keys = reference_ngram_list(normalised, max_order)
    counts: Counter[Ngram] = Counter(keys)
    spelled: dict[Ngram, str] = {}
    for key, text in zip(keys, shown, strict=True):
        spelled.setdefault(key, text)
    ngrams = tuple((key, spelled[key], count) for key, count in counts.items())
    return ReferenceNgrams(tuple(original), ngrams, len(keys))


def _split_words(words: list[str], language: str | None) -> tuple[list[str], dict[int, tuple[int, str]]]:
    """``words`` with the language's contractions split, as matching sees them, and for the first
    word of each split contraction its number of words and the contraction as written."""
    out: list[str] = []
    contraction_of: dict[int, tuple[int, str]] = {}
    for word in words:
        parts = contraction_words(word, language) if word != GAP else None
        if parts is None:
            out.append(word)
        else:
            contraction_of[len(out)] = (len(parts), word)
            out.extend(parts)
    return out, contraction_of


def _spelled(positions: Ngram, words: list[str], contraction_of: dict[int, tuple[int, str]]) -> str:
    """An n-gram of word positions as the drill-down shows it: a contraction whose words it
    holds all is written as in the text ("antes del", not "antes de el"), so that the
    report can find it in a translation; a part of one stays that word."""
    out: list[str] = []
    index = 0
    while index < len(positions):
        position = positions[index]
        if position == GAP:
            out.append(GAP)
            index += 1
            continue
        start = int(position)
        size, written = contraction_of.get(start, (0, ""))
        following = [int(p) for p in positions[index : index + size] if p != GAP]
        if size and following == list(range(start, start + size)):
            out.append(written)
            index += size
        else:
            out.append(words[start])
            index += 1
    return ngram_text(out)


def explain(
    checkpoint: CheckPoint,
    translation: str,
    *,
    tokenize: str = "words",
    match: MatchMode | str = MatchMode.NORMAL,
    language: str | None = None,
    max_order: int | None = DEFAULT_MAX_ORDER,
) -> CheckpointExplanation:
    """Match every reference of ``checkpoint`` against ``translation`` and pick r*.

    ``language`` is the target language, needed for stem matching;
    ``max_order`` the longest n-gram counted (None: all).
    """
    sides = [
        _reference_ngrams(tuple(reference.tokens), tokenize, str(match), language, max_order)
        for reference in checkpoint.references
    ]
    longest = max((len(side.tokens) for side in sides), default=0)
    limit = longest if max_order is None else min(max_order, longest)
    candidate_tokens, candidate, contiguous = _candidate(translation, tokenize, str(match), language, limit)
    references = []
    for position, (reference, side) in enumerate(zip(checkpoint.references, sides, strict=True)):
        matched_ngrams = _matched_texts(side, candidate, contiguous)
        references.append(
            ReferenceMatch(
                position=position,
                reference_index=reference.reference_index,
                tokens=list(side.tokens),
                dm=float(reference.dm),
                matched_ngrams=matched_ngrams,
                matched=len(matched_ngrams),
                total=side.total,
            )
        )
    chosen = -1
    for match_ in references:
        if chosen < 0 or match_.weighted > references[chosen].weighted:
            chosen = match_.position
    return CheckpointExplanation(checkpoint, translation, list(candidate_tokens), references, chosen)


@lru_cache(maxsize=16)
def _candidate(
    translation: str, tokenize: str, match: str, language: str | None, limit: int
) -> tuple[tuple[str, ...], tuple[str, ...], Counter[Ngram]]:
    """A translation's match tokens, their normalised form and its gap-free n-grams up to ``limit`` words.

    The check-points of one sentence pair are explained against the same
    translation one after another (``show --category``, the HTML report), so
    the last few are kept; the cache is small and holds single sentences.
    """
    tokens = candidate_match_tokens(translation, splitting_tokenizer(get_tokenizer(tokenize), language))
    normalize = normalizer(match, language)
    candidate = tuple(normalize(word) for word in tokens)
    contiguous = Counter(
        candidate[start : start + size] for size in range(1, limit + 1) for start in range(len(candidate) - size + 1)
    )
    return tuple(tokens), candidate, contiguous
