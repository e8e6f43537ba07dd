"""Which words of a system output translate which source words: the bridge from a check-point to an output.

A check-point names source words; a human rater marks characters of the
output. To bring the two together, each output is word-aligned to its source:

* by **eflomal** (:mod:`checkpoints.extract.align_eflomal`), every system's
  output and the suite's reference in one corpus — eflomal learns from the
  corpus it aligns, so fourteen outputs of the same sources align better than
  one — with the suite's stored dictionary as priors. Output words are cut by
  :data:`OUTPUT_WORD` (words with inner hyphens and apostrophes, each other
  symbol alone), which keeps their character offsets;
* or from **Pharaoh files** the user made with any aligner: ``i-j`` links
  between the suite's source words (0-based, as in the suite's CoNLL-U) and
  the output's whitespace-separated tokens, one line per sentence pair.

Either way the result is, per output line, the output words' character
ranges and, per source word, the output words linked to it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from checkpoints.extract.dictionary import Lexicon
from checkpoints.extract.surface import surface_tokens
from checkpoints.io.pharaoh import read_pharaoh
from checkpoints.model import Alignment, Sentence

OUTPUT_WORD = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]")
"""An output word for the aligner: letters and digits with inner hyphens or apostrophes, or one other symbol."""
WHITESPACE_TOKEN = re.compile(r"\S+")
"""An output token of a Pharaoh file: what whitespace separates."""

Span = tuple[int, int]
"""Character range ``[start, end)``."""


@dataclass(frozen=True, slots=True)
class LinkedOutput:
    """One output line: its words' character ranges and the words each source word links to."""

    words: tuple[Span, ...]
    links: Mapping[int, tuple[int, ...]]

    def spans_of(self, source_indices: Sequence[int]) -> list[Span]:
        """The character ranges of the output words linked to any of ``source_indices``, in output order."""
        linked = sorted({word for index in source_indices for word in self.links.get(index, ())})
        return [self.words[word] for word in linked]


def word_spans(text: str, pattern: re.Pattern[str] = OUTPUT_WORD) -> tuple[Span, ...]:
    return tuple((match.start(), match.end()) for match in pattern.finditer(text))


def _linked(words: tuple[Span, ...], alignment: Alignment) -> LinkedOutput:
    links: dict[int, list[int]] = {}
    for source, target in sorted(alignment.links):
        links.setdefault(source, []).append(target)
    return LinkedOutput(words, {source: tuple(targets) for source, targets in links.items()})


def align_outputs(
    sources: Sequence[Sentence],
    outputs: Mapping[str, Sequence[str]],
    lexicon: Lexicon | None = None,
    *,
    seed: int | None = None,
) -> dict[str, list[LinkedOutput]]:
    """Every output aligned to the sources with eflomal in one corpus (module docstring),
    its sampling seeded with ``seed`` (None: eflomal's own random seed).

    The aligner reads lower-cased lemmas on the source side (as a build's
    eflomal does) and lower-cased words on the output side.
    """
    from checkpoints.extract.align_eflomal import EflomalAligner

    source_words = [
        [(token.lemma if token.lemma not in ("", "_") else token.form).lower() for token in sentence.tokens]
        for sentence in sources
    ]
    spans = {name: [word_spans(line) for line in lines] for name, lines in outputs.items()}
    corpus = [
        (source, [line[start:end].lower() for start, end in ranges])
        for name, lines in outputs.items()
        for source, line, ranges in zip(source_words, lines, spans[name], strict=True)
    ]
    alignments = iter(EflomalAligner(seed=seed).align(corpus, lexicon))
    return {name: [_linked(ranges, next(alignments)) for ranges in spans[name]] for name in outputs}


def read_output_links(path: str | Path, sources: Sequence[Sentence], lines: Sequence[str]) -> list[LinkedOutput]:
    """A Pharaoh file of links between the suite's source words and the output's whitespace tokens.

    Raises:
        InputError: ``FILE:LINE: problem`` for a line count that differs from
            the output's, or a link outside its sentences.
    """
    spans = [word_spans(line, WHITESPACE_TOKEN) for line in lines]
    alignments = read_pharaoh(path, [len(sentence.tokens) for sentence in sources], [len(ranges) for ranges in spans])
    return [_linked(ranges, alignment) for ranges, alignment in zip(spans, alignments, strict=True)]


def source_spans(sentence: Sentence) -> list[Span | None]:
    """Each source word's character range in the sentence's text (a multi-word token's words
    share the token's range); None where the text does not spell the token out."""
    ranges: list[Span | None] = [None] * len(sentence.tokens)
    text = sentence.text
    cursor = 0
    for unit in surface_tokens(sentence):
        start = text.find(unit.form, cursor)
        if start < 0 or text[cursor:start].strip():
            continue
        cursor = start + len(unit.form)
        for index in range(unit.first, unit.last + 1):
            ranges[index] = (start, cursor)
    return ranges
