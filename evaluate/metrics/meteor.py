"""METEOR-ex, METEOR-st, METEOR-sy, METEOR-pa as Asiya runs Meteor 1.x.

Asiya's METEOR module runs Meteor 1.x (the manual names 1.2; its code runs
``meteor-1.4.jar``) with ``-l LANG -m MODULES`` and no other option, so
Meteor's default task ("rank") with its parameters for the target language:

===============  ==========================  =======================================
Asiya name       Meteor modules (``-m``)     what may match
===============  ==========================  =======================================
``METEOR-ex``    exact                       identical words
``METEOR-st``    exact stem                  + same Snowball stem
``METEOR-sy``    exact stem synonym          + a shared WordNet synset (English)
``METEOR-pa``    exact stem synonym          + phrases paired in a paraphrase table
                 paraphrase
===============  ==========================  =======================================

**Score** (Meteor 1.3+; Denkowski & Lavie 2011). With m_i(h) the words of the
hypothesis matched by module i, split into content (c) and function (f)
words, and w_i the module weights::

    P = Σ_i w_i (δ·m_i(h_c) + (1−δ)·m_i(h_f)) / (δ·|h_c| + (1−δ)·|h_f|)
    R = the same over the reference
    Fmean = P·R / (α·P + (1−α)·R)
    frag = chunks / ((m(h) + m(r)) / 2)   (0 when both strings are matched whole in one chunk)
    METEOR = Fmean · (1 − γ·frag^β)

English ("rank" task): α = 0.85, β = 0.20, γ = 0.60, δ = 0.75; weights
exact 1.0, stem 0.6, synonym 0.8, paraphrase 0.6. Czech, French, Spanish,
German and Russian use Meteor's rank values for those languages, every other
language Meteor's language-independent ones (:data:`PARAMETERS`).

Function words: Meteor reads them from lists it ships (words frequent in
large monolingual corpora) that are not part of this project. Without a list
(``MetricOptions.extra["function-words"]``: a file, one word a line) every
word is a content word, δ cancels out, and P and R are the module-weighted
match counts over the lengths (the formula before Meteor 1.3 added the
function-word weighting). With a list the full 1.3+ formula applies.
Meteor 1.5 itself always uses its English list (``function/english.words``
in the jar), whatever ``-l`` says: its configuration takes the word-list
location from its default language, English, and ``-l`` does not change it
(checked on the jar: German "der" counts as a content word, English "the" as
a function word, under ``-l de`` and ``-l fr``). To reproduce the jar for
any language, pass that English list.

**Stems** (``METEOR-st`` and the stem stage of ``-sy``/``-pa``): for English
and German the stemmers of Meteor 1.5's older Java Snowball, reproduced in
:mod:`checkpoints.evaluate.metrics.meteor_stem` and applied to the words as
given (cased, as the jar does); PyStemmer's current Snowball differs on some
words (English "organism", "international"; German "Ergebnisse", "betrachtet").
Other languages use PyStemmer's Snowball, which may differ from the jar's.

**Alignment** (Meteor 1.x ``Aligner``): every module proposes candidate
matches and Meteor's beam search picks an alignment among them; see
:mod:`checkpoints.evaluate.metrics.meteor_align`.
The variants are cumulative, as the Asiya manual lists them ("plus stem",
"plus synonym", "plus paraphrase matching"), so ``METEOR-pa`` runs Meteor's
default modules for the language: all four for English, without synonyms
elsewhere, and exact and paraphrase only where the target language has no
Snowball stemmer (Czech), where ``METEOR-st`` is an error. (Meteor 1.5 hands
the modules of ``-m`` the language's weights by position, so this set is
also the one whose weights are the language's own: ``-m "exact stem
paraphrase"`` would weigh English paraphrases 0.8, the synonym weight.)
``METEOR-sy`` exists for English only: Meteor 1.5's synonym lookup
over the packaged WordNet 3.0 (words as given, one suffix-rule form or the
exception-list bases, synset offsets as Meteor's data has them, part of
speech dropped; :mod:`checkpoints.evaluate.metrics.meteor_synonym`). As in the
jar, a pair with the same stem and a shared synset is proposed by both stages.

**Equality with Meteor 1.5** (``tests/metrics/test_meteor_reference_tool.py``
runs the jar from the PyPI package ``pycocoevalcap``): given the same
whitespace-separated tokens and the jar's English function-word list,
``METEOR-ex`` (``-m exact``) and ``METEOR-st`` (``-m "exact stem"``) give the
jar's segment and system scores to 1e-9, for English (``-l en``) and German
(``-l de``), with the words as given and lower-cased (``-lower`` /
``--case ci``). Measured on every segment (529) of every system of the TED
zh-en and en-de test data (13 systems each); the stemmers also give
the jar's stems on 744,446 English and 307,994 German word forms.
``METEOR-sy`` (``-m "exact stem synonym"``, ``-l en``) gives the jar's
segment and system scores to 1e-9 (largest difference 3.3e-16), cased and
lower-cased, on every segment of all 13 TED zh-en systems. ``METEOR-pa``
(``-m "exact stem synonym paraphrase"`` for English, ``"exact stem
paraphrase"`` for German) gives the jar's segment and system scores to 1e-9
with the jar's own English table (two TED zh-en systems, 100 segments, cased
and lower-cased; checked once with the whole table, and in the tests with
the table cut to the segments' phrases, which the jar scores the same), and
with tables of random phrase pairs for English and German. The jar's search
ranks partial alignments with 1.0 for exact and 0.5 for every other module
whatever the language
(:data:`~checkpoints.evaluate.metrics.meteor_align.SEARCH_WEIGHTS`), which
phrase matches feel. Not compared, so not claimed: other languages, and
Meteor's own tokenization and ``-norm`` normalisation.

**Several references**: the hypothesis is scored against each; the best
score wins (the first on ties) and its statistics are kept.

**Aggregation**: statistics (lengths, matches per module and word class,
chunks) are summed and the score computed from the sums, like Meteor's
system and document scores, which Asiya reports (``Aggregation.CORPUS``).
As in Meteor 1.5's ``MeteorStats.addStats``, a segment matched whole in a
single chunk contributes no chunk to the sums (its statistics carry 0
chunks; its own fragmentation is 0 either way).

Text: the project tokenizer (``--tokenize``), lower-cased with ``--case ci``
(Asiya passes no ``-norm``/``-lower``, so Meteor compares the words as given).
WordNet: see :mod:`checkpoints.wordnet`. Paraphrase table
for ``METEOR-pa`` (``MetricOptions.extra["paraphrase-table"]``): Meteor's own
(``paraphrase-en.gz``) or ``phrase<TAB>paraphrase`` lines, read as Meteor
reads its table (:mod:`checkpoints.evaluate.metrics.meteor_paraphrase`);
entries match in both directions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from checkpoints.errors import InputError, ResourceNotAvailable, UsageError
from checkpoints.evaluate.metrics.base import Aggregation, Metric, MetricOptions
from checkpoints.evaluate.metrics.meteor_align import (
    BEAM_SIZE,
    EXACT,
    MODULE_NAMES,
    PARAPHRASE,
    STEM,
    SYNONYM,
    Analysed,
    Match,
    ParaphraseTable,
    align,
    candidates,
    count_chunks,
    coverage_gain,
    resolve,
)
from checkpoints.evaluate.metrics.meteor_paraphrase import read_paraphrase_table
from checkpoints.evaluate.metrics.meteor_stem import METEOR_STEMMERS
from checkpoints.evaluate.metrics.overlap import segment_tokens
from checkpoints.evaluate.metrics.registry import MetricEntry
from checkpoints.evaluate.stemming import get_stemmer

__all__ = [
    "BEAM_SIZE",
    "DESCRIPTIONS",
    "EXACT",
    "LANGUAGE_INDEPENDENT",
    "METRICS",
    "MODULE_NAMES",
    "PARAMETERS",
    "PARAPHRASE",
    "STEM",
    "SYNONYM",
    "VARIANTS",
    "Match",
    "Meteor",
    "Parameters",
    "count_chunks",
    "coverage_gain",
    "language_key",
    "meteor_scores",
    "parameters_for",
    "read_function_words",
    "read_paraphrase_table",
    "resolve",
]

PARAPHRASE_TABLE_OPTION = "paraphrase-table"
FUNCTION_WORDS_OPTION = "function-words"


@dataclass(frozen=True, slots=True)
class Parameters:
    """Meteor's α, β, γ, δ and the weight of each module (``None``: no such module for the language)."""

    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: tuple[float | None, float | None, float | None, float | None]


# Meteor's rank-task tables list weights for the language's own modules in
# order; they are spelled out per module here (e.g. French: exact, stem,
# paraphrase = 1.0, 0.2, 0.4).
PARAMETERS: dict[str, Parameters] = {
    "en": Parameters(0.85, 0.20, 0.60, 0.75, (1.0, 0.6, 0.8, 0.6)),
    "cs": Parameters(0.95, 0.20, 0.60, 0.80, (1.0, None, None, 0.4)),
    "fr": Parameters(0.90, 1.40, 0.60, 0.65, (1.0, 0.2, None, 0.4)),
    "es": Parameters(0.65, 1.30, 0.50, 0.80, (1.0, 0.8, None, 0.6)),
    "de": Parameters(0.95, 1.00, 0.55, 0.55, (1.0, 0.8, None, 0.2)),
    "ru": Parameters(0.75, 1.40, 0.70, 0.50, (1.0, 0.5, None, 0.5)),
}
LANGUAGE_INDEPENDENT = Parameters(0.75, 1.40, 0.70, 0.50, (1.0, 0.5, None, 0.5))
"""Meteor's parameters for languages it was not tuned on."""

VARIANTS: dict[str, tuple[int, ...]] = {
    "METEOR-ex": (EXACT,),
    "METEOR-st": (EXACT, STEM),
    "METEOR-sy": (EXACT, STEM, SYNONYM),
    "METEOR-pa": (EXACT, STEM, SYNONYM, PARAPHRASE),
}

DESCRIPTIONS = {
    "METEOR-ex": "METEOR-ex: Meteor 1.x F-mean with fragmentation penalty, exact word matches only",
    "METEOR-st": "METEOR-st: METEOR with exact and Snowball-stem matches",
    "METEOR-sy": "METEOR-sy: METEOR with exact, stem and WordNet-synonym matches (English)",
    "METEOR-pa": "METEOR-pa: METEOR with exact, stem, synonym (English) and paraphrase matches (needs a paraphrase table)",
}

# Layout of the statistics vector.
TEST_LENGTH, REF_LENGTH, TEST_FUNCTION, REF_FUNCTION = range(4)
_MODULE_BASE = 4
"""Then per module: test content, reference content, test function, reference function matches."""
CHUNKS = _MODULE_BASE + 4 * len(MODULE_NAMES)
N_STATS = CHUNKS + 1


def _stemmer_or_none(language: str) -> Callable[[str], str] | None:
    """Meteor 1.5's own (older) Snowball stemmer where reproduced (English, German), else PyStemmer's."""
    if language in METEOR_STEMMERS:
        return METEOR_STEMMERS[language]
    try:
        return get_stemmer(language)
    except UsageError:
        return None


def language_key(language: str) -> str:
    key = language.lower().replace("_", "-").split("-")[0]
    return "cs" if key == "cz" else key


def parameters_for(language: str) -> Parameters:
    return PARAMETERS.get(language_key(language), LANGUAGE_INDEPENDENT)


# ---------------------------------------------------------------------------
# Scoring


def meteor_scores(stats: np.ndarray, parameters: Parameters) -> np.ndarray:
    """Meteor scores from summed statistics, vectorised over leading axes (0 where undefined)."""
    stats = np.asarray(stats, dtype=np.float64)
    alpha, beta, gamma, delta = parameters.alpha, parameters.beta, parameters.gamma, parameters.delta
    test_length, ref_length = stats[..., TEST_LENGTH], stats[..., REF_LENGTH]
    test_function, ref_function = stats[..., TEST_FUNCTION], stats[..., REF_FUNCTION]
    test_weighted_length = delta * (test_length - test_function) + (1 - delta) * test_function
    ref_weighted_length = delta * (ref_length - ref_function) + (1 - delta) * ref_function
    test_weighted = np.zeros(stats.shape[:-1])
    ref_weighted = np.zeros(stats.shape[:-1])
    test_total = np.zeros(stats.shape[:-1])
    ref_total = np.zeros(stats.shape[:-1])
    for module, weight in enumerate(parameters.weights):
        base = _MODULE_BASE + 4 * module
        test_content, ref_content = stats[..., base], stats[..., base + 1]
        test_fn, ref_fn = stats[..., base + 2], stats[..., base + 3]
        test_total = test_total + test_content + test_fn
        ref_total = ref_total + ref_content + ref_fn
        if weight:
            test_weighted = test_weighted + weight * (delta * test_content + (1 - delta) * test_fn)
            ref_weighted = ref_weighted + weight * (delta * ref_content + (1 - delta) * ref_fn)
    chunks = stats[..., CHUNKS]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(test_weighted_length > 0, test_weighted / test_weighted_length, 0.0)
        recall = np.where(ref_weighted_length > 0, ref_weighted / ref_weighted_length, 0.0)
        denominator = alpha * precision + (1 - alpha) * recall
        fmean = np.where((precision > 0) & (recall > 0), precision * recall / denominator, 0.0)
        whole = (test_total == test_length) & (ref_total == ref_length) & (chunks == 1)
        matches = (test_total + ref_total) / 2
        fragmentation = np.where(whole | (matches == 0), 0.0, chunks / np.where(matches > 0, matches, 1.0))
        score = fmean * (1 - gamma * np.power(fragmentation, beta))
    return np.maximum(np.nan_to_num(score, nan=0.0), 0.0)


# ---------------------------------------------------------------------------
# Resources


def read_function_words(path: str | Path) -> frozenset[str]:
    """One word a line (case-insensitive, as Meteor compares them lower-cased)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(path, None, "function word list not found") from None
    except UnicodeDecodeError as error:
        raise InputError(path, None, f"not UTF-8 text ({error.reason})") from None
    words = set()
    for number, line in enumerate(text.splitlines(), start=1):
        word = line.strip()
        if not word:
            continue
        if len(word.split()) != 1:
            raise InputError(path, number, "expected one word per line")
        words.add(word.lower())
    return frozenset(words)


# ---------------------------------------------------------------------------
# The metric


class Meteor(Metric):
    """One of Asiya's METEOR variants (see the module documentation)."""

    aggregation = Aggregation.CORPUS

    def __init__(self, name: str, options: MetricOptions | None = None) -> None:
        super().__init__(options)
        self.name = name
        self.description = DESCRIPTIONS[name]
        self.language = language_key(self.options.target_language(name))
        self.parameters = parameters_for(self.language)
        modules = list(VARIANTS[name])
        stemmer = _stemmer_or_none(self.language) if self.parameters.weights[STEM] is not None else None
        if name == "METEOR-pa":  # Meteor's default modules for the language: drop what it lacks
            if self.parameters.weights[SYNONYM] is None:
                modules.remove(SYNONYM)
            if stemmer is None:
                modules.remove(STEM)
        for module in modules:
            if self.parameters.weights[module] is None or (module == STEM and stemmer is None):
                raise UsageError(f"{name}: no {MODULE_NAMES[module]} matching for target language "
                                 f"{self.options.language!r}"
                                 + (" (WordNet synonyms exist for English only)" if module == SYNONYM else ""))
        self.modules = tuple(modules)
        self._stem = stemmer if STEM in self.modules else None
        self._synonyms = self._load_synonyms() if SYNONYM in self.modules else None
        self._paraphrases = self._load_paraphrases() if PARAPHRASE in self.modules else None
        function_file = self.options.extra.get(FUNCTION_WORDS_OPTION)
        self._function_words = read_function_words(function_file) if function_file else frozenset()
        # Per instance, bounded: segments analysed for this variant, and word → stem.
        self._analysed: dict[str, Analysed] = {}
        self._stems: dict[str, str] = {}

    def _load_synonyms(self) -> Callable[[str], frozenset[int]]:
        from checkpoints.evaluate.metrics.meteor_synonym import MeteorSynonyms

        try:
            return MeteorSynonyms()
        except ResourceNotAvailable as error:
            raise ResourceNotAvailable(f"{self.name} needs WordNet: {error}") from None

    def _load_paraphrases(self) -> ParaphraseTable:
        table = self.options.extra.get(PARAPHRASE_TABLE_OPTION)
        if not table:
            raise UsageError(f"{self.name} needs a paraphrase table (option {PARAPHRASE_TABLE_OPTION!r})")
        return read_paraphrase_table(table)

    @property
    def n_stats(self) -> int:
        return N_STATS

    # -- preparation -------------------------------------------------------

    def _analyse(self, text: str) -> Analysed:
        analysed = self._analysed.get(text)
        if analysed is not None:
            return analysed
        tokenize, lowercase = self.options.tokenize, self.options.lowercase
        tokens = self.cache.memo(("segment-tokens", tokenize, lowercase),
                                 lambda: lambda text: segment_tokens(text, tokenize, lowercase))(text)
        positions: dict[str, list[int]] = {}
        for index, token in enumerate(tokens):
            positions.setdefault(token, []).append(index)
        stems = tuple(self._stem_of(token) for token in tokens) if self._stem is not None else ()
        synsets = tuple(map(self._synonyms, tokens)) if self._synonyms is not None else ()
        function = tuple(token.lower() in self._function_words for token in tokens)
        analysed = Analysed(tokens, {k: tuple(v) for k, v in positions.items()}, stems, synsets, function)
        if len(self._analysed) < 1 << 17:
            self._analysed[text] = analysed
        return analysed

    def _stem_of(self, token: str) -> str:
        stem = self._stems.get(token)
        if stem is None:
            stem = self._stem(token)  # type: ignore[misc]
            if len(self._stems) < 1 << 17:
                self._stems[token] = stem
        return stem

    # -- matching ------------------------------------------------------------

    def candidates(self, hyp: Analysed, ref: Analysed) -> list[list[Match]]:
        """Candidate matches of this variant's modules, listed at their reference start position."""
        return candidates(hyp, ref, self.modules, self._paraphrases)

    def align(self, hyp: Analysed, ref: Analysed) -> list[Match]:
        return align(hyp, ref, self.candidates)

    def _pair_stats(self, hyp: Analysed, ref: Analysed) -> np.ndarray:
        matches = self.align(hyp, ref)
        stats = np.zeros(N_STATS)
        stats[TEST_LENGTH] = len(hyp.tokens)
        stats[REF_LENGTH] = len(ref.tokens)
        stats[TEST_FUNCTION] = sum(hyp.function)
        stats[REF_FUNCTION] = sum(ref.function)
        for match in matches:
            base = _MODULE_BASE + 4 * match.module
            for i in range(match.hyp_start, match.hyp_start + match.hyp_length):
                stats[base + (2 if hyp.function[i] else 0)] += 1
            for j in range(match.ref_start, match.ref_start + match.ref_length):
                stats[base + (3 if ref.function[j] else 1)] += 1
        chunks = count_chunks(matches, len(ref.tokens))
        whole = (chunks == 1 and sum(m.hyp_length for m in matches) == len(hyp.tokens)
                 and sum(m.ref_length for m in matches) == len(ref.tokens))
        # Meteor's MeteorStats.addStats leaves out the chunk of a segment matched whole in one
        # chunk (its fragmentation is 0); storing 0 keeps the segment score and makes summed
        # statistics give Meteor's system and document scores.
        stats[CHUNKS] = 0 if whole else chunks
        return stats

    def segment_stats(self, hypothesis: str, references: Sequence[str], source: str | None = None) -> np.ndarray:
        hyp = self._analyse(hypothesis)
        rows = [self._pair_stats(hyp, self._analyse(reference)) for reference in references]
        if not rows:
            stats = np.zeros(N_STATS)
            stats[TEST_LENGTH] = len(hyp.tokens)
            return stats
        if len(rows) == 1:
            return rows[0]
        return rows[int(np.argmax(self.score(np.stack(rows))))]

    def score(self, stats: np.ndarray) -> np.ndarray:
        return meteor_scores(stats, self.parameters)

    def signature_extras(self) -> dict[str, str]:
        p = self.parameters
        weights = ",".join(f"{MODULE_NAMES[m]}={p.weights[m]:g}" for m in self.modules)
        extras = {"meteor": "1.x-rank", "lang": self.language, "modules": "+".join(MODULE_NAMES[m] for m in self.modules),
                  "params": f"{p.alpha:g},{p.beta:g},{p.gamma:g},{p.delta:g}", "weights": weights,
                  "function-words": "yes" if self._function_words else "none"}
        return extras


def _factory(name: str) -> Callable[[MetricOptions], Meteor]:
    return lambda options: Meteor(name, options)


def _entries(names: Iterable[str]) -> dict[str, MetricEntry]:
    # METEOR-pa needs a user's paraphrase table, so it is not in the lexical set. Every variant
    # depends on the target language (Meteor's parameters, stemmer, synonyms).
    return {
        name: MetricEntry(
            DESCRIPTIONS[name],
            _factory(name),
            () if name == "METEOR-pa" else ("lexical",),
            language=True,
            requires=(PARAPHRASE_TABLE_OPTION,) if name == "METEOR-pa" else (),
        )
        for name in names
    }


METRICS: dict[str, MetricEntry] = _entries(VARIANTS)
