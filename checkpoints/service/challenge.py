"""``checkpoints challenge``: contrastive challenge sets from a stored suite, and metrics scored on them.

Hand-made challenge sets (ACES, DEMETR, ContraPro) exist for a few language
pairs; a suite exists for any pair a user has parsed data for. Its
check-points say which words carry each phenomenon and its target-side parse
says how to break exactly that phenomenon, so every check-point can become a
(source, good, bad) item (:mod:`checkpoints.evaluate.contrastive`). The items
are written in ACES' TSV layout, so ACES' own scripts read them, and as JSONL;
scoring runs any metric of the project on good and bad and reports, per
category and kind of breakage, how often the metric prefers the good one
(:mod:`checkpoints.evaluate.challenge_scores`).
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from checkpoints.evaluate.challenge_scores import (
    ChallengeAccuracy,
    challenge_accuracy,
    item_outcomes,
)
from checkpoints.evaluate.contrastive import ChallengeItem, challenge_items
from checkpoints.evaluate.defaults import DEFAULT_SEED
from checkpoints.evaluate.resample import ResampleSpec
from checkpoints.io.files import write_atomic
from checkpoints.service.linguistic_options import LinguisticOptions
from checkpoints.service.store import Store, load_stored_suite

ACES_COLUMNS = ("ID", "source", "good-translation", "incorrect-translation", "reference", "phenomena", "langpair")
"""The columns ACES' challenge set and scripts use, in their order; ours follow them."""
EXTRA_COLUMNS = ("category", "breakage", "detail", "checkpoint", "pair", "reference-is-good")

TSV_NAME = "challenge.tsv"
JSONL_NAME = "challenge.jsonl"
SCORED_NAME = "challenge.scored.tsv"


@dataclass(frozen=True, slots=True)
class ChallengeSet:
    suite: str
    source_lang: str
    target_lang: str
    seed: int
    items: tuple[ChallengeItem, ...]

    @property
    def langpair(self) -> str:
        return f"{self.source_lang}-{self.target_lang}"


@dataclass(frozen=True, slots=True)
class ChallengeScores:
    """Each metric's scores of every item's good and bad translation, and its accuracies."""

    metrics: tuple[str, ...]
    good: dict[str, np.ndarray]
    bad: dict[str, np.ndarray]
    accuracies: tuple[ChallengeAccuracy, ...]
    spec: ResampleSpec = field(default_factory=ResampleSpec)


def challenge_set(store: Store, suite_name: str | None = None, *, seed: int = DEFAULT_SEED,
                  categories: Sequence[str] = (), limit: int | None = None) -> ChallengeSet:
    """The items of every check-point of the stored suite (of ``categories`` only, when given).

    ``limit`` keeps at most that many items per category, drawn with ``seed`` and kept in suite
    order: metrics that parse both translations (SP, DP, CP) then parse a sample, not the corpus.
    """
    suite = load_stored_suite(store, suite_name)
    wanted = {suite.resolve_category(name) for name in categories}
    items = [item for item in challenge_items(suite, seed=seed) if not wanted or item.category in wanted]
    if limit is not None:
        items = _sample(items, limit, seed)
    return ChallengeSet(suite.name, suite.source_lang, suite.target_lang, seed, tuple(items))


def _sample(items: list[ChallengeItem], limit: int, seed: int) -> list[ChallengeItem]:
    by_category: dict[str, list[int]] = {}
    for position, item in enumerate(items):
        by_category.setdefault(item.category, []).append(position)
    rng = random.Random(seed)
    kept = sorted(p for positions in by_category.values()
                  for p in (positions if len(positions) <= limit else rng.sample(positions, limit)))
    return [items[p] for p in kept]


def write_challenge_set(challenge: ChallengeSet, folder: Path, scores: ChallengeScores | None = None) -> list[Path]:
    """``challenge.tsv`` (ACES' layout), ``challenge.jsonl`` and, with scores, ``challenge.scored.tsv``
    (ACES' ``<metric>-good`` and ``<metric>-bad`` columns added); each written whole or not at all."""
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / TSV_NAME, folder / JSONL_NAME]
    write_atomic(written[0], _tsv(challenge))
    write_atomic(written[1], "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in _rows(challenge)))
    if scores is not None:
        written.append(folder / SCORED_NAME)
        write_atomic(written[2], _tsv(challenge, scores))
    return written


def _rows(challenge: ChallengeSet) -> list[dict[str, object]]:
    return [
        {
            "ID": number,
            "source": item.source,
            "good-translation": item.good,
            "incorrect-translation": item.bad,
            "reference": item.reference,
            "phenomena": f"{item.category} / {item.kind.value}",
            "langpair": challenge.langpair,
            "category": item.category,
            "breakage": item.kind.value,
            "detail": item.detail,
            "checkpoint": item.checkpoint,
            "pair": item.pair_id,
            "reference-is-good": item.reference_is_good,
        }
        for number, item in enumerate(challenge.items, start=1)
    ]


def _tsv(challenge: ChallengeSet, scores: ChallengeScores | None = None) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    score_columns = [f"{m}-{side}" for m in scores.metrics for side in ("good", "bad")] if scores else []
    writer.writerow([*ACES_COLUMNS, *EXTRA_COLUMNS, *score_columns])
    for index, row in enumerate(_rows(challenge)):
        values = [row[column] for column in (*ACES_COLUMNS, *EXTRA_COLUMNS)]
        if scores is not None:
            values += [repr(float(side[m][index])) for m in scores.metrics for side in (scores.good, scores.bad)]
        writer.writerow(values)
    return buffer.getvalue()


def score_challenge_set(challenge: ChallengeSet, metrics: Sequence[str], *, spec: ResampleSpec | None = None,
                        tokenize: str | None = None, linguistic: LinguisticOptions | None = None) -> ChallengeScores:
    """Score good and bad of every item with every metric, segment by segment, as ``metrics`` does."""
    from checkpoints.service.metric_texts import score_texts

    spec = spec or ResampleSpec()
    items = challenge.items
    if not items:
        return ChallengeScores(tuple(metrics), {}, {}, (), spec)
    report = score_texts(
        metrics, [[item.reference for item in items]],
        {"good": [item.good for item in items], "bad": [item.bad for item in items]},
        language=challenge.target_lang or None, origin=f"the challenge set of suite {challenge.suite!r}",
        source=[item.source for item in items], tokenize=tokenize, linguistic=linguistic,
    )
    good = {m: np.asarray(report.scores["good"][m].segments, dtype=np.float64) for m in report.metrics}
    bad = {m: np.asarray(report.scores["bad"][m].segments, dtype=np.float64) for m in report.metrics}
    categories = [item.category for item in items]
    breakages = [item.kind.value for item in items]
    accuracies = [
        accuracy
        for m in report.metrics
        for accuracy in challenge_accuracy(m, item_outcomes(good[m], bad[m]), categories, breakages, spec)
    ]
    return ChallengeScores(tuple(report.metrics), good, bad, tuple(accuracies), spec)
