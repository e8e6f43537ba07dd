"""The Snowball English and German stemmers as the Meteor 1.5 jar runs them (2013-era Java Snowball).

Meteor stems with the Java Snowball stemmers it ships, which predate the
Snowball that PyStemmer wraps, and applies them to each word as given (no
lower-casing). The algorithms here follow those older Snowball definitions
(Porter2 English with only the exceptions it had then; German without
the later "niss" rule), run on the word as given, so for Meteor's stem
matches they give the jar's stems, not today's:

* English: R1 starts after the prefixes "gener", "commun", "arsen" only
  (today's Snowball adds "past", "univers", "later", "emerg", "organ", so
  "organism" stays "organism" there and is "organ" here), and "-ing" has no
  newer exceptions ("evening" → "even").
* German: "ß" → "ss", ``u``/``y`` between vowels kept as consonants,
  suffix steps 1–3, then ``Y``/``U`` lower-cased and umlauts ``ä ö ü`` →
  ``a o u``; "-nisse" → "-niss" (today's Snowball: "-nis"), "betrachtet" and
  "Darwin's" kept (today's Snowball strips "-et" and "'s").

Both were compared with the jar's own ``englishStemmer``/``germanStemmer``:
equal on 744,446 English forms (WordNet 3.0 lemmas, capitalised and with
"-s", "-ing", "-ed", "-ly", "'s" and a leading apostrophe added) and 307,994
word forms given to the German stemmer (the German TED words with 34
suffixes added, cased and lower-cased, and 50,000 WordNet lemmas), where
PyStemmer differs on 1,167 and 13,170.
``tests/metrics/test_meteor_reference_tool.py`` repeats the comparison on
every distinct word of the TED test data.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["METEOR_STEMMERS", "english_stem", "german_stem"]

# ---------------------------------------------------------------------------
# English (Porter2 as in Snowball's english.sbl before 2.x)

_V = frozenset("aeiouy")
_V_WXY = _V | frozenset("wxY")
_VALID_LI = frozenset("cdeghkmnrt")
_DOUBLES = ("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")

_EXCEPTION1 = {
    "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie",
    "idly": "idl", "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl",
    "sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias",
    "andes": "andes",
}
_EXCEPTION2 = frozenset(("inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"))

_STEP2 = {
    "tional": "tion", "enci": "ence", "anci": "ance", "abli": "able", "entli": "ent", "izer": "ize",
    "ization": "ize", "ational": "ate", "ation": "ate", "ator": "ate", "alism": "al", "aliti": "al",
    "alli": "al", "fulness": "ful", "ousli": "ous", "ousness": "ous", "iveness": "ive", "iviti": "ive",
    "biliti": "ble", "bli": "ble", "ogi": "og", "fulli": "ful", "lessli": "less", "li": "",
}
_STEP3 = {"tional": "tion", "ational": "ate", "alize": "al", "icate": "ic", "iciti": "ic", "ical": "ic",
          "ful": "", "ness": "", "ative": ""}
_STEP4 = ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism", "ate", "iti",
          "ous", "ive", "ize", "ion")


def _longest_suffix(word: str, suffixes: object) -> str | None:
    """Snowball's ``substring`` in backward mode: the longest listed suffix of ``word``."""
    best = None
    for suffix in suffixes:  # type: ignore[attr-defined]
        if word.endswith(suffix) and (best is None or len(suffix) > len(best)):
            best = suffix
    return best


def _regions(word: str, vowels: frozenset[str], start: int = -1) -> tuple[int, int]:
    """R1 and R2: each begins after the first non-vowel that follows a vowel (``start``: R1 given)."""

    def after_vc(position: int) -> int:
        i = position
        while i < len(word) and word[i] not in vowels:
            i += 1
        while i < len(word) and word[i] in vowels:
            i += 1
        return i + 1 if i < len(word) else len(word)

    p1 = start if start >= 0 else after_vc(0)
    return p1, after_vc(p1)


def _short_before(word: str, end: int) -> bool:
    """Porter2's "short syllable" ending at ``end`` (Snowball's ``shortv``)."""
    if end >= 3 and word[end - 1] not in _V_WXY and word[end - 2] in _V and word[end - 3] not in _V:
        return True
    return end == 2 and word[1] not in _V and word[0] in _V


def english_stem(word: str) -> str:
    """Porter2 English as the 2013 Java Snowball ``englishStemmer`` computes it (word as given)."""
    if word in _EXCEPTION1:
        return _EXCEPTION1[word]
    if len(word) < 3:
        return word
    w = word[1:] if word.startswith("'") else word
    y_found = False
    chars = list(w)
    if chars and chars[0] == "y":
        chars[0] = "Y"
        y_found = True
    for i in range(1, len(chars)):
        if chars[i] == "y" and chars[i - 1] in _V:
            chars[i] = "Y"
            y_found = True
    w = "".join(chars)
    prefix = next((p for p in ("gener", "commun", "arsen") if w.startswith(p)), None)
    if prefix is not None:
        p1, p2 = _regions(w, _V, len(prefix))
    else:
        p1, p2 = _regions(w, _V)
    w = _step1a(w)
    if w not in _EXCEPTION2:
        w = _step1b(w, p1)
        w = _step1c(w)
        w = _step2(w, p1)
        w = _step3(w, p1, p2)
        w = _step4(w, p2)
        w = _step5(w, p1, p2)
    return w.replace("Y", "y") if y_found else w


def _step1a(w: str) -> str:
    suffix = _longest_suffix(w, ("'", "'s", "'s'"))
    if suffix is not None:
        w = w[: -len(suffix)]
    suffix = _longest_suffix(w, ("sses", "ied", "ies", "s", "us", "ss"))
    if suffix == "sses":
        return w[:-2]
    if suffix in ("ied", "ies"):
        return w[:-3] + ("i" if len(w) - 3 >= 2 else "ie")
    if suffix == "s":
        stem = w[:-1]
        if any(c in _V for c in stem[:-1]):
            return stem
    return w


def _step1b(w: str, p1: int) -> str:
    suffix = _longest_suffix(w, ("eed", "eedly", "ed", "edly", "ing", "ingly"))
    if suffix is None:
        return w
    stem = w[: -len(suffix)]
    if suffix in ("eed", "eedly"):
        return stem + "ee" if len(stem) >= p1 else w
    if not any(c in _V for c in stem):
        return w
    w = stem
    if w.endswith(("at", "bl", "iz")):
        return w + "e"
    if w.endswith(_DOUBLES):
        return w[:-1]
    if len(w) == p1 and _short_before(w, len(w)):
        return w + "e"
    return w


def _step1c(w: str) -> str:
    if len(w) >= 3 and w[-1] in "yY" and w[-2] not in _V:
        return w[:-1] + "i"
    return w


def _step2(w: str, p1: int) -> str:
    suffix = _longest_suffix(w, _STEP2)
    if suffix is None or len(w) - len(suffix) < p1:
        return w
    stem = w[: -len(suffix)]
    if suffix == "li":
        return stem if stem and stem[-1] in _VALID_LI else w
    if suffix == "ogi":
        return stem + "og" if stem.endswith("l") else w
    return stem + _STEP2[suffix]


def _step3(w: str, p1: int, p2: int) -> str:
    suffix = _longest_suffix(w, _STEP3)
    if suffix is None or len(w) - len(suffix) < p1:
        return w
    if suffix == "ative" and len(w) - len(suffix) < p2:
        return w
    return w[: -len(suffix)] + _STEP3[suffix]


def _step4(w: str, p2: int) -> str:
    suffix = _longest_suffix(w, _STEP4)
    if suffix is None or len(w) - len(suffix) < p2:
        return w
    stem = w[: -len(suffix)]
    if suffix == "ion":
        return stem if stem.endswith(("s", "t")) else w
    return stem


def _step5(w: str, p1: int, p2: int) -> str:
    if w.endswith("e"):
        start = len(w) - 1
        if start >= p2 or (start >= p1 and not _short_before(w, start)):
            return w[:-1]
    elif w.endswith("l"):
        start = len(w) - 1
        if start >= p2 and w[-2:-1] == "l":
            return w[:-1]
    return w


# ---------------------------------------------------------------------------
# German (Snowball's german.sbl before the "niss" rule)

_G_V = frozenset("aeiouyäöü")
_S_ENDING = frozenset("bdfghklmnrt")
_ST_ENDING = _S_ENDING - {"r"}


def german_stem(word: str) -> str:
    """Snowball German as the 2013 Java Snowball ``germanStemmer`` computes it (word as given)."""
    chars = list(word.replace("ß", "ss"))
    for i in range(1, len(chars) - 1):
        if chars[i - 1] in _G_V and chars[i] in "uy" and chars[i + 1] in _G_V:
            chars[i] = chars[i].upper()
    w = "".join(chars)
    if len(w) >= 3:
        # R2 is found from where R1 was, before R1 is moved to at least the third letter.
        p1, p2 = _regions(w, _G_V)
        p1 = max(p1, 3)
    else:
        p1 = p2 = len(w)
    w = _german_suffixes(w, p1, p2)
    return w.translate(_GERMAN_POSTLUDE)


_GERMAN_POSTLUDE = str.maketrans({"Y": "y", "U": "u", "ä": "a", "ö": "o", "ü": "u"})


def _german_suffixes(w: str, p1: int, p2: int) -> str:
    # Step 1
    suffix = _longest_suffix(w, ("em", "ern", "er", "e", "en", "es", "s"))
    if suffix is not None and len(w) - len(suffix) >= p1:
        stem = w[: -len(suffix)]
        if suffix != "s" or (stem and stem[-1] in _S_ENDING):
            w = stem
    # Step 2
    suffix = _longest_suffix(w, ("en", "er", "est", "st"))
    if suffix is not None and len(w) - len(suffix) >= p1:
        stem = w[: -len(suffix)]
        if suffix != "st" or (len(stem) >= 4 and stem[-1] in _ST_ENDING):
            w = stem
    # Step 3
    suffix = _longest_suffix(w, ("end", "ung", "ig", "ik", "isch", "lich", "heit", "keit"))
    if suffix is None or len(w) - len(suffix) < p2:
        return w
    stem = w[: -len(suffix)]
    if suffix in ("end", "ung"):
        if stem.endswith("ig") and not stem.endswith("eig") and len(stem) - 2 >= p2:
            return stem[:-2]
        return stem
    if suffix in ("ig", "ik", "isch"):
        return w if stem.endswith("e") else stem
    if suffix in ("lich", "heit"):
        if stem.endswith(("er", "en")) and len(stem) - 2 >= p1:
            return stem[:-2]
        return stem
    # keit
    inner = _longest_suffix(stem, ("lich", "ig"))
    if inner is not None and len(stem) - len(inner) >= p2:
        return stem[: -len(inner)]
    return stem


METEOR_STEMMERS: dict[str, Callable[[str], str]] = {"en": english_stem, "de": german_stem}
"""Meteor 1.5's stemmer for each language this module reproduces."""
