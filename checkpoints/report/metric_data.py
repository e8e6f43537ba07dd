"""Machine-readable metric reports: JSON and CSV, at full precision.

* ``json``: ``{"granularity": "sys", "metrics": [...], "scores": {SYS:
  {METRIC: score}}, "signature": {METRIC: ...}, "significance": {...}}``
  (segment scores as lists in input order, document scores as a mapping doc
  id → score); ``-g all`` gives a list of the three objects.
* ``csv``: long format with fixed columns :data:`CSV_COLUMNS`: one row per
  metric with its signature (``level`` = ``signature``), one per score
  (``level`` = sys, doc or seg), one per comparison (``level`` =
  ``significance``).

Scores keep full precision (so that they can be compared with other tools to
1e-9); only a negative zero is written as zero.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence

from checkpoints.evaluate.metric_runner import MetricComparison, MetricReport, SignificanceReport
from checkpoints.evaluate.metrics.base import Granularity

JSON_SCHEMA_VERSION = 1

CSV_COLUMNS = (
    "level",
    "system",
    "document",
    "segment",
    "metric",
    "score",
    "baseline",
    "baseline_score",
    "difference",
    "ci_low",
    "ci_high",
    "t",
    "p_value",
    "p_adjusted",
    "significant",
    "signature",
)


def report_object(report: MetricReport, granularity: Granularity) -> dict:
    """The JSON object for one granularity (see the module docstring)."""
    scores: dict[str, dict] = {}
    for system in report.systems:
        per_metric: dict[str, object] = {}
        for metric in report.metrics:
            metric_scores = report.scores[system][metric]
            if granularity is Granularity.SYS:
                per_metric[metric] = _json_number(metric_scores.system)
            elif granularity is Granularity.DOC:
                per_metric[metric] = {doc: _json_number(score) for doc, score in metric_scores.documents.items()}
            else:
                per_metric[metric] = [_json_number(score) for score in metric_scores.segments]
        scores[system] = per_metric
    result: dict[str, object] = {
        "schema_version": JSON_SCHEMA_VERSION,
        "granularity": granularity.value,
        "test_set": report.test_set,
        "references": list(report.references),
        "metrics": list(report.metrics),
        "aggregation": {metric: report.aggregations[metric] for metric in report.metrics},
        "scores": scores,
    }
    if granularity is Granularity.SEG:
        result["segments"] = [{"doc": doc, "seg": seg} for doc, seg in zip(report.doc_ids, report.seg_ids, strict=True)]
    result["signature"] = {metric: report.signatures[metric] for metric in report.metrics}
    if report.skipped:
        result["skipped"] = dict(report.skipped)
    if report.significance is not None:
        result["significance"] = significance_object(report.significance)
    return result


def _json_number(value: float) -> float | None:
    """JSON has no NaN or infinity: an undefined score (0/0) is ``null``; −0.0 is 0.0."""
    return value + 0.0 if math.isfinite(value) else None


def _csv_number(value: float) -> str:
    """Full precision (``repr``), −0.0 written as 0.0."""
    return repr(value + 0.0)


def significance_object(significance: SignificanceReport) -> dict:
    request = significance.request
    return {
        "baseline": request.baseline,
        "all_pairs": request.all_pairs,
        "method": request.spec.method.value,
        "samples": request.spec.samples,
        "seed": request.spec.seed,
        "alpha": request.alpha,
        "correction": request.correction.value,
        "correction_family": "the comparisons of each metric",
        "signature": significance.signature(),
        "comparisons": [_comparison_object(comparison) for comparison in significance.comparisons],
    }


def _comparison_object(comparison: MetricComparison) -> dict:
    outcome = comparison.outcome
    return {
        "metric": comparison.metric,
        "baseline": comparison.baseline,
        "system": comparison.system,
        "score": _json_number(outcome.score_b),
        "baseline_score": _json_number(outcome.score_a),
        "difference": _json_number(outcome.difference),
        "interval": [_json_number(outcome.interval[0]), _json_number(outcome.interval[1])],
        "t": _json_number(outcome.t),
        "p_value": outcome.p_value,
        "p_adjusted": comparison.p_adjusted,
        "significant": comparison.significant,
    }


def render_json(report: MetricReport, granularities: Sequence[Granularity]) -> str:
    objects = [report_object(report, granularity) for granularity in granularities]
    payload = objects[0] if len(objects) == 1 else objects
    return json.dumps(payload, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


# ---------------------------------------------------------------------------
# CSV


def render_csv(report: MetricReport, granularities: Sequence[Granularity]) -> str:
    """Long format (columns :data:`CSV_COLUMNS`): one ``signature`` row per metric, one row per
    score (``level`` sys, doc or seg), then one ``significance`` row per comparison."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for metric in report.metrics:
        writer.writerow({"level": "signature", "metric": metric, "signature": report.signatures[metric]})
    for granularity in granularities:
        for system in report.systems:
            for metric in report.metrics:
                metric_scores = report.scores[system][metric]
                base = {"level": granularity.value, "system": system, "metric": metric}
                if granularity is Granularity.SYS:
                    writer.writerow({**base, "score": _csv_number(metric_scores.system)})
                elif granularity is Granularity.DOC:
                    for doc, score in metric_scores.documents.items():
                        writer.writerow({**base, "document": doc, "score": _csv_number(score)})
                else:
                    for doc, seg, score in zip(report.doc_ids, report.seg_ids, metric_scores.segments, strict=True):
                        writer.writerow({**base, "document": doc, "segment": seg, "score": _csv_number(score)})
    if report.significance is not None:
        for comparison in report.significance.comparisons:
            outcome = comparison.outcome
            writer.writerow(
                {
                    "level": "significance",
                    "system": comparison.system,
                    "metric": comparison.metric,
                    "score": _csv_number(outcome.score_b),
                    "baseline": comparison.baseline,
                    "baseline_score": _csv_number(outcome.score_a),
                    "difference": _csv_number(outcome.difference),
                    "ci_low": _csv_number(outcome.interval[0]),
                    "ci_high": _csv_number(outcome.interval[1]),
                    "t": _csv_number(outcome.t),
                    "p_value": _csv_number(outcome.p_value),
                    "p_adjusted": _csv_number(comparison.p_adjusted),
                    "significant": "yes" if comparison.significant else "no",
                    "signature": report.signatures[comparison.metric],
                }
            )
    return buffer.getvalue()

