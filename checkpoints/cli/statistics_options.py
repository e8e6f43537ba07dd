"""``--statistics-cache DIR`` on ``metrics`` and ``meta``: per-segment statistics kept between runs
(:mod:`checkpoints.evaluate.statistics_cache`), and the line that says what was reused."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.evaluate.statistics_cache import StatisticsCache

StatisticsCacheDir = Annotated[Path | None, typer.Option(
    "--statistics-cache", metavar="DIR", show_default=False,
    help="Keep each metric's per-segment statistics of each output here and reuse them when the same metric, "
         "settings and texts come again: a campaign scored again with one more system scores only that one.")]


def reuse_line(cache: StatisticsCache) -> str:
    return reuse_line_of(cache.reused, cache.computed)


def reuse_line_of(reused: int, computed: int) -> str:
    return f"statistics cache: {reused} metric × output statistics reused, {computed} scored and kept"
