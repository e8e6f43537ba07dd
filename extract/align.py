"""Word alignment between a source sentence and one reference: the protocol and its backends.

Three ways to get alignments, all producing :class:`~checkpoints.model.Alignment`
(0-based ``(source word, reference word)`` links over syntactic words):

- Pharaoh files the user made elsewhere (:func:`read_alignment_file`);
- :class:`~checkpoints.extract.align_simalign.SimAligner` (multilingual BERT,
  sentence by sentence, needs the model);
- :class:`~checkpoints.extract.align_eflomal.EflomalAligner` (statistical,
  whole corpus at once, offline; optional extra).

Aligners are looked up by name in :data:`ALIGNERS`, so the command line and
the builder need no if/elif chain.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from checkpoints.errors import UsageError
from checkpoints.extract.align_eflomal import EflomalAligner
from checkpoints.extract.align_simalign import DEFAULT_MODEL, SimAligner
from checkpoints.extract.dictionary import Lexicon
from checkpoints.extract.eflomal_process import DEFAULT_ALIGN_SEED
from checkpoints.extract.symmetrize import symmetrize, symmetrize_links
from checkpoints.io.pharaoh import read_pharaoh
from checkpoints.model import Alignment, Sentence

__all__ = [
    "ALIGNERS",
    "DEFAULT_MODEL",
    "Aligner",
    "EflomalAligner",
    "SimAligner",
    "aligner_tokens",
    "make_aligner",
    "read_alignment_file",
    "symmetrize",
    "symmetrize_links",
]


class Aligner(Protocol):
    """Anything that links the words of source/target word lists, one alignment per pair.

    ``token_key`` says which spelling of a word the aligner wants (``form``,
    or ``lemma``: lower-cased lemmas); a ``lexicon`` given to :meth:`align`
    may guide it (eflomal turns it into priors; simalign has no use for it).
    """

    name: str
    version: str
    token_key: str

    def align(
        self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], lexicon: Lexicon | None = None
    ) -> list[Alignment]: ...

    def settings(self) -> dict[str, object]:
        """What a report signature needs to say how the alignment was made."""
        ...


def _simalign(model: str | None, method: str | None, seed: int | None) -> Aligner:
    """simalign is deterministic: the seed has nothing to seed."""
    return SimAligner(model or DEFAULT_MODEL, method=method or "itermax")


def _eflomal(model: str | None, method: str | None, seed: int | None) -> Aligner:
    if model is not None:
        raise UsageError("--align-model applies to simalign only: eflomal learns from the corpus itself")
    if method is not None:
        return EflomalAligner(symmetrization=method, seed=seed)
    return EflomalAligner(seed=seed)


ALIGNERS: dict[str, Callable[[str | None, str | None, int | None], Aligner]] = {
    "eflomal": _eflomal,
    "simalign": _simalign,
}
"""Aligner name → factory taking ``(model, method, seed)``; None means the aligner's default.

``method`` is simalign's matching method or eflomal's symmetrisation heuristic.
"""


def make_aligner(name: str, model: str | None = None, method: str | None = None, *, seed: int | None = DEFAULT_ALIGN_SEED) -> Aligner:
    """The aligner called ``name`` (``simalign`` or ``eflomal``); ``seed`` seeds one that samples."""
    try:
        factory = ALIGNERS[name]
    except KeyError:
        raise UsageError(f"unknown aligner {name!r} (choose {' or '.join(ALIGNERS)})") from None
    return factory(model, method, seed)


def read_alignment_file(
    path: str | Path, sources: Sequence[Sentence], references: Sequence[Sentence]
) -> list[Alignment]:
    """A Pharaoh file for one reference, every link checked against its sentences' word counts.

    Indices count syntactic words (CoNLL-U lines with integer IDs), so a file
    made on surface tokens fails on the first sentence with a multi-word
    token, with file, line and index in the message.
    """
    return read_pharaoh(path, [len(s) for s in sources], [len(r) for r in references])


def aligner_tokens(sentence: Sentence, key: str) -> list[str]:
    """The words of a sentence as an aligner reads them (see :attr:`Aligner.token_key`)."""
    if key == "lemma":
        return [(token.lemma if token.lemma not in ("", "_") else token.form).lower() for token in sentence.tokens]
    return sentence.forms
