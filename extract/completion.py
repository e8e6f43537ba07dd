"""References completed on the target side: the function words an aligner leaves out.

An aligner links words that translate each other; the words a language
adds of its own to say the same thing get no link: the auxiliary of a
compound tense where the source has a simple one ("tried" → "a essayé",
"went" → "est allé"), the clitic of a pronominal verb ("se han beneficiado",
"s'avança", "trafen sich"), a separable particle ("fing ... an"), the
preposition a verb, adverb or adjective governs where the source has none
("attending the funeral" → "asistió al funeral", "near the border" → "cerca
de la frontera"), the words inside one word's multi-word translation
("Wales" → "Pays de Galles"). A reference read from the links alone misses
them and so never matches a correct translation as a whole.

Each such unlinked word is *attached* to the linked reference word it
belongs to, read from the reference's own parse, and joins every reference
that word is in (:meth:`Completion.complete`):

* **verb forms**: a passive auxiliary (``aux:pass``: "was conducted" for
  進行 as much as for "was held"), a tense or mood auxiliary (``aux``,
  ``aux:tense``, ...) where the source word carries tense, aspect or mood of
  its own (:data:`MARKED_FEATURES`), a pronominal or passive clitic (``expl:pv``,
  ``expl:pass``, a reflexive pronoun: ``Reflex=Yes`` or a reflexive lemma),
  or a separable particle (``compound:prt``) attaches to its head verb, and an
  unlinked verb to its linked particle ("dredged" linked to "aus" of
  "baggerte ... aus"); an impersonal subject ("on", "man") by which the
  target says a passive actively joins the word that translates the passive
  verb ("were denied" → "On a refusé", "can be viewed" → "on peut voir");
* **degree**: the adverb by which a language compares analytically ("plus",
  "más", "più", "mais") joins the adjective or adverb it modifies where that
  translates a source word compared in one word ("higher" → "plus élevé",
  "biggest" → "plus fortement"; ``Degree=Cmp`` or ``Sup`` in the source);
* **governed prepositions**: a preposition that introduces a later word and
  directly follows a linked word attaches to it when that word translates a
  source preposition and governs the nominal ("cerca de la frontera" for
  "near the border": a complex preposition), or when a dictionary translation
  of the source word has the two together ("assister à" for "attend"); and a
  preposition that introduces a verb's complement attaches to the verb where
  the source says that complement bare, as its object ("attending the
  funeral" → "asistió a el funeral", 導致 X → "resulted in X");
* **a source genitive**: the preposition or clitic by which the target says
  a case the source marks on its noun (``Case=Gen``: "des Rennens" → "of the
  race", "Edgars Filme" → "Edgar's films") joins the word linked to the
  noun's genitive article or possessive, else the noun. Measured on the
  en→de gold read as de→en (``benchmarks/reference_quality.py --pair
  de-en``, three builds): exact references 0.812 → 0.844;
* **circumpositions**: the unlinked half of a preposition in two parts joins
  the linked half where that translates a source preposition ("in" → 在 …
  中, "from" → 從 … 中);
* **inside one word's translation**: the words between two words linked to
  the same single source word, and to nothing else, attach to them, when
  they are one word ("comic book artist" for 漫畫家) or function words only
  ("Pays de Galles" for "Wales");
* **a pronoun's article**: the article of a relative, possessive or
  indefinite pronoun joins the pronoun ("which" → "la cual", "what" → "lo
  que", "one of" → "l'un des"): it is part of the pronoun's form.
* **an enclosed subordinator**: an unlinked subordinator (``mark``) of a
  reference word joins when it lies inside the reference, between two of its
  words ("tout en manipulant" for "while handling", "est à venir" for "is to
  come", "began to fall"); at a reference's edge it stays out, since there it
  may as well belong to the next clause. Only a subordinator proper
  (``mark``): the particle by which Chinese marks a relative or adverbial
  modifier (的, ``mark:rel``, ``mark:prt``) is, like an article, what the
  target's grammar adds, and the gold leaves it out (原創 技術 for "an
  original technique", not 原創 的 技術). Measured on single builds (seed 1)
  of the hand-aligned PUD dev pairs: exact references 0.860 → 0.861
  (en→fr), token F1 0.9199 → 0.9202 (en→de) and 0.9583 → 0.9584 (en→es),
  zh→en unchanged.

What stays out. **Articles** the target adds to a noun: the one rule, measured
both ways on the hand-aligned PUD dev pairs (three eflomal builds each,
``benchmarks/reference_quality.py``), is that an unlinked article does not
join its noun — with articles joining, exact references fall from 0.900 to
0.831 (en→es), 0.804 to 0.689 (en→fr), 0.825 to 0.791 (en→de) and 0.711 to
0.648 (zh→en): "datos" is the translation of "data", "los datos" of "the
data". Also left out: copulas, and tense auxiliaries where the source word
carries no tense of its own (a Chinese verb: "accepted" for 接受, not "had
accepted": 14 of 15 such English auxiliaries are unlinked in the zh→en gold,
where every passive one joins its verb), a preposition joining two nouns,
and the preposition of a name or pronoun object (Spanish marks a personal
object with "a": "felicitar a Andy" for "congratulate Andy"). The
preposition joining two nouns stays out even where it lies between two words
of one reference ("performance pay" → "prime * rendement", not "prime de
rendement"): the hand-aligned gold leaves it unlinked, and with every such
case marker whose noun is in the reference joining, exact references fall by
0.019 (en→es) and 0.009 (en→fr), and change by +0.002 (en→de) and -0.002
(zh→en) on single builds; the gap also lets a translation with another
preposition there match. A word linked to anything, however wrongly, is
never attached: it translates something, so where that lies outside a
check-point's words it is a gap (``*``) there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from checkpoints.extract.lexicon import Lexicon
from checkpoints.model import Alignment, Sentence, Token

VERB_FORM_RELATIONS = frozenset({"aux", "expl:pv", "expl:pass", "compound:prt"})
"""Relations (and, for ``aux``, its subtypes) whose unlinked dependent is part of its head's verb form."""

IMPERSONAL_LEMMAS = frozenset({"on", "man"})
"""Impersonal subject pronouns by which a language says a passive actively ("were denied" → "on a refusé",
"can be viewed" → "man kann sehen"): unlinked, they join the verb that translates the passive one."""

REFLEXIVE_LEMMAS = frozenset({"se", "sich", "si", "zich", "się", "sig", "sebe", "soi", "ся"})
"""Reflexive pronoun lemmas for treebanks that do not mark ``Reflex=Yes`` (French PUD's "se")."""

GOVERNED_RELATIONS = frozenset({"case", "mark", "fixed"})
PREPOSITION_UPOS = frozenset({"ADP", "SCONJ"})
"""Source words that a complex preposition ("cerca de", "au-dessus de") translates."""

FUNCTION_UPOS = frozenset({"ADP", "DET", "PRON", "PART", "CCONJ", "SCONJ", "AUX", "PUNCT"})
"""Function words and punctuation, which may sit anywhere inside one word's multi-word translation."""

DEGREE_LEMMAS = frozenset({"plus", "moins", "más", "menos", "più", "meno", "mais", "més", "menys"})
"""Adverbs by which Romance languages form comparatives and superlatives ("plus élevé", "más alto")."""

MARKED_FEATURES = ("Tense", "VerbForm", "Mood", "Aspect")
"""Features that show a source verb carries tense, aspect or mood of its own."""


@dataclass(frozen=True, slots=True)
class Completion:
    """The unlinked words of one reference sentence and the linked word each belongs to."""

    attached: dict[int, int]
    """Unlinked reference word → the reference word it joins."""

    enclosed: dict[int, int]
    """Unlinked subordinator → the reference word it joins when it lies between two words of the reference."""

    @classmethod
    def of(cls, source: Sentence, reference: Sentence, alignment: Alignment, lexicon: Lexicon) -> Completion:
        sources_of: dict[int, set[int]] = {}
        for s, t in alignment.links:
            sources_of.setdefault(t, set()).add(s)
        tokens = reference.tokens
        attached: dict[int, int] = {}
        enclosed: dict[int, int] = {}
        for j in range(len(tokens)):
            if j in sources_of:
                continue
            anchor = _verb_form_head(source.tokens, tokens, j, sources_of)
            if anchor is None:
                anchor = _degree_head(source.tokens, tokens, j, sources_of)
            if anchor is None:
                anchor = _genitive_case(source.tokens, tokens, j, sources_of)
            if anchor is None:
                anchor = _governor(source.tokens, tokens, j, sources_of, lexicon)
            if anchor is None:
                anchor = _verb_case(source.tokens, tokens, j, sources_of)
            if anchor is None:
                anchor = _inside_one_translation(tokens, j, sources_of)
            if anchor is None:
                anchor = _circumposition(source.tokens, tokens, j, sources_of)
            if anchor is None:
                anchor = _case_of_a_noun_for_a_verb(source.tokens, tokens, j, sources_of)
            if anchor is None:
                anchor = _particle_verb(tokens, j, sources_of)
            if anchor is None:
                anchor = _article_of_a_pronoun(tokens, j, sources_of)
            if anchor is not None:
                attached[j] = anchor
            elif tokens[j].deprel == "mark" and tokens[j].head > 0:
                enclosed[j] = tokens[j].head - 1
        return cls(attached, enclosed)

    def complete(self, indices: Iterable[int]) -> list[int]:
        """``indices`` with every unlinked word attached to one of them (attachments chain), and
        every subordinator of one of them that lies between two of them."""
        chosen = set(indices)
        if not chosen or not (self.attached or self.enclosed):
            return sorted(chosen)
        changed = True
        while changed:
            changed = False
            for word, anchor in self.attached.items():
                if word not in chosen and anchor in chosen:
                    chosen.add(word)
                    changed = True
            first, last = min(chosen), max(chosen)
            for word, head in self.enclosed.items():
                if word not in chosen and head in chosen and first < word < last:
                    chosen.add(word)
                    changed = True
        return sorted(chosen)


def is_reflexive(token: Token) -> bool:
    """A reflexive pronoun: marked ``Reflex=Yes``, or a reflexive lemma where the treebank does not mark it."""
    return token.upos == "PRON" and (token.feats.get("Reflex") == "Yes" or token.lemma.lower() in REFLEXIVE_LEMMAS)


def _particle_verb(tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]]) -> int | None:
    """An unlinked verb whose separable particle is linked joins the particle: the aligner
    gave "dredged" to "aus" of "baggerte ... aus", and the verb belongs with it. Not for a
    pronoun: the Spanish PUD marks a verb's enclitic ("hacerlo") ``compound:prt``, and "lo"
    translates an object of its own."""
    if tokens[j].upos != "VERB":
        return None
    for k, token in enumerate(tokens):
        if token.head - 1 == j and token.deprel == "compound:prt" and token.upos != "PRON" and k in sources_of:
            return k
    return None


def _verb_form_head(
    source: Sequence[Token], tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]]
) -> int | None:
    token = tokens[j]
    head = token.head - 1
    if head < 0 or head not in sources_of:
        return None
    relation = token.deprel
    if relation.split(":")[0] == "aux" and relation != "aux:pass":
        return head if any(_carries_form(source[s]) for s in sources_of[head]) else None
    if relation in VERB_FORM_RELATIONS or relation == "aux:pass":
        return head
    if relation == "nsubj" and token.lemma.lower() in IMPERSONAL_LEMMAS:
        return _passive_translation(source, head, sources_of)
    return head if is_reflexive(token) and tokens[head].upos in ("VERB", "AUX") else None


def _degree_head(
    source: Sequence[Token], tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]]
) -> int | None:
    token = tokens[j]
    head = token.head - 1
    if (token.upos != "ADV" or token.deprel.split(":")[0] != "advmod" or token.lemma.lower() not in DEGREE_LEMMAS
            or head < 0 or head not in sources_of):
        return None
    compared = any(source[s].feats.get("Degree") in ("Cmp", "Sup") for s in sources_of[head])
    return head if compared else None


def _passive_translation(source: Sequence[Token], head: int, sources_of: dict[int, set[int]]) -> int | None:
    """The reference word that translates a passive source verb, for an impersonal subject of
    ``head``: ``head`` itself when it does, else the word linked to the passive verb whose
    auxiliary ``head`` translates ("on" of "on peut voir" joins "voir" of "can be viewed", not
    "peut": the modal "can" alone is no passive)."""
    passive = [s for s in sources_of[head] if _is_passive(source, s)]
    if passive:
        return head
    for s in sorted(sources_of[head]):
        verb = source[s].head - 1
        if source[s].deprel.split(":")[0] == "aux" and verb >= 0 and _is_passive(source, verb):
            linked = sorted(t for t, sources in sources_of.items() if verb in sources)
            return linked[0] if linked else None
    return None


def _is_passive(tokens: Sequence[Token], index: int) -> bool:
    """A passive verb: one with a passive auxiliary or subject, or marked ``Voice=Pass``."""
    if tokens[index].feats.get("Voice") == "Pass":
        return True
    return any(token.head - 1 == index and token.deprel in ("aux:pass", "nsubj:pass") for token in tokens)


GENITIVE_SOURCE_UPOS = frozenset({"NOUN", "PROPN"})
"""Source words whose genitive case the target may say with a preposition or a clitic."""

POSSESSOR_RELATIONS = frozenset({"det", "nmod:poss"})
"""Target relations of the word that says a genitive article or possessive ("the", "his")."""


def _genitive_case(
    source: Sequence[Token], tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]]
) -> int | None:
    """The word that says a source genitive, for the unlinked case marker by which the target says
    it: "des Rennens" → "of the race", "Edgars Filme" → "Edgar 's films", "seines Vaters" → "his
    father 's". The source marks the case on its noun (``Case=Gen``) and on the noun's article or
    possessive, so the marker joins the target word linked to that article ("the", "his") where
    there is one, and else the noun: a check-point of the article ("des" → "of the") or of the
    noun phrase takes it, and the noun alone ("Rennens" → "race") does not where an article
    carries the case, as the hand-aligned gold links it. Only nouns and names are judged, since
    the languages that decline them mark their genitive this way; a pronoun's genitive (English
    "his", ``Case=Gen``) is a possessive, which the target says with its own word."""
    token = tokens[j]
    noun = token.head - 1
    if token.deprel.split(":")[0] != "case" or token.upos not in ("ADP", "PART") or noun < 0 or noun not in sources_of:
        return None
    genitives = [s for s in sources_of[noun] if source[s].upos in GENITIVE_SOURCE_UPOS and source[s].feats.get("Case") == "Gen"]
    if not genitives:
        return None
    for s in genitives:
        for d, word in enumerate(source):
            if word.head - 1 != s or word.feats.get("Case") != "Gen" or word.deprel.split(":")[0] != "det":
                continue
            for k, target in enumerate(tokens):
                if target.head - 1 == noun and target.deprel in POSSESSOR_RELATIONS and d in sources_of.get(k, ()):
                    return k
    return noun


def _governor(
    source: Sequence[Token], tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]], lexicon: Lexicon
) -> int | None:
    token = tokens[j]
    if token.upos != "ADP" or token.deprel.split(":")[0] not in GOVERNED_RELATIONS or j == 0:
        return None
    before = j - 1
    linked = sources_of.get(before)
    introduced = token.head - 1
    if not linked or introduced <= j:
        return None
    if tokens[introduced].head - 1 == before and all(source[s].upos in PREPOSITION_UPOS for s in linked):
        return before
    governor = tokens[before]
    pairs = {(governor.form.lower(), token.form.lower()), (governor.lemma.lower(), token.form.lower())}
    for s in linked:
        for translation in lexicon.translations(source[s]):
            if not pairs.isdisjoint(pairwise(translation.split())):
                return before
    return None


COMPLEMENT_RELATIONS = frozenset({"obj", "iobj", "xcomp"})
"""Source relations of a verb's complement that may be bare ("attended the funeral")."""

OBLIQUE_RELATIONS = frozenset({"obl", "obj", "iobj", "xcomp"})
"""Target relations of a verb's complement that a preposition may introduce ("asistió a el funeral")."""

MARKED_OBJECT_UPOS = frozenset({"PROPN", "PRON"})
"""Objects a language marks with a preposition for being a person or definite, not because the verb
asks for one (Spanish "felicitar a Andy", "no conocía a nadie")."""


def _verb_case(
    source: Sequence[Token], tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]]
) -> int | None:
    """The verb whose complement an unlinked preposition introduces, where the source says that
    complement bare: the target verb asks for the preposition ("attending the funeral" → "asistió a
    el funeral", "has become the target" → "se han convertido en el blanco", 導致 X → "resulted in
    X"), so it translates the verb. Not where the source complement has a preposition or marker of
    its own (an oblique, "in the vernacular"; a clause, 因為 …; a place, … 里): that one is what the
    target's translates, even if the aligner missed it. Nor before a name or pronoun (a marked
    object), nor before a predicative adjective: "considered proper" → "consideradas como
    apropiadas", where "como" marks the predication, not the verb's object."""
    token = tokens[j]
    if token.upos != "ADP" or token.deprel.split(":")[0] != "case":
        return None
    complement = token.head - 1
    if complement < 0 or complement not in sources_of or tokens[complement].upos in MARKED_OBJECT_UPOS:
        return None
    verb = tokens[complement].head - 1
    if (
        verb < 0 or verb not in sources_of or tokens[verb].upos != "VERB"
        or tokens[complement].deprel.split(":")[0] not in OBLIQUE_RELATIONS
    ):
        return None
    verb_sources = sources_of[verb]
    for s in sources_of[complement]:
        word = source[s]
        if (
            word.head - 1 in verb_sources and word.deprel.split(":")[0] in COMPLEMENT_RELATIONS
            and word.upos != "ADJ" and not any(_marks(other, s) for other in source)
        ):
            return verb
    return None


def _marks(word: Token, head: int) -> bool:
    return word.head - 1 == head and word.deprel.split(":")[0] in ("case", "mark")


NOMINAL_SOURCE_UPOS = frozenset({"NOUN", "PROPN", "PRON", "ADJ", "NUM"})
"""Source words whose translation, a noun, takes its preposition from the source's syntax, not from
being part of another word's translation."""


def _case_of_a_noun_for_a_verb(
    source: Sequence[Token], tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]]
) -> int | None:
    """The noun an unlinked preposition introduces, where that noun translates a preposition or an
    inflected verb and no nominal word: "Unter Verwendung" for "Using", "Au cours" for "during"
    (module docstring)."""
    token = tokens[j]
    if token.upos != "ADP" or token.deprel.split(":")[0] != "case":
        return None
    noun = token.head - 1
    if noun < 0 or noun not in sources_of or tokens[noun].upos != "NOUN":
        return None
    words = [source[s] for s in sources_of[noun]]
    if any(word.upos in NOMINAL_SOURCE_UPOS for word in words):
        return None
    if any(word.upos in PREPOSITION_UPOS or (word.upos == "VERB" and _carries_form(word)) for word in words):
        return noun
    return None


def _article_of_a_pronoun(tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]]) -> int | None:
    """The pronoun an unlinked article belongs to: a relative, possessive or indefinite pronoun
    that the target says with an article, where the source has one word ("which" → "la cual",
    "what" → "lo que", "hers" → "la suya", "one" → "l'un"). Unlike a noun's article, it is part
    of the pronoun's form, not a choice of the translation. Only articles: "todos los cuales"
    keeps "todos", which translates "all"."""
    token = tokens[j]
    head = token.head - 1
    if token.deprel != "det" or head < 0 or head not in sources_of or tokens[head].upos != "PRON":
        return None
    article = token.feats.get("PronType") == "Art" or token.upos == "PRON"  # Spanish PUD tags the neuter "lo" PRON
    return head if article else None


def _carries_form(word: Token) -> bool:
    """Whether a source verb carries tense, aspect, mood or a verb form of its own (:data:`MARKED_FEATURES`)."""
    return any(key in word.feats for key in MARKED_FEATURES)


def _inside_one_translation(tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]]) -> int | None:
    """A word between two words linked to the same single source word, and only to it: "de" of
    "Pays de Galles" for "Wales", "book" of "comic book artist" for 漫畫家. A gap of several words
    is taken only when they are all function words: with content words in it, it translates
    something of its own ("Sociedad de Horticultura británica recopiló" linked to "compiled" at
    both ends is no translation of it)."""
    left = next((k for k in range(j - 1, -1, -1) if k in sources_of), None)
    right = next((k for k in range(j + 1, len(tokens)) if k in sources_of), None)
    if left is None or right is None:
        return None
    if right - left > 2 and any(tokens[k].upos not in FUNCTION_UPOS for k in range(left + 1, right)):
        return None
    linked = sources_of[left]
    if len(linked) == 1 and sources_of[right] == linked:
        return left
    return None


def _circumposition(
    source: Sequence[Token], tokens: Sequence[Token], j: int, sources_of: dict[int, set[int]]
) -> int | None:
    """The linked half of a circumposition, for its unlinked other half ``j``: "in" → 在 … 中, "from" →
    從 … 中, "since" → 自 … 以來, "after" → 在 … 之後. Both are prepositions (``case``) of one noun,
    and the linked one translates a source preposition, so the two say it together. Only
    prepositions join: a particle that marks the same noun (Chinese 的 of 之間 的) says something
    else."""
    token = tokens[j]
    if token.upos != "ADP" or token.deprel.split(":")[0] != "case" or token.head < 1:
        return None
    for k, other in enumerate(tokens):
        if (k in sources_of and other.head == token.head and other.deprel.split(":")[0] == "case"
                and any(source[s].upos == "ADP" for s in sources_of[k])):
            return k
    return None
