"""``checkpoints metrics --list``: one line per metric, ``NAME  [aggregation] definition``."""

from __future__ import annotations

from collections.abc import Sequence

from checkpoints.service.metric_catalog import MetricListing


def metric_list_text(rows: Sequence[MetricListing]) -> str:
    """The tag says how system and document scores aggregate (summed statistics or mean of
    segment scores), or why the metric cannot run as it is."""
    if not rows:
        return "no metrics installed\n"
    width = max(len(row.name) for row in rows)
    return "".join(f"{row.name.ljust(width)}  [{row.aggregation}] {row.definition}\n" for row in rows)
