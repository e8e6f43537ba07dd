"""One annotated sentence, as the linguistic metrics read it.

A stanza ``Sentence`` (from a pipeline, or from stanza's own CoNLL-U reader
for given parses) becomes a :class:`ParsedSentence`: its syntactic words with
form, lemma, tags, features, head and relation; the named-entity tag of the
token each word belongs to; and the constituency tree when there is one. The
structures the families compare — base-phrase chunks (CHUNK-UD), the
dependency tree's subtrees and levels, entities — are derived here once per
sentence, so a sentence compared with several references or by several
metrics is analysed once.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from checkpoints.model import Sentence

NOUN_LIKE = frozenset({"NOUN", "PROPN", "PRON", "NUM", "SYM", "DET"})
LEFT_MODIFIERS = frozenset({"det", "amod", "nummod", "compound", "flat", "fixed", "goeswith"})
RIGHT_MODIFIERS = frozenset({"flat", "fixed", "goeswith", "nummod"})
AUXILIARIES = frozenset({"aux", "aux:pass"})
BRACKETS = {"-LRB-": "(", "-RRB-": ")"}


@dataclass(frozen=True, slots=True)
class Word:
    """A syntactic word (a CoNLL-U line with an integer id), 1-based ``index``; ``head`` 0 for a root."""

    index: int
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: dict[str, str]
    head: int
    deprel: str
    ner: str = "O"
    """The BIOES tag of the token the word belongs to (``S-PERSON``), ``O`` outside entities."""

    @property
    def base(self) -> str:
        """The relation without its subtype (``nsubj`` of ``nsubj:pass``)."""
        return self.deprel.split(":", 1)[0]

    @property
    def tag(self) -> str:
        """The fine tag: XPOS, or UPOS where there is none; PTB brackets as the characters."""
        tag = self.xpos if self.xpos not in ("", "_") else self.upos
        return BRACKETS.get(tag, tag)


@dataclass(frozen=True, slots=True)
class Constituent:
    """A node of a constituency tree: a label and children; a leaf (a word) has none."""

    label: str
    children: tuple[Constituent, ...] = ()

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def is_preterminal(self) -> bool:
        return len(self.children) == 1 and self.children[0].is_leaf


@dataclass(frozen=True, slots=True)
class Entity:
    label: str
    words: tuple[int, ...]
    """0-based positions of its words in the sentence."""


@dataclass(frozen=True)
class ParsedSentence:
    """A sentence's words, and its constituency tree when the parse has one."""

    words: tuple[Word, ...]
    tree: Constituent | None = None
    has_ner: bool = False
    """Whether the parse carries NER tags (a sentence without entities has them, all ``O``)."""
    surface: tuple[str, ...] | None = None
    """The surface tokens where they differ from the words (a multi-word token such as Spanish
    "del" is one token of two words); CE's lengths, symbols and language models count tokens."""
    _derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_model(cls, sentence: Sentence) -> ParsedSentence:
        """From the project's :class:`~checkpoints.model.Sentence` (its CoNLL-U reader, or a build's
        stanza parse): the same words, NER tags and tree."""
        words = tuple(
            Word(index=index, form=token.form, lemma=token.lemma if token.lemma not in ("", "_") else token.form,
                 upos=token.upos, xpos=token.xpos, feats=dict(token.feats), head=token.head,
                 deprel=token.deprel.lower(), ner=token.ner or "O")
            for index, token in enumerate(sentence.tokens, start=1)
        )
        tagged = any("ner=" in token.misc for token in sentence.tokens)
        surface = None
        if sentence.multiword:
            starts = {mwt.first: mwt for mwt in sentence.multiword}
            tokens: list[str] = []
            index = 1
            while index <= len(sentence.tokens):
                mwt = starts.get(index)
                tokens.append(mwt.form if mwt is not None else sentence.tokens[index - 1].form)
                index = mwt.last + 1 if mwt is not None else index + 1
            surface = tuple(tokens)
        return cls(words, parse_tree(sentence.constituency) if sentence.constituency else None, tagged, surface)

    @classmethod
    def from_stanza(cls, sentence: Any) -> ParsedSentence:
        """From a stanza ``Sentence``; a token's NER tag applies to all its words."""
        words = []
        tagged = False
        surface = tuple(token.text or "" for token in sentence.tokens)
        for token in sentence.tokens:
            tagged = tagged or getattr(token, "ner", None) is not None
            ner = getattr(token, "ner", None) or "O"
            for word in token.words:
                words.append(Word(
                    index=int(word.id), form=word.text or "", lemma=word.lemma or word.text or "",
                    upos=word.upos or "", xpos=word.xpos or "", feats=_features(word.feats),
                    head=int(word.head or 0), deprel=(word.deprel or "dep").lower(), ner=ner,
                ))
        tree = getattr(sentence, "constituency", None)
        return cls(tuple(words), _constituent(tree) if tree is not None else None, tagged,
                   surface if len(surface) != len(words) else None)

    def _cached(self, key: str, build: Any) -> Any:
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]

    @property
    def children(self) -> dict[int, list[int]]:
        """Word index → its dependents' indices in word order (0: the root words)."""
        def build() -> dict[int, list[int]]:
            children: dict[int, list[int]] = {word.index: [] for word in self.words}
            children[0] = []
            for word in self.words:
                children.setdefault(word.head, []).append(word.index)
            return children
        return self._cached("children", build)

    @property
    def tokens(self) -> tuple[str, ...]:
        """The surface tokens: a multi-word token once, as written."""
        return self.surface if self.surface is not None else tuple(word.form for word in self.words)

    def word(self, index: int) -> Word:
        return self.words[index - 1]

    def subtree(self, index: int) -> list[int]:
        """The word and all its descendants, in word order."""
        found = []
        stack = [index]
        while stack:
            current = stack.pop()
            found.append(current)
            stack.extend(self.children.get(current, ()))
        return sorted(found)

    @property
    def levels(self) -> dict[int, int]:
        """Word index → depth: 1 for a root word, its head's depth + 1 otherwise."""
        def build() -> dict[int, int]:
            levels: dict[int, int] = {}
            frontier = [(index, 1) for index in self.children.get(0, ())]
            while frontier:
                index, level = frontier.pop()
                if index in levels:
                    continue
                levels[index] = level
                frontier.extend((child, level + 1) for child in self.children.get(index, ()))
            return levels
        return self._cached("levels", build)

    @property
    def chunks(self) -> tuple[str, ...]:
        """The IOB chunk label of every word (:func:`chunk_labels`)."""
        return self._cached("chunks", lambda: tuple(chunk_labels(self.words)))

    @property
    def entities(self) -> tuple[Entity, ...]:
        """Entities decoded from the words' BIOES tags (labels as the tagger wrote them)."""
        return self._cached("entities", lambda: tuple(decode_entities([word.ner for word in self.words])))


def _features(feats: str | None) -> dict[str, str]:
    if not feats or feats == "_":
        return {}
    pairs = (item.split("=", 1) for item in feats.split("|") if "=" in item)
    return {key: value for key, value in pairs}


def parse_tree(text: str) -> Constituent:
    """A bracketed tree (``(ROOT (S (NP (DT The) ...)))``), read by stanza's own tree reader."""
    from stanza.models.constituency.tree_reader import read_trees

    trees = read_trees(text)
    if len(trees) != 1:
        raise ValueError(f"expected one constituency tree, found {len(trees)}: {text[:60]!r}")
    return _constituent(trees[0])


def bags_of(items: Iterable[tuple[str, str]]) -> dict[str, Counter[str]]:
    """``(type, item)`` pairs as one bag (multiset) of items per type."""
    bags: dict[str, Counter[str]] = {}
    for kind, item in items:
        bags.setdefault(kind, Counter())[item] += 1
    return bags


def _constituent(tree: Any) -> Constituent:
    """stanza's parse tree (``label``, ``children``) as immutable nodes."""
    return Constituent(str(tree.label), tuple(_constituent(child) for child in tree.children))


# -- CHUNK-UD: base phrases from the dependency tree (spec §2.2) -------------------------


def seed_type(word: Word) -> str:
    """The chunk type a word starts: the first rule that applies."""
    if word.deprel == "compound:prt":
        return "PRT"
    if word.deprel in ("aux", "aux:pass", "cop") or (word.deprel == "mark" and word.upos == "PART"):
        return "VP"
    if word.upos in NOUN_LIKE:
        return "NP"
    by_class = {"VERB": "VP", "AUX": "VP", "ADJ": "ADJP", "ADV": "ADVP", "ADP": "PP", "SCONJ": "SBAR", "INTJ": "INTJ"}
    if word.upos in by_class:
        return by_class[word.upos]
    if word.upos == "PART" and word.base == "advmod":
        return "ADVP"
    return "O"


def _verbal_function_word(word: Word) -> bool:
    return word.deprel in ("aux", "aux:pass", "cop") or (word.deprel == "mark" and word.upos == "PART")


def _absorbable(words: Sequence[Word], word: Word) -> bool:
    """Whether a word joins the chunk of its head rather than starting one."""
    if word.head == 0:
        return False
    head = words[word.head - 1]
    if word.index < word.head:
        if word.base in LEFT_MODIFIERS and word.deprel != "compound:prt":
            return True
        if (word.deprel == "nmod:poss" and word.upos == "PRON") or word.deprel in AUXILIARIES:
            return True
        if word.deprel == "mark" and word.upos == "PART":
            return True
        if word.base == "advmod":
            if head.upos in ("ADJ", "ADV", "NUM", "DET"):
                return True
            return head.upos in ("VERB", "AUX") and any(
                other.head == word.head and other.deprel in AUXILIARIES for other in words[: word.index - 1])
        return False
    return word.base in RIGHT_MODIFIERS or (word.deprel == "case" and word.upos == "PART")


def chunk_labels(words: Sequence[Word]) -> list[str]:
    """IOB labels (``B-NP``, ``I-NP``, ``O``) of base-phrase chunks grown from the UD tree.

    Pass 1 grows a chunk from every word that does not attach to its head's
    chunk; pass 2 gives the words still unclaimed (orphan modifiers) chunks of
    their own.
    """
    count = len(words)
    claimed = [False] * (count + 1)
    labels = ["O"] * count
    absorbable = [False, *(_absorbable(words, word) for word in words)]

    def grow(seed: int) -> None:
        kind = seed_type(words[seed - 1])
        claimed[seed] = True
        if kind == "O":
            return
        left = right = seed
        seed_word = words[seed - 1]
        changed = True
        while changed:
            changed = False
            d = left - 1
            if d >= 1 and not claimed[d]:
                word = words[d - 1]
                inside = left <= word.head <= right and d < word.head and absorbable[d]
                chain = (kind == "VP" and _verbal_function_word(seed_word) and word.head == seed_word.head
                         and _verbal_function_word(word))
                if inside or chain:
                    left, claimed[d], changed = d, True, True
            d = right + 1
            if d <= count and not claimed[d]:
                word = words[d - 1]
                if left <= word.head <= right and d > word.head and absorbable[d]:
                    right, claimed[d], changed = d, True, True
        labels[left - 1] = f"B-{kind}"
        for index in range(left + 1, right + 1):
            labels[index - 1] = f"I-{kind}"

    for seed in range(1, count + 1):
        if not claimed[seed] and not absorbable[seed]:
            grow(seed)
    for seed in range(1, count + 1):
        if not claimed[seed]:
            grow(seed)
    return labels


def chunk_types(labels: Sequence[str]) -> list[str]:
    """Each word's chunk type (``NP``; ``O`` outside chunks)."""
    return [label.split("-", 1)[1] if "-" in label else "O" for label in labels]


def chunk_sequence(labels: Sequence[str]) -> list[str]:
    """One item per chunk (its type) and one ``O`` per word outside chunks: SP-cNIST's sequence."""
    return [label.split("-", 1)[1] if label.startswith("B-") else "O" for label in labels if not label.startswith("I-")]


# -- named entities from BIOES tags (spec §5.1) -----------------------------------------


def decode_entities(tags: Sequence[str]) -> list[Entity]:
    """Entities of a BIOES (or BIO) tag sequence: one starts at B or S, at a change of type, or
    after O; it ends at E or S, or before O. The last entity of the sentence is kept."""
    entities: list[Entity] = []
    current: list[int] = []
    label = ""
    for position, tag in enumerate([*tags, "O"]):
        prefix, _, kind = tag.partition("-")
        starts = prefix in ("B", "S") or tag == "O" or kind != label or not current
        if current and starts:
            entities.append(Entity(label, tuple(current)))
            current = []
        if tag == "O" or not kind:
            label = ""
            continue
        current.append(position)
        label = kind
        if prefix in ("E", "S"):
            entities.append(Entity(label, tuple(current)))
            current = []
            label = ""
    return entities


ASIYA_ENTITY_TYPES = {
    "PERSON": "PER", "PER": "PER", "PERS": "PER",
    "ORG": "ORG", "ORGANIZATION": "ORG",
    "GPE": "LOC", "LOC": "LOC", "LOCATION": "LOC", "FAC": "LOC",
    "NORP": "MISC", "PRODUCT": "MISC", "EVENT": "MISC", "WORK_OF_ART": "MISC", "LAW": "MISC", "MISC": "MISC",
    "LANGUAGE": "LANGUAGE", "DATE": "DATE", "TIME": "TIME", "PERCENT": "PERCENT", "MONEY": "MONEY",
    "QUANTITY": "MEASURE", "ORDINAL": "NUM", "CARDINAL": "NUM",
}
"""stanza's tag sets (OntoNotes-18, CoNLL-4 and others) → Asiya's entity types (spec §5.1)."""


@functools.cache
def asiya_entity_type(label: str) -> str:
    """Asiya's name for a tagger's entity label; an unknown label upper-cased."""
    return ASIYA_ENTITY_TYPES.get(label.upper(), label.upper())
