"""SP — shallow parsing: lemmas by part of speech and by base-phrase chunk (Asiya ``IQ::Scoring::SP``, spec §2).

Chunks come from the UD tree (:func:`~checkpoints.evaluate.metrics.linguistic.elements.chunk_labels`),
not from a chunker of its own, so SP runs for every language stanza parses.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence, bags_of, chunk_types
from checkpoints.evaluate.metrics.linguistic.identifiers import Identifier
from checkpoints.evaluate.metrics.linguistic.overlap import Bags, Pair, class_pooled, micro, typed

COARSE_CLASSES = (
    ("J", re.compile(r"^JJ")), ("N", re.compile(r"^NN")), ("P", re.compile(r"^PRP")), ("R", re.compile(r"^RB")),
    ("V", re.compile(r"^(VB|MD)")), ("W", re.compile(r"^W")), ("F", re.compile(r"^[#$'(),.:`]")),
)
"""English coarse classes of PTB tags: the first pattern that matches the fine tag wins."""


def coarse_class(tag: str) -> str | None:
    for name, pattern in COARSE_CLASSES:
        if pattern.match(tag):
            return name
    return None


def tag_bags(sentence: ParsedSentence) -> Bags:
    """Fine tag → lower-cased lemmas of its words."""
    return sentence._cached("sp-tags", lambda: bags_of((word.tag, word.lemma.lower()) for word in sentence.words))


def chunk_bags(sentence: ParsedSentence) -> Bags:
    """Chunk type (``O`` for words outside chunks) → lower-cased lemmas of its words."""
    return sentence._cached("sp-chunks", lambda: bags_of(
        (kind, word.lemma.lower()) for word, kind in zip(sentence.words, chunk_types(sentence.chunks), strict=True)))


Measure = Callable[[ParsedSentence, ParsedSentence], Pair]


def sp_measure(identifier: Identifier, language: str | None) -> Measure:
    """The segment measure of an SP identifier (SP-Op, SP-Oc and their types; the NIST variants are
    not here)."""
    if identifier.measure not in ("Op", "Oc") or identifier.kind is None:
        raise UsageError(f"{identifier}: unknown SP metric (SP-Op(TAG), SP-Op(*), SP-Oc(CHUNK), SP-Oc(*))")
    bags = tag_bags if identifier.measure == "Op" else chunk_bags
    kind = identifier.kind
    if kind == "*":
        return lambda candidate, reference: micro(bags(candidate), bags(reference))
    if identifier.measure == "Op" and kind.upper() in dict(COARSE_CLASSES):
        if language is not None and language.split("-")[0] != "en":
            raise UsageError(f"{identifier}: J, N, P, R, V, W and F are Asiya's classes of English (PTB) tags; "
                             f"for {language} name a tag the parser writes, e.g. SP-Op(NOUN)")
        wanted = kind.upper()

        def coarse(candidate: ParsedSentence, reference: ParsedSentence) -> Pair:
            c, r = bags(candidate), bags(reference)
            members = {tag for tag in (*c, *r) if coarse_class(tag) == wanted}
            return class_pooled(c, r, members)
        return coarse
    return lambda candidate, reference: typed(bags(candidate), bags(reference), kind)
