"""Challenge sets: each check-point's reference broken in exactly its own phenomenon.

A check-point score says how well a system translates one phenomenon; a metric
that is to judge such scores must at least see that phenomenon. A challenge
item puts that to the test directly: the reference sentence as it is (*good*)
and the same sentence with exactly one change that breaks the check-point's
phenomenon and nothing else (*bad*) — a preposition swapped for another, a
noun put in the other number, a negation or a modal deleted, the words of a
phrase put in another order. A metric that scores good above bad sees the
change; one that cannot see the phenomenon scores the two alike, and an item
it ties counts half, so that a blind metric scores at chance (0.5), not 0: a
bag-of-words metric gives the same score to good and bad in a REORDER item,
whose words are the same. Each item changes one thing, so a miss says which
phenomenon the metric is blind to, not merely that it is imperfect.

Good and bad are scored against the pair's *other* reference translation when
it has one: an independent translation, so that an item measures whether the
metric prefers the right translation where the two differ, not whether it
recognises its own input. A pair with one reference is scored against the good
sentence itself (``reference_is_good``): good then scores perfectly by
construction, and the item measures only whether the metric sees the change
at all.

The five breakages (:class:`Breakage`), each applied only where the
check-point's category makes it the category's phenomenon:

* **substitute** — one word of the category's own substitution class (the
  audit's, :func:`checkpoints.evaluate.audit.category_classes`) replaced by
  another of the class from the suite's references, as the audit's
  substitution test does, but only the word highest in the span's tree, and
  by a form tagged exactly as it is (part of speech, tag and features) when the
  references have one, so that the item breaks the word's meaning and not its
  agreement ("der Gefahr" → "der Stätte", not "der Stätten");
* **number** — a noun put in the other grammatical number, with a form of the
  same lemma the references use, in the same case and gender when they show
  one: no inflection is invented, so a noun whose other form the suite never
  shows gets no item;
* **negation** — the span's negation words deleted (``Polarity=Neg`` on an
  adverb or particle that heads nothing);
* **modal** — a modal auxiliary of the span deleted;
* **reorder** — a phrase's blocks (its head word and each dependent's
  subtree) rotated, the first moved after the last.

What the PUD treebanks (``tests/evaluate/test_contrastive.py`` reads them)
tag, and so what the negation and modal generators look for:

* negation, ``Polarity=Neg``: English "not", "n't" (PART) and "no" (ADV);
  Spanish "no", "nunca", "tampoco" (ADV); German "nicht" (PART); French "ne",
  "n'", "pas", "plus", "jamais", "non" (ADV); Chinese 不 and 未 (ADV), but also
  沒有 and 不是 (VERB, the clause's head) and 不會, 不能, 未能 (AUX, modal and
  negation in one word). Deleting a head would break the clause's structure,
  and deleting 不能 would take the modal with the negation, so only adverbs
  and particles that head nothing are deleted;
* modal auxiliaries (deprel ``aux``): English xpos ``MD`` (can, could, will,
  would, may, might, should, must); Chinese xpos ``MD`` (會, 能, 可以, 可能,
  要, 必須, 應該); Spanish poder and deber and German können, müssen, sollen,
  wollen, mögen, dürfen only by lemma (their xpos is a plain ``VBC``; no
  ``VerbType=Mod``, no STTS ``VM*``). French pouvoir and devoir are main verbs
  in UD (``VERB``, with an ``xcomp``), so French gets no modal item; the lemma
  list (:data:`MODAL_LEMMAS`) keeps them for a treebank that makes them
  auxiliaries. ``VerbType=Mod`` and ``VM*`` are honoured for treebanks that
  use them.

Texts are rebuilt from surface tokens exactly as the audit rebuilds them
(:func:`checkpoints.evaluate.audit.rewritten_text`), so an unchanged sentence
comes back as written and a bad sentence differs from the good one only where
it was broken.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from checkpoints.evaluate.audit import (
    CLASSES,
    ReplacementPools,
    category_classes,
    other_form,
    replaced_form,
    replacement_pools,
    rewritten_text,
    written_text,
)
from checkpoints.extract.surface import SurfaceToken, surface_tokens
from checkpoints.model import Level, Sentence, SuiteData, Token


class Breakage(StrEnum):
    """The ways a reference is broken, in the order a check-point's items come."""

    SUBSTITUTE = "substitute"
    NUMBER = "number"
    NEGATION = "negation"
    MODAL = "modal"
    REORDER = "reorder"


MODAL_LEMMAS: dict[str, frozenset[str]] = {
    "es": frozenset({"poder", "deber"}),
    "fr": frozenset({"pouvoir", "devoir"}),
    "de": frozenset({"können", "müssen", "sollen", "wollen", "mögen", "dürfen"}),
    "zh": frozenset({"能", "可以", "會", "会", "應該", "应该", "可能", "必須", "必须"}),
}
"""Modal verbs of the languages whose treebanks mark modal auxiliaries only by lemma (module
docstring). All are looked up whatever the sentence's language, for a suite's sentences may not
say theirs, and an auxiliary with one of these lemmas is a modal in any of them."""

_MODALS: frozenset[str] = frozenset().union(*MODAL_LEMMAS.values())

CLITIC_HOSTS: dict[str, str] = {"ca": "can", "wo": "will", "sha": "shall"}
"""English treebanks split "can't", "won't", "shan't" as "ca"/"wo"/"sha" + "n't": without its
"n't" the host is written as the word it is, not left as a fragment."""

_NUMBERS = ("Sing", "Plur")


@dataclass(frozen=True, slots=True)
class Contrast:
    """One bad version of a reference sentence."""

    kind: Breakage
    detail: str
    """What was broken, for a person: "ADP en → sobre", "negation no deleted"."""
    bad: str
    """The whole sentence with exactly this one change."""
    changed: tuple[int, ...]
    """0-based syntactic word indices changed, deleted or moved."""


@dataclass(frozen=True, slots=True)
class ContrastPools:
    """What the generators may put in a sentence: only forms the suite's references use."""

    replacements: ReplacementPools
    numbers: dict[tuple[str, ...], dict[str, list[str]]]
    """A noun's (lemma, UPOS), and its (lemma, UPOS, other features) → ``{"Sing": forms, "Plur": forms}``
    seen as one-word tokens."""
    alike: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    """(UPOS, XPOS, features) → the one-word forms the references tag so: a replacement that keeps
    the word's morphology breaks its meaning only ("Gefahr" → "Stätte", not "Stätten")."""


def contrast_pools(references: Sequence[Sentence]) -> ContrastPools:
    """Built once per suite, so that every item draws from the same vocabulary."""
    numbers: dict[tuple[str, ...], dict[str, set[str]]] = {}
    alike: dict[tuple[str, str, str], set[str]] = {}
    for sentence in references:
        for unit in surface_tokens(sentence):
            if unit.first != unit.last:
                continue
            token = sentence.tokens[unit.first]
            alike.setdefault(_morphology(token), set()).add(unit.form)
            number = token.feats.get("Number")
            if token.upos in CLASSES["NOUN"] and number in _NUMBERS:
                for key in ((token.lemma, token.upos), (token.lemma, token.upos, _without_number(token))):
                    numbers.setdefault(key, {}).setdefault(number, set()).add(unit.form)
    return ContrastPools(
        replacement_pools(references),
        {key: {number: sorted(forms) for number, forms in by_number.items()} for key, by_number in numbers.items()},
        {key: sorted(forms) for key, forms in alike.items()},
    )


def _morphology(token: Token) -> tuple[str, str, str]:
    return (token.upos, token.xpos, token.feats_string())


def _without_number(token: Token) -> str:
    return "|".join(f"{key}={value}" for key, value in sorted(token.feats.items()) if key != "Number")


def contrasts(
    sentence: Sentence,
    span: Sequence[int],
    own_class: str | None,
    level: Level,
    pools: ContrastPools,
    rng: random.Random,
) -> list[Contrast]:
    """Every breakage that applies to the span, at most one of each kind, in kind order.

    A contrast that leaves the text as it was (nothing to replace it with) is no contrast.
    """
    span = sorted(set(span))
    found = [
        _substitute(sentence, span, own_class, pools, rng) if own_class is not None else None,
        _number(sentence, span, pools, rng) if own_class == "NOUN" else None,
        _negation(sentence, span) if own_class in ("VERB", "ADV") or level is not Level.WORD else None,
        _modal(sentence, span) if own_class == "VERB" or level is not Level.WORD else None,
        _reorder(sentence, span) if level is not Level.WORD else None,
    ]
    return [contrast for contrast in found if contrast is not None and contrast.bad != sentence.text]


def _substitute(
    sentence: Sentence, span: list[int], own_class: str, pools: ContrastPools, rng: random.Random
) -> Contrast | None:
    """The highest word of the class that can be replaced: one changed word is enough for a
    metric to see, and the head of a phrase is the word the phrase is about."""
    tags = CLASSES[own_class]
    units = _units_by_word(sentence)
    for index in _head_first(sentence, [i for i in span if sentence.tokens[i].upos in tags], span):
        unit = units[index]
        form = _alike_form(sentence, unit, pools, rng) or replaced_form(sentence, unit, own_class, pools.replacements, rng)
        if form != unit.form:
            bad = _one_rewritten(sentence, unit, form)
            changed = tuple(i for i in _words(unit) if sentence.tokens[i].upos in tags)
            return Contrast(Breakage.SUBSTITUTE, f"{own_class} {unit.form} → {form}", bad, changed)
    return None


def _alike_form(sentence: Sentence, unit: SurfaceToken, pools: ContrastPools, rng: random.Random) -> str | None:
    """Another form tagged exactly as the word is (same part of speech, tag and features), or None
    when the references have none; draws from ``rng`` only when there is one."""
    if unit.first != unit.last:
        return None
    folded = unit.form.casefold()
    candidates = [form for form in pools.alike.get(_morphology(sentence.tokens[unit.first]), ()) if form.casefold() != folded]
    return other_form(unit.form, candidates, rng) if candidates else None


def _number(sentence: Sentence, span: list[int], pools: ContrastPools, rng: random.Random) -> Contrast | None:
    """A noun in the other number, as the references write it."""
    units = _units_by_word(sentence)
    nouns = [
        i for i in span
        if sentence.tokens[i].upos in CLASSES["NOUN"] and sentence.tokens[i].feats.get("Number") in _NUMBERS
    ]
    for index in _head_first(sentence, nouns, span):
        token, unit = sentence.tokens[index], units[index]
        if unit.first != unit.last:
            continue  # a noun inside a contraction cannot be rewritten alone
        other = _NUMBERS[1 - _NUMBERS.index(token.feats["Number"])]
        # the same case and gender when the references show it ("des Gesetzes" → "der Gesetze"), else any
        candidates = (pools.numbers.get((token.lemma, token.upos, _without_number(token)), {}).get(other)
                      or pools.numbers.get((token.lemma, token.upos), {}).get(other, []))
        form = _case_like(unit.form, other_form(unit.form, candidates, rng))
        if form.casefold() != unit.form.casefold():
            bad = _one_rewritten(sentence, unit, form)
            return Contrast(Breakage.NUMBER, f"Number {unit.form} → {form}", bad, (index,))
    return None


def _one_rewritten(sentence: Sentence, unit: SurfaceToken, form: str) -> str:
    return rewritten_text(sentence, lambda other: form if other == unit else other.form)


def _case_like(original: str, form: str) -> str:
    """``form`` with the first letter cased as ``original``'s: a sentence-initial "Casas" is
    "casas" inside a sentence. Forms with capitals inside ("iPhones", "NGOs") are kept."""
    if not original or not form or any(c.isupper() for c in form[1:]):
        return form
    first = form[0].upper() if original[0].isupper() else form[0].lower()
    return first + form[1:]


def _negation(sentence: Sentence, span: list[int]) -> Contrast | None:
    """Every negation word of the span deleted, with the other negation words of the same
    predicate: French "ne … pas" is one negation in two words, and a span that holds "n'" but not
    "pas" would otherwise leave "influençait pas", still negated."""
    heads = {token.head - 1 for token in sentence.tokens}

    def negates(i: int) -> bool:
        token = sentence.tokens[i]
        return token.feats.get("Polarity") == "Neg" and token.upos in CLASSES["ADV"] and i not in heads

    deleted = {i for i in span if negates(i)}
    if not deleted:
        return None
    predicates = {sentence.tokens[i].head for i in deleted}
    deleted |= {i for i, token in enumerate(sentence.tokens) if token.head in predicates and negates(i)}
    bad = _deleted_text(sentence, deleted)
    if bad is None:
        return None
    forms = " ".join(sentence.tokens[i].form for i in sorted(deleted))
    return Contrast(Breakage.NEGATION, f"negation {forms} deleted", bad, tuple(sorted(deleted)))


def _modal(sentence: Sentence, span: list[int]) -> Contrast | None:
    """The first modal auxiliary of the span deleted: "can go" → "go"."""
    units = _units_by_word(sentence)
    for index in span:
        token = sentence.tokens[index]
        if not _is_modal(token) or token.feats.get("Polarity") == "Neg":
            continue  # 不想, 不能: modal and negation in one word; deleting it would break both
        if _strands_a_negation(sentence, units, index):
            continue
        bad = _deleted_text(sentence, {index})
        if bad is not None:
            return Contrast(Breakage.MODAL, f"modal {sentence.tokens[index].form} deleted", bad, (index,))
    return None


def _is_modal(token: Token) -> bool:
    """An auxiliary (``aux``, ``aux:pass``...) that is a modal by any tagging the module docstring lists."""
    if token.deprel.split(":")[0] != "aux":
        return False
    return (
        token.feats.get("VerbType") == "Mod"
        or token.xpos == "MD"
        or token.xpos.startswith("VM")
        or token.lemma in _MODALS
    )


def _strands_a_negation(sentence: Sentence, units: dict[int, SurfaceToken], index: int) -> bool:
    """Whether deleting the modal would leave its "n't" on its own ("can't" → "n't")."""
    unit = units[index]
    following = [i for i in _words(unit) if i > index]
    if not following and unit.glued and unit.last + 1 < len(sentence.tokens):
        following = [unit.last + 1]
    return any(sentence.tokens[i].feats.get("Polarity") == "Neg" for i in following)


def _deleted_text(sentence: Sentence, deleted: set[int]) -> str | None:
    """The sentence without the words ``deleted``; None when one sits in a contraction that
    cannot be written without it.

    A contraction loses its word as writing does ("don't" → "do", "He'd" → "He"), and a host
    split off its "n't" comes back whole ("wo n't" → "will").
    """
    units = surface_tokens(sentence)
    rewrites: dict[SurfaceToken, str | None] = {}
    for number, unit in enumerate(units):
        words = _words(unit)
        gone = [i for i in words if i in deleted]
        if not gone:
            continue
        if len(gone) == len(words):
            rewrites[unit] = None
            host = units[number - 1] if number > 0 and units[number - 1].glued else None
            if host is not None and host.first == host.last and host not in rewrites:
                rewrites[host] = _host_form(host.form)
            continue
        rest = [sentence.tokens[i].form for i in words if i not in deleted]
        if not unit.form.casefold().startswith("".join(rest).casefold()):
            return None  # "dámelo" without "me" is not "dalo"
        rewrites[unit] = _host_form("".join(rest))
    return rewritten_text(sentence, lambda u: rewrites.get(u, u.form))


def _host_form(form: str) -> str:
    whole = CLITIC_HOSTS.get(form.casefold())
    if whole is None:
        return form
    return whole.capitalize() if form[0].isupper() else whole


def _reorder(sentence: Sentence, span: list[int]) -> Contrast | None:
    """The span's first block moved after its last (module docstring).

    Only a contiguous phrase can be reordered inside itself. Words written together ("franco-
    monegasco", "'Ya") move as one, and whole: the phrase is cut into such runs, and the runs of
    the blocks take each other's places, so that every token of the sentence survives the
    reordering unchanged and only the order differs: a bag-of-words metric must then score good
    and bad alike, and it does (the chance level of :mod:`~checkpoints.evaluate.challenge_scores`).
    Free-standing punctuation and a full stop or comma keep their places among the runs, for
    moving them would be a second change.
    """
    region = _trimmed(sentence, span)
    if region is None:
        return None
    units = surface_tokens(sentence)
    numbers = [n for n, unit in enumerate(units) if region[0] <= unit.first <= region[-1]]
    if units[numbers[0]].first != region[0] or units[numbers[-1]].last != region[-1]:
        return None  # the span ends inside a contraction
    blocks = _blocks(sentence, region)
    if len(blocks) < 2:
        return None
    block_of = {word: number for number, block in enumerate(blocks) for word in block}
    spaced = _writes_spaces(sentence, units)
    if spaced and _glued_outside(units, numbers):
        return None  # "«100% Cospedal»": the quotes would end up on other words, changing two tokens
    clusters = _glued_clusters(units, numbers) if spaced else [[n] for n in numbers]
    by_block: list[list[list[int]]] = [[] for _ in blocks]
    cells: list[list[int] | None] = []  # a cluster that stays, or None: a place a moving cluster takes
    for cluster in clusters:  # a contraction ("au" = à + le) goes with its first word's block
        owners = {block_of[units[n].first] for n in cluster if units[n].first in block_of}
        if len(owners) > 1:
            return None  # "franco-monegasco" across two blocks: reordering would change its tokens
        if owners:
            by_block[owners.pop()].append(cluster)
            cells.append(None)
        else:
            cells.append(cluster)
    moving = iter([cluster for block in [*by_block[1:], by_block[0]] for cluster in block])
    region_order = [n for cell in cells for n in (cell if cell is not None else next(moving))]
    order = [*range(numbers[0]), *region_order, *range(numbers[-1] + 1, len(units))]
    fixed = set(range(len(units))) - {n for block in by_block for cluster in block for n in cluster}
    bad = _reordered_text(sentence, units, order, fixed)
    changed = tuple(i for slot, n in enumerate(order) if slot != n and n not in fixed for i in _words(units[n]))
    return Contrast(Breakage.REORDER, "reordered", bad, tuple(sorted(changed)))


_DETACHED = frozenset(".,;:!?")
"""Punctuation that tokenizers split from any word it is written against, so it may stay in place
while the word before it changes."""


def _glued_outside(units: list[SurfaceToken], numbers: list[int]) -> bool:
    """Whether the phrase is written against a token outside it, other than a trailing full stop or comma."""
    first, last = numbers[0], numbers[-1]
    leading = first > 0 and units[first - 1].glued
    trailing = units[last].glued and last + 1 < len(units) and units[last + 1].form not in _DETACHED
    return leading or trailing


def _glued_clusters(units: list[SurfaceToken], numbers: list[int]) -> list[list[int]]:
    """The units ``numbers`` (consecutive) in runs written without a space between them (in a
    language written with spaces: in Chinese every word is glued and no run is a token).

    A full stop or comma after a word starts a run of its own: tokenizers split it from any word,
    so it stays in its place, and "1610," moved to the end of a sentence does not become "1610,.".
    """
    clusters: list[list[int]] = []
    for n in numbers:
        if clusters and units[clusters[-1][-1]].glued and units[n].form not in _DETACHED:
            clusters[-1].append(n)
        else:
            clusters.append([n])
    return clusters


def _trimmed(sentence: Sentence, span: list[int]) -> list[int] | None:
    """The span without punctuation at its edges, if it is then one stretch of two words or more."""
    words = list(span)
    while words and sentence.tokens[words[0]].upos == "PUNCT":
        words.pop(0)
    while words and sentence.tokens[words[-1]].upos == "PUNCT":
        words.pop()
    if not words or words != list(range(words[0], words[-1] + 1)):
        return None
    if sum(sentence.tokens[i].upos != "PUNCT" for i in words) < 2:
        return None
    return words


def _blocks(sentence: Sentence, region: list[int]) -> list[list[int]]:
    """The phrase's head word and each of its dependents' subtrees within the phrase, by position."""
    inside = set(region)
    heads = [i for i in region if sentence.head_index(i) not in inside and sentence.tokens[i].upos != "PUNCT"]
    if not heads:
        return []
    head = heads[0]
    blocks = [[head]]
    for child in sentence.children(head):
        if child in inside:
            block = [i for i in sentence.subtree(child) if i in inside and sentence.tokens[i].upos != "PUNCT"]
            if block:
                blocks.append(block)
    return sorted(blocks, key=lambda block: block[0])


def _reordered_text(sentence: Sentence, units: list[SurfaceToken], order: list[int], fixed: set[int]) -> str:
    """The surface tokens written in ``order`` (unit numbers; ``fixed`` ones stay in their slot).

    Two tokens that were neighbours keep their spacing ("Clinton's" stays glued); a token that
    stayed in place keeps the spacing it had on that side (a full stop stays glued to whatever
    word now precedes it); new neighbours get a space, or none in a sentence written without
    spaces (Chinese). The identity order writes the sentence as the audit does.
    """
    spaced = _writes_spaces(sentence, units)
    pieces = []
    for slot, number in enumerate(order):
        following = order[slot + 1] if slot + 1 < len(order) else None
        if following is None or following == number + 1:
            glued = units[number].glued
        elif following in fixed:
            glued = units[following - 1].glued  # as the word before it was written against it
        elif number in fixed:
            glued = units[number].glued
        else:
            glued = not spaced
        pieces.append((units[number].form, glued))
    return written_text(pieces)


def _writes_spaces(sentence: Sentence, units: list[SurfaceToken]) -> bool:
    """Whether most words of the sentence are followed by a space (not so in Chinese)."""
    words = [unit for unit in units[:-1] if sentence.tokens[unit.first].upos != "PUNCT"]
    return sum(not unit.glued for unit in words) * 2 >= len(words)


def _head_first(sentence: Sentence, candidates: list[int], span: list[int]) -> list[int]:
    """``candidates`` from the highest in the tree: heads outside the span first, then the
    shallowest, then the first."""
    inside = set(span)
    return sorted(candidates, key=lambda i: (sentence.head_index(i) in inside, _depth(sentence, i), i))


def _depth(sentence: Sentence, index: int) -> int:
    depth = 0
    head = sentence.head_index(index)
    while head is not None and depth <= len(sentence.tokens):
        depth += 1
        head = sentence.head_index(head)
    return depth


def _units_by_word(sentence: Sentence) -> dict[int, SurfaceToken]:
    return {i: unit for unit in surface_tokens(sentence) for i in _words(unit)}


def _words(unit: SurfaceToken) -> range:
    return range(unit.first, unit.last + 1)


@dataclass(frozen=True, slots=True)
class ChallengeItem:
    """One contrast of one check-point, with what a metric needs to score it (module docstring)."""

    checkpoint: int
    """The check-point's id, or its position in the suite when it has none."""
    pair_id: int
    category: str
    kind: Breakage
    detail: str
    source: str
    good: str
    bad: str
    reference: str
    """What good and bad are scored against: the pair's other reference, else ``good``."""
    reference_is_good: bool


def challenge_items(suite: SuiteData, *, seed: int = 12345) -> list[ChallengeItem]:
    """Every check-point's contrasts, in the suite's check-point order, then kind order.

    Each check-point draws from its own generator, seeded by ``seed`` and its position, so
    that its items do not depend on how many draws the check-points before it made (how many
    contrasts they had, how the loop visits them).
    """
    pairs = {pair.id: pair for pair in suite.pairs}
    pools = contrast_pools([sentence for pair in suite.pairs for sentence in pair.references])
    classes = category_classes(suite)
    items: list[ChallengeItem] = []
    for position, checkpoint in enumerate(suite.checkpoints):
        if not checkpoint.references:
            continue
        first = checkpoint.references[0]
        pair = pairs[checkpoint.pair_id]
        sentence = pair.references[first.reference_index]
        reference = _other_reference(pair.references, first.reference_index)
        rng = random.Random(f"{seed}:{position}")
        level = suite.category(checkpoint.category).level
        found = contrasts(sentence, first.target_indices, classes.get(checkpoint.category), level, pools, rng)
        for contrast in found:
            items.append(
                ChallengeItem(
                    checkpoint=checkpoint.id if checkpoint.id is not None else position,
                    pair_id=pair.id,
                    category=checkpoint.category,
                    kind=contrast.kind,
                    detail=contrast.detail,
                    source=pair.source.text,
                    good=sentence.text,
                    bad=contrast.bad,
                    reference=reference.text if reference is not None else sentence.text,
                    reference_is_good=reference is None,
                )
            )
    return items


def _other_reference(references: Sequence[Sentence], index: int) -> Sentence | None:
    """The first reference translation other than the one broken; None when there is none."""
    return next((sentence for number, sentence in enumerate(references) if number != index), None)
