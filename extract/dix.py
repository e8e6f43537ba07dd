"""Apertium bilingual dictionaries (``.dix``), read with lxml.

Entries look like ``<e><p><l>house<s n="n"/></l><r>casa<s n="n"/></r></p></e>``,
identity entries like ``<e><i>Madrid</i></e>``; ``<b/>`` is a space, tags
(``<s>``) are dropped, and ``r="LR"``/``r="RL"`` restrict an entry to one
direction, which is why both directions are collected before choosing one.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from lxml import etree

from checkpoints.errors import InputError
from checkpoints.extract.langcodes import language, languages_in_name
from checkpoints.extract.lexicon import Lexicon
from checkpoints.io.xml import parse_xml_file


def dix_orientation(path: str | Path, source_lang: str, target_lang: str) -> bool | None:
    """True if the .dix's left side is the source language, False if the right is,
    None if the file name (``apertium-eng-spa.eng-spa.dix``) does not say."""
    name = Path(path).name
    if not name.endswith(".dix"):
        return None
    sides = languages_in_name(name.removesuffix(".dix"))
    if sides is None:
        return None
    source, target = language(source_lang), language(target_lang)
    if sides == (source, target):
        return True
    if sides == (target, source):
        return False
    return None


def _side_text(element: etree._Element | None) -> str:
    """The words of an ``<l>``, ``<r>`` or ``<i>`` element: text and tails, ``<b/>`` as space."""
    if element is None:
        return ""
    parts: list[str] = [element.text or ""]
    for child in element:
        if child.tag == "b":
            parts.append(" ")
        elif child.tag == "g":
            parts.append(_side_text(child))
        parts.append(child.tail or "")
    return "".join(parts).strip()


def read_dix_dictionary(path: str | Path, source_lang: str, target_lang: str, corpus_lemmas: Iterable[str] = ()) -> Lexicon:
    """An Apertium bilingual dictionary, oriented source → target.

    The orientation comes from the file name; when it does not name the two
    languages, the side that covers more of the corpus's source lemmas is taken
    as the source side.
    """
    tree = parse_xml_file(path, allow_doctype=True)
    root = tree.getroot()
    if root.tag != "dictionary":
        raise InputError(path, root.sourceline, f"expected an Apertium <dictionary>, found <{root.tag}>")
    left_to_right: list[tuple[str, str]] = []
    right_to_left: list[tuple[str, str]] = []
    for entry in root.iter("e"):
        restriction = entry.get("r")
        identity = entry.find("i")
        if identity is not None:
            left = right = _side_text(identity)
        else:
            pair = entry.find("p")
            if pair is None:
                continue
            left, right = _side_text(pair.find("l")), _side_text(pair.find("r"))
        if not left or not right or "prpers" in (left, right):  # Apertium's personal-pronoun placeholder
            continue
        if restriction != "RL":
            left_to_right.append((left, right))
        if restriction != "LR":
            right_to_left.append((right, left))
    if not left_to_right and not right_to_left:
        raise InputError(path, None, "the dictionary has no <e> entries with both sides")
    orientation = dix_orientation(path, source_lang, target_lang)
    if orientation is None:
        wanted = {lemma.lower() for lemma in corpus_lemmas}
        left_cover = len(wanted & {s.lower() for s, _ in left_to_right})
        right_cover = len(wanted & {s.lower() for s, _ in right_to_left})
        orientation = left_cover >= right_cover
    lexicon = Lexicon(kind="apertium-dix", origin=Path(path).name)
    for source, target in left_to_right if orientation else right_to_left:
        lexicon.add(source, target)
    return lexicon
