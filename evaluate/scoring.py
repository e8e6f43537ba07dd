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
from itertools import compress, repeat

import numpy as np

from checkpoints import __version__
from checkpoints.contractions import TABLE_VERSION as CONTRACTIONS_VERSION
from checkpoints.contractions import splits_contractions
from checkpoints.errors import CorpusMismatch, SuiteError
from checkpoints.evaluate.alternatives import Alternatives
from checkpoints.evaluate.bleu_row import BleuReferences
from checkpoints.evaluate.columns import suite_columns
from checkpoints.evaluate.compiled import (
    OTHER_WHITESPACE,
    ReferenceIndex,
    TextEncoder,
    gather,
    pack_arrays,
    unpack_arrays,
)
from checkpoints.evaluate.explain import CheckpointExplanation, explain
from checkpoints.evaluate.matching import (
    ASTERISK,
    DEFAULT_MAX_ORDER,
    MatchMode,
    match_mode,
    normalizer,
    order_label,
    reference_parts,
)
from checkpoints.evaluate.scopes import (
    MATCHED,
    N_STATS,
    PAIRS,
    REFERENCE_LENGTH,
    TOTAL,
    TRANSLATION_LENGTH,
    Scope,
    ScopeKind,
    ScopeScore,
    SystemReport,
    penalty_from_stats,
    recall_from_stats,
    score_from_stats,
)
from checkpoints.model import GAP, CheckPoint, Level, SuiteData
from checkpoints.signature import Signature
from checkpoints.tokenizers import bleu_tokenizer, default_match_tokenizer

INDEX_FORMAT = f"reference-index-v1/{__version__}/contractions-{CONTRACTIONS_VERSION}"
"""Changes whenever :meth:`ReferenceIndex.to_arrays` or the compilation changes meaning (and with
every release, so a kept index never outlives the code that compiled it)."""


class CheckpointScorer:
    """A suite compiled for matching under one tokenizer, granularity and category selection.

    ``checkpoints`` are the evaluated check-points in suite order
    (``checkpoint_numbers`` their numbers, read without building them);
    ``pair_positions`` the positions (in ``suite.pairs``, = lines of a system
    output) of the sentence pairs that carry them — the evaluated set, whose
    pairs are the items of significance tests.
    """

    _CACHED_OUTPUTS = 8
    """System outputs whose tokenization is kept for :meth:`bleu` after :meth:`score`."""

    def __init__(
        self,
        suite: SuiteData,
        *,
        tokenize: str | None = None,
        match: MatchMode | str = MatchMode.NORMAL,
        categories: Sequence[str] | None = None,
        max_order: int | None = DEFAULT_MAX_ORDER,
        alternatives: bool = False,
    ) -> None:
        self.suite = suite
        self.max_order = max_order
        self.tokenize = tokenize or default_match_tokenizer(suite.target_lang)
        self._encoder = TextEncoder(self.tokenize, suite.target_lang)  # splits contractions: "im" → "in dem"
        self.match = match_mode(match)
        self._normalize = normalizer(self.match, suite.target_lang)
        self._columns = suite_columns(suite)
        self._selection = self._select(categories)
        self.checkpoint_numbers = self._columns.numbers[self._selection]
        self._checkpoints: list[CheckPoint] | None = None
        self._layout()
        self._index: ReferenceIndex | None = None  # compiled by the first score(): rebuilding stored scores needs none
        self.index_adopted = False
        """Whether the index came from :meth:`adopt_index` rather than :meth:`compile`."""
        self._candidate_cache: dict[int, tuple[list[str], np.ndarray, np.ndarray]] = {}
        shares = self.bleu_tokenize == self.tokenize and not splits_contractions(suite.target_lang)
        self._bleu_encoder = self._encoder if shares else TextEncoder(self.bleu_tokenize)
        self._bleu_references: BleuReferences | None = None
        self.alternatives = alternatives
        self._alternatives: Alternatives | None = None

    # -- compilation ----------------------------------------------------------

    @property
    def checkpoints(self) -> list[CheckPoint]:
        """The evaluated check-points in suite order (a stored suite builds them on first use)."""
        if self._checkpoints is None:
            every = self.suite.checkpoints
            self._checkpoints = [every[i] for i in self._selection.tolist()]
        return self._checkpoints

    def _select(self, categories: Sequence[str] | None) -> np.ndarray:
        """Positions (in the suite's check-points) of those to evaluate."""
        columns = self._columns
        known = [category.name for category in self.suite.categories]
        listing = ", ".join(known) or "none"
        codes = np.flatnonzero(np.bincount(columns.categories, minlength=len(columns.category_names)))
        stray = sorted({columns.category_names[code] for code in codes.tolist()} - set(known))
        if stray:
            raise SuiteError(f"suite {self.suite.name!r} has check-points of unknown categories: {', '.join(stray)}")
        if categories is not None:
            missing = [name for name in categories if name not in known]
            if missing:
                raise SuiteError(f"no category {missing[0]!r} in suite {self.suite.name!r} (categories: {listing})")
            wanted = set(categories)
            chosen = [code for code, name in enumerate(columns.category_names) if name in wanted]
            selected = np.flatnonzero(np.isin(columns.categories, chosen))
        else:
            selected = np.arange(len(columns.numbers), dtype=np.int64)
        if not selected.size:
            what = f"categories {', '.join(categories)}" if categories else "the suite"
            raise SuiteError(f"no check-points to evaluate in {what} of suite {self.suite.name!r}")
        return selected

    def _layout(self) -> None:
        """Pairs, scopes and check-point memberships: everything that needs no matching."""
        suite = self.suite
        columns = self._columns
        position_of = {pair.id: position for position, pair in enumerate(suite.pairs)}
        pair_ids = columns.pair_ids[self._selection].tolist()
        global_pairs = np.fromiter(map(position_of.get, pair_ids, repeat(-1)), dtype=np.int64, count=len(pair_ids))
        if (global_pairs < 0).any():
            lacking = pair_ids[int(np.argmax(global_pairs < 0))]
            raise SuiteError(f"a check-point refers to pair {lacking}, which suite {suite.name!r} lacks")
        self.pair_positions, self.checkpoint_pair = np.unique(global_pairs, return_inverse=True)
        self.checkpoint_pair = self.checkpoint_pair.astype(np.int64).reshape(-1)

        codes = columns.categories[self._selection]
        used = {columns.category_names[code] for code in np.flatnonzero(np.bincount(codes)).tolist()}
        categories = [c for c in suite.categories if c.name in used]
        levels = [level for level in Level if any(c.level is level for c in categories)]
        self.scopes: list[Scope] = [Scope(ScopeKind.TAXONOMY, suite.taxonomy or suite.name)]
        self.scopes += [Scope(ScopeKind.GROUP, level.value) for level in levels]
        self.scopes += [Scope(ScopeKind.CATEGORY, c.name) for c in categories]
        scope_index = {scope: i for i, scope in enumerate(self.scopes)}
        category_scope_of = {c.name: scope_index[Scope(ScopeKind.CATEGORY, c.name)] for c in categories}
        group_scope_of = {c.name: scope_index[Scope(ScopeKind.GROUP, c.level.value)] for c in categories}
        count = len(codes)
        category_scope = np.array([category_scope_of.get(name, -1) for name in columns.category_names], dtype=np.int64)[codes]
        group_scope = np.array([group_scope_of.get(name, -1) for name in columns.category_names], dtype=np.int64)[codes]
        self._member_checkpoint = np.tile(np.arange(count, dtype=np.int64), 3)
        self._member_scope = np.concatenate([np.zeros(count, dtype=np.int64), group_scope, category_scope])
        width = len(self.scopes)
        self._member_cell = self.checkpoint_pair[self._member_checkpoint] * width + self._member_scope
        cells = len(self.pair_positions) * width
        self.in_scope = (np.bincount(self._member_cell, minlength=cells) > 0).reshape(-1, width).astype(np.float64)
        self.scope_checkpoints = np.bincount(self._member_scope, minlength=width)

        texts: list[str] = []
        owners: list[int] = []
        for local, position in enumerate(self.pair_positions.tolist()):
            pair = suite.pairs[position]
            if not pair.references:
                raise SuiteError(f"pair {pair.id} of suite {suite.name!r} has no reference translation")
            texts.extend(reference.text for reference in pair.references)
            owners.extend([local] * len(pair.references))
        self._reference_owners = owners
        self._reference_texts = texts
        self._reference_lengths: np.ndarray | None = None

    @property
    def reference_lengths(self) -> np.ndarray:
        """Per evaluated pair, the mean length of its reference translations under the match
        tokenizer (the penalty's length(R)); measured on first use, or kept with the index."""
        if self._reference_lengths is None:
            _, lengths = self._encoder.encode(self._reference_texts)
            owners, pairs = self._reference_owners, len(self.pair_positions)
            self._reference_lengths = (
                np.bincount(owners, weights=lengths, minlength=pairs) / np.bincount(owners, minlength=pairs)
            )
        return self._reference_lengths

    def compile(self) -> ReferenceIndex:
        """The selected check-points' references as one :class:`ReferenceIndex`, built on first use.

        :meth:`score` calls it; scores rebuilt from stored results never need it.
        """
        if self._index is None:
            self._index = self._compile_references()
        return self._index

    def _compile_references(self) -> ReferenceIndex:
        """Every reference of the selected check-points into one :class:`ReferenceIndex`.

        Reference tokens are stored as the parser cut them; for matching, each
        gap-free stretch is re-cut by the match tokenizer
        (:func:`~checkpoints.evaluate.matching.reference_match_tokens`). Under a
        chunk-wise tokenizer that is each token's words in turn, so all
        references are encoded at once, token by distinct token.
        """
        columns = self._columns
        chosen = self._lay_out_rows()
        per_checkpoint = columns.reference_counts[self._selection]
        texts = columns.tokens if len(chosen) == len(columns.tokens) else [columns.tokens[i] for i in chosen.tolist()]
        row_pair = np.repeat(self.checkpoint_pair, per_checkpoint)
        rows = len(chosen)

        if self._encoder.chunkwise:
            tokens_per_row = np.fromiter(map(str.count, texts, repeat(" ")), dtype=np.int64, count=rows) + 1
            tokens_per_row[np.fromiter(map(len, texts), dtype=np.int64, count=rows) == 0] = 0
            joined = " ".join(filter(None, texts))
            tokens = joined.split(" ") if joined else []
            if OTHER_WHITESPACE.search(joined):  # a token that is several chunks: the general way
                is_gap = np.array(tokens, dtype=object) == GAP if tokens else np.zeros(0, dtype=bool)
                raw, words_per_token = self._encoder.encode(list(compress(tokens, (~is_gap).tolist())))
            else:  # every token is one chunk; a gap is the chunk "*", whose one word is dropped
                raw, words_per_token, chunk = self._encoder.encode_chunks(tokens)
                is_gap = chunk == self._encoder.chunk_id(GAP)
                raw = raw[~np.repeat(is_gap, words_per_token)]
                words_per_token = words_per_token[~is_gap]
            # words of one part share their row and the number of gaps seen before them
            token_row = np.repeat(np.arange(rows, dtype=np.int64), tokens_per_row)[~is_gap]
            word_row = np.repeat(token_row, words_per_token)
            word_stretch = np.repeat(np.cumsum(is_gap)[~is_gap], words_per_token)
            starts = np.ones(len(raw), dtype=bool)
            starts[1:] = (word_row[1:] != word_row[:-1]) | (word_stretch[1:] != word_stretch[:-1])
            part_first = np.flatnonzero(starts)
            part_lengths = np.diff(np.append(part_first, len(raw)))
            part_rows = word_row[part_first]
        else:
            stretches: list[str] = []
            owners: list[int] = []
            for row, text in enumerate(texts):
                for part in reference_parts(text.split(" ") if text else []):
                    stretches.append(" ".join(part))
                    owners.append(row)
            raw, part_lengths = self._encoder.encode(stretches)
            kept = part_lengths > 0
            part_rows, part_lengths = np.asarray(owners, dtype=np.int64)[kept], part_lengths[kept]

        index = ReferenceIndex(self.max_order)
        self._raw_to_index = np.full(len(self._encoder.words), -1, dtype=np.int64)
        distinct = np.flatnonzero(np.bincount(raw, minlength=len(self._encoder.words)))
        self._raw_to_index[distinct] = [index.intern(self._normal_form(self._encoder.words[i])) for i in distinct.tolist()]
        index.add_rows(row_pair, part_rows, part_lengths, self._raw_to_index[raw])
        index.freeze()
        return index

    def _lay_out_rows(self) -> np.ndarray:
        """Which stored reference each index row is (returned), and the per-row arrays that turn
        matched rows into each check-point's r*: the index's rows are the selected
        check-points' references in turn, however the index was obtained."""
        columns = self._columns
        per_checkpoint = columns.reference_counts[self._selection]
        every_first = np.cumsum(columns.reference_counts) - columns.reference_counts
        chosen = gather(np.arange(len(columns.tokens), dtype=np.int64), every_first[self._selection], per_checkpoint)
        first_row = np.cumsum(per_checkpoint) - per_checkpoint
        self._row_position = np.arange(len(chosen), dtype=np.int64) - np.repeat(first_row, per_checkpoint)
        self._row_dm = columns.dm[chosen]
        self._has_rows = per_checkpoint > 0
        self._starts = first_row[self._has_rows]
        self._row_segment = np.repeat(np.arange(len(self._starts)), per_checkpoint[self._has_rows])
        return chosen

    @property
    def index_key(self) -> str:
        """Everything the compiled references depend on, so a kept index is reused only where it
        is the one :meth:`compile` would build: the suite's content, the selection, the
        tokenizer, the granularity (and the language it normalises for), the order, the code."""
        categories = sorted({self._columns.category_names[code] for code in self._columns.categories[self._selection].tolist()})
        return "\x1f".join([
            INDEX_FORMAT, str(self.suite.options.get("content_hash", "")),
            self.tokenize, self.match.value, self.suite.target_lang, order_label(self.max_order),
            str(len(self._selection)), *categories,
        ])

    def kept_index(self) -> bytes:
        """The compiled index and the reference lengths as bytes a store keeps (:meth:`adopt_kept_index`)."""
        arrays = self.compile().to_arrays()
        arrays["reference_lengths"] = self.reference_lengths
        return pack_arrays(arrays)

    def adopt_kept_index(self, payload: bytes) -> None:
        """Match with an index :meth:`kept_index` gave under the same :attr:`index_key` instead of compiling.

        Raises ``ValueError`` when the payload is not one, or cannot be this
        scorer's (another number of references, pairs or order): the caller then
        compiles afresh.
        """
        arrays = unpack_arrays(payload)
        lengths = arrays.pop("reference_lengths", None)
        if lengths is None or lengths.dtype != np.float64 or lengths.shape != (len(self.pair_positions),):
            raise ValueError("not a kept reference index: no reference length per evaluated pair")
        self.adopt_index(ReferenceIndex.from_arrays(arrays))
        self._reference_lengths = lengths

    def adopt_index(self, index: ReferenceIndex) -> None:
        """Match with ``index``, compiled earlier under :attr:`index_key`, instead of compiling one.

        Raises ``ValueError`` when it cannot be this scorer's (another number of
        references or another order).
        """
        rows = int(self._columns.reference_counts[self._selection].sum())
        if index.rows != rows or index.max_order != self.max_order:
            raise ValueError(f"the kept index has {index.rows} references of order {index.max_order}, not {rows}")
        self._lay_out_rows()
        self._raw_to_index = np.zeros(0, dtype=np.int64)  # output words are looked up as they come
        self._index = index
        self.index_adopted = True

    def _normal_form(self, word: str) -> str:
        """A tokenizer word as matching compares it: a ``*`` word is a literal asterisk, then the granularity."""
        return self._normalize(ASTERISK if word == GAP else word)

    # -- scoring --------------------------------------------------------------

    def _index_ids(self, raw: np.ndarray) -> np.ndarray:
        """Index word ids (0 = in no reference) of match-tokenizer word ids, normalised once per word."""
        mapping = self._raw_to_index
        words = self._encoder.words
        if len(mapping) < len(words):
            mapping = self._raw_to_index = np.concatenate(
                (mapping, np.full(len(words) - len(mapping), -1, dtype=np.int64))
            )
        unknown = np.flatnonzero(np.bincount(raw[mapping[raw] < 0], minlength=len(words)))
        if unknown.size:
            index = self._index
            assert index is not None
            mapping[unknown] = [index.word_id(self._normal_form(words[i])) for i in unknown.tolist()]
        return mapping[raw]

    def _candidates(self, translations: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Match-tokenizer word ids and lengths of the evaluated pairs' translations.

        The last few systems' are kept (by the output's identity, checked
        line by line): :meth:`score` and :meth:`bleu` of one output then
        tokenize it once when BLEU uses the match tokenizer.
        """
        lines = [translations[position] for position in self.pair_positions.tolist()]
        cached = self._candidate_cache.get(id(translations))
        if cached is not None and cached[0] == lines:
            return cached[1], cached[2]
        ids, lengths = self._encoder.encode(lines)
        if len(self._candidate_cache) >= self._CACHED_OUTPUTS:
            self._candidate_cache.pop(next(iter(self._candidate_cache)))
        self._candidate_cache[id(translations)] = (lines, ids, lengths)
        return ids, lengths

    def _check_length(self, translations: Sequence[str]) -> None:
        if len(translations) != len(self.suite.pairs):
            raise CorpusMismatch(
                f"{len(translations)} translation lines for the {len(self.suite.pairs)} sentence pairs "
                f"of suite {self.suite.name!r}"
            )

    def score(self, translations: Sequence[str]) -> SystemScores:
        """Match one system output (one line per suite pair, in pair order)."""
        self._check_length(translations)
        index = self.compile()
        raw, word_counts = self._candidates(translations)
        lengths = word_counts.astype(np.float64)
        matched_rows = index.match_words(self._index_ids(raw), word_counts)
        totals = index.totals
        ratio = np.divide(
            self._row_dm * matched_rows, totals, out=np.zeros(len(totals)), where=totals > 0
        )
        count = len(self._selection)
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
        alternative = np.zeros(count, dtype=np.int8)
        if self.alternatives:
            alternative = self.compile_alternatives().match(
                has & (matched < total), self.checkpoint_pair, _WordsPerPair(self._encoder.words, raw, word_counts)
            )
            by_alternative = alternative > 0
            matched[by_alternative] = total[by_alternative]
        return SystemScores(self, chosen, dm, matched, total, lengths, alternative)

    def compile_alternatives(self) -> Alternatives:
        """The selected check-points' alternatives (:mod:`checkpoints.evaluate.alternatives`), built on first use."""
        if self._alternatives is None:
            self._alternatives = Alternatives(self.suite, self.checkpoints, self._encoder.tokenizer)
        return self._alternatives

    @property
    def alternatives_label(self) -> str:
        """``no``, or which alternatives are on (``dict+stem+syn``): part of a run's signature."""
        return self.compile_alternatives().label if self.alternatives else "no"

    @property
    def bleu_tokenize(self) -> str:
        """The match tokenizer when sacreBLEU has it, else sacreBLEU's default for the language."""
        return bleu_tokenizer(self.tokenize, self.suite.target_lang)

    def bleu(self, translations: Sequence[str]) -> float:
        """sacreBLEU corpus BLEU (0–100) on the evaluated pairs, all references (see :attr:`bleu_tokenize`).

        The references are prepared on the first call and kept for the next systems.
        """
        self._check_length(translations)
        if self._bleu_references is None:
            self._bleu_references = BleuReferences(
                [[reference.text for reference in self.suite.pairs[p].references] for p in self.pair_positions.tolist()],
                self._bleu_encoder,
            )
        if self._bleu_encoder is self._encoder and self._encoder.chunkwise:  # trailing spaces cut no chunk
            ids, lengths = self._candidates(translations)
        else:
            ids, lengths = self._bleu_encoder.encode([translations[p].rstrip() for p in self.pair_positions.tolist()])
        return self._bleu_references.score(ids, lengths)

    def explain(self, checkpoint: CheckPoint, translation: str) -> CheckpointExplanation:
        """Drill-down for one check-point under this scorer's tokenizer and granularity."""
        return explain(
            checkpoint, translation, tokenize=self.tokenize, match=self.match, language=self.suite.target_lang,
            max_order=self.max_order,
        )

    def signature(self) -> Signature:
        """How this scorer matched: tokenizer, granularity, order, the check-points, the alternatives."""
        return Signature(
            match=self.match.value, tok=self.tokenize, order=order_label(self.max_order),
            checkpoints=len(self._selection), alternatives=self.alternatives_label if self.alternatives else None,
        )


class _WordsPerPair(Sequence[list[str]]):
    """An output's match-tokenizer words per evaluated pair, split out only for the pairs asked for."""

    def __init__(self, words: list[str], raw: np.ndarray, counts: np.ndarray) -> None:
        self._words = words
        self._raw = raw
        self._ends = np.cumsum(counts)

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, row):  # type: ignore[no-untyped-def, override]
        start = int(self._ends[row - 1]) if row else 0
        words = self._words
        return [words[i] for i in self._raw[start : int(self._ends[row])].tolist()]


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
    alternative: np.ndarray | None = None
    """int8 :class:`~checkpoints.evaluate.alternatives.Alternative` per check-point (None: not computed)."""

    def match_ratio(self) -> np.ndarray:
        """matched / total of r* per check-point, without DM (0 for a check-point without references)."""
        return np.divide(self.matched, self.total, out=np.zeros(len(self.total)), where=self.total > 0)

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
