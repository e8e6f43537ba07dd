"""CoNLL-U reader with errors that name file and line.

stanza has its own reader (used by the stanza adapter and its tests); this one
exists because a build must say *where* a hand-made file is wrong, and because
it is a few times faster on large corpora. It keeps comments, ``# text``,
``# constituency`` (stanza's way of storing a tree), multi-word token ranges
for the surface text, and skips empty nodes (``8.1``).

Every dependency tree is checked (one root, no cycle, heads inside the
sentence): the taxonomies walk heads and subtrees, so a malformed tree would
silently change which check-points a suite gets. Enhanced dependencies (DEPS)
and empty nodes take no part in the check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.io.lines import iter_lines
from checkpoints.model import MultiWordToken, Sentence, Token

_INT_ID = re.compile(r"^[1-9][0-9]*$")
_RANGE_ID = re.compile(r"^([1-9][0-9]*)-([1-9][0-9]*)$")
_EMPTY_ID = re.compile(r"^[0-9]+\.[1-9][0-9]*$")


def read_conllu(path: str | Path, language: str = "") -> list[Sentence]:
    """Every sentence of a CoNLL-U file, in file order."""
    return parse_conllu(iter_lines(path), path, language)


def iter_conllu(path: str | Path, language: str = "") -> Iterator[Sentence]:
    """The sentences of a CoNLL-U file one by one, for corpora too large to hold at once."""
    return _sentences(iter_lines(path), path, language)


def parse_conllu_string(text: str, language: str = "", name: str = "<string>") -> list[Sentence]:
    return parse_conllu(text.splitlines(), name, language)


def parse_conllu(lines: Iterable[str], path: str | Path, language: str = "") -> list[Sentence]:
    return list(_sentences(lines, path, language))


def _sentences(lines: Iterable[str], path: str | Path, language: str) -> Iterator[Sentence]:
    block: list[tuple[int, str]] = []
    number = 0
    found = False
    for number, line in enumerate(lines, start=1):
        if line.strip() == "":
            if block:
                yield _parse_block(block, path, language)
                found = True
                block = []
            continue
        block.append((number, line))
    if block:
        yield _parse_block(block, path, language)
        found = True
    if not found:
        raise InputError(path, None if number == 0 else number, "no sentences in this CoNLL-U file")


def _parse_block(block: list[tuple[int, str]], path: str | Path, language: str) -> Sentence:
    comments: list[str] = []
    tokens: list[Token] = []
    multiword: list[MultiWordToken] = []
    text: str | None = None
    constituency: str | None = None
    sent_id: str | None = None
    first_line = block[0][0]
    pending_ner: dict[int, str] = {}
    unattached: list[int] = []
    """Lines of words whose HEAD is ``_`` (no tree given)."""
    for number, line in block:
        if line.startswith("#"):
            comments.append(line)
            key, _, value = line[1:].partition("=")
            key = key.strip()
            if key == "text":
                text = value.strip()
            elif key == "constituency":
                constituency = value.strip()
            elif key == "sent_id":
                sent_id = value.strip()
            continue
        columns = line.split("\t")
        if len(columns) != 10:
            raise InputError(path, number, f"expected 10 tab-separated columns, found {len(columns)}")
        word_id = columns[0]
        if _EMPTY_ID.match(word_id):
            continue
        ranged = _RANGE_ID.match(word_id)
        if ranged:
            first, last = int(ranged.group(1)), int(ranged.group(2))
            if first != len(tokens) + 1 or last <= first:
                raise InputError(path, number, f"multi-word token range {word_id} does not start at word {len(tokens) + 1}")
            multiword.append(MultiWordToken(first, last, columns[1], columns[9]))
            ner = _misc_value(columns[9], "ner")
            if ner is not None:
                for index in range(first, last + 1):
                    pending_ner[index] = ner
            continue
        if not _INT_ID.match(word_id):
            raise InputError(path, number, f"bad word ID {word_id!r}: expected an integer, a range like 1-2 or an empty node like 3.1")
        if int(word_id) != len(tokens) + 1:
            raise InputError(path, number, f"word ID {word_id} out of order: expected {len(tokens) + 1}")
        form, lemma, upos, xpos, feats, head, deprel, _deps, misc = columns[1:]
        if form == "":
            raise InputError(path, number, "empty FORM column")
        if head == "_":
            head_value = 0
            if deprel not in ("_", ""):
                raise InputError(path, number, "HEAD is '_' but DEPREL is given")
            unattached.append(number)
        else:
            if not head.isdigit():
                raise InputError(path, number, f"HEAD {head!r} is not a non-negative integer")
            head_value = int(head)
        ner = _misc_value(misc, "ner") or pending_ner.get(int(word_id), "O")
        tokens.append(
            Token(
                form=form,
                lemma=lemma,
                upos=upos,
                xpos=xpos,
                feats=_parse_feats(feats, path, number),
                head=head_value,
                deprel=deprel,
                misc=misc,
                ner=ner,
            )
        )
    if not tokens:
        raise InputError(path, first_line, "sentence without words")
    count = len(tokens)
    for offset, token in enumerate(tokens, start=1):
        if token.head > count:
            line = _line_of_word(block, offset)
            raise InputError(path, line, f"HEAD {token.head} points beyond the sentence's {count} words")
        if token.head == offset:
            raise InputError(path, _line_of_word(block, offset), "a word cannot be its own head")
    if len(unattached) not in (0, count):
        raise InputError(path, unattached[0], "HEAD is '_' here but given for other words of the sentence")
    if not unattached:
        _check_tree(tokens, path, first_line)
    if multiword and multiword[-1].last > count:
        raise InputError(path, first_line, f"multi-word token {multiword[-1].first}-{multiword[-1].last} ends beyond the last word")
    return Sentence(
        tokens=tokens,
        text=text if text is not None else _surface_text(tokens, multiword),
        language=language,
        constituency=constituency,
        sent_id=sent_id,
        multiword=multiword,
        comments=comments,
        conllu="\n".join(line for _number, line in block) + "\n\n",
    )


def _check_tree(tokens: list[Token], path: str | Path, first_line: int) -> None:
    """One root and no head cycle (heads are already known to lie inside the sentence).

    A sentence whose every word has HEAD 0 and no DEPREL carries no tree (it is
    how a tagged but unparsed sentence is written back), so it is left alone.
    """
    heads = [token.head for token in tokens]
    roots = [word for word, head in enumerate(heads, start=1) if head == 0]
    if len(roots) == len(tokens) and all(token.deprel in ("_", "") for token in tokens):
        return
    if len(roots) > 1:
        listed = ", ".join(map(str, roots[:-1])) + f" and {roots[-1]}"
        raise InputError(path, first_line, f"the dependency tree has {len(roots)} roots: words {listed} have HEAD 0")
    cycle = _head_cycle(heads)
    if cycle:
        path_text = " → ".join(map(str, [*cycle, cycle[0]]))
        raise InputError(path, first_line, f"head cycle: words {path_text} (each word's HEAD is the next)")


def _head_cycle(heads: list[int]) -> list[int]:
    """The 1-based words of a cycle in ``heads`` (1-based, 0 = root), in head order; [] if none.

    Each word is visited once: a walk up the heads stops at the root or at a
    word an earlier walk has shown to reach the root.
    """
    state = [0] * (len(heads) + 1)  # 0 unvisited, 1 on the current walk, 2 reaches the root
    state[0] = 2
    for start in range(1, len(heads) + 1):
        walk: list[int] = []
        word = start
        while state[word] == 0:
            state[word] = 1
            walk.append(word)
            word = heads[word - 1]
        if state[word] == 1:
            return walk[walk.index(word):]
        for visited in walk:
            state[visited] = 2
    return []


def _line_of_word(block: list[tuple[int, str]], word: int) -> int:
    for number, line in block:
        if line.split("\t", 1)[0] == str(word):
            return number
    return block[0][0]


def _parse_feats(feats: str, path: str | Path, number: int) -> dict[str, str]:
    if feats in ("_", ""):
        return {}
    result: dict[str, str] = {}
    for item in feats.split("|"):
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise InputError(path, number, f"bad feature {item!r}: expected Name=Value")
        result[key] = value
    return result


def _misc_value(misc: str, key: str) -> str | None:
    if misc in ("_", ""):
        return None
    for item in misc.split("|"):
        name, sep, value = item.partition("=")
        if sep and name == key:
            return value
    return None


def _surface_text(tokens: list[Token], multiword: list[MultiWordToken]) -> str:
    """Rebuild the text from forms, multi-word tokens and ``SpaceAfter=No``."""
    pieces: list[str] = []
    ranges = {mwt.first: mwt for mwt in multiword}
    index = 1
    while index <= len(tokens):
        mwt = ranges.get(index)
        if mwt is not None:
            form, misc, index = mwt.form, mwt.misc, mwt.last + 1
        else:
            token = tokens[index - 1]
            form, misc, index = token.form, token.misc, index + 1
        pieces.append(form)
        if "SpaceAfter=No" not in misc.split("|"):
            pieces.append(" ")
    return "".join(pieces).strip()
