"""MQM human judgments (Freitag et al. 2021, "wmt-mqm-human-evaluation" release).

Two files per language pair:

* the **error TSV** (``mqm_ted_<pair>.tsv``): one row per annotated error
  span — ``system doc doc_id seg_id rater source target category severity
  [comment]`` — tab-separated with *no quoting* (targets may start with a
  quotation mark that belongs to the text). The error span is marked with
  ``<v>…</v>`` in the target (and, for source errors and omissions, in the
  source); stripping the marks gives the system output and the source.
  A segment a rater found flawless has one ``No-error`` row, so every
  (system, segment) the raters saw occurs at least once.
* the **average segment scores** (``…avg_seg_scores.tsv``): whitespace-
  separated ``system mqm_avg_score seg_id``, tabs and spaces mixed, ``None``
  for segments nobody rated. It names the human references ``ref-A`` and
  ``ref-B`` where the error file says ``ref`` and ``refB``
  (:data:`SCORE_FILE_SYSTEM_NAMES`).

Segment scores are MQM penalties, negated so that higher is better (the sign
of the average-score file): per rater the sum of the error weights
(:func:`error_weight`), then the mean over the raters of that segment. On the
TED en-de and zh-en files these recomputed scores equal the shipped averages
for every one of the 7,406 and 7,935 rated (system, segment) pairs; that
requires counting "Source error" rows by their severity like any other error
(weighting them 0 would change 38 zh-en scores).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from checkpoints.errors import InputError
from checkpoints.io.lines import read_lines

REQUIRED_COLUMNS = ("system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity")
OPTIONAL_COLUMNS = ("comment",)

SEVERITIES = ("Major", "Minor", "Neutral", "No-error")

MAJOR_WEIGHT = 5.0
MINOR_WEIGHT = 1.0
MINOR_PUNCTUATION_WEIGHT = 0.1
NON_TRANSLATION_WEIGHT = 25.0

SCORE_FILE_SYSTEM_NAMES: Mapping[str, str] = {"ref-A": "ref", "ref-B": "refB"}
"""Names the average-score file uses → names of the same systems in the error file."""

SCORE_FILE_HEADER = ("system", "mqm_avg_score", "seg_id")


def strip_marks(text: str) -> str:
    """The text without the ``<v>``/``</v>`` error-span marks (one release row leaves a ``<v>`` unclosed)."""
    return text.replace("<v>", "").replace("</v>", "")


def marked_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Character ranges ``[start, end)`` of the ``<v>…</v>`` spans in the text without marks.

    A ``<v>`` left unclosed (one release row has one) runs to the end of the text.
    """
    spans: list[tuple[int, int]] = []
    plain = 0
    start: int | None = None
    index = 0
    while index < len(text):
        if text.startswith("<v>", index):
            start = plain
            index += 3
        elif text.startswith("</v>", index):
            if start is not None:
                spans.append((start, plain))
                start = None
            index += 4
        else:
            plain += 1
            index += 1
    if start is not None:
        spans.append((start, plain))
    return tuple(spans)


def error_type(category: str) -> str:
    """The top-level MQM error type of a category ("Accuracy/Mistranslation" → "Accuracy")."""
    return category.split("/", 1)[0].rstrip("!")


def error_weight(category: str, severity: str) -> float:
    """MQM penalty of one error row (Freitag et al. 2021, Table 2).

    Major 5; Minor 1, except Minor Fluency/Punctuation 0.1; a Non-translation
    error 25 whatever its severity (the release spells the category
    ``Non-translation!``; the TED files contain none); Neutral and No-error 0.
    Every other category, "Source error" included, weighs by its severity.

    Raises:
        ValueError: for a severity outside :data:`SEVERITIES`.
    """
    if severity not in SEVERITIES:
        raise ValueError(f"unknown severity {severity!r} (expected one of {', '.join(SEVERITIES)})")
    if category == "No-error" or severity in ("No-error", "Neutral"):
        return 0.0
    if category.rstrip("!").lower() == "non-translation":
        return NON_TRANSLATION_WEIGHT
    if severity == "Major":
        return MAJOR_WEIGHT
    return MINOR_PUNCTUATION_WEIGHT if category == "Fluency/Punctuation" else MINOR_WEIGHT


@dataclass(frozen=True, slots=True)
class MQMError:
    """One row of the error file (``line`` is its line number, for messages)."""

    system: str
    doc: str
    doc_id: str
    seg_id: int
    rater: str
    category: str
    severity: str
    span: str
    """The target with its ``<v>`` marks, showing where the error is."""
    line: int
    source_span: str = ""
    """The source with its ``<v>`` marks: where an omission or a source error is."""

    @property
    def weight(self) -> float:
        return error_weight(self.category, self.severity)

    @property
    def target_spans(self) -> tuple[tuple[int, int], ...]:
        """Where the error lies in the output (:func:`marked_spans`); none for an omission."""
        return marked_spans(self.span)

    @property
    def source_spans(self) -> tuple[tuple[int, int], ...]:
        """Where the error lies in the source: what an omission left out."""
        return marked_spans(self.source_span)


@dataclass(frozen=True, slots=True)
class MQMData:
    """Everything an MQM error file holds: texts, structure, error rows.

    ``segments`` are the segment ids in ascending order; ``documents`` and
    ``sources`` are indexed by segment id; ``outputs[system][seg_id]`` is the
    system's translation of a segment it was rated on.
    """

    path: str
    segments: tuple[int, ...]
    documents: Mapping[int, str]
    sources: Mapping[int, str]
    outputs: Mapping[str, Mapping[int, str]]
    errors: tuple[MQMError, ...]

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.outputs)

    def segment_scores(self) -> dict[tuple[str, int], float]:
        """Negated MQM score of every rated (system, segment): per-rater sums averaged over raters."""
        per_rater: dict[tuple[str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for error in self.errors:
            per_rater[(error.system, error.seg_id)][error.rater] += error.weight
        return {key: -math.fsum(raters.values()) / len(raters) for key, raters in per_rater.items()}


def _columns(path: str | Path, header: str) -> dict[str, int]:
    names = header.split("\t")
    positions = {name: index for index, name in enumerate(names)}
    missing = [name for name in REQUIRED_COLUMNS if name not in positions]
    if missing:
        raise InputError(path, 1, f"not an MQM error file: header lacks column(s) {', '.join(missing)}")
    unknown = [name for name in names if name not in REQUIRED_COLUMNS + OPTIONAL_COLUMNS]
    if unknown:
        raise InputError(path, 1, f"unknown MQM column(s) {', '.join(unknown)}")
    return positions


def _seg_id(path: str | Path, line: int, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(path, line, f"seg_id {text!r} is not an integer") from None
    if value < 1:
        raise InputError(path, line, f"seg_id {value} is not positive")
    return value


def read_mqm(path: str | Path) -> MQMData:
    """Read an MQM error TSV.

    Raises:
        InputError: ``FILE:LINE: problem`` for a missing header column, a row
            with the wrong number of fields, an empty system or rater, a
            non-integer ``seg_id``, an unknown severity, or rows that disagree
            on a segment's document, source or a system's output.
    """
    lines = read_lines(path)
    if not lines:
        raise InputError(path, None, "the file is empty")
    columns = _columns(path, lines[0])
    width = len(lines[0].split("\t"))
    trailing_comment = columns.get("comment") == width - 1
    documents: dict[int, str] = {}
    doc_seen_at: dict[int, int] = {}
    sources: dict[int, str] = {}
    source_seen_at: dict[int, int] = {}
    outputs: dict[str, dict[int, str]] = {}
    output_seen_at: dict[tuple[str, int], int] = {}
    errors: list[MQMError] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) > width and trailing_comment:
            # A tab inside the free-text comment: it cannot be quoted, so keep it.
            fields = [*fields[: width - 1], "\t".join(fields[width - 1 :])]
        if len(fields) == width - 1 and trailing_comment:
            fields.append("")
        if len(fields) != width:
            raise InputError(path, number, f"expected {width} tab-separated fields, found {len(fields)}")
        row = {name: fields[index] for name, index in columns.items()}
        system, rater = row["system"].strip(), row["rater"].strip()
        if not system:
            raise InputError(path, number, "empty system name")
        if not rater:
            raise InputError(path, number, "empty rater")
        seg = _seg_id(path, number, row["seg_id"].strip())
        category, severity = row["category"].strip(), row["severity"].strip()
        try:
            error_weight(category, severity)
        except ValueError as error:
            raise InputError(path, number, str(error)) from None
        doc = row["doc"].strip()
        if documents.setdefault(seg, doc) != doc:
            raise InputError(
                path, number,
                f"segment {seg} is in document {doc!r} here but {documents[seg]!r} on line {doc_seen_at[seg]}",
            )
        doc_seen_at.setdefault(seg, number)
        source = strip_marks(row["source"])
        if sources.setdefault(seg, source) != source:
            raise InputError(path, number, f"segment {seg} has a different source than on line {source_seen_at[seg]}")
        source_seen_at.setdefault(seg, number)
        target = strip_marks(row["target"])
        system_outputs = outputs.setdefault(system, {})
        if system_outputs.setdefault(seg, target) != target:
            raise InputError(
                path, number,
                f"system {system!r} segment {seg} has a different output than on line {output_seen_at[(system, seg)]}",
            )
        output_seen_at.setdefault((system, seg), number)
        errors.append(
            MQMError(
                system=system, doc=doc, doc_id=row["doc_id"].strip(), seg_id=seg, rater=rater,
                category=category, severity=severity, span=row["target"], line=number,
                source_span=row["source"],
            )
        )
    if not errors:
        raise InputError(path, None, "no MQM rows after the header")
    return MQMData(
        path=str(path),
        segments=tuple(sorted(documents)),
        documents=documents,
        sources=sources,
        outputs=outputs,
        errors=tuple(errors),
    )


def read_avg_seg_scores(
    path: str | Path, systems: Collection[str] | None = None
) -> dict[tuple[str, int], float | None]:
    """Read an average-segment-score file: ``(system, seg_id) → score`` (``None`` = not rated).

    System names go through :data:`SCORE_FILE_SYSTEM_NAMES`, so keys use the
    error file's names. With ``systems`` (the error file's systems) every
    name must be one of them.

    Raises:
        InputError: ``FILE:LINE: problem`` for a line without exactly three
            fields, a score that is neither a number nor ``None``, a bad
            ``seg_id``, a system not in ``systems``, or a repeated pair.
    """
    scores: dict[tuple[str, int], float | None] = {}
    seen_at: dict[tuple[str, int], int] = {}
    for number, line in enumerate(read_lines(path), start=1):
        fields = line.split()
        if not fields:
            continue
        if number == 1 and tuple(fields) == SCORE_FILE_HEADER:
            continue
        if len(fields) != 3:
            raise InputError(path, number, f"expected 'system score seg_id', found {len(fields)} fields")
        name, value, seg_text = fields
        system = SCORE_FILE_SYSTEM_NAMES.get(name, name)
        if systems is not None and system not in systems:
            shown = name if system == name else f"{name} (= {system})"
            raise InputError(path, number, f"system {shown} does not occur in the MQM error file")
        seg = _seg_id(path, number, seg_text)
        if value == "None":
            score: float | None = None
        else:
            try:
                score = float(value)
            except ValueError:
                raise InputError(path, number, f"score {value!r} is neither a number nor None") from None
            if not math.isfinite(score):
                raise InputError(path, number, f"score {value!r} is not finite")
        key = (system, seg)
        if key in scores:
            raise InputError(path, number, f"system {name} segment {seg} already scored on line {seen_at[key]}")
        scores[key] = score
        seen_at[key] = number
    if not scores:
        raise InputError(path, None, "no scores in the file")
    return scores
