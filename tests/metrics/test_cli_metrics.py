"""``checkpoints metrics`` end to end: options, formats, significance, one-line errors and exit codes.

Most tests use two small test-only metrics (clipped unigram precision and
exact match, values worked out by hand in the comments) so that they check the
command, not a metric family. The last tests run the real BLEU, chrF and -TER
on the TED en-de systems bundled under tests/data/metrics/ted and compare
with sacreBLEU.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from metrics_cli import run
from toy_metrics import ExactMatch, UnigramPrecision

from checkpoints.errors import ResourceNotAvailable
from checkpoints.evaluate.metrics import registry
from checkpoints.evaluate.metrics.base import Metric, MetricOptions
from checkpoints.evaluate.metrics.registry import MetricEntry

DATA = Path(__file__).parent.parent / "data" / "metrics"
FORMATS = DATA / "formats"
TED = DATA / "ted" / "en-de"


def needs_wordnet(options: MetricOptions) -> Metric:
    raise ResourceNotAvailable("WordNet not found (test)")


@pytest.fixture
def test_only_metrics(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = {
        "P1": MetricEntry(UnigramPrecision.description, UnigramPrecision),
        "EXACT": MetricEntry(ExactMatch.description, ExactMatch),
        "NEEDS-WN": MetricEntry("needs WordNet (test metric)", needs_wordnet),
    }
    monkeypatch.setattr(registry, "_entries", lambda: entries)


@pytest.fixture
def files(write_texts: Callable[[dict[str, str]], dict[str, Path]]) -> dict[str, Path]:
    """Whitespace-tokenized files whose scores are easy to work out."""
    contents = {
        "ref.txt": "a b c d\ne f\ng h i\n",
        "ref2.txt": "a b c e\ne f g\ng h i\n",
        "A.txt": "a b x\ne f\ng z z z\n",
        "B.txt": "a b c d\nf e\nq\n",
        "short.txt": "a b\n",
    }
    return write_texts(contents)


# --- listing and help -----------------------------------------------------------------------


def test_list(capsys, test_only_metrics) -> None:
    code, out, _ = run(capsys, "--list")
    assert code == 0
    assert out.splitlines() == [
        "P1        [corpus] clipped unigram precision (test metric)",
        "EXACT     [mean] 1 when the hypothesis equals a reference (test metric)",
        "NEEDS-WN  [unavailable here] needs WordNet (test metric)",
    ]


def test_help_has_examples(capsys) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "Examples" in out
    assert "checkpoints metrics --reference ref.de --system A=a.de" in out
    for option in ("--reference", "--system", "--source", "--metric-set", "--granularity", "--input", "--tokenize",
                   "--case", "--include-refs", "--baseline", "--significance", "--all-pairs", "--format", "--list"):
        assert option in out


# --- scores -----------------------------------------------------------------------------------


def test_mmatrix_default(capsys, test_only_metrics, files) -> None:
    # P1: A (2+2+1)/(3+2+4) = 5/9, B (4+2+0)/(4+2+1) = 6/7; EXACT: A 1/3, B 1/3
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-s", f"B={files['B.txt']}", "-m", "P1,EXACT")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:4] == [
        "# sys-level scores; test set ref: 3 segments in 1 document; references: ref.txt",
        "SYSTEM          P1       EXACT",
        "A       0.55555556  0.33333333",
        "B       0.85714286  0.33333333",
    ]
    assert "#   P1     nrefs:1|metric:P1|agg:corpus|tok:13a|case:mixed|version:0.1.0" in lines


def test_json_sys_shape(capsys, test_only_metrics, files) -> None:
    code, out, _ = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "P1", "-m", "EXACT,", "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert payload["granularity"] == "sys"
    assert payload["metrics"] == ["P1", "EXACT"]  # -m is cumulative; a trailing comma is ignored (Asiya)
    assert payload["scores"] == {"A": {"P1": pytest.approx(5 / 9), "EXACT": pytest.approx(1 / 3)}}
    assert set(payload["signature"]) == {"P1", "EXACT"}


def test_json_seg_and_doc(capsys, test_only_metrics, files) -> None:
    _, out, _ = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "P1", "-g", "seg", "-f", "json")
    payload = json.loads(out)
    assert payload["scores"]["A"]["P1"] == pytest.approx([2 / 3, 1.0, 1 / 4])
    assert payload["segments"][0] == {"doc": "UNKNOWN_DOC", "seg": "1"}
    _, out, _ = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "P1", "-g", "doc", "-f", "json")
    assert json.loads(out)["scores"]["A"]["P1"] == {"UNKNOWN_DOC": pytest.approx(5 / 9)}


def test_all_granularities(capsys, test_only_metrics, files) -> None:
    _, out, _ = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "P1", "-g", "all", "-f", "json")
    assert [item["granularity"] for item in json.loads(out)] == ["sys", "doc", "seg"]


def test_include_refs(capsys, test_only_metrics, files) -> None:
    # ref.txt against ref2.txt: 3/4 + 2/2 + 3/3 = 8/9; ref2.txt against ref.txt: 3/4 + 2/3 + 3/3 = 8/10
    _, out, _ = run(capsys, "-r", files["ref.txt"], "-r", files["ref2.txt"], "-s", f"A={files['A.txt']}", "-m", "P1",
                    "--include-refs", "-f", "json")
    scores = json.loads(out)["scores"]
    assert list(scores) == ["A", "ref.txt", "ref2.txt"]
    assert scores["ref.txt"]["P1"] == pytest.approx(8 / 9)
    assert scores["ref2.txt"]["P1"] == pytest.approx(0.8)


def test_nist_sgml_input(capsys, test_only_metrics) -> None:
    code, out, _ = run(capsys, "--input", "nist", "-r", FORMATS / "ref.sgm", "--source", FORMATS / "src.sgm",
                       "-s", FORMATS / "tst.sgm", "-m", "EXACT", "-g", "seg", "-f", "nist")
    assert code == 0
    rows = [line.split("\t") for line in out.splitlines() if line and not line.startswith("#")]
    # no system segment equals a reference segment; segments come in the source's order
    assert {row[5] for row in rows} == {"0.00000000"}
    assert rows[0] == ["EXACT", "sample-set", "sysA", "news.1", "1", "0.00000000"]
    assert [row[2:5] for row in rows] == [
        ["sysA", "news.1", "1"], ["sysA", "news.1", "2"], ["sysA", "news.2", "1"],
        ["sysB", "news.1", "1"], ["sysB", "news.1", "2"], ["sysB", "news.2", "1"],
    ]


def test_wmt_input_with_significance(capsys, test_only_metrics) -> None:
    path = FORMATS / "wmt.xml"
    code, out, _ = run(capsys, "--input", "wmt", "-r", path, "-s", path, "-m", "EXACT", "--baseline", "sysY",
                       "--samples", "200", "--seed", "1", "-f", "json")
    assert code == 0
    payload = json.loads(out)
    # sysX's talk.2 segment equals translator A's reference; its talk.1 segments match neither reference
    assert payload["scores"]["sysX"]["EXACT"] == pytest.approx(1 / 3)
    assert payload["scores"]["sysY"]["EXACT"] == 0.0
    (comparison,) = payload["significance"]["comparisons"]
    assert (comparison["baseline"], comparison["system"], comparison["difference"]) == ("sysY", "sysX", pytest.approx(1 / 3))
    assert payload["significance"]["samples"] == 200
    assert payload["signature"]["EXACT"].startswith("nrefs:2|metric:EXACT|")
    assert "|resample:bootstrap|samples:200|seed:1|correction:holm|alpha:0.05|" in payload["signature"]["EXACT"]


def test_all_pairs_csv(capsys, test_only_metrics, files) -> None:
    code, out, _ = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-s", f"B={files['B.txt']}",
                       "-s", f"C={files['ref.txt']}", "-m", "P1", "--all-pairs", "--significance", "ar",
                       "--samples", "100", "-f", "csv")
    assert code == 0
    rows = [line.split(",") for line in out.splitlines()]
    comparisons = [(row[6], row[1]) for row in rows if row[0] == "significance"]
    assert comparisons == [("A", "B"), ("A", "C"), ("B", "C")]
    assert "resample:ar|samples:100" in out


def test_output_file(capsys, test_only_metrics, files, tmp_path) -> None:
    target = tmp_path / "report.xml"
    code, out, _ = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "P1", "-f", "asiya-xml",
                       "--output", target)
    assert (code, out) == (0, "")
    assert '<SET metric="P1" n_docs="1" n_segments="3" hyp="A" ref="ref.txt" score="0.55555556"' in target.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".report")] == []


# --- errors --------------------------------------------------------------------------------------


def test_unknown_metric(capsys, test_only_metrics, files) -> None:
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "P1,BLUE")
    assert (code, out) == (2, "")
    assert err == "checkpoints: error: unknown metric 'BLUE' (see `checkpoints metrics --list`)\n"


def test_wrong_number_of_lines(capsys, test_only_metrics, files) -> None:
    code, _, err = run(capsys, "-r", files["ref.txt"], "-s", f"S={files['short.txt']}", "-m", "P1")
    assert code == 1
    assert err == f"checkpoints: error: {files['short.txt']}: 1 lines, expected 3\n"


def test_unknown_baseline(capsys, test_only_metrics, files) -> None:
    code, _, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-s", f"B={files['B.txt']}",
                       "-m", "P1", "--baseline", "Z")
    assert code == 2
    assert err == "checkpoints: error: unknown baseline 'Z' (systems: A, B)\n"


def test_unreadable_xml(capsys, test_only_metrics, tmp_path) -> None:
    path = tmp_path / "broken.xml"
    path.write_text('<?xml version="1.0"?>\n<dataset id="x">\n<collection>\n<doc id="d">\n</collection>\n</dataset>\n', encoding="utf-8")
    code, _, err = run(capsys, "--input", "wmt", "-r", path, "-s", path, "-m", "P1")
    assert code == 1
    assert err.startswith(f"checkpoints: error: {path}:5: not well-formed XML: ")
    assert err.count("\n") == 1


def test_missing_file(capsys, test_only_metrics, files, tmp_path) -> None:
    code, _, err = run(capsys, "-r", tmp_path / "none.txt", "-s", f"A={files['A.txt']}", "-m", "P1")
    assert (code, err) == (1, f"checkpoints: error: {tmp_path / 'none.txt'}: no such file\n")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-f", "html"], "--format 'html': choose mmatrix, smatrix, nist, asiya-xml, json or csv"),
        (["-g", "segment"], "--granularity 'segment': choose sys, doc, seg or all"),
        (["--input", "sgml"], "--input 'sgml': choose raw, nist or wmt"),
        (["--case", "lc"], "--case 'lc': choose cs or ci"),
        (["--tokenize", "moses"], "--tokenize 'moses': choose words, 13a, intl, zh, char or none"),
        (["--significance", "ar"], "--significance needs --baseline NAME or --all-pairs"),
        (["--baseline", "A", "--significance", "perm"], "--significance 'perm': choose bootstrap or ar"),
        (["--baseline", "A", "--correction", "bonferroni"], "--correction 'bonferroni': choose holm, bh or none"),
        (["--baseline", "A", "--samples", "0"], "--samples must be at least 1, not 0"),
        (["--baseline", "A", "--alpha", "1.5"], "--alpha must lie strictly between 0 and 1, not 1.5"),
        (["--include-refs"], "scoring the references needs at least two of them (each is scored against the others)"),
        (["--metric-set", "syntactic"], "unknown metric set 'syntactic' (known: all, lexical)"),
        (["--brevity-penalty", "longest"], "--brevity-penalty 'longest': choose closest or shortest"),
        (["--nist-info", "asiya"], "--nist-info 'asiya': choose mteval or intended"),
    ],
    ids=["format", "granularity", "input", "case", "tokenize", "significance-alone", "method", "correction", "samples",
         "alpha", "include-refs", "metric-set", "brevity-penalty", "nist-info"],
)
def test_usage_errors(capsys, test_only_metrics, files, extra, message) -> None:
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "P1", *extra)
    assert (code, out) == (2, "")
    assert err == f"checkpoints: error: {message}\n"


def test_metric_set_skips_what_cannot_run_here(capsys, test_only_metrics, files) -> None:
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "--metric-set", "lexical", "-f", "json")
    assert code == 0
    assert err == "checkpoints: warning: NEEDS-WN skipped: WordNet not found (test)\n"
    payload = json.loads(out)
    assert payload["metrics"] == ["P1", "EXACT"]
    assert payload["skipped"] == {"NEEDS-WN": "WordNet not found (test)"}


def test_metric_named_explicitly_must_run(capsys, test_only_metrics, files) -> None:
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "--metric-set", "lexical", "-m", "NEEDS-WN")
    assert (code, out) == (1, "")
    assert err == "checkpoints: error: WordNet not found (test)\n"


def test_no_metric(capsys, test_only_metrics, files) -> None:
    code, _, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}")
    assert (code, err) == (2, "checkpoints: error: no metric requested: give -m NAMES or --metric-set SET (see --list)\n")


def test_bad_system_option(capsys, test_only_metrics, files) -> None:
    code, _, err = run(capsys, "-r", files["ref.txt"], "-s", "=x.txt", "-m", "P1")
    assert (code, err) == (2, "checkpoints: error: --system '=x.txt': expected NAME=FILE\n")
    code, _, err = run(capsys, "-r", files["ref.txt"], "-s", str(files["A.txt"]), "-m", "P1")
    assert (code, err) == (2, f"checkpoints: error: --system {files['A.txt']}: raw input needs NAME=FILE\n")


def test_missing_reference_or_system(capsys, test_only_metrics, files) -> None:
    code, _, err = run(capsys, "-s", f"A={files['A.txt']}", "-m", "P1")
    assert (code, err) == (2, "checkpoints: error: at least one --reference FILE is required\n")
    code, _, err = run(capsys, "-r", files["ref.txt"], "-m", "P1")
    assert (code, err) == (2, "checkpoints: error: at least one --system NAME=FILE is required\n")


def test_output_problems_are_found_before_any_work(capsys, test_only_metrics, files, tmp_path) -> None:
    # The reference does not exist either: the output folder is checked first, before any file is read.
    target = tmp_path / "missing" / "report.txt"
    code, out, err = run(capsys, "-r", tmp_path / "none.txt", "-s", f"A={files['A.txt']}", "-m", "P1", "--output", target)
    assert (code, out) == (1, "")
    assert err == f"checkpoints: error: {target}: folder {target.parent} does not exist\n"


def test_bare_system_file_needs_a_name_for_raw_text_and_names_are_unique(capsys, test_only_metrics, files) -> None:
    code, _, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-s", f"A={files['B.txt']}", "-m", "P1")
    assert (code, err) == (2, "checkpoints: error: --system: system name 'A' given twice\n")


# --- the target language ---------------------------------------------------------------------------


def test_meteor_pa_needs_a_paraphrase_table(capsys, files) -> None:
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "METEOR-pa", "--target-lang", "en")
    assert (code, out, err) == (2, "", "checkpoints: error: METEOR-pa needs --paraphrase-table FILE\n")


def test_meteor_pa_reads_meteor_and_tab_separated_tables_alike(capsys, files, tmp_path) -> None:
    # "x" ~ "c d" in segment 1 and "z z" ~ "h i" in segment 3, in Meteor's own gzip format and as
    # tab-separated lines: the same entries give the same scores, above METEOR-ex's.
    import gzip

    meteor_format = tmp_path / "paraphrase.gz"
    with gzip.open(meteor_format, "wt", encoding="utf-8") as out:
        out.write("0.5\nx\nc d\n0.25\nh i\nz z\n")
    tab_separated = tmp_path / "paraphrase.tsv"
    tab_separated.write_text("x\tc d\nh i\tz z\t0.25\n", encoding="utf-8")
    scores = []
    for table in (meteor_format, tab_separated):
        code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "METEOR-pa,METEOR-ex",
                             "--target-lang", "en", "--paraphrase-table", table, "--format", "json")
        assert (code, err) == (0, "")
        scores.append(json.loads(out)["scores"]["A"])
    assert scores[0] == scores[1]
    assert scores[0]["METEOR-pa"] > scores[0]["METEOR-ex"]


@pytest.mark.parametrize("names", [["-m", "METEOR-st"], ["-m", "BLEU,ROUGE-L,METEOR-ex"]])
def test_raw_text_needs_the_target_language_for_language_metrics(capsys, files, names) -> None:
    # Raw text does not say its language; METEOR's stemmer and parameters, ROUGE's stemmer depend on it
    # (it used to be English for German data).
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", *names)
    assert (code, out) == (2, "")
    needing = "METEOR-st depends" if names[1] == "METEOR-st" else "ROUGE-L, METEOR-ex depend"
    assert err == (f"checkpoints: error: {needing} on the target language, which raw text does not declare: "
                   "give --tgt-lang LANG\n")


def test_metrics_that_ignore_the_language_need_no_target_lang(capsys, files) -> None:
    code, _, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "-m", "BLEU,chrF", "-f", "json")
    assert (code, err) == (0, "")


def test_target_language_comes_from_the_wmt_file(capsys) -> None:
    path = FORMATS / "wmt.xml"  # references and outputs lang="de"
    code, out, err = run(capsys, "--input", "wmt", "-r", path, "-s", path, "-m", "METEOR-st,ROUGE-1", "-f", "json")
    assert (code, err) == (0, "")
    signatures = json.loads(out)["signature"]
    assert "|lang:de|" in signatures["METEOR-st"] and "|weights:exact=1,stem=0.8|" in signatures["METEOR-st"]
    assert "|text:lc+alnum+snowball|" in signatures["ROUGE-1"]
    # --target-lang overrides what the file says
    _, out, _ = run(capsys, "--input", "wmt", "-r", path, "-s", path, "-m", "METEOR-st", "-f", "json", "--target-lang", "en")
    assert "|lang:en|" in json.loads(out)["signature"]["METEOR-st"]


def test_target_language_named_in_words_by_nist_xml(capsys) -> None:
    path = FORMATS / "nist.xml"  # trglang="English"
    code, out, err = run(capsys, "--input", "nist", "-r", path, "-s", path, "-m", "METEOR-ex,ROUGE-1", "-f", "json")
    assert (code, err) == (0, "")
    signatures = json.loads(out)["signature"]
    assert "|lang:en|" in signatures["METEOR-ex"] and "|params:0.85,0.2,0.6,0.75|" in signatures["METEOR-ex"]
    assert "|text:lc+alnum+rouge155|" in signatures["ROUGE-1"]


def test_a_skipped_metric_is_named_once(capsys, files) -> None:
    code, out, err = run(capsys, "-r", files["ref.txt"], "-s", f"A={files['A.txt']}", "--metric-set", "lexical",
                         "--target-lang", "de", "-f", "json")
    assert code == 0
    # not "METEOR-sy skipped: METEOR-sy: no synonym matching ..."
    assert err == ("checkpoints: warning: METEOR-sy skipped: no synonym matching for target language 'de' "
                   "(WordNet synonyms exist for English only)\n")
    assert json.loads(out)["skipped"] == {
        "METEOR-sy": "no synonym matching for target language 'de' (WordNet synonyms exist for English only)"
    }


def test_a_perfect_output_scores_zero_not_negative_zero(capsys, files) -> None:
    # -TER of an output equal to the reference is -0.0, printed "-0.00000000" before.
    code, out, _ = run(capsys, "-r", files["ref.txt"], "-s", f"R={files['ref.txt']}", "-m", "-TER,-WER", "-g", "all")
    assert code == 0
    assert "-0.00000000" not in out
    assert out.splitlines()[2].split() == ["R", "0.00000000", "0.00000000"]


# --- real metrics against sacreBLEU ----------------------------------------------------------------


def ted_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def test_bleu_chrf_ter_equal_sacrebleu_on_ted(capsys) -> None:
    """-m BLEU,chrF,-TER end to end on real MT output (WMT21 TED en-de, 529 segments)."""
    import sacrebleu
    import sacrebleu.metrics

    systems = ["Nemo", "UEdin", "Facebook-AI"]
    code, out, err = run(capsys, "-r", TED / "ref.txt", *[arg for name in systems for arg in ("-s", f"{name}={TED / 'sys' / name}.txt")],
                         "-m", "BLEU,chrF,-TER", "-f", "json")
    assert (code, err) == (0, "")
    scores = json.loads(out)["scores"]
    reference = ted_lines(TED / "ref.txt")
    for name in systems:
        hypotheses = ted_lines(TED / "sys" / f"{name}.txt")
        assert scores[name]["BLEU"] == pytest.approx(sacrebleu.corpus_bleu(hypotheses, [reference]).score / 100, abs=1e-9)
        assert scores[name]["chrF"] == pytest.approx(sacrebleu.corpus_chrf(hypotheses, [reference]).score, abs=1e-9)
        # -TER is tercom's TER as sacreBLEU computes it; --case cs (the default) = case_sensitive=True
        ter = sacrebleu.metrics.TER(case_sensitive=True).corpus_score(hypotheses, [reference]).score
        assert scores[name]["-TER"] == pytest.approx(-ter / 100, abs=1e-9)


def test_significance_on_ted_flags_a_clear_difference(capsys) -> None:
    """Facebook-AI is 2 BLEU points above Nemo on 529 segments: significant; the interval excludes 0."""
    code, out, _ = run(capsys, "-r", TED / "ref.txt", "-s", f"Nemo={TED / 'sys' / 'Nemo.txt'}",
                       "-s", f"FB={TED / 'sys' / 'Facebook-AI.txt'}", "-m", "BLEU,chrF", "--baseline", "Nemo", "-f", "json")
    assert code == 0
    payload = json.loads(out)
    for comparison in payload["significance"]["comparisons"]:
        assert comparison["significant"] is True
        assert comparison["interval"][0] > 0
        assert comparison["difference"] == pytest.approx(payload["scores"]["FB"][comparison["metric"]] - payload["scores"]["Nemo"][comparison["metric"]])


def test_nist_info_chooses_the_information_weights(capsys, tmp_path: Path) -> None:
    """Reference = output = "0 a 0 b": NIST-2 is 1.5 + 4/3 with mteval-v13a's weights (the bigrams
    after the token "0" weighed against all 4 words) and 1.5 + 2/3 as published (worked out in
    tests/metrics/test_bleu_nist.py); the non-default choice shows in the signature."""
    text = tmp_path / "t.txt"
    text.write_text("0 a 0 b\n", encoding="utf-8")
    results = {}
    for choice in ("mteval", "intended"):
        code, out, err = run(capsys, "-r", text, "-s", f"A={text}", "-m", "NIST-2", "-f", "json", "--nist-info", choice)
        assert (code, err) == (0, "")
        results[choice] = json.loads(out)
    assert results["mteval"]["scores"]["A"]["NIST-2"] == pytest.approx(1.5 + 4 / 3, abs=1e-12)
    assert results["intended"]["scores"]["A"]["NIST-2"] == pytest.approx(1.5 + 2 / 3, abs=1e-12)
    assert "info:intended" in results["intended"]["signature"]["NIST-2"]
    assert "info:" not in results["mteval"]["signature"]["NIST-2"]
