"""Check-point scores: Zhou et al. (2008) formulas (2)–(5), per category, group and taxonomy.

For a check-point c with references R (Zhou §5):

(2) r* = argmax over r ∈ R of DM(r) · matched(r) / total(r), ties going to the
    first reference (a reference without n-grams has ratio 0);
(3) the recall of a set C of check-points (one check-point, a category, a
    group = all categories of one level, or the whole taxonomy) is
    Re(C) = Σ_{c∈C} DM(r*_c) · matched(r*_c) / Σ_{c∈C} DM(r*_c) · total(r*_c)
    (0 when the denominator is 0);
(4) Penalty(C) = length(R) / length(T) when length(T) > length(R), else 1,
    where length(T) is the average length of the system translations and
    length(R) the average length of the reference translations, both over
    the sentence pairs that contain at least one check-point of C. A pair
    counts once however many check-points of C it carries. Lengths are
    numbers of tokens under the match tokenizer; a pair's reference length is
    the mean over its reference translations (whole sentences,
    ``SentencePair.references[i].text``);
(5) Score(C) = Re(C) · Penalty(C).

Matched and total n-gram counts are defined in
:mod:`checkpoints.evaluate.matching`.

Everything the significance test needs is a **per-pair statistics** matrix
``(pairs, scopes, 5)`` with columns ``[Σ DM·matched, Σ DM·total,
T-length·1[pair in scope], R-length·1[pair in scope], 1[pair in scope]]``: a
score is :func:`score_from_stats` of statistics summed over any multiset of
pairs, so a bootstrap resample never re-matches anything (averages over the
same pairs make the ratio of average lengths the ratio of summed lengths).

:class:`CheckpointScorer` does all system-independent work once per suite
(selection, tokenization, normalisation, the n-gram index) and is then reused
for every system output.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

import numpy as np
import sacrebleu

from checkpoints.errors import CorpusMismatch, SuiteError
from checkpoints.evaluate.explain import CheckpointExplanation, explain
from checkpoints.evaluate.matching import (
    DEFAULT_MAX_ORDER,
    MatchMode,
    ReferenceIndex,
    candidate_match_tokens,
    match_mode,
    normalize_tokens,
    normalizer,
    order_label,
    reference_match_tokens,
)
from checkpoints.model import CheckPoint, Level, SuiteData
from checkpoints.tokenizers import bleu_tokenizer, default_match_tokenizer, get_tokenizer

MATCHED, TOTAL, TRANSLATION_LENGTH, REFERENCE_LENGTH, PAIRS = range(5)
"""Columns of the per-pair statistics."""
N_STATS = 5


class ScopeKind(StrEnum):
    CATEGORY = "category"
    GROUP = "group"
    TAXONOMY = "taxonomy"


@dataclass(frozen=True, slots=True)
class Scope:
    """A set of check-points that gets a score: a category, a level group, or all."""

    kind: ScopeKind
    name: str

    def label(self) -> str:
        return f"{self.kind.value}:{self.name}"


def recall_from_stats(stats: np.ndarray) -> np.ndarray:
    """Formula (3) from summed statistics, vectorised over leading axes."""
    stats = np.asarray(stats, dtype=np.float64)
    matched, total = stats[..., MATCHED], stats[..., TOTAL]
    return np.divide(matched, total, out=np.zeros_like(matched), where=total > 0)


def penalty_from_stats(stats: np.ndarray) -> np.ndarray:
    """Formula (4) from summed statistics (ratio of summed = ratio of average lengths)."""
    stats = np.asarray(stats, dtype=np.float64)
    translation, reference = stats[..., TRANSLATION_LENGTH], stats[..., REFERENCE_LENGTH]
    longer = translation > reference
    ratio = np.divide(reference, translation, out=np.ones_like(translation), where=longer)
    return np.where(longer, ratio, 1.0)


def score_from_stats(stats: np.ndarray) -> np.ndarray:
    """Formula (5): recall × penalty, vectorised over every leading axis."""
    return recall_from_stats(stats) * penalty_from_stats(stats)


@dataclass(frozen=True, slots=True)
class ScopeScore:
    """One line of a report: a scope's recall, penalty and score for one system."""

    scope: Scope
    checkpoints: int
    pairs: int
    recall: float
    penalty: float
    score: float
    translation_length: float
    """Average system translation length over the scope's pairs."""
    reference_length: float
    """Average reference translation length over the scope's pairs."""


@dataclass(frozen=True, slots=True)
class SystemReport:
    """All scopes of one system, taxonomy first, then groups, then categories."""

    scopes: tuple[ScopeScore, ...]

    @property
    def taxonomy(self) -> ScopeScore:
        return next(s for s in self.scopes if s.scope.kind is ScopeKind.TAXONOMY)

    @property
    def groups(self) -> dict[str, ScopeScore]:
        return {s.scope.name: s for s in self.scopes if s.scope.kind is ScopeKind.GROUP}

    @property
    def categories(self) -> dict[str, ScopeScore]:
        return {s.scope.name: s for s in self.scopes if s.scope.kind is ScopeKind.CATEGORY}

    def to_dict(self) -> dict[str, object]:
        """The per-system object of ``evaluate --format json``."""
        top = self.taxonomy
        return {
            "score": top.score,
            "recall": top.recall,
            "penalty": top.penalty,
            "checkpoints": top.checkpoints,
            "groups": {name: s.score for name, s in self.groups.items()},
            "categories": {
                name: {"score": s.score, "recall": s.recall, "penalty": s.penalty, "checkpoints": s.checkpoints}
                for name, s in self.categories.items()
            },
        }


class CheckpointScorer:
    """A suite compiled for matching under one tokenizer, granularity and category selection.

    ``checkpoints`` are the evaluated check-points in suite order;
    ``pair_positions`` the positions (in ``suite.pairs``, = lines of a system
    output) of the sentence pairs that carry them — the evaluated set, whose
    pairs are the items of significance tests.
    """

    def __init__(
        self,
        suite: SuiteData,
        *,
        tokenize: str | None = None,
        match: MatchMode | str = MatchMode.NORMAL,
        categories: Sequence[str] | None = None,
        max_order: int | None = DEFAULT_MAX_ORDER,
    ) -> None:
        self.suite = suite
        self.max_order = max_order
        self.tokenize = tokenize or default_match_tokenizer(suite.target_lang)
        self._tokenizer = get_tokenizer(self.tokenize)
        self.match = match_mode(match)
        self._normalize = normalizer(self.match, suite.target_lang)
        self.checkpoints = self._select(categories)
        self._layout()
        self._compile_references()
        self._candidate_ids: dict[str, int] = {}

    # -- compilation ----------------------------------------------------------

    def _select(self, categories: Sequence[str] | None) -> list[CheckPoint]:
        known = [category.name for category in self.suite.categories]
        listing = ", ".join(known) or "none"
        stray = sorted({cp.category for cp in self.suite.checkpoints} - set(known))
        if stray:
            raise SuiteError(f"suite {self.suite.name!r} has check-points of unknown categories: {', '.join(stray)}")
        if categories is not None:
            missing = [name for name in categories if name not in known]
            if missing:
                raise SuiteError(f"no category {missing[0]!r} in suite {self.suite.name!r} (categories: {listing})")
            wanted = set(categories)
            selected = [cp for cp in self.suite.checkpoints if cp.category in wanted]
        else:
            selected = list(self.suite.checkpoints)
        if not selected:
            what = f"categories {', '.join(categories)}" if categories else "the suite"
            raise SuiteError(f"no check-points to evaluate in {what} of suite {self.suite.name!r}")
        return selected

    def _layout(self) -> None:
        """Pairs, scopes and check-point memberships: everything that needs no matching."""
        suite = self.suite
        position_of = {pair.id: position for position, pair in enumerate(suite.pairs)}
        try:
            global_pairs = np.array([position_of[cp.pair_id] for cp in self.checkpoints], dtype=np.int64)
        except KeyError as error:
            raise SuiteError(f"a check-point refers to pair {error.args[0]}, which suite {suite.name!r} lacks") from None
        self.pair_positions, self.checkpoint_pair = np.unique(global_pairs, return_inverse=True)
        self.checkpoint_pair = self.checkpoint_pair.astype(np.int64)

        used = {cp.category for cp in self.checkpoints}
        categories = [c for c in suite.categories if c.name in used]
        levels = [level for level in Level if any(c.level is level for c in categories)]
        self.scopes: list[Scope] = [Scope(ScopeKind.TAXONOMY, suite.taxonomy or suite.name)]
        self.scopes += [Scope(ScopeKind.GROUP, level.value) for level in levels]
        self.scopes += [Scope(ScopeKind.CATEGORY, c.name) for c in categories]
        scope_index = {scope: i for i, scope in enumerate(self.scopes)}
        level_of = {c.name: c.level for c in categories}
        category_scope = np.array(
            [scope_index[Scope(ScopeKind.CATEGORY, cp.category)] for cp in self.checkpoints], dtype=np.int64
        )
        group_scope = np.array(
            [scope_index[Scope(ScopeKind.GROUP, level_of[cp.category].value)] for cp in self.checkpoints],
            dtype=np.int64,
        )
        count = len(self.checkpoints)
        self._member_checkpoint = np.tile(np.arange(count, dtype=np.int64), 3)
        self._member_scope = np.concatenate([np.zeros(count, dtype=np.int64), group_scope, category_scope])
        width = len(self.scopes)
        self._member_cell = self.checkpoint_pair[self._member_checkpoint] * width + self._member_scope
        cells = len(self.pair_positions) * width
        self.in_scope = (np.bincount(self._member_cell, minlength=cells) > 0).reshape(-1, width).astype(np.float64)
        self.scope_checkpoints = np.bincount(self._member_scope, minlength=width)

        lengths = []
        for position in self.pair_positions:
            pair = suite.pairs[int(position)]
            if not pair.references:
                raise SuiteError(f"pair {pair.id} of suite {suite.name!r} has no reference translation")
            lengths.append(np.mean([len(self._tokenizer(ref.text)) for ref in pair.references]))
        self.reference_lengths = np.asarray(lengths, dtype=np.float64)

    def _compile_references(self) -> None:
        normalize = lru_cache(maxsize=2**16)(self._normalize)

        @lru_cache(maxsize=2**16)  # word-level references repeat ("the", "de", ...)
        def prepare(tokens: tuple[str, ...]) -> list[str]:
            return normalize_tokens(reference_match_tokens(tokens, self._tokenizer), normalize)

        index = ReferenceIndex(self.max_order)
        rows_checkpoint: list[int] = []
        rows_position: list[int] = []
        rows_dm: list[float] = []
        first_row = np.zeros(len(self.checkpoints), dtype=np.int64)
        row_count = np.zeros(len(self.checkpoints), dtype=np.int64)
        for number, checkpoint in enumerate(self.checkpoints):
            first_row[number] = len(rows_checkpoint)
            row_count[number] = len(checkpoint.references)
            pair = int(self.checkpoint_pair[number])
            for position, reference in enumerate(checkpoint.references):
                index.add(pair, prepare(tuple(reference.tokens)))
                rows_checkpoint.append(number)
                rows_position.append(position)
                rows_dm.append(float(reference.dm))
        index.freeze()
        self._index = index
        self._row_position = np.asarray(rows_position, dtype=np.int64)
        self._row_dm = np.asarray(rows_dm, dtype=np.float64)
        self._has_rows = row_count > 0
        self._starts = first_row[self._has_rows]
        self._row_segment = np.repeat(np.arange(len(self._starts)), row_count[self._has_rows])

    # -- scoring --------------------------------------------------------------

    def _word_ids(self, words: Sequence[str]) -> list[int]:
        """Interned ids of candidate words (0 = in no reference), normalised once per distinct word."""
        ids = self._candidate_ids
        out: list = list(map(ids.get, words))  # None where the word is new
        if None in out:
            for i, found in enumerate(out):
                if found is None:
                    word = words[i]
                    out[i] = ids[word] = self._index.word_id(self._normalize(word))
        return out

    def _check_length(self, translations: Sequence[str]) -> None:
        if len(translations) != len(self.suite.pairs):
            raise CorpusMismatch(
                f"{len(translations)} translation lines for the {len(self.suite.pairs)} sentence pairs "
                f"of suite {self.suite.name!r}"
            )

    def score(self, translations: Sequence[str]) -> SystemScores:
        """Match one system output (one line per suite pair, in pair order)."""
        self._check_length(translations)
        candidates = []
        lengths = np.empty(len(self.pair_positions), dtype=np.float64)
        for local, position in enumerate(self.pair_positions):
            words = candidate_match_tokens(translations[int(position)], self._tokenizer)
            lengths[local] = len(words)
            candidates.append(self._word_ids(words))
        matched_rows = self._index.match(candidates)
        totals = self._index.totals
        ratio = np.divide(
            self._row_dm * matched_rows, totals, out=np.zeros(len(totals)), where=totals > 0
        )
        count = len(self.checkpoints)
        chosen_row = np.full(count, -1, dtype=np.int64)
        if len(self._starts):
            best = np.maximum.reduceat(ratio, self._starts)
            candidates_rows = np.where(ratio == best[self._row_segment], np.arange(len(ratio)), len(ratio))
            chosen_row[self._has_rows] = np.minimum.reduceat(candidates_rows, self._starts)
        has = chosen_row >= 0
        rows = chosen_row[has]
        chosen = np.full(count, -1, dtype=np.int64)
        dm = np.zeros(count)
        matched = np.zeros(count, dtype=np.int64)
        total = np.zeros(count, dtype=np.int64)
        chosen[has] = self._row_position[rows]
        dm[has] = self._row_dm[rows]
        matched[has] = matched_rows[rows]
        total[has] = totals[rows]
        return SystemScores(self, chosen, dm, matched, total, lengths)

    @property
    def bleu_tokenize(self) -> str:
        """The match tokenizer when sacreBLEU has it, else sacreBLEU's default for the language."""
        return bleu_tokenizer(self.tokenize, self.suite.target_lang)

    def bleu(self, translations: Sequence[str]) -> float:
        """sacreBLEU corpus BLEU (0–100) on the evaluated pairs, all references (see :attr:`bleu_tokenize`)."""
        self._check_length(translations)
        return system_bleu(translations, self.suite, self.pair_positions.tolist(), self.bleu_tokenize)

    def explain(self, checkpoint: CheckPoint, translation: str) -> CheckpointExplanation:
        """Drill-down for one check-point under this scorer's tokenizer and granularity."""
        return explain(
            checkpoint, translation, tokenize=self.tokenize, match=self.match, language=self.suite.target_lang,
            max_order=self.max_order,
        )

    def signature(self) -> str:
        return (
            f"match:{self.match.value}|tok:{self.tokenize}|order:{order_label(self.max_order)}"
            f"|checkpoints:{len(self.checkpoints)}"
        )


@dataclass(frozen=True, slots=True, eq=False)
class SystemScores:
    """Per check-point results of one system (arrays aligned with ``scorer.checkpoints``).

    ``chosen`` is r*'s position in ``CheckPoint.references`` (−1 for a
    check-point without references, which then adds 0 to both sums of (3));
    ``dm``, ``matched`` and ``total`` are r*'s; ``translation_lengths`` is per
    evaluated pair (aligned with ``scorer.pair_positions``).
    """

    scorer: CheckpointScorer
    chosen: np.ndarray
    dm: np.ndarray
    matched: np.ndarray
    total: np.ndarray
    translation_lengths: np.ndarray

    def checkpoint_scores(self) -> np.ndarray:
        """DM·matched/total of r* per check-point (the quantity formula (2) maximises)."""
        return np.divide(self.dm * self.matched, self.total, out=np.zeros(len(self.dm)), where=self.total > 0)

    def statistics(self) -> np.ndarray:
        """Per-pair, per-scope statistics ``(pairs, scopes, 5)`` (see the module docstring)."""
        scorer = self.scorer
        pairs, width = scorer.in_scope.shape
        members = scorer._member_checkpoint
        stats = np.empty((pairs, width, N_STATS))
        stats[..., MATCHED] = np.bincount(
            scorer._member_cell, weights=(self.dm * self.matched)[members], minlength=pairs * width
        ).reshape(pairs, width)
        stats[..., TOTAL] = np.bincount(
            scorer._member_cell, weights=(self.dm * self.total)[members], minlength=pairs * width
        ).reshape(pairs, width)
        stats[..., TRANSLATION_LENGTH] = self.translation_lengths[:, None] * scorer.in_scope
        stats[..., REFERENCE_LENGTH] = scorer.reference_lengths[:, None] * scorer.in_scope
        stats[..., PAIRS] = scorer.in_scope
        return stats

    def report(self) -> SystemReport:
        sums = self.statistics().sum(axis=0)
        recall, penalty, score = recall_from_stats(sums), penalty_from_stats(sums), score_from_stats(sums)
        lines = []
        for i, scope in enumerate(self.scorer.scopes):
            pairs = sums[i, PAIRS]
            lines.append(
                ScopeScore(
                    scope=scope,
                    checkpoints=int(self.scorer.scope_checkpoints[i]),
                    pairs=int(pairs),
                    recall=float(recall[i]),
                    penalty=float(penalty[i]),
                    score=float(score[i]),
                    translation_length=float(sums[i, TRANSLATION_LENGTH] / pairs),
                    reference_length=float(sums[i, REFERENCE_LENGTH] / pairs),
                )
            )
        return SystemReport(tuple(lines))


def system_bleu(
    translations: Sequence[str],
    suite: SuiteData,
    pairs: Sequence[int] | None = None,
    tokenize: str = "13a",
) -> float:
    """sacreBLEU corpus BLEU (0–100) of a system on some pairs of a suite (Zhou Table 7's last row).

    ``pairs`` are positions in ``suite.pairs`` (default: all); every reference
    translation of a pair is used, pairs with fewer references than others
    leave the missing ones out (sacreBLEU's variable-reference mode).
    """
    positions = range(len(suite.pairs)) if pairs is None else pairs
    chosen = [suite.pairs[p] for p in positions]
    hypotheses = [translations[p] for p in positions]
    width = max((len(pair.references) for pair in chosen), default=0)
    streams: list[list[str | None]] = [
        [pair.references[i].text if i < len(pair.references) else None for pair in chosen] for i in range(width)
    ]
    return float(sacrebleu.BLEU(tokenize=tokenize).corpus_score(hypotheses, streams).score)  # type: ignore[arg-type]

