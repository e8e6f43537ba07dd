"""The small value language of taxonomy patterns, compiled to predicates.

Taxonomy authors constrain token attributes with strings such as
``upos="NOUN|PROPN"``, ``deprel="obl:*"``, ``lemma="!be"`` or
``form="~^[0-9]+$"``. Compiling them once into plain Python predicates keeps
the matcher fast (a set lookup per token in the common case) and lets the
loader reject a bad value with the file and line where it was written.

Syntax of an attribute value (form, lemma, upos, xpos, deprel):

- ``A|B|C``  -- the value is one of the alternatives (exact, case-sensitive);
- ``obl:*``  -- an alternative ending in ``:*`` also matches every subtype
  (``obl``, ``obl:tmod``, ``obl:agent``);
- ``~REGEX`` -- the value contains a match of the Python regular expression
  (``re.search``; anchor with ``^``/``$``; ``(?i)`` for case-insensitivity),
  searched with the ``regex`` module under a time bound (:data:`REGEX_TIMEOUT_S`);
- a leading ``!`` negates any of the above (``!case:loc``, ``!~^[0-9]``).

Syntax of ``feats`` (the CoNLL-U FEATS convention, ``|`` is a conjunction):
``Name=V1,V2`` (the feature has one of the values), ``Name!=V1,V2`` (it is
absent or has none of them), ``Name=*`` (present with any value),
``Name!=*`` (absent). Example: ``feats="Number=Plur|Degree!=Pos"``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import regex

from checkpoints.errors import TaxonomyError

StrTest = Callable[[str], bool]
FeatsTest = Callable[[Mapping[str, str]], bool]

_FEATURE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*(\[[a-z0-9]+\])?$")


class ValueSyntaxError(ValueError):
    """A value that does not follow the pattern value syntax (message says why)."""


@dataclass(frozen=True, slots=True)
class ValueSpec:
    """A compiled attribute constraint.

    ``exact`` holds the literal alternatives of a positive, non-regex value so
    that the matcher can look candidates up in an index instead of scanning the
    sentence; ``prefixes`` holds the bases of ``base:*`` alternatives.
    """

    text: str
    test: StrTest
    negated: bool
    exact: frozenset[str] | None
    prefixes: tuple[str, ...]

    def indexable(self) -> bool:
        return not self.negated and (self.exact is not None)


def compile_value(text: str) -> ValueSpec:
    """Compile one attribute value; raises :class:`ValueSyntaxError` on bad syntax."""
    if text == "":
        raise ValueSyntaxError("empty value")
    negated = text.startswith("!")
    body = text[1:] if negated else text
    if body == "":
        raise ValueSyntaxError(f"{text!r}: nothing after '!'")
    if body.startswith("~"):
        source = body[1:]
        if source == "":
            raise ValueSyntaxError(f"{text!r}: empty regular expression after '~'")
        try:
            re.compile(source)  # Python's own syntax, which the documentation promises
            compiled = regex.compile(source)
        except (re.error, regex.error) as error:
            raise ValueSyntaxError(f"{text!r}: bad regular expression: {error}") from None
        search = _bounded_search(compiled, text)
        if negated:
            return ValueSpec(text, lambda value: not search(value), True, None, ())
        return ValueSpec(text, search, False, None, ())
    alternatives = body.split("|")
    if any(alt == "" for alt in alternatives):
        raise ValueSyntaxError(f"{text!r}: empty alternative (two '|' in a row, or '|' at an end)")
    exact = frozenset(alt for alt in alternatives if not alt.endswith(":*"))
    prefixes = tuple(alt[:-2] for alt in alternatives if alt.endswith(":*"))
    if any(prefix == "" for prefix in prefixes):
        raise ValueSyntaxError(f"{text!r}: ':*' needs a relation before it, as in 'obl:*'")
    test = _membership(exact, prefixes)
    if negated:
        return ValueSpec(text, lambda value: not test(value), True, None, ())
    # With subtype wildcards the literal set alone does not enumerate the matches,
    # so the index lookup must also scan keys by prefix (see SentenceGraph.lookup).
    return ValueSpec(text, test, False, exact, prefixes)


REGEX_TIMEOUT_S = 0.1
"""Longest a value's regular expression may search one token. ``~(a|aa)+$`` backtracks
exponentially: on a 41-character token it never ended, and the build with it."""


class RegexTooSlow(TaxonomyError):
    """A taxonomy regular expression that backtracks without end on some token."""


def _bounded_search(compiled: regex.Pattern[str], text: str) -> StrTest:
    def search(value: str) -> bool:
        try:
            return compiled.search(value, timeout=REGEX_TIMEOUT_S) is not None
        except TimeoutError:
            raise RegexTooSlow(
                f"taxonomy value {text!r} searched {value[:40]!r} for over {REGEX_TIMEOUT_S} s: the regular "
                "expression backtracks exponentially (nested or overlapping repetition, as in (a|aa)+); rewrite it"
            ) from None

    return search


def _membership(exact: frozenset[str], prefixes: tuple[str, ...]) -> StrTest:
    if not prefixes:
        return exact.__contains__
    starts = tuple(prefix + ":" for prefix in prefixes)
    bases = exact | frozenset(prefixes)

    def test(value: str) -> bool:
        return value in bases or value.startswith(starts)

    return test


def compile_feats(text: str) -> FeatsTest:
    """Compile a FEATS conjunction such as ``Number=Plur|Degree=Cmp,Sup``."""
    if text == "":
        raise ValueSyntaxError("empty feats value")
    tests: list[FeatsTest] = []
    for part in text.split("|"):
        if part == "":
            raise ValueSyntaxError(f"{text!r}: empty feature (two '|' in a row, or '|' at an end)")
        negated = "!=" in part
        name, sep, values = part.partition("!=" if negated else "=")
        if not sep:
            raise ValueSyntaxError(f"{part!r}: expected Name=Value or Name!=Value")
        if not _FEATURE_NAME.match(name):
            raise ValueSyntaxError(f"{part!r}: bad feature name {name!r}")
        if values == "":
            raise ValueSyntaxError(f"{part!r}: missing value (use Name=* for any value)")
        tests.append(_feature_test(name, values, negated, part))

    if len(tests) == 1:
        return tests[0]

    def conjunction(feats: Mapping[str, str]) -> bool:
        return all(test(feats) for test in tests)

    return conjunction


def _feature_test(name: str, values: str, negated: bool, part: str) -> FeatsTest:
    if values == "*":
        if negated:
            return lambda feats: name not in feats
        return lambda feats: name in feats
    wanted = values.split(",")
    if any(value == "" for value in wanted):
        raise ValueSyntaxError(f"{part!r}: empty value in a comma-separated list")
    allowed = frozenset(wanted)

    # A CoNLL-U feature may itself hold several values ("PronType=Int,Rel"):
    # it satisfies the test when any of its values is allowed.
    def has(feats: Mapping[str, str]) -> bool:
        value = feats.get(name)
        if value is None:
            return False
        if value in allowed:
            return True
        return "," in value and any(v in allowed for v in value.split(","))

    if negated:
        return lambda feats: not has(feats)
    return has
