"""The shipped word lists: content, provenance, licences, and their reproducible generation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from checkpoints.errors import ResourceNotAvailable
from checkpoints.taxonomy.lexicons import PACKAGE_WORDLISTS, jieba_words
from checkpoints.taxonomy.wordlist import load_wordlist
from checkpoints.wordnet import sense_counts

ROOT = Path(__file__).parent.parent.parent
SCRIPT = ROOT / "scripts" / "make_wordlists.py"


def test_ambiguous_english_list_holds_wordnet_sense_counts() -> None:
    """Sense counts of WordNet 3.0 (index.noun/index.verb synset_cnt): run has 16 noun and 41 verb senses."""
    entries = load_wordlist(PACKAGE_WORDLISTS / "ambiguous-en.txt").entries
    assert len(entries) == 2580
    assert entries["run"] == {"NOUN": 16, "VERB": 41}
    # a lemma's own senses, not those of the lemmas it is an inflected form of: "found" (establish)
    # has 3 verb senses, not the 19 it had with those of "find", and "saw" 1, not 25 with "see"'s;
    # "banks" is no lemma of its own
    assert entries["find"] == {"NOUN": 2, "VERB": 16}
    assert "found" not in entries and "saw" not in entries and "banks" not in entries
    assert entries["make"] == {"NOUN": 2, "VERB": 49}
    assert entries["oppose"] == {"VERB": 6}
    assert entries["take off"] == {"VERB": 9}
    assert "building" not in entries  # 4 noun senses, below the threshold of 5
    assert all(max(tags.values() or [0]) >= 5 for tags in entries.values())  # type: ignore[type-var]


def test_idiom_list_holds_the_cedict_idioms_in_both_scripts() -> None:
    """CC-CEDICT marks 5,453 entries as idioms ("(idiom)" in a gloss); their 9,724 distinct headwords are listed."""
    entries = load_wordlist(PACKAGE_WORDLISTS / "idioms-zh.txt", "").entries
    assert len(entries) == 9724
    assert entries["成群結隊"] == entries["成群结队"] == {"i": None}
    assert "顯而易見" in entries and "一刀切" in entries
    # jieba's dictionary tags these idioms (i); CC-CEDICT does not: a compound, a phrase, a loanword, a place name
    assert not {"日常生活", "不太可能", "脫口秀", "脱口秀", "素可泰", "一心一意"} & set(entries)


def test_chinese_ambiguous_list_holds_cedict_sense_counts() -> None:
    entries = load_wordlist(PACKAGE_WORDLISTS / "ambiguous-zh.txt", "").entries
    assert len(entries) == 5011
    assert entries["打"] == {"senses": 18}
    assert entries["方"] == {"senses": 14}  # "abbr. for square or cubic meter" points elsewhere: no sense
    assert "輕型軌道交通" not in entries  # light rail: "also called ..." glosses are not senses
    assert entries["說"] == entries["说"] == {"senses": 7}
    assert entries["有"] == entries["是"] == {"senses": 5}
    assert "在" not in entries and "建立" not in entries  # 4 and 3 senses
    assert min(tags["senses"] or 0 for tags in entries.values()) == 5


def test_licences_ship_with_the_lists() -> None:
    readme = (PACKAGE_WORDLISTS / "README.md").read_text(encoding="utf-8")
    assert "wordnet-base" in readme and "CC-CEDICT" in readme and "python scripts/make_wordlists.py" in readme
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in (PACKAGE_WORDLISTS / "LICENSE.wordnet").read_text(
        encoding="utf-8"
    )
    cedict = (PACKAGE_WORDLISTS / "LICENSE.cedict").read_text(encoding="utf-8")
    assert "Paul Andrew Denisowski" in cedict and "Attribution-ShareAlike 4.0 International Public License" in cedict
    assert not (PACKAGE_WORDLISTS / "LICENSE.jieba").exists()  # no list is extracted from jieba any more


@pytest.mark.parametrize("name", ["idioms-zh", "ambiguous-zh"])
def test_chinese_lists_are_what_the_installed_cedict_gives(name: str) -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--only", name], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith(f"{name}.txt: up to date")


def test_ambiguous_list_is_what_the_packaged_wordnet_gives() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--only", "ambiguous-en"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("ambiguous-en.txt: up to date")


def test_sense_counts_of_the_packaged_wordnet() -> None:
    counts = sense_counts()
    assert len(counts) == 147306
    assert counts["run"] == {"NOUN": 16, "VERB": 41} and counts["take off"] == {"VERB": 9}
    assert counts["building"] == {"NOUN": 4}


def test_missing_wordnet_directory(tmp_path: Path) -> None:
    with pytest.raises(ResourceNotAvailable) as caught:
        sense_counts(tmp_path)
    assert str(caught.value) == f"{tmp_path} is not a WordNet 3.0 dict/ directory (missing index.noun)"


def test_script_reports_a_missing_wordnet_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--only", "ambiguous-en", "--wordnet", str(tmp_path), "--output-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == (
        f"make_wordlists: error: {tmp_path} is not a WordNet 3.0 dict/ directory (missing index.noun)\n"
    )
    assert not (tmp_path / "ambiguous-en.txt").exists()


def test_jieba_dictionary_words() -> None:
    words = jieba_words()
    assert "储备金" in words and "朋克" in words and "谷歌" not in words
