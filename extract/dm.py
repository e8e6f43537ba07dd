"""Zhou et al. 2008, formula (1): the dictionary matching degree of a reference.

    DM(c.r) = max(0.1, CoCnt(c.r, Dic(c.s)) / WordCnt(c.r))

Dic(c.s) is the bag of words of the dictionary translations of every source
word of the check-point: each source word contributes each distinct word of
its translations once (:meth:`~checkpoints.extract.lexicon.Lexicon.words`).
Each source word also offers itself once, because identical forms, numbers
and names count as dictionary matches
(:func:`~checkpoints.extract.wordmatch.same_word`); it does not when its own
form is already among its translation words, or "Madrid" → "madrid" would be
offered twice.

CoCnt is the multiset intersection of the reference words with that bag: a
reference word is matched by a bag item when its form or lemma is that word
(or, for a source word's own item, when the two words match without a
dictionary), and every item matches at most one reference word. CoCnt is the
largest such matching, found with augmenting paths, so the result does not
depend on the order of the words. WordCnt counts the reference words, gaps
(``*``) excluded. The floor of 0.1 is the paper's: a dictionary's silence
does not prove a reference wrong. References not obtained from the alignment
(sentence-level categories) have DM 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from checkpoints.extract.lexicon import Lexicon
from checkpoints.extract.wordmatch import same_word
from checkpoints.model import Token

DM_FLOOR = 0.1


def dictionary_matching_degree(
    source_tokens: Sequence[Token],
    reference_tokens: Sequence[Token],
    lexicon: Lexicon,
) -> float:
    if not reference_tokens:
        return DM_FLOOR
    items_by_word: dict[str, list[int]] = {}
    own_items: list[tuple[int, Token]] = []
    item_count = 0
    for token in source_tokens:
        words = lexicon.words(token)
        for word in words:
            items_by_word.setdefault(word, []).append(item_count)
            item_count += 1
        if token.form.lower() not in words:
            own_items.append((item_count, token))
            item_count += 1
    candidates: list[list[int]] = []
    for token in reference_tokens:
        form, lemma = token.form.lower(), token.lemma.lower()
        found = list(items_by_word.get(form, ()))
        if lemma not in ("_", form):
            found.extend(items_by_word.get(lemma, ()))
        found.extend(item for item, source in own_items if same_word(source, token))
        candidates.append(found)
    return max(DM_FLOOR, maximum_matching(candidates) / len(reference_tokens))


def maximum_matching(candidates: Sequence[Sequence[int]]) -> int:
    """The size of a largest matching of rows (reference words) to items, each row
    listing the items it may take (Kuhn's augmenting paths; rows are few).

    Written out rather than taken from scipy or networkx: a reference has a
    handful of words, and their matching routines cost tens of microseconds
    of set-up per call, which over a suite's twenty thousand references
    made the whole extraction 25% slower (measured with benchmarks/build.py).
    """
    owner: dict[int, int] = {}
    return sum(1 for row in range(len(candidates)) if candidates[row] and _augment(candidates, owner, row, set()))


def _augment(candidates: Sequence[Sequence[int]], owner: dict[int, int], row: int, seen: set[int]) -> bool:
    """Kuhn's augmenting path from ``row``; a module function, not a closure calling itself,
    which would be a reference cycle left for the (paused) cyclic collector."""
    for item in candidates[row]:
        if item in seen:
            continue
        seen.add(item)
        if item not in owner or _augment(candidates, owner, owner[item], seen):
            owner[item] = row
            return True
    return False
