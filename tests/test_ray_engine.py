"""The Ray engine on a local Ray cluster the tests start (two CPUs, no network): a build on it
makes the suite of the local engine, errors in a worker reach the user as themselves, and
nothing of Ray is imported unless ``--engine ray`` is asked for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from checkpoints.engine import EngineSpec, LocalEngine, open_engine
from checkpoints.errors import InputError, UsageError
from checkpoints.service import pair_spool
from checkpoints.service.build import BuildRequest, build_into_store, build_suite
from checkpoints.service.demo import demo_request
from checkpoints.service.store import load_stored_suite
from checkpoints.signature import suite_hash


def _request(demo_dir: Path, **changes: object):  # type: ignore[no-untyped-def]
    request = demo_request(demo_dir)
    request.audit = False
    for key, value in changes.items():
        setattr(request, key, value)
    return request


def test_a_ray_build_makes_the_local_suite(
    demo_dir: Path, tmp_path: Path, local_cluster: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = build_suite(_request(demo_dir))
    monkeypatch.setattr(pair_spool, "CHUNK_PAIRS", 300)  # four chunks over two workers
    on_ray = _request(demo_dir, engine=EngineSpec("ray", workers=2))
    build_into_store(on_ray, tmp_path / "ray.db")
    stored = load_stored_suite(tmp_path / "ray.db")
    assert stored.options["content_hash"] == suite_hash(local.suite) == local.suite.options["content_hash"]
    assert stored.summary == local.summary
    assert stored.summary["skipped_pairs"] == [577, 578, 579]


# The work below is defined inside each test: Ray's workers cannot import a test module, and
# cloudpickle sends a function defined in another function whole.


def test_results_come_in_the_order_of_the_items(local_cluster: None) -> None:
    def slow_add(offset: int, item: int) -> int:
        import time

        time.sleep(0.05 * (item % 3))  # later items often finish first
        return offset + item

    with open_engine(EngineSpec("ray", workers=2)) as engine:
        done = list(engine.map(lambda: 10, slow_add, range(8)))
    assert done == [(item, item + 10) for item in range(8)]
    assert list(LocalEngine().map(lambda: 10, slow_add, range(3))) == [(0, 10), (1, 11), (2, 12)]


def test_an_input_error_in_a_worker_is_raised_as_itself(local_cluster: None) -> None:
    def refuse_three(state: None, item: int) -> int:
        if item == 3:
            raise InputError("corpus.txt", 3, "a bad line")
        return item

    with open_engine(EngineSpec("ray", workers=2)) as engine, pytest.raises(InputError) as raised:
        list(engine.map(lambda: None, refuse_three, range(5)))
    assert str(raised.value) == "corpus.txt:3: a bad line"


def test_a_worker_that_cannot_set_up_raises_its_error(local_cluster: None) -> None:
    def missing_model() -> None:
        raise UsageError("no stanza model for xx: run `checkpoints models download xx`")

    with open_engine(EngineSpec("ray", workers=2)) as engine, pytest.raises(UsageError, match="no stanza model for xx"):
        list(engine.map(missing_model, lambda state, item: item, range(3)))


def test_engine_options_are_checked_before_any_work() -> None:
    with pytest.raises(UsageError, match="unknown engine 'spark'"):
        EngineSpec("spark").validate()
    with pytest.raises(UsageError, match="apply to --engine ray"):
        EngineSpec("local", workers=2).validate()
    with pytest.raises(UsageError, match="--workers must be at least 1"):
        EngineSpec("ray", workers=0).validate()


def test_the_command_line_takes_the_engine(demo_dir: Path, tmp_path: Path, run_cli, local_cluster: None) -> None:  # type: ignore[no-untyped-def]
    request = demo_request(demo_dir)
    code, _, err = run_cli(
        "build", "--db", tmp_path / "cli.db", "--src-lang", "en", "--tgt-lang", "es",
        "--source-conllu", request.source_conllu, "--reference-conllu", request.reference_conllu[0],
        "--alignment", request.alignments[0], "--taxonomy", "en", "--no-audit", "--engine", "ray", "--workers", "2",
        *[arg for path in request.dictionaries for arg in ("--dictionary", path)],
    )
    assert code == 0, err
    assert load_stored_suite(tmp_path / "cli.db").options["content_hash"] == "29d52074618b"
    code, _, err = run_cli("build", "--db", tmp_path / "x.db", "--src-lang", "en", "--tgt-lang", "es",
                           "--source-conllu", request.source_conllu, "--reference-conllu", request.reference_conllu[0],
                           "--workers", "2")
    assert code == 2
    assert "--address, --workers and --gpus-per-worker apply to --engine ray" in err


def test_the_local_engine_imports_nothing_of_ray(demo_dir: Path, tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from checkpoints.service.build import build_into_store\n"
        "from checkpoints.service.demo import demo_request\n"
        f"request = demo_request(__import__('pathlib').Path({str(demo_dir)!r})); request.audit = False\n"
        f"build_into_store(request, {str(tmp_path / 'local.db')!r})\n"
        "sys.exit('ray imported' if any(name == 'ray' or name.startswith('ray.') for name in sys.modules) else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_metrics_on_ray_score_what_this_process_scores(
    run_cli, data_dir: Path, local_cluster: None, tmp_path: Path  # type: ignore[no-untyped-def]
) -> None:
    """The lexical set over three TED systems, ULC among them (fitted here on the workers' statistics),
    with a significance test, as JSON: the same to the last digit."""
    ted = data_dir / "metrics" / "ted" / "en-de"
    systems = sorted((ted / "sys").iterdir())[:3]
    args = ["metrics", "-r", ted / "ref.txt", *[f"-s{path.stem}={path}" for path in systems], "--tgt-lang", "de",
            "--metric-set", "lexical", "-m", "ULC(BLEU,-TER,chrF)", "--baseline", systems[0].stem, "--samples", "100",
            "-f", "json"]
    code, alone, err = run_cli(*args)
    assert code == 0, err
    code, on_ray, err = run_cli(*args, "--engine", "ray", "--workers", "2")
    assert code == 0, err
    assert on_ray == alone


def test_evaluate_on_ray_scores_what_this_process_scores(
    run_cli, demo_dir: Path, local_cluster: None, tmp_path: Path  # type: ignore[no-untyped-def]
) -> None:
    request = _request(demo_dir)
    db = tmp_path / "demo.db"
    build_into_store(request, db)
    systems = [f"{name}={demo_dir / f'{name}.es.txt'}" for name in ("direct", "pivot")]
    args = ["evaluate", "--db", db, *[arg for system in systems for arg in ("--system", system)], "-f", "json"]
    code, alone, err = run_cli(*args)
    assert code == 0, err
    code, on_ray, err = run_cli(*args, "--engine", "ray", "--workers", "2")
    assert code == 0, err
    drop_runs = lambda text: {k: v for k, v in __import__("json").loads(text).items() if k not in ("run_ids", "runs")}  # noqa: E731
    assert drop_runs(on_ray) == drop_runs(alone)


def test_annotate_on_ray_writes_what_this_process_writes(  # type: ignore[no-untyped-def]
    run_cli, data_dir: Path, tmp_path: Path, local_cluster: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One stanza pipeline per worker (the tiny English models), batches taken in order: the same CoNLL-U."""
    from checkpoints.evaluate.metrics.linguistic import annotations

    monkeypatch.setattr(annotations, "REPORT_BATCH", 16)  # eight batches of distinct texts over two workers
    texts = tmp_path / "texts.en"
    texts.write_text("".join(f"The dog barked at postman number {n}.\nShe has lived in Paris since {1900 + n}.\nIt rained.\n"
                             for n in range(40)), encoding="utf-8")
    written = {}
    for name, extra in (("here", []), ("ray", ["--engine", "ray", "--workers", "2"])):
        output = tmp_path / f"{name}.conllu"
        code, _, err = run_cli("annotate", "--lang", "en", "--stanza-dir", data_dir / "models" / "en-tiny",
                               "--annotation-cache", tmp_path / f"cache-{name}", texts, "-o", output, *extra)
        assert code == 0, err
        written[name] = output.read_text(encoding="utf-8")
    assert written["ray"] == written["here"]
    assert written["here"].count("# text = ") == 120


def test_a_raw_text_build_parses_on_ray_as_here(data_dir: Path, tmp_path: Path, local_cluster: None) -> None:
    """Raw text parsed by one pipeline pair per Ray worker (the tiny English models), eflomal
    seeded: the suite of the local build."""
    source, reference = tmp_path / "a.en", tmp_path / "b.en"
    source.write_text("".join(f"The dog barked at postman number {n}.\nShe has lived in Paris since {1900 + n}.\n"
                              for n in range(30)), encoding="utf-8")
    reference.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    hashes = []
    for name, engine in (("here", EngineSpec()), ("ray", EngineSpec("ray", workers=2))):
        request = BuildRequest("en", "en", source=source, references=[reference], taxonomy="ud", audit=False,
                               stanza_dir=str(data_dir / "models" / "en-tiny"), threads=1, name=name, engine=engine)
        build_into_store(request, tmp_path / f"{name}.db")
        hashes.append(load_stored_suite(tmp_path / f"{name}.db").options["content_hash"])
    assert hashes[0] == hashes[1]


def test_statistics_scored_on_ray_are_kept_and_reused(
    run_cli, data_dir: Path, local_cluster: None, tmp_path: Path  # type: ignore[no-untyped-def]
) -> None:
    ted = data_dir / "metrics" / "ted" / "en-de"
    systems = sorted((ted / "sys").iterdir())[:2]
    args = ["metrics", "-r", ted / "ref.txt", *[f"-s{path.stem}={path}" for path in systems], "--tgt-lang", "de",
            "-m", "BLEU,chrF", "-f", "json", "--statistics-cache", tmp_path / "cache"]
    code, first, err = run_cli(*args, "--engine", "ray", "--workers", "2")
    assert code == 0, err
    assert "0 metric × output statistics reused, 4 scored and kept" in " ".join(err.split())
    code, second, err = run_cli(*args)
    assert code == 0, err
    assert "4 metric × output statistics reused, 0 scored" in " ".join(err.split())
    assert first == second
