"""eflomal (Östling & Tiedemann 2016): a Bayesian IBM-style aligner, no model to download.

It learns from the corpus being aligned, so it works offline on any language
pair, and it aligns the whole corpus in one call — more sentence pairs mean
better links; a handful of sentences gives poor ones. Both directions come
out of the same run and are symmetrised with grow-diag-final-and
(:mod:`checkpoints.extract.symmetrize`).

eflomal samples at random and has no seed option; :mod:`checkpoints.extract.eflomal_process`
runs it so that the same seed gives the same links (where the platform allows).

A thousand sentence pairs are little to learn word translations from, so two
things help it (measured on hand-aligned PUD pairs in
``benchmarks/reference_quality.py``):

* it reads lower-cased **lemmas** where the parse has them (``token_key``):
  "revealed" and "reveals" are one word to learn, not two;
* a bilingual dictionary becomes **lexical priors** (eflomal's ``LEX`` lines:
  pseudo-counts added to a word pair's translation counts before sampling),
  for every dictionary pair whose two words occur in the corpus, and for
  words written the same on both sides (names, numbers, "1,5" ~ "1.5").
"""

from __future__ import annotations

import logging
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from checkpoints.errors import ModelNotAvailable, UsageError
from checkpoints.extract.dictionary import Lexicon
from checkpoints.extract.eflomal_process import (
    DEFAULT_ALIGN_SEED,
    EflomalJob,
    can_seed,
    run_eflomal,
)
from checkpoints.extract.symmetrize import METHODS, symmetrize
from checkpoints.extract.wordmatch import number_key, similar_spelling
from checkpoints.io.pharaoh import parse_pharaoh_line
from checkpoints.model import Alignment

logger = logging.getLogger(__name__)

INSTALL_HINT = "the eflomal aligner is not installed (mt-checkpoints depends on it): pip install 'eflomal>=2.0'"

_PLACEHOLDER = "\u2581"
"""Stands in for a space inside a token and for an empty token (eflomal splits on whitespace)."""


PRIOR_WEIGHT = 10.0
"""Pseudo-count of a whole-word dictionary or identity prior. Chosen on the PUD
dev pairs (en-es): AER 0.23 without priors, 0.18 with weight 1, 0.17 with 4,
0.16 with 10."""

RUNS = 3
"""Runs put to a vote. On the PUD dev pairs three runs instead of one lower
zh-en AER from 0.29 to 0.26, and make the sure links (:func:`majority`) the
ones to trust: 95% of word references read from sure links the dictionary
supports are right."""

COMMON_WORD_SHARE = 0.05
"""Words of multi-word translations found in more than this share of the
corpus's target sentences ("the", "to", "of") are function words, no prior."""


def lexical_priors(
    sources: Sequence[str], targets: Sequence[str], lexicon: Lexicon, weight: float = PRIOR_WEIGHT
) -> list[str]:
    """eflomal ``LEX`` prior lines for the corpus given as eflomal input lines.

    Three kinds of pair, only where both words occur in the corpus (a
    dictionary of hundreds of thousands of entries would otherwise dwarf
    it): a one-word dictionary translation, and a word written alike on
    both sides or the same number, with ``weight``; and a content word of a
    multi-word translation, with half of it.
    """
    source_words = {word for line in sources for word in line.split()}
    target_words = {word for line in targets for word in line.split()}
    whole = {(s, t) for s, t in lexicon.pairs() if s in source_words and t in target_words}
    whole.update((word, word) for word in source_words & target_words if any(c.isalnum() for c in word))
    by_number: dict[str, list[str]] = {}
    for word in target_words:
        key = number_key(word.replace(_PLACEHOLDER, " "))
        if key is not None:
            by_number.setdefault(key, []).append(word)
    for word in source_words:
        key = number_key(word.replace(_PLACEHOLDER, " "))
        if key is not None:
            whole.update((word, same) for same in by_number.get(key, ()))
    frequency = Counter(word for line in targets for word in set(line.split()))
    common = COMMON_WORD_SHARE * len(targets)
    parts = {
        (source, word)
        for source, translations in lexicon.entries.items()
        if source in source_words
        for translation in translations
        if " " in translation
        for word in translation.split()
        if word in target_words and frequency[word] <= common
    } - whole
    whole.update(_cognate_pairs(sources, targets) - whole)
    lines = [f"LEX\t{s}\t{t}\t{weight:g}" for s, t in sorted(whole)]
    # half weight: "male" in CC-CEDICT's 男性 "the male sex" (zh-en AER 0.32 → 0.30)
    lines += [f"LEX\t{s}\t{t}\t{weight / 2:g}" for s, t in sorted(parts)]
    return lines


def _cognate_pairs(sources: Sequence[str], targets: Sequence[str]) -> set[tuple[str, str]]:
    """Word pairs spelt nearly alike (:func:`checkpoints.extract.wordmatch.similar_spelling`)
    that meet in some sentence pair: likely cognates, which a thin dictionary does not list."""
    found: set[tuple[str, str]] = set()
    for source_line, target_line in zip(sources, targets, strict=True):
        target_words = set(target_line.split())
        for word in set(source_line.split()):
            for other in target_words:
                if word != other and similar_spelling(word, other):
                    found.add((word, other))
    return found


class EflomalAligner:
    """Word alignment of a whole parallel corpus with eflomal.

    Args:
        symmetrization: how the two directions are combined (see
            :data:`checkpoints.extract.symmetrize.METHODS`).
        model: eflomal's model: 1 = IBM1, 2 = + HMM word order,
            3 = + fertility (eflomal's default and the most accurate).
        samplers: independent Gibbs samplers whose counts are averaged;
            more is steadier and slower (eflomal's Python default is 3).
        iterations: number of iterations relative to eflomal's default
            schedule (which it derives from the corpus size).
        prior_weight: pseudo-count of a dictionary prior (:func:`lexical_priors`).
        runs: independent runs whose links are put to a vote (:func:`majority`).
        seed: seed of the sampling (None: eflomal's own random seed); see
            :mod:`checkpoints.extract.eflomal_process`.
        workers: eflomal processes run at once (default: one per core).
    """

    name = "eflomal"
    token_key = "lemma"
    """eflomal aligns lower-cased lemmas (forms where a word has no lemma)."""

    def __init__(
        self,
        *,
        symmetrization: str = "grow-diag-final-and",
        model: int = 3,
        samplers: int = 3,
        iterations: float = 1.0,
        prior_weight: float = PRIOR_WEIGHT,
        runs: int = RUNS,
        seed: int | None = DEFAULT_ALIGN_SEED,
        workers: int | None = None,
    ) -> None:
        if symmetrization not in METHODS:
            raise UsageError(f"unknown symmetrisation {symmetrization!r} (choose {', '.join(METHODS)})")
        if model not in (1, 2, 3):
            raise UsageError(f"eflomal model must be 1 (IBM1), 2 (HMM) or 3 (HMM + fertility), not {model}")
        if samplers < 1 or iterations <= 0 or runs < 1:
            raise UsageError("eflomal needs at least one sampler and run and a positive number of iterations")
        self.symmetrization = symmetrization
        self.model = model
        self.samplers = samplers
        self.iterations = iterations
        self.prior_weight = prior_weight
        self.runs = runs
        self.seed = seed
        self.workers = workers
        self.priors_used = 0
        try:
            self.version = metadata.version("eflomal")
        except metadata.PackageNotFoundError:
            self.version = "not installed"

    def settings(self) -> dict[str, object]:
        return {
            "aligner": self.name,
            "version": self.version,
            "symmetrization": self.symmetrization,
            "model": self.model,
            "samplers": self.samplers,
            "iterations": self.iterations,
            "token_key": self.token_key,
            "prior_weight": self.prior_weight,
            "priors": self.priors_used,
            "runs": self.runs,
            "seed": self.seed if self.seed is not None and can_seed() else "none",
        }

    def align(
        self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], lexicon: Lexicon | None = None
    ) -> list[Alignment]:
        """One symmetrised alignment per pair, indices into the given token lists.

        With a ``lexicon``, its word pairs found in the corpus, and the words
        written alike on both sides, become lexical priors.
        """
        eflomal = _import_eflomal()
        if not pairs:
            return []
        source_units = [AlignmentUnits.of(source) for source, _ in pairs]
        target_units = [AlignmentUnits.of(target) for _, target in pairs]
        sources = [_line(units.units) for units in source_units]
        targets = [_line(units.units) for units in target_units]
        priors: list[str] = []
        if lexicon is not None:
            words = lexical_priors([_line(s) for s, _ in pairs], [_line(t) for _, t in pairs], lexicon, self.prior_weight)
            priors = _merge_priors(character_priors(words), lexical_priors(sources, targets, lexicon, self.prior_weight))
        self.priors_used = len(priors)
        unit_pairs = [(s.units, t.units) for s, t in zip(source_units, target_units, strict=True)]
        job = EflomalJob.for_corpus(len(pairs), model=self.model, samplers=self.samplers, relative_iterations=self.iterations)
        if self.seed is not None and not can_seed():
            logger.warning("eflomal cannot be seeded here (no private /dev/urandom: needs Linux user namespaces); "
                           "links may differ between builds (recorded as align-seed:none)")
        runs = []
        with tempfile.TemporaryDirectory(prefix="checkpoints-eflomal-") as name:
            directory = Path(name)
            files = [directory / "source", directory / "target", directory / "priors"]
            with files[0].open("wb") as source_file, files[1].open("wb") as target_file, \
                    files[2].open("w", encoding="utf-8") as priors_file:
                eflomal.Aligner(model=self.model).prepare_files(
                    sources, source_file, targets, target_file, priors or None, priors_file
                )
            outputs = run_eflomal(job, files[0], files[1], files[2] if priors else None, directory,
                                  runs=self.runs, seed=self.seed, workers=self.workers)
            for forward_path, backward_path in outputs:
                forward = _read_links(forward_path, unit_pairs)
                backward = _read_links(backward_path, unit_pairs)
                symmetrized = symmetrize(forward, backward, self.symmetrization)
                runs.append([
                    _word_alignment(alignment, source, target)
                    for alignment, source, target in zip(symmetrized, source_units, target_units, strict=True)
                ])
        return [majority([run[index] for run in runs]) for index in range(len(pairs))]


def majority(alignments: Sequence[Alignment]) -> Alignment:
    """The links most runs found, sure where both directions found them in most runs;
    and, for a source word no such link reaches, the links any run found for it, unsure.

    eflomal samples at random: a link one run finds and the next does not is
    a coin toss, a link every run finds is not. A word the runs disagree on
    still gets their links — a word check-point needs one — but as unsure
    links, which a phrase or clause reference does not take (measured on the
    PUD dev pairs: coverage of gold-linked words 0.547 → 0.583 for zh-en,
    exactness 0.707 → 0.703). With one run this is that run's alignment, its
    sure links those both directions found.
    """
    needed = len(alignments) // 2 + 1
    votes = Counter(link for alignment in alignments for link in alignment.links)
    agreed = Counter(link for alignment in alignments for link in alignment.sure or ())
    links = {link for link, count in votes.items() if count >= needed}
    sure = frozenset(link for link in links if agreed[link] >= needed)
    linked = {source for source, _ in links}
    links.update(link for link in votes if link[0] not in linked)
    return Alignment(frozenset(links), sure=sure)


def is_han_word(word: str) -> bool:
    """A word of two or more Chinese characters (CJK unified ideographs)."""
    return len(word) > 1 and all("\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf" for char in word)


@dataclass(frozen=True, slots=True)
class AlignmentUnits:
    """What eflomal reads for one sentence: words, with Chinese words cut into characters.

    A thousand sentences hold each Chinese word only a few times, but its
    characters many times over (研究, 研究人員, 研究所 share 研 and 究), so
    eflomal learns from characters far better: on the PUD zh-en dev pairs,
    AER 0.31 with words against 0.28 with characters. Links between units are
    mapped back to the words the units belong to (``owner``).
    """

    units: list[str]
    owner: list[int]

    @classmethod
    def of(cls, words: Sequence[str]) -> AlignmentUnits:
        units: list[str] = []
        owner: list[int] = []
        for index, word in enumerate(words):
            pieces = list(word) if is_han_word(word) else [word]
            units.extend(pieces)
            owner.extend([index] * len(pieces))
        return cls(units, owner)


def character_priors(lines: Sequence[str]) -> list[str]:
    """Word priors restated for units: a Chinese word's translation is a prior for each of its characters."""
    out = []
    for line in lines:
        kind, source, target, weight = line.split("\t")
        for left in list(source) if is_han_word(source) else [source]:
            for right in list(target) if is_han_word(target) else [target]:
                out.append(f"{kind}\t{left}\t{right}\t{weight}")
    return out


def _merge_priors(*groups: Sequence[str]) -> list[str]:
    """One line per word pair, with the largest weight any group gives it."""
    best: dict[tuple[str, str], float] = {}
    for lines in groups:
        for line in lines:
            _, source, target, weight = line.split("\t")
            best[(source, target)] = max(best.get((source, target), 0.0), float(weight))
    return [f"LEX\t{s}\t{t}\t{w:g}" for (s, t), w in sorted(best.items())]


def _word_alignment(alignment: Alignment, source: AlignmentUnits, target: AlignmentUnits) -> Alignment:
    links = frozenset((source.owner[s], target.owner[t]) for s, t in alignment.links)
    sure = None if alignment.sure is None else frozenset((source.owner[s], target.owner[t]) for s, t in alignment.sure)
    return Alignment(links, sure=sure)


def _import_eflomal() -> Any:
    try:
        import eflomal
    except ImportError as error:
        raise ModelNotAvailable(INSTALL_HINT) from error
    return eflomal


def _line(tokens: Sequence[str]) -> str:
    """Tokens joined by single spaces, each kept as exactly one whitespace-free field."""
    return " ".join(_field(token) for token in tokens)


def _field(token: str) -> str:
    parts = token.split()
    return _PLACEHOLDER.join(parts) if parts else _PLACEHOLDER


def _read_links(path: Path, pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[Alignment]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if len(lines) != len(pairs):
        raise RuntimeError(f"eflomal wrote {len(lines)} alignment lines for {len(pairs)} sentence pairs")
    return [
        parse_pharaoh_line(line, len(source), len(target), path, number)
        for number, (line, (source, target)) in enumerate(zip(lines, pairs, strict=True), start=1)
    ]
