"""Learned metric combinations: ``checkpoints meta --learn perceptron|ranksvm --features NAMES --folds K``.

Both learners fit a linear score ``w · φ`` of feature metrics ``φ`` (metric
segment scores) from *pairs of outputs of the same segment* ordered by the
human scores, the pairwise-ranking formulation of Asiya's ``-learn`` (asiya-reference §10)
and of Zhou et al. 2008 §7 (Ranking SVM over metric and check-point scores, Tables 11–12).

Pairs
    For every segment and every two systems with human scores ``h_a``,
    ``h_b`` there: when ``|h_a − h_b| > min_dist`` (Asiya's ``-min_dist``,
    default 0), one pair ``(better, worse)``. Pairs the humans tie
    (``|h_a − h_b| ≤ min_dist``) are left out: Asiya's "equal" feedback has
    no documented update (§10 [GAP]), and an equal pair says nothing about
    the direction of ``w``.
Perceptron (asiya-reference §10)
    Weights start at 0; the pairs are visited in order (segment, then system
    pair), for ``epochs`` passes (Asiya's ``-n_epochs``, 100); when the model
    does not rank the better output strictly higher (``w · (φ_b − φ_w) ≤ 0``:
    at ``w = 0`` every pair is a disagreement), ``w ← w + (φ_b − φ_w)``,
    learning rate 1. The section specifies no averaging, so the weights
    after the last pass are the model; a pass without an update ends the
    training early (later passes could not change anything). Features are
    standardised on the training outputs, as for the ranking SVM. Asiya
    feeds the raw metric scores; on raw scales chrF (0–100) outweighs BLEU
    (0–1) a hundredfold in every update, and on TED en→de segments the
    learned combination of BLEU, chrF and −TER reached a held-out Pearson
    of 0.027 (BLEU alone: 0.176). Standardised it reaches 0.061 (pairwise
    accuracy 0.457 against 0.430), still below BLEU alone: without
    averaging, the last updates on pairs that cannot be separated decide
    the weights.
Ranking SVM (Joachims 2002; Zhou §7 uses SVMlight's)
    Features are standardised on the training outputs (mean 0, standard
    deviation 1; a constant feature keeps scale 1), then scikit-learn's
    ``LinearSVC`` (no intercept, ``C``, ``random_state=seed``) separates the
    differences ``φ_b − φ_w`` (label +1) from their negations (label −1).
    Its weights are reported in standardised units.
Undefined features
    An LC metric has no score on a segment without a check-point of its
    scope (NaN); it is imputed by the training mean of the feature, so it
    contributes nothing to a pair of that segment and a constant to a score.
Cross-validation (Zhou §7: three-fold cross-validation)
    Folds split the judged *segments* (never a segment's outputs), from a
    permutation drawn with ``numpy.random.default_rng(seed)``, into ``K``
    near-equal parts; each fold's model is trained on the other folds'
    pairs. On the held-out segments the learned score is correlated with
    the human scores at the chosen level: a segment-level referent is an
    output; a document's or system's score is the metrics' own score over
    its held-out segments, its human score the mean of their segment scores
    (scores given for whole documents or systems are not used, they would
    cover training segments too). The reported value is the mean of the
    folds' values (undefined folds left out); the pairwise accuracy is
    pooled over every held-out pair (a tie of the model counts as wrong).
    Each feature alone is scored on the same folds (its own score, no
    learning) for comparison. The weights printed are those of a final fit
    on every segment.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.criteria import Criterion
from checkpoints.evaluate.meta.judged import JudgedSet, Referent, referents
from checkpoints.evaluate.meta.scores import metric_values
from checkpoints.evaluate.metrics.base import Granularity, Metric

EPOCHS = 100
"""Asiya's ``-n_epochs`` default (asiya-reference §10, §16.1 TV-5)."""
PAIRWISE = "pairwise-accuracy"


class Learner(StrEnum):
    PERCEPTRON = "perceptron"
    """Asiya's on-line pairwise-ranking perceptron."""
    RANKSVM = "ranksvm"
    """A pairwise ranking SVM (scikit-learn ``LinearSVC`` on standardised feature differences)."""


@dataclass(frozen=True, slots=True)
class LearnOptions:
    """What to learn and how to validate it (module docstring)."""

    method: Learner
    features: tuple[str, ...]
    folds: int = 3
    epochs: int = EPOCHS
    min_dist: float = 0.0
    c: float = 1.0
    """The SVM's regularisation constant ``C``."""

    def __post_init__(self) -> None:
        if not self.features:
            raise UsageError(f"learning a {self.method.value} needs at least one feature metric")
        repeated = sorted({name for name in self.features if self.features.count(name) > 1})
        if repeated:
            raise UsageError(f"feature {', '.join(repeated)} is named more than once")
        if self.folds < 2:
            raise UsageError(f"cross-validation needs at least 2 folds, not {self.folds}")
        if self.epochs < 1:
            raise UsageError(f"the perceptron needs at least 1 epoch, not {self.epochs}")
        if not self.min_dist >= 0.0:
            raise UsageError(f"the minimum human score distance must be at least 0, not {self.min_dist}")
        if not self.c > 0.0:
            raise UsageError(f"the SVM's C must be positive, not {self.c}")

    def signature_fields(self, seed: int) -> dict[str, object]:
        fields: dict[str, object] = {"learn": self.method.value, "features": ",".join(self.features),
                                     "folds": self.folds, "cv-seed": seed}
        if self.method is Learner.PERCEPTRON:
            fields["epochs"] = self.epochs
        else:
            fields["C"] = f"{self.c:g}"
        if self.min_dist:
            fields["min-dist"] = f"{self.min_dist:g}"
        return fields


@dataclass(frozen=True, slots=True)
class LinearModel:
    """``score(φ) = w · z(φ)`` with ``z(φ) = (φ − mean) / scale``, NaN features imputed by the mean."""

    weights: np.ndarray
    mean: np.ndarray
    scale: np.ndarray

    def standardise(self, features: np.ndarray) -> np.ndarray:
        z = (np.asarray(features, dtype=np.float64) - self.mean) / self.scale
        return np.where(np.isnan(z), 0.0, z)

    def score(self, features: np.ndarray) -> np.ndarray:
        return self.standardise(features) @ self.weights


def ranking_pairs(
    features: np.ndarray, human: np.ndarray, segments: Sequence[int], min_dist: float = 0.0
) -> np.ndarray:
    """``φ_better − φ_worse`` ``(pairs, F)`` for every two outputs of the same segment the humans
    score more than ``min_dist`` apart; ``features`` ``(systems, segments, F)``, ``human``
    ``(systems, segments)`` with NaN where a system has no human score."""
    rows = []
    n_systems = human.shape[0]
    for s in segments:
        for a in range(n_systems):
            for b in range(a + 1, n_systems):
                ha, hb = human[a, s], human[b, s]
                if math.isnan(ha) or math.isnan(hb) or abs(ha - hb) <= min_dist:
                    continue
                better, worse = (a, b) if ha > hb else (b, a)
                rows.append(features[better, s] - features[worse, s])
    return np.array(rows, dtype=np.float64).reshape(len(rows), features.shape[-1])


def train_perceptron(differences: np.ndarray, epochs: int = EPOCHS) -> np.ndarray:
    """Asiya's ranking perceptron (module docstring) on pair differences ``φ_better − φ_worse``."""
    weights = np.zeros(differences.shape[1])
    for _ in range(epochs):
        updated = False
        for difference in differences:
            if weights @ difference <= 0.0:
                weights = weights + difference
                updated = True
        if not updated:
            break
    return weights


def train_ranksvm(differences: np.ndarray, seed: int, c: float = 1.0) -> np.ndarray:
    """A linear ranking SVM: ``LinearSVC`` separating the differences from their negations."""
    from sklearn.svm import LinearSVC

    x = np.vstack([differences, -differences])
    labels = np.concatenate([np.ones(len(differences)), -np.ones(len(differences))])
    svm = LinearSVC(C=c, fit_intercept=False, random_state=seed, max_iter=100_000)
    svm.fit(x, labels)
    return np.asarray(svm.coef_[0], dtype=np.float64)


def fit_model(
    features: np.ndarray, human: np.ndarray, segments: Sequence[int], options: LearnOptions, seed: int
) -> LinearModel:
    """One model trained on the pairs of ``segments``.

    Raises:
        UsageError: those segments give no pair (every output tied by the humans).
    """
    train = features[:, list(segments)].reshape(-1, features.shape[-1])
    train = np.where(np.isnan(train).all(axis=0), 0.0, train)  # a feature undefined on every training output
    mean, spread = np.nanmean(train, axis=0), np.nanstd(train, axis=0)
    scale = np.where(spread > 0, spread, 1.0)
    model = LinearModel(np.zeros(features.shape[-1]), mean, scale)
    differences = ranking_pairs(model.standardise(features), human, segments, options.min_dist)
    if not len(differences):
        raise UsageError(
            f"no two outputs of the same segment differ by more than {options.min_dist:g} in human score: nothing to learn"
        )
    if options.method is Learner.PERCEPTRON:
        weights = train_perceptron(differences, options.epochs)
    else:
        weights = train_ranksvm(differences, seed, options.c)
    return LinearModel(weights, mean, scale)


def segment_folds(segments: Sequence[int], folds: int, seed: int) -> list[np.ndarray]:
    """``folds`` disjoint, sorted parts of ``segments`` from a seeded permutation (module docstring).

    Raises:
        UsageError: fewer than 2 folds, or more folds than segments.
    """
    distinct = np.array(sorted(set(int(s) for s in segments)), dtype=np.int64)
    if folds < 2:
        raise UsageError(f"cross-validation needs at least 2 folds, not {folds}")
    if folds > distinct.size:
        raise UsageError(f"{folds} folds need at least {folds} judged segments, there are {distinct.size}")
    order = np.random.default_rng(seed).permutation(distinct)
    return [np.sort(part) for part in np.array_split(order, folds)]


def fold_units(judged: JudgedSet, units: Sequence[Referent], level: Granularity) -> list[Referent]:
    """The held-out segments' referents at ``level``: documents and systems as the mean of their segments."""
    if level is Granularity.SEG:
        return list(units)
    groups: dict[tuple[str, str], list[Referent]] = defaultdict(list)
    for unit in units:
        document = judged.documents[int(unit.positions[0])] if level is Granularity.DOC else ""
        groups[(unit.system, document)].append(unit)
    return [
        Referent(
            system,
            f"{system}@@{document}" if level is Granularity.DOC else system,
            np.array([int(u.positions[0]) for u in members], dtype=np.int64),
            math.fsum(u.human for u in members) / len(members),
        )
        for (system, document), members in groups.items()
    ]


def _mean(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return math.fsum(known) / len(known) if known else None


def _defined(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


@dataclass(frozen=True)
class LearnResult:
    """The learned weights and the cross-validated figures, with each feature alone on the same folds."""

    method: Learner
    features: tuple[str, ...]
    level: Granularity
    folds: tuple[tuple[int, ...], ...]
    """The held-out segments (0-based positions) of each fold."""
    seed: int
    weights: dict[str, float]
    cv: dict[str, list[float | None]]
    """Criterion (and ``pairwise-accuracy``) → the value on each fold."""
    pairs: int
    """Held-out pairs over all folds (the pairwise accuracy's denominator)."""
    correct: int
    baseline: dict[str, dict[str, list[float | None]]] = field(default_factory=dict)
    """Feature → criterion → its own value on each fold."""
    baseline_correct: dict[str, int] = field(default_factory=dict)
    """Feature → held-out pairs it orders as the humans do on its own (pairs where it is defined)."""
    baseline_pairs: dict[str, int] = field(default_factory=dict)

    @property
    def pairwise_accuracy(self) -> float | None:
        return self.correct / self.pairs if self.pairs else None

    def value(self, criterion: str) -> float | None:
        """The cross-validated value: mean over folds, pooled over pairs for pairwise accuracy."""
        return self.pairwise_accuracy if criterion == PAIRWISE else _mean(self.cv[criterion])

    def baseline_value(self, feature: str, criterion: str) -> float | None:
        if criterion == PAIRWISE:
            total = self.baseline_pairs[feature]
            return self.baseline_correct[feature] / total if total else None
        return _mean(self.baseline[feature][criterion])

    def to_json(self) -> dict[str, object]:
        return {
            "method": self.method.value,
            "features": list(self.features),
            "level": self.level.value,
            "seed": self.seed,
            "folds": [list(fold) for fold in self.folds],
            "weights": dict(self.weights),
            "weights_scale": "standardised",
            "cv": {name: {"r": self.value(name), "folds": values} for name, values in self.cv.items()}
            | {PAIRWISE: {"r": self.pairwise_accuracy, "pairs": self.pairs, "correct": self.correct}},
            "baseline": {
                feature: {name: self.baseline_value(feature, name) for name in [*by, PAIRWISE]}
                for feature, by in self.baseline.items()
            },
        }


def learn_combination(
    judged: JudgedSet,
    metrics: Mapping[str, Metric],
    statistics: Mapping[str, Mapping[str, np.ndarray]],
    level: Granularity,
    criteria: Sequence[Criterion],
    options: LearnOptions,
    seed: int,
) -> LearnResult:
    """Cross-validate and fit ``options.method`` on ``judged`` (module docstring).

    ``metrics`` must hold every feature, ``statistics`` their per-system
    segment statistics (:func:`~checkpoints.evaluate.meta.scores.segment_statistics`).

    Raises:
        UsageError: a feature that is not among ``metrics``, a bad number of
            folds, or a fold whose training segments give no pair.
    """
    from checkpoints.evaluate.meta.optimize import criterion_value

    unknown = [name for name in options.features if name not in metrics]
    if unknown:
        raise UsageError(f"unknown feature {', '.join(unknown)} (features: {', '.join(metrics)})")
    systems = list(judged.outputs)
    index = {system: a for a, system in enumerate(systems)}
    units = referents(judged, Granularity.SEG)
    human = np.full((len(systems), judged.size), np.nan)
    for unit in units:
        human[index[unit.system], int(unit.positions[0])] = unit.human
    features = np.full((len(systems), judged.size, len(options.features)), np.nan)
    for f, name in enumerate(options.features):
        for system, a in index.items():
            rows = statistics[name][system]
            scores = np.asarray(metrics[name].segment_scores(np.nan_to_num(rows)), dtype=np.float64)
            features[a, :, f] = np.where(np.isnan(rows).any(axis=1), np.nan, scores)
    folds = segment_folds([int(unit.positions[0]) for unit in units], options.folds, seed)
    everything = np.sort(np.concatenate(folds))
    names = [c.value for c in criteria]
    cv: dict[str, list[float | None]] = {name: [] for name in names}
    baseline: dict[str, dict[str, list[float | None]]] = {f: {n: [] for n in names} for f in options.features}
    own_correct = dict.fromkeys(options.features, 0)
    own_pairs = dict.fromkeys(options.features, 0)
    pairs = correct = 0
    for held in folds:
        model = fit_model(features, human, np.setdiff1d(everything, held), options, seed)
        test = fold_units(judged, [u for u in units if int(u.positions[0]) in set(held.tolist())], level)
        y = np.array([unit.human for unit in test], dtype=np.float64)
        x = np.column_stack([metric_values(metrics[n], statistics[n], test, level) for n in options.features])
        learned = model.score(x)
        for criterion in criteria:
            cv[criterion.value].append(_defined(criterion_value(criterion, learned, y)))
            for f, feature in enumerate(options.features):
                baseline[feature][criterion.value].append(_defined(criterion_value(criterion, x[:, f], y)))
        differences = ranking_pairs(model.standardise(features), human, held.tolist(), options.min_dist)
        pairs += len(differences)
        correct += int((differences @ model.weights > 0).sum())
        for f, feature in enumerate(options.features):
            raw = ranking_pairs(features[..., f : f + 1], human, held.tolist(), options.min_dist)[:, 0]
            known = raw[~np.isnan(raw)]
            own_correct[feature] += int((known > 0).sum())
            own_pairs[feature] += int(known.size)
    final = fit_model(features, human, everything, options, seed)
    return LearnResult(
        method=options.method,
        features=options.features,
        level=level,
        folds=tuple(tuple(int(s) for s in fold) for fold in folds),
        seed=seed,
        weights={name: float(w) for name, w in zip(options.features, final.weights, strict=True)},
        cv=cv,
        pairs=pairs,
        correct=correct,
        baseline=baseline,
        baseline_correct=own_correct,
        baseline_pairs=own_pairs,
    )
