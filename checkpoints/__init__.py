"""checkpoints: diagnostic evaluation of machine translation with linguistic check-points.

The public API is the service layer, re-exported here::

    import checkpoints

    result = checkpoints.build_suite(checkpoints.BuildRequest(...))
    checkpoints.store_new_suite("pud.db", result.suite)
    evaluation = checkpoints.evaluate_systems("pud.db", [("mt", "out.es")])
    comparison = checkpoints.compare_systems("pud.db", ["base", ("new", "new.es")], baseline="base")

The import stays light on purpose: each name is imported on first use, so the
command line and ``import checkpoints`` do not load stanza, torch, scipy or
SQLAlchemy until a workflow needs them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

_EXPORTS = {
    "BuildRequest": "checkpoints.service.build",
    "BuildResult": "checkpoints.service.build",
    "build_suite": "checkpoints.service.build",
    "align_pairs": "checkpoints.service.build",
    "store_new_suite": "checkpoints.service.store",
    "import_suite": "checkpoints.service.interchange",
    "export_suite": "checkpoints.service.interchange",
    "ImportedSuite": "checkpoints.service.interchange",
    "ExportedSuite": "checkpoints.service.interchange",
    "load_stored_suite": "checkpoints.service.store",
    "Evaluation": "checkpoints.service.evaluate",
    "evaluate_systems": "checkpoints.service.evaluate",
    "stored_evaluation": "checkpoints.service.evaluate",
    "ComparisonResult": "checkpoints.service.compare",
    "compare_systems": "checkpoints.service.compare",
    "Drilldown": "checkpoints.service.show",
    "show_checkpoints": "checkpoints.service.show",
    "DemoResult": "checkpoints.service.demo",
    "run_demo": "checkpoints.service.demo",
    "MetricsRequest": "checkpoints.service.metrics",
    "score_metrics": "checkpoints.service.metrics",
    "MetaRequest": "checkpoints.service.meta",
    "MQMJudgments": "checkpoints.service.meta",
    "AssessmentJudgments": "checkpoints.service.meta",
    "meta_evaluate": "checkpoints.service.meta",
    "QarlaRequest": "checkpoints.service.qarla",
    "QarlaResult": "checkpoints.service.qarla",
    "qarla_evaluate": "checkpoints.service.qarla",
    "Signature": "checkpoints.signature",
    "CheckpointsError": "checkpoints.errors",
}

__all__ = [
    "AssessmentJudgments",
    "BuildRequest",
    "BuildResult",
    "CheckpointsError",
    "ComparisonResult",
    "DemoResult",
    "Drilldown",
    "Evaluation",
    "ExportedSuite",
    "ImportedSuite",
    "MQMJudgments",
    "MetaRequest",
    "MetricsRequest",
    "QarlaRequest",
    "QarlaResult",
    "Signature",
    "__version__",
    "align_pairs",
    "build_suite",
    "compare_systems",
    "evaluate_systems",
    "export_suite",
    "import_suite",
    "load_stored_suite",
    "meta_evaluate",
    "qarla_evaluate",
    "run_demo",
    "score_metrics",
    "show_checkpoints",
    "store_new_suite",
    "stored_evaluation",
]

if TYPE_CHECKING:
    from checkpoints.errors import CheckpointsError
    from checkpoints.service.build import BuildRequest, BuildResult, align_pairs, build_suite
    from checkpoints.service.compare import ComparisonResult, compare_systems
    from checkpoints.service.demo import DemoResult, run_demo
    from checkpoints.service.evaluate import Evaluation, evaluate_systems, stored_evaluation
    from checkpoints.service.interchange import (
        ExportedSuite,
        ImportedSuite,
        export_suite,
        import_suite,
    )
    from checkpoints.service.meta import (
        AssessmentJudgments,
        MetaRequest,
        MQMJudgments,
        meta_evaluate,
    )
    from checkpoints.service.metrics import MetricsRequest, score_metrics
    from checkpoints.service.qarla import QarlaRequest, QarlaResult, qarla_evaluate
    from checkpoints.service.show import Drilldown, show_checkpoints
    from checkpoints.service.store import store_new_suite
    from checkpoints.signature import Signature


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'checkpoints' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
