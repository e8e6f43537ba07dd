"""ESA — explicit semantic analysis (Gabrilovich & Markovitch 2007; Asiya's ``ESA-<L>``, spec §8).

A text is mapped onto a space of concepts, one per document of a concept
corpus (Asiya used 100,000 Wikipedia paragraphs): each word votes for the
documents it is important in, by TF-IDF. Candidate and reference are similar
when their concept vectors point the same way (cosine), even with no word in
common.

The corpus is given with ``--esa-corpus L=PATH``: a folder of text files (one
concept each, words split on whitespace) or a CoNLL-U file whose documents
(``# newdoc id``) are the concepts. Words are lower-cased, in the corpus and
in the texts (the texts' words are their parses' word forms).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse

from checkpoints.errors import InputError, UsageError
from checkpoints.io.conllu import read_conllu

PUNCTUATION_ONLY = frozenset("!?.")


@dataclass(frozen=True)
class ConceptSpace:
    """The concept corpus as an L2-normalised TF-IDF matrix (concepts × words)."""

    vocabulary: dict[str, int]
    idf: np.ndarray
    weights: sparse.csr_matrix

    @classmethod
    def from_documents(cls, documents: Sequence[Sequence[str]]) -> ConceptSpace:
        """``idf(w) = ln(K / df(w))``; ``W[c, w] = (1 + ln tf) · idf(w)``, each row scaled to length 1."""
        if not documents:
            raise UsageError("the ESA concept corpus holds no document")
        counts = [Counter(word.lower() for word in document) for document in documents]
        vocabulary: dict[str, int] = {}
        for bag in counts:
            for word in bag:
                vocabulary.setdefault(word, len(vocabulary))
        df = np.zeros(len(vocabulary))
        rows, columns, values = [], [], []
        for row, bag in enumerate(counts):
            for word, tf in bag.items():
                column = vocabulary[word]
                df[column] += 1
                rows.append(row)
                columns.append(column)
                values.append(1.0 + math.log(tf))
        idf = np.log(len(documents) / np.maximum(df, 1))
        matrix = sparse.csr_matrix((values, (rows, columns)), shape=(len(documents), len(vocabulary)))
        matrix = matrix.multiply(idf[None, :]).tocsr()
        norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
        scale = np.where(norms > 0, 1.0 / np.where(norms > 0, norms, 1.0), 0.0)
        return cls(vocabulary, idf, sparse.diags(scale) @ matrix)

    def interpret(self, words: Sequence[str]) -> np.ndarray:
        """``e(T)[c] = Σ_w (1 + ln n_T(w)) · idf(w) · W[c, w]`` over the text's words in the vocabulary."""
        text = Counter(word.lower() for word in words)
        vector = np.zeros(len(self.vocabulary))
        for word, count in text.items():
            column = self.vocabulary.get(word)
            if column is not None:
                vector[column] = (1.0 + math.log(count)) * self.idf[column]
        return np.asarray(self.weights @ vector).ravel()

    def similarity(self, candidate: Sequence[str], reference: Sequence[str]) -> float:
        """The cosine of the two concept vectors; 0 when either is zero or a text is only ``!``/``?``/``.``."""
        if _trivial(candidate) or _trivial(reference):
            return 0.0
        a, b = self.interpret(candidate), self.interpret(reference)
        norm = float(np.linalg.norm(a) * np.linalg.norm(b))
        return float(a @ b) / norm if norm > 0 else 0.0


def _trivial(words: Sequence[str]) -> bool:
    return all(set(word) <= PUNCTUATION_ONLY for word in words)


@dataclass(frozen=True)
class CrossLingualSpace:
    """Two concept spaces over aligned corpora (concept i is the same document in both
    languages): a source and its translation are similar when they evoke the same concepts
    (``ESA-xl``, the manual's ESA-2)."""

    source: ConceptSpace
    target: ConceptSpace

    @classmethod
    def from_corpora(cls, source: Path, target: Path) -> CrossLingualSpace:
        """The documents both corpora name alike (file names, ``# newdoc id``), in the source's order."""
        source_documents, target_documents = read_named_concepts(source), read_named_concepts(target)
        target_by_name = dict(target_documents)
        shared = [(name, words) for name, words in source_documents if name in target_by_name]
        if not shared:
            raise InputError(target, None, f"no document named as one of {source}'s: ESA-xl pairs the two concept "
                                           "corpora by file name or # newdoc id")
        return cls(ConceptSpace.from_documents([words for _, words in shared]),
                   ConceptSpace.from_documents([target_by_name[name] for name, _ in shared]))

    def similarity(self, source: Sequence[str], candidate: Sequence[str]) -> float:
        if _trivial(source) or _trivial(candidate):
            return 0.0
        a, b = self.source.interpret(source), self.target.interpret(candidate)
        norm = float(np.linalg.norm(a) * np.linalg.norm(b))
        return float(a @ b) / norm if norm > 0 else 0.0


def read_concept_corpus(path: Path) -> list[list[str]]:
    """The concepts' words: one document per text file of a folder (sorted by name), or per
    ``# newdoc id`` of a CoNLL-U file."""
    return [words for _, words in read_named_concepts(path)]


def read_named_concepts(path: Path) -> list[tuple[str, list[str]]]:
    """The concepts with their names: file names of a folder, ``# newdoc id`` values of CoNLL-U
    (a document without an id is named by its position)."""
    if path.is_dir():
        files = sorted(item for item in path.iterdir() if item.is_file())
        if not files:
            raise InputError(path, None, "no files: an ESA concept corpus is a folder of text files, one concept each")
        return [(item.name, item.read_text(encoding="utf-8").split()) for item in files]
    if not path.is_file():
        raise InputError(path, None, "no such file or folder (the ESA concept corpus)")
    documents: list[tuple[str, list[str]]] = []
    for sentence in read_conllu(path):
        starts = [comment for comment in sentence.comments if comment.startswith("# newdoc")]
        if starts or not documents:
            name = starts[0].partition("=")[2].strip() if starts and "=" in starts[0] else ""
            documents.append((name or f"#{len(documents) + 1}", []))
        documents[-1][1].extend(sentence.forms)
    return documents
