"""Running the eflomal binary: one process per run and direction, each with a seed.

eflomal has no seed option: it reads its random state from ``/dev/urandom``
when it starts, and its samplers split that state in whatever order their
threads reach a critical section. Two things together make a run repeatable
(measured on the 1,000 bundled PUD en-es pairs: five seeded runs wrote the
same links, five unseeded runs five different ones):

* the process sees a file of eight seed bytes as ``/dev/urandom``, bound over
  it in a private mount namespace (``unshare --user --map-root-user --mount``,
  util-linux; Linux only, and only where unprivileged user namespaces are
  allowed); and
* it runs on one OpenMP thread, so its samplers draw their states in order.

One thread per process costs nothing: the runs put to a vote and the two
directions are independent, so they run as separate processes side by side
(``workers`` at a time) instead of one after another on several threads each.
Where a seed cannot be imposed, :func:`can_seed` is False and the runs are
random as eflomal made them; the build says so and its signature records ``align-seed:none``.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

DEFAULT_ALIGN_SEED = 1
"""Seed of eflomal's sampling when ``--seed`` is not given: builds of the same inputs are identical."""

NULL_PRIOR = 0.2
"""eflomal's prior probability of a NULL link (its own default)."""

_BIND_SEED = 'mount --bind "$0" /dev/urandom && exec "$@"'
"""Shell run inside the private namespace: ``$0`` is the seed file, ``$@`` the eflomal command."""


@dataclass(frozen=True, slots=True)
class EflomalJob:
    """What the binary is asked for: model, samplers and the iteration schedule."""

    model: int
    samplers: int
    iterations: tuple[int, int, int]

    @classmethod
    def for_corpus(cls, sentences: int, *, model: int, samplers: int, relative_iterations: float) -> EflomalJob:
        """eflomal's own default schedule: ``5000 / sqrt(sentences)`` iterations of the
        last model (scaled by ``relative_iterations``), a quarter of that for the
        earlier ones, so a small corpus is sampled longer per sentence."""
        last = max(2, round(relative_iterations * 5000 / math.sqrt(max(sentences, 1))))
        quarter = max(1, last // 4)
        if model == 1:
            return cls(model, samplers, (last, 0, 0))
        if model == 2:
            return cls(model, samplers, (max(2, quarter), last, 0))
        return cls(model, samplers, (max(2, quarter), quarter, last))


def run_seed_bytes(seed: int, run: int, direction: str) -> bytes:
    """The eight bytes one run and direction reads as ``/dev/urandom``: distinct per run, fixed per seed."""
    return hashlib.sha256(f"checkpoints-eflomal/{seed}/{run}/{direction}".encode()).digest()[:8]


@functools.cache
def can_seed() -> bool:
    """Whether a process here can be given its own ``/dev/urandom`` (tried once per process)."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    expected = run_seed_bytes(0, 0, "probe")
    with tempfile.TemporaryDirectory(prefix="checkpoints-seed-") as directory:
        seed_file = Path(directory) / "seed"
        seed_file.write_bytes(expected)
        try:
            completed = subprocess.run(
                [*_seeded_prefix(seed_file), "head", "-c", "8", "/dev/urandom"],
                capture_output=True, timeout=30, check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return False
    return completed.returncode == 0 and completed.stdout == expected


def _seeded_prefix(seed_file: Path) -> list[str]:
    return ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", _BIND_SEED, str(seed_file)]


def eflomal_executable() -> Path:
    """The binary the eflomal package installs next to its Python module."""
    import eflomal

    return Path(eflomal.__file__).parent / "bin" / "eflomal"


def run_eflomal(
    job: EflomalJob,
    source_file: Path,
    target_file: Path,
    priors_file: Path | None,
    directory: Path,
    *,
    runs: int,
    seed: int | None,
    workers: int | None = None,
) -> list[tuple[Path, Path]]:
    """Forward and reverse link files of each run, written under ``directory``.

    ``seed`` None (or a platform where :func:`can_seed` is False) leaves the
    runs random. Raises RuntimeError naming the run and eflomal's last message
    when the binary fails.
    """
    seeded = seed is not None and can_seed()
    outputs = [(directory / f"run{run}.forward", directory / f"run{run}.reverse") for run in range(runs)]
    commands = []
    for run, (forward, reverse) in enumerate(outputs):
        for direction, flag, output in (("forward", "-f", forward), ("reverse", "-r", reverse)):
            command = [str(eflomal_executable()), *_arguments(job, source_file, target_file, priors_file), flag, str(output)]
            if seeded:
                seed_file = directory / f"run{run}.{direction}.seed"
                seed_file.write_bytes(run_seed_bytes(seed, run, direction))
                command = [*_seeded_prefix(seed_file), *command]
            commands.append((f"run {run + 1} {direction}", command))
    environment = {**os.environ, "OMP_NUM_THREADS": "1"}
    with ThreadPoolExecutor(max_workers=max(1, min(len(commands), workers or os.cpu_count() or 1))) as pool:
        for _ in pool.map(lambda item: _run(item[0], item[1], environment), commands):
            pass
    return outputs


def _arguments(job: EflomalJob, source_file: Path, target_file: Path, priors_file: Path | None) -> list[str]:
    first, second, third = job.iterations
    arguments = ["-m", str(job.model), "-s", str(source_file), "-t", str(target_file), "-n", str(job.samplers),
                 "-N", str(NULL_PRIOR), "-q", "-1", str(first)]
    if job.model >= 2:
        arguments += ["-2", str(second)]
    if job.model >= 3:
        arguments += ["-3", str(third)]
    if priors_file is not None:
        arguments += ["-p", str(priors_file)]
    return arguments


def _run(label: str, command: Sequence[str], environment: dict[str, str]) -> None:
    completed = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        message = (completed.stderr.strip().splitlines() or [f"exit status {completed.returncode}"])[-1]
        raise RuntimeError(f"eflomal failed ({label}): {message}")
