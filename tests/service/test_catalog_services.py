"""`taxonomy` and `metrics --list` go through services that a program can call too."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import TaxonomyError, UsageError
from checkpoints.report.metric_list import metric_list_text
from checkpoints.report.taxonomy_report import taxonomy_json, taxonomy_list_json
from checkpoints.service.metric_catalog import MetricListing, metric_listing
from checkpoints.service.taxonomies import (
    builtin_taxonomy_list,
    checked_taxonomy,
    level_counts,
    taxonomy_source,
    taxonomy_view,
)


def test_builtin_taxonomies_and_their_levels() -> None:
    rows = taxonomy_list_json(builtin_taxonomy_list())
    assert [row["name"] for row in rows] == ["en", "ud", "zh"]
    for row in rows:
        assert sum(row["levels"].values()) == row["categories"]  # type: ignore[union-attr]


def test_one_level_of_a_taxonomy() -> None:
    view = taxonomy_view("en", "sentence")
    assert view.entries and all(entry.category.level.value == "sentence" for entry in view.entries)
    document = taxonomy_json(view)
    assert document["name"] == "en" and len(document["categories"]) == len(view.entries)  # type: ignore[arg-type]
    assert level_counts(view.taxonomy)["sentence"] == len(view.entries)
    assert taxonomy_source("en").startswith("<?xml")
    with pytest.raises(UsageError, match="--level 'clause'"):
        taxonomy_view("en", "clause")


def test_a_broken_taxonomy_file_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.xml"
    broken.write_text("<taxonomy>", encoding="utf-8")
    with pytest.raises(TaxonomyError) as caught:
        checked_taxonomy(broken)
    assert str(caught.value).startswith(f"{broken}:")
    assert "\n" not in str(caught.value)


def test_metric_listing_names_every_metric_once() -> None:
    rows = metric_listing()
    names = [row.name for row in rows]
    assert len(names) == len(set(names)) and {"BLEU", "chrF", "-TER", "METEOR-pa"} <= set(names)
    assert {row.name: row.aggregation for row in rows}["METEOR-pa"] == "needs options"
    text = metric_list_text([MetricListing("BLEU", "corpus", "n-gram precision"), MetricListing("-TER", "corpus", "edits")])
    assert text == "BLEU  [corpus] n-gram precision\n-TER  [corpus] edits\n"
    assert metric_list_text([]) == "no metrics installed\n"
