"""Check-point n-gram matching (Zhou et al. 2008, §5).

A check-point reference is a token sequence that may contain ``*`` gaps
("They * playing"). Its **n-grams** are all its contiguous sub-sequences that
neither start nor end with ``*``: "playing a drum" has 6, "They * playing"
has 3 (They; playing; They * playing). Consecutive gaps count as one gap, and
gaps at either end are dropped, since no n-gram can start or end there.

How often an n-gram *matches* a candidate translation:

- an n-gram without a gap matches at every position where it occurs,
  overlapping occurrences included (as BLEU counts n-grams);
- an n-gram with gaps ``P1 * P2 * ... * Pk`` matches where its parts occur in
  order, each part starting at or after the end of the previous one, with any
  number of words (zero or more) in between. Its count is the number of
  **non-overlapping** occurrences found greedily from left to right: take the
  earliest ``P1``, then the earliest ``P2`` after it, ..., count one, and go on
  after the end of ``Pk``. Taking the earliest part each time ends every
  occurrence as early as possible, so the greedy count is also the largest
  number of non-overlapping occurrences.

Matches are **clipped** as in BLEU: an n-gram that occurs k times in the
reference counts at most k times, so a reference's matched count is
``Σ min(count in reference, matches in candidate)`` and its total is the number
of its n-grams ``Σ count in reference``.

Words are compared after tokenization with the same match tokenizer on both
sides (:func:`reference_match_tokens`, :func:`candidate_match_tokens`) and after
the granularity's normalisation (:func:`normalizer`: exact form, lower case, or
Snowball stem of the lower-cased word).

Two implementations share this definition. The functions
(:func:`reference_ngrams`, :func:`match_counts`, :func:`matched_ngrams`) work on
one reference and one candidate and serve drill-down and as the executable
definition. :class:`ReferenceIndex` compiles every reference of a suite once
(an n-gram trie over interned tokens) and matches a whole system output with
numpy, which is what makes evaluating hundreds of thousands of check-points
per second possible; tests check that both agree.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from enum import StrEnum

from checkpoints.errors import UsageError
from checkpoints.evaluate.stemming import get_stemmer
from checkpoints.model import GAP
from checkpoints.tokenizers import Tokenize

Ngram = tuple[str, ...]


class MatchMode(StrEnum):
    """Matching granularity (Zhou §5): exact form, lower case, or Snowball stem."""

    NORMAL = "normal"
    LOWER = "lower"
    STEM = "stem"


def match_mode(value: MatchMode | str) -> MatchMode:
    """Parse ``--match``; an unknown value is a usage error naming the choices."""
    try:
        return MatchMode(value)
    except ValueError:
        choices = ", ".join(mode.value for mode in MatchMode)
        raise UsageError(f"unknown match mode {value!r} (choose from {choices})") from None


def normalizer(mode: MatchMode | str, language: str | None = None) -> Callable[[str], str]:
    """The word → matching form function for a granularity.

    ``stem`` lower-cases before stemming: the Snowball algorithms are defined
    on lower-case words (an upper-case vowel is not a vowel to them), so
    stemming mixed-case text would both miss suffixes and keep case
    differences that lower-case matching already forgives.
    """
    mode = match_mode(mode)
    if mode is MatchMode.NORMAL:
        return _identity
    if mode is MatchMode.LOWER:
        return str.lower
    stem = get_stemmer(language or "")

    def lower_stem(word: str) -> str:
        return stem(word.lower())

    return lower_stem


def _identity(word: str) -> str:
    return word


ASTERISK = "\ue000*"
"""A literal ``*`` in a text, kept apart from the gap marker while matching.

Tokenizers split "f*ck" or "5*3" around the asterisk; inside a reference
stretch or a candidate that word must stay a word (matching only a literal
asterisk), not become a gap.
"""


def reference_match_tokens(tokens: Sequence[str], tokenize: Tokenize) -> list[str]:
    """A stored reference (parser tokens with ``*``) re-tokenized for matching.

    Each gap-free stretch is joined and tokenized with the match tokenizer, so
    that the reference and the candidate are cut into words the same way;
    one ``*`` is kept between non-empty stretches.
    """
    out: list[str] = []
    for stretch in _stretches(tokens):
        words = literal_asterisks(tokenize(" ".join(stretch)))
        if not words:
            continue
        if out:
            out.append(GAP)
        out.extend(words)
    return out


def candidate_match_tokens(text: str, tokenize: Tokenize) -> list[str]:
    """A system translation tokenized for matching (an asterisk in it is a word)."""
    return literal_asterisks(tokenize(text))


def literal_asterisks(words: list[str]) -> list[str]:
    """Words as produced by a tokenizer, with a ``*`` word marked as literal."""
    return [ASTERISK if word == GAP else word for word in words] if GAP in words else words


def _stretches(tokens: Sequence[str]) -> list[list[str]]:
    stretches: list[list[str]] = [[]]
    for token in tokens:
        if token == GAP:
            stretches.append([])
        else:
            stretches[-1].append(token)
    return [stretch for stretch in stretches if stretch]


def normalize_tokens(tokens: Sequence[str], normalize: Callable[[str], str]) -> list[str]:
    """Apply a granularity to every word, keeping ``*`` gaps as they are."""
    return [token if token == GAP else normalize(token) for token in tokens]


def reference_parts(tokens: Sequence[str]) -> list[tuple[str, ...]]:
    """The gap-free parts of a reference: "a b * c" → [("a", "b"), ("c",)]."""
    return [tuple(stretch) for stretch in _stretches(tokens)]


DEFAULT_MAX_ORDER = 4
"""Longest n-gram counted, in words (gaps excluded), as in BLEU.

Zhou §5 counts "all grams", which makes a long reference's credit a cubic
sum dominated by long n-grams that no translation reproduces: a 28-word
sentence has 406 n-grams, 378 of them longer than 4 words, and every
sentence-level category then scores about 0.06 whatever the system.
"""


def parse_max_order(value: int | str | None) -> int | None:
    """``--max-order``: a positive number of words, or ``all`` (None: every order, Zhou's literal count)."""
    if value is None or (isinstance(value, str) and value.strip().lower() == "all"):
        return None
    try:
        order = int(value)
    except ValueError:
        raise UsageError(f"--max-order {value!r}: give a positive number of words or 'all'") from None
    if order < 1:
        raise UsageError(f"--max-order {order}: give a positive number of words or 'all'")
    return order


def order_label(max_order: int | None) -> str:
    """How runs and signatures name a maximum order: ``4`` or ``all``."""
    return "all" if max_order is None else str(max_order)


def ngram_order(ngram: Sequence[str]) -> int:
    """The number of words of an n-gram, gaps excluded: "They * playing" is a 2-gram."""
    return sum(1 for word in ngram if word != GAP)


def reference_ngram_list(tokens: Sequence[str], max_order: int | None = None) -> list[Ngram]:
    """Every n-gram occurrence of a reference up to ``max_order`` words, in a fixed order (with repeats).

    The order depends only on the positions of words and gaps, so a reference
    and its lower-cased or stemmed form list corresponding n-grams at the
    same index (drill-down shows the matched n-grams in their original form).
    An n-gram with gaps is a tuple with one ``*`` between its parts:
    ``("They", "*", "playing")``; its order counts its words only.
    """
    limit = max_order if max_order is not None else len(tokens)
    parts = reference_parts(tokens)
    out: list[Ngram] = []
    for part in parts:
        for start in range(len(part)):
            for end in range(start + 1, min(len(part), start + limit) + 1):
                out.append(part[start:end])
    for first in range(len(parts)):
        for last in range(first + 1, len(parts)):
            middle: list[str] = []
            for part in parts[first + 1 : last]:
                middle.extend((GAP, *part))
            inside = sum(len(part) for part in parts[first + 1 : last])
            head, tail = parts[first], parts[last]
            for start in range(len(head)):
                for end in range(1, len(tail) + 1):
                    if len(head) - start + inside + end <= limit:
                        out.append((*head[start:], *middle, GAP, *tail[:end]))
    return out


def reference_ngrams(tokens: Sequence[str], max_order: int | None = None) -> Counter[Ngram]:
    """All n-grams of a reference up to ``max_order`` words, with their counts (see the module docstring)."""
    return Counter(reference_ngram_list(tokens, max_order))


def _occurrences(part: Sequence[str], candidate: Sequence[str]) -> list[int]:
    size = len(part)
    target = tuple(part)
    return [i for i in range(len(candidate) - size + 1) if tuple(candidate[i : i + size]) == target]


def ngram_matches(ngram: Sequence[str], candidate: Sequence[str]) -> int:
    """How many times an n-gram matches a candidate (before clipping)."""
    parts = reference_parts(ngram)
    if len(parts) == 1:
        return len(_occurrences(parts[0], candidate))
    starts = [_occurrences(part, candidate) for part in parts]
    count = 0
    cursor = 0
    while True:
        for part, positions in zip(parts, starts, strict=True):
            index = bisect_left(positions, cursor)
            if index == len(positions):
                return count
            cursor = positions[index] + len(part)
        count += 1


def clipped_matches(
    reference_tokens: Sequence[str], candidate_tokens: Sequence[str], max_order: int | None = None
) -> list[tuple[Ngram, int, int]]:
    """Each n-gram of the reference with its reference count and clipped matches."""
    return [
        (ngram, count, min(count, ngram_matches(ngram, candidate_tokens)))
        for ngram, count in reference_ngrams(reference_tokens, max_order).items()
    ]


def match_counts(
    reference_tokens: Sequence[str], candidate_tokens: Sequence[str], max_order: int | None = None
) -> tuple[int, int]:
    """``(matched, total)`` n-grams of one reference against one candidate."""
    rows = clipped_matches(reference_tokens, candidate_tokens, max_order)
    return sum(matched for _, _, matched in rows), sum(count for _, count, _ in rows)


def matched_ngrams(
    reference_tokens: Sequence[str], candidate_tokens: Sequence[str], max_order: int | None = None
) -> list[Ngram]:
    """The matched n-grams, each repeated as often as it counts after clipping."""
    out: list[Ngram] = []
    for ngram, _, matched in clipped_matches(reference_tokens, candidate_tokens, max_order):
        out.extend([ngram] * matched)
    return out


def ngram_text(ngram: Sequence[str]) -> str:
    """``("They", "*", "playing")`` → ``"They * playing"`` (a literal asterisk shows as ``*`` too)."""
    return " ".join(ngram).replace(ASTERISK, GAP)
