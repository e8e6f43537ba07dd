"""Core data model shared by every layer.

Plain dataclasses, so that taxonomies, extractors and metrics can be tested
without a database or a parser. Token indices are 0-based positions of
*syntactic words* (CoNLL-U lines with an integer ID); multi-word token ranges
and empty nodes are kept only for reconstructing the surface text.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import pairwise

GAP = "*"
"""The token that stands for one gap (any number of words) in a reference."""


class Level(StrEnum):
    """Zhou et al. 2008 group categories into word, phrase and sentence levels."""

    WORD = "word"
    PHRASE = "phrase"
    SENTENCE = "sentence"


class ReferenceMode(StrEnum):
    """How a category's check-points get their references.

    ``aligned``: the reference words aligned to the check-point's source words
    (Zhou §4); ``sentence``: the whole reference sentence, DM 1 (Zhou §4.2's
    sentence-level categories, literally).
    """

    ALIGNED = "aligned"
    SENTENCE = "sentence"

    @classmethod
    def default_for(cls, level: Level) -> ReferenceMode:
        return cls.SENTENCE if level is Level.SENTENCE else cls.ALIGNED


@dataclass(frozen=True, slots=True)
class Token:
    """One syntactic word with its UD annotation.

    ``head`` is 1-based as in CoNLL-U (0 = root), so that a sentence written
    back out is valid CoNLL-U; use :meth:`Sentence.head_index` for 0-based
    arithmetic.
    """

    form: str
    lemma: str = "_"
    upos: str = "_"
    xpos: str = "_"
    feats: Mapping[str, str] = field(default_factory=dict)
    head: int = 0
    deprel: str = "_"
    misc: str = "_"
    ner: str = "O"

    def __reduce__(self) -> tuple[type[Token], tuple[object, ...]]:
        # Pickled as its constructor's arguments: the slots dataclass default walks fields() per
        # object, which made pickling a build's chunks (its spool, Ray's workers) twice as slow
        return (Token, (self.form, self.lemma, self.upos, self.xpos, self.feats, self.head, self.deprel, self.misc,
                        self.ner))

    def feats_string(self) -> str:
        if not self.feats:
            return "_"
        return "|".join(f"{key}={value}" for key, value in sorted(self.feats.items(), key=lambda kv: kv[0].lower()))


@dataclass(frozen=True, slots=True)
class MultiWordToken:
    """A surface token spanning several syntactic words (Spanish "del" = de + el)."""

    first: int
    last: int
    form: str
    misc: str = "_"

    def __reduce__(self) -> tuple[type[MultiWordToken], tuple[object, ...]]:
        return (MultiWordToken, (self.first, self.last, self.form, self.misc))


@dataclass(slots=True)
class Sentence:
    """A parsed sentence: syntactic words, surface text and optional constituency tree."""

    tokens: list[Token]
    text: str = ""
    language: str = ""
    constituency: str | None = None
    sent_id: str | None = None
    multiword: list[MultiWordToken] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    conllu: str | None = field(default=None, repr=False, compare=False)
    """The CoNLL-U block the sentence was read from, kept verbatim for the store."""

    def __post_init__(self) -> None:
        if not self.text:
            self.text = " ".join(token.form for token in self.tokens)

    def __reduce__(self) -> tuple[type[Sentence], tuple[object, ...]]:
        return (Sentence, (self.tokens, self.text, self.language, self.constituency, self.sent_id, self.multiword,
                           self.comments, self.conllu))

    def __len__(self) -> int:
        return len(self.tokens)

    def __iter__(self) -> Iterator[Token]:
        return iter(self.tokens)

    @property
    def forms(self) -> list[str]:
        return [token.form for token in self.tokens]

    def head_index(self, index: int) -> int | None:
        """0-based index of the head of word ``index``; None for the root."""
        head = self.tokens[index].head
        return None if head == 0 else head - 1

    def children(self, index: int) -> list[int]:
        return [i for i, token in enumerate(self.tokens) if token.head == index + 1]

    def subtree(self, index: int) -> list[int]:
        """Sorted 0-based indices of ``index`` and all its descendants."""
        heads = [token.head - 1 for token in self.tokens]
        members = {index}
        changed = True
        while changed:
            changed = False
            for i, head in enumerate(heads):
                if head in members and i not in members:
                    members.add(i)
                    changed = True
        return sorted(members)

    def tokenized_text(self) -> str:
        """The words joined by single spaces (the suite XML's ``<source>``)."""
        return " ".join(self.forms)

    def to_conllu(self) -> str:
        """The sentence as one CoNLL-U block (ending in a blank line)."""
        lines = list(self.comments)
        if not any(line.startswith("# text =") for line in lines):
            lines.append(f"# text = {self.text}")
        if self.constituency and not any(line.startswith("# constituency =") for line in lines):
            lines.append(f"# constituency = {self.constituency}")
        starts = {mwt.first: mwt for mwt in self.multiword}
        for i, token in enumerate(self.tokens, start=1):
            mwt = starts.get(i)
            if mwt is not None:
                lines.append(f"{mwt.first}-{mwt.last}\t{mwt.form}\t_\t_\t_\t_\t_\t_\t_\t{mwt.misc}")
            lines.append(
                "\t".join(
                    [
                        str(i),
                        token.form,
                        token.lemma,
                        token.upos,
                        token.xpos,
                        token.feats_string(),
                        str(token.head),
                        token.deprel,
                        "_",
                        token.misc,
                    ]
                )
            )
        return "\n".join(lines) + "\n\n"


@dataclass(frozen=True, slots=True)
class Alignment:
    """Word links between a source and one reference, 0-based ``(source, target)`` pairs.

    ``sure`` are the links the aligner is confident in (for eflomal: those
    both alignment directions found); None when the aligner does not say,
    as for alignment files, in which case every link counts as sure.
    """

    links: frozenset[tuple[int, int]]
    sure: frozenset[tuple[int, int]] | None = None
    _by_source: dict[int, list[int]] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        by_source: dict[int, list[int]] = {}
        for source, target in self.links:
            by_source.setdefault(source, []).append(target)
        object.__setattr__(self, "_by_source", by_source)

    @classmethod
    def from_pairs(cls, pairs: Sequence[tuple[int, int]]) -> Alignment:
        return cls(frozenset(pairs))

    def targets_of(self, sources: Sequence[int]) -> list[int]:
        """Sorted reference indices linked to any of ``sources``."""
        by_source = self._by_source
        found: set[int] = set()
        for source in sources:
            targets = by_source.get(source)
            if targets:
                found.update(targets)
        return sorted(found)

    def links_of(self, sources: Sequence[int]) -> list[tuple[int, int]]:
        """The links of ``sources``, sorted."""
        by_source = self._by_source
        return sorted((source, target) for source in set(sources) for target in by_source.get(source, ()))

    def is_sure(self, link: tuple[int, int]) -> bool:
        return self.sure is None or link in self.sure

    def unlinked_targets(self, length: int) -> list[int]:
        """Reference indices below ``length`` that no link reaches."""
        linked = {target for _, target in self.links}
        return [index for index in range(length) if index not in linked]

    def __reduce__(self) -> tuple[type[Alignment], tuple[object, ...]]:
        return (Alignment, (self.links, self.sure))

    def to_pharaoh(self) -> str:
        return " ".join(f"{s}-{t}" for s, t in sorted(self.links))


@dataclass(slots=True)
class SentencePair:
    """A source sentence with its reference translations and one alignment per reference."""

    id: int
    source: Sentence
    references: list[Sentence]
    alignments: list[Alignment]

    def __reduce__(self) -> tuple[type[SentencePair], tuple[object, ...]]:
        return (SentencePair, (self.id, self.source, self.references, self.alignments))


@dataclass(frozen=True, slots=True)
class Category:
    """A check-point category of a taxonomy."""

    name: str
    level: Level
    description: str = ""


@dataclass(slots=True)
class Reference:
    """The part of one reference translation that corresponds to a check-point.

    ``tokens`` is the reference's surface tokens with ``*`` for each gap;
    ``dm`` is Zhou's dictionary matching degree (formula 1), 1.0 when the
    reference was not obtained from the alignment (sentence-level categories).
    """

    reference_index: int
    target_indices: list[int]
    tokens: list[str]
    dm: float = 1.0
    from_alignment: bool = True

    def __reduce__(self) -> tuple[type[Reference], tuple[object, ...]]:
        return (Reference, (self.reference_index, self.target_indices, self.tokens, self.dm, self.from_alignment))


@dataclass(slots=True)
class CheckPoint:
    """One linguistic check-point: a category instance in a source sentence."""

    pair_id: int
    category: str
    source_indices: list[int]
    references: list[Reference] = field(default_factory=list)
    id: int | None = None

    def __reduce__(self) -> tuple[type[CheckPoint], tuple[object, ...]]:
        return (CheckPoint, (self.pair_id, self.category, self.source_indices, self.references, self.id))


def surface_with_gaps(forms: Sequence[str], indices: Sequence[int]) -> list[str]:
    """Tokens at ``indices`` in order, with one ``*`` wherever indices skip words.

    Zhou et al. (2008, §5) mark a non-consecutive check-point reference with a
    wildcard that matches any word sequence: "They * playing".
    """
    ordered = indices if _strictly_increasing(indices) else sorted(set(indices))
    out: list[str] = []
    previous: int | None = None
    for index in ordered:
        if previous is not None and index > previous + 1:
            out.append(GAP)
        out.append(forms[index])
        previous = index
    return out


@dataclass(slots=True)
class SuiteData:
    """A whole check-point suite as built or imported: what the store keeps.

    ``options`` records how it was built (parser, aligner, dictionary, ...), so
    that every later report can say where its check-points came from.
    """

    name: str
    source_lang: str
    target_lang: str
    taxonomy: str
    categories: list[Category]
    pairs: list[SentencePair]
    checkpoints: list[CheckPoint]
    taxonomy_version: str = "1"
    options: dict[str, object] = field(default_factory=dict)
    summary: dict[str, object] = field(default_factory=dict)
    user_categories: set[str] = field(default_factory=set)

    def category(self, name: str) -> Category:
        for category in self.categories:
            if category.name == name:
                return category
        raise KeyError(name)

    def resolve_category(self, name: str) -> str:
        """The suite's category called ``name``, ignoring case and spacing ("noun  phrase" is
        "Noun phrase"); an unknown name is an error that suggests the closest ones."""
        import difflib

        from checkpoints.errors import SuiteError

        names = [category.name for category in self.categories]
        if name in names:
            return name
        folded = {" ".join(known.split()).casefold(): known for known in names}
        wanted = " ".join(name.split()).casefold()
        if wanted in folded:
            return folded[wanted]
        close = difflib.get_close_matches(wanted, list(folded), n=1, cutoff=0.6)
        hint = f"did you mean {' or '.join(repr(folded[c]) for c in close)}?" if close else f"categories: {', '.join(names) or 'none'}"
        raise SuiteError(f"no category {name!r} in suite {self.name!r} ({hint})")


def _strictly_increasing(indices: Sequence[int]) -> bool:
    return all(a < b for a, b in pairwise(indices))
