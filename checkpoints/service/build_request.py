"""What ``checkpoints build`` is asked to do, checked before any work, and what it gives back."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from checkpoints.db.staging_names import STAGING_PREFIX
from checkpoints.engine import EngineSpec
from checkpoints.errors import InputError, UsageError
from checkpoints.extract.dictionary import is_named_dictionary
from checkpoints.extract.eflomal_process import DEFAULT_ALIGN_SEED
from checkpoints.model import SuiteData

DEFAULT_MIN_DM = 0.0
"""References below this DM are dropped; see docs/building.md#reference-quality for why 0."""

@dataclass(slots=True)
class BuildRequest:
    """Everything ``checkpoints build`` was asked to do."""

    source_lang: str
    target_lang: str
    source: Path | None = None
    references: list[Path] = field(default_factory=list)
    source_conllu: Path | None = None
    reference_conllu: list[Path] = field(default_factory=list)
    alignments: list[Path] = field(default_factory=list)
    aligner: str = "eflomal"
    align_model: str = "bert-base-multilingual-cased"
    align_method: str = "itermax"
    seed: int | None = DEFAULT_ALIGN_SEED
    """Seed of eflomal's sampling: the same inputs and seed give the same suite. None: unseeded."""
    taxonomy: str | None = None
    dictionaries: list[Path] = field(default_factory=list)
    threads: int | None = None
    """CPU threads the parser (torch) may use on raw text; None: torch's default."""
    name: str | None = None
    noise_filter: bool = True
    stanza_dir: str | None = None
    min_dm: float = DEFAULT_MIN_DM
    repair: bool = True
    pos_filter: bool = True
    parallel_filter: bool = True
    confirm: bool = True
    complete: bool = True
    audit: bool = True
    engine: EngineSpec = field(default_factory=EngineSpec)
    """Where raw text is parsed and check-points extracted (the suite is the same on any engine)."""

    def validate(self) -> None:
        self.engine.validate()
        if self.suite_name().startswith(STAGING_PREFIX):
            raise UsageError(f"--name {self.suite_name()!r}: names starting with {STAGING_PREFIX!r} are reserved")
        raw = self.source is not None or bool(self.references)
        conllu = self.source_conllu is not None or bool(self.reference_conllu)
        if raw and conllu:
            raise UsageError("give either --source/--reference or --source-conllu/--reference-conllu, not both")
        if raw and (self.source is None or not self.references):
            raise UsageError("--source needs at least one --reference (and the other way round)")
        if conllu and (self.source_conllu is None or not self.reference_conllu):
            raise UsageError("--source-conllu needs at least one --reference-conllu (and the other way round)")
        if not raw and not conllu:
            raise UsageError("no corpus: give --source and --reference, or --source-conllu and --reference-conllu")
        if self.alignments and len(self.alignments) != self.reference_count:
            raise UsageError(
                f"{len(self.alignments)} --alignment files for {self.reference_count} references: give one per reference, in the same order"
            )
        if not 0.0 <= self.min_dm <= 1.0:
            raise UsageError(f"--min-dm {self.min_dm}: DM lies between 0.1 and 1, give a value from 0 to 1")
        if self.aligner not in ("simalign", "eflomal"):
            raise UsageError(f"unknown aligner {self.aligner!r} (choose eflomal or simalign)")
        for path in [self.source, *self.references, self.source_conllu, *self.reference_conllu, *self.alignments]:
            if path is not None and not Path(path).is_file():
                raise InputError(path, None, "no such file")
        if self.threads is not None and self.threads < 1:
            raise UsageError(f"--threads must be at least 1, not {self.threads}")
        for dictionary in self.dictionaries:
            if not is_named_dictionary(str(dictionary)) and not Path(dictionary).is_file():
                raise InputError(dictionary, None, "no such file (given to --dictionary)")

    @property
    def reference_count(self) -> int:
        return len(self.references) if self.references else len(self.reference_conllu)

    def suite_name(self) -> str:
        """The name the suite will be stored under: ``name``, else one from the source file and languages."""
        return self.name or _default_name(self)

    def taxonomy_name(self) -> str:
        if self.taxonomy:
            return self.taxonomy
        language = self.source_lang.split("-")[0].lower()
        return language if language in ("en", "zh") else "ud"


@dataclass(slots=True)
class BuildResult:
    suite: SuiteData
    summary: dict[str, object]


def input_paths(request: BuildRequest) -> list[Path]:
    paths: list[Path | None] = [request.source, *request.references, request.source_conllu, *request.reference_conllu]
    paths.extend(request.alignments)
    return [p for p in paths if p is not None]


def _default_name(request: BuildRequest) -> str:
    first = request.source or request.source_conllu
    stem = Path(first).stem if first is not None else "suite"
    return f"{stem}-{request.source_lang}-{request.target_lang}"
