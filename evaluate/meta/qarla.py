"""QARLA (Amigó et al. 2005, as IQMT 2.0 implements it): QUEEN, KING, JACK and the greedy optimal set.

QARLA judges translations by *human likeness*: a good metric set puts the
human references close to each other and the automatic translations away
from them, so no human judgments are needed. Everything here works on
similarities that are already computed (:class:`Similarities`); which metric
produced them does not matter, so every metric of the registry can be used
(:mod:`checkpoints.service.qarla` computes them).

Definitions (IQMT 2.0 manual §3.1; the choices the manual leaves open are
marked *decision*):

QUEEN
    ``QUEEN_X,R(a) = P(∀x ∈ X: x(a, r) ≥ x(r', r''))`` over the sample space
    ``Ω = {(r, r', r''): r ∈ R, r' ≠ r'' ∈ R}`` (ordered pairs, ``r`` may equal
    ``r'`` or ``r''``): ``|R|·|R|·(|R|−1)`` samples, 18 with three references,
    which is the granularity of every QUEEN value the manual prints.
    *Decision*: a system's QUEEN is the mean of its segment QUEEN values (the
    manual prints system QUEEN without saying how it is aggregated).
KING
    ``P(QUEEN_X,R−{r}(r) ≥ QUEEN_X,R−{r}(a) for every system a)``, over every
    (segment, held-out reference) trial: reference ``r`` is scored as a peer
    against the others. The manual's formula says ≥ and its prose "greater
    than", so the tie policy is a parameter (``ge``, the formula, by default).
    Without trans-topic mode a held-out trial needs two other references,
    hence QARLA's "at least three references".
JACK
    ``P(∃ a ≠ a': QUEEN(a) > 0 ∧ QUEEN(a') > 0 ∧ ∀x: x(a, a') ≤ x(a, r))`` over
    every (segment, reference); ``(a, a')`` ranges over *ordered* pairs,
    because ``x(a, a')`` (``a`` scored against ``a'``) is directional. It needs
    two systems; with one it is undefined (None).
Reference check (``--check-references``; not in IQMT, *decision*)
    QARLA assumes every reference is an equally good human translation. To
    test that assumption, each reference ``r`` is scored as a peer exactly as
    in a KING trial: its QUEEN against the other references ``R−{r}``, next
    to every system's QUEEN against the same ``R−{r}`` (segment QUEEN
    averaged over segments). ``r`` is *flagged* when more than half of the
    systems have a strictly higher QUEEN: the metric set finds it less
    human-like than most automatic translations (with an odd number of
    systems, exactly when it lies below the median system).
Trans-topic mode (IQeval ``-TT``, manual §6.3)
    The manual borrows "reference similarities x(r', r'') between manual
    translation pairs from other sentences, assuming that the distances
    between manual references are relatively stable across examples", but
    does not say how. *Decision*: the pairs ``(r', r'')`` of segment ``s`` are
    the ordered pairs of distinct references of segment ``s`` among the
    models in use, plus every ordered pair of distinct references of every
    other segment; ``r`` is still one of segment ``s``'s own references. In a
    KING trial the held-out reference is left out of its own segment only,
    so two references are enough: the pairs then all come from the other
    segments.

All counts are exact integers (hits over samples), so ties and strict
increases are decided without rounding. The comparisons are numpy
broadcasts over segments, systems, references and metrics at once, in
blocks of bounded size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.queen import BLOCK, queen_counts

"""Most booleans one comparison block may hold (a few MiB), whatever the test set's size."""


class Tie(StrEnum):
    """How KING counts a trial where the reference and the best system have equal QUEEN."""

    GE = "ge"
    """A tie counts for the reference (the manual's formula, ≥)."""
    GT = "gt"
    """The reference must be strictly better (the manual's prose, "greater than")."""


@dataclass(frozen=True)
class Similarities:
    """Segment-level similarities ``x(candidate, reference)`` of every metric, systems and references.

    Similarities are "higher is more similar" (error rates come negated,
    ``-TER``); the diagonals of the square arrays (self-similarity) are never read.
    """

    metrics: tuple[str, ...]
    systems: tuple[str, ...]
    references: tuple[str, ...]
    system_reference: np.ndarray
    """``(metrics, systems, segments, references)``: ``x(a_s, r_s)``."""
    reference_reference: np.ndarray
    """``(metrics, segments, references, references)``: ``[m, s, i, j] = x(r_i, r_j)`` (``r_i`` the candidate)."""
    system_system: np.ndarray | None = field(default=None)
    """``(metrics, segments, systems, systems)``: ``[m, s, a, b] = x(a, b)``; needed by JACK only."""

    def __post_init__(self) -> None:
        m, a, r = len(self.metrics), len(self.systems), len(self.references)
        s = self.system_reference.shape[2] if self.system_reference.ndim == 4 else -1
        expected = {
            "system_reference": (self.system_reference, (m, a, s, r)),
            "reference_reference": (self.reference_reference, (m, s, r, r)),
        }
        if self.system_system is not None:
            expected["system_system"] = (self.system_system, (m, s, a, a))
        for name, (array, shape) in expected.items():
            if array.shape != shape:
                raise ValueError(f"{name} has shape {array.shape}, expected {shape}")
        if len(set(self.metrics)) != m:
            raise ValueError("metric names repeat")

    @property
    def n_segments(self) -> int:
        return int(self.system_reference.shape[2])

    def index(self, metrics: Sequence[str] | None) -> list[int]:
        """Positions of ``metrics`` (every metric when None); unknown or no names are usage errors."""
        if metrics is None:
            return list(range(len(self.metrics)))
        if not metrics:
            raise UsageError("QARLA needs at least one metric")
        position = {name: index for index, name in enumerate(self.metrics)}
        unknown = [name for name in metrics if name not in position]
        if unknown:
            raise UsageError(f"no similarities for {', '.join(unknown)}")
        return [position[name] for name in dict.fromkeys(metrics)]


def check_testbed(n_references: int, n_segments: int, trans_topic: bool) -> None:
    """QARLA's minimum test bed: three references per segment, or two in trans-topic mode.

    With two references and no pooling, a KING trial leaves a single
    reference and so no pair ``(r', r'')`` to compare with.
    """
    if trans_topic:
        if n_references < 2:
            raise UsageError(f"QARLA needs at least two references in trans-topic mode, not {n_references}")
        if n_references == 2 and n_segments < 2:
            raise UsageError("trans-topic mode with two references needs at least two segments")
    elif n_references < 3:
        raise UsageError(
            f"QARLA needs at least three references, not {n_references} (trans-topic mode works with two)"
        )


# -- counting --------------------------------------------------------------------------------


# -- the measures ----------------------------------------------------------------------------


def queen_segments(similarities: Similarities, metrics: Sequence[str] | None = None, trans_topic: bool = False) -> np.ndarray:
    """QUEEN of every system at every segment, ``(systems, segments)``."""
    index = similarities.index(metrics)
    check_testbed(len(similarities.references), similarities.n_segments, trans_topic)
    peers = similarities.system_reference[index]
    hits, samples = queen_counts(
        peers, similarities.reference_reference[index], range(len(similarities.references)), trans_topic
    )
    return hits / samples


def queen_systems(similarities: Similarities, metrics: Sequence[str] | None = None, trans_topic: bool = False) -> dict[str, float]:
    """A system's QUEEN: the mean of its segment QUEEN values (IQMT does not say; see the module)."""
    by_segment = queen_segments(similarities, metrics, trans_topic)
    return {system: float(row.mean()) for system, row in zip(similarities.systems, by_segment, strict=True)}


def held_out_hits(
    similarities: Similarities, index: Sequence[int], held: int, trans_topic: bool
) -> tuple[np.ndarray, np.ndarray, int]:
    """Reference ``held`` scored as a peer against the other references, beside every system.

    Returns the held-out reference's QUEEN hits ``(S,)``, every system's
    hits against the same models ``(A, S)`` and the samples per segment:
    KING and the reference check compare them on equal terms.
    """
    n_refs = len(similarities.references)
    systems = similarities.system_reference[index]  # (X, A, S, R)
    between = similarities.reference_reference[index]  # (X, S, R, R)
    models = [j for j in range(n_refs) if j != held]
    human = between[:, :, held, models][:, None]  # (X, 1, S, K)
    human_hits, samples = queen_counts(human, between, models, trans_topic)
    system_hits, _ = queen_counts(systems[..., models], between, models, trans_topic)
    return human_hits[0], system_hits, samples


def king_counts(
    similarities: Similarities, metrics: Sequence[str] | None = None, tie: Tie = Tie.GE, trans_topic: bool = False
) -> tuple[int, int]:
    """KING as ``(successes, trials)``: one trial per segment and held-out reference."""
    index = similarities.index(metrics)
    n_refs, n_segments = len(similarities.references), similarities.n_segments
    check_testbed(n_refs, n_segments, trans_topic)
    successes = 0
    for held in range(n_refs):
        human_hits, system_hits, _ = held_out_hits(similarities, index, held, trans_topic)
        best = system_hits.max(axis=0)
        won = human_hits >= best if Tie(tie) is Tie.GE else human_hits > best
        successes += int(won.sum())
    return successes, n_refs * n_segments


def king(similarities: Similarities, metrics: Sequence[str] | None = None, tie: Tie = Tie.GE, trans_topic: bool = False) -> float:
    """The discriminative power of ``metrics``: how often a held-out reference beats every system."""
    successes, trials = king_counts(similarities, metrics, tie, trans_topic)
    return successes / trials


def jack(similarities: Similarities, metrics: Sequence[str] | None = None, trans_topic: bool = False) -> float | None:
    """The test bed's reliability (None with fewer than two systems, where no pair exists)."""
    if len(similarities.systems) < 2:
        return None
    if similarities.system_system is None:
        raise ValueError("JACK needs the system-system similarities")
    index = similarities.index(metrics)
    n_refs = len(similarities.references)
    check_testbed(n_refs, similarities.n_segments, trans_topic)
    to_refs = similarities.system_reference[index]  # (X, A, S, R)
    hits, _ = queen_counts(to_refs, similarities.reference_reference[index], range(n_refs), trans_topic)
    good = hits > 0  # (A, S)
    between = similarities.system_system[index]  # (X, S, A, B)
    n_metrics, n_systems, n_segments, _ = to_refs.shape
    distinct = ~np.eye(n_systems, dtype=bool)
    success = np.empty((n_segments, n_refs), dtype=bool)
    step = max(1, BLOCK // (n_metrics * n_systems * n_systems * n_refs))
    for start in range(0, n_segments, step):
        part = slice(start, start + step)
        # closer[a, b, s, r]: x(a, b) <= x(a, r) under every metric
        closer = (between[:, part].transpose(0, 2, 3, 1)[..., None] <= to_refs[:, :, None, part, :]).all(axis=0)
        pair = distinct[:, :, None] & good[:, None, part] & good[None, :, part]  # (A, B, S)
        success[part] = (closer & pair[..., None]).any(axis=(0, 1))
    return float(success.mean())


@dataclass(frozen=True)
class ReferenceCheck:
    """One reference scored as a peer against the others (see the module's *Reference check*)."""

    reference: str
    queen: float
    """Its QUEEN against the other references (mean of segment QUEEN)."""
    systems: dict[str, float]
    """Every system's QUEEN against the same references."""
    above: int
    """Systems with a strictly higher QUEEN than the reference."""

    @property
    def median(self) -> float:
        return float(np.median(list(self.systems.values())))

    @property
    def flagged(self) -> bool:
        """Less human-like than most systems: more than half of them score strictly higher."""
        return 2 * self.above > len(self.systems)

    def to_json(self) -> dict[str, object]:
        return {
            "reference": self.reference,
            "queen": self.queen,
            "systems_median": self.median,
            "systems_above": self.above,
            "systems": len(self.systems),
            "flagged": self.flagged,
            "systems_queen": dict(self.systems),
        }


def check_references(
    similarities: Similarities, metrics: Sequence[str] | None = None, trans_topic: bool = False
) -> tuple[ReferenceCheck, ...]:
    """Each reference's QUEEN as a peer against the others, beside the systems' QUEEN against the same.

    A reference that most systems beat is suspect: QARLA (and every metric
    scored against it) treats it as a model of human translation.
    """
    index = similarities.index(metrics)
    check_testbed(len(similarities.references), similarities.n_segments, trans_topic)
    checks = []
    for held, name in enumerate(similarities.references):
        human_hits, system_hits, samples = held_out_hits(similarities, index, held, trans_topic)
        human = float((human_hits / samples).mean())
        queens = (system_hits / samples).mean(axis=1)
        checks.append(
            ReferenceCheck(
                reference=name,
                queen=human,
                systems={system: float(q) for system, q in zip(similarities.systems, queens, strict=True)},
                above=int((queens > human).sum()),
            )
        )
    return tuple(checks)


# -- the greedy optimal set and the whole report ---------------------------------------------


@dataclass(frozen=True)
class OptimalSet:
    """IQeval's ``-optimizeKING``: the greedy set, its KING, and the single-metric KING it ranked by."""

    metrics: tuple[str, ...]
    king: float
    single: dict[str, float]
    """Metric → its own KING, in the order the greedy search tried them."""


def optimize(
    similarities: Similarities, metrics: Sequence[str] | None = None, tie: Tie = Tie.GE, trans_topic: bool = False
) -> OptimalSet:
    """Rank metrics by their own KING (ties by name), then add each only if KING strictly increases.

    IQMT manual §3.3: exhaustive search over ``2^n − 1`` sets is infeasible;
    this greedy approximation "provides excellent results in practice". The
    manual leaves the order of equal KING open; by name keeps it deterministic.
    """
    names = [similarities.metrics[i] for i in similarities.index(metrics)]
    single = {name: king_counts(similarities, [name], tie, trans_topic) for name in names}
    ranked = sorted(names, key=lambda name: (-single[name][0], name))
    chosen = [ranked[0]]
    best, trials = single[ranked[0]]
    for name in ranked[1:]:
        successes, _ = king_counts(similarities, [*chosen, name], tie, trans_topic)
        if successes > best:
            chosen.append(name)
            best = successes
    return OptimalSet(
        metrics=tuple(chosen),
        king=best / trials,
        single={name: single[name][0] / single[name][1] for name in ranked},
    )


@dataclass(frozen=True)
class QarlaResult:
    """Everything ``checkpoints qarla`` prints."""

    metrics: tuple[str, ...]
    queen: dict[str, float]
    """System → QUEEN of the metric set (mean of segment QUEEN)."""
    king: float
    jack: float | None
    tie: Tie
    trans_topic: bool
    n_segments: int
    references: tuple[str, ...]
    optimal: OptimalSet | None = None
    reference_check: tuple[ReferenceCheck, ...] | None = None

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "metrics": list(self.metrics),
            "queen": dict(self.queen),
            "king": self.king,
            "jack": self.jack,
        }
        if self.optimal is not None:
            document["optimal_set"] = list(self.optimal.metrics)
            document["optimal_king"] = self.optimal.king
        if self.reference_check is not None:
            document["reference_check"] = [check.to_json() for check in self.reference_check]
        return document


def qarla(
    similarities: Similarities,
    metrics: Sequence[str] | None = None,
    *,
    tie: Tie = Tie.GE,
    trans_topic: bool = False,
    find_optimal: bool = False,
    check_refs: bool = False,
) -> QarlaResult:
    """QUEEN per system, KING and JACK of the metric set and, with ``find_optimal``, the greedy set;
    with ``check_refs``, each reference scored as a peer against the others."""
    chosen = tuple(similarities.metrics[i] for i in similarities.index(metrics))
    return QarlaResult(
        metrics=chosen,
        queen=queen_systems(similarities, chosen, trans_topic),
        king=king(similarities, chosen, tie, trans_topic),
        jack=jack(similarities, chosen, trans_topic),
        tie=Tie(tie),
        trans_topic=trans_topic,
        n_segments=similarities.n_segments,
        references=similarities.references,
        optimal=optimize(similarities, chosen, tie, trans_topic) if find_optimal else None,
        reference_check=check_references(similarities, chosen, trans_topic) if check_refs else None,
    )
