"""The suite interchange XML: sentence texts, old files, category findings and one-line errors."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from checkpoints.errors import InputError
from checkpoints.io.conllu import parse_conllu_string
from checkpoints.model import Category, CheckPoint, Level, Reference, SentencePair, SuiteData
from checkpoints.suite_xml import load_suite_xml, read_suite_xml, suite_xml_bytes, write_suite_xml

CATEGORIES = [Category("Noun", Level.WORD, "nouns"), Category("Noun clause", Level.SENTENCE, "clauses")]

# An export from before sentence texts were kept: no text attributes. It must keep importing.
OLD_STYLE = """<?xml version="1.0" encoding="UTF-8"?>
<suite name="old" source-lang="en" target-lang="es" taxonomy="en">
  <pair id="1">
    <source>Hello , world .</source>
    <reference id="1">Hola , mundo .</reference>
    <checkpoint id="1" category="Noun">
      <span>2</span>
      <ref reference="1" dm="1.0">mundo</ref>
    </checkpoint>
  </pair>
</suite>
"""

SOURCE = """# text = Hello, world.
1\tHello\thello\tINTJ\tUH\t_\t3\tdiscourse\t_\tSpaceAfter=No
2\t,\t,\tPUNCT\t,\t_\t3\tpunct\t_\t_
3\tworld\tworld\tNOUN\tNN\t_\t0\troot\t_\tSpaceAfter=No
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_
"""

REFERENCE = """# text = Juan vino del mar.
1\tJuan\tJuan\tPROPN\t_\t_\t2\tnsubj\t_\t_
2\tvino\tvenir\tVERB\t_\t_\t0\troot\t_\t_
3-4\tdel\t_\t_\t_\t_\t_\t_\t_\t_
3\tde\tde\tADP\t_\t_\t5\tcase\t_\t_
4\tel\tel\tDET\t_\t_\t5\tdet\t_\t_
5\tmar\tmar\tNOUN\t_\t_\t2\tobl\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_
"""


def resolve(name: str) -> list[Category] | None:
    return CATEGORIES if name == "en" else None


def suite() -> SuiteData:
    source = parse_conllu_string(SOURCE, "en")[0]
    reference = parse_conllu_string(REFERENCE, "es")[0]
    plain = parse_conllu_string("1\tmar\tmar\tNOUN\t_\t_\t0\troot\t_\t_\n", "es")[0]
    plain.text = 'el "mar" & <la> mar\nsegunda línea'
    pairs = [SentencePair(1, source, [reference, plain], [])]
    checkpoints = [
        CheckPoint(1, "Noun", [2], [Reference(0, [4], ["mar"], 0.5), Reference(1, [0], ["mar"])], id=1),
        CheckPoint(1, "Noun clause", [0, 1, 2, 3], [Reference(0, [], ["Juan", "vino", "de", "el", "mar", "."])], id=2),
    ]
    return SuiteData("texts", "en", "es", "en", CATEGORIES, pairs, checkpoints)


def test_sentence_texts_survive_export_and_import(tmp_path: Path) -> None:
    original = suite()
    path = tmp_path / "suite.xml"
    write_suite_xml(original, path)
    text = path.read_text(encoding="utf-8")
    assert '<source text="Hello, world.">Hello , world .</source>' in text
    assert '<reference id="1" text="Juan vino del mar.">Juan vino de el mar .</reference>' in text
    again = read_suite_xml(path, resolve)
    assert again.pairs[0].source.text == "Hello, world."
    assert [r.text for r in again.pairs[0].references] == [r.text for r in original.pairs[0].references]
    assert again.pairs[0].references[1].text == 'el "mar" & <la> mar\nsegunda línea'
    assert again.pairs[0].references[0].forms == ["Juan", "vino", "de", "el", "mar", "."]
    # and the second export is byte-identical
    assert suite_xml_bytes(again) == path.read_bytes()


def test_text_is_written_only_where_the_tokens_do_not_say_it(tmp_path: Path) -> None:
    data = suite()
    data.pairs[0].references[1] = parse_conllu_string("1\tmar\tmar\tNOUN\t_\t_\t0\troot\t_\t_\n", "es")[0]
    text = suite_xml_bytes(data).decode("utf-8")
    assert '<reference id="2">mar</reference>' in text


def test_old_style_files_without_texts_still_import(tmp_path: Path) -> None:
    path = tmp_path / "old.xml"
    path.write_text(OLD_STYLE, encoding="utf-8")
    data = read_suite_xml(path, resolve)
    assert data.pairs[0].source.text == "Hello , world ."
    assert data.pairs[0].references[0].text == "Hola , mundo ."
    assert suite_xml_bytes(data) == OLD_STYLE.encode("utf-8")


def test_comments_and_gzip_compressed_files_are_read(tmp_path: Path) -> None:
    path = tmp_path / "suite.xml.gz"
    path.write_bytes(gzip.compress(OLD_STYLE.replace("<checkpoint", "<!-- a note -->\n    <checkpoint").encode()))
    assert read_suite_xml(path, resolve).checkpoints[0].references[0].tokens == ["mundo"]


def test_findings_name_undeclared_categories_with_counts(tmp_path: Path) -> None:
    body = OLD_STYLE.split("  </pair>")[0]
    checkpoints = "".join(
        f'    <checkpoint id="{n}" category="{name}"{level}><span>0</span><ref reference="1">x</ref></checkpoint>\n'
        for n, name, level in [(2, "Bogus", ""), (3, "Noun ", ""), (4, "Bogus", ""), (5, "Mine", ' level="phrase"')]
    )
    path = tmp_path / "odd.xml"
    path.write_text(body + checkpoints + "  </pair>\n</suite>\n", encoding="utf-8")
    imported = load_suite_xml(path, resolve)
    findings = imported.findings
    assert findings.taxonomy_known and not findings.clean
    assert findings.undeclared == {"Bogus": 2, "Noun ": 1}
    assert findings.undeclared_checkpoints == 3
    assert imported.suite.user_categories == {"Bogus", "Noun ", "Mine"}
    assert imported.suite.category("Mine").level is Level.PHRASE

    path.write_text(OLD_STYLE.replace('taxonomy="en"', 'taxonomy="klingon"'), encoding="utf-8")
    findings = load_suite_xml(path, resolve).findings
    assert not findings.taxonomy_known and findings.user_categories == 1

    path.write_text(OLD_STYLE, encoding="utf-8")
    assert load_suite_xml(path, resolve).findings.clean


def test_the_default_resolver_knows_the_built_in_taxonomies(tmp_path: Path) -> None:
    path = tmp_path / "suite.xml"
    path.write_text(OLD_STYLE.replace('category="Noun"', 'category="Noun phrase"'), encoding="utf-8")
    imported = load_suite_xml(path)
    assert imported.findings.clean
    assert imported.suite.category("Noun phrase").level is Level.PHRASE
    assert len(imported.suite.categories) == 20


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        pytest.param(b"", None, "empty file: expected XML", id="empty"),
        pytest.param(b"  \n", None, "empty file: expected XML", id="blank"),
        pytest.param(b"1\tHello\thello\n", 1, "not well-formed XML: Start tag expected, '<' not found", id="not XML"),
        pytest.param(b"\x1f\x8b\x08\x00broken", None, "not a readable gzip file", id="broken gzip"),
        pytest.param(
            OLD_STYLE.replace('<reference id="1">', '<reference>').encode(), 5,
            "does not follow the suite schema: Element 'reference': The attribute 'id' is required but missing.",
            id="schema",
        ),
        pytest.param(
            OLD_STYLE.replace("<source>Hello , world .</source>", "<source> \n </source>").encode(), 4,
            "does not follow the suite schema: Element 'source': [facet 'minLength']", id="blank source",
        ),
        pytest.param(
            OLD_STYLE.replace("  </pair>\n", '  </pair>\n  <pair id="1"><source>a</source><reference id="1">b</reference></pair>\n').encode(),
            11, "pair id 1 is used twice (first on line 3)", id="duplicate pair",
        ),
        pytest.param(
            OLD_STYLE.replace("    <checkpoint", '    <reference id="1">otra</reference>\n    <checkpoint').encode(),
            6, "reference id 1 is used twice in pair 1 (first on line 5)", id="duplicate reference",
        ),
        pytest.param(
            OLD_STYLE.replace('<suite name="old"', '<suite name="old" name="again"').encode(), 2,
            "not well-formed XML: Attribute name redefined", id="attribute twice",
        ),
    ],
)
def test_bad_files_give_one_line_errors(tmp_path: Path, content: bytes, line: int | None, message: str) -> None:
    path = tmp_path / "bad.xml"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        read_suite_xml(path, resolve)
    where = f"{path}:{line}" if line is not None else str(path)
    assert str(caught.value).startswith(f"{where}: {message}")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("where", ["text", "attribute"])
def test_values_over_the_parser_limit_are_one_line_errors(tmp_path: Path, where: str) -> None:
    """lxml refuses a value over 10 MB without ``huge_tree``; with it the schema validator
    fails inside: either way the user gets the file and line, not a traceback."""
    huge = "w " * 5_500_000
    content = (
        OLD_STYLE.replace("Hola , mundo .", huge) if where == "text"
        else OLD_STYLE.replace('name="old"', f'name="{huge}"')
    )
    path = tmp_path / "huge.xml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_suite_xml(path, resolve)
    line = 5 if where == "text" else 2
    assert str(caught.value) == (
        f"{path}:{line}: not well-formed XML: a value longer than 10,000,000 bytes (the limit for one text or attribute value)"
    )


def test_a_missing_file_and_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"missing\.xml: no such file$"):
        read_suite_xml(tmp_path / "missing.xml", resolve)
    with pytest.raises(InputError, match=r"is a directory, not a file$"):
        read_suite_xml(tmp_path, resolve)


TRICKY = 'a & b < c > d " e \' f\tg\nh\ri é 中 \u00a0'


def test_the_writer_escapes_values_as_lxml_does(tmp_path: Path) -> None:
    """The writer formats text itself (for speed): its escaping must be libxml2's, and every
    value must read back unchanged."""
    from lxml import etree

    data = suite()
    data.name = TRICKY
    data.pairs[0].references[1].text = TRICKY
    data.checkpoints[0].references[1].tokens = ["<&>", '"x"']
    written = suite_xml_bytes(data)
    element = etree.Element("reference", id="2", text=TRICKY)
    element.text = "mar"
    assert etree.tostring(element, encoding="UTF-8").split(b"\n", 1)[-1] in written
    element = etree.Element("ref", reference="2", dm="1.0")
    element.text = '<&> "x"'
    assert etree.tostring(element, encoding="UTF-8").split(b"\n", 1)[-1] in written
    path = tmp_path / "tricky.xml"
    path.write_bytes(written)
    again = read_suite_xml(path, resolve)
    assert again.name == TRICKY
    assert again.pairs[0].references[1].text == TRICKY
    assert again.checkpoints[0].references[1].tokens == ["<&>", '"x"']


def test_a_character_xml_cannot_hold_names_its_pair() -> None:
    from checkpoints.errors import OutputError

    data = suite()
    data.pairs[0].source.text = "Hello,\x0cworld."
    with pytest.raises(OutputError, match=r"^cannot write the suite as XML: pair 1 holds U\+000C, a character XML cannot hold$"):
        suite_xml_bytes(data)
