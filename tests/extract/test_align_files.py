"""Pharaoh alignment files against parsed sentences, and choosing an aligner by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import InputError, UsageError
from checkpoints.extract.align import (
    ALIGNERS,
    EflomalAligner,
    SimAligner,
    make_aligner,
    read_alignment_file,
)
from checkpoints.io.conllu import parse_conllu_string
from checkpoints.model import Alignment

# "of the" / "del": the Spanish side has 4 syntactic words (de + el), 3 surface tokens.
ENGLISH = """1	North	north	ADJ	JJ	_	2	amod	_	_
2	of	of	ADP	IN	_	4	case	_	_
3	the	the	DET	DT	_	4	det	_	_
4	river	river	NOUN	NN	_	0	root	_	_

"""
SPANISH = """1	Norte	norte	NOUN	NN	_	0	root	_	_
2-3	del	_	_	_	_	_	_	_	_
2	de	de	ADP	IN	_	4	case	_	_
3	el	el	DET	DT	_	4	det	_	_
4	río	río	NOUN	NN	_	1	nmod	_	_

"""


@pytest.fixture
def sentences():
    return parse_conllu_string(ENGLISH, "en"), parse_conllu_string(SPANISH, "es")


def test_links_count_syntactic_words(tmp_path: Path, sentences) -> None:
    path = tmp_path / "en-es.align"
    path.write_text("0-0 1-1 2-2 3-3\n", encoding="utf-8")
    english, spanish = sentences
    assert read_alignment_file(path, english, spanish) == [Alignment(frozenset({(0, 0), (1, 1), (2, 2), (3, 3)}))]


def test_index_beyond_the_reference_names_file_and_line(tmp_path: Path, sentences) -> None:
    path = tmp_path / "en-es.align"
    path.write_text("0-0 3-4\n", encoding="utf-8")
    english, spanish = sentences
    with pytest.raises(InputError) as caught:
        read_alignment_file(path, english, spanish)
    assert str(caught.value) == f"{path}:1: link 3-4: target index 4 out of range (sentence has 4 words)"


def test_line_count_must_match(tmp_path: Path, sentences) -> None:
    path = tmp_path / "en-es.align"
    path.write_text("0-0\n1-1\n", encoding="utf-8")
    english, spanish = sentences
    with pytest.raises(InputError, match="2 alignment lines for 1 sentence pairs"):
        read_alignment_file(path, english, spanish)


def test_aligners_by_name() -> None:
    assert sorted(ALIGNERS) == ["eflomal", "simalign"]
    simalign = make_aligner("simalign")
    assert isinstance(simalign, SimAligner)
    assert (simalign.model, simalign.method) == ("bert-base-multilingual-cased", "itermax")
    local = make_aligner("simalign", "/models/labse", "mwmf")
    assert isinstance(local, SimAligner)
    assert (local.model, local.method) == ("/models/labse", "mwmf")
    eflomal = make_aligner("eflomal", method="grow-diag-final")
    assert isinstance(eflomal, EflomalAligner)
    assert eflomal.symmetrization == "grow-diag-final"


def test_aligner_errors() -> None:
    with pytest.raises(UsageError) as caught:
        make_aligner("giza")
    assert str(caught.value) == "unknown aligner 'giza' (choose eflomal or simalign)"
    with pytest.raises(UsageError) as caught:
        make_aligner("eflomal", "bert-base-multilingual-cased")
    assert str(caught.value) == "--align-model applies to simalign only: eflomal learns from the corpus itself"
