"""Reproducibility signatures in sacreBLEU's style (``key:value|...``).

A report is only comparable with another when both were made from the same
suite, taxonomy, parser, aligner, tokenizer, matching mode and resampling; the
signature says all of that in one line, with the package version last.

:class:`Signature` is the one type every report uses (check-point runs,
comparisons, metrics, meta-evaluation): an ordered mapping of fields that is
extended or overridden with :meth:`Signature.with_fields` and rendered once by
:meth:`Signature.format`, never patched as a string.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from checkpoints import __version__

if TYPE_CHECKING:
    from checkpoints.model import CheckPoint, SentencePair, SuiteData


class Signature(Mapping[str, object]):
    """An ordered, immutable set of ``key:value`` fields; ``version`` always comes last."""

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping[str, object] | None = None, /, **more: object) -> None:
        merged: dict[str, object] = {}
        for source in (fields or {}), more:
            for key, value in source.items():
                merged.pop(key, None)
                merged[key] = value
        self._fields = {key: value for key, value in merged.items() if value is not None and key != "version"}

    def with_fields(self, fields: Mapping[str, object] | None = None, /, **more: object) -> Signature:
        """A copy with fields added or replaced in place (``None`` removes a field)."""
        merged = dict(self._fields)
        for source in (fields or {}), more:
            for key, value in source.items():
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
        return Signature(merged)

    def __add__(self, other: Mapping[str, object]) -> Signature:
        """Concatenation: this signature's fields, then ``other``'s new ones."""
        return self.with_fields(other)

    def format(self, *, version: bool = True) -> str:
        """``key:value|...|version:V``; without the version for a fragment printed beside a whole
        signature (a significance table's resampling fields)."""
        parts = [f"{key}:{value}" for key, value in self._fields.items()]
        if version:
            parts.append(f"version:{__version__}")
        return "|".join(parts)

    @classmethod
    def parse(cls, text: str) -> Signature:
        """The fields of a formatted signature (the version is dropped: it is always the current one)."""
        fields: dict[str, object] = {}
        for part in text.split("|"):
            key, sep, value = part.partition(":")
            if sep:
                fields[key] = value
        return cls(fields)

    def __getitem__(self, key: str) -> object:
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Signature({self.format()!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Signature):
            return self._fields == other._fields
        if isinstance(other, str):
            return self.format() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.format())


def suite_hash(data: SuiteData) -> str:
    """First 12 hex digits of a SHA-256 over the suite's content.

    The content is what the interchange XML carries except the suite's name
    (languages, taxonomy, pair tokens, check-points with their references and
    DM), so a suite exported and imported elsewhere, even under another name,
    keeps its hash, and any change to a check-point changes it.
    """
    hasher = SuiteHasher(data.source_lang, data.target_lang, data.taxonomy)
    hasher.add(data.pairs, data.checkpoints)
    return hasher.hexdigest()


class SuiteHasher:
    """:func:`suite_hash` fed a chunk at a time, as a streaming build makes the suite: the
    check-points of a chunk belong to its pairs, and the hash is the same however it is cut."""

    def __init__(self, source_lang: str, target_lang: str, taxonomy: str) -> None:
        self.digest = hashlib.sha256()
        self.digest.update(f"{source_lang}\t{target_lang}\t{taxonomy}\n".encode())

    def add(self, pairs: Sequence[SentencePair], checkpoints: Sequence[CheckPoint]) -> None:
        by_pair: dict[int, list[str]] = {}
        for checkpoint in checkpoints:
            refs = "\t".join(f"{r.reference_index}:{r.dm!r}:{' '.join(r.tokens)}" for r in checkpoint.references)
            span = " ".join(map(str, checkpoint.source_indices))
            by_pair.setdefault(checkpoint.pair_id, []).append(f"{checkpoint.id}\t{checkpoint.category}\t{span}\t{refs}\n")
        for pair in pairs:
            lines = [f"{pair.id}\t{' '.join(pair.source.forms)}\n"]
            lines.extend(f"\t{' '.join(reference.forms)}\n" for reference in pair.references)
            lines.extend(by_pair.get(pair.id, ()))
            self.digest.update("".join(lines).encode())

    def hexdigest(self) -> str:
        return self.digest.hexdigest()[:12]


def suite_signature(data: SuiteData) -> Signature:
    """The build half of a check-point report's signature."""
    options = data.options
    return Signature(
        suite=options.get("content_hash") or suite_hash(data),
        taxonomy=f"{data.taxonomy}@{data.taxonomy_version}",
        parser=options.get("parser", "unknown" if "imported_from" not in options else "imported"),
        aligner=options.get("aligner", "unknown" if "imported_from" not in options else "imported"),
        **{"align-seed": _aligner_seed(options)},
    )


def _aligner_seed(options: dict[str, object]) -> object:
    """The aligner's seed (``none`` for an unseeded sampling aligner); None, no field, for an aligner
    that does not sample (Pharaoh files, simalign) and for suites built before seeds were recorded."""
    settings = options.get("aligner_settings")
    return settings.get("seed") if isinstance(settings, dict) else None
