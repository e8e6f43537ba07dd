"""ROUGE 1.5.5's ``-m`` stemmer: WordNet exception list first, then its own Porter stemmer.

ROUGE-1.5.5.pl (``MorphStem``) looks a token up in a table of irregular
forms built from WordNet's ``*.exc`` files (``went`` → ``go``,
``children`` → ``child``) and returns the base form unstemmed; only tokens not
listed go through Porter's algorithm. Both halves differ from a stock
stemmer, so ROUGE-with-stemming scores can only be reproduced by doing the
same:

* **Exceptions.** ROUGE's table maps each listed form to the *first* base
  form of its line, and where a form is listed in several files the one read
  last wins (``buildExeptionDB.pl`` overwrites; the files are read as
  ``adj``, ``adv``, ``noun``, ``verb``, so ``better`` → ``well``). The forms
  come from the WordNet 3.0 exception lists the package already ships
  (:mod:`checkpoints.wordnet`); ROUGE ships WordNet 2.0's, which lack the ten
  forms of :data:`NOT_IN_WORDNET_2_0` and otherwise give the same table.
* **Porter.** ROUGE embeds Martin Porter's reference Perl implementation
  (release 1, regular-expression based) with Chin-Yew Lin's 2004 change to
  step 4: ``-ement`` is tried as a suffix of its own, and ``-ment`` and
  ``-ent`` are then tried again on the result, so ``element`` → ``elem``
  where Snowball's ``porter`` gives ``element``. The functions below follow
  that implementation's rules and their order exactly.
"""

from __future__ import annotations

import re
from functools import cache

from checkpoints.wordnet import load_wordnet

EXCEPTION_FILE_ORDER = ("a", "r", "n", "v")
"""The order ROUGE's exception table is built in (adj, adv, noun, verb): a later file overrides."""

NOT_IN_WORDNET_2_0 = frozenset({
    "ashes", "cognosenti", "gps", "halfpence", "houses_of_cards", "lisente", "loups-garous", "morses",
    "optic_axes", "staretsy",
})
"""Forms WordNet 3.0's exception lists add to WordNet 2.0's, which ROUGE 1.5.5 uses (not looked up)."""

# Porter's definitions over lower-case words: a consonant is anything but a,e,i,o,u
# (an initial y is upper-cased first, so it counts as a consonant).
_c = "[^aeiou]"
_v = "[aeiouy]"
_C = f"{_c}[^aeiouy]*"
_V = f"{_v}[aeiou]*"
_M_GT_0 = re.compile(f"^({_C})?{_V}{_C}")
_M_EQ_1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")
_M_GT_1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")
_HAS_VOWEL = re.compile(f"^({_C})?{_v}")
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "bli": "ble",
    "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate",
    "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous", "aliti": "al",
    "iviti": "ive", "biliti": "ble", "logi": "log",
}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}


def _suffix_pattern(suffixes: object) -> re.Pattern[str]:
    # The leftmost (so longest) listed suffix that ends the word, as Perl's alternation finds it.
    return re.compile("(" + "|".join(suffixes) + ")$")  # type: ignore[call-overload]


_STEP2_SUFFIX = _suffix_pattern(_STEP2)
_STEP3_SUFFIX = _suffix_pattern(_STEP3)
_STEP4_SUFFIX = _suffix_pattern(("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ou", "ism",
                                 "ate", "iti", "ous", "ive", "ize"))


def porter_stem(word: str) -> str:
    """Porter's stemmer exactly as ROUGE 1.5.5 runs it (reference Perl release 1 plus Lin's step-4 change)."""
    if len(word) < 3:
        return word
    initial_y = word.startswith("y")
    w = "Y" + word[1:] if initial_y else word
    # Step 1a
    if m := re.search("(ss|i)es$", w):
        w = w[: m.start()] + m.group(1)
    elif re.search("[^s]s$", w):
        w = w[:-1]
    # Step 1b
    if w.endswith("eed"):
        if _M_GT_0.search(w[:-3]):
            w = w[:-1]
    elif m := re.search("(ed|ing)$", w):
        stem = w[: m.start()]
        if _HAS_VOWEL.search(stem):
            w = stem
            if re.search("(at|bl|iz)$", w):
                w += "e"
            elif re.search(r"([^aeiouylsz])\1$", w):
                w = w[:-1]
            elif _CVC.search(w):
                w += "e"
    # Step 1c
    if w.endswith("y") and _HAS_VOWEL.search(w[:-1]):
        w = w[:-1] + "i"
    # Steps 2 and 3: the longest listed suffix only, replaced when m > 0 before it
    for pattern, replacements in ((_STEP2_SUFFIX, _STEP2), (_STEP3_SUFFIX, _STEP3)):
        if m := pattern.search(w):
            stem = w[: m.start()]
            if _M_GT_0.search(stem):
                w = stem + replacements[m.group(1)]
    # Step 4 (Lin's version): the suffix list without -ment/-ent, then -ment, then -ent or -(s|t)ion
    if (m := _STEP4_SUFFIX.search(w)) and _M_GT_1.search(w[: m.start()]):
        w = w[: m.start()]
    if w.endswith("ment") and _M_GT_1.search(w[:-4]):
        w = w[:-4]
    if w.endswith("ent"):
        if _M_GT_1.search(w[:-3]):
            w = w[:-3]
    elif re.search("[st]ion$", w) and _M_GT_1.search(w[:-3]):
        w = w[:-3]
    # Step 5
    if w.endswith("e"):
        stem = w[:-1]
        if _M_GT_1.search(stem) or (_M_EQ_1.search(stem) and not _CVC.search(stem)):
            w = stem
    if w.endswith("ll") and _M_GT_1.search(w):
        w = w[:-1]
    return "y" + w[1:] if initial_y else w


@cache
def exception_table() -> dict[str, str]:
    """ROUGE's irregular-form table: form → the first base form of its line, later files overriding."""
    wordnet = load_wordnet()
    table: dict[str, str] = {}
    for pos in EXCEPTION_FILE_ORDER:
        for form, bases in wordnet.exceptions[pos].items():
            if bases and form not in NOT_IN_WORDNET_2_0:
                table[form] = bases[0]
    return table


def rouge_stem(word: str) -> str:
    """ROUGE 1.5.5's ``MorphStem``: the listed base form of an irregular word, else its Porter stem.

    ROUGE applies it to tokens longer than three characters only; that rule
    is the caller's (:func:`checkpoints.evaluate.metrics.rouge.rouge_tokens`).
    """
    word = word.lower()
    base = exception_table().get(word)
    return base if base is not None else porter_stem(word)
