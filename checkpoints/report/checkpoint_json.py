"""The JSON objects of ``evaluate`` and ``compare``: the shapes fixed by the architecture document.

They are what ``--format json`` prints and what each stored run keeps as its
report, so a stored run and a printed one never differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from checkpoints.evaluate.matching import order_label
from checkpoints.report.comparison_summary import summary_sentences

if TYPE_CHECKING:
    from checkpoints.evaluate.comparison import Comparison
    from checkpoints.evaluate.evaluation import Evaluation
    from checkpoints.signature import Signature


def evaluation_json(evaluation: Evaluation) -> dict[str, Any]:
    """The ``evaluate --format json`` object, made once per evaluation (the stored run keeps it,
    the command prints the same one)."""
    if evaluation.document is None:
        evaluation.document = _evaluation_document(evaluation)
    return evaluation.document


def _evaluation_document(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "suite": evaluation.suite.name,
        "match": evaluation.scorer.match.value,
        "tokenize": evaluation.scorer.tokenize,
        "max_order": order_label(evaluation.scorer.max_order),
        "bleu_tokenize": evaluation.scorer.bleu_tokenize,
        "systems": {name: report.to_json() for name, report in evaluation.reports.items()},
        "bleu": dict(evaluation.bleu),
        "signature": evaluation.signature.format(),
    }


def comparison_json(comparison: Comparison, evaluation: Evaluation) -> dict[str, Any]:
    """The ``compare --format json`` object: the comparison, the systems' BLEU and one signature."""
    report = comparison.to_json()
    report["suite"] = evaluation.suite.name
    report["match"] = evaluation.scorer.match.value
    report["tokenize"] = evaluation.scorer.tokenize
    report["max_order"] = order_label(evaluation.scorer.max_order)
    report["bleu"] = dict(evaluation.bleu)
    report["runs"] = dict(evaluation.run_ids)
    report["signature"] = comparison_signature(comparison, evaluation).format()
    report["summary"] = summary_sentences(report)
    return report


def comparison_signature(comparison: Comparison, evaluation: Evaluation) -> Signature:
    """The run's signature plus what decided significance; tables, CSV and JSON all print this one."""
    return evaluation.signature.with_fields(comparison.significance_fields())
