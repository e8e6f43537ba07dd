"""Confidence estimation (CE): Asiya's measures of a translation without a reference.

Each measure compares the candidate with its source (lengths, symbols,
part-of-speech, chunk and entity bags, dictionary translations) or asks a
language model how fluent one side is. Segment measures give ``(num,
weight)`` as every linguistic metric does (spec §1.4): the bag overlaps and
the chunk/entity counts are pooled over the test set (``hits, total``), the
rest are means of segment scores (``score, 1``).

Lengths, symbols and language models count surface tokens (a multi-word
token such as Spanish "del" once); the bags count syntactic words.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from checkpoints.evaluate.metrics.linguistic.elements import (
    ParsedSentence,
    asiya_entity_type,
    chunk_types,
)
from checkpoints.evaluate.metrics.linguistic.lm import LmScore
from checkpoints.evaluate.metrics.linguistic.overlap import Pair, hits_total, ratio

SYMBOLS = frozenset([
    *".,!?'\"()[]{}$%&/\\=*-_|<>@€#£",
    "\u0060", "\u00b4", "\u2018", "\u2019", "\u02bc", "\u00ab", "\u00bb", "\u201c", "\u201d",
    *(chr(code) for code in range(0x2010, 0x2016)), "\u207b", "\u208b", "\u2212", "\u2026",
])
"""The punctuation and currency symbols Asiya's CE-symbols compares (the set its Perl source meant
to list; its hash literal loses some entries, spec §11 D17)."""

NUMBER = re.compile(r"[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf(inity)?|nan)", re.IGNORECASE)
"""Perl's ``looks_like_number`` for the strings a tokenizer writes ("2,000" is not a number)."""

ENTITY_TYPES = frozenset({"PER", "LOC", "ORG", "MISC"})
"""The entity types CE-Oe and CE-Ne compare."""

LENGTH_FACTORS = {("en", "es"): 272396865 / 244144301, ("ca", "es"): 65748722 / 68494845}
"""Asiya's length compression α (target tokens per source token in its training corpora); the
reverse direction is 1/α, any other pair 1 unless ``--ce-length-factor`` says otherwise."""

MAX_NGRAM = 5
"""Longest dictionary n-gram CE-BiDict looks up (Asiya's ``retrieve_mixed_ngrams``)."""


def length_factor(source_language: str, target_language: str) -> float:
    """Asiya's α for a language pair (1 where it has none)."""
    if (source_language, target_language) in LENGTH_FACTORS:
        return LENGTH_FACTORS[source_language, target_language]
    if (target_language, source_language) in LENGTH_FACTORS:
        return 1.0 / LENGTH_FACTORS[target_language, source_language]
    return 1.0


def is_number(token: str) -> bool:
    return NUMBER.fullmatch(token) is not None


def symbol_bag(tokens: Sequence[str]) -> Counter[str]:
    return Counter(token for token in tokens if token in SYMBOLS or is_number(token))


# -- the measures of one (source, candidate) pair ------------------------------------------


def srclen(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    n = len(source.tokens)
    return (1.0 / n if n else 0.0), 1.0


def length(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    scaled, n_c = alpha * len(source.tokens), len(candidate.tokens)
    longer = max(scaled, n_c)
    return (min(scaled, n_c) / longer if longer else 0.0), 1.0


def long(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    """α·n_s / max(α·n_s, n_c): the manual leaves α out, Asiya's code does not (spec §11 D1)."""
    scaled, n_c = alpha * len(source.tokens), len(candidate.tokens)
    longer = max(scaled, n_c)
    return (scaled / longer if longer else 0.0), 1.0


def short(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    scaled, n_c = alpha * len(source.tokens), len(candidate.tokens)
    longer = max(scaled, n_c)
    return (n_c / longer if longer else 0.0), 1.0


def symbols(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    return ratio(*hits_total(symbol_bag(candidate.tokens), symbol_bag(source.tokens))), 1.0


def upos_overlap(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    hits, total = hits_total(Counter(w.upos for w in candidate.words), Counter(w.upos for w in source.words))
    return float(hits), float(total)


def chunks_of(sentence: ParsedSentence) -> list[str]:
    """One item per chunk: its type (CHUNK-UD, spec §2.2)."""
    return [kind for label, kind in zip(sentence.chunks, chunk_types(sentence.chunks), strict=True)
            if label.startswith("B-")]


def entities_of(sentence: ParsedSentence) -> list[str]:
    """The types of the sentence's person, place, organisation and miscellaneous names (Asiya's names)."""
    return [kind for entity in sentence.entities if (kind := asiya_entity_type(entity.label)) in ENTITY_TYPES]


def chunk_overlap(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    hits, total = hits_total(Counter(chunks_of(candidate)), Counter(chunks_of(source)))
    return float(hits), float(total)


def entity_overlap(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    hits, total = hits_total(Counter(entities_of(candidate)), Counter(entities_of(source)))
    return float(hits), float(total)


def chunk_count(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    counts = len(chunks_of(source)), len(chunks_of(candidate))
    return float(min(counts)), float(max(counts))


def entity_count(source: ParsedSentence, candidate: ParsedSentence, alpha: float) -> Pair:
    counts = len(entities_of(source)), len(entities_of(candidate))
    return float(min(counts)), float(max(counts))


PairMeasure = Callable[[ParsedSentence, ParsedSentence, float], Pair]

PAIR_MEASURES: dict[str, tuple[PairMeasure, str]] = {
    "CE-srclen": (srclen, "1 / source length in tokens"),
    "CE-length": (length, "min/max of the candidate's length and the source's length times α"),
    "CE-long": (long, "source length times α over the longer of it and the candidate's length"),
    "CE-short": (short, "candidate length over the longer of it and the source's length times α"),
    "CE-symbols": (symbols, "overlap of the punctuation, symbols and numbers of source and candidate"),
    "CE-Op": (upos_overlap, "overlap of source and candidate parts of speech (pooled)"),
    "CE-Oc": (chunk_overlap, "overlap of source and candidate chunk types (pooled)"),
    "CE-Oe": (entity_overlap, "overlap of source and candidate PER/LOC/ORG/MISC entity types (pooled)"),
    "CE-Nc": (chunk_count, "min/max of the numbers of chunks of source and candidate (pooled)"),
    "CE-Ne": (entity_count, "min/max of the numbers of PER/LOC/ORG/MISC entities of source and candidate (pooled)"),
}
"""Measures of a (source, candidate) pair that need only the parses and α."""

NEEDS_NER = frozenset({"CE-Oe", "CE-Ne"})


# -- language models -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LmMeasure:
    """``CE-{src}{logp,ippl,oov}{,P,C}``: which side, which sequence, which number."""

    side: str
    """``candidate`` or ``source``."""
    sequence: str
    """``words`` (surface tokens), ``pos`` (UPOS tags) or ``chunks`` (one type per chunk)."""
    value: str
    """``logp``, ``ippl`` or ``oov``."""

    @property
    def model_kind(self) -> str:
        return {"words": "lm", "pos": "pos-lm", "chunks": "chunk-lm"}[self.sequence]

    def items(self, sentence: ParsedSentence, lowercase: bool) -> list[str]:
        if self.sequence == "pos":
            return [word.upos for word in sentence.words]
        if self.sequence == "chunks":
            return chunks_of(sentence)
        return [token.lower() for token in sentence.tokens] if lowercase else list(sentence.tokens)

    def of(self, score: LmScore) -> float:
        if self.value == "logp":
            return score.logp
        return score.ippl if self.value == "ippl" else score.known


def lm_measures() -> dict[str, tuple[LmMeasure, str]]:
    """Every language-model identifier (Asiya's names, spec §11 D14) with its definition."""
    found = {}
    what = {"logp": "log10 probability", "ippl": "inverse perplexity", "oov": "share of in-vocabulary tokens"}
    of = {"words": "", "pos": " of the part-of-speech sequence", "chunks": " of the chunk-type sequence"}
    for side, prefix in (("candidate", "CE-"), ("source", "CE-src")):
        for sequence, suffix in (("words", ""), ("pos", "P"), ("chunks", "C")):
            for value in ("logp", "ippl", "oov"):
                if value == "oov" and sequence != "words":
                    continue
                found[f"{prefix}{value}{suffix}"] = (
                    LmMeasure(side, sequence, value),
                    f"{what[value]}{of[sequence]} of the {side} under its language's model")
    return found


LM_MEASURES = lm_measures()


# -- the bilingual dictionary (spec §9.2) ----------------------------------------------------


def mixed_ngrams(sentence: ParsedSentence, longest: int = MAX_NGRAM) -> Counter[str]:
    """Asiya's mixed n-grams: for n = 1..5 and each start, the distinct strings made by taking each
    word's lower-cased form or its lemma; a string counts once per start position."""
    choices = [sorted({word.form.lower(), word.lemma.lower()}) for word in sentence.words]
    grams: Counter[str] = Counter()
    for n in range(1, min(longest, len(choices)) + 1):
        for start in range(len(choices) - n + 1):
            strings = {""}
            for options in choices[start:start + n]:
                strings = {f"{prefix} {option}" if prefix else option for prefix in strings for option in options}
            grams.update(strings)
    return grams


@dataclass(slots=True)
class BilingualDictionary:
    """Source string → its translations (lower-cased), as the build's dictionary readers give them."""

    entries: Mapping[str, frozenset[str]]
    description: str = ""
    _ngrams: dict[int, Counter[str]] = field(default_factory=dict, repr=False)

    def ambiguity(self, source: ParsedSentence) -> Pair:
        """``CE-BiDictA``: 1 / the mean number of translations of the source n-grams the dictionary
        has (each weighted by its count); 0 when it has none of them."""
        grams = mixed_ngrams(source)
        found = {gram: count for gram, count in grams.items() if gram in self.entries}
        if not found:
            return 0.0, 1.0
        mean = sum(len(self.entries[gram]) * count for gram, count in found.items()) / sum(found.values())
        return 1.0 / mean, 1.0

    def overlap(self, source: ParsedSentence, candidate: ParsedSentence) -> Pair:
        """``CE-BiDictO``: how many of the source n-grams' dictionary translations the candidate has."""
        source_grams, candidate_grams = mixed_ngrams(source), mixed_ngrams(candidate)
        hits = total = 0
        for gram, count in source_grams.items():
            translations = self.entries.get(gram)
            if translations is None:
                continue
            found = sum(candidate_grams.get(translation, 0) for translation in translations)
            hits += min(count, found)
            total += max(count, found)
        return ratio(hits, total), 1.0


# -- LeM (spec §9.3) -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LengthModel:
    """Pouliquen et al.'s length model: the candidate/source character ratio against its mean and
    standard deviation over a parallel corpus."""

    mean: float
    deviation: float

    @classmethod
    def from_corpus(cls, sources: Sequence[str], targets: Sequence[str]) -> LengthModel:
        ratios = [characters(t) / characters(s) for s, t in zip(sources, targets, strict=True) if characters(s)]
        if not ratios:
            raise ValueError("no source line with characters")
        mean = sum(ratios) / len(ratios)
        return cls(mean, math.sqrt(sum((r - mean) ** 2 for r in ratios) / len(ratios)))

    def score(self, source: str, candidate: str) -> Pair:
        n_source = characters(source)
        if not n_source or self.deviation <= 0:
            return 0.0, 1.0
        z = (characters(candidate) / n_source - self.mean) / self.deviation
        return math.exp(-0.5 * z * z), 1.0


def characters(text: str) -> int:
    """Characters without spaces."""
    return sum(1 for character in text if not character.isspace())
