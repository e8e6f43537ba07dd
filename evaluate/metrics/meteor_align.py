"""Meteor 1.x's aligner: the matching stages' candidate matches and the beam search over them.

Every module proposes candidate matches: exact for identical words, stem for
different words with the same stem, synonym for different words sharing a
synset, paraphrase for table phrases (:func:`candidates`). As in Meteor
1.5, the stem and synonym stages skip identical words only, so a word pair
may be proposed by several stages, and the paraphrase stage proposes every
table match, twice when the table lists the pair both ways. A candidate that is the
only one at its reference position and whose words no other candidate
touches is fixed. The rest is resolved by Meteor's beam search (beam 40) over
reference positions left to right, ranking partial alignments by (1) words
covered, counted as Meteor counts them (:func:`coverage_gain`: each side's
coverage is a whole number and grows by the whole part of length × the
search weight, 1 for exact matches and 0.5 for every other module
(:data:`SEARCH_WEIGHTS`), so a one-word stem, synonym or paraphrase match
counts 0 and an exact one 1 a side), (2) fewer chunks, (3) smaller total distance
|reference start − hypothesis start| (:func:`resolve`). Meteor adds a
candidate's distance not to the partial alignment that takes it but to the
one that leaves the reference word unmatched and to the candidates tried
after it at the same word; the search does the same, since the order of
partial alignments decides ties and so which alignment wins. This is
Meteor's search, so its approximation too: with more than 40 competing
partial alignments the best may be pruned. Identical sentences are aligned
word for word at once, as Meteor does (:func:`align`).

These rules were read from the Meteor 1.5 jar's ``Aligner`` and
``PartialAlignment`` classes (and the matchers: ``SynonymMatcher`` does not
skip pairs the stem stage proposed; ``ParaphraseMatcher`` and
``ParaphraseTransducer`` give the paraphrase order); with them every variant
gives the jar's scores (see :mod:`checkpoints.evaluate.metrics.meteor`).

The scoring side (parameters, statistics, the metric) is
:mod:`checkpoints.evaluate.metrics.meteor`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter

EXACT, STEM, SYNONYM, PARAPHRASE = range(4)
MODULE_NAMES = ("exact", "stem", "synonym", "paraphrase")

BEAM_SIZE = 40
"""Meteor's default beam (``-x``)."""

Weights = Sequence[float]
"""A weight per module (exact, stem, synonym, paraphrase)."""

SEARCH_WEIGHTS: Weights = (1.0, 0.5, 0.5, 0.5)
"""The weights Meteor 1.5's search ranks partial alignments with, whatever the language.

``MeteorScorer.loadConfiguration`` builds the aligner with the language's
weights and then replaces them (``Aligner.updateModuleWeights``) with 1.0 for
the exact module and 0.5 for any other: the scores use the language's
weights, the search these. Only phrases feel the difference: a three-word
paraphrase adds 1 a side here, 2 at English's 0.8.
"""

@dataclass(frozen=True, slots=True)
class ParaphraseTable:
    """METEOR-pa's table as Meteor's ``ParaphraseTransducer`` holds it.

    ``entries``: a phrase → its paraphrases in the order the table lists them
    (one direction: the matcher's two passes give the other), words joined by
    single spaces (strings: the 5.3 million entries of Meteor's English table
    fit in a fraction of the memory tuples of words would take);
    ``max_phrase`` and ``longest``: the most words of a phrase, and of a
    phrase or paraphrase.
    """

    entries: dict[str, list[str]]
    max_phrase: int
    longest: int


@dataclass(frozen=True, slots=True)
class Analysed:
    """A segment prepared once for matching against many others."""

    tokens: tuple[str, ...]
    positions: dict[str, tuple[int, ...]]
    stems: tuple[str, ...]
    synsets: tuple[frozenset, ...]  # type: ignore[type-arg]
    function: tuple[bool, ...]


class Match:
    """A candidate match: reference span ``[ref_start, ref_start + ref_length)`` ↔ hypothesis span.

    The search needs each match's word masks and its distance from the
    diagonal many times, so they are computed once here.
    """

    __slots__ = ("distance", "hyp_end", "hyp_length", "hyp_mask", "hyp_start", "module", "ref_end", "ref_length",
                 "ref_mask", "ref_start")

    def __init__(self, ref_start: int, ref_length: int, hyp_start: int, hyp_length: int, module: int) -> None:
        self.ref_start = ref_start
        self.ref_length = ref_length
        self.hyp_start = hyp_start
        self.hyp_length = hyp_length
        self.module = module
        self.ref_end = ref_start + ref_length
        self.hyp_end = hyp_start + hyp_length
        self.hyp_mask = ((1 << hyp_length) - 1) << hyp_start
        self.ref_mask = ((1 << ref_length) - 1) << ref_start
        self.distance = abs(ref_start - hyp_start)

    def __repr__(self) -> str:
        return (f"Match(ref={self.ref_start}+{self.ref_length}, hyp={self.hyp_start}+{self.hyp_length}, "
                f"{MODULE_NAMES[self.module]})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[int, int, int, int, int]:
        return self.ref_start, self.ref_length, self.hyp_start, self.hyp_length, self.module


# A partial alignment in the beam (Meteor's ``PartialAlignment``) is a tuple,
# cheap to create in the inner loop:
# (−weighted coverage, chunks closed, distance, used hypothesis words (bit
#  mask), used reference words, end of the last match in the hypothesis or −1,
#  next reference position, chosen matches as a linked list (match, rest)).
_rank = itemgetter(0, 1, 2)
"""Meteor's ``PARTIAL_COMPARE_TOTAL``: more coverage, then fewer chunks, then less distance."""


def _fixed_matches(candidates: Sequence[Sequence[Match]], hyp_length: int, ref_length: int) -> dict[int, Match]:
    """Candidates that are alone at their position and share no word with another candidate."""
    hyp_coverage = [0] * hyp_length
    ref_coverage = [0] * ref_length
    for at_position in candidates:
        for match in at_position:
            for i in range(match.hyp_start, match.hyp_end):
                hyp_coverage[i] += 1
            for j in range(match.ref_start, match.ref_end):
                ref_coverage[j] += 1
    fixed = {}
    for position, at_position in enumerate(candidates):
        if len(at_position) == 1:
            match = at_position[0]
            if all(ref_coverage[j] == 1 for j in range(match.ref_start, match.ref_end)) and all(
                hyp_coverage[i] == 1 for i in range(match.hyp_start, match.hyp_end)
            ):
                fixed[position] = match
    return fixed


def coverage_gain(match: Match, weights: Weights) -> int:
    """What a match adds to a partial alignment's coverage in Meteor's ranking.

    Meteor keeps each side's coverage as an integer and adds
    ``(int) (covered + length × weight)``, so a one-word match of a module
    weighted below 1 (stem, synonym) adds nothing, and a phrase adds the whole
    part of length × weight. (``covered`` is a whole number, so this is the
    sum of the whole parts, unless length × weight lies within rounding of the
    next whole number, which the weights Meteor ships never bring about.)
    """
    weight = weights[match.module]
    return int(match.hyp_length * weight) + int(match.ref_length * weight)


def resolve(candidates: Sequence[Sequence[Match]], hyp_length: int, ref_length: int,
            weights: Weights = SEARCH_WEIGHTS, beam_size: int = BEAM_SIZE) -> list[Match]:
    """Meteor's alignment of one sentence pair from the candidate matches at each reference position.

    ``weights``: what the search ranks partial alignments with (:func:`coverage_gain`);
    Meteor's are :data:`SEARCH_WEIGHTS`.
    """
    fixed = _fixed_matches(candidates, hyp_length, ref_length)
    gains = {match: coverage_gain(match, weights) for at_position in candidates for match in at_position}
    if all(match.ref_length == 1 for at_position in candidates for match in at_position):
        best = _search_words(candidates, fixed, ref_length, beam_size, gains)
    else:
        best = _search_phrases(candidates, fixed, ref_length, beam_size, gains)
    chosen: list[Match] = list(fixed.values())
    while best is not None:
        chosen.append(best[0])
        best = best[1]
    return sorted(chosen, key=lambda match: match.ref_start)


def _search_words(candidates: Sequence[Sequence[Match]], fixed: dict[int, Match], ref_length: int,
                  beam_size: int, gains: dict[Match, int]) -> tuple | None:  # type: ignore[type-arg]
    """Meteor's beam search when every candidate covers one reference word.

    Then the next reference position is always the current one and only fixed
    matches occupy reference words ahead, so a partial alignment needs no
    reference mask: (−coverage, chunks, distance, used hypothesis words, end
    of the last match or −1, chosen matches). Steps that change nothing are
    not spelled out. Distances are Meteor's (see :func:`resolve`).
    """
    used = 0
    for match in fixed.values():
        used |= match.hyp_mask
    paths: list[tuple] = [(0, 0, 0, used, -1, None)]  # type: ignore[type-arg]
    for current in range(ref_length):
        if len(paths) > 1:
            paths.sort(key=_rank)
            del paths[beam_size:]
        match = fixed.get(current)
        if match is not None:
            gain, start, end, distance_ = gains[match], match.hyp_start, match.hyp_end, match.distance
            paths = [(s - gain, c + (e != -1 and e != start), d + distance_, u, end, chosen)
                     for s, c, d, u, e, chosen in paths]
            continue
        at_current = [(match, gains[match]) for match in candidates[current]]
        if not at_current:
            # An unmatched reference word ends every open chunk.
            paths = [path if path[4] == -1 else (path[0], path[1] + 1, path[2], path[3], -1, path[5])
                     for path in paths]
            continue
        next_paths: list[tuple] = []  # type: ignore[type-arg]
        append = next_paths.append
        for path in paths:
            s, c, d, u, e, chosen = path
            for match, gain in at_current:
                if match.hyp_mask & u:
                    continue
                append((s - gain, c + (e != -1 and match.hyp_start != e), d,
                        u | match.hyp_mask, match.hyp_end, (match, chosen)))
                d += match.distance  # Meteor's: to the path that skips it, and to later siblings
            append((s, c + (e != -1), d, u, -1, chosen))
        paths = next_paths
    # Meteor's last step: rank, keep the beam, close each path's last chunk, take the best.
    paths.sort(key=_rank)
    return min(((p[0], p[1] + (p[4] != -1), p[2], p[5]) for p in paths[:beam_size]), key=_rank)[3]


def _search_phrases(candidates: Sequence[Sequence[Match]], fixed: dict[int, Match], ref_length: int,
                    beam_size: int, gains: dict[Match, int]) -> tuple | None:  # type: ignore[type-arg]
    """Meteor's beam search in general (paraphrase matches span several words).

    A partial alignment is (−coverage, chunks, distance, used hypothesis
    words, used reference words, end of the last match or −1, next reference
    position, chosen matches as a linked list).
    """
    used_hyp = used_ref = 0
    for match in fixed.values():
        used_hyp |= match.hyp_mask
        used_ref |= match.ref_mask
    paths: list[tuple] = [(0, 0, 0, used_hyp, used_ref, -1, 0, None)]  # type: ignore[type-arg]
    for current in range(ref_length):
        if len(paths) > 1:
            paths.sort(key=_rank)
            del paths[beam_size:]
        next_paths: list[tuple] = []  # type: ignore[type-arg]
        append = next_paths.append
        at_current = candidates[current]
        bit = 1 << current
        for path in paths:
            score, chunks, distance, used_hyp, used_ref, last_end, idx, chosen = path
            if used_ref & bit:
                if current < idx:
                    append(path)
                else:
                    match = fixed.get(current)
                    if match is not None:
                        append((score - gains[match], chunks + (last_end != -1 and match.hyp_start != last_end),
                                distance + match.distance, used_hyp, used_ref, match.hyp_end, match.ref_end, chosen))
                continue
            for match in at_current:
                if match.hyp_mask & used_hyp or match.ref_mask & used_ref:
                    continue
                append((score - gains[match], chunks + (last_end != -1 and match.hyp_start != last_end),
                        distance, used_hyp | match.hyp_mask, used_ref | match.ref_mask,
                        match.hyp_end, match.ref_end, (match, chosen)))
                distance += match.distance  # Meteor's: to the path that skips it, and to later siblings
            # Leave this reference word unmatched: a chunk in progress ends.
            append((score, chunks + (last_end != -1), distance, used_hyp, used_ref, -1, idx + 1, chosen))
        paths = next_paths or paths[:1]
    paths.sort(key=_rank)
    return min(((p[0], p[1] + (p[5] != -1), p[2], p[7]) for p in paths[:beam_size]), key=_rank)[3]


def count_chunks(matches: Sequence[Match], ref_length: int) -> int:
    """Chunks of an alignment: runs adjacent and in the same order in both strings (Meteor's ``getCountAndChunks``)."""
    by_start = {match.ref_start: match for match in matches}
    chunks = 0
    idx = 0
    last_end = -1
    while idx < ref_length:
        match = by_start.get(idx)
        if match is None:
            if last_end != -1:
                chunks += 1
                last_end = -1
            idx += 1
        else:
            if last_end != -1 and match.hyp_start != last_end:
                chunks += 1
            idx = match.ref_start + match.ref_length
            last_end = match.hyp_start + match.hyp_length
    return chunks + (last_end != -1)


# ---------------------------------------------------------------------------
# Matching stages


def candidates(hyp: Analysed, ref: Analysed, modules: Sequence[int],
               paraphrases: ParaphraseTable | None = None) -> list[list[Match]]:
    """Candidate matches of every module, listed at their reference start position."""
    at: list[list[Match]] = [[] for _ in ref.tokens]
    for module in modules:
        if module == EXACT:
            for j, token in enumerate(ref.tokens):
                for i in hyp.positions.get(token, ()):
                    at[j].append(Match(j, 1, i, 1, EXACT))
        elif module == STEM:
            by_stem: dict[str, list[int]] = {}
            for i, stem in enumerate(hyp.stems):
                by_stem.setdefault(stem, []).append(i)
            for j, stem in enumerate(ref.stems):
                for i in by_stem.get(stem, ()):
                    if hyp.tokens[i] != ref.tokens[j]:  # Meteor's StemMatcher skips identical words only
                        at[j].append(Match(j, 1, i, 1, STEM))
        elif module == SYNONYM:
            _synonym_candidates(hyp, ref, at)
        elif paraphrases is not None:  # only METEOR-pa has a table, and it cannot be built without one
            _paraphrase_candidates(hyp, ref, at, paraphrases)
    return at


def _synonym_candidates(hyp: Analysed, ref: Analysed, at: list[list[Match]]) -> None:
    hyp_synsets = [(i, synsets) for i, synsets in enumerate(hyp.synsets) if synsets]
    if not hyp_synsets:
        return
    for j, ref_synsets in enumerate(ref.synsets):
        if not ref_synsets:
            continue
        token = ref.tokens[j]
        for i, synsets in hyp_synsets:
            # Meteor's SynonymMatcher does not skip pairs the stem stage matched: such a pair
            # has two candidates, which keeps it out of the fixed matches and orders the search.
            if hyp.tokens[i] != token and not synsets.isdisjoint(ref_synsets):
                at[j].append(Match(j, 1, i, 1, SYNONYM))


def _paraphrase_candidates(hyp: Analysed, ref: Analysed, at: list[list[Match]], table: ParaphraseTable) -> None:
    """Meteor 1.5's ``ParaphraseMatcher``: two passes, every match kept, in the jar's order.

    First every phrase of the reference (start position, then length, then
    the table's order of its paraphrases) whose paraphrase occurs in the
    hypothesis (each occurrence, left to right); then every phrase of the
    hypothesis whose paraphrase occurs in the reference. A match found by both
    passes (a table that lists a pair both ways) is proposed twice, and pairs
    an earlier module proposed are proposed again, as in the jar: both keep
    such words out of the fixed matches and order the beam search.
    """
    hyp_at = _phrase_positions(hyp.tokens, table.longest)
    ref_at = _phrase_positions(ref.tokens, table.longest)
    lookup = table.entries.get
    for j in range(len(ref.tokens)):
        for n in range(1, min(table.max_phrase, len(ref.tokens) - j) + 1):
            for paraphrase in lookup(" ".join(ref.tokens[j : j + n]), ()):
                for i in hyp_at.get(paraphrase, ()):
                    at[j].append(Match(j, n, i, paraphrase.count(" ") + 1, PARAPHRASE))
    for i in range(len(hyp.tokens)):
        for n in range(1, min(table.max_phrase, len(hyp.tokens) - i) + 1):
            for paraphrase in lookup(" ".join(hyp.tokens[i : i + n]), ()):
                for j in ref_at.get(paraphrase, ()):
                    at[j].append(Match(j, paraphrase.count(" ") + 1, i, n, PARAPHRASE))


def _phrase_positions(tokens: tuple[str, ...], longest: int) -> dict[str, list[int]]:
    """Every phrase of up to ``longest`` words (joined by spaces) → its start positions, left to right."""
    positions: dict[str, list[int]] = {}
    for start in range(len(tokens)):
        for end in range(start + 1, min(start + longest, len(tokens)) + 1):
            positions.setdefault(" ".join(tokens[start:end]), []).append(start)
    return positions


def align(hyp: Analysed, ref: Analysed, propose: Callable[[Analysed, Analysed], list[list[Match]]],
          weights: Weights = SEARCH_WEIGHTS) -> list[Match]:
    """Meteor's alignment of two segments; ``propose`` gives the candidate matches (:func:`candidates`)."""
    if hyp.tokens == ref.tokens:
        return [Match(j, 1, j, 1, EXACT) for j in range(len(ref.tokens))]
    return resolve(propose(hyp, ref), len(hyp.tokens), len(ref.tokens), weights)
