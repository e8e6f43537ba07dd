"""Writers for metric reports: Asiya's mmatrix, smatrix and NIST formats, Asiya XML, JSON, CSV.

Every format carries each metric's sacreBLEU-style signature and, when a
significance test was run, its results. Each kind of output has its module:

* :mod:`checkpoints.report.metric_text` — ``mmatrix``, ``smatrix``, ``nist``
  (Asiya's ``%10.8f`` numbers, ``#`` comment lines for signatures and
  significance);
* :mod:`checkpoints.report.asiya_xml` — ``asiya-xml`` (written and read);
* :mod:`checkpoints.report.metric_data` — ``json`` and ``csv`` at full
  precision.

:func:`render` picks the writer for a format; the names below are
re-exported so that callers need one import.
"""

from __future__ import annotations

from collections.abc import Sequence

from checkpoints.errors import UsageError
from checkpoints.evaluate.metric_runner import MetricReport
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.report.asiya_xml import (
    AsiyaDocument,
    AsiyaScoreSet,
    asiya_sets,
    read_asiya_xml,
    render_asiya_xml,
    write_asiya_set,
)
from checkpoints.report.formats import FLOAT_FORMAT, METRIC_FORMATS, OutputFormat
from checkpoints.report.metric_data import (
    CSV_COLUMNS,
    JSON_SCHEMA_VERSION,
    render_csv,
    render_json,
    report_object,
)
from checkpoints.report.metric_text import (
    comment_block,
    describe_significance,
    render_mmatrix,
    render_nist,
    render_significance_table,
    render_smatrix,
)

__all__ = [
    "CSV_COLUMNS",
    "FLOAT_FORMAT",
    "JSON_SCHEMA_VERSION",
    "METRIC_FORMATS",
    "AsiyaDocument",
    "AsiyaScoreSet",
    "OutputFormat",
    "asiya_sets",
    "describe_significance",
    "read_asiya_xml",
    "render",
    "render_asiya_xml",
    "render_csv",
    "render_json",
    "render_mmatrix",
    "render_nist",
    "render_significance_table",
    "render_smatrix",
    "report_object",
    "write_asiya_set",
]


def render(report: MetricReport, output_format: OutputFormat, granularities: Sequence[Granularity]) -> str:
    """The whole report as text in ``output_format``, for the given granularities in order."""
    if not granularities:
        raise UsageError("no granularity requested")
    if output_format is OutputFormat.JSON:
        return render_json(report, granularities)
    if output_format is OutputFormat.CSV:
        return render_csv(report, granularities)
    if output_format is OutputFormat.ASIYA_XML:
        return render_asiya_xml(report)
    if output_format is OutputFormat.NIST:
        body = "".join(render_nist(report, granularity) for granularity in granularities)
    elif output_format in (OutputFormat.MMATRIX, OutputFormat.SMATRIX):
        renderer = render_mmatrix if output_format is OutputFormat.MMATRIX else render_smatrix
        body = "\n".join(renderer(report, granularity) for granularity in granularities)
    else:
        raise UsageError(f"format {output_format.value!r} is not a metric report format")
    return body + comment_block(report)
