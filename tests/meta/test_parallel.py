"""``meta --jobs``: metrics scored in forked workers give exactly what one process gives."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from checkpoints.errors import CheckpointsError
from checkpoints.evaluate.meta.criteria import Criterion
from checkpoints.evaluate.meta.judged import JudgedSet
from checkpoints.evaluate.meta.results import CIMethod, MetaOptions
from checkpoints.evaluate.meta.runner import run_meta
from checkpoints.evaluate.metrics.base import MeanOfSegments, MetricOptions
from checkpoints.evaluate.metrics.registry import get_metric
from checkpoints.workers import can_fork, forked_map

needs_fork = pytest.mark.skipif(not can_fork(), reason="workers are forked, which only Linux does here")

METRICS = "BLEU,chrF,chrF++,-TER,-TERbase,Ol,Pl,NGRAM-cosChar3ngrams,NGRAM-jacChar3ngrams"


def _json(run_cli, *args: object) -> dict:  # type: ignore[no-untyped-def, type-arg]
    code, out, err = run_cli("meta", *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


@needs_fork
@pytest.mark.parametrize("level", [["-g", "sys", "--criteria", "pearson,kendall,spa", "--samples", "50"],
                                   ["-g", "seg", "--criteria", "pearson,acc-eq,king,orange"]])
def test_jobs_give_what_one_process_gives(run_cli, meta_data: Path, level: list[str]) -> None:  # type: ignore[no-untyped-def]
    bed = ["--mqm", meta_data / "mqm_ted_zhen.small.tsv", "--reference-system", "ref", "--reference-system", "refB",
           "-m", METRICS, *level]
    alone = _json(run_cli, *bed)
    assert _json(run_cli, *bed, "--jobs", "3") == alone
    assert _json(run_cli, *bed, "-j", "2") == alone


def test_ray_workers_give_what_one_process_gives(run_cli, meta_data: Path, local_cluster: None) -> None:  # type: ignore[no-untyped-def]
    bed = ["--mqm", meta_data / "mqm_ted_zhen.small.tsv", "--reference-system", "ref", "--reference-system", "refB",
           "-m", METRICS, "-g", "seg", "--criteria", "pearson,acc-eq,king,orange"]
    assert _json(run_cli, *bed, "--engine", "ray", "--workers", "2") == _json(run_cli, *bed)
    code, _, err = run_cli("meta", *bed, "--engine", "ray", "--jobs", "2")
    assert (code, err) == (2, "checkpoints: error: --jobs forks workers on this machine; with --engine ray give --workers\n")


def test_ray_workers_fill_the_statistics_cache(run_cli, meta_data: Path, local_cluster: None, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bed = ["--mqm", meta_data / "mqm_ted_ende.small.tsv", "--reference-system", "ref", "-m", "BLEU,chrF,-TER",
           "--statistics-cache", tmp_path / "cache", "--format", "json"]
    code, on_ray, err = run_cli("meta", *bed, "--engine", "ray", "--workers", "2")
    assert code == 0, err
    scored = int(" ".join(err.split()).split("reused, ")[1].split(" scored")[0])
    assert scored > 0 and "statistics cache: 0 metric" in " ".join(err.split())
    code, here, err = run_cli("meta", *bed)
    assert code == 0, err
    assert f"statistics cache: {scored} metric × output statistics reused, 0 scored" in " ".join(err.split())
    assert here == on_ray


def test_jobs_must_be_positive(run_cli, meta_data: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("meta", "--mqm", meta_data / "mqm_ted_ende.small.tsv", "--reference-system", "ref",
                             "-m", "BLEU", "--jobs", "0")
    assert (code, out, err) == (2, "", "checkpoints: error: jobs must be at least 1, not 0\n")


class Failing(MeanOfSegments):
    """Scores 1, but fails on a hypothesis containing "boom" (a metric error in a worker)."""

    name = "FAILING"
    description = "test metric"

    def segment_score(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> float:
        if "boom" in hypothesis:
            raise CheckpointsError("FAILING cannot score 'boom'")
        return 1.0


def _bed(outputs: dict[str, tuple[str, ...]]) -> JudgedSet:
    return JudgedSet(
        judgments="test", documents=("d",) * 3, segment_ids=("1", "2", "3"), references=(("a b", "c d", "e f"),),
        sources=None, outputs=outputs,
        segment_scores={(system, i): float(i + n) for n, system in enumerate(outputs) for i in range(3)},
    )


@needs_fork
def test_a_metric_failing_in_a_worker_fails_as_in_one_process() -> None:
    bed = _bed({"A": ("a b", "c", "boom"), "B": ("a", "c d", "e f"), "C": ("x", "y", "z")})
    metrics = [get_metric("BLEU", MetricOptions()), Failing(), get_metric("chrF", MetricOptions())]
    for jobs in (1, 2):
        with pytest.raises(CheckpointsError, match="FAILING cannot score 'boom'"):
            run_meta(bed, metrics, MetaOptions(ci=CIMethod.NONE, jobs=jobs))


@needs_fork
def test_statistics_are_shared_between_runs_and_filled_in() -> None:
    bed = _bed({"A": ("a b", "c", "e"), "B": ("a", "c d", "e f"), "C": ("x", "y", "z")})
    metrics = [get_metric("BLEU", MetricOptions()), get_metric("chrF", MetricOptions())]
    statistics: dict[str, dict[str, np.ndarray]] = {}
    first = run_meta(bed, metrics, MetaOptions(ci=CIMethod.NONE, jobs=2), statistics=statistics)
    assert sorted(statistics) == ["BLEU", "chrF"] and sorted(statistics["BLEU"]) == ["A", "B", "C"]
    statistics["chrF"] = {system: np.zeros_like(rows) for system, rows in statistics["chrF"].items()}
    again = run_meta(bed, metrics, MetaOptions(ci=CIMethod.NONE, criteria=(Criterion.PEARSON,)),
                     statistics=statistics)
    assert again.results["BLEU"] == {Criterion.PEARSON: first.results["BLEU"][Criterion.PEARSON]}
    assert again.results["chrF"][Criterion.PEARSON].r is None  # the given (constant) statistics were used


@needs_fork
def test_forked_map_runs_groups_in_order_in_one_worker() -> None:
    import os

    done = dict(forked_map(lambda index: (index * index, os.getpid()), [[0, 1, 2], [3], [4, 5]], 2))
    assert {index: square for index, (square, _) in done.items()} == {0: 0, 1: 1, 2: 4, 3: 9, 4: 16, 5: 25}
    assert done[0][1] == done[1][1] == done[2][1] != os.getpid()
