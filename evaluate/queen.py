"""QUEEN's counting (Amigó et al. 2005): how often a peer is as close to the references as they are to each other.

Shared by the meta-evaluation (:mod:`checkpoints.evaluate.meta.qarla`: QUEEN,
KING, JACK) and the metrics that combine others by QUEEN
(:mod:`checkpoints.evaluate.metrics.combination`), so that neither depends on
the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

import numpy as np

BLOCK = 1 << 22
"""Most booleans compared at once: memory stays flat on large pools."""


def ordered_pairs(references: Sequence[int]) -> tuple[list[int], list[int]]:
    """Ordered pairs of distinct references, as two index lists."""
    pairs = list(permutations(references, 2))
    return [i for i, _ in pairs], [j for _, j in pairs]


def dominated(values: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """For each column of ``values`` ``(X, N)``, how many columns of ``pool`` ``(X, P)`` it passes
    under every metric (``values[x, n] ≥ pool[x, p]`` for all x).

    One metric is a sorted search; several are compared in blocks of at most
    :data:`BLOCK` booleans so that memory stays flat on large pools.
    """
    n_metrics, n_values = values.shape
    if pool.shape[1] == 0 or n_values == 0:
        return np.zeros(n_values, dtype=np.int64)
    if n_metrics == 1:
        ordered = np.sort(pool[0])  # NaN sorts last, so it is never passed
        counts = np.searchsorted(ordered, values[0], side="right").astype(np.int64)
        return np.where(np.isnan(values[0]), 0, counts)
    step = max(1, BLOCK // (pool.shape[1] * n_metrics))
    counts = np.empty(n_values, dtype=np.int64)
    for start in range(0, n_values, step):
        block = values[:, start : start + step, None] >= pool[:, None, :]
        counts[start : start + step] = block.all(axis=0).sum(axis=1)
    return counts


def own_counts(values: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """``values`` ``(X, N, S, K)`` against each segment's own pool ``(X, S, P)``: hits ``(N, S, K)``."""
    n_metrics, n_peers, n_segments, n_refs = values.shape
    counts = np.empty((n_peers, n_segments, n_refs), dtype=np.int64)
    per_segment = max(1, n_metrics * n_peers * n_refs * pool.shape[2])
    step = max(1, BLOCK // per_segment)
    for start in range(0, n_segments, step):
        part = slice(start, start + step)
        block = values[:, :, part, :, None] >= pool[:, None, part, None, :]
        counts[:, part] = block.all(axis=0).sum(axis=-1)
    return counts


def queen_counts(
    peers: np.ndarray, reference_reference: np.ndarray, models: Sequence[int], trans_topic: bool
) -> tuple[np.ndarray, int]:
    """QUEEN of each peer at each segment as ``(hits (N, S), samples)``.

    ``peers`` ``(X, N, S, K)`` holds ``x(peer, r)`` for the ``K`` models in
    ``models`` (indices into the references); ``reference_reference`` is
    ``(X, S, R, R)`` over all references. The samples are the same for every
    peer and segment, so hits compare directly.
    """
    n_segments = peers.shape[2]
    own_i, own_j = ordered_pairs(models)
    own = reference_reference[:, :, own_i, own_j]  # (X, S, P)
    if not trans_topic:
        return own_counts(peers, own).sum(axis=-1), len(models) * len(own_i)
    n_metrics, n_peers, _, n_models = peers.shape
    all_i, all_j = ordered_pairs(range(reference_reference.shape[2]))
    full = reference_reference[:, :, all_i, all_j]  # (X, S, P_all)
    flat = dominated(peers.reshape(n_metrics, -1), full.reshape(n_metrics, -1))
    hits = flat.reshape(n_peers, n_segments, n_models)
    if len(own_i) != len(all_i):  # a held-out reference: its own segment contributes fewer pairs
        hits = hits - own_counts(peers, full) + own_counts(peers, own)
    pool = (n_segments - 1) * len(all_i) + len(own_i)
    return hits.sum(axis=-1), n_models * pool
