"""Readers: CoNLL-U, raw text and Pharaoh alignments, and their one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import InputError
from checkpoints.io.conllu import parse_conllu_string, read_conllu
from checkpoints.io.pharaoh import format_pharaoh, parse_pharaoh_line, read_pharaoh, write_pharaoh
from checkpoints.io.text import read_sentences
from checkpoints.model import MultiWordToken, surface_with_gaps


def test_conllu_reads_comments_text_mwt_and_skips_empty_nodes(data_dir: Path) -> None:
    first, second = read_conllu(data_dir / "io" / "small.conllu", "en")
    assert first.sent_id == "s1"
    assert first.text == "They opposed the building of reserve funds."
    assert first.forms == ["They", "opposed", "the", "building", "of", "reserve", "funds", "."]
    assert first.tokens[0].feats == {"Case": "Nom", "Number": "Plur", "Person": "3", "PronType": "Prs"}
    assert first.tokens[3].head == 2 and first.tokens[3].deprel == "obj"
    assert first.subtree(3) == [2, 3, 4, 5, 6]
    assert first.head_index(1) is None
    assert first.language == "en"
    # the empty node 4.1 is skipped, the range 3-4 kept for the surface text only
    assert second.forms == ["Juan", "vino", "de", "el", "mar", "."]
    assert second.multiword == [MultiWordToken(3, 4, "del", "_")]
    assert second.text == "Juan vino del mar."
    assert second.tokens[0].ner == "S-PERSON"
    assert second.constituency is not None and second.constituency.startswith("(ROOT")


def test_conllu_round_trip_through_to_conllu(data_dir: Path) -> None:
    sentences = read_conllu(data_dir / "io" / "small.conllu")
    again = parse_conllu_string("".join(s.to_conllu() for s in sentences))
    assert [s.forms for s in again] == [s.forms for s in sentences]
    assert [[t.head for t in s.tokens] for s in again] == [[t.head for t in s.tokens] for s in sentences]
    assert again[1].multiword == sentences[1].multiword
    assert again[1].text == "Juan vino del mar."


def test_text_without_text_comment_is_rebuilt_from_space_after() -> None:
    (sentence,) = parse_conllu_string("1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\tSpaceAfter=No\n2\t!\t!\tPUNCT\t.\t_\t1\tpunct\t_\t_\n")
    assert sentence.text == "Hi!"


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        ("1\tThey\tthey\tPRON\n", 1, "expected 10 tab-separated columns, found 4"),
        ("# text = a\n1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n3\tb\tb\tX\tX\t_\t1\tdep\t_\t_\n", 3, "word ID 3 out of order: expected 2"),
        ("x\ta\ta\tX\tX\t_\t0\troot\t_\t_\n", 1, "bad word ID 'x': expected an integer, a range like 1-2 or an empty node like 3.1"),
        ("1\ta\ta\tX\tX\t_\tz\troot\t_\t_\n", 1, "HEAD 'z' is not a non-negative integer"),
        ("1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n2\tb\tb\tX\tX\t_\t7\tdep\t_\t_\n", 2, "HEAD 7 points beyond the sentence's 2 words"),
        ("1\ta\ta\tX\tX\t_\t1\troot\t_\t_\n", 1, "a word cannot be its own head"),
        ("1\ta\ta\tX\tX\tNumber\t0\troot\t_\t_\n", 1, "bad feature 'Number': expected Name=Value"),
        ("1\t\ta\tX\tX\t_\t0\troot\t_\t_\n", 1, "empty FORM column"),
        ("# text = nothing\n", 1, "sentence without words"),
        ("2-1\tab\t_\t_\t_\t_\t_\t_\t_\t_\n", 1, "multi-word token range 2-1 does not start at word 1"),
    ],
)
def test_conllu_errors_name_file_and_line(tmp_path: Path, content: str, line: int, problem: str) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_conllu(path)
    assert str(caught.value) == f"{path}:{line}: {problem}"


def test_conllu_empty_file_and_missing_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.conllu"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="no sentences in this CoNLL-U file"):
        read_conllu(empty)
    with pytest.raises(InputError) as caught:
        read_conllu(tmp_path / "missing.conllu")
    assert str(caught.value) == f"{tmp_path / 'missing.conllu'}: no such file"


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("one\ntwo\ncaf\xe9\n".encode("latin-1"))
    with pytest.raises(InputError) as caught:
        read_sentences(path)
    assert str(caught.value) == f"{path}:3: not valid UTF-8 (byte 4 of the line)"


def test_text_reader(tmp_path: Path) -> None:
    path = tmp_path / "src.txt"
    path.write_bytes(b"\xef\xbb\xbfHello world .\r\nSecond line\n")
    assert read_sentences(path) == ["Hello world .", "Second line"]
    blank = tmp_path / "blank.txt"
    blank.write_text("one\n\nthree\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_sentences(blank)
    assert str(caught.value) == f"{blank}:2: empty line: one sentence per line expected"
    assert read_sentences(blank, allow_empty=True) == ["one", "", "three"]
    nothing = tmp_path / "nothing.txt"
    nothing.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="the file is empty"):
        read_sentences(nothing)


def test_pharaoh_reader_checks_indices(tmp_path: Path) -> None:
    path = tmp_path / "a.align"
    path.write_text("0-0 1-1 2-1\n\n0-2\n", encoding="utf-8")
    alignments = read_pharaoh(path, [3, 1, 1], [2, 1, 3])
    assert alignments[0].links == frozenset({(0, 0), (1, 1), (2, 1)})
    assert alignments[1].links == frozenset()
    assert alignments[2].targets_of([0]) == [2]
    assert alignments[0].to_pharaoh() == "0-0 1-1 2-1"
    with pytest.raises(InputError) as caught:
        read_pharaoh(path, [3, 1, 1], [2, 1, 2])
    assert str(caught.value) == f"{path}:3: link 0-2: target index 2 out of range (sentence has 2 words)"
    with pytest.raises(InputError) as caught:
        read_pharaoh(path, [2, 1, 1], [2, 1, 3])
    assert str(caught.value) == f"{path}:1: link 2-1: source index 2 out of range (sentence has 2 words)"
    with pytest.raises(InputError) as caught:
        read_pharaoh(path, [3, 1], [2, 1])
    assert str(caught.value) == f"{path}: 3 alignment lines for 2 sentence pairs: one line per pair expected"
    with pytest.raises(InputError) as caught:
        parse_pharaoh_line("0:1", 2, 2)
    assert str(caught.value) == "<string>:1: bad link '0:1': expected i-j (or i?j for a possible link) with 0-based integers"
    with pytest.raises(InputError, match="bad link '-1-0'"):
        parse_pharaoh_line("-1-0", 2, 2)
    with pytest.raises(InputError, match="bad link '1\\?-0'"):
        parse_pharaoh_line("1?-0", 2, 2)


def test_possible_links_read_and_written_as_i_question_j(tmp_path: Path) -> None:
    """Och & Ney's possible links: "0?1" is a link the annotator (or aligner) was unsure of."""
    alignment = parse_pharaoh_line("0-0 0?1 1-1", 2, 2)
    assert alignment.links == frozenset({(0, 0), (0, 1), (1, 1)})
    assert alignment.sure == frozenset({(0, 0), (1, 1)})
    assert not alignment.is_sure((0, 1)) and alignment.is_sure((1, 1))
    assert parse_pharaoh_line("0-0 1-1", 2, 2).sure is None  # no possible link: all sure
    assert format_pharaoh(alignment) == "0-0 0-1 1-1"
    assert format_pharaoh(alignment, mark_unsure=True) == "0-0 0?1 1-1"
    path = tmp_path / "a.align"
    write_pharaoh(path, [alignment, parse_pharaoh_line("", 1, 1)], mark_unsure=True)
    assert path.read_text(encoding="utf-8") == "0-0 0?1 1-1\n\n"
    assert not list(tmp_path.glob(".*partial"))


def test_surface_with_gaps() -> None:
    forms = ["They", "are", "playing", "a", "drum"]
    assert surface_with_gaps(forms, [0, 2]) == ["They", "*", "playing"]
    assert surface_with_gaps(forms, [4, 2, 3]) == ["playing", "a", "drum"]
    assert surface_with_gaps(forms, [0, 1, 4]) == ["They", "are", "*", "drum"]


def test_gzip_input_is_read_transparently(tmp_path: Path, data_dir: Path) -> None:
    import gzip

    path = tmp_path / "small.conllu.gz"
    path.write_bytes(gzip.compress((data_dir / "io" / "small.conllu").read_bytes()))
    assert [s.forms[0] for s in read_conllu(path)] == ["They", "Juan"]
    broken = tmp_path / "broken.txt.gz"
    broken.write_bytes(b"not gzip at all")
    with pytest.raises(InputError, match=r"broken.txt.gz: not a readable gzip file"):
        read_sentences(broken)
