"""SP-lNIST, SP-pNIST, SP-iobNIST, SP-cNIST: mteval's NIST over shallow-parsing sequences (spec §2.4).

Asiya ran mteval-v13a on files of lemmas, tags, IOB labels and chunk types.
Here the project's own mteval NIST (:mod:`checkpoints.evaluate.metrics.bleu_nist`,
equal to mteval-v13a's figures) reads the sequences directly, one item a
position, so a tag such as ``PRP$`` stays one item (mteval's tokenizer would
split it: the one deliberate difference). Information weights come from the
whole reference side, the length penalty from the average reference length,
several references are counted as mteval counts them.

Sequences: ``l`` lemmas (compared as ``--case`` says), ``p`` tags, ``iob``
IOB chunk labels, ``c`` one item per chunk and one ``O`` per word outside
chunks. ``SP-xNIST-n`` is cumulative over n = 1..5, ``SP-xNISTi-n`` the
n-grams of one order (2..5), ``SP-xNIST`` is ``SP-xNIST-5``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from checkpoints.errors import ModelNotAvailable, UsageError
from checkpoints.evaluate.metrics.base import Aggregation, MetricOptions, TableMetric, check_corpus
from checkpoints.evaluate.metrics.bleu_nist import NIST_WIDTH, MtevalReferences, nist_from_stats
from checkpoints.evaluate.metrics.linguistic.annotations import Annotator
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence, chunk_sequence
from checkpoints.evaluate.metrics.linguistic.metric import shared_annotator

NAME = re.compile(r"^SP-(l|p|iob|c)NIST(i)?(?:-([1-5]))?$")
SEPARATOR = "\x1f"
"""Joins a sequence's items into one string per segment (no item holds it)."""
KINDS = {"l": "lemmas", "p": "part-of-speech tags", "iob": "IOB chunk labels", "c": "chunk types"}


def sequence(sentence: ParsedSentence, kind: str, lowercase: bool) -> tuple[str, ...]:
    if kind == "l":
        return tuple(word.lemma.lower() if lowercase else word.lemma for word in sentence.words)
    if kind == "p":
        return tuple(word.tag for word in sentence.words)
    if kind == "iob":
        return tuple(sentence.chunks)
    return tuple(chunk_sequence(sentence.chunks))


def _items(text: str) -> tuple[str, ...]:
    return tuple(text.split(SEPARATOR)) if text else ()


class SpNist(TableMetric):
    """NIST over one kind of shallow-parsing sequence."""

    aggregation = Aggregation.CORPUS

    def __init__(self, name: str, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        match = NAME.match(name)
        if match is None:
            raise UsageError(f"{name}: unknown SP metric (SP-{{l,p,iob,c}}NIST, SP-xNIST-{{1..5}}, SP-xNISTi-{{2..5}})")
        self.kind, individual, order = match.group(1), match.group(2) is not None, match.group(3)
        self.order = int(order) if order else 5
        if individual and self.order < 2:
            raise UsageError(f"{name}: individual NIST takes an order from 2 to 5")
        self.individual = individual
        self.name = name
        kind = "individual" if individual else "cumulative"
        self.description = f"shallow parsing: {kind} NIST-{self.order} over {KINDS[self.kind]}"

    @property
    def n_stats(self) -> int:
        return NIST_WIDTH

    def score(self, stats: np.ndarray) -> np.ndarray:
        return nist_from_stats(stats, self.order, self.individual)

    def corpus_stats(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], sources: Sequence[str] | None = None
    ) -> np.ndarray:
        check_corpus(hypotheses, references)
        annotator = self._annotator()
        lowercase = self.options.lowercase
        try:
            encoded_references = tuple(
                tuple(SEPARATOR.join(sequence(s, self.kind, lowercase)) for s in annotator.annotate(reference_set))
                for reference_set in references)
            encoded = [SEPARATOR.join(sequence(s, self.kind, lowercase)) for s in annotator.annotate(hypotheses)]
        except ModelNotAvailable as error:
            raise ModelNotAvailable(f"{self.name}: {error} (or give the parses as CoNLL-U with --parsed)") from None
        corpus = self.cache.get(("sp-nist", self.kind, lowercase, encoded_references),
                                lambda: MtevalReferences(encoded_references, _items))
        return np.array([corpus.row("nist", index, text) for index, text in enumerate(encoded)],
                        dtype=np.float64).reshape(len(encoded), NIST_WIDTH)

    def _annotator(self) -> Annotator:
        return shared_annotator(self, ner=False, constituency=False)

    def signature_extras(self) -> dict[str, str]:
        fields = {"tok": "stanza", "order": str(self.order), "type": "ind" if self.individual else "cum",
                  "impl": "mteval-v13a"}
        if self.kind != "l":
            fields["case"] = "labels"
        fields.update(self._annotator().signature_fields())
        return fields
