"""ULC and QUEEN as metrics: the name parser, Asiya's normalisation, QUEEN's counts, levels and significance.

Oracle values come from the Asiya digest (§16.2: the ULC and QUEEN toys) and
the IQMT digest (A.1.6: QUEEN 12/18 and KING's leave-one-out QUEEN 0/4);
the others are worked out by hand in the comments. The parts are test-only
metrics whose scores are looked up in a table, so each check is about the
combination, not about a metric family.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
import pytest

from checkpoints.errors import UsageError
from checkpoints.evaluate.metric_runner import SignificanceRequest, run_metrics
from checkpoints.evaluate.metrics import registry
from checkpoints.evaluate.metrics.base import Aggregation, MeanOfSegments, MetricOptions
from checkpoints.evaluate.metrics.combination import QUEEN, ULC, canonical_name, split_metric_list
from checkpoints.evaluate.metrics.registry import MetricEntry, entry, get_metric
from checkpoints.evaluate.resample import ResampleSpec
from checkpoints.io import testsets
from checkpoints.io.testsets import SetKind, TextSet


class Lookup(MeanOfSegments):
    """``x(hypothesis, reference)`` read from a table (the first reference), 0 when absent."""

    table: ClassVar[dict[tuple[str, str], float]] = {}

    def segment_score(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> float:
        return self.table.get((hypothesis, references[0]), 0.0)


def lookup(name: str, table: dict[tuple[str, str], float]) -> type[Lookup]:
    return type(name, (Lookup,), {"name": name, "description": f"{name} (test)", "table": table})


# Asiya digest §16.2 QUEEN toy: one segment, references R1..R3, system S.
ASIYA_QUEEN = {
    ("S", "R1"): 0.5, ("S", "R2"): 0.3, ("S", "R3"): 0.4,
    ("R1", "R2"): 0.45, ("R2", "R1"): 0.45, ("R1", "R3"): 0.35, ("R3", "R1"): 0.35,
    ("R2", "R3"): 0.6, ("R3", "R2"): 0.6,
}
# IQMT digest A.1.6: references R0..R2, candidate a.
IQMT_QUEEN = {
    ("a", "R0"): 0.55, ("a", "R1"): 0.45, ("a", "R2"): 0.65,
    ("R0", "R1"): 0.5, ("R1", "R0"): 0.5, ("R0", "R2"): 0.4, ("R2", "R0"): 0.4,
    ("R1", "R2"): 0.6, ("R2", "R1"): 0.6,
}


@pytest.fixture
def table_metrics(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = {
        "X1": MetricEntry("x1", lookup("X1", ASIYA_QUEEN)),
        "XI": MetricEntry("xi", lookup("XI", IQMT_QUEEN)),
        # A second similarity that accepts everything except r0 = R3 for S (see test_queen_is_a_conjunction).
        "X2": MetricEntry("x2", lookup("X2", {("S", "R1"): 1.0, ("S", "R2"): 1.0})),
        "NEEDS-LANG": MetricEntry("language-dependent (test)", lookup("NEEDS-LANG", {}), language=True),
    }
    monkeypatch.setattr(registry, "_entries", lambda: entries)


def text_set(name: str, kind: SetKind, segments: Sequence[str], docs: Sequence[str]) -> TextSet:
    return TextSet(
        name=name, kind=kind, path=f"{name}.txt", doc_ids=tuple(docs),
        seg_ids=tuple(str(i + 1) for i in range(len(segments))), segments=tuple(segments),
        lines=tuple(range(1, len(segments) + 1)),
    )


def make_testbed(references: dict[str, Sequence[str]], systems: dict[str, Sequence[str]], docs: Sequence[str]) -> testsets.Testbed:
    return testsets.Testbed(
        doc_ids=tuple(docs),
        seg_ids=tuple(str(i + 1) for i in range(len(docs))),
        references=tuple(text_set(n, SetKind.REFERENCE, s, docs) for n, s in references.items()),
        systems=tuple(text_set(n, SetKind.SYSTEM, s, docs) for n, s in systems.items()),
    )


# --- names --------------------------------------------------------------------------------


def test_split_on_commas_outside_parentheses() -> None:
    assert split_metric_list("ULC( BLEU , METEOR-ex,-TER ), BLEU,") == ["ULC(BLEU,METEOR-ex,-TER)", "BLEU"]
    assert split_metric_list("QUEEN(BLEU,ROUGE-L)") == ["QUEEN(BLEU,ROUGE-L)"]
    assert canonical_name(" BLEU ") == "BLEU"


@pytest.mark.parametrize(("value", "message"), [
    ("ULC(BLEU", "metric list 'ULC(BLEU': '(' without ')'"),
    ("BLEU)", "metric list 'BLEU)': ')' without '('"),
    ("ulc(BLEU)", "unknown metric combination 'ulc' (did you mean ULC?)"),
    ("SUM(BLEU)", "unknown metric combination 'SUM' (choose ULC or QUEEN)"),
    ("ULC()", "ULC() names no metric: give ULC(NAME,...)"),
    ("ULC(BLEU,,chrF)", "ULC(BLEU,,chrF): an empty metric name"),
    ("ULC(BLEU, BLEU)", "ULC(BLEU,BLEU) names BLEU more than once"),
    ("ULC(ULC(BLEU),chrF)", "ULC: combinations do not nest, name plain metrics in 'ULC(ULC(BLEU),chrF)'"),
    ("ULC(BLEU,FOO)", "ULC(BLEU,FOO): unknown metric 'FOO' (see `checkpoints metrics --list`)"),
    ("ULC(bleu)", "ULC(bleu): unknown metric 'bleu' (did you mean BLEU?)"),
    ("ULC(BLEU)x", "metric 'ULC(BLEU)x': write a combination as ULC(NAME,...) or QUEEN(NAME,...)"),
])
def test_bad_names(value: str, message: str) -> None:
    """The syntax is checked when the list is split, the parts when the registry looks the name up."""
    with pytest.raises(UsageError) as error:
        for name in split_metric_list(value):
            entry(name)
    assert str(error.value) == message


def test_entry_and_signature_name_the_parts() -> None:
    metric = get_metric("ULC( BLEU , -TER )")
    assert isinstance(metric, ULC)
    assert metric.name == "ULC(BLEU,-TER)"
    signature = metric.signature()
    assert signature["metric"] == "ULC(BLEU,-TER)"
    assert signature["agg"] == "combined"
    assert signature["BLEU.agg"] == "corpus" and signature["-TER.tok"] == "tercom"
    assert "BLEU.tok" not in signature  # the same tokenizer as the combination's
    queen = get_metric("QUEEN(BLEU,ROUGE-L)")
    assert isinstance(queen, QUEEN) and queen.aggregation is Aggregation.MEAN
    assert queen.signature()["ROUGE-L.agg"] == "mean"


def test_entry_language_and_requires(table_metrics) -> None:
    assert entry("ULC(X1,NEEDS-LANG)").language
    assert not entry("QUEEN(X1,X2)").language
    assert entry("ULC(X1,X2)").sets == ()


# --- ULC ----------------------------------------------------------------------------------


def constant_stats(*scores: float) -> np.ndarray:
    """One segment, parts of statistics ``[score, 1]`` side by side."""
    return np.array([[value for score in scores for value in (score, 1.0)]])


def toy_ulc() -> ULC:
    return ULC([lookup("M1", {})(), lookup("-M2", {})()])


def test_ulc_asiya_toy() -> None:
    # Asiya digest §16.2: m1 A=0.3 B=0.6 → u A=0.5 B=1.0; m2=−TER A=−0.5 B=−0.2 → min −0.5, max 0
    # → u=(x+0.5)/0.5: A=0 B=0.6; ULC A=0.25, B=0.80.
    ulc = toy_ulc()
    stats = {"A": constant_stats(0.3, -0.5), "B": constant_stats(0.6, -0.2)}
    ulc.fit(stats, ["d"])
    assert ulc.system_score(stats["A"]) == pytest.approx(0.25)
    assert ulc.system_score(stats["B"]) == pytest.approx(0.80)


def test_ulc_all_zero_is_zero() -> None:
    ulc = toy_ulc()
    stats = {"A": constant_stats(0.0, 0.0)}
    ulc.fit(stats, ["d"])
    assert ulc.system_score(stats["A"]) == 0.0  # Asiya's safe division


def test_ulc_needs_fitting() -> None:
    with pytest.raises(UsageError, match="normalised over a whole test bed"):
        toy_ulc().system_score(constant_stats(0.3, -0.5))


def test_ulc_levels_have_their_own_bounds() -> None:
    # Two systems, two segments in documents d1, d2; m1 mean-of-segments, m2 likewise.
    #   A: m1 = (0.2, 0.6), m2 = (−0.4, 0.0);  B: m1 = (0.8, 0.4), m2 = (−0.2, −0.6)
    # sys: m1 A=0.4 B=0.6 → /0.6: 2/3, 1;  m2 A=−0.2 B=−0.4 → (x+0.4)/0.4: 0.5, 0
    #      ULC A = (2/3 + 0.5)/2 = 7/12, B = (1 + 0)/2 = 0.5
    # seg (bounds over all four segments): m1 max 0.8; m2 min −0.6
    #      A1 = (0.25 + 1/3)/2 = 7/24, A2 = (0.75 + 1)/2 = 0.875
    # (a system's ULC is not the mean of its segment ULCs: (7/24 + 0.875)/2 = 0.583 = 7/12 here by chance
    #  for A, but B: seg B1 = (1 + 2/3)/2 = 5/6, B2 = (0.5 + 0)/2 = 0.25 → mean 13/24 ≠ 0.5)
    ulc = toy_ulc()
    stats = {
        "A": np.array([[0.2, 1, -0.4, 1], [0.6, 1, 0.0, 1]]),
        "B": np.array([[0.8, 1, -0.2, 1], [0.4, 1, -0.6, 1]]),
    }
    docs = ["d1", "d2"]
    ulc.fit(stats, docs)
    assert ulc.system_score(stats["A"]) == pytest.approx(7 / 12)
    assert ulc.system_score(stats["B"]) == pytest.approx(0.5)
    assert ulc.segment_scores(stats["A"]) == pytest.approx([7 / 24, 0.875])
    assert ulc.segment_scores(stats["B"]) == pytest.approx([5 / 6, 0.25])
    # doc level = seg level here (one segment a document), with the same bounds
    assert ulc.document_scores(stats["B"]) == pytest.approx([5 / 6, 0.25])


def test_ulc_through_the_runner_and_significance(table_metrics) -> None:
    # X1 of systems S and T against R1 (one segment each, one document):
    # S: 0.5; T ("R2" as output): x(R2, R1) = 0.45.  X2: S 1.0, T 0.
    # ULC S = (0.5/0.5 + 1/1)/2 = 1, T = (0.45/0.5 + 0)/2 = 0.45.
    bed = make_testbed({"R1": ["R1", "R1"]}, {"S": ["S", "S"], "T": ["R2", "R2"]}, ["d", "d"])
    request = SignificanceRequest(baseline="S", spec=ResampleSpec(samples=50, seed=1))
    report = run_metrics(bed, ["ULC(X1,X2)"], significance=request)
    assert report.scores["S"]["ULC(X1,X2)"].system == pytest.approx(1.0)
    assert report.scores["T"]["ULC(X1,X2)"].system == pytest.approx(0.45)
    assert report.scores["T"]["ULC(X1,X2)"].segments == pytest.approx((0.45, 0.45))
    assert report.scores["T"]["ULC(X1,X2)"].documents == {"d": pytest.approx(0.45)}
    assert report.aggregations["ULC(X1,X2)"] == "combined"
    (comparison,) = report.significance.comparisons
    # Identical segments: every resample gives the same difference, 0.45 − 1.
    assert comparison.outcome.difference == pytest.approx(-0.55)
    assert report.statistics["ULC(X1,X2)"]["S"].shape == (2, 4)


# --- QUEEN --------------------------------------------------------------------------------


def test_queen_asiya_toy(table_metrics) -> None:
    # 18 samples (3 r0 × 6 ordered pairs); accepted: r0=R1 (0.5) → 4, R2 (0.3) → 0, R3 (0.4) → 2: 6/18.
    bed = make_testbed({"R1": ["R1"], "R2": ["R2"], "R3": ["R3"]}, {"S": ["S"]}, ["d"])
    report = run_metrics(bed, ["QUEEN(X1)"])
    assert report.scores["S"]["QUEEN(X1)"].system == pytest.approx(6 / 18)
    assert report.statistics["QUEEN(X1)"]["S"].tolist() == [[6.0, 18.0]]


def test_queen_iqmt_toy_and_leave_one_out(table_metrics) -> None:
    # A.1.6: a → 4 + 2 + 6 = 12/18. With --include-refs R0 is a peer of {R1, R2}: pairs
    # (R1,R2)=(R2,R1)=0.6, x(R0,R1)=0.5 and x(R0,R2)=0.4 pass neither: 0/4.
    bed = make_testbed({"R0": ["R0"], "R1": ["R1"], "R2": ["R2"]}, {"a": ["a"]}, ["d"])
    report = run_metrics(bed, ["QUEEN(XI)"], include_refs=True)
    assert report.scores["a"]["QUEEN(XI)"].system == pytest.approx(12 / 18)
    assert report.scores["R0"]["QUEEN(XI)"].system == 0.0


def test_queen_is_a_conjunction(table_metrics) -> None:
    # X2 gives S 1.0 against R1 and R2, 0 against R3, and 0 to every reference pair, so it accepts
    # every sample (1 ≥ 0, and 0 ≥ 0 for r0 = R3): 18/18. X1 ∧ X2 keeps X1's 6 of 18.
    bed = make_testbed({"R1": ["R1"], "R2": ["R2"], "R3": ["R3"]}, {"S": ["S"]}, ["d"])
    report = run_metrics(bed, ["QUEEN(X2)", "QUEEN(X1,X2)"])
    assert report.scores["S"]["QUEEN(X2)"].system == 1.0
    assert report.scores["S"]["QUEEN(X1,X2)"].system == pytest.approx(6 / 18)


def test_queen_levels_pool_counts(table_metrics) -> None:
    # Segment 1 is the Asiya toy (6/18); segment 2 is an unknown string, 0 against everything, and
    # the reference pairs are 0 too, so every sample passes (0 ≥ 0): 18/18.
    # Documents d1 = {1}, d2 = {2}; system = (6 + 18)/(18 + 18) = 2/3.
    bed = make_testbed({"R1": ["R1", "u"], "R2": ["R2", "v"], "R3": ["R3", "w"]}, {"S": ["S", "z"]}, ["d1", "d2"])
    report = run_metrics(bed, ["QUEEN(X1)"])
    scores = report.scores["S"]["QUEEN(X1)"]
    assert scores.segments == pytest.approx((1 / 3, 1.0))
    assert scores.documents == {"d1": pytest.approx(1 / 3), "d2": 1.0}
    assert scores.system == pytest.approx(2 / 3)


def test_queen_needs_three_references(table_metrics) -> None:
    bed = make_testbed({"R1": ["R1"], "R2": ["R2"]}, {"S": ["S"]}, ["d"])
    with pytest.raises(UsageError) as error:
        run_metrics(bed, ["QUEEN(X1)"])
    assert str(error.value) == (
        "QUEEN(X1) needs at least 3 references, not 2 (Asiya's rule; `checkpoints qarla --trans-topic` works with two)"
    )


def test_queen_matches_qarla_service(tmp_path) -> None:
    """The metric and ``checkpoints qarla``'s QUEEN agree on real text (BLEU and chrF on 40 TED segments,
    two references and a third system's output standing in as a third reference)."""
    from checkpoints.evaluate.meta.qarla import queen_systems
    from checkpoints.io.testsets import InputFormat, load_testbed
    from checkpoints.service.qarla import compute_similarities

    ted = __import__("pathlib").Path(__file__).parent.parent / "data" / "metrics" / "ted" / "zh-en"
    paths = {}
    for name, path in {"ref": ted / "ref.txt", "refB": ted / "refB.txt", "refC": ted / "sys" / "Online-W.txt",
                       "SMU": ted / "sys" / "SMU.txt", "MiSS": ted / "sys" / "MiSS.txt"}.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("".join(path.read_text(encoding="utf-8").splitlines(keepends=True)[:40]), encoding="utf-8")
    bed = load_testbed(InputFormat.RAW, [paths["ref"], paths["refB"], paths["refC"]],
                       [("SMU", paths["SMU"]), ("MiSS", paths["MiSS"])])
    options = MetricOptions(language="en")
    report = run_metrics(bed, ["QUEEN(BLEU,chrF)"], options)
    expected = queen_systems(compute_similarities(bed, ["BLEU", "chrF"], options), ["BLEU", "chrF"])
    for system in ("SMU", "MiSS"):
        assert report.scores[system]["QUEEN(BLEU,chrF)"].system == pytest.approx(expected[system])
