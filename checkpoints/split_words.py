"""Words a tokenizer split: runs of adjacent tokens that, written together, are one listed word.

Chinese treebanks and parsers cut some words into pieces (進 / 一 / 步 for
進一步 "further", 智能 / 手機 for 智能手機 "smartphone", 為 / 什麼 for 為什麼
"why"). A piece is no word of its own: the taxonomy must not find it as an
ambiguous or new word (:mod:`checkpoints.taxonomy.filters`), and a build must
not make a word check-point of a piece whose translation is the whole word's
(:func:`checkpoints.extract.reliability.split_word_piece`). Both ask the
question here, so that they agree on what a split word is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

MAX_RUN_TOKENS = 4
"""The longest run of tokens tried: four-character idioms split one character a token."""


def listed_runs(
    text_of: Callable[[int], str], length: int, first: int, last: int, listed: Callable[[str], bool], min_chars: int
) -> Iterator[tuple[int, int]]:
    """Every run ``(start, end)`` of tokens (inclusive) that covers ``first``–``last`` and at
    least one token more, at most :data:`MAX_RUN_TOKENS` long and ``min_chars`` characters
    written together, whose text is ``listed``; ``text_of`` gives a token's text, ``length`` is
    the sentence's number of tokens."""
    for start in range(max(0, last - MAX_RUN_TOKENS + 1), first + 1):
        for end in range(last, min(length, start + MAX_RUN_TOKENS)):
            if start == first and end == last:
                continue
            text = "".join(text_of(position) for position in range(start, end + 1))
            if len(text) >= min_chars and listed(text):
                yield start, end
