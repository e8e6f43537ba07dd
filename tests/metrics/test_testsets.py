"""Readers for metric test sets: raw text, NIST SGML, NIST XML (Metrics MaTr), WMT XML.

Conventions checked against the Asiya 3.0 manual §3.3 (raw input: file name
as id, one document UNKNOWN_DOC, segment ids = line numbers from 1) and the
mteval input format (iqmt-koehn-reference C.2: several references as several
<doc> elements with different sysid values; case-insensitive tags).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import InputError, UsageError
from checkpoints.io.testsets import (
    UNKNOWN_DOC,
    InputFormat,
    SetKind,
    load_testbed,
    read_nist,
    read_nist_sgml,
    read_nist_xml,
    read_raw,
    read_wmt_xml,
)

DATA = Path(__file__).parent.parent / "data" / "metrics" / "formats"


def by_name(sets):
    return {(s.kind, s.name): s for s in sets}


# --- raw text -----------------------------------------------------------------


def test_raw_follows_asiya_conventions() -> None:
    text_set = read_raw(DATA / "ref1.txt", SetKind.REFERENCE)
    assert text_set.name == "ref1.txt"  # Asiya: the id is the file name
    assert text_set.doc_ids == (UNKNOWN_DOC,) * 3
    assert text_set.seg_ids == ("1", "2", "3")
    assert text_set.segments[2] == "Prices rose by 3 & 4 per cent."
    assert text_set.set_id is None


def test_raw_keeps_empty_lines_of_a_system(tmp_path: Path) -> None:
    path = tmp_path / "sys.txt"
    path.write_text("first\n\nthird\n", encoding="utf-8")
    assert read_raw(path, SetKind.SYSTEM, "S").segments == ("first", "", "third")


def test_raw_empty_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match=r"empty\.txt: the file is empty$"):
        read_raw(path, SetKind.REFERENCE)


def test_raw_missing_file() -> None:
    with pytest.raises(InputError, match=r"nope\.txt: no such file$"):
        read_raw(DATA / "nope.txt", SetKind.REFERENCE)


def test_raw_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(b"fine\nbad \xff byte\n")
    with pytest.raises(InputError, match=r"bad\.txt:2: not valid UTF-8"):
        read_raw(path, SetKind.SYSTEM, "S")


# --- NIST SGML ------------------------------------------------------------------


def test_sgml_source() -> None:
    (source,) = read_nist_sgml(DATA / "src.sgm")
    assert source.kind is SetKind.SOURCE
    assert source.set_id == "sample-set"
    assert source.language == "en"
    assert source.keys() == [("news.1", "1"), ("news.1", "2"), ("news.2", "1")]
    assert source.segments[2] == "Prices rose by 3 & 4 percent."  # &amp; decoded
    assert source.lines == (4, 5, 9)


def test_sgml_several_references_by_sysid_uppercase_unquoted() -> None:
    sets = by_name(read_nist_sgml(DATA / "ref.sgm"))
    assert set(sets) == {(SetKind.REFERENCE, "ref1"), (SetKind.REFERENCE, "ref2")}
    ref1 = sets[SetKind.REFERENCE, "ref1"]
    # a segment broken over two lines is one segment, whitespace collapsed
    assert ref1.segments[1] == "Officials said talks would resume on Monday."
    assert ref1.language == "en"
    assert sets[SetKind.REFERENCE, "ref2"].keys() == [("news.1", "1"), ("news.1", "2"), ("news.2", "1")]


def test_sgml_systems_keep_file_order() -> None:
    sets = by_name(read_nist_sgml(DATA / "tst.sgm"))
    system_a = sets[SetKind.SYSTEM, "sysA"]
    assert system_a.keys() == [("news.2", "1"), ("news.1", "2"), ("news.1", "1")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('<refset setid="s">\n<doc sysid="r">\n<seg id="1">x</seg>\n</doc>\n</refset>\n', r":2: <doc> without a docid attribute$"),
        ('<refset setid="s">\n<doc docid="d" sysid="r">\n<seg id="1">x\n<seg id="2">y</seg>\n</doc>\n</refset>\n', r":3: <seg> not closed$"),
        ('<refset setid="s">\n<seg id="1">x</seg>\n</refset>\n', r":2: <seg> outside <doc>$"),
        ('<refset setid="s">\n<doc docid="d" sysid="r">\n<seg id="1">x</seg>\n</refset>\n', r":4: </refset> inside an open <doc>$"),
        ('<refset setid="s">\n<doc docid="d" sysid="r">\n<seg id="1">x</seg>\n<seg id="1">y</seg>\n</doc>\n</refset>\n',
         r":4: segment 1 of document d given twice for r \(first at line 3\)$"),
        ('<doc docid="d">\n<seg id="1">x</seg>\n</doc>\n', r":1: <doc> outside <srcset>, <refset> or <tstset>$"),
        ('<srcset setid="s">\n', r":1: set element not closed before the end of the file$"),
        ("just some text\n", r"bad\.sgm: no <srcset>, <refset> or <tstset> with segments: not a NIST SGML file$"),
        ('<tstset setid="s">\n<doc docid="d" sysid="r">\n<seg id="1">x</seg>\n', r":2: <doc> not closed before the end of the file$"),
    ],
    ids=["no-docid", "unclosed-seg", "seg-outside-doc", "unclosed-doc", "duplicate-seg", "doc-outside-set", "unclosed-set", "not-sgml", "truncated"],
)
def test_sgml_errors_name_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.sgm"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_nist_sgml(path)


# --- NIST XML ---------------------------------------------------------------------


def test_nist_xml_reads_all_three_sets() -> None:
    sets = by_name(read_nist_xml(DATA / "nist.xml"))
    assert set(sets) == {(SetKind.SOURCE, "source"), (SetKind.REFERENCE, "ref1"), (SetKind.SYSTEM, "sysA")}
    source = sets[SetKind.SOURCE, "source"]
    assert source.segments[0] == "The new spending is fueled by a large bank account."  # inside <p>
    assert source.language == "English"
    assert sets[SetKind.REFERENCE, "ref1"].segments[1] == "Officials said talks would resume on Monday."
    assert sets[SetKind.SYSTEM, "sysA"].keys() == [("news.2", "1"), ("news.1", "1"), ("news.1", "2")]
    assert sets[SetKind.SYSTEM, "sysA"].set_id == "sample-set"


def test_read_nist_tells_xml_from_sgml() -> None:
    assert {s.name for s in read_nist(DATA / "nist.xml")} == {"source", "ref1", "sysA"}
    assert {s.name for s in read_nist(DATA / "ref.sgm")} == {"ref1", "ref2"}


def test_nist_xml_not_well_formed_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<mteval>\n<refset refid="r">\n<doc docid="d">\n<seg id="1">x</sge>\n</doc>\n</refset>\n</mteval>\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"broken\.xml:5: not well-formed XML: .*seg"):
        read_nist_xml(path)


def test_nist_xml_entities_are_not_expanded(tmp_path: Path) -> None:
    path = tmp_path / "xxe.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE mteval [<!ENTITY secret SYSTEM "file:///etc/hostname">]>\n'
        '<mteval><refset refid="r"><doc docid="d"><seg id="1">a &secret; b</seg></doc></refset></mteval>\n',
        encoding="utf-8",
    )
    (reference,) = read_nist_xml(path)
    assert reference.segments == ("a b",)


# --- WMT XML -----------------------------------------------------------------------


def test_wmt_xml_source_references_and_systems() -> None:
    sets = by_name(read_wmt_xml(DATA / "wmt.xml"))
    assert set(sets) == {
        (SetKind.SOURCE, "source"),
        (SetKind.REFERENCE, "A"),
        (SetKind.REFERENCE, "B"),
        (SetKind.SYSTEM, "sysX"),
        (SetKind.SYSTEM, "sysY"),
    }
    source = sets[SetKind.SOURCE, "source"]
    # the test-suite document is skipped, as sacreBLEU does
    assert source.keys() == [("talk.1", "1"), ("talk.1", "2"), ("talk.2", "1")]
    assert source.set_id == "sampletest2021"
    assert sets[SetKind.REFERENCE, "B"].language == "de"
    assert sets[SetKind.SYSTEM, "sysY"].segments == (
        "Offizielle sagten, die Gespräche werden Montag weitergehen.",
        "Die neue Ausgabe wird von einem großen Bankkonto angetrieben.",
        "",
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('<mteval/>\n', r":1: root element <mteval>, expected <dataset> \(WMT XML\)$"),
        ('<dataset id="x">\n<collection>\n<doc origlang="en">\n</doc>\n</collection>\n</dataset>\n', r":3: <doc> without an id attribute$"),
        ('<dataset id="x">\n<collection>\n<doc id="d">\n<hyp lang="de">\n<p><seg id="1">x</seg></p>\n</hyp>\n</doc>\n</collection>\n</dataset>\n',
         r":4: <hyp> without a system attribute$"),
        ('<dataset id="x">\n<collection>\n<doc id="d">\n<src lang="en">\n<p><seg>x</seg></p>\n</src>\n</doc>\n</collection>\n</dataset>\n',
         r":5: <seg> without an id attribute$"),
        ('<dataset id="x">\n<collection>\n</collection>\n</dataset>\n', r"bad\.xml: no <src>, <ref> or <hyp> segments: not a WMT XML test set$"),
        ('<dataset id="x">\n<collection>\n<doc id="d">\n</collection>\n</dataset>\n', r"bad\.xml:4: not well-formed XML"),
    ],
    ids=["wrong-root", "doc-without-id", "hyp-without-system", "seg-without-id", "no-segments", "not-well-formed"],
)
def test_wmt_xml_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.xml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_wmt_xml(path)


# --- putting sets side by side -------------------------------------------------------


def test_testbed_from_sgml_aligns_systems_to_the_source_order() -> None:
    testbed = load_testbed(
        InputFormat.NIST,
        [DATA / "ref.sgm"],
        [(None, DATA / "tst.sgm")],
        source=DATA / "src.sgm",
    )
    assert testbed.doc_ids == ("news.1", "news.1", "news.2")
    assert testbed.seg_ids == ("1", "2", "1")
    assert [r.name for r in testbed.references] == ["ref1", "ref2"]
    assert testbed.reference_set_name == "ref1_ref2"
    assert testbed.set_id == "sample-set"
    assert testbed.documents == ["news.1", "news.2"]
    system_a = testbed.system("sysA")
    assert system_a.segments == (
        "The new spending is fuelled by a bank account.",
        "Officials said the talks resume Monday.",
        "Prices rose by 3 & 4 percent.",
    )
    assert [s.name for s in testbed.systems] == ["sysA", "sysB"]


def test_testbed_named_system_from_a_file_with_several() -> None:
    testbed = load_testbed(InputFormat.NIST, [DATA / "ref.sgm"], [("sysB", DATA / "tst.sgm")])
    assert [s.name for s in testbed.systems] == ["sysB"]
    assert testbed.source is None
    assert testbed.doc_ids == ("news.1", "news.1", "news.2")  # the first reference's order


def test_testbed_single_system_renamed() -> None:
    testbed = load_testbed(InputFormat.NIST, [DATA / "nist.xml"], [("mine", DATA / "nist.xml")])
    assert [s.name for s in testbed.systems] == ["mine"]
    assert testbed.source is not None and testbed.source.name == "source"  # taken from the reference file
    assert testbed.system("mine").segments[0] == "The new spending is fuelled by a bank account."


def test_testbed_unknown_system_in_xml_file() -> None:
    with pytest.raises(InputError, match=r"tst\.sgm: no system 'sysC' in this file \(systems: sysA, sysB\)$"):
        load_testbed(InputFormat.NIST, [DATA / "ref.sgm"], [("sysC", DATA / "tst.sgm")])


def test_testbed_from_wmt_xml_one_file() -> None:
    path = DATA / "wmt.xml"
    testbed = load_testbed(InputFormat.WMT, [path], [(None, path)])
    assert [r.name for r in testbed.references] == ["A", "B"]
    assert [s.name for s in testbed.systems] == ["sysX", "sysY"]
    assert testbed.system("sysY").segments[0] == "Die neue Ausgabe wird von einem großen Bankkonto angetrieben."
    assert testbed.set_id == "sampletest2021"


def test_testbed_raw() -> None:
    testbed = load_testbed(InputFormat.RAW, [DATA / "ref1.txt", DATA / "ref2.txt"], [("A", DATA / "sysA.txt")])
    assert testbed.n_segments == 3
    assert testbed.reference_set_name == "ref1.txt_ref2.txt"
    assert testbed.set_id == "ref1"
    assert testbed.seg_ids == ("1", "2", "3")


def test_testbed_raw_source_with_wrong_number_of_lines() -> None:
    with pytest.raises(InputError, match=r"short\.txt: 2 lines, expected 3$"):
        load_testbed(InputFormat.RAW, [DATA / "ref1.txt"], [("A", DATA / "sysA.txt")], source=DATA / "short.txt")


def test_testbed_raw_source() -> None:
    testbed = load_testbed(InputFormat.RAW, [DATA / "ref1.txt"], [("A", DATA / "sysA.txt")], source=DATA / "ref2.txt")
    assert testbed.source is not None
    assert testbed.source.name == "source"
    assert testbed.source.segments[1] == "The talks will resume Monday, officials said."


def test_testbed_raw_wrong_number_of_lines() -> None:
    with pytest.raises(InputError, match=r"short\.txt: 2 lines, expected 3$"):
        load_testbed(InputFormat.RAW, [DATA / "ref1.txt"], [("B", DATA / "short.txt")])


def test_testbed_raw_needs_system_names() -> None:
    with pytest.raises(UsageError, match=r"sysA.txt: a raw-text system output needs a name$"):
        load_testbed(InputFormat.RAW, [DATA / "ref1.txt"], [(None, DATA / "sysA.txt")])


def test_testbed_duplicate_system_names() -> None:
    with pytest.raises(UsageError, match=r"two systems named 'A'"):
        load_testbed(InputFormat.RAW, [DATA / "ref1.txt"], [("A", DATA / "sysA.txt"), ("A", DATA / "ref2.txt")])


def test_testbed_system_missing_a_segment(tmp_path: Path) -> None:
    path = tmp_path / "partial.sgm"
    path.write_text('<tstset setid="s">\n<doc docid="news.1" sysid="S">\n<seg id="1">x</seg>\n</doc>\n</tstset>\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"partial\.sgm: S: no segment 2 in document news\.1$"):
        load_testbed(InputFormat.NIST, [DATA / "ref.sgm"], [(None, path)])


def test_testbed_system_with_an_extra_segment(tmp_path: Path) -> None:
    path = tmp_path / "extra.sgm"
    path.write_text(
        '<tstset setid="s">\n<doc docid="news.1" sysid="S">\n<seg id="1">x</seg>\n<seg id="2">y</seg>\n</doc>\n'
        '<doc docid="news.2" sysid="S">\n<seg id="1">z</seg>\n<seg id="2">extra</seg>\n</doc>\n</tstset>\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"extra\.sgm:8: S: segment 2 of document news\.2 is not in the test set \(4 segments, expected 3\)$"):
        load_testbed(InputFormat.NIST, [DATA / "ref.sgm"], [(None, path)])


def test_testbed_reference_file_without_references() -> None:
    with pytest.raises(InputError, match=r"tst\.sgm: no reference translation in this file$"):
        load_testbed(InputFormat.NIST, [DATA / "tst.sgm"], [(None, DATA / "tst.sgm")])


def test_testbed_target_language_is_what_the_files_declare() -> None:
    wmt = DATA / "wmt.xml"  # <ref lang="de">, <hyp lang="de">
    assert load_testbed(InputFormat.WMT, [wmt], [(None, wmt)]).target_language == "de"
    nist = DATA / "nist.xml"  # trglang="English": NIST names languages in words
    assert load_testbed(InputFormat.NIST, [nist], [("mine", nist)]).target_language == "en"
    raw = load_testbed(InputFormat.RAW, [DATA / "ref1.txt"], [("A", DATA / "sysA.txt")])
    assert raw.target_language is None  # raw text does not say


def test_a_billion_laughs_file_is_refused_in_plain_words(tmp_path: Path) -> None:
    entities = "".join(
        f'<!ENTITY {name} "{("&" + previous + ";") * 10 if previous else "aaaaaaaaaa"}">\n'
        for previous, name in zip(["", *"abcdefg"], "abcdefgh", strict=True)
    )
    path = tmp_path / "laughs.xml"
    path.write_text(
        f'<?xml version="1.0"?>\n<!DOCTYPE mteval [\n{entities}]>\n'
        '<mteval><refset setid="x" refid="r"><doc docid="d"><seg id="1">&h;</seg></doc></refset></mteval>\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        read_nist_xml(path)
    assert str(caught.value) == (
        f"{path}:1: not well-formed XML: entities that expand to far more text than the file holds "
        "(a 'billion laughs' attack): refused")
