"""The CoNLL-U reader refuses malformed dependency trees, each with one ``FILE:LINE: problem``.

A head cycle or a second root silently changes which check-points a taxonomy
finds (subtrees and head walks go wrong), so they are input errors like any
other; valid UD files, with empty nodes, enhanced dependencies and multi-word
tokens, still read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import InputError
from checkpoints.io.conllu import parse_conllu_string, read_conllu


def word(number: int, form: str, head: str, deprel: str = "dep", deps: str = "_") -> str:
    return f"{number}\t{form}\t{form.lower()}\tX\tX\t_\t{head}\t{deprel}\t{deps}\t_"


def conllu(*lines: str) -> str:
    return "\n".join(lines) + "\n\n"


GOOD = conllu("# sent_id = ok", "# text = Juan vino.", word(1, "Juan", "2", "nsubj"), word(2, "vino", "0", "root"))


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        pytest.param(
            conllu("# sent_id = c2", word(1, "a", "0", "root"), word(2, "b", "3"), word(3, "c", "2")),
            1, "head cycle: words 2 → 3 → 2 (each word's HEAD is the next)", id="two-word cycle beside the root",
        ),
        pytest.param(
            conllu(word(1, "a", "2"), word(2, "b", "3"), word(3, "c", "1")),
            1, "head cycle: words 1 → 2 → 3 → 1 (each word's HEAD is the next)", id="cycle and no root",
        ),
        pytest.param(
            conllu("# text = a b c", word(1, "a", "0", "root"), word(2, "b", "1"), word(3, "c", "0", "root")),
            1, "the dependency tree has 2 roots: words 1 and 3 have HEAD 0", id="two roots",
        ),
        pytest.param(
            conllu(word(1, "a", "0", "root"), word(2, "b", "0", "root"), word(3, "c", "0", "dep")),
            1, "the dependency tree has 3 roots: words 1, 2 and 3 have HEAD 0", id="every word a root",
        ),
        pytest.param(
            conllu("# text = a b", word(1, "a", "0", "root"), word(2, "b", "9")),
            3, "HEAD 9 points beyond the sentence's 2 words", id="head out of range",
        ),
        pytest.param(
            conllu(word(1, "a", "0", "root"), word(2, "b", "2")),
            2, "a word cannot be its own head", id="own head",
        ),
        pytest.param(
            conllu(word(1, "a", "0", "root"), word(2, "b", "_", "_")),
            2, "HEAD is '_' here but given for other words of the sentence", id="partial tree",
        ),
    ],
)
def test_malformed_trees_are_one_line_errors(tmp_path: Path, content: str, line: int, problem: str) -> None:
    path = tmp_path / "bad.conllu"
    # a good sentence first: the line numbers are the file's, not the sentence's
    path.write_text(GOOD + content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_conllu(path)
    assert str(caught.value) == f"{path}:{line + GOOD.count(chr(10))}: {problem}"


def test_empty_nodes_enhanced_deps_and_multiword_ranges_take_no_part() -> None:
    """An empty node (8.1 style) with its own enhanced head, DEPS naming it, and a range 3-4."""
    (sentence,) = parse_conllu_string(
        conllu(
            "# text = Juan vino del mar y Ana.",
            word(1, "Juan", "2", "nsubj", "2:nsubj|2.1:nsubj"),
            word(2, "vino", "0", "root", "0:root"),
            "2.1\tvino\tvenir\tVERB\t_\t_\t_\t_\t0:root|2:conj\t_",
            "3-4\tdel\t_\t_\t_\t_\t_\t_\t_\t_",
            word(3, "de", "5", "case"),
            word(4, "el", "5", "det"),
            word(5, "mar", "2", "obl"),
            word(6, "y", "7", "cc"),
            word(7, "Ana", "2", "conj", "2.1:nsubj"),
            word(8, ".", "2", "punct"),
        )
    )
    assert sentence.forms == ["Juan", "vino", "de", "el", "mar", "y", "Ana", "."]
    assert sentence.text == "Juan vino del mar y Ana."


def test_sentences_without_a_tree_still_read() -> None:
    """HEAD '_' throughout, or HEAD 0 with no DEPREL throughout (a tagged, unparsed
    sentence written back by the store), carries no tree to check."""
    unparsed = conllu(word(1, "a", "_", "_"), word(2, "b", "_", "_"))
    tagged = conllu(word(1, "a", "0", "_"), word(2, "b", "0", "_"))
    assert [s.forms for s in parse_conllu_string(unparsed + tagged)] == [["a", "b"], ["a", "b"]]


def test_bundled_pud_files_still_read(demo_dir: Path, data_dir: Path) -> None:
    for path in [demo_dir / "en_pud.conllu.gz", demo_dir / "es_pud.conllu.gz",
                 data_dir / "build" / "de_pud.conllu.gz", data_dir / "taxonomy" / "zh_pud-ud-test.conllu.gz"]:
        assert len(read_conllu(path)) == 1000
