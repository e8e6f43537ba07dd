"""Loading taxonomy files: built-ins, user files, and one-line FILE:LINE errors for every bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import TaxonomyError
from checkpoints.model import Level
from checkpoints.taxonomy import builtin_taxonomies, load_taxonomy, validate_taxonomy

HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n'


def write(tmp_path: Path, body: str, name: str = "mine.xml") -> Path:
    """A taxonomy file whose line 2 is the <taxonomy> element (line numbers below count from it)."""
    path = tmp_path / name
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def category(inner: str, name: str = "Thing", level: str = "word") -> str:
    return f'<category name="{name}" level="{level}">\n<description>d</description>\n{inner}\n</category>\n'


def taxonomy(*categories: str) -> str:
    return '<taxonomy name="t" language="en" version="2">\n' + "".join(categories) + "</taxonomy>\n"


def error_of(path: Path) -> str:
    with pytest.raises(TaxonomyError) as caught:
        validate_taxonomy(path)
    message = str(caught.value)
    assert "\n" not in message
    return message


# -- built-ins -------------------------------------------------------------------


def test_builtin_names() -> None:
    assert builtin_taxonomies() == ["en", "ud", "zh"]


def test_english_taxonomy_has_the_twenty_categories_of_zhou_table_2() -> None:
    en = load_taxonomy("en")
    assert (en.name, en.language, en.version) == ("en", "en", "1")
    assert en.builtin and en.path is not None and en.path.name == "en.xml"
    by_level = {level: [c.name for c in en.categories if c.level is level] for level in Level}
    assert by_level[Level.WORD] == [
        "Noun",
        "Verb",
        "Modal verb",
        "Adjective",
        "Adverb",
        "Pronoun",
        "Preposition",
        "Ambiguous word",
        "Plurality",
        "Possessive",
        "Comparative & superlative degree",
    ]
    assert by_level[Level.PHRASE] == ["Noun phrase", "Verb phrase", "Adjective phrase", "Adverb phrase", "Preposition phrase"]
    assert by_level[Level.SENTENCE] == ["Attribute clause", "Adverbial clause", "Noun clause", "Hyperbaton"]
    assert all(c.description for c in en.categories)


def test_chinese_taxonomy_has_table_1_plus_predicate_complement() -> None:
    zh = load_taxonomy("zh")
    names = [c.name for c in zh.categories]
    assert names == [
        "Ambiguous word",
        "New word",
        "Idiom",
        "Noun",
        "Verb",
        "Adjective",
        "Pronoun",
        "Adverb",
        "Preposition",
        "Quantifier",
        "Repetitive word",
        "Collocation",
        "Subject-predicate phrase",
        "Predicate-object phrase",
        "Preposition-object phrase",
        "Measure phrase",
        "Location phrase",
        "Predicate-complement phrase",
        "BA sentence",
        "BEI sentence",
        "SHI sentence",
        "YOU sentence",
        "Compound sentence",
    ]
    levels = [c.level for c in zh.categories]
    assert levels.count(Level.WORD) == 12 and levels.count(Level.PHRASE) == 6 and levels.count(Level.SENTENCE) == 5


def test_ud_taxonomy_levels() -> None:
    ud = load_taxonomy("ud")
    levels = [c.level for c in ud.categories]
    assert (levels.count(Level.WORD), levels.count(Level.PHRASE), levels.count(Level.SENTENCE)) == (12, 7, 7)


def test_every_builtin_validates_with_its_word_lists() -> None:
    for name in builtin_taxonomies():
        assert validate_taxonomy(load_taxonomy(name).path or "").name == name


def test_constituent_labels_are_kept() -> None:
    en = load_taxonomy("en")
    labels = {entry.category.name: entry.constituent_labels for entry in en.entries}
    assert labels["Noun phrase"] == ("NP", "NML", "WHNP")
    assert labels["Noun"] == ()


# -- user files -------------------------------------------------------------------


def test_user_file_with_its_own_word_list_next_to_it(tmp_path: Path) -> None:
    (tmp_path / "terms.txt").write_text("# my terms\nbank account\nfund\tNOUN=3\n", encoding="utf-8")
    path = write(tmp_path, taxonomy(category('<wordlist file="terms.txt" match="lemma"/>', name="Term")))
    loaded = validate_taxonomy(path)
    assert (loaded.name, loaded.version, loaded.builtin, loaded.path) == ("t", "2", False, path)
    assert [c.name for c in loaded.categories] == ["Term"]


def test_user_file_can_name_a_shipped_word_list(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<wordlist file="ambiguous-en.txt" min-senses="20"/>')))
    assert len(validate_taxonomy(path).categories) == 1


def test_missing_file_names_the_builtins(tmp_path: Path) -> None:
    with pytest.raises(TaxonomyError) as caught:
        load_taxonomy(tmp_path / "nope.xml")
    assert str(caught.value) == f"{tmp_path / 'nope.xml'}: no such taxonomy file (built-in taxonomies: en, ud, zh)"


# -- schema errors ------------------------------------------------------------------


def test_xml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, '<taxonomy name="t" language="en" version="1">\n<category name="x" level="word">\n</taxonomy>\n')
    message = error_of(path)
    assert message.startswith(f"{path}:4: ")
    assert "mismatch" in message


def test_bad_level_is_a_schema_error_on_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern><node id="n"/><checkpoint nodes="n"/></pattern>', level="clause")))
    message = error_of(path)
    assert message.startswith(f"{path}:3: ")
    assert "'clause' is not an element of the set" in message


def test_missing_description_is_a_schema_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '<taxonomy name="t" language="en" version="1">\n<category name="x" level="word">\n'
        '<pattern><node id="n"/><checkpoint nodes="n"/></pattern>\n</category>\n</taxonomy>\n',
    )
    message = error_of(path)
    assert message.startswith(f"{path}:4: ")
    assert "Expected is ( description )" in message


def test_unknown_attribute_is_a_schema_error(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern>\n<node id="n" colour="red"/>\n<checkpoint nodes="n"/></pattern>')))
    message = error_of(path)
    assert message.startswith(f"{path}:6: ")
    assert "colour" in message


def test_pattern_without_checkpoint_is_a_schema_error(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern>\n<node id="n"/>\n</pattern>')))
    message = error_of(path)
    assert message.startswith(f"{path}:5: ")
    assert "Missing child element" in message


def test_doctype_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "evil.xml"
    path.write_text(
        HEADER + '<!DOCTYPE taxonomy [<!ENTITY x "boom">]>\n' + taxonomy(category('<pattern><node id="n"/><checkpoint nodes="n"/></pattern>')),
        encoding="utf-8",
    )
    assert error_of(path) == f"{path}:1: a DOCTYPE is not allowed in taxonomy files"


# -- semantic errors -----------------------------------------------------------------


def test_unknown_head_reference(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        taxonomy(category('<pattern>\n<node id="n"/>\n<node id="p" head="m"/>\n<checkpoint nodes="n"/>\n</pattern>')),
    )
    assert error_of(path) == f"{path}:7: node 'p': head='m' names no node of this pattern (nodes: n, p)"


def test_unknown_reference_in_absent(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        taxonomy(category('<pattern>\n<node id="n"/>\n<absent ancestor="x"/>\n<checkpoint nodes="n"/>\n</pattern>')),
    )
    assert error_of(path) == f"{path}:7: <absent>: ancestor='x' names no node of this pattern (nodes: n)"


def test_reference_to_itself(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern>\n<node id="n" before="n"/>\n<checkpoint nodes="n"/>\n</pattern>')))
    assert error_of(path) == f"{path}:6: node 'n': before='n' refers to the node itself"


def test_reference_to_an_optional_node(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        taxonomy(
            category('<pattern>\n<node id="n"/>\n<node id="o" optional="true"/>\n<node id="p" head="o"/>\n<checkpoint nodes="n"/>\n</pattern>')
        ),
    )
    assert error_of(path) == (
        f"{path}:8: node 'p': head='o' refers to an optional node; only required nodes can be referred to"
    )


def test_duplicate_node_ids(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern>\n<node id="n"/>\n<node id="n"/>\n<checkpoint nodes="n"/>\n</pattern>')))
    assert error_of(path) == f"{path}:7: duplicate node id 'n' in this pattern"


def test_head_cycle(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        taxonomy(category('<pattern>\n<node id="a" head="b"/>\n<node id="b" head="a"/>\n<checkpoint nodes="a"/>\n</pattern>')),
    )
    assert error_of(path) == f"{path}:5: head= relations form a cycle through node 'a'"


def test_pattern_of_optional_nodes_only(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern>\n<node id="n" optional="true"/>\n<checkpoint nodes="n"/>\n</pattern>')))
    assert error_of(path) == f"{path}:5: a pattern needs at least one node that is not optional"


def test_checkpoint_naming_unknown_node(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern>\n<node id="n"/>\n<checkpoint nodes="n q"/>\n</pattern>')))
    assert error_of(path) == f"{path}:7: <checkpoint> nodes: 'q' names no node of this pattern"


def test_checkpoint_subtree_of_optional_node(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        taxonomy(category('<pattern>\n<node id="n"/>\n<node id="o" head="n" optional="true"/>\n<checkpoint subtree="o"/>\n</pattern>')),
    )
    assert error_of(path) == f"{path}:8: <checkpoint> subtree: 'o' is optional; a subtree needs a required node"


def test_checkpoint_needs_nodes_or_subtree(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern>\n<node id="n"/>\n<checkpoint max-tokens="3"/>\n</pattern>')))
    assert error_of(path) == f"{path}:7: <checkpoint> needs nodes= or subtree="


def test_checkpoint_bounds(tmp_path: Path) -> None:
    path = write(
        tmp_path, taxonomy(category('<pattern>\n<node id="n"/>\n<checkpoint subtree="n" min-tokens="4" max-tokens="2"/>\n</pattern>'))
    )
    assert error_of(path) == f"{path}:7: <checkpoint> max-tokens=2 is below min-tokens=4"


def test_bad_regex_in_a_node(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern>\n<node id="n" lemma="~(unclosed"/>\n<checkpoint nodes="n"/>\n</pattern>')))
    message = error_of(path)
    assert message.startswith(f"{path}:6: lemma: '~(unclosed': bad regular expression: missing ), unterminated subpattern")


def test_bad_feats_in_a_node(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern>\n<node id="n" feats="Number"/>\n<checkpoint nodes="n"/>\n</pattern>')))
    assert error_of(path) == f"{path}:6: feats: 'Number': expected Name=Value or Name!=Value"


def test_duplicate_category_names(tmp_path: Path) -> None:
    rule = '<pattern><node id="n"/><checkpoint nodes="n"/></pattern>'
    path = write(tmp_path, taxonomy(category(rule, name="Same"), category(rule, name="Same")))
    assert error_of(path) == f"{path}:7: duplicate category name 'Same' (first defined on line 3)"


def test_unknown_word_list_file(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<wordlist file="missing.txt"/>')))
    assert error_of(path) == (
        f"{path}:5: word-list file 'missing.txt' not found next to the taxonomy file or among the package's word lists"
    )


def test_lexicon_filter_needs_exactly_one_source(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        taxonomy(category('<pattern>\n<node id="n"/>\n<listed node="n" file="a.txt" source="jieba"/>\n<checkpoint nodes="n"/>\n</pattern>')),
    )
    assert error_of(path) == f"{path}:7: <listed> needs exactly one of file= and source="


def test_unknown_lexicon_source(tmp_path: Path) -> None:
    path = write(
        tmp_path, taxonomy(category('<pattern>\n<node id="n"/>\n<unlisted node="n" source="wiktionary"/>\n<checkpoint nodes="n"/>\n</pattern>'))
    )
    assert error_of(path) == f"{path}:7: unknown lexicon source 'wiktionary'; known: cedict, jieba"


def test_tags_need_a_tagged_lexicon(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        taxonomy(category('<pattern>\n<node id="n"/>\n<listed node="n" source="cedict" tags="a"/>\n<checkpoint nodes="n"/>\n</pattern>')),
    )
    assert error_of(path) == f"{path}:7: tags= needs a lexicon whose entries have tags; cedict has none (tagged: jieba)"


def test_empty_tag_alternative_on_a_lexicon_filter(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        taxonomy(category('<pattern>\n<node id="n"/>\n<listed node="n" source="jieba" tags="a||d"/>\n<checkpoint nodes="n"/>\n</pattern>')),
    )
    assert error_of(path) == f"{path}:7: tags 'a||d': empty alternative"


def test_sense_tag_needs_min_senses(tmp_path: Path) -> None:
    (tmp_path / "w.txt").write_text("打\tsenses=18\n", encoding="utf-8")
    path = write(tmp_path, taxonomy(category('<wordlist file="w.txt" sense-tag="senses"/>')))
    assert error_of(path) == f"{path}:5: sense-tag= names the tag that min-senses= reads, and no min-senses= is given"


def test_bad_word_list_head_constraint(tmp_path: Path) -> None:
    (tmp_path / "w.txt").write_text("打\n", encoding="utf-8")
    path = write(tmp_path, taxonomy(category('<wordlist file="w.txt" xpos="NN||VV"/>')))
    assert error_of(path) == (
        f"{path}:5: xpos: 'NN||VV': empty alternative (two '|' in a row, or '|' at an end)"
    )


def test_reduplication_lexicon_errors(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<reduplication shapes="AA" unlisted="wiktionary"/>')))
    assert error_of(path) == f"{path}:5: unknown lexicon source 'wiktionary'; known: cedict, jieba"
    path = write(tmp_path, taxonomy(category('<reduplication shapes="AA" convert="t2s"/>')))
    assert error_of(path) == f"{path}:5: convert= applies to the unlisted= lexicon look-up, and no unlisted= is given"


def test_distinct_names_a_key_attribute(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<pattern distinct="upos">\n<node id="n"/>\n<checkpoint nodes="n"/>\n</pattern>')))
    message = error_of(path)
    assert message.startswith(f"{path}:5: Element 'pattern', attribute 'distinct': [facet 'enumeration'] The value 'upos'")


def test_filter_naming_unknown_node(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        taxonomy(category('<pattern>\n<node id="n"/>\n<association nodes="n x" min-score="1"/>\n<checkpoint nodes="n"/>\n</pattern>')),
    )
    assert error_of(path) == f"{path}:7: <association> nodes='x' names no required node of this pattern (nodes: n)"


def test_unknown_opencc_conversion(tmp_path: Path) -> None:
    (tmp_path / "w.txt").write_text("词\n", encoding="utf-8")
    path = write(tmp_path, taxonomy(category('<wordlist file="w.txt" convert="x2y"/>')))
    message = error_of(path)
    assert message.startswith(f"{path}:5: unknown OpenCC conversion 'x2y'; known: ")
    assert "t2s" in message


def test_bad_reduplication_shape(tmp_path: Path) -> None:
    path = write(tmp_path, taxonomy(category('<reduplication shapes="AB"/>')))
    assert error_of(path) == f"{path}:5: reduplication shape 'AB' does not repeat A"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("ok\n\tNOUN\n", ":2: empty entry before the tab"),
        ("ok\tNOUN=x\n", ":1: bad tag 'NOUN=x': expected NAME or NAME=COUNT"),
        ("ok\tNOUN\tVERB\n", ":1: more than one tab; separate tags with spaces"),
        ("# only a comment\n", ": the word list has no entries"),
    ],
)
def test_bad_word_list_files_name_file_and_line(tmp_path: Path, content: str, problem: str) -> None:
    (tmp_path / "bad.txt").write_text(content, encoding="utf-8")
    path = write(tmp_path, taxonomy(category('<wordlist file="bad.txt"/>')))
    assert error_of(path) == f"{tmp_path / 'bad.txt'}{problem}"


def test_word_list_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    path = write(tmp_path, taxonomy(category('<wordlist file="latin1.txt"/>')))
    assert error_of(path) == f"{tmp_path / 'latin1.txt'}: not UTF-8 text (invalid continuation byte at byte 3)"
