"""Sentences read from a store, parsed only when their words are first read."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any

from checkpoints.io.conllu import parse_conllu_string
from checkpoints.model import Sentence, Token


def stored_sentence(row_id: int, text: str, tokens: str, conllu: str | None, language: str) -> Sentence:
    """A sentence row as stored (:meth:`StoredSentence.from_store`)."""
    return StoredSentence.from_store(row_id, text, tokens, conllu, language)


class StoredSentence(Sentence):
    """A sentence of a stored suite whose words are parsed when first read.

    Reading ``tokens`` (or another field that the stored CoNLL-U block fills:
    ``constituency``, ``sent_id``, ``multiword``, ``comments``, ``conllu``)
    parses the stored words once; the text and language are there from the
    start. Scoring a suite reads only reference texts, so it never pays for
    building hundreds of thousands of tokens. The sentence otherwise behaves
    as a :class:`Sentence` and compares equal to one with the same fields.
    """

    __slots__ = ("_stored",)

    LAZY_FIELDS = ("tokens", "constituency", "sent_id", "multiword", "comments", "conllu")

    @classmethod
    def from_store(cls, row_id: int, text: str, tokens: str, conllu: str | None, language: str) -> Sentence:
        """A sentence row as stored: ``tokens`` are the words joined by spaces, ``conllu`` the parse if any."""
        if not text:  # the text is then made from the words: nothing to defer
            return _parsed_sentence(row_id, text, tokens, conllu, language)
        sentence = cls.__new__(cls)
        sentence.text = text
        sentence.language = language
        sentence._stored = (row_id, tokens, conllu)
        return sentence

    def _parse(self) -> None:
        try:
            stored = self._stored
        except AttributeError:  # made by __init__ or copied: nothing stored
            return
        if stored is None:
            return
        self._stored = None
        row_id, tokens, conllu = stored
        parsed = _parsed_sentence(row_id, self.text, tokens, conllu, self.language)
        for name in self.LAZY_FIELDS:
            _SENTENCE_SLOTS[name].__set__(self, getattr(parsed, name))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as what it holds: still unparsed, its stored row (the parse waits on the other
        side too, as for a suite sent to a Ray worker); parsed, a plain :class:`Sentence`."""
        stored = getattr(self, "_stored", None)
        if stored is not None:
            row_id, tokens, conllu = stored
            return (stored_sentence, (row_id, self.text, tokens, conllu, self.language))
        return (Sentence, tuple(getattr(self, f.name) for f in dataclass_fields(Sentence) if f.init))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sentence):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in dataclass_fields(Sentence) if f.compare)

    __hash__ = None  # type: ignore[assignment]  # mutable, like Sentence


_SENTENCE_SLOTS = {name: Sentence.__dict__[name] for name in StoredSentence.LAZY_FIELDS}


def _lazy_field(name: str) -> property:
    slot = _SENTENCE_SLOTS[name]

    def get(self: StoredSentence) -> Any:
        self._parse()
        return slot.__get__(self, Sentence)

    def put(self: StoredSentence, value: Any) -> None:
        self._parse()
        slot.__set__(self, value)

    return property(get, put, doc=f"``Sentence.{name}``, parsed from the store on first use.")


for _name in StoredSentence.LAZY_FIELDS:
    setattr(StoredSentence, _name, _lazy_field(_name))


def _parsed_sentence(row_id: int, text: str, tokens: str, conllu: str | None, language: str) -> Sentence:
    """A stored sentence row as a plain :class:`Sentence`, parsed now."""
    if conllu:
        sentence = parse_conllu_string(conllu, language, name=f"<stored sentence {row_id}>")[0]
        sentence.text = text
        return sentence
    return Sentence(tokens=[Token(form=form) for form in tokens.split(" ") if form], text=text, language=language)
