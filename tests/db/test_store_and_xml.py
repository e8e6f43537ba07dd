"""The store (one transaction per suite) and the interchange XML (schema, round trip, errors)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from checkpoints.db.repo import find_suite, load_suite, store_suite
from checkpoints.db.session import open_engine, transaction
from checkpoints.db.tables import CheckpointBlock, Pair, Suite
from checkpoints.errors import CheckpointsError, InputError, SuiteError
from checkpoints.io.conllu import parse_conllu_string
from checkpoints.model import (
    Alignment,
    Category,
    CheckPoint,
    Level,
    Reference,
    Sentence,
    SentencePair,
    SuiteData,
    Token,
)
from checkpoints.suite_xml import read_suite_xml, suite_xml_bytes, write_suite_xml

CATEGORIES = [Category("Noun", Level.WORD, "nouns"), Category("Preposition phrase", Level.PHRASE, "PPs")]

ARCHITECTURE_EXAMPLE = """<?xml version="1.0" encoding="UTF-8"?>
<suite name="pud-en-es" source-lang="en" target-lang="es" taxonomy="en">
  <pair id="1">
    <source>The new spending is fueled by Clinton 's large bank account .</source>
    <reference id="1">Los nuevos gastos corren a cargo de la gran cuenta bancaria de Clinton .</reference>
    <checkpoint id="7" category="Noun">
      <span>2</span>
      <ref reference="1" dm="1.0">gastos</ref>
    </checkpoint>
    <checkpoint id="8" category="Preposition phrase">
      <span>5 6 7 8 9 10</span>
      <ref reference="1" dm="0.5">de la * de Clinton</ref>
    </checkpoint>
  </pair>
</suite>
"""


def resolve(name: str) -> list[Category] | None:
    return CATEGORIES if name == "en" else None


def words(text: str) -> Sentence:
    return Sentence([Token(form=w) for w in text.split()])


def sample_suite() -> SuiteData:
    source = parse_conllu_string(
        "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\thouse\thouse\tNOUN\tNN\tNumber=Sing\t0\troot\t_\tSpaceAfter=No\n3\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_\n",
        "en",
    )[0]
    pairs = [
        SentencePair(1, source, [words("La casa ."), words("El hogar .")],
                     [Alignment.from_pairs([(0, 0), (1, 1)]), Alignment.from_pairs([(1, 1)])]),
        SentencePair(2, words("in the red house"), [words("en la casa roja"), words("en la casa colorada")],
                     [Alignment.from_pairs([(0, 0), (3, 2)]), Alignment.from_pairs([])]),
    ]
    checkpoints = [
        CheckPoint(1, "Noun", [1], [Reference(0, [1], ["casa"], 0.5), Reference(1, [1], ["hogar"], 1 / 3)], id=1),
        CheckPoint(2, "Preposition phrase", [0, 1, 2, 3], [Reference(0, [0, 2], ["en", "*", "casa"], 1.0)], id=2),
        CheckPoint(2, "My terms", [2], [Reference(0, [3], ["roja"], 0.1)], id=3),
    ]
    return SuiteData(
        name="sample", source_lang="en", target_lang="es", taxonomy="en",
        categories=[*CATEGORIES, Category("My terms", Level.PHRASE, "user list")],
        pairs=pairs, checkpoints=checkpoints, options={"aligner": "pharaoh-files"},
        summary={"pairs": 2}, user_categories={"My terms"},
    )


def test_store_and_load_round_trip(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "s.db")
    data = sample_suite()
    with transaction(engine) as session:
        store_suite(session, data)
    with transaction(engine) as session:
        loaded = load_suite(session)
    assert loaded.name == "sample" and loaded.taxonomy == "en"
    assert [p.source.forms for p in loaded.pairs] == [p.source.forms for p in data.pairs]
    assert loaded.pairs[0].source.tokens[1].feats == {"Number": "Sing"}
    assert loaded.pairs[0].source.text == "The house."
    assert loaded.pairs[0].alignments[0].links == data.pairs[0].alignments[0].links
    assert [(c.id, c.category, c.source_indices) for c in loaded.checkpoints] == [
        (1, "Noun", [1]), (2, "Preposition phrase", [0, 1, 2, 3]), (3, "My terms", [2])]
    assert loaded.checkpoints[0].references[1].dm == 1 / 3
    assert loaded.checkpoints[1].references[0].tokens == ["en", "*", "casa"]
    assert loaded.user_categories == {"My terms"}
    assert loaded.options == {"aligner": "pharaoh-files"}
    engine.dispose()


def test_a_failed_store_leaves_nothing(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "s.db")
    data = sample_suite()
    data.checkpoints.append(CheckPoint(1, "Unknown", [0], [Reference(0, [0], ["La"])], id=4))
    with pytest.raises(SuiteError, match="check-point 4 names unknown category 'Unknown'"), transaction(engine) as session:
        store_suite(session, data)
    with transaction(engine) as session:
        assert session.scalar(select(func.count(Suite.id))) == 0
        assert session.scalar(select(func.count(Pair.id))) == 0
        assert session.scalar(select(func.count(CheckpointBlock.id))) == 0
        with pytest.raises(SuiteError, match="the database holds no suite"):
            find_suite(session)
    engine.dispose()


def test_duplicate_suite_names_and_choosing_a_suite(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "s.db")
    with transaction(engine) as session:
        store_suite(session, sample_suite())
    with pytest.raises(SuiteError, match="a suite named 'sample' already exists"), transaction(engine) as session:
        store_suite(session, sample_suite())
    other = sample_suite()
    other.name = "other"
    with transaction(engine) as session:
        store_suite(session, other)
    with transaction(engine) as session:
        with pytest.raises(SuiteError, match=r"several suites \(sample, other\): choose one with --suite"):
            find_suite(session)
        with pytest.raises(SuiteError, match=r"no suite named 'x' in this database \(suites: sample, other\)"):
            find_suite(session, "x")
        assert load_suite(session, "other").name == "other"
    engine.dispose()


def test_read_only_commands_do_not_create_databases(tmp_path: Path) -> None:
    with pytest.raises(CheckpointsError, match="no such database"):
        open_engine(tmp_path / "missing.db", create=False)
    assert not (tmp_path / "missing.db").exists()


def test_architecture_example_imports(tmp_path: Path) -> None:
    path = tmp_path / "example.xml"
    path.write_text(ARCHITECTURE_EXAMPLE, encoding="utf-8")
    data = read_suite_xml(path, resolve)
    assert (data.name, data.source_lang, data.target_lang, data.taxonomy) == ("pud-en-es", "en", "es", "en")
    assert data.pairs[0].source.forms[6] == "Clinton"
    (noun, pp) = data.checkpoints
    assert (noun.id, noun.category, noun.source_indices) == (7, "Noun", [2])
    assert pp.references[0].tokens == ["de", "la", "*", "de", "Clinton"]
    assert pp.references[0].dm == 0.5
    assert data.user_categories == set()
    # the example is already in canonical form: export gives the same bytes
    assert suite_xml_bytes(data) == ARCHITECTURE_EXAMPLE.encode("utf-8")


def test_export_import_export_is_byte_identical(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "a.db")
    with transaction(engine) as session:
        store_suite(session, sample_suite())
    with transaction(engine) as session:
        first = load_suite(session)
    one = tmp_path / "one.xml"
    write_suite_xml(first, one)
    second_engine = open_engine(tmp_path / "b.db")
    with transaction(second_engine) as session:
        store_suite(session, read_suite_xml(one, resolve))
    with transaction(second_engine) as session:
        again = load_suite(session)
    two = tmp_path / "two.xml"
    write_suite_xml(again, two)
    assert one.read_bytes() == two.read_bytes()
    text = one.read_text(encoding="utf-8")
    assert '<checkpoint id="3" category="My terms" level="phrase">' in text
    assert '<ref reference="2" dm="0.3333333333333333">hogar</ref>' in text
    assert again.category("My terms").level is Level.PHRASE
    engine.dispose()
    second_engine.dispose()


def test_tokens_with_spaces_survive_export(tmp_path: Path) -> None:
    data = sample_suite()
    data.pairs[1].references[0].tokens[0] = Token(form="10 000")
    text = suite_xml_bytes(data).decode("utf-8")
    # the stale text ("en la casa roja") is kept beside the tokens, which say "10 000"
    assert "<reference id=\"1\" text=\"en la casa roja\">10\u00a0000 la casa roja</reference>" in text
    path = tmp_path / "s.xml"
    path.write_text(text, encoding="utf-8")
    assert read_suite_xml(path, resolve).pairs[1].references[0].forms[0] == "10\u00a0000"


@pytest.mark.parametrize(
    ("replace", "by", "line", "message"),
    [
        ('<span>2</span>', '<span>2 x</span>', 7, "does not follow the suite schema: Element 'span': [facet 'pattern']"),
        ('dm="0.5"', 'dm="1.5"', 12, "does not follow the suite schema: Element 'ref', attribute 'dm': [facet 'maxInclusive']"),
        ('<ref reference="1" dm="0.5">', '<ref reference="2" dm="0.5">', 12, "ref names reference 2, which pair 1 does not have"),
        ('<span>5 6 7 8 9 10</span>', '<span>5 6 7 8 9 13</span>', 10, "span index 13 out of range (the source has 12 tokens)"),
        ('<span>5 6 7 8 9 10</span>', '<span>6 5</span>', 10, "span indices must be increasing and distinct"),
        ('category="Noun"', 'category="Noun" level="phrase"', 6, "category 'Noun' is word-level, the file says phrase"),
        ('<checkpoint id="8"', '<checkpoint id="7"', 10, "check-point id 7 is used twice (first on line 6)"),
        ("</suite>", "", 16, "not well-formed XML: Premature end of data in tag suite line 2"),
    ],
)
def test_bad_xml_gives_one_line_errors(tmp_path: Path, replace: str, by: str, line: int, message: str) -> None:
    path = tmp_path / "bad.xml"
    path.write_text(ARCHITECTURE_EXAMPLE.replace(replace, by, 1), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_suite_xml(path, resolve)
    assert str(caught.value).startswith(f"{path}:{line}: {message}")
    assert "\n" not in str(caught.value)


def test_doctype_and_entities_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "evil.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE suite [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        + ARCHITECTURE_EXAMPLE.split("\n", 1)[1].replace("gastos</ref>", "&x;</ref>"),
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="a DOCTYPE is not allowed here"):
        read_suite_xml(path, resolve)


def test_unknown_taxonomy_makes_user_categories(tmp_path: Path) -> None:
    path = tmp_path / "x.xml"
    path.write_text(ARCHITECTURE_EXAMPLE.replace('taxonomy="en"', 'taxonomy="mine"'), encoding="utf-8")
    data = read_suite_xml(path, resolve)
    assert data.user_categories == {"Noun", "Preposition phrase"}
    assert data.category("Preposition phrase").level is Level.WORD


def test_deleting_a_suite_leaves_the_others_whole(tmp_path: Path, run_cli, demo_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """The demo suite (with two evaluated systems and a comparison) is deleted table by table;
    a second suite in the same database keeps every row."""
    from checkpoints.db import tables as models
    from checkpoints.db.repo import delete_suite

    db = tmp_path / "two.db"
    assert run_cli("demo", "--db", db, "--samples", "10")[0] == 0
    engine = open_engine(db)
    with transaction(engine) as session:
        store_suite(session, sample_suite())
    tables = [models.Pair, models.SentenceRow, models.AlignmentRow, models.CategoryRow, models.CheckpointBlock,
              models.SystemRow, models.RunRow, models.TranslationRow,
              models.CheckpointResultRow, models.CategoryResultRow]
    with transaction(engine) as session:
        before = {t.__tablename__: session.scalar(select(func.count()).select_from(t)) for t in tables}
        sample = load_suite(session, "sample")
    with transaction(engine) as session:
        delete_suite(session, "pud-en-es-demo")
    with transaction(engine) as session:
        after = {t.__tablename__: session.scalar(select(func.count()).select_from(t)) for t in tables}
        assert load_suite(session, "sample") == sample
        assert session.scalar(select(func.count(Suite.id))) == 1
    engine.dispose()
    assert before["checkpoint_result"] > 0 and after["checkpoint_result"] == 0 and after["run"] == 0
    assert after["pair"] == len(sample.pairs) and after["checkpoint_block"] == 1
