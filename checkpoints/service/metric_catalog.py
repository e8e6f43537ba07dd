"""What ``checkpoints metrics --list`` shows: every metric, how it aggregates, what it measures."""

from __future__ import annotations

from dataclasses import dataclass

from checkpoints.errors import CheckpointsError, UsageError
from checkpoints.evaluate.metrics.registry import describe, get_metric, metric_names


@dataclass(frozen=True, slots=True)
class MetricListing:
    name: str
    aggregation: str
    """``corpus`` (summed statistics) or ``mean`` (of segment scores), or why it cannot run as it is."""
    definition: str


def metric_listing() -> list[MetricListing]:
    """Every metric the registry knows, in its order; one that needs an option or a missing
    resource is still listed, with that as its aggregation."""
    rows = []
    for name in metric_names():
        try:
            aggregation = get_metric(name).aggregation.value
        except UsageError:  # needs an option (METEOR-pa: --paraphrase-table)
            aggregation = "needs options"
        except CheckpointsError:  # a resource (WordNet) is missing here: still list the name
            aggregation = "unavailable here"
        rows.append(MetricListing(name, aggregation, describe(name)))
    return rows
