"""How far a suite can be trusted, measured on the suite alone: no gold alignment, no second system.

A category score promises to measure how well a system translates one
phenomenon. Two things break that promise, and both can be seen without gold
data, by evaluating texts whose right score is known:

* **The reference's own text as a system.** A correct translation must score
  1 (it is what the references were cut from). Less means references that
  cannot be matched in running text (a multi-word token written in parts, a
  tokenizer that glues what the reference separates).
* **The substitution test.** Every target word of one part of speech in the
  reference text is replaced by another word of that part of speech from the
  suite's own references (every ADP by another ADP: "en la casa" → "sobre la
  casa"), and the text evaluated again. A category that measures its
  phenomenon falls to about 0 under its own class (the Preposition category
  under ADP) — its **sensitivity**, the drop, ideally 1 — and does not move
  under the others — its **leakage**, the largest drop under another class,
  ideally 0. A reference that took the wrong words (an article instead of a
  preposition) shows as low sensitivity and as leakage into the wrong class.

Two more figures read the references directly: the share with **gaps**
(``*``: words inside the span's translation that the alignment gave to
something else, each a place where a partial reference may hide) and their
mean dictionary matching degree **DM** (Zhou's formula 1: the share of
reference words a dictionary confirms).

A category's own class is the substitution class (:data:`CLASSES`) most of
its reference words belong to; for phrase and sentence categories, whose
references mix classes, sensitivity is reported but is not expected to reach
1. The one-line verdict (:meth:`SuiteAudit.summary_line`) names the word
categories of at least :data:`MIN_CHECKPOINTS` check-points whose
sensitivity is below :data:`MIN_SENSITIVITY`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from checkpoints.evaluate.comparison import DEFAULT_MIN_CHECKPOINTS
from checkpoints.evaluate.resample import DEFAULT_SEED
from checkpoints.evaluate.scoring import CheckpointScorer
from checkpoints.extract.surface import SurfaceToken, surface_tokens
from checkpoints.model import GAP, Level, Sentence, SuiteData

CLASSES: dict[str, frozenset[str]] = {
    "NOUN": frozenset({"NOUN", "PROPN"}),
    "VERB": frozenset({"VERB", "AUX"}),
    "ADJ": frozenset({"ADJ"}),
    "ADV": frozenset({"ADV", "PART"}),
    "PRON": frozenset({"PRON", "DET"}),
    "ADP": frozenset({"ADP"}),
    "NUM": frozenset({"NUM"}),
}
"""Substitution classes and the Universal POS tags each replaces. Nouns and names go together
(a Noun category holds both); so do verbs and auxiliaries (a verb's check-point holds its
auxiliaries, "has been working", and a modal or a copula is a verb in another language), and
pronouns and determiners ("his" is a pronoun in English and a determiner in Spanish, French and
German: "su", "son", "sein"), and adverbs and particles (negation is an adverb in Spanish and
French, "no", "pas", and a particle in English and German, "not", "nicht")."""

CLASS_OF = {upos: name for name, tags in CLASSES.items() for upos in tags}

MIN_SENSITIVITY = 0.8
"""Below this drop under its own class, a word category is named in the verdict."""
MIN_CHECKPOINTS = DEFAULT_MIN_CHECKPOINTS
"""Fewer check-points give too noisy a score to judge a category by (as ``compare`` flags none)."""


@dataclass(frozen=True, slots=True)
class CategoryAudit:
    """The audit figures of one category (module docstring)."""

    name: str
    level: str
    checkpoints: int
    reference_score: float
    own_class: str | None
    sensitivity: float | None
    leak_class: str | None
    leakage: float | None
    gapped: float
    """Share of the category's alignment-derived references with a gap."""
    sentence_references: float
    """Share of check-points whose reference is the whole reference sentence."""
    mean_dm: float
    drops: Mapping[str, float] = field(default_factory=dict)

    @property
    def judged(self) -> bool:
        """Whether the verdict judges this category's sensitivity."""
        return self.level == Level.WORD.value and self.checkpoints >= MIN_CHECKPOINTS and self.sensitivity is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.name,
            "level": self.level,
            "checkpoints": self.checkpoints,
            "reference_score": _round(self.reference_score),
            "own_class": self.own_class,
            "sensitivity": _round(self.sensitivity),
            "leak_class": self.leak_class,
            "leakage": _round(self.leakage),
            "gapped": _round(self.gapped),
            "sentence_references": _round(self.sentence_references),
            "mean_dm": _round(self.mean_dm),
            "drops": {name: _round(value) for name, value in self.drops.items()},
        }


@dataclass(frozen=True, slots=True)
class SuiteAudit:
    """The audit of one suite: per category, and the settings that reproduce it."""

    suite: str
    categories: tuple[CategoryAudit, ...]
    classes: tuple[str, ...]
    """The substitution classes tried (those the suite's target words have)."""
    seed: int
    signature: str
    reference_score: float
    """The whole taxonomy's score of the reference text."""

    def low_sensitivity(self) -> list[CategoryAudit]:
        return [c for c in self.categories if c.judged and c.sensitivity is not None and c.sensitivity < MIN_SENSITIVITY]

    def summary_line(self) -> str:
        """One line: the reference score, the range of word-category sensitivity and leakage, the weak ones."""
        judged = [c for c in self.categories if c.judged]
        parts = [f"audit: the reference text scores {self.reference_score:.3f}"]
        if judged:
            low = min(c.sensitivity or 0.0 for c in judged)
            high = max(c.sensitivity or 0.0 for c in judged)
            leak = max(c.leakage or 0.0 for c in judged)
            parts.append(f"word categories fall by {low:.2f}–{high:.2f} when their own words are replaced")
            parts.append(f"by at most {leak:.2f} under another class")
        weak = self.low_sensitivity()
        if weak:
            parts.append(
                f"below {MIN_SENSITIVITY}: " + ", ".join(f"{c.name} ({c.sensitivity:.2f})" for c in weak)
            )
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "signature": self.signature,
            "seed": self.seed,
            "classes": list(self.classes),
            "reference_score": _round(self.reference_score),
            "min_sensitivity": MIN_SENSITIVITY,
            "min_checkpoints": MIN_CHECKPOINTS,
            "low_sensitivity": [c.name for c in self.low_sensitivity()],
            "summary": self.summary_line(),
            "categories": [c.to_json() for c in self.categories],
        }


def audit_suite(suite: SuiteData, *, seed: int = DEFAULT_SEED, scorer: CheckpointScorer | None = None) -> SuiteAudit:
    """Every figure of the module docstring for every category of ``suite``.

    The substitutions draw with ``seed``, so an audit is reproducible; the
    suite is scored with ``evaluate``'s defaults unless a ``scorer`` is given.
    """
    scorer = scorer or CheckpointScorer(suite)
    references = [pair.references[0] for pair in suite.pairs]
    own_text = [sentence.text for sentence in references]
    base = scorer.score(own_text).report()
    pools = replacement_pools(references)
    classes = tuple(name for name in CLASSES if pools.words.get(name))
    drops: dict[str, dict[str, float]] = {}
    for name in classes:
        rng = random.Random(f"{seed}:{name}")
        texts = [substituted_text(sentence, name, pools, rng) for sentence in references]
        report = scorer.score(texts).report()
        for category, scores in report.categories.items():
            drops.setdefault(category, {})[name] = base.categories[category].score - scores.score
    audits = []
    shares = _reference_shares(suite)
    for category in suite.categories:
        scores = base.categories.get(category.name)
        if scores is None:
            continue
        own = shares.own_class.get(category.name)
        by_class = drops.get(category.name, {})
        others = {name: value for name, value in by_class.items() if name != own}
        leak_class = max(others, key=lambda name: others[name]) if others else None
        audits.append(
            CategoryAudit(
                name=category.name,
                level=category.level.value,
                checkpoints=scores.checkpoints,
                reference_score=scores.score,
                own_class=own,
                sensitivity=by_class.get(own) if own is not None else None,
                leak_class=leak_class,
                leakage=others[leak_class] if leak_class is not None else None,
                gapped=shares.gapped.get(category.name, 0.0),
                sentence_references=shares.sentence.get(category.name, 0.0),
                mean_dm=shares.dm.get(category.name, 0.0),
                drops=by_class,
            )
        )
    return SuiteAudit(suite.name, tuple(audits), classes, seed, scorer.signature().format(version=False),
                      base.taxonomy.score)


@dataclass(frozen=True, slots=True)
class ReplacementPools:
    words: dict[str, list[str]]
    """Class → the distinct forms of the references' one-word tokens of that class."""
    contractions: dict[tuple[str, ...], list[tuple[str, tuple[str, ...]]]]
    """Parts of speech of a multi-word token ("ADP DET" for "del") → its distinct forms, each
    with the forms of its words ("del", ("de", "el"))."""


def replacement_pools(references: Sequence[Sentence]) -> ReplacementPools:
    words: dict[str, set[str]] = {}
    contractions: dict[tuple[str, ...], set[tuple[str, tuple[str, ...]]]] = {}
    for sentence in references:
        for unit in surface_tokens(sentence):
            if unit.first == unit.last:
                name = CLASS_OF.get(sentence.tokens[unit.first].upos)
                if name is not None:
                    words.setdefault(name, set()).add(unit.form)
            else:
                contractions.setdefault(_signature(sentence, unit), set()).add((unit.form, _parts(sentence, unit)))
    return ReplacementPools(
        {name: sorted(forms) for name, forms in words.items()},
        {key: sorted(forms) for key, forms in contractions.items()},
    )


def _signature(sentence: Sentence, unit: SurfaceToken) -> tuple[str, ...]:
    return tuple(sentence.tokens[i].upos for i in range(unit.first, unit.last + 1))


def _parts(sentence: Sentence, unit: SurfaceToken) -> tuple[str, ...]:
    return tuple(sentence.tokens[i].form.casefold() for i in range(unit.first, unit.last + 1))


def substituted_text(sentence: Sentence, name: str, pools: ReplacementPools, rng: random.Random) -> str:
    """The sentence's text with every token of class ``name`` replaced by another of its class.

    A multi-word token changes only in its words of that class: "del" (de + el) becomes "al"
    (a + el) when prepositions are replaced, and stays when articles are, for Spanish has no
    other contraction of "de".
    """
    return rewritten_text(sentence, lambda unit: replaced_form(sentence, unit, name, pools, rng))


def replaced_form(
    sentence: Sentence, unit: SurfaceToken, name: str, pools: ReplacementPools, rng: random.Random
) -> str:
    """``unit`` as written with its words of class ``name`` replaced (:func:`substituted_text`).

    Draws from ``rng`` only when the unit has a word of the class, so that the draws of a whole
    sentence do not depend on how many other words it has.
    """
    tags = CLASSES[name]
    if unit.first == unit.last:
        if sentence.tokens[unit.first].upos in tags:
            return other_form(unit.form, pools.words.get(name, ()), rng)
        return unit.form
    signature = _signature(sentence, unit)
    replaced = [upos in tags for upos in signature]
    if not any(replaced):
        return unit.form
    parts = _parts(sentence, unit)
    kept = [p for p, r in zip(parts, replaced, strict=True) if not r]
    candidates = [
        other
        for other, other_parts in pools.contractions.get(signature, ())
        if [p for p, r in zip(other_parts, replaced, strict=True) if not r] == kept
    ]
    return other_form(unit.form, candidates, rng)


def rewritten_text(sentence: Sentence, rewrite: Callable[[SurfaceToken], str | None]) -> str:
    """The sentence written from its surface tokens, each as ``rewrite`` gives it (None: deleted).

    Rebuilt from surface tokens, not words, so that a multi-word token is written once ("del",
    not "de el") and glued tokens stay glued ("duerme."): an unchanged sentence comes back as
    written. A deleted token takes its spacing with it the way a reader would: "do n't go"
    written "don't go" loses "n't" as "do go", French "n'est" loses "n'" as "est", "not." loses
    "not" as "." glued to the word before, and a Chinese sentence stays without spaces.
    """
    pieces: list[tuple[str, bool, bool]] = []  # (form, glued to the next, punctuation)
    units = surface_tokens(sentence)
    for number, unit in enumerate(units):
        form = rewrite(unit)
        if form is not None:
            pieces.append((form, unit.glued, _is_punctuation(sentence, unit)))
        elif pieces:
            following = units[number + 1] if number + 1 < len(units) else None
            before, glued, punctuation = pieces[-1]
            if unit.glued and following is not None and _is_punctuation(sentence, following):
                glued = True  # "do not." → "do.": the full stop keeps to the word before
            elif not (punctuation and glued):  # an opening quote keeps to the word after
                glued = glued and unit.glued
            pieces[-1] = (before, glued, punctuation)
    return written_text((form, glued) for form, glued, _ in pieces)


def written_text(pieces: Iterable[tuple[str, bool]]) -> str:
    """Surface forms joined as written: a space after each, except after a glued one."""
    return "".join(form if glued else form + " " for form, glued in pieces).strip()


def _is_punctuation(sentence: Sentence, unit: SurfaceToken) -> bool:
    return unit.first == unit.last and sentence.tokens[unit.first].upos == "PUNCT"


def other_form(form: str, candidates: Sequence[str], rng: random.Random) -> str:
    """A random candidate that differs from ``form`` (ignoring case); ``form`` itself when there is none."""
    folded = form.casefold()
    start = rng.randrange(len(candidates)) if candidates else 0
    for step in range(len(candidates)):
        choice = candidates[(start + step) % len(candidates)]
        if choice.casefold() != folded:
            return choice
    return form


@dataclass(frozen=True, slots=True)
class _Shares:
    own_class: dict[str, str]
    gapped: dict[str, float]
    sentence: dict[str, float]
    dm: dict[str, float]


def category_classes(suite: SuiteData) -> dict[str, str]:
    """Per category, the substitution class most of its words in the references belong to.

    Counted over the first reference of each check-point whose reference came from the
    alignment: a whole-sentence reference holds every class and says nothing of the category's.
    """
    pairs = {pair.id: pair for pair in suite.pairs}
    classes: dict[str, Counter[str]] = {}
    for checkpoint in suite.checkpoints:
        if not checkpoint.references or not checkpoint.references[0].from_alignment:
            continue
        first = checkpoint.references[0]
        sentence = pairs[checkpoint.pair_id].references[first.reference_index]
        tally = classes.setdefault(checkpoint.category, Counter())
        for index in first.target_indices:
            name = CLASS_OF.get(sentence.tokens[index].upos)
            if name is not None:
                tally[name] += 1
    return {name: tally.most_common(1)[0][0] for name, tally in classes.items() if tally}


def _reference_shares(suite: SuiteData) -> _Shares:
    """Per category: the class most reference words have (:func:`category_classes`), and the
    shares of gapped and whole-sentence references, and the mean DM of the first reference."""
    counts: Counter[str] = Counter()
    gapped: Counter[str] = Counter()
    aligned: Counter[str] = Counter()
    whole: Counter[str] = Counter()
    dm: dict[str, float] = {}
    for checkpoint in suite.checkpoints:
        category = checkpoint.category
        counts[category] += 1
        if not checkpoint.references:
            continue
        first = checkpoint.references[0]
        dm[category] = dm.get(category, 0.0) + first.dm
        if not first.from_alignment:
            whole[category] += 1
            continue
        aligned[category] += 1
        gapped[category] += GAP in first.tokens
    return _Shares(
        own_class=category_classes(suite),
        gapped={name: gapped[name] / aligned[name] for name in aligned},
        sentence={name: whole[name] / counts[name] for name in counts},
        dm={name: dm.get(name, 0.0) / counts[name] for name in counts},
    )


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(float(value), digits)
