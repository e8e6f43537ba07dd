"""What report writers share: the names of the formats, Asiya's number format, the signature line.

One enum names every format (:class:`OutputFormat`); each command accepts
its own subset (:data:`METRIC_FORMATS`, :data:`META_FORMATS`), validated by
the command line with one-line usage errors.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

from rich.text import Text

from checkpoints.signature import Signature

FLOAT_FORMAT = "{:10.8f}"
"""Asiya's ``-float_length 10 -float_precision 8``."""


class OutputFormat(StrEnum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"
    MMATRIX = "mmatrix"
    SMATRIX = "smatrix"
    NIST = "nist"
    ASIYA_XML = "asiya-xml"


METRIC_FORMATS = (
    OutputFormat.MMATRIX,
    OutputFormat.SMATRIX,
    OutputFormat.NIST,
    OutputFormat.ASIYA_XML,
    OutputFormat.JSON,
    OutputFormat.CSV,
)
"""``checkpoints metrics --format``, Asiya's default (``mmatrix``) first."""

META_FORMATS = (OutputFormat.TABLE, OutputFormat.JSON)
"""``checkpoints meta --format``."""


def asiya_number(value: float) -> str:
    """A score as Asiya prints it (``%10.8f``, without the padding).

    A value that rounds to zero prints as ``0.00000000`` whatever its sign:
    a negated error rate of a perfect output is −0.0, and ``-0.00000000``
    would read as a score below zero.
    """
    text = FLOAT_FORMAT.format(value).strip()
    if text.startswith("-") and not text.strip("-0."):
        return text[1:]
    return text


def signature_line(signature: Signature | str) -> Text:
    """A signature on a line of its own, never wrapped: it is copied and compared as one token."""
    text = signature.format() if isinstance(signature, Signature) else signature
    return Text(f"signature: {text}", no_wrap=True, overflow="ignore", end="\n")


def json_text(document: Any) -> str:
    """A ``--format json`` document as every command prints it: UTF-8 characters as they are,
    two-space indents, one trailing newline (dates and paths as strings)."""
    return json.dumps(document, ensure_ascii=False, indent=2, default=str) + "\n"
