"""The linguistic metrics from the command line: given parses, stanza parses, the annotation cache, `annotate`.

Given parses are the spec's fixture (``tests/data/linguistic``); stanza parses
come from the tiny English models trained offline (``tests/data/models/en-tiny``),
which have no NER and no constituency parser: exactly the missing-layer case.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkpoints.evaluate.metrics.linguistic.annotations import Annotator

DATA = Path(__file__).parent.parent / "data"
FIXTURE = DATA / "linguistic" / "linguistic_fixture.conllu"
TINY = DATA / "models" / "en-tiny"
CANDIDATES = ["The dog chased the cat .", "Yesterday John bought a car .", "The man living here speaks French ."]
REFERENCES = ["The cat was chased by the dog .", "John did not buy a new car yesterday .",
              "The man who lives here can speak French ."]
SECOND = ["The cat was chased by the dog .", "John bought a car yesterday .", "The man who lives here can speak French ."]


@pytest.fixture
def texts(tmp_path: Path) -> dict[str, Path]:
    files = {"cand": CANDIDATES, "ref": REFERENCES, "ref2": SECOND}
    for name, lines in files.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {name: tmp_path / f"{name}.txt" for name in files}


def csv_system_scores(out: str) -> dict[str, float]:
    """``metric -> score`` of the sys-level rows of ``metrics -f csv``."""
    rows = [line.split(",") for line in out.splitlines()[1:]]
    return {row[4]: float(row[5]) for row in rows if row[0] == "sys"}


def test_given_parses_give_the_spec_system_scores(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Spec §10.3, system column."""
    code, out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "--parsed", FIXTURE,
                             "-m", "SP-Op(*),DP-HWCM_w-2,DP-Oc(*),CP-STM-9,NE-Oe(**),SP-Op(NN)", "--tgt-lang", "en",
                             "--annotation-cache", tmp_path / "cache", "-f", "csv")
    assert code == 0, err
    assert csv_system_scores(out) == pytest.approx({
        "SP-Op(*)": 0.503367, "DP-HWCM_w-2": 0.391448, "DP-Oc(*)": 0.590909, "CP-STM-9": 0.352561,
        "NE-Oe(**)": 0.568182, "SP-Op(NN)": 1.0}, abs=1e-6)
    assert not (tmp_path / "cache").exists()  # every text was given: nothing parsed, nothing cached


def test_several_references_and_the_signature(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Spec §10.4: seg2 keeps the better of r2 and r2b (SP-Oc(*) 0.667 / 1.0; DP-Oc(*) 0.5 / 1.0)."""
    code, out, err = run_cli("metrics", "-r", texts["ref"], "-r", texts["ref2"], "-s", f"C={texts['cand']}",
                             "--parsed", FIXTURE, "-m", "SP-Oc(*),DP-Oc(*)", "--tgt-lang", "en", "-g", "seg", "-f", "json",
                             "--annotation-cache", tmp_path / "cache")
    assert code == 0, err
    document = json.loads(out)
    assert document["scores"]["C"]["SP-Oc(*)"] == pytest.approx([0.75, 1.0, 0.777778], abs=1e-6)
    assert document["scores"]["C"]["DP-Oc(*)"] == pytest.approx([0.666667, 1.0, 0.625], abs=1e-6)
    assert document["signature"]["DP-Oc(*)"].startswith("nrefs:2|metric:DP-Oc(*)|agg:corpus|tok:stanza|case:lc|parse:given|")


def test_stanza_parses_once_then_reads_the_cache(texts: dict[str, Path], tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = Annotator("en", stanza_dir=str(TINY), cache_dir=cache)
    parsed = first.annotate([*CANDIDATES, "", "  The dog chased   the cat .  "])
    assert first.counts == {"given": 0, "cached": 0, "parsed": 3}
    assert parsed[3].words == () and parsed[4] is parsed[0]  # empty line: no words; whitespace does not matter
    assert len(list(cache.rglob("*.conllu"))) == 3
    again = Annotator("en", stanza_dir=str(TINY), cache_dir=cache)
    assert [p.words for p in again.annotate(CANDIDATES)] == [p.words for p in parsed[:3]]
    assert again.counts == {"given": 0, "cached": 3, "parsed": 0}
    assert again.pipeline_id() == first.pipeline_id() and len(first.pipeline_id()) == 16


def test_a_given_parse_is_found_by_its_words_too(tmp_path: Path) -> None:
    annotator = Annotator("en", given=[FIXTURE], cache_dir=tmp_path)
    (parsed,) = annotator.annotate(["The dog chased the cat ."])
    assert [word.form for word in parsed.words][:2] == ["The", "dog"] and parsed.tree is not None and parsed.has_ner
    assert annotator.counts == {"given": 1, "cached": 0, "parsed": 0}


def test_annotate_writes_conllu_and_fills_the_cache(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cache, output = tmp_path / "cache", tmp_path / "out.conllu"
    code, _out, err = run_cli("annotate", "--lang", "en", "--stanza-dir", TINY, "--annotation-cache", cache,
                              texts["cand"], texts["ref"], "-o", output)
    assert code == 0, err
    assert "6 lines: 0 texts from --parsed, 0 from the cache, 6 parsed now" in " ".join(err.split())
    assert output.read_text(encoding="utf-8").count("# text = ") == 6
    code, _out, err = run_cli("annotate", "--lang", "en", "--stanza-dir", TINY, "--annotation-cache", cache, texts["cand"])
    assert code == 0 and "3 lines: 0 texts from --parsed, 3 from the cache, 0 parsed now" in " ".join(err.split())
    # the written CoNLL-U serves as --parsed: the same DP scores as from the cache
    scores = []
    for extra in (["--parsed", output], ["--stanza-dir", TINY]):
        code, out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "-m", "DP-HWCM_r-4",
                                 "--tgt-lang", "en", "--annotation-cache", cache, "-f", "csv", *extra)
        assert code == 0, err
        scores.append(csv_system_scores(out)["DP-HWCM_r-4"])
    assert scores[0] == scores[1]


@pytest.mark.parametrize(
    ("metric", "extra", "message"),
    [
        ("CP-STM-4", ["--stanza-dir", str(TINY)], "CP-STM-4: "),
        ("NE-Oe(*)", ["--stanza-dir", str(TINY)], "NE-Oe(*): "),
        ("SP-Ox(*)", [], "SP-Ox(*): unknown SP metric"),
        ("DP-Ol(12)", [], "DP-Ol(12): DP-Ol takes a level from 1 to 9, or *"),
    ],
)
def test_missing_layers_and_bad_names_are_one_line(  # type: ignore[no-untyped-def]
    run_cli, texts: dict[str, Path], tmp_path: Path, metric: str, extra: list[str], message: str
) -> None:
    code, out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "-m", metric, "--tgt-lang", "en",
                             "--annotation-cache", tmp_path / "cache", *extra)
    assert code in (1, 2) and out == ""
    assert err.startswith(f"checkpoints: error: {message}") and err.count("\n") == 1


def test_given_conllu_without_ner_is_refused_for_ne(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plain = tmp_path / "plain.conllu"
    plain.write_text(FIXTURE.read_text(encoding="utf-8").replace("\tner=O", "\t_").replace("\tner=S-PERSON", "\t_")
                     .replace("\tner=S-DATE", "\t_").replace("\tner=S-LANGUAGE", "\t_"), encoding="utf-8")
    code, _out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "-m", "NE-Oe(*)",
                              "--tgt-lang", "en", "--parsed", plain, "--annotation-cache", tmp_path / "cache")
    assert code == 1
    assert err.startswith("checkpoints: error: NE-Oe(*): needs named entities; the parses of en have none")


def test_the_list_names_the_linguistic_families(run_cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _err = run_cli("metrics", "--list")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert {"SP-Op(*)", "SP-Oc(*)", "DP-HWCM_r-4", "DP-Or(*)", "CP-STM-9", "CP-Oc(*)", "NE-Oe(**)", "NE-Me(*)"} <= set(names)


def test_semantic_roles_and_esa_from_the_command_line(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """SR (spec §10.3) and ESA (§10.5's corpus: segments 1.0, 0.993213, 1.0, system their mean)."""
    concepts = tmp_path / "concepts"
    concepts.mkdir()
    for number, text in enumerate(["cats and dogs are pets . a cat chases a dog .", "the dog barks at the cat .",
                                   "cars and trucks drive on roads .", "a new car costs money ."]):
        (concepts / f"{number}.txt").write_text(text, encoding="utf-8")
    code, out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "--parsed", FIXTURE,
                             "-m", "SR-Or(*),SR-Fr(*),SR-Nv,ESA-en", "--esa-corpus", f"en={concepts}", "--tgt-lang", "en",
                             "--annotation-cache", tmp_path / "cache", "-f", "csv")
    assert code == 0, err
    assert csv_system_scores(out) == pytest.approx(
        {"SR-Or(*)": 0.683333, "SR-Fr(*)": 0.851852, "SR-Nv": 1.0, "ESA-en": (1.0 + 0.993213 + 1.0) / 3}, abs=1e-6)
    assert "roles:ud-proto-1" in out and "concepts:concepts" in out
    code, _out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "--parsed", FIXTURE,
                              "-m", "ESA-en", "--tgt-lang", "en")
    assert code == 2 and err == "checkpoints: error: ESA-en needs --esa-corpus en=PATH\n"


@pytest.mark.parametrize(
    ("kind", "cumulative", "individual", "segments"),
    [
        ("p", [1.920370, 2.259315, 2.420366, 2.420366, 2.420366], [0.338945, 0.161051, 0, 0], [3.185931, 1.730011, 2.402270]),
        ("l", [2.773958, 2.970239, 2.970239, 2.970239, 2.970239], [0.196281, 0, 0, 0], [3.204065, 2.218140, 3.456985]),
        ("iob", [1.608290, 2.212786, 2.416010, 2.416010, 2.416010], [0.604496, 0.203224, 0, 0], [3.285753, 1.407979, 2.717831]),
        ("c", [1.719715, 2.850054, 3.283766, 3.283766, 3.283766], [1.130339, 0.433711, 0, 0], [2.135686, 3.556310, 3.590532]),
    ],
)
def test_sp_nist_vectors(run_cli, texts: dict[str, Path], tmp_path: Path, kind: str, cumulative: list,  # type: ignore[no-untyped-def]
                         individual: list, segments: list) -> None:
    """Spec §10.3: mteval NIST over lemma, tag, IOB and chunk sequences (system NIST-1..5, NISTi-2..5, segment NIST-5)."""
    names = [f"SP-{kind}NIST-{n}" for n in range(1, 6)] + [f"SP-{kind}NISTi-{n}" for n in range(2, 6)]
    code, out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "--parsed", FIXTURE,
                             "-m", ",".join([*names, f"SP-{kind}NIST"]), "--tgt-lang", "en", "-f", "csv", "-g", "all",
                             "--annotation-cache", tmp_path / "cache")
    assert code == 0, err
    scores = csv_system_scores(out)
    assert [scores[name] for name in names] == pytest.approx([*cumulative, *individual], abs=1e-6)
    rows = [line.split(",") for line in out.splitlines()[1:]]
    assert [float(row[5]) for row in rows if row[0] == "seg" and row[4] == f"SP-{kind}NIST"] == pytest.approx(segments, abs=1e-6)


def test_sr_robust_variants_from_the_command_line(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Every fixture segment has roles on both sides: _b is the base measure, _i its mean with Ol."""
    code, out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "--parsed", FIXTURE,
                             "-m", "SR-Or(*),SR-Or(*)_b,SR-Or(*)_i,Ol", "--tgt-lang", "en", "-g", "seg", "-f", "json",
                             "--annotation-cache", tmp_path / "cache")
    assert code == 0, err
    scores = json.loads(out)["scores"]["C"]
    assert scores["SR-Or(*)_b"] == pytest.approx(scores["SR-Or(*)"])
    assert scores["SR-Or(*)_i"] == pytest.approx([(x + ol) / 2 for x, ol in zip(scores["SR-Or(*)"], scores["Ol"], strict=True)])


@pytest.mark.parametrize(
    ("metric", "code", "message"),
    [
        ("DR-Or(*)", 1, "DR-Or(*): discourse-representation metrics need a DRS parser (C&C tools + Boxer in Asiya); "
                        "none is available, and no faithful subset can be computed from stanza output: use SR-* or "
                        "NE-* for semantic similarity"),
        ("DPm-HWCM_w-2", 2, "DPm-HWCM_w-2: Asiya's MALT-parser variants are computed from stanza's dependency parse: "
                            "use DP-HWCM_w-2"),
        ("SR-Ora(*)", 2, "SR-Ora(*): the alignment-based SR measures are not part of Asiya 3.0's SR family"),
    ],
)
def test_families_asiya_has_and_this_project_does_not(run_cli, texts: dict[str, Path], metric: str, code: int,  # type: ignore[no-untyped-def]
                                                       message: str) -> None:
    got, out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "-m", metric, "--tgt-lang", "en")
    assert (got, out, err) == (code, "", f"checkpoints: error: {message}\n")


def test_native_entity_types(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Asiya's names map PERSON to PER; --ne-types native keeps the tagger's label."""
    common = ["metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "--parsed", FIXTURE, "--tgt-lang", "en",
              "-m", "NE-Oe(PER),NE-Oe(PERSON)", "-f", "csv", "--annotation-cache", tmp_path / "cache"]
    code, out, err = run_cli(*common)
    assert code == 0, err
    assert csv_system_scores(out) == {"NE-Oe(PER)": 1.0, "NE-Oe(PERSON)": 0.0}
    code, out, err = run_cli(*common, "--ne-types", "native")
    assert code == 0, err
    assert csv_system_scores(out) == {"NE-Oe(PER)": 0.0, "NE-Oe(PERSON)": 1.0}
    assert "|ne:native|" in out
    code, _out, err = run_cli(*common, "--ne-types", "ontonotes")
    assert code == 2 and err.startswith("checkpoints: error: --ne-types 'ontonotes'")


def test_a_changed_model_file_changes_the_pipeline(tmp_path: Path) -> None:
    """The cache is keyed by the SHA-256 of every model file: a retrained model never reads old parses."""
    import shutil

    copy = tmp_path / "en-tiny"
    shutil.copytree(TINY, copy)
    before = Annotator("en", stanza_dir=str(copy)).pipeline_id()
    assert before == Annotator("en", stanza_dir=str(copy), ner=False).pipeline_id()
    scores = copy / "scores.json"
    scores.write_text(scores.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    from checkpoints.evaluate.metrics.linguistic import annotations

    annotations._pipeline_id.cache_clear()
    annotations._file_hash.cache_clear()
    assert Annotator("en", stanza_dir=str(copy)).pipeline_id() != before


def test_the_trained_english_models_end_to_end(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """models/en (trained offline on EWT) parses the raw sentences; a reference scored against itself is 1."""
    models = Path(__file__).resolve().parents[2] / "models" / "en"
    assert (models / "manifest.json").is_file(), "models/en is part of the repository (trained offline, see models/README.md)"
    code, out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"R={texts['ref']}", "-s", f"C={texts['cand']}",
                             "-m", "SP-Op(*),DP-HWCM_r-4,SR-Or(*),SP-cNIST", "--tgt-lang", "en", "--stanza-dir", models,
                             "--annotation-cache", tmp_path / "cache", "-f", "json")
    assert code == 0, err
    scores = json.loads(out)["scores"]
    assert scores["R"]["SP-Op(*)"] == scores["R"]["DP-HWCM_r-4"] == scores["R"]["SR-Or(*)"] == 1.0
    assert 0 < scores["C"]["DP-HWCM_r-4"] < 1 and 0 < scores["C"]["SR-Or(*)"] < 1
    (parsed,) = Annotator("en", stanza_dir=str(models), cache_dir=tmp_path / "cache").annotate(["The dog chased the cat ."])
    assert [(w.form, w.deprel) for w in parsed.words if w.form in ("dog", "chased")] == [("dog", "nsubj"), ("chased", "root")]


def test_combinations_take_linguistic_parts(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "-s", f"R={texts['ref']}",
                             "--parsed", FIXTURE, "-m", "ULC(SP-Op(*),DP-HWCM_r-4,BLEU)", "--tgt-lang", "en", "-f", "json",
                             "--annotation-cache", tmp_path / "cache")
    assert code == 0, err
    assert json.loads(out)["scores"]["R"]["ULC(SP-Op(*),DP-HWCM_r-4,BLEU)"] == pytest.approx(1.0)


def test_metric_sets_by_family() -> None:
    from checkpoints.evaluate.metrics.registry import metric_names

    syntactic, semantic = metric_names("syntactic"), metric_names("semantic")
    assert "SP-Op(*)" in syntactic and "CP-STM-9" in syntactic and "SR-Or(*)" not in syntactic
    assert "SR-Or(*)" in semantic and "NE-Oe(**)" in semantic
    assert set(metric_names("linguistic")) == set(syntactic) | set(semantic)
    assert {"BLEU", "SP-Op(*)", "SR-Nv"} <= set(metric_names("all"))


def test_parsing_reports_its_rate(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    common = ["metrics", "-r", texts["ref"], "-s", f"C={texts['cand']}", "-m", "SP-Op(*)", "--tgt-lang", "en",
              "--stanza-dir", TINY, "--annotation-cache", tmp_path / "cache"]
    code, _out, err = run_cli(*common)
    assert code == 0, err
    lines = [line for line in err.splitlines() if line.startswith("parsing en with stanza: 3/3 texts, ")]
    assert len(lines) == 2 and all(line.endswith(" sentences/s") for line in lines)  # outputs, then references
    code, _out, err = run_cli(*common)
    assert code == 0 and "parsing" not in err  # the second run reads the cache


def test_parses_kept_in_a_check_point_store(run_cli, texts: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """With a store, the cache is a table of it: annotate fills it, a metric run reads it and parses nothing."""
    from sqlalchemy import func, select

    from checkpoints.db.annotation_cache import AnnotationRow
    from checkpoints.db.session import open_engine, transaction
    from checkpoints.evaluate.metrics.base import MetricOptions
    from checkpoints.evaluate.metrics.registry import get_metric

    store = tmp_path / "store.db"
    open_engine(store, create=True).dispose()
    code, _out, err = run_cli("annotate", "--lang", "en", "--stanza-dir", TINY, "--db", store, texts["cand"], texts["ref"])
    assert code == 0, err
    assert "0 from the cache, 6 parsed now" in err
    engine = open_engine(store, create=False)
    with transaction(engine) as session:
        assert session.scalar(select(func.count()).select_from(AnnotationRow)) == 6
    engine.dispose()
    code, _out, err = run_cli("annotate", "--lang", "en", "--stanza-dir", TINY, "--db", store, texts["cand"])
    assert code == 0 and "3 from the cache, 0 parsed now" in err
    metric = get_metric("SP-Op(*)", MetricOptions(language="en", extra={
        "stanza-dir": str(TINY), "annotation-store": str(store)}))
    metric.corpus_stats(CANDIDATES, [REFERENCES])
    annotator = metric.annotator()
    assert annotator.counts == {"given": 0, "cached": 6, "parsed": 0}
    code, _out, err = run_cli("annotate", "--lang", "en", "--db", store, "--annotation-cache", tmp_path, texts["cand"])
    assert code == 2 and "--db and --annotation-cache both say where parses are kept" in err


def test_a_read_only_store_is_read_and_not_written(tmp_path: Path) -> None:
    from sqlalchemy import func, select

    from checkpoints.db.annotation_cache import AnnotationRow, StoredAnnotations
    from checkpoints.db.session import open_engine, read_only_url, transaction

    store = tmp_path / "store.db"
    open_engine(store, create=True).dispose()
    read_only = read_only_url(store).render_as_string(hide_password=False)
    empty = Annotator("en", stanza_dir=str(TINY), cache=StoredAnnotations(read_only))
    empty.annotate(CANDIDATES[:1])  # no table yet, and none made
    writer = Annotator("en", stanza_dir=str(TINY), cache=StoredAnnotations(str(store)))
    writer.annotate(CANDIDATES[:1])
    reader = Annotator("en", stanza_dir=str(TINY), cache=StoredAnnotations(read_only))
    reader.annotate(CANDIDATES[:2])
    assert reader.counts == {"given": 0, "cached": 1, "parsed": 1}
    engine = open_engine(store, create=False)
    with transaction(engine) as session:
        assert session.scalar(select(func.count()).select_from(AnnotationRow)) == 1
    engine.dispose()


def test_parses_kept_in_postgresql(postgres_url: str) -> None:
    from checkpoints.db.annotation_cache import StoredAnnotations
    from checkpoints.db.session import open_engine

    open_engine(postgres_url, create=True).dispose()
    first = Annotator("en", stanza_dir=str(TINY), cache=StoredAnnotations(postgres_url))
    parsed = first.annotate(CANDIDATES)
    again = Annotator("en", stanza_dir=str(TINY), cache=StoredAnnotations(postgres_url))
    assert again.annotate(CANDIDATES) == parsed
    assert again.counts == {"given": 0, "cached": 3, "parsed": 0}
