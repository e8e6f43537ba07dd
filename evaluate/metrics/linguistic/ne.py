"""NE — named entities: words and whole entities by type (Asiya ``IQ::Scoring::NE``, spec §5).

Entities are stanza's (``ner``), their labels mapped to Asiya's types
(:data:`~checkpoints.evaluate.metrics.linguistic.elements.ASIYA_ENTITY_TYPES`)
unless the tagger's own labels are asked for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence, asiya_entity_type
from checkpoints.evaluate.metrics.linguistic.identifiers import Identifier
from checkpoints.evaluate.metrics.linguistic.overlap import Bags, Pair, micro, typed

OUTSIDE = "O"

Measure = Callable[[ParsedSentence, ParsedSentence], Pair]


def word_bags(sentence: ParsedSentence, native: bool = False) -> Bags:
    """Entity type → lower-cased forms of the words inside entities of that type; ``O`` → all other words."""
    def build() -> Bags:
        bags: dict[str, Counter[str]] = {}
        inside: set[int] = set()
        for entity in sentence.entities:
            kind = entity.label if native else asiya_entity_type(entity.label)
            bag = bags.setdefault(kind, Counter())
            for position in entity.words:
                bag[sentence.words[position].form.lower()] += 1
                inside.add(position)
        for position, word in enumerate(sentence.words):
            if position not in inside:
                bags.setdefault(OUTSIDE, Counter())[word.form.lower()] += 1
        return bags
    return sentence._cached(f"ne-words-{native}", build)


def element_bags(sentence: ParsedSentence, native: bool = False) -> Bags:
    """Entity type → its entities, each the lower-cased words joined by one space."""
    def build() -> Bags:
        bags: dict[str, Counter[str]] = {}
        for entity in sentence.entities:
            kind = entity.label if native else asiya_entity_type(entity.label)
            text = " ".join(sentence.words[position].form.lower() for position in entity.words)
            bags.setdefault(kind, Counter())[text] += 1
        return bags
    return sentence._cached(f"ne-elements-{native}", build)


def ne_measure(identifier: Identifier, native: bool = False) -> Measure:
    """NE-Oe(t) (t may be O), NE-Me(t); NE-Oe(*) pools the entity types, NE-Oe(**) O too, NE-Me(*) the entities."""
    measure, kind = identifier.measure, identifier.kind
    if measure not in ("Oe", "Me") or kind is None or (measure == "Me" and kind == "**"):
        raise UsageError(f"{identifier}: unknown NE metric (NE-Oe(TYPE|O|*|**), NE-Me(TYPE|*))")
    if measure == "Oe":
        def bags(sentence: ParsedSentence) -> Bags:
            return word_bags(sentence, native)
    else:
        def bags(sentence: ParsedSentence) -> Bags:
            return element_bags(sentence, native)
    if kind == "**":
        return lambda candidate, reference: micro(bags(candidate), bags(reference))
    if kind == "*":
        def entity_types(candidate: ParsedSentence, reference: ParsedSentence) -> Pair:
            c, r = bags(candidate), bags(reference)
            return micro(c, r, {name for name in (*c, *r) if name != OUTSIDE})
        return entity_types
    return lambda candidate, reference: typed(bags(candidate), bags(reference), kind)
