"""`checkpoints build`, `export` and `import` end to end: golden Table 3, real PUD corpora, bad inputs."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from sqlalchemy import func, select

from checkpoints.db.session import open_engine, transaction
from checkpoints.db.tables import Suite
from checkpoints.extract.eflomal_process import can_seed
from checkpoints.model import SuiteData
from checkpoints.service.store import load_stored_suite
from checkpoints.signature import suite_signature
from checkpoints.taxonomy import load_taxonomy

DATA = Path(__file__).parent.parent / "data"

ZH_REFERENCE = """# text = 他們反對建立儲備金。
1\t他們\t他\tPRON\tPRP\t_\t2\tnsubj\t_\tSpaceAfter=No
2\t反對\t反對\tVERB\tVV\t_\t0\troot\t_\tSpaceAfter=No
3\t建立\t建立\tVERB\tVV\t_\t2\tccomp\t_\tSpaceAfter=No
4\t儲備金\t儲備金\tNOUN\tNN\t_\t3\tobj\t_\tSpaceAfter=No
5\t。\t。\tPUNCT\t.\t_\t2\tpunct\t_\t_
"""

# Zhou Table 3's alignment, English side first: They-他們 opposed-反對 building-建立
# reserve-儲備金 funds-儲備金 .-。 ("the" and "of" have no counterpart).
TABLE3_ALIGNMENT = "0-0 1-1 3-2 5-3 6-3 7-4\n"

# A small real-looking dictionary; "building" lacks 建立 on purpose, so DM shows its floor and fractions.
TABLE3_DICTIONARY = "they\t他們\noppose\t反對\nbuilding\t建築\nreserve\t儲備\nreserve\t儲備金\nfund\t基金\n"


def stored(db: Path) -> SuiteData:
    return load_stored_suite(db)


def suite_count(db: Path) -> int:
    if not db.exists():
        return 0
    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        count = session.scalar(select(func.count(Suite.id)))
    engine.dispose()
    return int(count or 0)


@pytest.fixture
def table3(tmp_path: Path) -> dict[str, Path]:
    files = {
        "source": DATA / "taxonomy" / "table3-en.conllu",
        "reference": tmp_path / "table3-zh.conllu",
        "alignment": tmp_path / "table3.align",
        "dictionary": tmp_path / "en-zh.tsv",
    }
    files["reference"].write_text(ZH_REFERENCE, encoding="utf-8")
    files["alignment"].write_text(TABLE3_ALIGNMENT, encoding="utf-8")
    files["dictionary"].write_text(TABLE3_DICTIONARY, encoding="utf-8")
    return files


def build_table3(run_cli, tmp_path: Path, table3: dict[str, Path], *extra: object) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    return run_cli(
        "build", "--db", tmp_path / "t3.db", "--src-lang", "en", "--tgt-lang", "zh",
        "--source-conllu", table3["source"], "--reference-conllu", table3["reference"],
        "--alignment", table3["alignment"], "--dictionary", table3["dictionary"], "--name", "table3", *extra,
    )


def test_table3_golden_build(run_cli, tmp_path: Path, table3: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    """Zhou et al. 2008 §4, Table 3, with English as the source language.

    Source words: They(0) opposed(1) the(2) building(3) of(4) reserve(5) funds(6) .(7)
    """
    code, out, err = build_table3(run_cli, tmp_path, table3)
    assert code == 0, err
    data = stored(tmp_path / "t3.db")
    found = {(cp.category, tuple(cp.source_indices)): [(" ".join(r.tokens), r.dm) for r in cp.references]
             for cp in data.checkpoints}
    assert found == {
        ("Pronoun", (0,)): [("他們", 1.0)],
        ("Verb", (1,)): [("反對", 1.0)],
        # building → 建立, but the dictionary only knows 建築: DM's floor 0.1
        ("Noun", (3,)): [("建立", 0.1)],
        ("Noun", (5,)): [("儲備金", 1.0)],
        ("Noun", (6,)): [("儲備金", 0.1)],
        ("Plurality", (6,)): [("儲備金", 0.1)],
        # "oppose" (6 WordNet senses) and "reserve" (7) are under Ambiguous word's 12
        # Table 3's "Predicate-object phrase 建立储备金 → the building of reserve funds", seen from English;
        # references are written as the Chinese text writes them, without spaces
        ("Noun phrase", (2, 3, 4, 5, 6)): [("建立儲備金", 0.5)],
        ("Noun phrase", (5, 6)): [("儲備金", 1.0)],
        ("Verb phrase", (1, 2, 3, 4, 5, 6)): [("反對建立儲備金", 2 / 3)],
        ("Preposition phrase", (4, 5, 6)): [("儲備金", 1.0)],
    }
    # "of" (4) is a preposition aligned to nothing: found, not stored, counted
    assert data.summary["skipped"] == {"no aligned target word": {"Preposition": 1}}
    assert data.summary["per_category"]["Preposition"] == 0
    assert data.options["dictionary"] == "tsv:en-zh.tsv"
    assert data.options["aligner"] == "pharaoh-files"
    assert "10 check-points" in out


def _relative_clause_corpus(tmp_path: Path) -> tuple[Path, Path, Path]:
    source = tmp_path / "s.conllu"
    source.write_text(
        "# text = The man who lives here sings .\n"
        "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tman\tman\tNOUN\tNN\tNumber=Sing\t6\tnsubj\t_\t_\n"
        "3\twho\twho\tPRON\tWP\tPronType=Rel\t4\tnsubj\t_\t_\n4\tlives\tlive\tVERB\tVBZ\tTense=Pres|VerbForm=Fin\t2\tacl:relcl\t_\t_\n"
        "5\there\there\tADV\tRB\t_\t4\tadvmod\t_\t_\n6\tsings\tsing\tVERB\tVBZ\tTense=Pres|VerbForm=Fin\t0\troot\t_\t_\n"
        "7\t.\t.\tPUNCT\t.\t_\t6\tpunct\t_\t_\n",
        encoding="utf-8",
    )
    reference = tmp_path / "r.conllu"
    reference.write_text(
        "1\tEl\tel\tDET\tDA\t_\t2\tdet\t_\t_\n2\thombre\thombre\tNOUN\tNC\t_\t6\tnsubj\t_\t_\n"
        "3\tque\tque\tPRON\tPR\t_\t4\tnsubj\t_\t_\n4\tvive\tvivir\tVERB\tV\t_\t2\tacl:relcl\t_\t_\n"
        "5\taquí\taquí\tADV\tRG\t_\t4\tadvmod\t_\t_\n6\tcanta\tcantar\tVERB\tV\t_\t0\troot\t_\t_\n"
        "7\t.\t.\tPUNCT\tFp\t_\t6\tpunct\t_\t_\n",
        encoding="utf-8",
    )
    alignment = tmp_path / "a.align"
    alignment.write_text("0-0 1-1 2-2 3-3 4-4 5-5 6-6\n", encoding="utf-8")
    return source, reference, alignment


def test_clause_check_points_take_the_aligned_projection_of_their_span(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Built-in clause categories declare reference="aligned": "who lives here" → "que vive aquí"."""
    source, reference, alignment = _relative_clause_corpus(tmp_path)
    code, _out, err = run_cli("build", "--db", tmp_path / "s.db", "--src-lang", "en", "--tgt-lang", "es",
                              "--source-conllu", source, "--reference-conllu", reference, "--alignment", alignment)
    assert code == 0, err
    data = stored(tmp_path / "s.db")
    (clause,) = [cp for cp in data.checkpoints if cp.category == "Attribute clause"]
    assert clause.source_indices == [2, 3, 4]
    (ref,) = clause.references
    assert (ref.tokens, ref.target_indices, ref.from_alignment) == (["que", "vive", "aquí"], [2, 3, 4], True)
    assert data.name == "s-en-es"


def test_reference_sentence_gives_the_papers_whole_sentence_references(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A copy of the taxonomy with reference="sentence" restores Zhou §4.2's literal behaviour."""
    source, reference, alignment = _relative_clause_corpus(tmp_path)
    taxonomy = tmp_path / "literal.xml"
    text = load_taxonomy("en").path.read_text(encoding="utf-8")  # type: ignore[union-attr]
    taxonomy.write_text(text.replace('reference="aligned"', 'reference="sentence"'), encoding="utf-8")
    code, _out, err = run_cli("build", "--db", tmp_path / "s.db", "--src-lang", "en", "--tgt-lang", "es",
                              "--source-conllu", source, "--reference-conllu", reference, "--alignment", alignment,
                              "--taxonomy", taxonomy)
    assert code == 0, err
    (clause,) = [cp for cp in stored(tmp_path / "s.db").checkpoints if cp.category == "Attribute clause"]
    (ref,) = clause.references
    assert (ref.tokens, ref.dm, ref.from_alignment) == (["El", "hombre", "que", "vive", "aquí", "canta", "."], 1.0, False)


def test_a_span_over_the_whole_sentence_takes_the_whole_reference(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The root clause covers every word but the full stop: its reference is the whole
    sentence, though the category's references are aligned and the alignment is partial."""
    source, reference, alignment = _relative_clause_corpus(tmp_path)
    alignment.write_text("1-1 3-3 5-5\n", encoding="utf-8")
    taxonomy = tmp_path / "main.xml"
    taxonomy.write_text(
        '<taxonomy name="main" language="en" version="1"><category name="Main clause" level="phrase">'
        "<description>The root with its subtree.</description>"
        '<pattern><node id="r" deprel="root"/><checkpoint subtree="r"/></pattern></category></taxonomy>',
        encoding="utf-8",
    )
    code, _out, err = run_cli("build", "--db", tmp_path / "s.db", "--src-lang", "en", "--tgt-lang", "es",
                              "--source-conllu", source, "--reference-conllu", reference, "--alignment", alignment,
                              "--taxonomy", taxonomy)
    assert code == 0, err
    (checkpoint,) = stored(tmp_path / "s.db").checkpoints
    assert checkpoint.source_indices == [0, 1, 2, 3, 4, 5]
    (ref,) = checkpoint.references
    assert (ref.tokens, ref.from_alignment, ref.dm) == (["El", "hombre", "que", "vive", "aquí", "canta", "."], False, 1.0)


def test_pud_en_es_build_covers_every_category(run_cli, tmp_path: Path, demo_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """The gold en PUD with es references: every category of `en` yields check-points."""
    code, out, err = run_cli(
        "build", "--db", tmp_path / "pud.db", "--src-lang", "en", "--tgt-lang", "es",
        "--source-conllu", demo_dir / "en_pud.conllu.gz", "--reference-conllu", demo_dir / "es_pud.conllu.gz",
        "--alignment", demo_dir / "en-es.align",
    )
    assert code == 0, err
    data = stored(tmp_path / "pud.db")
    assert len(data.pairs) == 1000
    per_category = data.summary["per_category"]
    taxonomy = load_taxonomy("en")
    assert list(per_category) == [c.name for c in taxonomy.categories]
    empty = [name for name, count in per_category.items() if count == 0]
    assert empty == []
    # the counts of simple categories follow from the gold tags, less what the alignment leaves unlinked
    found = data.summary["found"]
    assert found["Noun"] == 5734 and found["Pronoun"] == 982 and found["Attribute clause"] == 211
    skipped = data.summary["skipped"]
    assert all(
        per_category[name] == found[name] - sum(counts.get(name, 0) for counts in skipped.values())
        for name in per_category
    )
    # PUD Spanish 577-579 are shifted by one sentence: found out, listed, their check-points skipped
    assert data.summary["skipped_pairs"] == [577, 578, 579]
    assert sum(skipped["pair not parallel"].values()) > 50
    # clauses (reference="aligned") take the aligned projection of their span
    clause_refs = [r for cp in data.checkpoints if cp.category == "Attribute clause" for r in cp.references]
    assert clause_refs and all(r.from_alignment for r in clause_refs)
    assert all(0.1 <= r.dm <= 1.0 for cp in data.checkpoints for r in cp.references)
    assert "1000 sentence pairs" in out


def test_pud_zh_en_build_covers_every_category(run_cli, tmp_path: Path, demo_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """The gold zh PUD with en references and eflomal alignments: every category of `zh` yields check-points."""
    code, _out, err = run_cli(
        "build", "--db", tmp_path / "zh.db", "--src-lang", "zh", "--tgt-lang", "en",
        "--source-conllu", DATA / "taxonomy" / "zh_pud-ud-test.conllu.gz",
        "--reference-conllu", demo_dir / "en_pud.conllu.gz",
        "--alignment", DATA / "build" / "zh-en.align.gz",
    )
    assert code == 0, err
    data = stored(tmp_path / "zh.db")
    assert data.taxonomy == "zh"
    per_category = data.summary["per_category"]
    assert len(per_category) == 23
    assert [name for name, count in per_category.items() if count == 0] == []
    assert per_category["BA sentence"] > 0 and per_category["BEI sentence"] > 0


def test_export_import_export_is_byte_identical(run_cli, tmp_path: Path, table3: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    assert build_table3(run_cli, tmp_path, table3)[0] == 0
    first, second = tmp_path / "one.xml", tmp_path / "two.xml"
    code, _out, err = run_cli("export", "--db", tmp_path / "t3.db", "--output", first)
    assert code == 0, err
    code, _out, err = run_cli("import", "--db", tmp_path / "copy.db", first)
    assert code == 0, err
    code, _out, err = run_cli("export", "--db", tmp_path / "copy.db", "--output", second)
    assert code == 0, err
    assert first.read_bytes() == second.read_bytes()
    assert '<checkpoint id="7" category="Noun phrase">' in first.read_text(encoding="utf-8")
    imported = stored(tmp_path / "copy.db")
    assert imported.user_categories == set()
    assert len(imported.categories) == 20


def test_import_refuses_a_duplicate_name_and_keeps_the_database(run_cli, tmp_path: Path, table3: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    assert build_table3(run_cli, tmp_path, table3)[0] == 0
    xml = tmp_path / "t3.xml"
    assert run_cli("export", "--db", tmp_path / "t3.db", "--output", xml)[0] == 0
    code, _out, err = run_cli("import", "--db", tmp_path / "t3.db", xml)
    assert code == 1
    assert err == "checkpoints: error: a suite named 'table3' already exists in this database: choose another --name, or --replace it\n"
    assert suite_count(tmp_path / "t3.db") == 1
    assert run_cli("import", "--db", tmp_path / "t3.db", "--name", "again", xml)[0] == 0
    assert suite_count(tmp_path / "t3.db") == 2


def _bad_conllu(tmp_path: Path) -> Path:
    path = tmp_path / "bad.conllu"
    path.write_text("1\tThey\tthey\tPRON\tPRP\t_\t0\troot\t_\t_\n2\tgo\tgo\tVERB\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("case", "code", "message"),
    [
        ("missing-source", 1, "{missing}: no such file"),
        ("bad-conllu", 1, "{bad}:2: expected 10 tab-separated columns, found 4"),
        ("sentence-count", 1, "{two}: 2 sentences, but {source} has 1: the files must be parallel"),
        ("alignment-index", 1, "{alignment}:1: link 0-9: target index 9 out of range (sentence has 5 words)"),
        ("alignment-lines", 1, "{alignment}: 2 alignment lines for 1 sentence pairs: one line per pair expected"),
        ("alignment-count", 2, "2 --alignment files for 1 references: give one per reference, in the same order"),
        ("dictionary-line", 1, "{dictionary}:2: expected 'source<TAB>target'"),
        ("unknown-taxonomy", 1, "xx: no such taxonomy file (built-in taxonomies: en, ud, zh)"),
        ("raw-and-conllu", 2, "give either --source/--reference or --source-conllu/--reference-conllu, not both"),
        ("no-reference", 2, "--source-conllu needs at least one --reference-conllu (and the other way round)"),
        ("bad-aligner", 2, "unknown aligner 'giza' (choose eflomal or simalign)"),
    ],
)
def test_bad_inputs_give_one_line_and_store_nothing(
    run_cli, tmp_path: Path, table3: dict[str, Path], case: str, code: int, message: str  # type: ignore[no-untyped-def]
) -> None:
    db = tmp_path / "bad.db"
    paths = {"missing": tmp_path / "missing.conllu", "bad": _bad_conllu(tmp_path), "two": tmp_path / "two.conllu",
             "source": table3["source"], "alignment": tmp_path / "bad.align", "dictionary": tmp_path / "bad.tsv"}
    paths["two"].write_text(ZH_REFERENCE + "\n" + ZH_REFERENCE, encoding="utf-8")
    args: list[object] = ["build", "--db", db, "--src-lang", "en", "--tgt-lang", "zh",
                          "--source-conllu", table3["source"], "--reference-conllu", table3["reference"]]
    if case == "missing-source":
        args[args.index(table3["source"])] = paths["missing"]
    elif case == "bad-conllu":
        args[args.index(table3["reference"])] = paths["bad"]
    elif case == "sentence-count":
        args[args.index(table3["reference"])] = paths["two"]
    elif case == "alignment-index":
        paths["alignment"].write_text("0-9\n", encoding="utf-8")
        args += ["--alignment", paths["alignment"]]
    elif case == "alignment-lines":
        paths["alignment"].write_text("0-0\n1-1\n", encoding="utf-8")
        args += ["--alignment", paths["alignment"]]
    elif case == "alignment-count":
        args += ["--alignment", table3["alignment"], "--alignment", table3["alignment"]]
    elif case == "dictionary-line":
        paths["dictionary"].write_text("they\t他們\noppose 反對\n", encoding="utf-8")
        args += ["--alignment", table3["alignment"], "--dictionary", paths["dictionary"]]
    elif case == "unknown-taxonomy":
        args += ["--alignment", table3["alignment"], "--taxonomy", "xx"]
    elif case == "raw-and-conllu":
        args += ["--source", table3["source"], "--reference", table3["reference"]]
    elif case == "no-reference":
        args = ["build", "--db", db, "--src-lang", "en", "--tgt-lang", "zh", "--source-conllu", table3["source"]]
    elif case == "bad-aligner":
        args += ["--aligner", "giza"]
    status, _out, err = run_cli(*args)
    assert status == code
    expected = "checkpoints: error: " + message.format(**paths)
    assert err.startswith(expected), err
    assert err.count("\n") == 1
    assert not db.exists()


def test_raw_text_without_stanza_models_names_the_download_command(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    source, reference, models = tmp_path / "src.en", tmp_path / "ref.es", tmp_path / "models"
    source.write_text("The house is red.\n", encoding="utf-8")
    reference.write_text("La casa es roja.\n", encoding="utf-8")
    models.mkdir()
    code, _out, err = run_cli("build", "--db", tmp_path / "x.db", "--src-lang", "en", "--tgt-lang", "es",
                              "--source", source, "--reference", reference, "--stanza-dir", models)
    assert code == 1
    assert err.count("\n") == 1
    assert "checkpoints models download en" in err
    assert "--source-conllu" in err
    assert not (tmp_path / "x.db").exists()


def test_a_failed_store_into_an_existing_database_keeps_it(run_cli, tmp_path: Path, table3: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    assert build_table3(run_cli, tmp_path, table3)[0] == 0
    code, _out, err = build_table3(run_cli, tmp_path, table3)
    assert code == 1 and "already exists" in err
    assert suite_count(tmp_path / "t3.db") == 1


def test_gzip_corpus_files_are_read(run_cli, tmp_path: Path, table3: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    packed = tmp_path / "table3-en.conllu.gz"
    packed.write_bytes(gzip.compress(table3["source"].read_bytes()))
    table3 = {**table3, "source": packed}
    assert build_table3(run_cli, tmp_path, table3)[0] == 0
    assert len(stored(tmp_path / "t3.db").checkpoints) == 10


@pytest.mark.parametrize(
    ("source_text", "reference_text", "message"),
    [
        ("The house .\n\nA car .\n", "La casa .\nUn perro .\nUn coche .\n", "{source}:2: empty line: one sentence per line expected"),
        ("The house .\nA car .\n", "La casa .\n", "{reference}: 1 lines, but {source} has 2: the files must be parallel"),
        ("The house .\n", "", "{reference}: the file is empty"),
    ],
)
def test_raw_text_errors_come_before_any_parsing(run_cli, tmp_path: Path, source_text: str, reference_text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    source, reference = tmp_path / "src.en", tmp_path / "ref.es"
    source.write_text(source_text, encoding="utf-8")
    reference.write_text(reference_text, encoding="utf-8")
    code, _out, err = run_cli("build", "--db", tmp_path / "x.db", "--src-lang", "en", "--tgt-lang", "es",
                              "--source", source, "--reference", reference)
    assert code == 1
    assert err == "checkpoints: error: " + message.format(source=source, reference=reference) + "\n"
    assert not (tmp_path / "x.db").exists()


def _first_sentences(path: Path, count: int, output: Path) -> Path:
    """The first ``count`` sentences of a (gzipped) CoNLL-U file, as a file of their own."""
    blocks = gzip.decompress(path.read_bytes()).decode("utf-8").split("\n\n")
    output.write_text("\n\n".join(blocks[:count]) + "\n\n", encoding="utf-8")
    return output


@pytest.mark.skipif(not can_seed(), reason="eflomal cannot be seeded where user namespaces are not allowed")
def test_builds_with_the_same_seed_are_identical(run_cli, tmp_path: Path, demo_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue: three identical en-de builds gave three check-point counts. eflomal now runs seeded:
    the same inputs and seed give the same suite (content hash), and the seed is in its signature."""
    source = _first_sentences(demo_dir / "en_pud.conllu.gz", 150, tmp_path / "en.conllu")
    reference = _first_sentences(demo_dir / "es_pud.conllu.gz", 150, tmp_path / "es.conllu")
    hashes = {}
    for name, seed in (("first", "5"), ("again", "5"), ("other", "6")):
        code, _out, err = run_cli("build", "--db", tmp_path / f"{name}.db", "--src-lang", "en", "--tgt-lang", "es",
                                  "--source-conllu", source, "--reference-conllu", reference, "--seed", seed, "--no-audit")
        assert code == 0, err
        data = stored(tmp_path / f"{name}.db")
        hashes[name] = data.options["content_hash"]
        assert suite_signature(data)["align-seed"] == int(seed)
    assert hashes["first"] == hashes["again"]
    assert hashes["other"] != hashes["first"]
