"""Human likeness in ``checkpoints meta``: KING and ORANGE with references scored as peers.

Oracles: asiya-reference §16.2 (the KING/ORANGE toy table: KING 0.5, ORANGE
0.75) and hand-worked cases; the TED zh-en check that MQM's low-rated
reference ``ref`` draws a warning and ``refB`` does not.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from checkpoints.cli import main
from checkpoints.evaluate.meta.judged import JudgedSet
from checkpoints.evaluate.meta.orange import human_likeness, likeness
from checkpoints.evaluate.meta.qarla import Similarities, king
from checkpoints.evaluate.metrics.base import Granularity

TED = Path(__file__).parent.parent / "data" / "metrics" / "ted" / "zh-en"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    out, err = capsys.readouterr()
    return int(caught.value.code or 0), out, err


def test_asiya_toy_king_and_orange() -> None:
    """asiya-reference §16.2: refs R1, R2, systems A, B, two segments, scores against the other reference."""
    references = np.array([[0.6, 0.5], [0.6, 0.4]])  # (R, U)
    systems = np.array([[[0.5, 0.2], [0.7, 0.3]], [[0.4, 0.45], [0.6, 0.1]]])  # (R, S, U)
    measured = likeness(references, systems)
    assert (measured.king_hits, measured.trials) == (2, 4)
    assert measured.king == 0.5
    assert measured.orange == 0.75
    # Ranks among {r, A, B}, ties for the reference: R1 seg 1 is 2nd (B 0.7 above), R2 seg 1 1st (tie with B),
    # R1 seg 2 1st, R2 seg 2 2nd (A 0.45 above): (2 + 1 + 1 + 2) / 4 / 3 = 0.5.
    assert measured.rank_orange == pytest.approx(0.5)
    # With ties for the reference the two ORANGEs are affine images: (1 + |S|(1 − ORANGE)) / (|S| + 1).
    assert measured.rank_orange == pytest.approx((1 + 2 * (1 - measured.orange)) / 3)


def test_missing_scores_leave_the_trial_out() -> None:
    references = np.array([[1.0, np.nan]])
    systems = np.array([[[0.5, 0.2]]])
    measured = likeness(references, systems)
    assert (measured.trials, measured.king, measured.orange, measured.rank_orange) == (1, 1.0, 1.0, 0.5)


def _bed() -> JudgedSet:
    """Three segments, references R1 R2, systems A B; EXACT-like metric (1 when equal to a reference)."""
    return JudgedSet(
        judgments="test",
        documents=("d1", "d1", "d2"),
        segment_ids=("1", "2", "3"),
        references=(("a", "b", "c"), ("a", "x", "c")),
        sources=None,
        outputs={"A": ("a", "b", "z"), "B": ("q", "x", "c")},
        segment_scores={("A", 0): 1.0, ("B", 0): 0.0},
    )


class Exact:
    """x(c, R) = 1 when the candidate equals one of the references (mean of segments above)."""

    name = "EXACT"

    def corpus_stats(self, hypotheses, references, sources=None):  # type: ignore[no-untyped-def]
        return np.array([[float(any(h == r[i] for r in references))] for i, h in enumerate(hypotheses)])

    def segment_scores(self, stats):  # type: ignore[no-untyped-def]
        return stats[:, 0]

    def system_score(self, stats):  # type: ignore[no-untyped-def]
        return float(stats[:, 0].mean())


def test_hand_worked_segment_level() -> None:
    """Segment level, each reference against the other.

    seg 1: R1 "a" vs R2 "a": 1; A "a": 1; B "q": 0 -> both refs beat or tie both systems.
    seg 2: R1 "b" vs R2 "x": 0; A against R2: 0, B "x" against R2: 1 (R1 held out) -> B above;
           R2 held out: R2 "x" vs R1 "b": 0; A "b": 1 above, B: 0.
    seg 3: refs equal (1); A "z": 0; B "c": 1 (tie).
    KING (Asiya): trials (R1,1) (R2,1) (R1,3) (R2,3) win, (R1,2) (R2,2) lose: 4/6.
    ORANGE: 12 pairs, losses: (R1,2,B) and (R2,2,A): 10/12. rank: (1+1+2+2+1+1)/6/3 = 8/18.
    """
    result = human_likeness(_bed(), Exact(), Granularity.SEG)  # type: ignore[arg-type]
    assert result.asiya.king == pytest.approx(4 / 6)
    assert result.asiya.orange == pytest.approx(10 / 12)
    assert result.asiya.rank_orange == pytest.approx(8 / 18)
    assert (result.references, result.units, result.trans_topic) == (2, 3, True)
    # QARLA's KING on the same single-reference similarities, computed directly.
    sr = np.array([[[[1, 1], [1, 0], [0, 0]], [[0, 0], [0, 1], [1, 1]]]], dtype=float)
    rr = np.full((1, 3, 2, 2), np.nan)
    rr[0, :, 0, 1] = rr[0, :, 1, 0] = [1, 0, 1]
    expected = king(Similarities(("EXACT",), ("A", "B"), ("R1", "R2"), sr, rr), trans_topic=True)
    assert result.qarla_king == pytest.approx(expected)


def test_system_level_orange_and_king_needs_units() -> None:
    """System level: one unit; ORANGE works, QARLA's KING with two references cannot pool."""
    from checkpoints.errors import UsageError

    result = human_likeness(_bed(), Exact(), Granularity.SYS, qarla=False)  # type: ignore[arg-type]
    # R1 held out: R1 2/3, A 1/3, B 2/3 -> both beaten or tied; R2 held out: R2 2/3, A 2/3, B 1/3.
    assert (result.asiya.king, result.asiya.orange, result.asiya.rank_orange) == (1.0, 1.0, pytest.approx(1 / 3))
    with pytest.raises(UsageError, match="at least two sys-level units"):
        human_likeness(_bed(), Exact(), Granularity.SYS)  # type: ignore[arg-type]


@pytest.mark.usefixtures("test_metrics")
def test_cli_json_shape_two_mqm_references(meta_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["meta", "--mqm", str(meta_data / "mqm_ted_zhen.small.tsv"), "--reference-system", "ref",
         "--reference-system", "refB", "-m", "TEST-len,TEST-hits", "-g", "seg",
         "--criteria", "pearson,king,orange", "--format", "json"],
        capsys,
    )
    assert code == 0, err
    document = json.loads(out)
    assert document["criteria"] == ["pearson", "king", "orange"]
    for name in ("TEST-len", "TEST-hits"):
        result = document["results"][name]
        assert list(result) == ["pearson", "king", "orange"]
        assert set(result["king"]) == {"r", "ci", "asiya", "references", "units", "trans_topic"}
        assert set(result["orange"]) == {"r", "ci", "rank", "references", "units"}
        assert result["king"]["trans_topic"] is True and result["king"]["references"] == 2
        assert result["orange"]["units"] == 3
        for value in (result["king"]["r"], result["king"]["asiya"], result["orange"]["r"], result["orange"]["rank"]):
            assert 0.0 <= value <= 1.0
    assert set(document["grouped"]["results"]["TEST-len"]) == {"pearson"}
    code, out, err = run(
        ["meta", "--mqm", str(meta_data / "mqm_ted_zhen.small.tsv"), "--reference-system", "ref",
         "--reference-system", "refB", "-m", "TEST-len", "-g", "seg", "--criteria", "king,orange"],
        capsys,
    )
    assert code == 0, err
    assert "king and orange: each of 2 references" in out and "trans-topic" in out


@pytest.mark.usefixtures("test_metrics")
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--reference-system", "ref", "--criteria", "orange"],
         "orange score each reference against the others: give at least two, e.g. --reference-system ref"),
        (["--reference-system", "ref", "--reference-system", "refB", "--criteria", "king", "-g", "sys"],
         "king with 2 references pools reference pairs across units"),
        (["--reference-system", "ref", "--reference-system", "refB", "--criteria", "pearson", "--clusters", "king"],
         "significance clusters are not defined for king"),
        (["--reference-system", "ref", "--reference-system", "nobody", "--criteria", "king"],
         "reference system 'nobody' is not in"),
    ],
)
def test_one_line_errors(meta_data: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    code, out, err = run(["meta", "--mqm", str(meta_data / "mqm_ted_zhen.small.tsv"), "-m", "TEST-len", *extra], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"checkpoints: error: {message}"), err
    assert err.count("\n") == 1


@pytest.mark.usefixtures("test_metrics")
def test_assessments_need_two_references(meta_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a\n", encoding="utf-8")
    code, out, err = run(["meta", "--assessments", str(tmp_path / "x.csv"), "-r", str(ref), "--system", f"A={ref}",
                          "-m", "TEST-len", "--criteria", "king"], capsys)
    assert (code, out) == (2, "")
    assert err == "checkpoints: error: king score each reference against the others: give at least two --reference FILE\n"


# -- TED zh-en: MQM rates the reference ``ref`` below every system -------------------------------


@pytest.fixture(scope="module")
def ted_mqm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An MQM error file of the TED zh-en texts (one No-error row per system and segment).

    The human scores come from the released average-score file next to the texts, so only the
    outputs are needed here; references ``ref`` and ``refB`` are rated like the systems.
    """
    ids = [line.split("\t") for line in (TED / "ids.tsv").read_text(encoding="utf-8").splitlines()]
    source = (TED / "source.txt").read_text(encoding="utf-8").splitlines()
    texts = {"ref": TED / "ref.txt", "refB": TED / "refB.txt"} | {p.stem: p for p in sorted((TED / "sys").glob("*.txt"))}
    rows = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"]
    for name, path in texts.items():
        for (doc, doc_id, seg), src, target in zip(ids, source, path.read_text(encoding="utf-8").splitlines(), strict=True):
            rows.append(f"{name}\t{doc}\t{doc_id}\t{seg}\trater1\t{src}\t{target}\tNo-error\tNo-error")
    path = tmp_path_factory.mktemp("ted") / "mqm_ted_zhen.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.usefixtures("test_metrics")
@pytest.mark.parametrize(("reference", "other"), [("ref", "refB"), ("refB", "ref")])
def test_ted_zh_en_warns_about_the_low_rated_reference(
    ted_mqm: Path, capsys: pytest.CaptureFixture[str], reference: str, other: str
) -> None:
    code, out, err = run(
        ["meta", "--mqm", str(ted_mqm), "--mqm-scores", str(TED / "mqm_ted_zhen.avg_seg_scores.tsv"),
         "--reference-system", reference, "--exclude-system", other, "-m", "TEST-len", "--format", "json"],
        capsys,
    )
    assert code == 0, err
    document = json.loads(out)
    if reference == "ref":
        expected = ("checkpoints: warning: the humans rate the reference 'ref' below 13 of 13 systems "
                    "(mean -5.52 against -2.99 to -1.65): metrics scored against it reward resemblance "
                    "to a weaker translation\n")
        assert err == expected
        assert document["warnings"] == [expected.removeprefix("checkpoints: warning: ").rstrip("\n")]
    else:
        assert err == ""
        assert "warnings" not in document


def test_human_likeness_alone_scores_nothing_else() -> None:
    """KING or ORANGE asked for alone below system level costs only the human-likeness scoring:
    each reference and each system against each held-out set (2 + 2 × 2 corpora here, the
    single-reference similarities QARLA's KING needs are the same ones), not the systems against
    all references as correlations need. The results are the same either way."""
    from checkpoints.evaluate.meta.criteria import Criterion
    from checkpoints.evaluate.meta.results import CIMethod, MetaOptions
    from checkpoints.evaluate.meta.runner import run_meta
    from checkpoints.evaluate.metrics.registry import get_metric

    metric = get_metric("chrF")
    scored = metric.corpus_stats
    calls: list[int] = []

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(len(args[1]))
        return scored(*args, **kwargs)

    metric.corpus_stats = counted  # type: ignore[method-assign]
    alone = run_meta(_bed(), [metric], MetaOptions(level=Granularity.SEG, criteria=(Criterion.KING,), ci=CIMethod.NONE))
    assert calls == [1] * 6
    calls.clear()
    both = run_meta(_bed(), [metric], MetaOptions(level=Granularity.SEG, criteria=(Criterion.PEARSON, Criterion.KING),
                                                  ci=CIMethod.NONE))
    assert sorted(calls) == [1] * 6 + [2] * 2  # plus each system against both references
    assert alone.results["chrF"][Criterion.KING] == both.results["chrF"][Criterion.KING]
