"""Metric test sets: the sources, references and system outputs ``checkpoints metrics`` reads, side by side.

A test set is one source, one or more references and one or more system
outputs, segment by segment, with the document and segment ids that reports
and human assessments refer to. The readers
(:mod:`checkpoints.io.testset_readers`: raw text, NIST SGML, NIST XML, WMT
XML) return :class:`TextSet` objects (one per source, reference or system
found in a file); :func:`load_testbed` puts them side by side, in the order of
the source (or of the first reference), and checks that every set covers
exactly the same segments. The types live in
:mod:`checkpoints.io.testset_model`; this module re-exports the names callers
need.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path

from checkpoints.errors import InputError, UsageError
from checkpoints.io.testset_model import UNKNOWN_DOC, InputFormat, SetKind, Testbed, TextSet
from checkpoints.io.testset_readers import (
    read_nist,
    read_nist_sgml,
    read_nist_xml,
    read_raw,
    read_wmt_xml,
)

__all__ = [
    "UNKNOWN_DOC",
    "InputFormat",
    "SetKind",
    "Testbed",
    "TextSet",
    "align",
    "load_testbed",
    "read_nist",
    "read_nist_sgml",
    "read_nist_xml",
    "read_raw",
    "read_wmt_xml",
    "select_system",
]


class _Files:
    """Parses each XML/SGML file once, however many options name it (a WMT file is often all of them)."""

    def __init__(self, input_format: InputFormat) -> None:
        self.input_format = input_format
        self._parsed: dict[Path, list[TextSet]] = {}

    def sets(self, path: str | Path, kind: SetKind) -> list[TextSet]:
        key = Path(path).resolve()
        if key not in self._parsed:
            reader = read_nist if self.input_format is InputFormat.NIST else read_wmt_xml
            self._parsed[key] = reader(path)
        return [text_set for text_set in self._parsed[key] if text_set.kind is kind]


def select_system(path: str | Path, sets: Sequence[TextSet], name: str | None) -> list[TextSet]:
    """A system named ``name`` in an XML or SGML file: the system called so, or the file's only
    system renamed ``name``; without a name, every system in the file under its own id."""
    if not sets:
        raise InputError(path, None, "no system output in this file")
    if name is None:
        return list(sets)
    for text_set in sets:
        if text_set.name == name:
            return [text_set]
    if len(sets) == 1:
        return [_renamed(sets[0], name)]
    names = ", ".join(text_set.name for text_set in sets)
    raise InputError(path, None, f"no system {name!r} in this file (systems: {names})")


def _renamed(text_set: TextSet, name: str) -> TextSet:
    return dataclasses.replace(text_set, name=name)


def align(text_set: TextSet, doc_ids: Sequence[str], seg_ids: Sequence[str]) -> TextSet:
    """``text_set`` reordered to the given segment order; it must hold exactly those segments.

    NIST files may list documents in any order (mteval matches them by id);
    raw files must simply have as many lines as the test set.
    """
    expected = len(doc_ids)
    if text_set.doc_ids == tuple(doc_ids) and text_set.seg_ids == tuple(seg_ids):
        return text_set
    if all(doc == UNKNOWN_DOC for doc in text_set.doc_ids) and len(text_set) != expected:
        raise InputError(text_set.path, None, f"{len(text_set)} lines, expected {expected}")
    position = {key: index for index, key in enumerate(text_set.keys())}
    order = []
    for doc_id, seg_id in zip(doc_ids, seg_ids, strict=True):
        index = position.pop((doc_id, seg_id), None)
        if index is None:
            raise InputError(text_set.path, None, f"{text_set.name}: no segment {seg_id} in document {doc_id}")
        order.append(index)
    if position:
        (doc_id, seg_id), index = next(iter(position.items()))
        raise InputError(
            text_set.path,
            text_set.lines[index],
            f"{text_set.name}: segment {seg_id} of document {doc_id} is not in the test set ({len(text_set)} segments, expected {expected})",
        )
    return dataclasses.replace(
        text_set,
        doc_ids=tuple(doc_ids),
        seg_ids=tuple(seg_ids),
        segments=tuple(text_set.segments[i] for i in order),
        lines=tuple(text_set.lines[i] for i in order),
    )


def load_testbed(
    input_format: InputFormat,
    references: Sequence[str | Path],
    systems: Sequence[tuple[str | None, str | Path]],
    source: str | Path | None = None,
) -> Testbed:
    """Read and align everything ``checkpoints metrics`` is given.

    Segment order is the source's when an XML source is given, else the
    first reference's. With XML input, a reference file contributes every reference
    in it, and its source when no ``source`` file is given (a WMT test set
    holds all of them in one file).
    """
    if not references:
        raise UsageError("at least one reference file is required")
    raw = input_format is InputFormat.RAW
    files = _Files(input_format)
    reference_sets: list[TextSet] = []
    found_sources: list[TextSet] = []
    for path in references:
        sets = [read_raw(path, SetKind.REFERENCE)] if raw else files.sets(path, SetKind.REFERENCE)
        if not sets:
            raise InputError(path, None, "no reference translation in this file")
        reference_sets.extend(sets)
        if not raw:
            found_sources.extend(files.sets(path, SetKind.SOURCE))
    _check_unique(reference_sets, "reference")

    source_set: TextSet | None = None
    if source is not None:
        sources = [read_raw(source, SetKind.SOURCE, "source")] if raw else files.sets(source, SetKind.SOURCE)
        if not sources:
            raise InputError(source, None, "no source segments in this file")
        source_set = sources[0]
    elif found_sources:
        source_set = found_sources[0]

    system_sets: list[TextSet] = []
    for name, path in systems:
        if raw:
            if name is None:
                raise UsageError(f"{path}: a raw-text system output needs a name")
            system_sets.append(read_raw(path, SetKind.SYSTEM, name))
        else:
            system_sets.extend(select_system(path, files.sets(path, SetKind.SYSTEM), name))
    if not system_sets:
        raise UsageError("at least one system output is required")
    _check_unique(system_sets, "system")

    # Raw files are compared with the first reference, so a short source file is the one blamed.
    key = source_set if source_set is not None and not raw else reference_sets[0]
    doc_ids, seg_ids = key.doc_ids, key.seg_ids
    return Testbed(
        doc_ids=doc_ids,
        seg_ids=seg_ids,
        references=tuple(align(s, doc_ids, seg_ids) for s in reference_sets),
        systems=tuple(align(s, doc_ids, seg_ids) for s in system_sets),
        source=None if source_set is None else align(source_set, doc_ids, seg_ids),
    )


def _check_unique(sets: Iterable[TextSet], what: str) -> None:
    seen: dict[str, str] = {}
    for text_set in sets:
        if text_set.name in seen:
            raise UsageError(f"two {what}s named {text_set.name!r} ({seen[text_set.name]} and {text_set.path})")
        seen[text_set.name] = text_set.path
