"""The pattern value language (taxonomy/values.py): alternatives, negation, regexes, subtypes, FEATS."""

from __future__ import annotations

import pytest

from checkpoints.taxonomy.values import ValueSyntaxError, compile_feats, compile_value


def test_alternatives_are_exact_and_case_sensitive() -> None:
    spec = compile_value("NOUN|PROPN")
    assert [spec.test(v) for v in ("NOUN", "PROPN", "noun", "NOUNS")] == [True, True, False, False]
    assert spec.indexable()
    assert spec.exact == frozenset({"NOUN", "PROPN"})


def test_negation_inverts_the_whole_alternative_list() -> None:
    spec = compile_value("!case:loc|punct")
    assert [spec.test(v) for v in ("case", "case:loc", "punct", "obl")] == [True, False, False, True]
    assert not spec.indexable()


def test_subtype_wildcard_matches_base_and_every_subtype() -> None:
    spec = compile_value("obl:*|nsubj")
    assert [spec.test(v) for v in ("obl", "obl:tmod", "obl:agent", "oblique", "nsubj", "nsubj:pass")] == [
        True,
        True,
        True,
        False,
        True,
        False,
    ]
    assert spec.prefixes == ("obl",)


def test_regex_searches_and_negated_regex() -> None:
    assert compile_value("~^anti").test("antibody")
    assert not compile_value("~^anti").test("pro-anti")
    assert compile_value("!~[0-9]").test("abc")
    assert not compile_value("!~[0-9]").test("a1")
    assert compile_value("~(?i)^never$").test("Never")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty value"),
        ("!", "nothing after '!'"),
        ("NOUN||VERB", "empty alternative"),
        ("NOUN|", "empty alternative"),
        ("~", "empty regular expression"),
        ("~[a-", "bad regular expression"),
        (":*", "needs a relation before it"),
    ],
)
def test_bad_values_say_why(text: str, message: str) -> None:
    with pytest.raises(ValueSyntaxError, match=message):
        compile_value(text)


def test_feats_conjunction_values_and_negation() -> None:
    test = compile_feats("Number=Plur|Degree!=Pos")
    assert test({"Number": "Plur"})
    assert test({"Number": "Plur", "Degree": "Cmp"})
    assert not test({"Number": "Plur", "Degree": "Pos"})
    assert not test({"Number": "Sing"})


def test_feats_value_lists_presence_and_multivalued_features() -> None:
    assert compile_feats("Degree=Cmp,Sup")({"Degree": "Sup"})
    assert not compile_feats("Degree=Cmp,Sup")({"Degree": "Pos"})
    assert compile_feats("Poss=*")({"Poss": "Yes"})
    assert not compile_feats("Poss=*")({})
    assert compile_feats("Poss!=*")({})
    # CoNLL-U allows several values in one feature ("PronType=Int,Rel").
    assert compile_feats("PronType=Rel")({"PronType": "Int,Rel"})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Number", "expected Name=Value"),
        ("Number=", "missing value"),
        ("Number=Plur||Tense=Past", "empty feature"),
        ("1x=Plur", "bad feature name"),
        ("Degree=Cmp,", "empty value in a comma-separated list"),
    ],
)
def test_bad_feats_say_why(text: str, message: str) -> None:
    with pytest.raises(ValueSyntaxError, match=message):
        compile_feats(text)


def test_a_regex_that_backtracks_without_end_is_stopped_and_named() -> None:
    import time

    from checkpoints.errors import TaxonomyError
    from checkpoints.taxonomy.values import RegexTooSlow

    spec = compile_value("~(a|aa)+$")
    assert spec.test("aaa")
    started = time.perf_counter()
    with pytest.raises(RegexTooSlow) as caught:
        spec.test("a" * 40 + "b")  # re.search would run for hours on this 41-character token
    assert time.perf_counter() - started < 2.0
    assert isinstance(caught.value, TaxonomyError)
    assert str(caught.value).startswith("taxonomy value '~(a|aa)+$' searched 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' for over 0.1 s")
    negated = compile_value("!~(a|aa)+$")
    with pytest.raises(RegexTooSlow):
        negated.test("a" * 40 + "b")
