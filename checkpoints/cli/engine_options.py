"""``--engine``, ``--address``, ``--workers`` and ``--gpus-per-worker``: the same options, meaning the
same, on every command that can spread its work (:class:`~checkpoints.engine.EngineSpec`)."""

from __future__ import annotations

from typing import Annotated

import typer

from checkpoints.engine import EngineSpec

PANEL = "Engine"

EngineName = Annotated[str, typer.Option(
    "--engine", metavar="local|ray", rich_help_panel=PANEL,
    help="Where the work runs: in this process, or on a Ray cluster (pip install 'mt-checkpoints[ray]'); "
         "results are the same on both.")]
Address = Annotated[str | None, typer.Option(
    "--address", metavar="ADDR", rich_help_panel=PANEL, show_default=False,
    help="A running Ray cluster to join (ray://HOST:10001, or HOST:6379 on a cluster node); default: start "
         "one on this machine for the command.")]
Workers = Annotated[int | None, typer.Option(
    "--workers", metavar="N", rich_help_panel=PANEL, show_default=False,
    help="Ray workers, one process each (default: one per CPU of the cluster).")]
GpusPerWorker = Annotated[float, typer.Option(
    "--gpus-per-worker", metavar="G", rich_help_panel=PANEL,
    help="GPUs each Ray worker reserves (parsing raw text; 0: CPU only).")]


def engine_spec(engine: str, address: str | None, workers: int | None, gpus_per_worker: float) -> EngineSpec:
    spec = EngineSpec(engine, address, workers, gpus_per_worker)
    spec.validate()
    return spec
