"""``--statistics-cache``: per-segment statistics kept between runs of ``metrics`` and ``meta``, reused
only for the same metric, settings and texts, and giving the report a run without it gives."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from checkpoints.evaluate.metrics.base import MetricOptions
from checkpoints.evaluate.metrics.registry import get_metric
from checkpoints.evaluate.statistics_cache import (
    StatisticsCache,
    cacheable,
    cached_statistics,
    statistics_cache,
)

TED = Path(__file__).parent.parent / "data" / "metrics" / "ted" / "en-de"
META = Path(__file__).parent.parent / "data" / "meta"
SYSTEMS = ["Facebook-AI", "HuaweiTSC", "Nemo"]


def _metrics(run_cli, systems: list[str], *extra: object) -> tuple[dict, str]:  # type: ignore[no-untyped-def, type-arg]
    args = ["metrics", "-r", TED / "ref.txt", *[f"-s{name}={TED / 'sys' / f'{name}.txt'}" for name in systems],
            "--tgt-lang", "de", "-m", "BLEU,chrF,-TER", "-f", "json", *extra]
    code, out, err = run_cli(*args)
    assert code == 0, err
    return json.loads(out), " ".join(err.split())


def test_one_more_system_scores_only_that_system(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cache = tmp_path / "cache"
    _, err = _metrics(run_cli, SYSTEMS[:2], "--statistics-cache", cache)
    assert "statistics cache: 0 metric × output statistics reused, 6 scored and kept" in err
    report, err = _metrics(run_cli, SYSTEMS, "--statistics-cache", cache)
    assert "statistics cache: 6 metric × output statistics reused, 3 scored and kept" in err
    alone, err = _metrics(run_cli, SYSTEMS)
    assert "statistics cache" not in err
    assert report == alone


@pytest.mark.parametrize("changed", [["--tokenize", "intl"], ["--case", "ci"]])
def test_other_settings_make_other_keys(run_cli, tmp_path: Path, changed: list[str]) -> None:  # type: ignore[no-untyped-def]
    cache = tmp_path / "cache"
    _metrics(run_cli, SYSTEMS[:1], "--statistics-cache", cache)
    report, err = _metrics(run_cli, SYSTEMS[:1], "--statistics-cache", cache, *changed)
    assert "0 metric × output statistics reused, 3 scored" in err
    assert report == _metrics(run_cli, SYSTEMS[:1], *changed)[0]


def test_other_references_or_outputs_make_other_keys(tmp_path: Path) -> None:
    metric = get_metric("BLEU", MetricOptions(tokenize="13a", language="de"))
    cache = StatisticsCache(tmp_path)
    hypotheses, references = ["ein Haus", "zwei Katzen"], [["ein Haus", "zwei Hunde"]]
    key = cache.key(metric, hypotheses, references, None)
    assert key == cache.key(metric, list(hypotheses), [list(references[0])], None)
    assert key != cache.key(metric, hypotheses, [["ein Haus", "zwei Katzen"]], None)
    assert key != cache.key(metric, ["ein Haus", "zwei Katzen "], references, None)
    assert key != cache.key(metric, hypotheses, references, ["a house", "two cats"])
    # a segment boundary moved is another text
    assert cache.key(metric, ["a b", "c"], references, None) != cache.key(metric, ["a", "b c"], references, None)


def test_a_damaged_file_is_scored_again(tmp_path: Path) -> None:
    metric = get_metric("chrF", MetricOptions(tokenize="13a", language="de"))
    hypotheses, references = ["ein Haus", "zwei Katzen"], [["ein Haus", "zwei Hunde"]]
    truth = np.asarray(metric.corpus_stats(hypotheses, references, None), dtype=np.float64)
    with statistics_cache(tmp_path) as cache:
        assert cache is not None
        first = cached_statistics(metric, hypotheses, references, None, lambda: metric.corpus_stats(hypotheses, references, None))
        (stored,) = list((tmp_path / "statistics").rglob("*.npy"))
        stored.write_bytes(b"not a matrix")
        again = cached_statistics(metric, hypotheses, references, None, lambda: metric.corpus_stats(hypotheses, references, None))
        assert (cache.reused, cache.computed) == (0, 2)
        third = cached_statistics(metric, hypotheses, references, None, lambda: pytest.fail("scored again"))
        assert (cache.reused, cache.computed) == (1, 2)
    np.testing.assert_array_equal(first, truth)
    np.testing.assert_array_equal(again, truth)
    np.testing.assert_array_equal(third, truth)


def test_fitted_and_parse_based_metrics_are_not_kept() -> None:
    options = MetricOptions(tokenize="13a", language="en")
    assert cacheable(get_metric("BLEU", options))
    assert not cacheable(get_metric("ULC(BLEU,chrF)", options))
    assert not cacheable(get_metric("SP-Op(*)", options))
    assert not cacheable(get_metric("CE-length", options))


def test_meta_reuses_what_an_earlier_meta_scored(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cache = tmp_path / "cache"
    args = ["meta", "--mqm", META / "mqm_ted_ende.small.tsv", "--reference-system", "ref", "-m", "BLEU,chrF,-TER",
            "--format", "json"]
    code, first, err = run_cli(*args, "--statistics-cache", cache)
    assert code == 0, err
    scored = int(" ".join(err.split()).split("reused, ")[1].split(" scored")[0])
    assert scored > 0 and "statistics cache: 0 metric" in " ".join(err.split())
    code, second, err = run_cli(*args, "--statistics-cache", cache)
    assert code == 0, err
    assert f"statistics cache: {scored} metric × output statistics reused, 0 scored and kept" in " ".join(err.split())
    code, alone, err = run_cli(*args)
    assert first == second == alone
