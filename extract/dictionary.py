"""Bilingual lexicons for Zhou's dictionary matching degree (DM, formula 1).

Three sources, from strongest to weakest:

* a TSV file, one ``source<TAB>target`` entry per line (``#`` starts a comment);
* an Apertium bilingual dictionary (``.dix``), read with lxml — entries
  ``<e><p><l>house<s n="n"/></l><r>casa<s n="n"/></r></p></e>`` and identity
  entries ``<e><i>...</i></e>``; ``<b/>`` is a space, tags (``<s>``) are dropped,
  ``r="LR"``/``r="RL"`` restrict an entry to one direction;
* without a dictionary, a lexicon estimated from the corpus's own alignments.
  It is weaker: it can only confirm links that recur in the corpus, so it
  screens out rare, likely wrong links but cannot judge frequent ones.

Entries are compared lower-cased; the source side is looked up by form and by
lemma, since dictionaries list lemmas.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from checkpoints.errors import InputError
from checkpoints.io.lines import read_lines
from checkpoints.io.xml import parse_xml_file
from checkpoints.model import SentencePair, Token

ISO_639_3 = {
    "eng": "en", "spa": "es", "glg": "gl", "cat": "ca", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de",
    "por": "pt", "ita": "it", "zho": "zh", "cmn": "zh", "nld": "nl", "dut": "nl", "ron": "ro", "rum": "ro",
    "eus": "eu", "baq": "eu", "oci": "oc", "arg": "an", "ast": "ast", "swe": "sv", "dan": "da", "nob": "nb",
    "nno": "nn", "isl": "is", "rus": "ru", "ukr": "uk", "pol": "pl", "ces": "cs", "cze": "cs", "slk": "sk",
    "slv": "sl", "hrv": "hr", "srp": "sr", "bos": "bs", "bul": "bg", "mkd": "mk", "ell": "el", "gre": "el",
    "tur": "tr", "ara": "ar", "heb": "he", "hin": "hi", "urd": "ur", "fin": "fi", "est": "et", "hun": "hu",
    "lav": "lv", "lit": "lt", "mlt": "mt", "gle": "ga", "cym": "cy", "bre": "br", "epo": "eo", "kaz": "kk",
    "tat": "tt", "jpn": "ja", "kor": "ko", "ind": "id", "msa": "ms", "afr": "af", "sme": "se",
}

CORPUS_MIN_COUNT = 2
"""A corpus-estimated translation must be linked at least this often..."""
CORPUS_MIN_SHARE = 0.05
"""...and make up at least this share of its source word's links."""


@dataclass(slots=True)
class Lexicon:
    """Source word → set of target words, all lower-cased."""

    entries: dict[str, set[str]] = field(default_factory=dict)
    kind: str = "none"
    origin: str = ""
    _found: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, source: str, target: str) -> None:
        source, target = source.strip().lower(), target.strip().lower()
        if source and target:
            self.entries.setdefault(source, set()).add(target)
            self._found.clear()

    def translations(self, token: Token) -> frozenset[str]:
        """Dictionary translations of a source word, by form and by lemma (memoised:
        a corpus asks for the same words over and over)."""
        key = (token.form, token.lemma)
        found = self._found.get(key)
        if found is None:
            form = token.form.lower()
            lemma = token.lemma.lower()
            words = set(self.entries.get(form, ()))
            if lemma not in ("_", form):
                words |= self.entries.get(lemma, set())
            found = self._found[key] = frozenset(words)
        return found

    def describe(self) -> str:
        return f"{self.kind}:{self.origin}" if self.origin else self.kind


def read_tsv_dictionary(path: str | Path) -> Lexicon:
    lexicon = Lexicon(kind="tsv", origin=Path(path).name)
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) != 2 or not columns[0].strip() or not columns[1].strip():
            raise InputError(path, number, "expected 'source<TAB>target'")
        lexicon.add(columns[0], columns[1])
    if not lexicon.entries:
        raise InputError(path, None, "the dictionary has no entries")
    return lexicon


def dix_orientation(path: str | Path, source_lang: str, target_lang: str) -> bool | None:
    """True if the .dix's left side is the source language, False if the right is,
    None if the file name (``apertium-eng-spa.eng-spa.dix``) does not say."""
    match = re.search(r"\.([a-z]{2,3})-([a-z]{2,3})\.dix$", Path(path).name)
    if not match:
        return None
    left, right = (ISO_639_3.get(code, code) for code in match.groups())
    source, target = source_lang.split("-")[0].lower(), target_lang.split("-")[0].lower()
    if (left, right) == (source, target):
        return True
    if (left, right) == (target, source):
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
        if not left or not right:
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


def read_dictionary(path: str | Path, source_lang: str, target_lang: str, corpus_lemmas: Iterable[str] = ()) -> Lexicon:
    """A TSV or ``.dix`` dictionary, chosen by the file's extension."""
    if str(path).lower().endswith(".dix") or str(path).lower().endswith(".xml"):
        return read_dix_dictionary(path, source_lang, target_lang, corpus_lemmas)
    return read_tsv_dictionary(path)


NAMED_DICTIONARIES: dict[str, str] = {}
"""Dictionaries ``--dictionary`` accepts by name instead of a path."""


def is_named_dictionary(name: str) -> bool:
    return name in NAMED_DICTIONARIES


def read_dictionaries(
    paths: Sequence[str | Path], source_lang: str, target_lang: str, corpus_lemmas: Iterable[str] = ()
) -> Lexicon:
    """Every dictionary given, merged into one lexicon (``--dictionary`` is repeatable)."""
    lemmas = list(corpus_lemmas)
    lexicons = [read_dictionary(path, source_lang, target_lang, lemmas) for path in paths]
    merged = Lexicon(kind="+".join(x.kind for x in lexicons), origin=",".join(x.origin for x in lexicons))
    for lexicon in lexicons:
        for source, targets in lexicon.entries.items():
            for target in targets:
                merged.add(source, target)
    return merged


def estimate_lexicon(pairs: Sequence[SentencePair]) -> Lexicon:
    """A lexicon from the corpus's own alignment links (see the module docstring)."""
    link_counts: dict[str, Counter[str]] = defaultdict(Counter)
    for pair in pairs:
        source = pair.source.tokens
        for reference, alignment in zip(pair.references, pair.alignments, strict=True):
            target = reference.tokens
            for s, t in alignment.links:
                link_counts[_key(source[s])][_key(target[t])] += 1
    lexicon = Lexicon(kind="corpus-alignments", origin=f"min-count={CORPUS_MIN_COUNT},min-share={CORPUS_MIN_SHARE}")
    for source_key, counts in link_counts.items():
        total = sum(counts.values())
        for target_key, count in counts.items():
            if count >= CORPUS_MIN_COUNT and count / total >= CORPUS_MIN_SHARE:
                lexicon.add(source_key, target_key)
    return lexicon


def _key(token: Token) -> str:
    return (token.lemma if token.lemma not in ("_", "") else token.form).lower()
