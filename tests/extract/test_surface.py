"""References are written in surface tokens: multi-word tokens whole, glued tokens as written."""

from __future__ import annotations

import pytest

from checkpoints.extract.surface import SurfaceForms, surface_tokens
from checkpoints.io.conllu import parse_conllu_string, read_conllu
from checkpoints.tokenizers import get_tokenizer

# A sentence with a Spanish multi-word token and English-style glued tokens.
SENTENCE = """# text = La policía del banco's don't (1918).
1\tLa\tel\tDET\t_\t_\t2\tdet\t_\t_
2\tpolicía\tpolicía\tNOUN\t_\t_\t0\troot\t_\t_
3-4\tdel\t_\t_\t_\t_\t_\t_\t_\t_
3\tde\tde\tADP\t_\t_\t5\tcase\t_\t_
4\tel\tel\tDET\t_\t_\t5\tdet\t_\t_
5\tbanco\tbanco\tNOUN\t_\t_\t2\tnmod\t_\tSpaceAfter=No
6\t's\t's\tPART\t_\t_\t5\tcase\t_\t_
7\tdo\tdo\tAUX\t_\t_\t2\tdep\t_\tSpaceAfter=No
8\tn't\tnot\tPART\t_\t_\t7\tadvmod\t_\t_
9\t(\t(\tPUNCT\t_\t_\t10\tpunct\t_\tSpaceAfter=No
10\t1918\t1918\tNUM\t_\t_\t2\tdep\t_\tSpaceAfter=No
11\t)\t)\tPUNCT\t_\t_\t10\tpunct\t_\tSpaceAfter=No
12\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_
"""


@pytest.fixture
def forms() -> SurfaceForms:
    (sentence,) = parse_conllu_string(SENTENCE)
    return SurfaceForms(sentence, get_tokenizer("words"))


@pytest.mark.parametrize(
    ("indices", "expected"),
    [
        ([2], ["del"]),  # "de" alone takes the whole multi-word token
        ([3], ["del"]),
        ([1, 3], ["policía", "del"]),
        ([4], ["banco"]),  # "banco's" is cut into "banco ' s" anyway: no need to take "'s"
        ([4, 5], ["banco's"]),  # both referenced: written as in the text
        ([7], ["don't"]),  # "n't" alone would be "n ' t" and never match "don ' t"
        ([6], ["don't"]),  # "do|n't" is not cut by the tokenizer either
        ([9], ["1918"]),
        ([0, 11], ["La", "*", "."]),
        (list(range(12)), ["La", "policía", "del", "banco's", "don't", "(1918)."]),
    ],
)
def test_reference_surface(forms: SurfaceForms, indices: list[int], expected: list[str]) -> None:
    assert forms.reference(indices) == expected


def test_13a_keeps_glued_clitics_so_they_are_taken_whole() -> None:
    (sentence,) = parse_conllu_string(SENTENCE)
    forms = SurfaceForms(sentence, get_tokenizer("13a"))
    assert forms.reference([4]) == ["banco's"]  # 13a does not cut "banco's"
    assert forms.reference([9]) == ["1918"]  # but it cuts brackets off


def test_spacing_comes_from_the_text_when_space_after_marks_are_missing() -> None:
    text = SENTENCE.replace("\tSpaceAfter=No", "\t_")
    (sentence,) = parse_conllu_string(text)
    glued = [unit.glued for unit in surface_tokens(sentence)]
    assert glued == [False, False, False, True, False, True, False, True, True, True, False]


def test_spacing_falls_back_to_space_after_marks_when_the_text_disagrees() -> None:
    text = SENTENCE.replace("# text = La policía del banco's don't (1918).", "# text = something else")
    (sentence,) = parse_conllu_string(text)
    assert [unit.form for unit in surface_tokens(sentence) if unit.glued] == ["banco", "do", "(", "1918", ")"]


def test_german_contractions_from_pud(data_dir) -> None:  # type: ignore[no-untyped-def]
    """The first "zum" (zu + dem) of the German PUD: a reference takes the words of it that it
    references, since matching splits "zum" as well; a reference with both takes "zum"."""
    sentences = read_conllu(data_dir / "build" / "de_pud.conllu.gz", "de")
    for sentence in sentences:
        for mwt in sentence.multiword:
            if mwt.form == "zum":
                forms = SurfaceForms(sentence, get_tokenizer("words"))
                preposition, article, noun = mwt.first - 1, mwt.last - 1, mwt.last
                assert forms.reference([preposition]) == ["zu"]
                assert forms.reference([article]) == ["dem"]
                assert forms.reference([preposition, article]) == ["zum"]
                assert forms.reference([article, noun]) == ["dem", sentence.tokens[noun].form]
                # "zu" and the noun without the article: the article is a gap, as in "zu dem Ende"
                assert forms.reference([preposition, noun]) == ["zu", "*", sentence.tokens[noun].form]
                return
    pytest.fail("no 'zum' in the German PUD")


def test_contraction_words_keep_the_case_they_are_written_in() -> None:
    (sentence,) = parse_conllu_string(GERMAN, language="de")
    forms = SurfaceForms(sentence, get_tokenizer("words"))
    assert forms.reference([0]) == ["In"]  # "Im" at the start of the sentence
    assert forms.reference([1, 2]) == ["dem", "Haus"]
    assert forms.reference([0, 2]) == ["In", "*", "Haus"]


def test_contractions_of_a_language_without_a_table_are_written_whole() -> None:
    (sentence,) = parse_conllu_string(GERMAN, language="en")
    forms = SurfaceForms(sentence, get_tokenizer("words"))
    assert forms.reference([0]) == ["Im"]


GERMAN = """# text = Im Haus.
1-2\tIm\t_\t_\t_\t_\t_\t_\t_\t_
1\tIn\tin\tADP\t_\t_\t3\tcase\t_\t_
2\tdem\tder\tDET\t_\t_\t3\tdet\t_\t_
3\tHaus\tHaus\tNOUN\t_\t_\t0\troot\t_\tSpaceAfter=No
4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_
"""
