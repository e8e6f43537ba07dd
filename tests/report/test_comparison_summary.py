"""The one-sentence summary of a comparison: printed by compare, shown by the report without JavaScript."""

from __future__ import annotations

from pathlib import Path

from checkpoints.report.comparison_summary import summary_sentences


def row(difference: float, significant: bool, too_few: bool = False) -> dict[str, object]:
    return {"difference": difference, "significant": significant, "too_few": too_few,
            "score_a": 0.5, "score_b": 0.5 + difference}


def test_better_worse_untested_and_overall() -> None:
    report = {
        "method": "bootstrap", "samples": 1000, "correction": "holm", "alpha": 0.05, "min_checkpoints": 30,
        "comparisons": [{
            "system_a": "direct", "system_b": "pivot",
            "taxonomy": {"en": {**row(-0.016, True), "score_a": 0.536, "score_b": 0.520}},
            "categories": {
                "Verb": row(-0.03, True), "Adjective": row(-0.02, True), "Noun": row(0.01, False),
                "Pronoun": row(0.02, True), "Hyperbaton": row(0.1, False, too_few=True),
            },
        }],
    }
    assert summary_sentences(report) == [
        "pivot against direct: overall 0.520 against 0.536, significantly lower; better on Pronoun; "
        "worse on Verb and Adjective; no significant difference on the other 1 category; "
        "1 with fewer than 30 check-points not tested (paired bootstrap, 1000 samples, Holm p ≤ 0.05)."
    ]


def test_compare_prints_it_and_the_report_shows_it_without_javascript(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import json

    db = tmp_path / "demo.db"
    assert run_cli("demo", "--db", db, "--samples", "50")[0] == 0
    code, out, _ = run_cli("compare", "--db", db, "--system", "direct", "--system", "pivot", "--baseline", "direct",
                           "--samples", "50", "-f", "json")
    assert code == 0
    sentence = json.loads(out)["summary"][0]
    assert sentence.startswith("pivot against direct: overall ")
    code, out, _ = run_cli("compare", "--db", db, "--system", "direct", "--system", "pivot", "--baseline", "direct",
                           "--samples", "50")
    assert code == 0
    assert " ".join(out.split()).endswith(" ".join(sentence.split()))
    page = (tmp_path / "demo-report.html").read_text(encoding="utf-8")
    head = page.split("<script", 1)[0]  # what a browser without JavaScript shows
    assert '<p class="summary">pivot against direct: overall ' in head
