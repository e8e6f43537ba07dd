"""Pattern filters that look beyond the sentence: lexicons and corpus statistics.

- :class:`LexiconFilter` (``<listed>``/``<unlisted>``): the node's word is (or
  is not) in a word list or a named lexicon such as CC-CEDICT -- the "New
  word" category is a content word absent from the reference lexicon.
- :class:`AssociationFilter` (``<association>``): the lemmas of two linked
  nodes are strongly associated in the corpus (Collocation).
- :class:`EntropyFilter` (``<translation-entropy>``): the node's lemma has
  many different aligned translations in the corpus (Ambiguous word).

The last two are mined once per build by ``Taxonomy.prepare``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from checkpoints.model import Sentence, SentencePair
from checkpoints.split_words import listed_runs
from checkpoints.taxonomy.graph import SentenceGraph
from checkpoints.taxonomy.lexicons import Lexicon
from checkpoints.taxonomy.mining import association_scores, translation_entropy
from checkpoints.taxonomy.pattern import MinedTable
from checkpoints.taxonomy.values import ValueSpec
from checkpoints.taxonomy.wordlist import KeyFunction


def inside_listed_run(
    graph: SentenceGraph,
    span: tuple[int, ...],
    key: KeyFunction,
    listed: Callable[[str], bool],
    min_chars: int,
    *,
    words_stay: bool = False,
) -> bool:
    """Whether ``span`` is a piece of a word the tokenizer split: a run of adjacent tokens that covers
    it and more, written together, is a listed word.

    The run holds at least two tokens and one token outside the span, at most
    :data:`~checkpoints.split_words.MAX_RUN_TOKENS`, and at least ``min_chars`` characters (進 / 一 /
    步 for 進一步 "further"). With ``words_stay``, a span that is itself a
    listed word of two characters or more is a word, and the run a compound
    of words (政府 / 機關 "government office"), not a split: only single
    characters and unlisted strings are pieces.
    """
    first, last = min(span), max(span)
    if words_stay:
        own = "".join(key(graph, position) for position in range(first, last + 1))
        if len(own) >= 2 and listed(own):
            return False
    runs = listed_runs(lambda position: key(graph, position), len(graph), first, last, listed, min_chars)
    return next(runs, None) is not None


@dataclass(frozen=True, slots=True)
class Mined:
    accepted: frozenset[object]
    summary: Mapping[str, object]


@dataclass(eq=False, slots=True)
class LexiconFilter:
    """The node's key (lemma/form, optionally case-folded or script-converted) is in a lexicon.

    ``tags`` narrows the lexicon to entries carrying one of those tags (jieba's
    part-of-speech tags, a word list's tags). With ``split``, a key of at
    least that many characters also counts as listed when it is two listed
    keys written together: affixed and compounded forms of known words
    (投資者們 = 投資者 + 們, 處方箋 = 處方 + 箋) are not unknown words, even
    where a dictionary does not list them. Chinese wants ``split=3``: every
    character is itself a listed word, so any two-character key would split.

    With ``within``, the test is not on the node's own key but on the runs of
    adjacent tokens around it: listed when some run of two or more tokens that
    contains the node, at least ``within`` characters long, is a listed key.
    ``<unlisted within="3">`` so says "not part of a word the tokenizer split":
    中 of 中 / 世紀 (中世紀 "Middle Ages"), 接 of 接 / 下來 (接下來 "next").
    """

    node: str
    lexicon: Callable[[], Lexicon]
    keys: list[KeyFunction]
    absent: bool
    description: str
    path: Path | None = None
    line: int = 0
    tags: frozenset[str] | None = None
    split: int | None = None
    within: int | None = None
    corpus: bool = False
    _loaded: Lexicon | None = None

    def node_ids(self) -> tuple[str, ...]:
        return (self.node,)

    def accept(self, graph: SentenceGraph, binding: Mapping[str, int], table: MinedTable | None) -> bool:
        lexicon = self._loaded
        if lexicon is None:
            lexicon = self._loaded = self.lexicon()
        position = binding[self.node]
        if self.within is not None:
            within = self.within
            listed = any(
                inside_listed_run(graph, (position,), key, lambda text: self._entry(lexicon, text), within)
                for key in self.keys
            )
        else:
            listed = any(self.listed(lexicon, key(graph, position)) for key in self.keys)
        return listed != self.absent

    def listed(self, lexicon: Lexicon, key: str) -> bool:
        if self._entry(lexicon, key):
            return True
        if self.split is None or len(key) < self.split:
            return False
        return any(self._entry(lexicon, key[:cut]) and self._entry(lexicon, key[cut:]) for cut in range(1, len(key)))

    def _entry(self, lexicon: Lexicon, key: str) -> bool:
        tags = lexicon.get(key)
        if tags is None:
            return False
        return self.tags is None or any(tag in tags for tag in self.tags)

    def miner(self) -> None:
        return None


@dataclass(eq=False, slots=True)
class AssociationFilter:
    """Two nodes' keys form a pair whose association score reaches ``min_score``.

    The contingency table counts the pattern's own matches over the corpus:
    O11 = matches with this pair, R1 = matches whose first node has this key,
    C1 = matches whose second node has this key, N = all matches.
    """

    first: str
    second: str
    key: str = "lemma"
    measure: str = "g2"
    min_count: int = 3
    min_score: float = 10.83
    line: int = 0
    corpus: bool = True

    def node_ids(self) -> tuple[str, ...]:
        return (self.first, self.second)

    def pair(self, graph: SentenceGraph, binding: Mapping[str, int]) -> tuple[str, str]:
        column = graph.columns[self.key]
        return (_folded(column[binding[self.first]]), _folded(column[binding[self.second]]))

    def accept(self, graph: SentenceGraph, binding: Mapping[str, int], table: MinedTable | None) -> bool:
        return table is not None and self.pair(graph, binding) in table.accepted

    def miner(self) -> AssociationMiner:
        return AssociationMiner(self)


@dataclass(slots=True)
class AssociationMiner:
    spec: AssociationFilter
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)

    def observe(self, graph: SentenceGraph, binding: Mapping[str, int], pair: SentencePair) -> None:
        self.counts[self.spec.pair(graph, binding)] += 1

    def finish(self) -> Mined:
        spec = self.spec
        scores = association_scores(self.counts, spec.measure)
        accepted = frozenset(
            pair for pair, entry in scores.items() if entry.count >= spec.min_count and entry.score >= spec.min_score
        )
        summary = {
            "kind": "association",
            "measure": spec.measure,
            "min_count": spec.min_count,
            "min_score": spec.min_score,
            "observations": sum(self.counts.values()),
            "distinct_pairs": len(self.counts),
            "accepted_pairs": len(accepted),
        }
        return Mined(accepted, summary)


@dataclass(eq=False, slots=True)
class EntropyFilter:
    """The node's key is translated in many ways: entropy of its aligned target words ≥ ``min_bits``.

    Each aligned occurrence contributes one observation per reference: the
    case-folded lemmas (forms where the lemma is missing) of the target words
    aligned to it, joined by spaces. With ``target_upos``, only aligned target
    words of those parts of speech count (words without a UPOS always count):
    articles, prepositions and punctuation that an aligner attaches to a word
    would otherwise pass for different translations. Occurrences left with no
    target word are not counted.
    """

    node: str
    key: str = "lemma"
    min_count: int = 5
    min_bits: float = 1.5
    target_upos: ValueSpec | None = None
    line: int = 0
    corpus: bool = True

    def node_ids(self) -> tuple[str, ...]:
        return (self.node,)

    def source_key(self, graph: SentenceGraph, binding: Mapping[str, int]) -> str:
        return _folded(graph.columns[self.key][binding[self.node]])

    def accept(self, graph: SentenceGraph, binding: Mapping[str, int], table: MinedTable | None) -> bool:
        return table is not None and self.source_key(graph, binding) in table.accepted

    def miner(self) -> EntropyMiner:
        return EntropyMiner(self)


@dataclass(slots=True)
class EntropyMiner:
    spec: EntropyFilter
    observations: dict[str, Counter[str]] = field(default_factory=dict)
    aligned_pairs: int = 0

    def observe(self, graph: SentenceGraph, binding: Mapping[str, int], pair: SentencePair) -> None:
        position = binding[self.spec.node]
        source = self.spec.source_key(graph, binding)
        for reference, alignment in zip(pair.references, pair.alignments, strict=False):
            translation = _target_key(reference, alignment.targets_of([position]), self.spec.target_upos)
            if translation:
                self.observations.setdefault(source, Counter())[translation] += 1

    def finish(self) -> Mined:
        spec = self.spec
        entries = translation_entropy(self.observations)
        accepted = frozenset(
            key for key, entry in entries.items() if entry.count >= spec.min_count and entry.bits >= spec.min_bits
        )
        summary = {
            "kind": "translation-entropy",
            "min_count": spec.min_count,
            "min_bits": spec.min_bits,
            "target_upos": spec.target_upos.text if spec.target_upos is not None else None,
            "observations": sum(entry.count for entry in entries.values()),
            "distinct_keys": len(entries),
            "accepted_keys": len(accepted),
        }
        return Mined(accepted, summary)


def _target_key(reference: Sentence, targets: list[int], upos: ValueSpec | None) -> str:
    words = []
    for index in targets:
        if index >= len(reference.tokens):
            continue
        token = reference.tokens[index]
        if upos is not None and token.upos not in ("_", "") and not upos.test(token.upos):
            continue
        words.append(_folded(token.lemma if token.lemma not in ("_", "") else token.form))
    return " ".join(words)


def _folded(value: str) -> str:
    return value.casefold()
