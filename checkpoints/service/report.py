"""``checkpoints report``: the stored evaluation and comparison of a suite as one HTML file.

Reads, never re-scores: the systems' latest evaluation runs
(:func:`~checkpoints.service.evaluate.stored_evaluation`), the latest stored
comparison of exactly those runs (or, when none is stored, one computed by
the function ``compare`` uses, with ``compare``'s defaults, and not stored:
a report only reads, so it also works on a read-only database), each
check-point as ``show`` describes it, the ``metrics``/``meta`` JSON files, and
the JSON of ``checkpoints attribute`` (which must be of the report's suite).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkpoints.errors import InputError, UsageError
from checkpoints.evaluate.defaults import DEFAULT_CORRECTION, DEFAULT_MIN_CHECKPOINTS
from checkpoints.gcpause import bulk_work
from checkpoints.io.files import check_writable, write_atomic
from checkpoints.report.comparison_summary import summary_sentences
from checkpoints.report.html.reproduce import reproduce_commands
from checkpoints.service.store import Store, engine_for


@dataclass(frozen=True, slots=True)
class ReportRequest:
    """What ``checkpoints report`` was asked for."""

    store: Store
    output: Path
    systems: Sequence[str] = ()
    """Systems to report (every evaluated system when empty); those in ``evaluate`` among them."""
    evaluate: Sequence[tuple[str, Path]] = ()
    """Systems given as NAME=FILE: evaluated (with ``evaluate``'s defaults) before the report is made."""
    """Systems to report (default: every evaluated system of the suite)."""
    baseline: str | None = None
    """The system differences and the heat map are relative to (default: the comparison's, else the first)."""
    metrics: Path | None = None
    meta: Path | None = None
    suite: str | None = None
    attribution: Path | None = None
    """JSON written by ``checkpoints attribute --format json`` for the same suite (None: no attribution section)."""
    gate: Path | None = None
    """JSON written by ``checkpoints gate --format json`` for the same suite (None: no gate section)."""
    challenge: Path | None = None
    """JSON written by ``checkpoints challenge --score --format json`` for the same suite (None: no section)."""


@dataclass(slots=True)
class ReportResult:
    output: Path
    size: int
    """Bytes written."""
    comparison_run: int | None
    """The stored comparison run the report shows; None when it was computed for the report."""
    warnings: list[str] = field(default_factory=list)


@bulk_work  # every check-point described per system: a hundred thousand objects, kept to the end
def write_report(request: ReportRequest) -> ReportResult:
    """Build the report of ``request`` and write it atomically to ``request.output``."""
    from checkpoints.report.html.page import render_page

    check_writable(request.output)
    if request.evaluate:  # NAME=FILE systems: evaluated first, as `compare` does, in one run
        from checkpoints.service.evaluate import evaluate_systems

        evaluate_systems(request.store, list(request.evaluate), suite_name=request.suite)
    model, run_id = report_model(request)
    page = render_page(model)
    write_atomic(request.output, page)
    return ReportResult(request.output, len(page.encode("utf-8")), run_id, list(model["warnings"]))


def report_model(request: ReportRequest) -> tuple[dict[str, Any], int | None]:
    """The page's data model, and the id of the stored comparison run it shows (None: computed now)."""
    from checkpoints.db.repo import find_suite
    from checkpoints.db.runs import evaluated_systems, latest_results
    from checkpoints.db.session import transaction
    from checkpoints.report.html.inputs import (
        read_challenge_json,
        read_gate_json,
        read_meta_json,
        read_metrics_json,
    )
    from checkpoints.service.evaluate import stored_evaluation

    metrics = read_metrics_json(request.metrics) if request.metrics is not None else None
    meta = read_meta_json(request.meta) if request.meta is not None else None
    attribution = read_attribution_json(request.attribution) if request.attribution is not None else None
    gate = read_gate_json(request.gate) if request.gate is not None else None
    challenge = read_challenge_json(request.challenge) if request.challenge is not None else None
    with engine_for(request.store) as engine:
        with transaction(engine) as session:
            suite = find_suite(session, request.suite)
            suite_name = suite.name
            names = list(request.systems) or evaluated_systems(session, suite.id)
        for path, data, what in ((request.attribution, attribution, "an attribution"), (request.gate, gate, "a gate"),
                                 (request.challenge, challenge, "a challenge set")):
            if data is not None and data["suite"] != suite_name:
                raise InputError(str(path), None,
                                 f"{what} of suite {data['suite']!r}, not of the report's suite {suite_name!r}")
        if request.baseline is not None and request.baseline not in names:
            names.insert(0, request.baseline)
        if len(set(names)) != len(names):
            raise UsageError("a system is named twice")
        if len(names) < 2:
            with transaction(engine) as session:
                evaluated = evaluated_systems(session, find_suite(session, suite_name).id)
            listing = ", ".join(evaluated) or "none"
            if request.systems:
                raise UsageError(f"a report compares at least two systems, and --system names only {', '.join(names)} "
                                 f"(evaluated in suite {suite_name!r}: {listing})")
            raise UsageError(f"a report compares at least two systems, and suite {suite_name!r} has {len(evaluated)} "
                             f"evaluated ({listing}): evaluate more with `checkpoints evaluate`, or give --system NAME=FILE")
        evaluation = stored_evaluation(engine, names, suite_name=suite_name)
        report, options, run_id, warning = _comparison(engine, evaluation, request.baseline)
        with transaction(engine) as session:
            suite_id = find_suite(session, evaluation.suite.name).id
            results = {
                name: latest_results(session, suite_id, name, evaluation.run_ids[name]) for name in names
            }
    model = _assemble(evaluation, report, options, results, request)
    model["metrics"], model["meta"] = metrics, meta
    if attribution is not None:
        model["attribution"] = attribution
    if gate is not None:
        model["gate"] = gate
    if challenge is not None:
        model["challenge"] = challenge
    model["comparisonRun"] = run_id
    if warning:
        model["warnings"].append(warning)
    return model, run_id


def read_attribution_json(path: Path) -> dict[str, Any]:
    """The JSON of ``checkpoints attribute --format json``, checked to have what the report shows:
    a wrong file is one line, ``FILE: problem``, not a broken page."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(path, None, f"cannot read the attribution JSON ({getattr(error, 'strerror', None) or error})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(path, None, f"not an attribution JSON ({error.msg} at line {error.lineno})") from None
    problem = _attribution_problem(data)
    if problem:
        raise InputError(path, None, f"not an attribution JSON ({problem}); write one with `checkpoints attribute --format json`")
    return data


def _attribution_problem(data: Any) -> str | None:
    """What the report needs and ``data`` lacks, or None."""
    if not isinstance(data, dict):
        return f"a JSON {type(data).__name__}, not an object"
    if not isinstance(data.get("suite"), str):
        return 'no "suite" name'
    if not isinstance(data.get("systems"), list) or not isinstance(data.get("words_in_errors"), int | float):
        return 'no "systems" list or "words_in_errors" share'
    for key in ("validity", "examples"):
        if not isinstance(data.get(key), list) or not all(isinstance(item, dict) for item in data[key]):
            return f'"{key}" must be a list of objects'
    if not all(isinstance(row.get("category"), str) and isinstance(row.get("warnings", []), list)
               and isinstance(row.get("lift_interval", []), list) for row in data["validity"]):
        return 'a "validity" row without its "category"'
    for example in data["examples"]:
        if not isinstance(example.get("output"), str) or not _ranges(example.get("linked")) or not (
            isinstance(example.get("errors"), list)
            and all(isinstance(error, dict) and _ranges(error.get("target")) for error in example["errors"])
        ):
            return 'an example without its "output" text, "linked" ranges or "errors"'
    return None


def _ranges(value: Any) -> bool:
    """A list of [start, end] character ranges."""
    return isinstance(value, list) and all(
        isinstance(span, list) and len(span) == 2 and all(isinstance(i, int) and not isinstance(i, bool) for i in span)
        for span in value
    )


def _comparison(engine: Any, evaluation: Any, baseline: str | None) -> tuple[dict[str, Any], dict[str, Any], int | None, str | None]:
    """The latest stored comparison of exactly these evaluation runs, else one computed with
    ``compare``'s defaults (not stored)."""
    from checkpoints.db.repo import find_suite
    from checkpoints.db.runs import comparison_runs
    from checkpoints.db.session import transaction
    from checkpoints.evaluate.resample import ResampleSpec
    from checkpoints.report.checkpoint_json import comparison_json
    from checkpoints.service.compare import compare_evaluation, resolution_warning

    with transaction(engine) as session:
        rows = comparison_runs(session, find_suite(session, evaluation.suite.name).id)
    wanted_runs = {name: int(run) for name, run in evaluation.run_ids.items()}
    for run_id, options, report in rows:
        if (
            set(options.get("systems", ())) == set(wanted_runs)
            and {k: int(v) for k, v in options.get("runs", {}).items()} == wanted_runs
            and (baseline is None or options.get("baseline") == baseline)
        ):
            return report, options, run_id, report.get("warning")
    spec = ResampleSpec()
    comparison = compare_evaluation(evaluation, spec=spec, correction=DEFAULT_CORRECTION, baseline=baseline,
                                    min_checkpoints=DEFAULT_MIN_CHECKPOINTS)
    report = comparison_json(comparison, evaluation)
    options = {"method": spec.method.value, "samples": spec.samples, "seed": spec.seed, "correction": DEFAULT_CORRECTION,
               "alpha": comparison.alpha, "min_checkpoints": comparison.min_checkpoints, "baseline": baseline}
    return report, options, None, resolution_warning(comparison)


def _assemble(evaluation: Any, report: dict[str, Any], options: dict[str, Any], results: dict[str, Any],
              request: ReportRequest) -> dict[str, Any]:
    from checkpoints.evaluate.resample import Method, ResampleSpec
    from checkpoints.evaluate.scopes import ScopeKind
    from checkpoints.report.checkpoint_json import evaluation_json
    from checkpoints.report.html.page_model import (
        compact_checkpoint,
        pair_pieces,
        scope_rows,
        system_intervals,
    )
    from checkpoints.service.show import describe
    from checkpoints.workers import in_background

    systems = list(report["systems"])
    reference = report.get("baseline") or request.baseline or systems[0]
    spec = ResampleSpec(Method(options["method"]), int(options["samples"]), int(options["seed"]))
    intervals = system_intervals(evaluation, spec, float(report["alpha"]))
    suite = evaluation.suite
    scopes = evaluation.scorer.scopes
    categories = [s.name for s in scopes if s.kind is ScopeKind.CATEGORY]
    levels = {name: suite.category(name).level.value for name in categories}
    index_of_pair = {pair.id: i for i, pair in enumerate(suite.pairs)}
    ordered = {name: results[name] for name in systems}
    checkpoints: dict[str, list[Any]] = {name: [] for name in categories}
    shown = [checkpoint for checkpoint in suite.checkpoints if checkpoint.category in checkpoints]

    def described(part: list[Any]) -> list[Any]:
        return [
            compact_checkpoint(
                describe(suite, checkpoint, ordered, index_of_pair[checkpoint.pair_id]),
                index_of_pair[checkpoint.pair_id], systems,
            )
            for checkpoint in part
        ]

    # every check-point explained against every system: half of them on a second CPU meanwhile
    half = len(shown) // 2
    with in_background(lambda: described(shown[half:])) as second_half:
        items = described(shown[:half])
        items += second_half.result()
    for checkpoint, item in zip(shown, items, strict=True):
        checkpoints[checkpoint.category].append(item)
    summary = evaluation_json(evaluation)
    return {
        "suite": suite.name,
        "languages": [suite.source_lang, suite.target_lang],
        "systems": systems,
        "reference": reference,
        "signature": report["signature"],
        "summary": report.get("summary") or summary_sentences(report),  # runs stored before it was kept
        "evaluationSignature": summary["signature"],
        "settings": {key: report.get(key) for key in ("method", "samples", "seed", "correction", "alpha",
                                                        "min_checkpoints", "correction_family", "match", "tokenize",
                                                        "max_order")},
        "bleu": [report["bleu"].get(name) for name in systems],
        "overall": scope_rows(report, "taxonomy", [scopes[0].name], {}, reference, intervals),
        "groups": scope_rows(report, "group", [s.name for s in scopes if s.kind is ScopeKind.GROUP], {}, reference, intervals),
        "categories": scope_rows(report, "category", categories, levels, reference, intervals),
        "pairs": pair_pieces(evaluation, {name: results[name].translations for name in systems}),
        "checkpoints": [checkpoints[name] for name in categories],
        "commands": reproduce_commands(
            request.store, request.output, results, report, baseline=request.baseline,
            inputs={"--metrics": request.metrics, "--meta": request.meta, "--attribution": request.attribution},
        ),
        "audit": _audit(suite),
        "warnings": [],
    }


def _audit(suite: Any) -> dict[str, Any]:
    """The audit ``build`` kept in the suite's summary; computed now for a suite built without one."""
    stored = suite.summary.get("audit")
    if isinstance(stored, dict) and stored.get("categories"):
        return stored
    from checkpoints.evaluate.audit import audit_suite

    return audit_suite(suite).to_json()
