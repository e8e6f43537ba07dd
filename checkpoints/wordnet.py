"""English WordNet 3.0: METEOR's synonym stage and the English ambiguous-word list.

Both uses need only which synsets a word belongs to, never a synset's
content: METEOR-sy calls two words synonyms when they share a synset, and the
ambiguous-word list counts a lemma's synsets per part of speech. So the
package ships just that part of WordNet 3.0 (``checkpoints/data/wordnet/``,
about 1.5 MB; its README says how it was extracted): every lemma's synset
offsets per part of speech (the ``index.*`` files) and the morphological
exception lists (``*.exc``), which WordNet's morphology needs to reach a
lemma from an irregular form. Installing the package is therefore enough;
``CHECKPOINTS_WORDNET_DIR`` may name a WordNet ``dict/`` directory to read
instead (the same two kinds of files are read from it).

Looking words up follows what nltk's WordNet reader (3.10) does, which this
project used before and whose scores the tests pin:

- a word is lower-cased and tried in every part of speech (noun, verb,
  adjective, adverb);
- its base forms in a part of speech are the word itself and either its
  exception-list bases (when it is listed) or the forms one suffix rule
  gives (``cars`` → ``car``), keeping those that are lemmas of that part of
  speech (``morphy(7WN)``'s rules, applied once);
- its synsets are the synsets of those base forms.

The data is read on first use only (METEOR-sy, or a word-list regeneration)
and kept once per source; word lookups are cached by each
:class:`SynonymSets`, so nothing keyed by a user's corpus outlives it.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterable, Iterator, Mapping
from functools import cache, lru_cache
from pathlib import Path

from checkpoints.errors import ResourceNotAvailable

ENVIRONMENT_VARIABLE = "CHECKPOINTS_WORDNET_DIR"
"""Names a WordNet 3.0 ``dict/`` directory to read instead of the packaged data."""

PACKAGE_DATA = Path(__file__).parent / "data" / "wordnet" / "wordnet-3.0.txt.gz"
"""The packaged lemma index and exception lists (written by ``scripts/make_wordnet_data.py``)."""

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
"""WordNet's parts of speech and the suffix of their ``index.*`` and ``*.exc`` files, in lookup order."""

UPOS_OF_WORDNET_POS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}
"""WordNet's parts of speech as UD UPOS tags (adjective satellites count as ADJ)."""

REQUIRED_FILES = tuple(f"index.{suffix}" for suffix in POS_FILES.values()) + tuple(
    f"{suffix}.exc" for suffix in POS_FILES.values()
)
"""The files of a WordNet ``dict/`` directory that are read."""

SUFFIX_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
"""WordNet's detachment rules (``morphy(7WN)``): an inflectional ending and what replaces it."""

_HEADER = "#"
_SECTION = "@"


class WordNet:
    """The lemma index and exception lists of one WordNet, with its morphology.

    Args:
        index: part of speech → lemma → synset offsets, in the index file's order.
        exceptions: part of speech → inflected form → its base forms.
        source: where the data came from, for messages.
    """

    def __init__(
        self,
        index: Mapping[str, Mapping[str, tuple[int, ...]]],
        exceptions: Mapping[str, Mapping[str, tuple[str, ...]]],
        source: str,
    ) -> None:
        self.index = {pos: dict(index.get(pos, {})) for pos in POS_FILES}
        self.exceptions = {pos: dict(exceptions.get(pos, {})) for pos in POS_FILES}
        self.source = source

    def base_forms(self, word: str, pos: str) -> list[str]:
        """The lemmas of part of speech ``pos`` that ``word`` (as given) may be a form of, the word first."""
        lemmas = self.index[pos]
        listed = self.exceptions[pos].get(word)
        if listed is not None:
            candidates = [word, *listed]
        else:
            candidates = [word, *(word[: -len(ending)] + new for ending, new in SUFFIX_RULES[pos] if word.endswith(ending))]
        return [form for form in dict.fromkeys(candidates) if form in lemmas]

    def synsets(self, word: str, pos: str | None = None) -> list[tuple[str, int]]:
        """``(part of speech, offset)`` of every synset of the lower-cased ``word`` through its base forms.

        One entry per base form and synset, so a synset two base forms share
        counts twice, as nltk's ``synsets()`` counts it.
        """
        lemma = word.lower()
        return [
            (part, offset)
            for part in (POS_FILES if pos is None else (pos,))
            for form in self.base_forms(lemma, part)
            for offset in self.index[part][form]
        ]

    def synset_ids(self, word: str) -> frozenset[tuple[str, int]]:
        """The synsets of ``word`` in every part of speech, as a set (METEOR's synonym test)."""
        return frozenset(self.synsets(word))

    def lemmas(self, pos: str) -> Iterator[str]:
        """The lemmas of a part of speech, sorted (multi-word lemmas joined by ``_``)."""
        return iter(sorted(self.index[pos]))

    def sense_counts(self) -> dict[str, dict[str, int]]:
        """Number of senses (synsets) of every lemma, per UPOS, multi-word lemmas with spaces (``take off``).

        A lemma's own senses only: "found" is also an inflected form of "find",
        but the lemma "found" (establish) has 3 verb senses, not the 19 it would
        have through its base forms; counting those made 42 lemmas (found, saw,
        fell, felt, lay, bore, bound, ...) look as ambiguous as the verbs they
        are forms of.
        """
        counts: dict[str, dict[str, int]] = {}
        for pos, upos in UPOS_OF_WORDNET_POS.items():
            for lemma in self.lemmas(pos):
                senses = len(self.index[pos][lemma])
                if senses:
                    counts.setdefault(lemma.replace("_", " "), {})[upos] = senses
        return counts


class SynonymSets:
    """Word → the WordNet synsets of the word and of its base forms (METEOR's synonym test).

    That is the union of Meteor's ``getSynSets`` and ``getStemSynSets``; two
    different words are synonyms when their sets intersect. Each instance
    caches its own lookups (a test set's vocabulary repeats), so the cache
    lives as long as the metric that uses it.
    """

    def __init__(self, wordnet: WordNet | None = None) -> None:
        self.wordnet = wordnet if wordnet is not None else load_wordnet()
        self.lookup = lru_cache(maxsize=1 << 17)(self.wordnet.synset_ids)

    def __getstate__(self) -> dict[str, object]:
        """Pickled without its lookup cache (a metric sent to a Ray worker), which the other side remakes."""
        return {"wordnet": self.wordnet}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__(state["wordnet"])  # type: ignore[misc, arg-type]


def synonym_sets(directory: Path | None = None) -> SynonymSets:
    """A :class:`SynonymSets` over ``directory``'s WordNet or the default one (see :func:`load_wordnet`)."""
    return SynonymSets(load_wordnet(directory))


def sense_counts(directory: Path | None = None) -> dict[str, dict[str, int]]:
    """Number of WordNet senses of every lemma, per UPOS (see :meth:`WordNet.sense_counts`)."""
    return load_wordnet(directory).sense_counts()


def load_wordnet(directory: Path | None = None) -> WordNet:
    """WordNet from a ``dict/`` directory, else ``$CHECKPOINTS_WORDNET_DIR``, else the packaged data.

    Read once per source and shared: the data is the same for every caller.

    Raises:
        ResourceNotAvailable: the directory lacks a WordNet file, or the
            packaged data is missing (a broken installation).
    """
    if directory is None and os.environ.get(ENVIRONMENT_VARIABLE):
        return _load_directory(Path(os.environ[ENVIRONMENT_VARIABLE]).expanduser(), f" (from {ENVIRONMENT_VARIABLE})")
    if directory is not None:
        return _load_directory(Path(directory), "")
    return _load_package_data(PACKAGE_DATA)


def _load_directory(directory: Path, origin: str) -> WordNet:
    missing = [name for name in REQUIRED_FILES if not (directory / name).is_file()]
    if missing:
        raise ResourceNotAvailable(
            f"{directory}{origin} is not a WordNet 3.0 dict/ directory (missing {missing[0]})"
        )
    return _read_directory(directory.resolve())


@cache
def _read_directory(directory: Path) -> WordNet:
    return read_dict_directory(directory)


@cache
def _load_package_data(path: Path) -> WordNet:
    if not path.is_file():
        raise ResourceNotAvailable(
            f"the packaged WordNet data {path} is missing: reinstall mt-checkpoints, or set "
            f"{ENVIRONMENT_VARIABLE} to a WordNet 3.0 dict/ directory"
        )
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return parse_package_text(handle, str(path))


# -- the WordNet database files -------------------------------------------------


def read_dict_directory(directory: Path) -> WordNet:
    """The lemma index and exception lists of a WordNet ``dict/`` directory (``index.*``, ``*.exc``).

    Index lines are ``lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt
    tagsense_cnt synset_offset...`` (``wndb(5WN)``); lines starting with a
    space are the licence header. Exception lines are ``form base...``
    (a later line for the same form replaces an earlier one).
    """
    index: dict[str, dict[str, tuple[int, ...]]] = {pos: {} for pos in POS_FILES}
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {pos: {} for pos in POS_FILES}
    for pos, suffix in POS_FILES.items():
        path = directory / f"index.{suffix}"
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if line.startswith(" ") or not line.strip():
                    continue
                lemma, offsets = _index_entry(line, pos, f"{path}:{number}")
                index[pos][lemma] = offsets
        path = directory / f"{suffix}.exc"
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                terms = line.split()
                if not terms:
                    continue
                if terms[0][0] in (_HEADER, _SECTION):  # WordNet 3.0 has none; the packaged form reserves them
                    raise ResourceNotAvailable(f"{path}:{number}: not a WordNet 3.0 exception line")
                exceptions[pos][terms[0]] = tuple(terms[1:])
    return WordNet(index, exceptions, str(directory))


def _index_entry(line: str, pos: str, where: str) -> tuple[str, tuple[int, ...]]:
    fields = line.split()
    try:
        synsets, pointers = int(fields[2]), int(fields[3])
        offsets = tuple(int(field) for field in fields[6 + pointers : 6 + pointers + synsets])
    except (IndexError, ValueError):
        offsets, synsets = (), -1
    if len(offsets) != synsets or synsets < 1 or fields[1] != pos or fields[0][0] in (_HEADER, _SECTION):
        raise ResourceNotAvailable(f"{where}: not a WordNet 3.0 index line of part of speech {pos!r}")
    return fields[0], offsets


# -- the packaged form ------------------------------------------------------------


def package_lines(wordnet: WordNet, header: Iterable[str] = ()) -> Iterator[str]:
    """The packaged text of ``wordnet``: deterministic, one entry a line.

    ``#`` lines are comments; ``@index POS`` and ``@exceptions POS`` open a
    section; an index line is ``lemma offset...`` (decimal offsets, the index
    file's order), an exception line ``form base...``, both sorted.
    """
    for line in header:
        yield f"{_HEADER} {line}".rstrip() + "\n"
    for pos in POS_FILES:
        yield f"{_SECTION}index {pos}\n"
        for lemma in sorted(wordnet.index[pos]):
            yield " ".join([lemma, *map(str, wordnet.index[pos][lemma])]) + "\n"
    for pos in POS_FILES:
        yield f"{_SECTION}exceptions {pos}\n"
        for form in sorted(wordnet.exceptions[pos]):
            yield " ".join([form, *wordnet.exceptions[pos][form]]) + "\n"


def parse_package_text(lines: Iterable[str], source: str) -> WordNet:
    """The :class:`WordNet` that :func:`package_lines` wrote."""
    index: dict[str, dict[str, tuple[int, ...]]] = {pos: {} for pos in POS_FILES}
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {pos: {} for pos in POS_FILES}
    section: dict[str, tuple[int, ...]] | dict[str, tuple[str, ...]] | None = None
    is_index = False
    for number, line in enumerate(lines, 1):
        if line.startswith(_HEADER):
            continue
        if line.startswith(_SECTION):
            kind, _, pos = line[1:].strip().partition(" ")
            if kind not in ("index", "exceptions") or pos not in POS_FILES:
                raise ResourceNotAvailable(f"{source}:{number}: unknown section {line.strip()!r}")
            is_index = kind == "index"
            section = (index if is_index else exceptions)[pos]
            continue
        fields = line.split()
        if not fields:
            continue
        if section is None:
            raise ResourceNotAvailable(f"{source}:{number}: an entry before any section")
        section[fields[0]] = tuple(map(int, fields[1:])) if is_index else tuple(fields[1:])  # type: ignore[assignment]
    return WordNet(index, exceptions, source)
