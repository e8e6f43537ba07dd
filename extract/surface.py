"""References written the way a translation is matched: surface tokens, not syntactic words.

Alignments and check-point spans count *syntactic words* (UD: Spanish "del" is
"de" + "el", German "zum" is "zu" + "dem"), but a system translation is raw
text, where those words only exist as "del" and "zum". A reference stored as
"de el" could never be matched, not even by the reference translation itself.
So a reference is written from the reference sentence's surface tokens:

* a multi-word token is taken whole as soon as any of its words is
  referenced ("of the bank" aligned to "de el banco" gives "del banco"),
  except a contraction that matching splits (:mod:`checkpoints.contractions`):
  it gives only its referenced words, so that "in" aligned to the "in" of
  German "im" gives "in", not the article with it;
* surface tokens written without a space between them ("Clinton" + "'s",
  "do" + "n't", "1990" + ".") are kept as they are written when both are
  referenced ("Clinton's"), and a referenced token pulls in its glued
  neighbour when the match tokenizer does not cut the text between them:
  "n't" alone would become "n ' t" and never match "don ' t", so it becomes
  "don't"; "Clinton" stays "Clinton", because "Clinton's" is cut into
  "Clinton ' s" anyway;
* ``*`` marks every stretch of unreferenced surface tokens between two
  referenced ones (Zhou §5's gaps).

Where the tokens are written without spaces is read from the sentence's text
(``# text`` in CoNLL-U), falling back to ``SpaceAfter=No`` marks when the text
does not spell the tokens out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from checkpoints.contractions import contraction_words
from checkpoints.model import GAP, Sentence
from checkpoints.tokenizers import Tokenize


@dataclass(frozen=True, slots=True)
class SurfaceToken:
    """A token as written: one syntactic word, or a multi-word token's words."""

    first: int
    last: int
    form: str
    glued: bool
    """Written without a space before the next token."""


def surface_tokens(sentence: Sentence) -> list[SurfaceToken]:
    """The sentence's tokens as written, in order, with where they are glued."""
    ranges = {mwt.first - 1: mwt for mwt in sentence.multiword}
    units: list[tuple[int, int, str, str]] = []
    index = 0
    while index < len(sentence.tokens):
        mwt = ranges.get(index)
        if mwt is not None and mwt.last - 1 >= index:
            units.append((index, mwt.last - 1, mwt.form, mwt.misc))
            index = mwt.last
        else:
            token = sentence.tokens[index]
            units.append((index, index, token.form, token.misc))
            index += 1
    glued = _glue_from_text(sentence.text, [form for _, _, form, _ in units])
    if glued is None:
        glued = ["SpaceAfter=No" in misc.split("|") for _, _, _, misc in units]
    return [SurfaceToken(first, last, form, glue) for (first, last, form, _), glue in zip(units, glued, strict=True)]


def _glue_from_text(text: str, forms: Sequence[str]) -> list[bool] | None:
    """Whether each form is directly followed by the next in ``text``; None if
    the text does not spell the forms out in order."""
    if not text:
        return None
    positions: list[tuple[int, int]] = []
    cursor = 0
    for form in forms:
        start = text.find(form, cursor)
        if start < 0 or text[cursor:start].strip():
            return None
        positions.append((start, start + len(form)))
        cursor = start + len(form)
    return [end == following for (_, end), (following, _) in zip(positions, [*positions[1:], (-1, -1)], strict=True)]


class SurfaceForms:
    """One reference sentence's surface tokens, ready to write references from.

    Built once per sentence (a sentence carries dozens of check-points);
    how the tokenizer cuts each glued run is worked out at most once.
    """

    def __init__(self, sentence: Sentence, tokenize: Tokenize) -> None:
        self.units = surface_tokens(sentence)
        self._tokenize = tokenize
        self._language = sentence.language
        self._unit_of = {
            word: number for number, unit in enumerate(self.units) for word in range(unit.first, unit.last + 1)
        }
        self._run_of: dict[int, tuple[int, int]] = {}
        for start, end in _glued_runs(self.units):
            for number in range(start, end + 1):
                self._run_of[number] = (start, end)
        self._pieces: dict[tuple[int, int], list[tuple[int, int]]] = {}

    def reference(self, indices: Sequence[int]) -> list[str]:
        """The surface tokens of the words at ``indices``, glued runs kept as written, ``*`` for gaps."""
        referenced = set(indices)
        chosen = {self._unit_of[index] for index in referenced if index in self._unit_of}
        for run in {self._run_of[number] for number in chosen}:
            if run[0] == run[1]:
                continue
            for first, last in self._run_pieces(run):
                if any(first <= number <= last for number in chosen):
                    chosen.update(range(first, last + 1))
        units = self.units
        out: list[str] = []
        previous: int | None = None
        open_after = False  # the unit before ended in unreferenced words of a split contraction
        for number in sorted(chosen):
            unit = units[number]
            split = self._referenced_words(unit, referenced)
            if previous is not None and (number > previous + 1 or open_after or (split is not None and split[1])):
                out.append(GAP)
            if split is not None:
                out.extend(split[0])
            elif previous is not None and number == previous + 1 and units[previous].glued and not open_after:
                out[-1] += unit.form
            else:
                out.append(unit.form)
            open_after = split is not None and split[2]
            previous = number
        return out

    def _referenced_words(self, unit: SurfaceToken, referenced: set[int]) -> tuple[list[str], bool, bool] | None:
        """The referenced words of a contraction that matching splits when only some of them are
        referenced, and whether unreferenced words of it come before and after them (a gap
        between them and the next referenced token); None for any other unit (written whole)."""
        if unit.first == unit.last:
            return None
        words = contraction_words(unit.form, self._language)
        if words is None or len(words) != unit.last - unit.first + 1:
            return None
        picked = [offset for offset in range(len(words)) if unit.first + offset in referenced]
        if not picked or len(picked) == len(words) or picked != list(range(picked[0], picked[-1] + 1)):
            return None  # whole, or words on both sides of an unreferenced one: written whole
        return [words[offset] for offset in picked], picked[0] > 0, picked[-1] < len(words) - 1

    def _run_pieces(self, run: tuple[int, int]) -> list[tuple[int, int]]:
        pieces = self._pieces.get(run)
        if pieces is None:
            pieces = self._pieces[run] = _pieces(self.units, run[0], run[1], self._tokenize)
        return pieces


def _glued_runs(units: Sequence[SurfaceToken]) -> list[tuple[int, int]]:
    runs = []
    start = 0
    for number, unit in enumerate(units):
        if not unit.glued or number == len(units) - 1:
            runs.append((start, number))
            start = number + 1
    return runs


def _pieces(units: Sequence[SurfaceToken], start: int, end: int, tokenize: Tokenize) -> list[tuple[int, int]]:
    """A glued run cut into the smallest pieces the tokenizer keeps apart.

    The run may be cut after unit k when tokenizing the two sides separately
    gives the same tokens as tokenizing the whole run.
    """
    forms = [unit.form for unit in units[start : end + 1]]
    whole = tokenize("".join(forms))
    pieces = []
    first = start
    for cut in range(1, len(forms)):
        if tokenize("".join(forms[:cut])) + tokenize("".join(forms[cut:])) == whole:
            pieces.append((first, start + cut - 1))
            first = start + cut
    pieces.append((first, end))
    return pieces
