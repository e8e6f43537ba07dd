"""The command lines that recreate a report: rendering, not work, so they live with the page."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from checkpoints.evaluate.run_options import RunOptions


def reproduce_commands(
    store: object,
    output: Path,
    results: Mapping[str, Any],
    report: Mapping[str, Any],
    *,
    baseline: str | None,
    inputs: Mapping[str, Path | None],
) -> list[str]:
    """The commands that recreate what the report shows: evaluate, compare, report.

    ``results`` are the systems' stored results (their run options say how they were evaluated),
    ``report`` the comparison's JSON, ``inputs`` the report's extra files by option.
    """
    db = shlex.quote(str(store))
    first = RunOptions.stored(next(iter(results.values())).run_options)
    evaluate = ["checkpoints", "evaluate", "--db", db]
    for name, result in results.items():
        path = (RunOptions.stored(result.run_options).systems or {}).get(name, f"{name}.txt")
        evaluate += ["--system", shlex.quote(f"{name}={path}")]
    evaluate += ["--match", first.match, "--tokenize", first.tokenize, "--max-order", first.max_order]
    if first.uses_alternatives:
        evaluate.append("--alternatives")
    compare = ["checkpoints", "compare", "--db", db]
    for name in report["systems"]:
        compare += ["--system", shlex.quote(name)]
    if report.get("baseline"):
        compare += ["--baseline", shlex.quote(report["baseline"])]
    compare += ["--method", report["method"], "--samples", str(report["samples"]), "--seed", str(report["seed"]),
                "--correction", report["correction"], "--alpha", str(report["alpha"]),
                "--min-checkpoints", str(report["min_checkpoints"])]
    build = ["checkpoints", "report", "--db", db]
    for name in report["systems"]:
        build += ["--system", shlex.quote(name)]
    if baseline:
        build += ["--baseline", shlex.quote(baseline)]
    for option, path in inputs.items():
        if path is not None:
            build += [option, shlex.quote(str(path))]
    build += ["--output", shlex.quote(str(output))]
    return [" ".join(evaluate), " ".join(compare), " ".join(build)]
