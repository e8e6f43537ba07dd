"""The bilingual lexicon every dictionary reader produces.

A lexicon maps a source word (or multi-word expression) to its translations,
all lower-cased. Translations are kept whole ("provocar un aborto", "be
opposed to") because that is what a dictionary says, and split into words on
demand because Zhou et al.'s Dic(x) is "a word bag of all words in the
dictionary translations of x". Source words are looked up by form and by
lemma, since dictionaries list lemmas but corpora without a lemmatiser only
have forms.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from checkpoints.extract.wordmatch import SentenceKeys, cognate, same_word, same_word_in
from checkpoints.model import Token


@dataclass(slots=True)
class Lexicon:
    """Source word → set of translations, all lower-cased.

    ``kind`` names the reader ("tsv", "apertium-dix", "freedict", "cc-cedict",
    "corpus-alignments"), ``origin`` the file; a merged lexicon keeps the
    description of each member in ``parts``.
    """

    entries: dict[str, set[str]] = field(default_factory=dict)
    kind: str = "none"
    origin: str = ""
    parts: tuple[str, ...] = ()
    cognates: bool = True
    """Whether :meth:`supports` also accepts likely cognates (:func:`checkpoints.extract.wordmatch.cognate`)."""
    _found: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict, repr=False, compare=False)
    _words: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, source: str, target: str) -> None:
        source, target = source.strip().lower(), target.strip().lower()
        if source and target:
            self.entries.setdefault(source, set()).add(target)
            if self._found:
                self._found.clear()
                self._words.clear()

    def merge(self, other: Lexicon) -> None:
        """Add every entry of ``other`` (the union of two dictionaries)."""
        for source, targets in other.entries.items():
            self.entries.setdefault(source, set()).update(targets)
        self._found.clear()
        self._words.clear()

    def inverted(self, kind: str, *, single_words: bool = False) -> Lexicon:
        """The lexicon read the other way round: every translation becomes a source word.

        ``single_words`` keeps only one-word translations as new source words:
        glossaries such as CC-CEDICT explain as often as they translate, and
        only a single word can be looked up by a token anyway.
        """
        inverse = Lexicon(kind=kind, origin=self.origin)
        for source, targets in self.entries.items():
            for target in targets:
                if not single_words or len(target.split()) == 1:
                    inverse.entries.setdefault(target, set()).add(source)
        return inverse

    def through(self, other: Lexicon) -> Lexicon:
        """This lexicon composed with ``other``, which translates this one's translations: a source
        word's translations are ``other``'s translations of its translations (source → pivot →
        target). The pivot's polysemy comes along (a word for "bank" may become "Ufer"): a
        dictionary of the pair itself is better where there is one."""
        composed = Lexicon(kind=f"{self.kind}→{other.kind}", origin=f"{self.origin}→{other.origin}")
        for source, pivots in self.entries.items():
            targets = set().union(*(other.entries.get(pivot, ()) for pivot in pivots))
            if targets:
                composed.entries[source] = targets
        return composed

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

    def words(self, token: Token) -> frozenset[str]:
        """Zhou's Dic(x) for one source word: every word of every translation, once each."""
        key = (token.form, token.lemma)
        found = self._words.get(key)
        if found is None:
            found = self._words[key] = frozenset(
                word for translation in self.translations(token) for word in translation.split()
            )
        return found

    def knows(self, token: Token) -> bool:
        """True when the source word has at least one dictionary entry."""
        return bool(self.translations(token))

    def supports(self, source: Token, target: Token) -> bool:
        """True when the target word translates the source word.

        Either the dictionary lists it (the target's lower-cased form or lemma
        is one of the source's translations; multi-word translations cannot
        equal one word), or the two words match without a dictionary:
        identical forms, the same number, or a name spelled with other
        diacritics (:func:`checkpoints.extract.wordmatch.same_word`), or, with
        :attr:`cognates`, two content words spelt nearly alike
        (:func:`checkpoints.extract.wordmatch.cognate`).
        """
        translations = self.translations(source)
        if translations:
            form = target.form.lower()
            if form in translations:
                return True
            lemma = target.lemma.lower()
            if lemma != "_" and lemma in translations:
                return True
        return same_word(source, target) or (self.cognates and cognate(source, target))

    def translated_in(self, source: Token, keys: SentenceKeys) -> bool:
        """True when some word of a sentence (its :class:`SentenceKeys`) translates ``source``:
        :meth:`supports` for a whole sentence at once."""
        translations = self.translations(source)
        return bool(translations and not translations.isdisjoint(keys.words)) or same_word_in(source, keys)

    def pairs(self) -> Iterator[tuple[str, str]]:
        """Every (source word, target word) entry where both sides are single words,
        the form in which alignment priors can use a dictionary."""
        for source, targets in self.entries.items():
            if len(source.split()) != 1:
                continue
            for target in targets:
                if len(target.split()) == 1:
                    yield source, target

    def entries_for(self, keys: Iterable[str]) -> dict[str, list[str]]:
        """The entries of the lower-cased ``keys`` that have one, translations sorted: what a
        build stores with its suite (only the corpus's words, so the stored copy stays small),
        for evaluation's alternative references and attribution's alignment priors to read
        without the dictionary files."""
        wanted = {key.lower() for key in keys}
        return {key: sorted(self.entries[key]) for key in sorted(wanted & self.entries.keys())}

    @classmethod
    def from_entries(cls, entries: Mapping[str, Iterable[str]], description: str) -> Lexicon:
        """A lexicon from stored entries (:meth:`entries_for`), described as the build described it."""
        lexicon = cls(kind="stored", origin=description)
        for source, targets in entries.items():
            for target in targets:
                lexicon.add(source, target)
        return lexicon

    def describe(self) -> str:
        """``kind:file`` for one dictionary, ``kind:file + kind:file`` for merged ones."""
        if self.parts:
            return " + ".join(self.parts)
        return f"{self.kind}:{self.origin}" if self.origin else self.kind
