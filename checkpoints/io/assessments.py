"""Asiya human-assessment CSV (``-assessments FILE``, asiya-reference §9.6).

One assessment per line, comma-separated (CSV quoting allowed), blank lines
and ``#`` comments ignored. The fields are named by a header of the
descriptors ``systemId``, ``documentId``, ``segmentId`` and ``score``;
``systemId`` and ``score`` are mandatory. Without a header the default
``systemId, documentId, segmentId, score`` (segment level) applies.

Asiya's own example writes the header as a comment (``# systemId, ...``), and
the manual never says how a header differs from a comment. The rule here:
before the first assessment, a line — with or without a leading ``#`` — whose
fields are all descriptors is the header; a ``#`` line with anything else is a
comment; a line without ``#`` that names some descriptors and also other words
is an error (a misspelt header would otherwise be read as an assessment).

Levels come from which identifiers a row fills in: system, document and
segment → segment level; system and document → document level; system only →
system level. A header without ``documentId`` but with ``segmentId`` gives
*absolute* segment ids, which :meth:`Assessments.segment_scores` maps to
documents through the test set's document order. Repeated scores for one
referent (several assessors) are averaged. Missing document and system scores
are derived from the segments (or documents) by the meta-evaluation, which
knows which of them belong to the test set
(:class:`checkpoints.evaluate.meta.judged.JudgedSet`).
"""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.io.lines import read_lines

SYSTEM = "systemId"
DOCUMENT = "documentId"
SEGMENT = "segmentId"
SCORE = "score"
DESCRIPTORS = (SYSTEM, DOCUMENT, SEGMENT, SCORE)
DEFAULT_HEADER = (SYSTEM, DOCUMENT, SEGMENT, SCORE)

_BY_FOLDED = {name.lower(): name for name in DESCRIPTORS}

SegmentKey = tuple[str, str, str]
"""(system, document, segment)."""
DocumentKey = tuple[str, str]
"""(system, document)."""


def _fields(text: str) -> list[str]:
    row = next(csv.reader([text], skipinitialspace=True), [])
    return [field.strip() for field in row]


def _header(path: str | Path, number: int, fields: list[str], commented: bool) -> tuple[str, ...] | None:
    """The header named by ``fields``, ``None`` if the line is not a header."""
    known = [_BY_FOLDED.get(field.lower()) for field in fields]
    if fields and all(known):
        names = tuple(name for name in known if name is not None)
        duplicated = sorted({name for name in names if names.count(name) > 1})
        if duplicated:
            raise InputError(path, number, f"header names {', '.join(duplicated)} twice")
        for mandatory in (SYSTEM, SCORE):
            if mandatory not in names:
                raise InputError(path, number, f"header lacks the mandatory field {mandatory}")
        return names
    if not commented and any(known) and not all(known):
        unknown = [field for field, name in zip(fields, known, strict=True) if name is None]
        raise InputError(
            path, number,
            f"header field(s) {', '.join(map(repr, unknown))} unknown (known: {', '.join(DESCRIPTORS)})",
        )
    return None


@dataclass(frozen=True, slots=True)
class Assessments:
    """Averaged human scores by referent, as given in the file (nothing derived yet).

    ``segments`` with an empty document are absolute segment ids (the file
    named no ``documentId``).
    """

    path: str
    systems: Mapping[str, float]
    documents: Mapping[DocumentKey, float]
    segments: Mapping[SegmentKey, float]
    lines: Mapping[tuple[str, ...], int]
    """Line of each referent's first assessment, for messages."""

    def segment_scores(self, documents: Sequence[tuple[str, str]] | None = None) -> dict[SegmentKey, float]:
        """Segment scores keyed by (system, document, segment).

        ``documents`` is the test set's (document, segment id) of every
        segment in order; it resolves absolute segment ids (the n-th segment
        of the test set, counted from 1). Without it, absolute ids are kept
        with an empty document.

        Raises:
            InputError: ``FILE:LINE: problem`` for an absolute id that is not
                a number or lies outside the test set.
        """
        if documents is None:
            return dict(self.segments)
        resolved: dict[SegmentKey, list[float]] = defaultdict(list)
        for key, score in self.segments.items():
            system, document, segment = key
            if not document:
                line = self.lines.get(key)
                try:
                    position = int(segment)
                except ValueError:
                    raise InputError(self.path, line, f"absolute segment id {segment!r} is not a number") from None
                if not 1 <= position <= len(documents):
                    raise InputError(
                        self.path, line,
                        f"absolute segment id {position} outside the test set's {len(documents)} segments",
                    )
                document, segment = documents[position - 1]
            # An absolute and a relative id may name the same segment: average them like repeats.
            resolved[(system, document, segment)].append(score)
        return {key: math.fsum(values) / len(values) for key, values in resolved.items()}


def read_assessments(path: str | Path) -> Assessments:
    """Read an Asiya assessments CSV.

    Raises:
        InputError: ``FILE:LINE: problem`` for a header without ``systemId`` or
            ``score``, an unknown or repeated header field, a row with the
            wrong number of fields, an empty ``systemId``, a ``segmentId``
            without ``documentId`` where the header has both, or a score that
            is not a finite number; ``FILE: problem`` for a file with no
            assessment.
    """
    header: tuple[str, ...] | None = None
    started = False
    sums: dict[tuple[str, ...], list[float]] = defaultdict(list)
    first_line: dict[tuple[str, ...], int] = {}
    for number, line in enumerate(read_lines(path), start=1):
        text = line.strip()
        if not text:
            continue
        commented = text.startswith("#")
        body = text.lstrip("#").strip() if commented else text
        if not started and header is None:
            header = _header(path, number, _fields(body), commented)
            if header is not None:
                continue
        if commented:
            continue
        started = True
        names = header or DEFAULT_HEADER
        fields = _fields(body)
        if len(fields) != len(names):
            raise InputError(
                path, number, f"expected {len(names)} fields ({', '.join(names)}), found {len(fields)}"
            )
        row = dict(zip(names, fields, strict=True))
        system = row[SYSTEM]
        if not system:
            raise InputError(path, number, "empty systemId")
        document, segment = row.get(DOCUMENT, ""), row.get(SEGMENT, "")
        if segment and DOCUMENT in names and not document:
            raise InputError(path, number, "segmentId given without documentId")
        try:
            score = float(row[SCORE])
        except ValueError:
            raise InputError(path, number, f"score {row[SCORE]!r} is not a number") from None
        if not math.isfinite(score):
            raise InputError(path, number, f"score {row[SCORE]!r} is not finite")
        if segment:
            key: tuple[str, ...] = (system, document, segment)
        elif document:
            key = (system, document)
        else:
            key = (system,)
        sums[key].append(score)
        first_line.setdefault(key, number)
    if not sums:
        raise InputError(path, None, "no assessments in the file")
    averaged = {key: math.fsum(values) / len(values) for key, values in sums.items()}
    return Assessments(
        path=str(path),
        systems={key[0]: value for key, value in averaged.items() if len(key) == 1},
        documents={(key[0], key[1]): value for key, value in averaged.items() if len(key) == 2},
        segments={(key[0], key[1], key[2]): value for key, value in averaged.items() if len(key) == 3},
        lines=first_line,
    )
