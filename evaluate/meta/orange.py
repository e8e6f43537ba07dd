"""Human-likeness criteria of ``checkpoints meta``: KING and ORANGE, with references scored as peers.

Human likeness needs no human scores: a metric is good when it scores the
human references above the automatic translations. Every criterion here
uses a leave-one-reference-out protocol (asiya-reference §9.4): each
reference ``r`` plays a "human system", scored against the other
references ``R−{r}``, and every system is scored against the same ``R−{r}``,
so at least two references are needed. ``U`` are the units of the chosen
granularity (segments, documents, or the whole test set at system level),
``S`` the systems.

Asiya's ORANGE (``do_metric_ORANGE``), the ``r`` of ``orange``
    ``(1/|R||U||S|) Σ_r Σ_u Σ_s 1[x(s, R−{r})_u ≤ x(r, R−{r})_u]``: the
    probability that the reference scores at least as high as a system.
    Higher is better; ties count for the reference.
Lin & Och's rank ORANGE (2004b), ``rank`` of ``orange``
    The average rank of the reference in the list of the systems' outputs
    plus the reference, divided by the list's size ``|S| + 1``. Lower is
    better (``1/(|S|+1)``: the reference always first). *Decision*: the rank
    is ``1 + #{s: x(s) > x(r)}`` (ties for the reference, as Asiya counts
    them), and only the held-out reference joins the list. With that tie
    rule the two ORANGEs are affine images of each other,
    ``rank = (1 + |S|(1 − ORANGE)) / (|S| + 1)``; both are printed because
    the literature quotes both.
Asiya's KING (``do_metric_KING``), ``asiya`` of ``king``
    ``(1/|R||U|) Σ_r Σ_u 1[∀s: x(s, R−{r})_u ≤ x(r, R−{r})_u]``.
QARLA's KING (Amigó et al. 2005, IQMT), the ``r`` of ``king``
    :func:`checkpoints.evaluate.meta.qarla.king` of the metric alone, with
    the units as QARLA's segments and single-reference similarities; with
    fewer than three references reference pairs are pooled across units
    (trans-topic mode), which needs at least two units.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.judged import JudgedSet
from checkpoints.evaluate.meta.qarla import Similarities, Tie, king_counts
from checkpoints.evaluate.metrics.base import Granularity, Metric


@dataclass(frozen=True, slots=True)
class Likeness:
    """Asiya's KING and ORANGE and Lin & Och's rank ORANGE as exact counts."""

    king_hits: int
    """(reference, unit) trials where the reference scores at least as high as every system."""
    orange_hits: int
    """(reference, unit, system) triples where the reference scores at least as high as the system."""
    rank_sum: int
    """Sum over trials of the reference's rank among the systems plus itself (1 = best)."""
    trials: int
    n_systems: int

    @property
    def king(self) -> float:
        return self.king_hits / self.trials

    @property
    def orange(self) -> float:
        return self.orange_hits / (self.trials * self.n_systems)

    @property
    def rank_orange(self) -> float:
        return self.rank_sum / (self.trials * (self.n_systems + 1))


def likeness(references: np.ndarray, systems: np.ndarray) -> Likeness:
    """Count KING, ORANGE and rank ORANGE from leave-one-out scores.

    ``references`` ``(R, U)`` holds ``x(r, R−{r})`` per unit, ``systems``
    ``(R, S, U)`` holds ``x(s, R−{r})``. A trial with a missing value (nan)
    is left out, so a system without output there cannot count either way.
    """
    references = np.asarray(references, dtype=np.float64)
    systems = np.asarray(systems, dtype=np.float64)
    if systems.ndim != 3 or references.shape != (systems.shape[0], systems.shape[2]):
        raise ValueError(f"shapes {references.shape} and {systems.shape} do not match (R, U) and (R, S, U)")
    if systems.shape[1] == 0:
        raise ValueError("no system")
    valid = ~np.isnan(references) & ~np.isnan(systems).any(axis=1)  # (R, U)
    beaten = systems <= references[:, None, :]  # (R, S, U)
    above = (systems > references[:, None, :]).sum(axis=1)  # (R, U)
    return Likeness(
        king_hits=int((beaten.all(axis=1) & valid).sum()),
        orange_hits=int((beaten.sum(axis=1) * valid).sum()),
        rank_sum=int(((1 + above) * valid).sum()),
        trials=int(valid.sum()),
        n_systems=int(systems.shape[1]),
    )


@dataclass(frozen=True, slots=True)
class HumanLikeness:
    """One metric's human-likeness results on a test bed."""

    asiya: Likeness
    qarla_king: float | None
    """None when it was not asked for."""
    qarla_trials: int
    references: int
    units: int
    trans_topic: bool


def likeness_units(judged: JudgedSet, level: Granularity) -> list[np.ndarray]:
    """The units human likeness is measured on: positions where every system has an output.

    Every peer must be scored on the same segments, or a system with fewer
    outputs would be compared on a different test set.
    """
    mask = np.ones(judged.size, dtype=bool)
    for outputs in judged.outputs.values():
        mask &= np.array([text is not None for text in outputs], dtype=bool)
    positions = np.flatnonzero(mask)
    if level is Granularity.SEG:
        return [np.array([p]) for p in positions]
    if level is Granularity.SYS:
        return [positions] if positions.size else []
    documents = np.array(judged.documents, dtype=object)
    return [positions[documents[positions] == doc] for doc in dict.fromkeys(documents[positions])]


def check_references(judged: JudgedSet) -> None:
    """Human likeness scores each reference against the others: one reference is not enough."""
    if len(judged.references) < 2:
        raise UsageError(
            "king and orange score each reference against the other references: they need at least two, "
            f"not {len(judged.references)} (repeat --reference, or --reference-system for --mqm)"
        )


def check_likeness(judged: JudgedSet, level: Granularity, qarla: bool) -> list[np.ndarray]:
    """The units, once human likeness is known to be computable (before any metric runs).

    Raises:
        UsageError: fewer than two references, no unit every system has an
            output for, or (``qarla``) QARLA's KING with two references and a
            single unit, where trans-topic pooling has no other unit to borrow from.
    """
    check_references(judged)
    units = likeness_units(judged, level)
    if not units:
        raise UsageError("king and orange need segments that every system has an output for; there are none")
    if qarla and len(judged.references) < 3 and len(units) < 2:
        raise UsageError(
            f"king with {len(judged.references)} references pools reference pairs across units (QARLA "
            f"trans-topic mode) and needs at least two {level.value}-level units: use -g seg or -g doc, "
            "or give a third reference"
        )
    return units


def human_likeness(judged: JudgedSet, metric: Metric, level: Granularity, qarla: bool = True) -> HumanLikeness:
    """Asiya's KING and ORANGE, Lin & Och's rank ORANGE and (``qarla``) QARLA's KING of ``metric``.

    Raises:
        UsageError: see :func:`check_likeness`.
    """
    units = check_likeness(judged, level, qarla)
    used = np.concatenate(units)
    # Units as index arrays into ``used`` (the texts actually scored).
    starts = np.cumsum([0] + [unit.size for unit in units])
    local = [np.arange(starts[i], starts[i + 1]) for i in range(len(units))]
    sources = None if judged.sources is None else [judged.sources[p] for p in used]
    references = [[reference[p] for p in used] for reference in judged.references]
    systems = [[text or "" for text in (outputs[p] for p in used)] for outputs in judged.outputs.values()]
    memo: dict[tuple[tuple[str, int], tuple[int, ...]], np.ndarray] = {}

    def score(candidate: tuple[str, int], against: tuple[int, ...]) -> np.ndarray:
        """The metric's score of every unit: candidate ``("ref"|"sys", index)`` against references ``against``."""
        key = (candidate, against)
        if key not in memo:
            texts = references[candidate[1]] if candidate[0] == "ref" else systems[candidate[1]]
            stats = metric.corpus_stats(texts, [references[j] for j in against], sources)
            memo[key] = _unit_scores(metric, stats, local, level)
        return memo[key]

    n_refs, n_systems = len(references), len(systems)
    ref_scores = np.empty((n_refs, len(units)))
    sys_scores = np.empty((n_refs, n_systems, len(units)))
    for r in range(n_refs):
        others = tuple(j for j in range(n_refs) if j != r)
        ref_scores[r] = score(("ref", r), others)
        for s in range(n_systems):
            sys_scores[r, s] = score(("sys", s), others)
    trans_topic = n_refs < 3
    if not qarla:
        return HumanLikeness(likeness(ref_scores, sys_scores), None, 0, n_refs, len(units), trans_topic)
    system_reference = np.empty((1, n_systems, len(units), n_refs))
    reference_reference = np.full((1, len(units), n_refs, n_refs), np.nan)
    for r in range(n_refs):
        for s in range(n_systems):
            system_reference[0, s, :, r] = score(("sys", s), (r,))
        for i in range(n_refs):
            if i != r:
                reference_reference[0, :, i, r] = score(("ref", i), (r,))
    similarities = Similarities(
        metrics=(metric.name,),
        systems=tuple(judged.outputs),
        references=tuple(f"reference {i + 1}" for i in range(n_refs)),
        system_reference=system_reference,
        reference_reference=reference_reference,
    )
    hits, trials = king_counts(similarities, None, Tie.GE, trans_topic)
    return HumanLikeness(
        asiya=likeness(ref_scores, sys_scores),
        qarla_king=hits / trials,
        qarla_trials=trials,
        references=n_refs,
        units=len(units),
        trans_topic=trans_topic,
    )


def _unit_scores(metric: Metric, stats: np.ndarray, units: Sequence[np.ndarray], level: Granularity) -> np.ndarray:
    """Segment scores at segment level; otherwise the metric's own aggregate over each unit's segments."""
    if level is Granularity.SEG:
        return np.asarray(metric.segment_scores(stats), dtype=np.float64)
    aggregate: Callable[[np.ndarray], float] = metric.system_score
    return np.array([aggregate(stats[unit]) for unit in units], dtype=np.float64)
