"""Precision, recall and AER against gold links (Och & Ney 2003), and `checkpoints align`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkpoints.errors import InputError
from checkpoints.extract.align_quality import alignment_quality, read_gold, read_pair_numbers
from checkpoints.io.pharaoh import parse_pharaoh_line


def test_aer_with_sure_and_possible_links_by_hand() -> None:
    """Pair 1: gold S = {0-0, 1-2}, P = S ∪ {1?1}; predicted A = {0-0, 1-1, 2-2}.
    |A| = 3, |S| = 2, |A∩S| = 1, |A∩P| = 2: precision 2/3, recall 1/2, AER 1 − 3/5 = 0.4.
    Pair 2 is not a translation (empty gold line); its one predicted link is an error:
    |A| = 4, |A∩P| = 2 → precision 1/2, AER 1 − 3/6 = 0.5."""
    gold = [parse_pharaoh_line("0-0 1?1 1-2", 3, 3), parse_pharaoh_line("", 2, 2)]
    predicted = [parse_pharaoh_line("0-0 1-1 2-2", 3, 3), parse_pharaoh_line("0-1", 2, 2)]
    one = alignment_quality(predicted[:1], gold[:1])
    assert (one.precision, one.recall, one.aer) == (pytest.approx(2 / 3), 0.5, pytest.approx(0.4))
    both = alignment_quality(predicted, gold)
    assert (both.precision, both.recall, both.aer) == (0.5, 0.5, pytest.approx(0.5))
    assert both.to_json()["predicted_links"] == 4
    perfect = alignment_quality(gold[:1], gold[:1])
    assert perfect.aer == pytest.approx(0.0) and perfect.recall == 1.0


def test_gold_files_with_pair_numbers(tmp_path: Path) -> None:
    gold = tmp_path / "gold.align"
    gold.write_text("0-0\n\n", encoding="utf-8")
    numbers = tmp_path / "pairs.txt"
    numbers.write_text("3\n1\n", encoding="utf-8")
    entries = read_gold(gold, [1, 2, 1], [1, 2, 1], read_pair_numbers(numbers))
    assert [(position, a.links) for position, a in entries] == [(2, frozenset({(0, 0)})), (0, frozenset())]
    with pytest.raises(InputError) as caught:
        read_gold(gold, [1, 2, 1], [1, 2, 1])
    assert str(caught.value) == f"{gold}: 2 gold lines for 3 sentence pairs: one line per pair expected"
    numbers.write_text("3 x\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_pair_numbers(numbers)
    assert str(caught.value) == f"{numbers}:1: 'x' is not a pair number (1-based)"
    numbers.write_text("9\n1\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_gold(gold, [1, 2, 1], [1, 2, 1], read_pair_numbers(numbers))
    assert str(caught.value) == f"{gold}:1: pair 9 is not in the corpus (3 pairs)"


SOURCE = (
    "# text = The new house .\n"
    "1\tThe\tthe\tDET\t_\t_\t3\tdet\t_\t_\n2\tnew\tnew\tADJ\t_\t_\t3\tamod\t_\t_\n"
    "3\thouse\thouse\tNOUN\t_\t_\t0\troot\t_\tSpaceAfter=No\n4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_\n"
)
TARGET = (
    "# text = La casa nueva .\n"
    "1\tLa\tel\tDET\t_\t_\t2\tdet\t_\t_\n2\tcasa\tcasa\tNOUN\t_\t_\t0\troot\t_\t_\n"
    "3\tnueva\tnuevo\tADJ\t_\t_\t2\tamod\t_\tSpaceAfter=No\n4\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_\n"
)


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, Path]:
    files = {name: tmp_path / name for name in ("en.conllu", "es.conllu", "swap.align", "gold.align")}
    files["en.conllu"].write_text(SOURCE, encoding="utf-8")
    files["es.conllu"].write_text(TARGET, encoding="utf-8")
    files["swap.align"].write_text("0-0 1-1 2-2 3-3\n", encoding="utf-8")  # "new"/"house" crossed wrongly
    files["gold.align"].write_text("0-0 1-2 2-1 3?3\n", encoding="utf-8")
    return files


def test_align_measures_a_given_file_against_gold(run_cli, corpus: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    """A = {0-0, 1-1, 2-2, 3-3}; S = {0-0, 1-2, 2-1}, P = S ∪ {3?3}: |A∩S| = 1, |A∩P| = 2,
    precision 2/4, recall 1/3, AER 1 − 3/7."""
    args = ["align", "--src-lang", "en", "--tgt-lang", "es", "--source-conllu", corpus["en.conllu"],
            "--reference-conllu", corpus["es.conllu"], "--alignment", corpus["swap.align"], "--gold", corpus["gold.align"]]
    code, out, err = run_cli(*args, "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["precision"] == 0.5 and report["recall"] == pytest.approx(1 / 3)
    assert report["aer"] == pytest.approx(1 - 3 / 7)
    code, out, err = run_cli(*args)
    assert out == "gold pairs 1  links: predicted 4, sure 3\nprecision 0.5000  recall 0.3333  AER 0.5714\n"


def test_align_writes_pharaoh_with_unsure_marks(run_cli, corpus: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A given alignment is written back as it is (files are not repaired); --mark-unsure keeps i?j."""
    output = tmp_path / "out.align"
    code, _out, err = run_cli("align", "--src-lang", "en", "--tgt-lang", "es", "--source-conllu", corpus["en.conllu"],
                              "--reference-conllu", corpus["es.conllu"], "--alignment", corpus["gold.align"],
                              "--output", output, "--mark-unsure")
    assert code == 0, err
    assert output.read_text(encoding="utf-8") == "0-0 1-2 2-1 3?3\n"
    code, out, err = run_cli("align", "--src-lang", "en", "--tgt-lang", "es", "--source-conllu", corpus["en.conllu"],
                             "--reference-conllu", corpus["es.conllu"], "--alignment", corpus["gold.align"])
    assert (code, out) == (0, "0-0 1-2 2-1 3-3\n")


def test_align_with_eflomal_and_a_dictionary_repairs_the_links(run_cli, corpus: dict[str, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """One sentence pair teaches eflomal nothing; the dictionary anchors house→casa and new→nueva."""
    dictionary = tmp_path / "en-es.tsv"
    dictionary.write_text("house\tcasa\nnew\tnuevo\n", encoding="utf-8")
    code, out, err = run_cli("align", "--src-lang", "en", "--tgt-lang", "es", "--source-conllu", corpus["en.conllu"],
                             "--reference-conllu", corpus["es.conllu"], "--aligner", "eflomal",
                             "--dictionary", dictionary)
    assert code == 0, err
    links = set(parse_pharaoh_line(out.strip(), 4, 4).links)
    assert {(1, 2), (2, 1)} <= links and (1, 1) not in links and (2, 2) not in links


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--gold-pairs", "x.txt"], "checkpoints: error: --gold-pairs needs --gold\n"),
        (["--format", "xml", "--gold", "{gold}"], "checkpoints: error: --format 'xml': choose table or json\n"),
    ],
    ids=["pairs-without-gold", "format"],
)
def test_align_usage_errors(run_cli, corpus: dict[str, Path], extra: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    extra = [value.format(gold=corpus["gold.align"]) for value in extra]
    code, _out, err = run_cli("align", "--src-lang", "en", "--tgt-lang", "es", "--source-conllu", corpus["en.conllu"],
                              "--reference-conllu", corpus["es.conllu"], "--alignment", corpus["swap.align"], *extra)
    assert (code, err) == (2, message)


def test_align_missing_gold_file(run_cli, corpus: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run_cli("align", "--src-lang", "en", "--tgt-lang", "es", "--source-conllu", corpus["en.conllu"],
                              "--reference-conllu", corpus["es.conllu"], "--alignment", corpus["swap.align"],
                              "--gold", "missing.align")
    assert (code, err) == (1, "checkpoints: error: missing.align: no such file\n")


def test_align_bad_gold_line_names_file_and_line(run_cli, corpus: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    corpus["gold.align"].write_text("0-0 1-9\n", encoding="utf-8")
    code, _out, err = run_cli("align", "--src-lang", "en", "--tgt-lang", "es", "--source-conllu", corpus["en.conllu"],
                              "--reference-conllu", corpus["es.conllu"], "--alignment", corpus["swap.align"],
                              "--gold", corpus["gold.align"])
    assert (code, err) == (1, f"checkpoints: error: {corpus['gold.align']}:1: link 1-9: target index 9 out of range (sentence has 4 words)\n")
