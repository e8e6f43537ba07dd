"""Learned combinations (asiya-reference §10; Zhou et al. 2008 §7): perceptron, RankSVM, segment folds.

The toy set is separable only by a combination: the human score is
``f0 − f1`` exactly, and ``f1`` is a nuisance large enough that neither
feature alone orders every pair. A correct learner must reach 100% pairwise
accuracy with ``w0 > 0`` and ``w1 < 0``.
"""

from __future__ import annotations

import numpy as np
import pytest

from checkpoints.errors import UsageError
from checkpoints.evaluate.meta.learn import (
    Learner,
    LearnOptions,
    fit_model,
    ranking_pairs,
    segment_folds,
    train_perceptron,
)

SYSTEMS, SEGMENTS = 4, 12


def toy() -> tuple[np.ndarray, np.ndarray]:
    """features ``(systems, segments, 2)`` and human ``(systems, segments)`` with human = f0 − f1."""
    rng = np.random.default_rng(7)
    quality = rng.permutation(SYSTEMS * SEGMENTS).reshape(SYSTEMS, SEGMENTS).astype(np.float64)
    nuisance = rng.uniform(0.0, 40.0, size=(SYSTEMS, SEGMENTS))
    features = np.stack([quality + nuisance, nuisance], axis=-1)
    return features, quality


def accuracy(model_weights: np.ndarray, differences: np.ndarray) -> float:
    return float((differences @ model_weights > 0).mean())


def test_perceptron_hand_trace() -> None:
    # asiya-reference §10: w starts at 0, w ← w + (φ_better − φ_worse) on disagreement (w·d ≤ 0), rate 1.
    # d1 = (1, 0), d2 = (−1, 1): epoch 1 → (1,0) then (0,1); epoch 2 → (1,1) then (0,2);
    # epoch 3 → (1,2), d2 agrees (1 > 0); epoch 4 makes no update.
    weights = train_perceptron(np.array([[1.0, 0.0], [-1.0, 1.0]]), epochs=100)
    assert weights.tolist() == [1.0, 2.0]
    # The epoch budget is honoured: after one epoch the weights are (0, 1).
    assert train_perceptron(np.array([[1.0, 0.0], [-1.0, 1.0]]), epochs=1).tolist() == [0.0, 1.0]


def test_toy_is_not_separable_by_one_feature() -> None:
    features, human = toy()
    differences = ranking_pairs(features, human, range(SEGMENTS))
    assert differences.shape == (SEGMENTS * 6, 2)  # 4 systems: 6 pairs per segment, no human ties
    assert (differences[:, 0] > 0).mean() < 1.0
    assert (differences[:, 1] < 0).mean() < 1.0


@pytest.mark.parametrize("method", [Learner.PERCEPTRON, Learner.RANKSVM])
def test_learners_separate_the_toy_set(method: Learner) -> None:
    features, human = toy()
    options = LearnOptions(method, ("f0", "f1"), folds=3)
    model = fit_model(features, human, range(SEGMENTS), options, seed=1)
    assert model.weights[0] > 0 > model.weights[1]
    differences = ranking_pairs(model.standardise(features), human, range(SEGMENTS))
    assert accuracy(model.weights, differences) == 1.0
    # The learned score orders every output of a segment as the humans do.
    scores = model.score(features)
    for s in range(SEGMENTS):
        assert np.argsort(scores[:, s]).tolist() == np.argsort(human[:, s]).tolist()


def test_ranksvm_standardises_and_held_out_pairs_are_all_right() -> None:
    features, human = toy()
    options = LearnOptions(Learner.RANKSVM, ("f0", "f1"))
    train, held = list(range(8)), list(range(8, SEGMENTS))
    model = fit_model(features, human, train, options, seed=3)
    flat = features[:, train].reshape(-1, 2)
    assert model.mean.tolist() == pytest.approx(flat.mean(axis=0).tolist(), abs=1e-12)
    assert model.scale.tolist() == pytest.approx(flat.std(axis=0).tolist(), abs=1e-12)
    assert accuracy(model.weights, ranking_pairs(model.standardise(features), human, held)) == 1.0


def test_human_ties_and_min_dist_leave_pairs_out() -> None:
    features = np.array([[[1.0]], [[2.0]], [[3.0]]])  # three systems, one segment
    human = np.array([[0.0], [0.0], [1.0]])
    assert ranking_pairs(features, human, [0]).tolist() == [[2.0], [1.0]]  # (2 over 0), (2 over 1); the tie left out
    assert ranking_pairs(features, human, [0], min_dist=1.0).shape == (0, 1)
    human[1, 0] = np.nan  # no human score: no pair
    assert ranking_pairs(features, human, [0]).tolist() == [[2.0]]


def test_nothing_to_learn_is_a_usage_error() -> None:
    features = np.ones((2, 3, 1))
    human = np.zeros((2, 3))
    with pytest.raises(UsageError, match="nothing to learn"):
        fit_model(features, human, [0, 1, 2], LearnOptions(Learner.PERCEPTRON, ("x",)), seed=0)


def test_folds_split_segments_deterministically() -> None:
    segments = list(range(10))
    folds = segment_folds(segments, 3, seed=12345)
    assert [len(fold) for fold in folds] == [4, 3, 3]
    joined = np.concatenate(folds)
    assert sorted(joined.tolist()) == segments  # every segment held out exactly once
    for i, fold in enumerate(folds):
        train = set(segments) - set(fold.tolist())
        assert not train & set(fold.tolist())
        assert all(set(fold.tolist()).isdisjoint(other.tolist()) for j, other in enumerate(folds) if j != i)
    again = segment_folds([*reversed(segments), 3, 3], 3, seed=12345)
    assert [f.tolist() for f in again] == [f.tolist() for f in folds]
    expected = np.sort(np.array_split(np.random.default_rng(12345).permutation(np.arange(10)), 3)[0])
    assert folds[0].tolist() == expected.tolist()
    assert [f.tolist() for f in segment_folds(segments, 3, seed=1)] != [f.tolist() for f in folds]


def test_fold_counts_are_checked() -> None:
    with pytest.raises(UsageError, match="at least 2 folds, not 1"):
        segment_folds(range(5), 1, seed=0)
    with pytest.raises(UsageError, match="6 folds need at least 6 judged segments, there are 5"):
        segment_folds(range(5), 6, seed=0)
    with pytest.raises(UsageError, match="at least 2 folds, not 0"):
        LearnOptions(Learner.RANKSVM, ("a",), folds=0)
    with pytest.raises(UsageError, match="a is named more than once"):
        LearnOptions(Learner.RANKSVM, ("a", "a"))
    with pytest.raises(UsageError, match="at least one feature"):
        LearnOptions(Learner.PERCEPTRON, ())


def test_the_perceptron_does_not_depend_on_a_metrics_scale() -> None:
    """A metric reported in [0, 100] (chrF) and one in [0, 1] (BLEU) weigh alike: the perceptron's
    features are standardised as the ranking SVM's are, so multiplying one feature by 100 changes
    no ranking the learned score makes."""
    features, human = toy()
    scaled = features.copy()
    scaled[..., 1] *= 100.0
    options = LearnOptions(Learner.PERCEPTRON, ("f0", "f1"))
    plain = fit_model(features, human, range(SEGMENTS), options, seed=1)
    wide = fit_model(scaled, human, range(SEGMENTS), options, seed=1)
    assert wide.weights.tolist() == pytest.approx(plain.weights.tolist())
    assert np.argsort(wide.score(scaled), axis=0).tolist() == np.argsort(plain.score(features), axis=0).tolist()
