"""SR — semantic roles from UD-derived proto-roles (Asiya ``IQ::Scoring::SR`` measures; spec §6).

No semantic role labeller ships with stanza (Asiya ran SwiRL), so the roles
come from deterministic rules over the UD tree, in the tradition of PredPatt
and Deep UD: subjects are A0 (A1 when passive or copular), objects and
clausal complements A1, indirect objects and plain obliques A2, and a few
modifiers get ``AM-`` labels from their relation, features and the entity
tags (negation, time, place, manner, modals, discourse markers). Control,
shared subjects of coordinated verbs and relative clauses give implicit
arguments. Every report and signature says ``roles:ud-proto-1``: these are
proto-roles read off syntax, not a trained labeller's.

Known limits: unaccusative subjects get A0 where PropBank has A1; numbering
is by syntax, not by roleset; no A3–A5, DIR, CAU, PNC, EXT, PRD; TMP and LOC
need NER; raising, long-distance control, ellipsis and gapping are not
resolved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence, Word, asiya_entity_type
from checkpoints.evaluate.metrics.linguistic.identifiers import Identifier
from checkpoints.evaluate.metrics.linguistic.overlap import (
    Bags,
    Pair,
    hits_total,
    micro,
    ratio,
    typed,
)

ROLES_VERSION = "ud-proto-1"

AGENT = {"en": {"by"}, "es": {"por"}, "fr": {"par"}, "de": {"von", "durch"}, "it": {"da"}, "pt": {"por"},
         "ca": {"per"}, "nl": {"door"}}
"""Adpositions that mark the agent of a passive verb."""
MODAL = {"en": {"can", "could", "may", "might", "must", "shall", "should", "will", "would", "ought"},
         "es": {"poder", "deber", "soler"}, "fr": {"pouvoir", "devoir"},
         "de": {"können", "müssen", "dürfen", "sollen", "wollen", "mögen", "werden"},
         "it": {"potere", "dovere", "volere"}, "pt": {"poder", "dever"}}
MANNER = {"en": "ly", "es": "mente", "pt": "mente", "it": "mente", "fr": "ment", "ca": "ment"}
"""The suffix of manner adverbs (quickly, rápidamente)."""
SUBJECTS = ("nsubj", "csubj")
NOT_COPULAR_COMPLEMENTS = frozenset({
    "nsubj", "csubj", "cop", "aux", "mark", "advmod", "obl", "advcl", "discourse", "cc", "punct", "parataxis",
    "conj", "vocative", "expl", "dislocated", "ccomp", "xcomp", "obj", "iobj"})
UNPRODUCED = frozenset({"A3", "A4", "A5", "AA", "AM-CAU", "AM-DIR", "AM-EXT", "AM-PNC", "AM-PRD", "AM-REC"})
"""Role names Asiya knows that these rules never produce: accepted, always undefined."""

Measure = Callable[[ParsedSentence, ParsedSentence], Pair]


@dataclass(frozen=True, slots=True)
class Proposition:
    """A predicate (its key: the verb's lemma, ``give up`` with a particle, the copula's lemma) and its arguments."""

    key: str
    arguments: tuple[tuple[str, tuple[int, ...]], ...]
    """``(role, word indices)`` in the order found; indices 1-based."""


def _language(language: str | None) -> str:
    return (language or "").split("-")[0].lower()


def _entity_types(sentence: ParsedSentence) -> dict[int, str]:
    """Word index (1-based) → Asiya type of the entity it is in."""
    return {position + 1: asiya_entity_type(entity.label) for entity in sentence.entities for position in entity.words}


def _is_passive(sentence: ParsedSentence, head: Word) -> bool:
    if head.feats.get("Voice") == "Pass":
        return True
    return any(sentence.word(child).deprel in ("aux:pass", "nsubj:pass", "csubj:pass")
               for child in sentence.children.get(head.index, ()))


def _role(sentence: ParsedSentence, head: Word, dependent: Word, copular: bool, language: str,
          entities: dict[int, str]) -> str | None:
    """The role of one dependent of a predicate: the first row of the spec's table that matches."""
    deprel, base = dependent.deprel, dependent.base
    if base in SUBJECTS and not deprel.endswith(":pass"):
        return "A1" if copular else "A0"
    if deprel in ("nsubj:pass", "csubj:pass") or base in ("obj", "ccomp"):
        return "A1"
    if base == "iobj":
        return "A2"
    if base == "xcomp":
        return "A1" if dependent.upos == "VERB" else "A2"
    if deprel == "obl:agent" or (base == "obl" and _is_passive(sentence, head) and any(
            sentence.word(child).deprel == "case" and sentence.word(child).lemma.lower() in AGENT.get(language, ())
            for child in sentence.children.get(dependent.index, ()))):
        return "A0"
    if base == "advmod" and dependent.feats.get("Polarity") == "Neg":
        return "AM-NEG"
    if deprel == "obl:tmod" or (base in ("obl", "advmod") and entities.get(dependent.index) in ("DATE", "TIME")):
        return "AM-TMP"
    if base == "obl" and entities.get(dependent.index) == "LOC":
        return "AM-LOC"
    if deprel in ("obl", "obl:arg"):
        return "A2"
    if base == "obl":
        return "AM-ADV"
    if base == "advmod":
        suffix = MANNER.get(language)
        lemma = dependent.lemma.lower()
        if suffix and lemma.endswith(suffix) and len(lemma) >= len(suffix) + 3:
            return "AM-MNR"
        return "AM-ADV"
    if base == "advcl":
        return "AM-ADV"
    if deprel == "aux" and (dependent.feats.get("VerbType") == "Mod" or (language == "en" and dependent.xpos == "MD")
                            or dependent.lemma.lower() in MODAL.get(language, ())):
        return "AM-MOD"
    if base == "discourse" or (base == "cc" and head.base != "conj"):
        return "AM-DIS"
    return None


def _span(sentence: ParsedSentence, indices: list[int]) -> tuple[int, ...]:
    """Word indices in order, leading and trailing punctuation removed."""
    words = sorted(indices)
    while words and sentence.word(words[0]).upos == "PUNCT":
        words.pop(0)
    while words and sentence.word(words[-1]).upos == "PUNCT":
        words.pop()
    return tuple(words)


def _first(sentence: ParsedSentence, head: int, bases: tuple[str, ...]) -> Word | None:
    for child in sentence.children.get(head, ()):
        if sentence.word(child).base in bases:
            return sentence.word(child)
    return None


def propositions(sentence: ParsedSentence, language: str | None) -> list[Proposition]:
    """Every predicate of the sentence with its arguments (spec §6.1–§6.3)."""
    def build() -> list[Proposition]:
        lang = _language(language)
        entities = _entity_types(sentence)
        found = []
        for head in sentence.words:
            children = [sentence.word(child) for child in sentence.children.get(head.index, ())]
            copula = next((child for child in children if child.deprel == "cop"), None)
            if head.upos != "VERB" and copula is None:
                continue
            copular = head.upos != "VERB"
            if copular:
                key = copula.lemma.lower()  # type: ignore[union-attr]
            else:
                particle = next((child for child in children if child.deprel == "compound:prt"), None)
                key = head.lemma.lower() + (f" {particle.lemma.lower()}" if particle else "")
            arguments: list[tuple[str, tuple[int, ...]]] = []
            for child in children:
                role = _role(sentence, head, child, copular, lang, entities)
                if role is not None:
                    arguments.append((role, _span(sentence, sentence.subtree(child.index))))
            if copular:
                complement = [head.index]
                for child in children:
                    if child.base not in NOT_COPULAR_COMPLEMENTS:
                        complement.extend(sentence.subtree(child.index))
                arguments.append(("A2", _span(sentence, complement)))
            arguments.extend(_implicit(sentence, head, children, arguments))
            found.append(Proposition(key, tuple((role, span) for role, span in arguments if span)))
        return found
    return sentence._cached(f"sr-propositions-{_language(language)}", build)


def _implicit(sentence: ParsedSentence, head: Word, children: list[Word],
              arguments: list[tuple[str, tuple[int, ...]]]) -> list[tuple[str, tuple[int, ...]]]:
    """Arguments PropBank links to traces: control, shared subjects, relative clauses (spec §6.3)."""
    has_subject = any(child.base in SUBJECTS for child in children)
    implicit: list[tuple[str, tuple[int, ...]]] = []
    governor = head.head
    if head.upos == "VERB" and head.deprel == "xcomp" and not has_subject and governor:
        controller = _first(sentence, governor, ("obj",)) or _first(sentence, governor, SUBJECTS)
        if controller is not None:
            implicit.append(("A0", _span(sentence, sentence.subtree(controller.index))))
    if head.upos == "VERB" and head.base == "conj" and not has_subject and governor:
        shared = _first(sentence, governor, ("nsubj",))
        if shared is not None:
            implicit.append(("A1" if _is_passive(sentence, head) else "A0", _span(sentence, sentence.subtree(shared.index))))
    if governor and head.deprel in ("acl:relcl", "acl"):
        own = set(sentence.subtree(head.index))
        antecedent = _span(sentence, [index for index in sentence.subtree(governor) if index not in own])
        if head.deprel == "acl:relcl":
            for role, span in arguments:
                relative = [index for index in span if sentence.word(index).feats.get("PronType") == "Rel"
                            and sentence.word(index).head == head.index]
                if relative:
                    implicit.append((role, antecedent))
        elif head.upos == "VERB" and not has_subject:
            passive = head.feats.get("Voice") == "Pass" or (
                head.feats.get("VerbForm") == "Part" and head.feats.get("Tense") == "Past")
            implicit.append(("A1" if passive else "A0", antecedent))
    return implicit


@dataclass(frozen=True, slots=True)
class RoleBags:
    """What the SR measures compare, for one sentence (spec §6.4)."""

    bow: Bags
    vbow: Bags
    exact: Bags
    vexact: Bags
    bor: Counter[str]
    vbor: Counter[str]
    verbs: Counter[str]
    words: Counter[str]
    predicates: int
    ok: bool
    """At least one predicate with at least one argument."""


def role_bags(sentence: ParsedSentence, language: str | None) -> RoleBags:
    def build() -> RoleBags:
        bow: dict[str, Counter[str]] = {}
        vbow: dict[str, Counter[str]] = {}
        exact: dict[str, Counter[str]] = {}
        vexact: dict[str, Counter[str]] = {}
        bor: Counter[str] = Counter()
        vbor: Counter[str] = Counter()
        found = propositions(sentence, language)
        for proposition in found:
            verb = proposition.key
            for role, span in proposition.arguments:
                words = [sentence.word(index).form.lower() for index in span]
                for word in words:
                    bow.setdefault(role, Counter())[word] += 1
                    vbow.setdefault(role, Counter())[f"{verb}##{word}"] += 1
                    bor[role] += 1  # once per word, as Asiya counts
                    vbor[f"{verb}##{role}"] += 1
                phrase = " ".join(words)
                exact.setdefault(role, Counter())[phrase] += 1
                vexact.setdefault(role, Counter())[f"{verb}##{phrase}"] += 1
        return RoleBags(
            bow, vbow, exact, vexact, bor, vbor, Counter(p.key for p in found),
            Counter(word.form.lower() for word in sentence.words), len(found),
            any(proposition.arguments for proposition in found),
        )
    return sentence._cached(f"sr-bags-{_language(language)}", build)


def precision_recall(candidate: Bags, reference: Bags) -> tuple[float, float]:
    """Over the types present on both sides: Σ min / Σ candidate counts, Σ min / Σ reference counts."""
    shared = set(candidate) & set(reference)
    hits = sum(hits_total(candidate[kind], reference[kind])[0] for kind in shared)
    proposed = sum(sum(candidate[kind].values()) for kind in shared)
    expected = sum(sum(reference[kind].values()) for kind in shared)
    return ratio(hits, proposed), ratio(hits, expected)


BAGS = {"Or": "bow", "Mr": "exact", "Orv": "vbow", "Mrv": "vexact"}
PRF = {"Pr": ("bow", 0), "Rr": ("bow", 1), "Fr": ("bow", 2), "MPr": ("exact", 0), "MRr": ("exact", 1),
       "MFr": ("exact", 2)}


def sr_measure(identifier: Identifier, language: str | None) -> Measure:
    """The base SR measures; a segment where either side has no predicate with an argument is left out."""
    measure, kind = identifier.measure, identifier.kind
    score: Callable[[RoleBags, RoleBags], Pair] | None = None
    if measure in BAGS and kind is not None:
        field = BAGS[measure]
        if kind == "*":
            def score(c: RoleBags, r: RoleBags) -> Pair:
                return micro(getattr(c, field), getattr(r, field))
        elif kind.upper() in UNPRODUCED:
            def score(c: RoleBags, r: RoleBags) -> Pair:
                return 0.0, 0.0
        else:
            def score(c: RoleBags, r: RoleBags) -> Pair:
                return typed(getattr(c, field), getattr(r, field), kind)
    elif measure in PRF and kind == "*":
        field, which = PRF[measure]

        def score(c: RoleBags, r: RoleBags) -> Pair:
            precision, recall = precision_recall(getattr(c, field), getattr(r, field))
            f = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            return (precision, recall, f)[which], 1.0
    elif kind is None and measure in ("Or", "Orv", "Ov", "Ol", "Nv"):
        if measure == "Nv":
            def score(c: RoleBags, r: RoleBags) -> Pair:
                gap = abs(r.predicates - c.predicates)
                return (1.0 if gap == 0 else 1.0 / gap), 1.0
        else:
            field = {"Or": "bor", "Orv": "vbor", "Ov": "verbs", "Ol": "words"}[measure]

            def score(c: RoleBags, r: RoleBags) -> Pair:
                return ratio(*hits_total(getattr(c, field), getattr(r, field))), 1.0
    if score is None:
        if measure in ("Ora", "Mra"):
            raise UsageError(f"{identifier}: the alignment-based SR measures are not part of Asiya 3.0's SR family")
        raise UsageError(f"{identifier}: unknown SR metric (SR-Or(*|ROLE), SR-Mr, SR-Orv, SR-Mrv, SR-Or, SR-Orv, "
                         "SR-Ov, SR-Nv, SR-Ol, SR-Pr(*), SR-Rr(*), SR-Fr(*), SR-MPr(*), SR-MRr(*), SR-MFr(*))")
    chosen = score

    def measured(candidate: ParsedSentence, reference: ParsedSentence) -> Pair:
        c, r = role_bags(candidate, language), role_bags(reference, language)
        if not (c.ok and r.ok):
            return 0.0, 0.0
        return chosen(c, r)
    return measured
