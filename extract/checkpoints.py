"""From parsed, aligned sentence pairs to check-points with weighted references (Zhou et al. 2008, §4).

For every check-point the taxonomy finds in a source sentence:

* categories with aligned references (word and phrase categories, and the
  built-in clauses) take, per reference translation, the reference words
  aligned to the check-point's source words, written in surface tokens
  (:mod:`checkpoints.extract.surface`) with ``*`` wherever they skip some
  (§5's non-consecutive check-points); a reference with no aligned word
  gives no reference;
* categories whose taxonomy entry says ``reference="sentence"`` (by default
  the sentence-level ones; the built-in clause categories say ``aligned``),
  and any check-point that spans its whole sentence, take the whole reference
  sentence, DM 1 (§4.2);
* each alignment-derived reference is weighted by its dictionary matching
  degree DM (formula 1, :mod:`checkpoints.extract.dm`);
* phrase check-points pass the noise filter (:mod:`checkpoints.extract.noise`)
  when it is on, and references the reliability filters
  (:mod:`checkpoints.extract.reliability`) reject are dropped: links of
  parts of speech that cannot translate the word, unsupported links to a
  word of another class, phrases and clauses on
  links the aligner is unsure of, unsure references below ``min_dm``; the
  check-points of pairs found not to be parallel are skipped whole.

A check-point left with no reference at all is not stored; the summary counts
it, per category and reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple, Protocol

from checkpoints.extract.completion import Completion
from checkpoints.extract.dictionary import Lexicon
from checkpoints.extract.dm import DM_FLOOR, dictionary_matching_degree
from checkpoints.extract.noise import constituent_spans, is_contiguous, is_title
from checkpoints.extract.reliability import (
    all_sure,
    cannot_translate,
    function_words_only,
    headless_pair,
    no_counterpart,
    scattered,
    split_word_piece,
    unsupported_shift,
)
from checkpoints.extract.surface import SurfaceForms
from checkpoints.model import (
    GAP,
    Alignment,
    CheckPoint,
    Level,
    Reference,
    ReferenceMode,
    SentencePair,
    Token,
)
from checkpoints.tokenizers import get_tokenizer

SKIP_NO_ALIGNMENT = "no aligned target word"
SKIP_NOISE = "constituency disagreement"
SKIP_NOT_PARALLEL = "pair not parallel"
SKIP_UNTRANSLATABLE = "aligned words cannot translate it"
SKIP_LOW_DM = "no dictionary support"
SKIP_UNCONFIRMED = "alignment not confirmed"
SKIP_UNSUPPORTED_SHIFT = "class change without dictionary support"
SKIP_SPLIT_WORD = "piece of a split word"
SKIP_SCATTERED = "translation in scattered pieces"
SKIP_TITLE = "a title, not a clause"
SKIP_HEADLESS = "head of a two-word phrase unaligned"
SKIP_ORDER = (SKIP_NOT_PARALLEL, SKIP_NOISE, SKIP_TITLE, SKIP_NO_ALIGNMENT, SKIP_SPLIT_WORD, SKIP_UNTRANSLATABLE,
              SKIP_UNSUPPORTED_SHIFT, SKIP_SCATTERED, SKIP_HEADLESS, SKIP_LOW_DM, SKIP_UNCONFIRMED)
"""The order the build summary lists the reasons in, whatever order a corpus met them."""


@dataclass(frozen=True, slots=True)
class ExtractionOptions:
    """How references are made and which are left out (see :mod:`checkpoints.extract.reliability`).

    ``min_dm``: a reference whose DM is below it is dropped unless the aligner
    is sure of all its links (0 keeps all; DM's floor is 0.1, so any value
    above 0.1 drops the unsure references the dictionary does not support at
    all). ``pos_filter``: drop word-level references whose aligned words
    cannot translate the source word. ``class_filter``: drop word-level
    references the dictionary does not support at all whose aligned words
    are of a class the source word does not become unaided
    (:func:`checkpoints.extract.reliability.unsupported_shift`).
    ``confirm``: drop phrase and clause
    references the aligner is not sure of
    (:func:`checkpoints.extract.reliability.all_sure`) and those of a two-word
    phrase whose head it left unlinked
    (:func:`checkpoints.extract.reliability.headless_pair`).
    ``tokenize``: the match tokenizer references are written for
    (:mod:`checkpoints.extract.surface`). ``split_words``: the source is
    Chinese, whose tokenizers cut some words into pieces; a word check-point
    of a piece translated only as the whole word gets no reference
    (:func:`checkpoints.extract.reliability.split_word_piece`, with CC-CEDICT's
    words).
    """

    noise_filter: bool = True
    tokenize: str = "words"
    min_dm: float = 0.0
    pos_filter: bool = True
    class_filter: bool = True
    confirm: bool = True
    complete: bool = True
    split_words: bool = False


class FoundLike(Protocol):
    category: str
    indices: tuple[int, ...]
    constituent_labels: tuple[str, ...]
    reference: ReferenceMode


class Finder(Protocol):
    def find(self, sentence: object) -> Sequence[FoundLike]: ...


@dataclass(slots=True)
class ExtractionSummary:
    """What a build found and what it left out, and why."""

    pairs: int = 0
    found: Counter[str] = field(default_factory=Counter)
    stored: Counter[str] = field(default_factory=Counter)
    skipped: dict[str, Counter[str]] = field(default_factory=dict)
    skipped_pairs: list[int] = field(default_factory=list)
    sentences_with_trees: int = 0
    sentences_without_usable_tree: int = 0
    noise_filter: bool = True

    def skip(self, reason: str, category: str) -> None:
        self.skipped.setdefault(reason, Counter())[category] += 1

    def state(self) -> dict[str, object]:
        """Every count as JSON, for :meth:`from_state` (a resumable build keeps each chunk's)."""
        return {
            "pairs": self.pairs, "found": dict(self.found), "stored": dict(self.stored),
            "skipped": {reason: dict(counts) for reason, counts in self.skipped.items()},
            "skipped_pairs": list(self.skipped_pairs), "sentences_with_trees": self.sentences_with_trees,
            "sentences_without_usable_tree": self.sentences_without_usable_tree, "noise_filter": self.noise_filter,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> ExtractionSummary:
        return cls(
            pairs=state["pairs"], found=Counter(state["found"]), stored=Counter(state["stored"]),
            skipped={reason: Counter(counts) for reason, counts in state["skipped"].items()},
            skipped_pairs=list(state["skipped_pairs"]), sentences_with_trees=state["sentences_with_trees"],
            sentences_without_usable_tree=state["sentences_without_usable_tree"], noise_filter=state["noise_filter"],
        )

    def add(self, other: ExtractionSummary) -> None:
        """Count ``other`` (the next chunk's summary) in with this one."""
        self.pairs += other.pairs
        self.found.update(other.found)
        self.stored.update(other.stored)
        for reason, counts in other.skipped.items():
            self.skipped.setdefault(reason, Counter()).update(counts)
        self.skipped_pairs.extend(other.skipped_pairs)
        self.sentences_with_trees += other.sentences_with_trees
        self.sentences_without_usable_tree += other.sentences_without_usable_tree

    def to_json(self, category_order: Iterable[str]) -> dict[str, object]:
        order = list(category_order)
        return {
            "pairs": self.pairs,
            "checkpoints": sum(self.stored.values()),
            "per_category": {name: self.stored.get(name, 0) for name in order},
            "found": {name: self.found.get(name, 0) for name in order},
            "skipped": {
                reason: {name: self.skipped[reason][name] for name in order if self.skipped[reason].get(name)}
                for reason in sorted(self.skipped, key=_reason_rank)
            },
            "skipped_pairs": list(self.skipped_pairs),
            "noise_filter": self.noise_filter,
            "sentences_with_trees": self.sentences_with_trees,
            "sentences_without_usable_tree": self.sentences_without_usable_tree,
        }


def _reason_rank(reason: str) -> tuple[int, str]:
    return (SKIP_ORDER.index(reason) if reason in SKIP_ORDER else len(SKIP_ORDER), reason)


def extract_checkpoints(
    pairs: Sequence[SentencePair],
    finder: Finder,
    levels: dict[str, Level],
    lexicon: Lexicon,
    options: ExtractionOptions = ExtractionOptions(),
    *,
    skip_pairs: Collection[int] = (),
    progress: Callable[[int], None] | None = None,
    first_number: int = 1,
    summary: ExtractionSummary | None = None,
) -> tuple[list[CheckPoint], ExtractionSummary]:
    """Every check-point of every pair, numbered from ``first_number`` in pair order.

    Check-points of the pairs in ``skip_pairs`` (found not to be parallel)
    are counted as found and skipped. A build that extracts its corpus chunk
    by chunk passes each chunk's first number and one ``summary`` that adds
    up the chunks.
    """
    if summary is None:
        summary = ExtractionSummary(noise_filter=options.noise_filter)
    summary.pairs += len(pairs)
    summary.skipped_pairs.extend(sorted(pair.id for pair in pairs if pair.id in skip_pairs))
    tokenizer = get_tokenizer(options.tokenize)
    checkpoints: list[CheckPoint] = []
    found_counts: Counter[str] = summary.found
    stored_counts: Counter[str] = summary.stored
    for pair in pairs:
        source = pair.source
        if pair.id in skip_pairs:
            for found in finder.find(source):
                found_counts[found.category] += 1
                summary.skip(SKIP_NOT_PARALLEL, found.category)
            if progress is not None:
                progress(1)
            continue
        spans = constituent_spans(source) if options.noise_filter else None
        if options.noise_filter:
            if spans is not None:
                summary.sentences_with_trees += 1
            elif source.constituency:
                summary.sentences_without_usable_tree += 1
        targets = [
            Target(
                reference.tokens,
                SurfaceForms(reference, tokenizer),
                alignment,
                Completion.of(source, reference, alignment, lexicon) if options.complete else None,
            )
            for reference, alignment in zip(pair.references, pair.alignments, strict=True)
        ]
        for found in finder.find(source):
            category = found.category
            level = levels[category]
            indices = list(found.indices)
            found_counts[category] += 1
            if (
                spans is not None
                and level is Level.PHRASE
                and found.constituent_labels
                and is_contiguous(indices)
                and not spans.agrees(indices, found.constituent_labels)
            ):
                summary.skip(SKIP_NOISE, category)
                continue
            if options.noise_filter and level is not Level.WORD and is_title(
                source.tokens, indices, indices[_span_head(source.tokens, indices)]
            ):
                summary.skip(SKIP_TITLE, category)
                continue
            if found.reference is ReferenceMode.SENTENCE or _whole_sentence(source.tokens, indices):
                references, reason = _whole_sentences(targets), SKIP_NO_ALIGNMENT
            else:
                references, reason = _aligned_references(source.tokens, indices, level, targets, lexicon, options)
            if not references:
                summary.skip(reason, category)
                continue
            checkpoints.append(CheckPoint(pair.id, category, indices, references, first_number + len(checkpoints)))
            stored_counts[category] += 1
        if progress is not None:
            progress(1)
    return checkpoints, summary


class Target(NamedTuple):
    """A reference translation's words, its surface forms, and its alignment to the source."""

    tokens: list[Token]
    surface: SurfaceForms
    alignment: Alignment
    completion: Completion | None


def _whole_sentence(tokens: Sequence[Token], indices: Sequence[int]) -> bool:
    """Whether a span covers every word of its sentence but punctuation: its
    translation is the whole reference, whatever the alignment says."""
    span = set(indices)
    return all(i in span or token.upos == "PUNCT" for i, token in enumerate(tokens))


def _whole_sentences(targets: list[Target]) -> list[Reference]:
    references = []
    for index, target in enumerate(targets):
        every = list(range(len(target.tokens)))
        references.append(Reference(index, every, target.surface.reference(every), 1.0, False))
    return references


def _aligned_references(
    source_tokens: list[Token],
    indices: list[int],
    level: Level,
    targets: list[Target],
    lexicon: Lexicon,
    options: ExtractionOptions,
) -> tuple[list[Reference], str]:
    """The references of one check-point, and why it has none when so."""
    references: list[Reference] = []
    checkpoint_tokens = [source_tokens[i] for i in indices]
    reasons: list[str] = []
    word_level = level is Level.WORD
    span_head = indices[_span_head(source_tokens, indices)]
    head = source_tokens[span_head] if word_level and options.pos_filter else None
    for index, (tokens, surface, alignment, completion) in enumerate(targets):
        links = alignment.links_of(indices)
        linked = sorted({t for _, t in links})
        if not linked:
            reasons.append(SKIP_NO_ALIGNMENT)
            continue
        if options.split_words and word_level and len(indices) == 1 and split_word_piece(
            source_tokens, indices[0], linked, alignment, _chinese_words()
        ):
            reasons.append(SKIP_SPLIT_WORD)
            continue
        aligned = [tokens[t] for t in linked]
        if options.confirm and not word_level and headless_pair(
            source_tokens, indices, span_head, {s for s, _ in links}, aligned
        ):
            reasons.append(SKIP_HEADLESS)
            continue
        if head is not None and cannot_translate(head, aligned):
            reasons.append(SKIP_UNTRANSLATABLE)
            continue
        sure = all_sure(links, alignment)
        if options.confirm and not word_level and not sure:
            reasons.append(SKIP_UNCONFIRMED)
            continue
        dm = dictionary_matching_degree(checkpoint_tokens, aligned, lexicon)
        if (
            head is not None
            and dm <= DM_FLOOR
            and (
                function_words_only(head, aligned)
                or no_counterpart(head, aligned)
                or (options.class_filter and unsupported_shift(head, aligned))
            )
        ):
            reasons.append(SKIP_UNSUPPORTED_SHIFT)
            continue
        if dm < options.min_dm and not sure:
            reasons.append(SKIP_LOW_DM)
            continue
        words = completion.complete(linked) if completion is not None else linked
        written = surface.reference(words)
        if head is not None and scattered(head, written.count(GAP) + 1):
            reasons.append(SKIP_SCATTERED)
            continue
        references.append(Reference(index, words, written, dm, True))
    # with several references, the reason the last one was lost stands for all
    return references, reasons[-1] if reasons else SKIP_NO_ALIGNMENT


@cache
def _chinese_words() -> Callable[[str], bool]:
    """CC-CEDICT's headwords, as written or converted to simplified characters (loaded at first use)."""
    from checkpoints.taxonomy.lexicons import lexicon_lookup

    return lexicon_lookup("cedict", "t2s")


def _span_head(tokens: Sequence[Token], indices: Sequence[int]) -> int:
    """Position in ``indices`` of the span's syntactic head: the word whose head lies outside the span."""
    inside = set(indices)
    for position, index in enumerate(indices):
        if tokens[index].head - 1 not in inside:
            return position
    return 0
