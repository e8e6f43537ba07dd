"""`metrics --suite`: check-point categories, level groups and the taxonomy as metrics (Zhou's LC features).

Built on the first PAIRS sentence pairs of the bundled PUD en→es demo with its
two Apertium systems: system scores must be `evaluate`'s figures, segments
without a check-point of a category have no score for it, and bad suites are
one-line usage errors.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from checkpoints.evaluate.scopes import PAIRS as PAIRS_COLUMN
from checkpoints.evaluate.scoring import CheckpointScorer
from checkpoints.model import SuiteData
from checkpoints.service.build import BuildRequest, build_suite
from checkpoints.service.evaluate import evaluate_systems
from checkpoints.service.store import load_stored_suite, store_new_suite

PAIRS = 40
SYSTEMS = ("direct", "pivot")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A 40-pair demo suite in an SQLite store, its reference text and both systems' first 40 lines."""
    from importlib import resources

    demo_dir = Path(str(resources.files("checkpoints"))) / "data" / "demo"
    folder = tmp_path_factory.mktemp("lc")
    files = {name: folder / name for name in ("en.conllu", "es.conllu", "en-es.align")}
    for language in ("en", "es"):
        text = gzip.decompress((demo_dir / f"{language}_pud.conllu.gz").read_bytes()).decode("utf-8")
        blocks = text.strip("\n").split("\n\n")[:PAIRS]
        files[f"{language}.conllu"].write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    for name in ("en-es.align", *(f"{system}.es.txt" for system in SYSTEMS)):
        lines = (demo_dir / name).read_text(encoding="utf-8").splitlines(keepends=True)[:PAIRS]
        files[name] = folder / name
        files[name].write_text("".join(lines), encoding="utf-8")
    request = BuildRequest(
        source_lang="en", target_lang="es", source_conllu=files["en.conllu"],
        reference_conllu=[files["es.conllu"]], alignments=[files["en-es.align"]], name="pud40",
    )
    suite = build_suite(request).suite
    files["db"] = folder / "pud40.db"
    store_new_suite(files["db"], suite)
    files["ref"] = folder / "ref.es"
    files["ref"].write_text("".join(p.references[0].text + "\n" for p in suite.pairs), encoding="utf-8")
    return files


def stored(db: Path) -> SuiteData:
    return load_stored_suite(db)


def metrics_json(run_cli, demo: dict[str, Path], *extra: object, granularity: str = "sys") -> dict:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(
        "metrics", "-r", demo["ref"], *(f"--system={s}={demo[f'{s}.es.txt']}" for s in SYSTEMS),
        "--suite", demo["db"], "-g", granularity, "--format", "json", *extra,
    )
    assert code == 0, err
    return json.loads(out)


def test_system_scores_are_evaluate_figures(run_cli, demo: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    result = metrics_json(run_cli, demo, "-m", "BLEU")
    evaluation = evaluate_systems(demo["db"], [(s, demo[f"{s}.es.txt"]) for s in SYSTEMS])
    report = evaluation.reports["direct"]
    expected_names = ["BLEU", "LC", *(f"LC-{n.upper()}S" for n in report.groups), *(f"LC-{n}" for n in report.categories)]
    assert result["metrics"] == expected_names
    assert "LC-Noun phrase" in result["metrics"] and "LC-WORDS" in result["metrics"]
    assert result["aggregation"]["LC"] == "corpus"
    assert "suite:" in result["signature"]["LC"] and "match:normal" in result["signature"]["LC"]
    for system in SYSTEMS:
        report = evaluation.reports[system]
        scores = result["scores"][system]
        assert scores["LC"] == report.taxonomy.score  # the same sums: exactly evaluate's figure
        for level, line in report.groups.items():
            assert scores[f"LC-{level.upper()}S"] == pytest.approx(line.score, abs=1e-12, rel=0)
        for category, line in report.categories.items():
            assert scores[f"LC-{category}"] == pytest.approx(line.score, abs=1e-12, rel=0)


def test_segments_without_a_checkpoint_are_undefined(run_cli, demo: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    result = metrics_json(run_cli, demo, granularity="seg")
    assert len(result["segments"]) == PAIRS
    suite = stored(demo["db"])
    scorer = CheckpointScorer(suite)
    lines = demo["direct.es.txt"].read_text(encoding="utf-8").splitlines()
    stats = scorer.score(lines).statistics()
    positions = scorer.pair_positions.tolist()
    undefined_somewhere = False
    for index, scope in enumerate(scorer.scopes):
        name = "LC" if index == 0 else None
        if scope.kind.value == "category":
            name = f"LC-{scope.name}"
        elif scope.kind.value == "group":
            name = f"LC-{scope.name.upper()}S"
        segments = result["scores"]["direct"][name]
        assert len(segments) == PAIRS
        in_scope = {positions[row] for row in range(len(positions)) if stats[row, index, PAIRS_COLUMN] > 0}
        for position, value in enumerate(segments):
            if position in in_scope:
                assert value is not None and 0 <= value <= 1
            else:
                assert value is None
                undefined_somewhere = True
    assert undefined_somewhere


def test_text_reports_and_significance_run(run_cli, demo: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(
        "metrics", "-r", demo["ref"], *(f"--system={s}={demo[f'{s}.es.txt']}" for s in SYSTEMS),
        "--suite", demo["db"], "--baseline", "direct", "--samples", "50", "-g", "all",
    )
    assert code == 0, err
    assert "LC-Noun phrase" in out
    result = metrics_json(run_cli, demo, "--baseline", "direct", "--samples", "50")
    compared = {c["metric"] for c in result["significance"]["comparisons"]}
    assert {"LC", "LC-WORDS"} <= compared
    doc = metrics_json(run_cli, demo, granularity="doc")
    assert doc["scores"]["direct"]["LC"] == {"UNKNOWN_DOC": pytest.approx(result["scores"]["direct"]["LC"], abs=1e-12)}


def test_bad_suites_are_one_line_usage_errors(run_cli, demo: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    short = tmp_path / "short.es"
    short.write_text("".join(demo["ref"].read_text(encoding="utf-8").splitlines(keepends=True)[:-1]), encoding="utf-8")
    code, out, err = run_cli("metrics", "-r", short, "-s", f"A={short}", "--suite", demo["db"])
    assert (code, out) == (2, "")
    assert err == (
        f"checkpoints: error: suite 'pud40' has {PAIRS} sentence pairs but the test set has {PAIRS - 1} segments: "
        "--suite needs a suite whose pairs are the test set's segments, in order\n"
    )
    code, out, err = run_cli("metrics", "-r", demo["ref"], "-s", f"A={demo['ref']}", "--suite", demo["db"], "--suite-name", "nope")
    assert (code, out) == (2, "")
    assert err == f"checkpoints: error: no suite named 'nope' in {demo['db']} (suites: pud40)\n"
    code, _out, err = run_cli("metrics", "-r", demo["ref"], "-s", f"A={demo['ref']}", "-m", "BLEU", "--suite-name", "pud40")
    assert (code, err) == (2, "checkpoints: error: --suite NAME chooses a suite of --db DB: give --db\n")


def test_undefined_scores_are_nan_in_the_report(demo: dict[str, Path]) -> None:
    from checkpoints.service.metrics import MetricsRequest, score_metrics

    report = score_metrics(MetricsRequest(references=[demo["ref"]], systems=[("direct", demo["direct.es.txt"])], suite=demo["db"]))
    segments = [report.scores["direct"][name].segments for name in report.metrics if name.startswith("LC-")]
    assert any(math.isnan(value) for values in segments for value in values)
    assert not math.isnan(report.scores["direct"]["LC"].system)


def test_db_and_suite_name_are_the_vocabulary_and_the_old_spelling_still_works(run_cli, demo: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    systems = [f"--system={s}={demo[f'{s}.es.txt']}" for s in SYSTEMS]
    new = run_cli("metrics", "-r", demo["ref"], *systems, "--db", demo["db"], "--suite", "pud40", "-f", "json")
    old = run_cli("metrics", "-r", demo["ref"], *systems, "--suite", demo["db"], "--suite-name", "pud40", "-f", "json")
    assert new[0] == 0 and new == old
    assert "LC-Noun" in new[1]
    code, _, err = run_cli("metrics", "-r", demo["ref"], *systems, "--db", demo["db"], "--suite", "nope")
    assert code == 2 and err == f"checkpoints: error: no suite named 'nope' in {demo['db']} (suites: pud40)\n"
