"""What meta-evaluation correlates: systems' outputs with human scores, and the units both sides score.

A :class:`JudgedSet` holds a test set's system outputs, references and human
scores, from an MQM release (:func:`judged_from_mqm`) or an Asiya assessments
file (:func:`judged_from_assessments`). :func:`referents` lists the units one
metric score and one human score are compared on at a granularity.

Referents and their pairing keys follow Asiya (asiya-reference §9.2):
``sys``; ``sys@@doc``; ``sys@@doc@@seg``. Where the humans scored segments
only, a document's or system's human score is the mean of its judged
segments, and the metric scores *exactly those segments* (a system rated on
500 of 529 segments is compared on those 500 on both sides); where a score is
given for the whole document or system, the metric scores all its segments.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.io.assessments import Assessments
from checkpoints.io.mqm import MQMData
from checkpoints.io.testset_model import UNKNOWN_DOC


@dataclass(frozen=True, slots=True)
class JudgedSet:
    """A test set with system outputs and human scores.

    Segments are addressed by position (0-based, in test-set order);
    ``outputs[system][position]`` is ``None`` where the system has no output.
    ``segment_scores`` are keyed by (system, position); ``document_scores``
    and ``system_scores`` hold only scores *given* at those levels.
    """

    judgments: str
    """Where the human scores come from (``mqm``, ``assessments``), for reports."""
    documents: tuple[str, ...]
    segment_ids: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    """One tuple per reference set, each as long as the test set."""
    sources: tuple[str, ...] | None
    outputs: Mapping[str, tuple[str | None, ...]]
    segment_scores: Mapping[tuple[str, int], float]
    document_scores: Mapping[tuple[str, str], float] = field(default_factory=dict)
    system_scores: Mapping[str, float] = field(default_factory=dict)
    reference_names: tuple[str, ...] = ()
    """Names of the reference sets where the judgments name them (MQM's reference systems)."""
    reference_scores: Mapping[tuple[str, int], float] = field(default_factory=dict)
    """Human segment scores of the references themselves, keyed like ``segment_scores``:
    a reference the humans rate below the systems is a poor thing to score against."""

    def __post_init__(self) -> None:
        size = len(self.documents)
        if len(self.segment_ids) != size or any(len(r) != size for r in self.references):
            raise ValueError("documents, segment ids and references must have one entry per segment")
        if not self.references:
            raise ValueError("a judged set needs at least one reference set")

    @property
    def size(self) -> int:
        return len(self.documents)

    def available(self, system: str) -> np.ndarray:
        """Positions where ``system`` has an output."""
        return np.array([i for i, text in enumerate(self.outputs[system]) if text is not None], dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Referent:
    """One unit both sides score: its Asiya key, the segments the metric scores, the human score."""

    system: str
    key: str
    positions: np.ndarray
    human: float


def _mean_score(judged: JudgedSet, system: str, positions: np.ndarray) -> float:
    return math.fsum(judged.segment_scores[(system, int(p))] for p in positions) / positions.size


def _judged_positions(judged: JudgedSet) -> dict[str, np.ndarray]:
    """Per system, the positions with both a human score and an output, ascending."""
    found: dict[str, list[int]] = defaultdict(list)
    for system, position in sorted(judged.segment_scores):
        if system in judged.outputs and judged.outputs[system][position] is not None:
            found[system].append(position)
    return {system: np.array(positions, dtype=np.int64) for system, positions in found.items()}


def _segment_referents(judged: JudgedSet, system: str, scored: np.ndarray) -> list[Referent]:
    return [
        Referent(
            system,
            f"{system}@@{judged.documents[p]}@@{judged.segment_ids[p]}",
            np.array([p]),
            judged.segment_scores[(system, int(p))],
        )
        for p in scored
    ]


def _document_referents(judged: JudgedSet, system: str, scored: np.ndarray) -> list[Referent]:
    documents = np.array(judged.documents, dtype=object)
    available = judged.available(system)
    result = []
    for document in dict.fromkeys(judged.documents):
        key = f"{system}@@{document}"
        given = judged.document_scores.get((system, document))
        if given is not None:
            positions = available[documents[available] == document]
            if positions.size:
                result.append(Referent(system, key, positions, given))
            continue
        positions = scored[documents[scored] == document]
        if positions.size:
            result.append(Referent(system, key, positions, _mean_score(judged, system, positions)))
    return result


def _system_referents(judged: JudgedSet, system: str, scored: np.ndarray) -> list[Referent]:
    available = judged.available(system)
    given = judged.system_scores.get(system)
    if given is not None:
        return [Referent(system, system, available, given)] if available.size else []
    if scored.size:
        return [Referent(system, system, scored, _mean_score(judged, system, scored))]
    # No segment scores: the mean of the given document scores, over those documents' segments.
    docs = {doc: score for (name, doc), score in judged.document_scores.items() if name == system}
    documents = np.array(judged.documents, dtype=object)
    positions = available[np.isin(documents[available], list(docs))]
    if not docs or not positions.size:
        return []
    return [Referent(system, system, positions, math.fsum(docs.values()) / len(docs))]


def referents(judged: JudgedSet, level: Granularity) -> list[Referent]:
    """Every referent at ``level`` that has a human score and at least one output segment.

    Ordered by system (in ``judged.outputs`` order), then document or segment.
    """
    by_level = {
        Granularity.SEG: _segment_referents,
        Granularity.DOC: _document_referents,
        Granularity.SYS: _system_referents,
    }
    build = by_level[level]
    scored = _judged_positions(judged)
    empty = np.array([], dtype=np.int64)
    return [unit for system in judged.outputs for unit in build(judged, system, scored.get(system, empty))]



def judged_from_mqm(
    data: MQMData,
    reference_system: str | Sequence[str],
    exclude: Sequence[str] = (),
    scores: Mapping[tuple[str, int], float | None] | None = None,
) -> JudgedSet:
    """The systems of an MQM file scored against one or more of its human translations.

    ``reference_system`` (e.g. ``ref``, or ``["ref", "refB"]``) supplies the
    references and is not evaluated itself; ``exclude`` removes further
    systems. Human scores come from ``scores`` (the average-score file) or
    are recomputed from the error rows; unrated segments (``None``, or no
    rows) are left out, and so are segments without a translation by every
    reference. The references' own human scores are kept apart
    (``reference_scores``), to warn when the humans rate a reference low.
    """
    names = [reference_system] if isinstance(reference_system, str) else list(dict.fromkeys(reference_system))
    if not names:
        raise UsageError("no reference system given")
    for name in names:
        if name not in data.outputs:
            raise UsageError(f"reference system {name!r} is not in {data.path} (systems: {', '.join(data.systems)})")
    unknown = [name for name in exclude if name not in data.outputs]
    if unknown:
        raise UsageError(f"excluded system {unknown[0]!r} is not in {data.path} (systems: {', '.join(data.systems)})")
    translations = [data.outputs[name] for name in names]
    segments = [seg for seg in data.segments if all(seg in reference for reference in translations)]
    position = {seg: index for index, seg in enumerate(segments)}
    systems = [name for name in data.systems if name not in names and name not in exclude]
    if not systems:
        raise UsageError("no system left to evaluate after removing the reference and excluded systems")
    human = data.segment_scores() if scores is None else scores
    segment_scores = {
        (system, position[seg]): score
        for (system, seg), score in human.items()
        if score is not None and system in systems and seg in position and seg in data.outputs[system]
    }
    reference_scores = {
        (system, position[seg]): score
        for (system, seg), score in human.items()
        if score is not None and system in names and seg in position
    }
    return JudgedSet(
        judgments="mqm",
        documents=tuple(data.documents[seg] for seg in segments),
        segment_ids=tuple(str(seg) for seg in segments),
        references=tuple(tuple(reference[seg] for seg in segments) for reference in translations),
        sources=tuple(data.sources[seg] for seg in segments),
        outputs={name: tuple(data.outputs[name].get(seg) for seg in segments) for name in systems},
        segment_scores=segment_scores,
        reference_names=tuple(names),
        reference_scores=reference_scores,
    )


def judged_from_assessments(
    assessments: Assessments,
    references: Sequence[Sequence[str]],
    outputs: Mapping[str, Sequence[str]],
    sources: Sequence[str] | None = None,
) -> JudgedSet:
    """Raw-text systems and references judged by an assessments file.

    As in Asiya for raw input, the test set is one document ``UNKNOWN_DOC``
    and segment ids are line numbers from 1; system ids are the names given
    with the outputs. Assessments for other systems or segments are ignored
    (only referents both sides know are correlated).
    """
    if not references:
        raise UsageError("at least one reference is needed")
    size = len(references[0])
    documents = tuple(UNKNOWN_DOC for _ in range(size))
    segment_ids = tuple(str(i) for i in range(1, size + 1))
    position = {(UNKNOWN_DOC, seg): index for index, seg in enumerate(segment_ids)}
    segment_scores = {
        (system, position[(doc, seg)]): score
        for (system, doc, seg), score in assessments.segment_scores(list(zip(documents, segment_ids, strict=True))).items()
        if system in outputs and (doc, seg) in position
    }
    return JudgedSet(
        judgments="assessments",
        documents=documents,
        segment_ids=segment_ids,
        references=tuple(tuple(reference) for reference in references),
        sources=None if sources is None else tuple(sources),
        outputs={name: tuple(lines) for name, lines in outputs.items()},
        segment_scores=segment_scores,
        document_scores={key: score for key, score in assessments.documents.items() if key[0] in outputs},
        system_scores={key: score for key, score in assessments.systems.items() if key in outputs},
    )
