"""Metric test sets in memory: one source, references and system outputs, segment by segment.

A :class:`TextSet` is one source, reference or system output as a file gave
it; a :class:`Testbed` puts them side by side, in one segment order. Readers
are :mod:`checkpoints.io.testset_readers`; :mod:`checkpoints.io.testsets`
loads and aligns what ``checkpoints metrics`` is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from checkpoints.errors import UsageError

UNKNOWN_DOC = "UNKNOWN_DOC"
"""Asiya's document id for raw text input."""


LANGUAGE_NAMES = {
    "arabic": "ar", "chinese": "zh", "czech": "cs", "danish": "da", "dutch": "nl", "english": "en",
    "estonian": "et", "farsi": "fa", "finnish": "fi", "french": "fr", "german": "de", "greek": "el",
    "hindi": "hi", "hungarian": "hu", "italian": "it", "japanese": "ja", "korean": "ko", "latvian": "lv",
    "lithuanian": "lt", "persian": "fa", "polish": "pl", "portuguese": "pt", "romanian": "ro",
    "russian": "ru", "spanish": "es", "swedish": "sv", "turkish": "tr", "urdu": "ur",
}
"""Language names NIST files use for ``srclang``/``trglang`` (``trglang="English"``) → ISO 639-1."""


def language_code(value: str) -> str:
    """The ISO 639-1 code of a language a file names, in words (NIST) or already as a code (WMT)."""
    name = value.strip()
    return LANGUAGE_NAMES.get(name.lower(), name)


class InputFormat(StrEnum):
    RAW = "raw"
    NIST = "nist"
    """NIST SGML or NIST XML, told apart by the file's first tag."""
    WMT = "wmt"


class SetKind(StrEnum):
    SOURCE = "src"
    REFERENCE = "ref"
    SYSTEM = "tst"


@dataclass(frozen=True, slots=True)
class TextSet:
    """One source, reference or system output, segment by segment.

    ``lines`` holds the line of each segment in its file (the line number for
    raw text, the line of the ``<seg>`` tag otherwise), for error messages.
    """

    name: str
    kind: SetKind
    path: str
    doc_ids: tuple[str, ...]
    seg_ids: tuple[str, ...]
    segments: tuple[str, ...]
    lines: tuple[int, ...]
    language: str | None = None
    set_id: str | None = None
    """The test set's id (``setid`` in NIST files, the ``<dataset id>`` in WMT XML); None for raw text."""

    def __len__(self) -> int:
        return len(self.segments)

    def keys(self) -> list[tuple[str, str]]:
        return list(zip(self.doc_ids, self.seg_ids, strict=True))


@dataclass(frozen=True, slots=True)
class Testbed:
    """Source, references and systems aligned segment by segment.

    ``doc_ids[i]``/``seg_ids[i]`` identify segment ``i`` of every set.
    """

    doc_ids: tuple[str, ...]
    seg_ids: tuple[str, ...]
    references: tuple[TextSet, ...]
    systems: tuple[TextSet, ...]
    source: TextSet | None = None

    @property
    def n_segments(self) -> int:
        return len(self.doc_ids)

    @property
    def documents(self) -> list[str]:
        """Document ids in order of first appearance."""
        return list(dict.fromkeys(self.doc_ids))

    @property
    def set_id(self) -> str:
        """The test set's id from the files, or the first reference's file stem for raw text."""
        for text_set in (self.source, *self.references):
            if text_set is not None and text_set.set_id:
                return text_set.set_id
        return Path(self.references[0].path).stem

    @property
    def target_language(self) -> str | None:
        """The target language the files declare (``trglang`` of NIST sets, ``lang`` of WMT
        references and outputs), the references' first, as an ISO 639-1 code where it is named
        in words; None for raw text, which does not say."""
        for text_set in (*self.references, *self.systems):
            if text_set.language and text_set.language.strip():
                return language_code(text_set.language)
        return None

    @property
    def source_language(self) -> str | None:
        """The source language the files declare (``srclang`` of NIST sets, the WMT source's
        ``lang``), as an ISO 639-1 code; None for raw text or without a source."""
        if self.source is not None and self.source.language and self.source.language.strip():
            return language_code(self.source.language)
        return None

    @property
    def reference_set_name(self) -> str:
        """Asiya's name for the reference set: the sorted reference names joined with ``_``."""
        return "_".join(sorted(reference.name for reference in self.references))

    def system(self, name: str) -> TextSet:
        for text_set in self.systems:
            if text_set.name == name:
                return text_set
        raise UsageError(f"unknown system {name!r} (systems: {', '.join(s.name for s in self.systems)})")

