"""Asiya's text score reports: ``mmatrix``, ``smatrix`` and the NIST (Metrics MaTr) score layout.

* ``mmatrix`` (Asiya's default): one row per system (``sys``), per system
  and document (``doc``) or per system, document and segment (``seg``); one
  column per metric, in the order requested.
* ``smatrix``: one row per metric (and document, and segment); one column per
  system.
* ``nist``: the score-file layout of the NIST Metrics MaTr evaluation plan,
  tab-separated, one score per line::

      <METRIC> <TEST SET> <SYSTEM> <SCORE>                          (sys)
      <METRIC> <TEST SET> <SYSTEM> <DOC ID> <SCORE>                 (doc)
      <METRIC> <TEST SET> <SYSTEM> <DOC ID> <SEGMENT ID> <SCORE>    (seg)

  The plan puts each level in its own file; with ``-g all`` the three blocks
  follow each other, and the number of fields tells the level.

In these three formats, lines starting with ``#`` are not scores: they hold
the header, the signatures and the significance table (the convention Asiya
uses for comments in its assessment files). Numbers use Asiya's ``%10.8f``.
"""

from __future__ import annotations

from collections.abc import Sequence

from checkpoints.evaluate.metric_runner import MetricReport, SignificanceReport
from checkpoints.evaluate.metrics.base import Granularity
from checkpoints.report.formats import asiya_number


def _rows(report: MetricReport, granularity: Granularity, system: str) -> list[tuple[tuple[str, ...], dict[str, float]]]:
    """Row labels and metric → score for one system at one granularity."""
    scores = report.scores[system]
    if granularity is Granularity.SYS:
        return [((system,), {metric: scores[metric].system for metric in report.metrics})]
    if granularity is Granularity.DOC:
        return [
            ((system, doc), {metric: scores[metric].documents[doc] for metric in report.metrics})
            for doc in report.documents
        ]
    return [
        ((system, doc, seg), {metric: scores[metric].segments[index] for metric in report.metrics})
        for index, (doc, seg) in enumerate(zip(report.doc_ids, report.seg_ids, strict=True))
    ]


_LABELS = {
    Granularity.SYS: ("SYSTEM",),
    Granularity.DOC: ("SYSTEM", "DOCUMENT"),
    Granularity.SEG: ("SYSTEM", "DOCUMENT", "SEGMENT"),
}


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], label_columns: int) -> str:
    """Labels left-aligned, numbers right-aligned, columns two spaces apart."""
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    lines = []
    for row in (header, *rows):
        cells = [
            cell.ljust(widths[i]) if i < label_columns else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def _title(report: MetricReport, granularity: Granularity) -> str:
    return (
        f"# {granularity.value}-level scores; test set {report.test_set}: {_count(report.n_segments, 'segment')} in "
        f"{_count(len(report.documents), 'document')}; references: {', '.join(report.references)}\n"
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def render_mmatrix(report: MetricReport, granularity: Granularity) -> str:
    """Asiya's ``-o mmatrix``: one row per system (document, segment), one column per metric."""
    labels = _LABELS[granularity]
    rows = [
        [*label, *(asiya_number(values[metric]) for metric in report.metrics)]
        for system in report.systems
        for label, values in _rows(report, granularity, system)
    ]
    return _title(report, granularity) + _table([*labels, *report.metrics], rows, len(labels))


def render_smatrix(report: MetricReport, granularity: Granularity) -> str:
    """Asiya's ``-o smatrix``: one row per metric (document, segment), one column per system."""
    labels = ("METRIC", *_LABELS[granularity][1:])
    per_system = {system: _rows(report, granularity, system) for system in report.systems}
    first = per_system[report.systems[0]]
    rows = []
    for metric in report.metrics:
        for index, (label, _) in enumerate(first):
            rows.append([metric, *label[1:], *(asiya_number(per_system[s][index][1][metric]) for s in report.systems)])
    return _title(report, granularity) + _table([*labels, *report.systems], rows, len(labels))


def render_nist(report: MetricReport, granularity: Granularity) -> str:
    """Metrics MaTr score lines (tab-separated) for one granularity."""
    lines = []
    for metric in report.metrics:
        for system in report.systems:
            for label, values in _rows(report, granularity, system):
                lines.append("\t".join((metric, report.test_set, *label, asiya_number(values[metric]))))
    return "\n".join(lines) + "\n"


def comment_block(report: MetricReport) -> str:
    """Signatures and significance as ``#`` lines after the scores."""
    lines = ["", "# signatures"]
    width = max(len(metric) for metric in report.metrics)
    lines.extend(f"#   {metric.ljust(width)}  {report.signatures[metric]}" for metric in report.metrics)
    if report.skipped:
        lines.append("# skipped")
        lines.extend(f"#   {metric}  {' '.join(reason.split())}" for metric, reason in report.skipped.items())
    if report.significance is not None:
        lines.append("")
        lines.extend("# " + line if line else "#" for line in render_significance_table(report.significance).splitlines())
    return "\n".join(lines) + "\n"


def describe_significance(significance: SignificanceReport) -> str:
    """One sentence saying how the p-values and flags were obtained."""
    request = significance.request
    method = (
        "paired bootstrap resampling"
        if request.spec.method.value == "bootstrap"
        else "approximate randomization"
    )
    correction = {
        "holm": "Holm's correction",
        "bh": "Benjamini-Hochberg correction",
        "none": "no correction",
    }[request.correction.value]
    confidence = round((1 - request.alpha) * 100, 6)
    return (
        f"{method}, {request.spec.samples} samples, seed {request.spec.seed}; "
        f"{confidence:g}% intervals of the difference; {correction} over the comparisons of each metric; "
        f"significant when the adjusted p-value <= {request.alpha:g}"
    )


def render_significance_table(significance: SignificanceReport) -> str:
    header = ["METRIC", "BASELINE", "SYSTEM", "BASELINE_SCORE", "SCORE", "DIFFERENCE", "CI_LOW", "CI_HIGH", "P", "P_ADJ", "SIG"]
    rows = []
    for comparison in significance.comparisons:
        outcome = comparison.outcome
        rows.append(
            [
                comparison.metric,
                comparison.baseline,
                comparison.system,
                asiya_number(outcome.score_a),
                asiya_number(outcome.score_b),
                asiya_number(outcome.difference),
                asiya_number(outcome.interval[0]),
                asiya_number(outcome.interval[1]),
                f"{outcome.p_value:.4f}",
                f"{comparison.p_adjusted:.4f}",
                "yes" if comparison.significant else "no",
            ]
        )
    text = _table(header, rows, 3)
    return f"significance: {describe_significance(significance)}\nsignature: {significance.signature()}\n{text}"
