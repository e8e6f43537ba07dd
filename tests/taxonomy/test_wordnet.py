"""The WordNet 3.0 data the package ships: contents, morphology, lazy loading, and its regeneration script.

The expected values are WordNet 3.0's (index and exception files); the same
lookups over the full Debian files with nltk's reader gave identical results
(see checkpoints/data/wordnet/README.md).
"""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

from checkpoints.errors import ResourceNotAvailable
from checkpoints.wordnet import (
    ENVIRONMENT_VARIABLE,
    PACKAGE_DATA,
    load_wordnet,
    parse_package_text,
    read_dict_directory,
    synonym_sets,
)

ROOT = Path(__file__).parent.parent.parent
SCRIPT = ROOT / "scripts" / "make_wordnet_data.py"

LICENCE_HEADER = "  1 This software and database is being provided to you, the LICENSEE, by  \n"

TINY = {
    # A licence header line, a lemma with pointer symbols, offsets with leading zeros, a multi-word lemma.
    "index.noun": LICENCE_HEADER
    + "car n 2 3 @ ~ + 2 1 02958343 02959942  \n"
    + "automobile n 1 2 @ ~ 1 1 02958343  \n"
    + "goose n 2 1 @ 2 0 01855672 10157744  \n"
    + "ax n 1 1 @ 1 0 02764044  \nbox n 2 1 @ 2 0 00000010 00000020  \nhot_dog n 1 1 @ 1 0 07697537  \n",
    "index.verb": LICENCE_HEADER + "go v 2 1 @ 2 2 01835496 02604760  \nrun v 1 1 @ 1 1 01926311  \n",
    "index.adj": LICENCE_HEADER + "good a 1 1 ! 1 1 01123148  \nsad a 1 1 & 1 0 01361863  \n",
    "index.adv": LICENCE_HEADER + "well r 1 1 ! 1 1 00011093  \n",
    "noun.exc": "geese goose\naxes ax axis\n",
    "verb.exc": "went go\n",
    "adj.exc": "better good well\n",
    "adv.exc": "better well\n",
}


@pytest.fixture
def tiny_wordnet(tmp_path: Path) -> Path:
    directory = tmp_path / "dict"
    directory.mkdir()
    for name, text in TINY.items():
        (directory / name).write_text(text, encoding="utf-8")
    return directory


def run_script(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, check=False)


def test_the_packaged_data_is_small_and_licensed() -> None:
    assert PACKAGE_DATA.stat().st_size < 3_000_000
    folder = PACKAGE_DATA.parent
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in (folder / "LICENSE").read_text(encoding="utf-8")
    assert "python scripts/make_wordnet_data.py" in (folder / "README.md").read_text(encoding="utf-8")


def test_the_packaged_data_holds_wordnet_30() -> None:
    wordnet = load_wordnet()
    assert {pos: len(lemmas) for pos, lemmas in wordnet.index.items()} == {"n": 117798, "v": 11529, "a": 21479, "r": 4481}
    # 2054 and 1490 lines: a form listed twice keeps its last line (involucra involucrum, not involucre).
    assert {pos: len(forms) for pos, forms in wordnet.exceptions.items()} == {"n": 2050, "v": 2401, "a": 1489, "r": 7}
    assert wordnet.exceptions["n"]["involucra"] == ("involucrum",) and wordnet.exceptions["a"]["offer"] == ("offer",)
    assert wordnet.index["n"]["car"] == (2958343, 2959942, 2960501, 2960352, 2934451)
    assert wordnet.index["n"]["hot_dog"] == (10187710, 7697537, 7676602)  # index order, not sorted
    assert wordnet.exceptions["n"]["axes"] == ("ax", "axis") and wordnet.exceptions["v"]["went"] == ("go",)
    assert load_wordnet() is wordnet  # read once


@pytest.mark.parametrize(
    ("word", "pos", "forms"),
    [
        ("cars", "n", ["car"]),  # a suffix rule
        ("churches", "n", ["church"]),
        ("geese", "n", ["goose"]),  # the exception list
        ("axes", "n", ["ax", "axis"]),
        ("went", "v", ["go"]),
        ("running", "v", ["run"]),
        ("better", "a", ["better", "good", "well"]),  # a lemma itself comes first
        ("saddest", "a", ["sad"]),
        ("quickly", "r", ["quickly"]),
        ("Cars", "n", []),  # base_forms takes the word as given; synsets() lower-cases
        ("zzz", "n", []),
    ],
)
def test_morphology(word: str, pos: str, forms: list[str]) -> None:
    assert load_wordnet().base_forms(word, pos) == forms


def test_synsets_follow_every_base_form() -> None:
    wordnet = load_wordnet()
    # "axes" is not a noun lemma; its bases ax (1 sense) and axis (6) give 7.
    assert len(wordnet.synsets("axes", "n")) == 7
    assert wordnet.synsets("Went", "v")[:2] == [("v", 1835514), ("v", 2372623)]
    assert len(wordnet.synsets("went", "v")) == 30
    assert wordnet.synset_ids("cars") & wordnet.synset_ids("automobile") == {("n", 2958343)}


def test_environment_variable_names_a_dict_directory(tiny_wordnet: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tiny_wordnet))
    wordnet = load_wordnet()
    assert wordnet.source == str(tiny_wordnet.resolve())
    assert wordnet.index["n"]["car"] == (2958343, 2959942) and "hot_dog" in wordnet.index["n"]
    lookup = synonym_sets().lookup
    assert lookup("cars") & lookup("automobile") == {("n", 2958343)}
    assert lookup("better") == {("a", 1123148), ("r", 11093)}  # good (adj) and well (adv)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "")
    assert len(load_wordnet().index["n"]) == 117798  # empty: the packaged data


def test_a_directory_that_is_not_wordnet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path))
    with pytest.raises(ResourceNotAvailable) as caught:
        load_wordnet()
    assert str(caught.value) == f"{tmp_path} (from {ENVIRONMENT_VARIABLE}) is not a WordNet 3.0 dict/ directory (missing index.noun)"


def test_a_broken_index_line_is_located(tiny_wordnet: Path) -> None:
    (tiny_wordnet / "index.verb").write_text("go v 2 1 @ 2 2 01835496\n", encoding="utf-8")
    with pytest.raises(ResourceNotAvailable) as caught:
        read_dict_directory(tiny_wordnet)
    assert str(caught.value) == f"{tiny_wordnet / 'index.verb'}:1: not a WordNet 3.0 index line of part of speech 'v'"


def test_script_writes_what_the_directory_holds(tiny_wordnet: Path, tmp_path: Path) -> None:
    output = tmp_path / "out" / "wordnet.txt.gz"
    result = run_script("--wordnet", str(tiny_wordnet), "--output", str(output))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"{output}: 11 index entries, ")
    first = output.read_bytes()
    text = gzip.decompress(first).decode("utf-8")
    assert "@index n\nautomobile 2958343\nax 2764044\nbox 10 20\ncar 2958343 2959942\n" in text
    assert "@exceptions n\naxes ax axis\ngeese goose\n" in text
    packaged = parse_package_text(text.splitlines(keepends=True), str(output))
    direct = read_dict_directory(tiny_wordnet)
    assert (packaged.index, packaged.exceptions) == (direct.index, direct.exceptions)
    # Same WordNet, same bytes (no timestamp); --check compares.
    assert run_script("--wordnet", str(tiny_wordnet), "--output", str(output)).returncode == 0
    assert output.read_bytes() == first
    check = run_script("--check", "--wordnet", str(tiny_wordnet), "--output", str(output))
    assert (check.returncode, check.stdout) == (0, f"{output}: up to date\n")
    (tiny_wordnet / "verb.exc").write_text("went go\nran run\n", encoding="utf-8")
    check = run_script("--check", "--wordnet", str(tiny_wordnet), "--output", str(output))
    assert (check.returncode, check.stdout) == (1, f"{output}: DIFFERS\n")


def test_script_reports_a_missing_wordnet_in_one_line(tmp_path: Path) -> None:
    result = run_script("--wordnet", str(tmp_path), "--output", str(tmp_path / "out.gz"))
    assert result.returncode == 1
    assert result.stderr == (
        f"make_wordnet_data: error: {tmp_path} is not a WordNet 3.0 dict/ directory (missing index.noun): "
        "install the Debian package wordnet-base or give --wordnet\n"
    )
    assert not (tmp_path / "out.gz").exists()


def test_wordnet_is_read_only_when_needed() -> None:
    """Importing the metrics and the taxonomy, or using another METEOR variant, reads no WordNet."""
    code = (
        "import sys\n"
        "import checkpoints.taxonomy\n"
        "from checkpoints.evaluate.metrics.base import MetricOptions\n"
        "from checkpoints.evaluate.metrics.registry import get_metric\n"
        "metric = get_metric('METEOR-st', MetricOptions())\n"
        "metric.segment_stats('the cars', ['the automobile'])\n"
        "module = sys.modules.get('checkpoints.wordnet')\n"
        "print(0 if module is None else module._load_package_data.cache_info().currsize)\n"
        "get_metric('METEOR-sy', MetricOptions())\n"
        "print(sys.modules['checkpoints.wordnet']._load_package_data.cache_info().currsize)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0", "1"]  # imported perhaps, but nothing read until METEOR-sy
