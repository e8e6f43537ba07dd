"""Lexical resources a taxonomy can name: word-list files, named lexicons (CC-CEDICT, jieba), OpenCC.

Everything here loads lazily and is cached per process, because a suite
build asks the same resource for every sentence and most taxonomies never
touch the Chinese resources at all.

A lexicon is a mapping from a word to its tags: the part-of-speech tag of
jieba's dictionary (``d`` adverb, ``a`` adjective, ...), the tags of a
word-list file, or none at all (CC-CEDICT), so that ``<listed tags=...>``
can ask for words of a kind and not only for words.
"""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path

from checkpoints.errors import ResourceNotAvailable, TaxonomyError
from checkpoints.taxonomy.cedict_senses import cedict_words

PACKAGE_WORDLISTS = Path(__file__).resolve().parent / "wordlists"
"""Word lists shipped with the package; taxonomy files may name them by file name."""

LEXICON_SOURCES = ("cedict", "jieba")
"""Named lexicons that ``<listed source=...>``/``<unlisted source=...>`` and ``<reduplication unlisted=...>`` accept."""

TAGGED_SOURCES = frozenset({"jieba"})
"""Named lexicons whose entries carry tags (jieba's part-of-speech tags); CC-CEDICT's carry none."""

Lexicon = Mapping[str, Collection[str]]
"""Word -> its tags."""


class UntaggedLexicon(Mapping[str, frozenset[str]]):
    """A set of words seen as a lexicon whose entries carry no tags."""

    __slots__ = ("_words",)
    _NO_TAGS: frozenset[str] = frozenset()

    def __init__(self, words: frozenset[str]) -> None:
        self._words = words

    def __getitem__(self, word: str) -> frozenset[str]:
        if word in self._words:
            return self._NO_TAGS
        raise KeyError(word)

    def __contains__(self, word: object) -> bool:
        return word in self._words

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)


def resolve_wordlist(name: str, taxonomy_path: Path | None) -> Path | None:
    """Find a word-list file: next to the taxonomy file first, then in the package.

    A user's copy of a built-in taxonomy can thus point to its own list by
    putting a file of the same name beside it, and still use the shipped lists.
    """
    candidate = Path(name)
    if candidate.is_absolute():
        return candidate if candidate.is_file() else None
    if taxonomy_path is not None:
        local = taxonomy_path.parent / candidate
        if local.is_file():
            return local
    shipped = PACKAGE_WORDLISTS / candidate
    return shipped if shipped.is_file() else None


@functools.cache
def jieba_words() -> frozenset[str]:
    """Every word of the dictionary shipped inside the ``jieba`` package (simplified script)."""
    return frozenset(jieba_tags())


def _jieba_dictionary() -> Path:
    try:
        root = importlib.resources.files("jieba")
    except ModuleNotFoundError:
        raise ResourceNotAvailable(
            "the jieba dictionary is not available: install the Python package 'jieba' (pip install jieba)"
        ) from None
    path = Path(str(root)) / "dict.txt"
    if not path.is_file():
        raise ResourceNotAvailable(f"{path}: jieba's dictionary file is missing; reinstall the package 'jieba'")
    return path


@functools.cache
def jieba_tags() -> dict[str, frozenset[str]]:
    """Every word of jieba's dictionary with its part-of-speech tag (``也``: ``d``, ``积极``: ``ad``).

    The file is ``jieba/dict.txt`` with lines ``word frequency tag``; we read it
    directly instead of initialising jieba's tokenizer, which builds a prefix
    dictionary we do not need.
    """
    tags: dict[str, frozenset[str]] = {}
    with _jieba_dictionary().open(encoding="utf-8") as handle:
        for line in handle:
            parts = line.split()
            if len(parts) == 3:
                tags[parts[0]] = frozenset((parts[2],))
    return tags


def lexicon_words(source: str) -> frozenset[str]:
    """The word set of a named lexicon (see :data:`LEXICON_SOURCES`)."""
    if source == "jieba":
        return jieba_words()
    if source == "cedict":
        return cedict_words()
    raise TaxonomyError(f"unknown lexicon source {source!r}; known: {', '.join(LEXICON_SOURCES)}")


@functools.cache
def named_lexicon(source: str) -> Lexicon:
    """A named lexicon with its tags (see :data:`TAGGED_SOURCES`)."""
    if source == "jieba":
        return jieba_tags()
    return UntaggedLexicon(lexicon_words(source))


def check_converter_name(name: str) -> str | None:
    """Why ``name`` is not an OpenCC configuration, or None when it is (or OpenCC is absent).

    Checked when a taxonomy loads so that a typo fails at once rather than at
    the first Chinese sentence; without OpenCC installed the check is left to
    the first use, which names the package to install.
    """
    try:
        import opencc
    except ModuleNotFoundError:
        return None
    configs = {config.removesuffix(".json") for config in opencc.CONFIGS}
    if name.removesuffix(".json") not in configs:
        return f"unknown OpenCC conversion {name!r}; known: {', '.join(sorted(configs))}"
    return None


@functools.cache
def converter(name: str) -> Callable[[str], str]:
    """An OpenCC conversion (``t2s``: traditional to simplified Chinese), memoised per string."""
    try:
        import opencc
    except ModuleNotFoundError:
        raise ResourceNotAvailable(
            f"script conversion {name!r} needs OpenCC: install the Python package 'opencc' (pip install opencc)"
        ) from None
    try:
        engine = opencc.OpenCC(name)
    except RuntimeError as error:
        raise ResourceNotAvailable(f"OpenCC conversion {name!r} is not available: {error}") from None
    return functools.lru_cache(maxsize=200_000)(engine.convert)


def lexicon_lookup(source: str, convert: str | None = None) -> Callable[[str], bool]:
    """Whether a text, as written or converted, is a word of a named lexicon.

    The lexicon and the converter load at the first call, so that loading a
    taxonomy that names them costs nothing until a sentence needs them.
    """

    def listed(text: str) -> bool:
        words = named_lexicon(source)
        if text in words:
            return True
        return convert is not None and converter(convert)(text) in words

    return listed
