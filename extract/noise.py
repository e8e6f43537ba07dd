"""Parser-noise control (Zhou et al. 2008, §4.1): keep a phrase check-point only
where two independent analyses agree on it.

Zhou et al. intersect two constituency parsers. Here the two analyses are the
dependency tree the check-point was found in and a constituency tree of the
same sentence (stanza's constituency parser, or a ``# constituency =`` comment
in CoNLL-U input). They *agree* when the check-point's words form one
contiguous stretch and the constituency tree has a phrase (a node above the
part-of-speech level) spanning exactly that stretch, with one of the labels the
category declares (``constituent="NP|NML"`` in the taxonomy).

Only categories that declare constituent labels are filtered: the others
(a subject with its predicate, 他们反对 or 他*说) are relations rather than
constituents, and a constituency parser has no phrase for them to agree on. A
sentence without a tree, or whose tree's leaves do not match its words one to
one, is not filtered either; the build summary counts both cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from checkpoints.model import Sentence, Token

if TYPE_CHECKING:
    from nltk import Tree


@dataclass(frozen=True, slots=True)
class ConstituentSpans:
    """Phrase spans of a constituency tree: ``(first, last)`` word indices → labels."""

    spans: dict[tuple[int, int], frozenset[str]]

    def agrees(self, indices: Sequence[int], labels: Sequence[str]) -> bool:
        first, last = indices[0], indices[-1]
        found = self.spans.get((first, last))
        if found is None:
            return False
        return bool(found & set(labels))


def constituent_spans(sentence: Sentence) -> ConstituentSpans | None:
    """The phrase spans of the sentence's tree; None without a usable tree."""
    if not sentence.constituency:
        return None
    from nltk import Tree  # nltk takes a second and a half to import; most corpora have no trees

    try:
        tree = Tree.fromstring(sentence.constituency)
    except ValueError:
        return None
    if len(tree.leaves()) != len(sentence.tokens):
        return None
    spans: dict[tuple[int, int], set[str]] = {}

    def visit(node: Tree, start: int) -> int:
        position = start
        for child in node:
            if isinstance(child, Tree):
                position = visit(child, position)
            else:
                position += 1
        is_preterminal = len(node) == 1 and not isinstance(node[0], Tree)
        if not is_preterminal and position > start:
            label = node.label().split("-")[0].split("=")[0] or node.label()
            spans.setdefault((start, position - 1), set()).add(label)
        return position

    visit(tree, 0)
    return ConstituentSpans({span: frozenset(labels) for span, labels in spans.items()})


def is_contiguous(indices: Sequence[int]) -> bool:
    return bool(indices) and indices[-1] - indices[0] + 1 == len(indices)


VERBAL_HEADS = frozenset({"VERB", "AUX"})


def is_title(tokens: Sequence[Token], indices: Sequence[int], head: int) -> bool:
    """Whether a verb phrase or clause is a title written in title case, not a clause of the sentence.

    A parser reads the titles of songs, films and books as the clauses their
    words would make ("Knuck If You Buck": an adverbial clause "If You Buck";
    "Breaking My Heart": a verb phrase), and an aligner gives them whatever
    the reference says around the title. Such a span starts after the first
    word of its sentence, has a verb as its head (``head``, a position in
    ``tokens``; a capitalised noun phrase is a name, and names are noun
    phrases), and every one of its words, two or more, starts with a capital
    letter: a quoted sentence ("Go home") has lower-case words, and a German
    clause lower-case verbs. Scripts without case never look like titles.
    """
    if min(indices) == 0 or tokens[head].upos not in VERBAL_HEADS:
        return False
    words = [tokens[i].form for i in indices if tokens[i].form[:1].isalpha()]
    return len(words) >= 2 and all(word[:1].isupper() for word in words)
