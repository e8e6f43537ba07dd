"""Check-point n-gram matching: Zhou et al. 2008 §5 examples, clipping, gaps, granularity,
and agreement of the vectorised index with the one-reference definition."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkpoints.errors import UsageError
from checkpoints.evaluate.compiled import ReferenceIndex
from checkpoints.evaluate.matching import (
    ASTERISK,
    MatchMode,
    candidate_match_tokens,
    match_counts,
    match_mode,
    matched_ngrams,
    ngram_matches,
    ngram_order,
    ngram_text,
    normalize_tokens,
    normalizer,
    parse_max_order,
    reference_match_tokens,
    reference_ngram_list,
    reference_ngrams,
)
from checkpoints.tokenizers import get_tokenizer


def words(text: str) -> list[str]:
    return text.split()


# -- Zhou §5 -------------------------------------------------------------------


def test_consecutive_checkpoint_all_six_ngrams_match() -> None:
    """§5: reference "playing a drum" vs "He is playing a drum." — all 6 n-grams match."""
    reference = words("playing a drum")
    candidate = words("He is playing a drum .")
    expected = {("playing",), ("a",), ("drum",), ("playing", "a"), ("a", "drum"), ("playing", "a", "drum")}
    assert set(reference_ngrams(reference)) == expected
    assert sum(reference_ngrams(reference).values()) == 6
    assert match_counts(reference, candidate) == (6, 6)
    assert set(matched_ngrams(reference, candidate)) == expected


def test_gapped_checkpoint_three_ngrams_match() -> None:
    """§5: reference "They * playing" vs "They are playing cop per drum." — They; playing; They * playing."""
    reference = words("They * playing")
    assert reference_ngrams(reference) == {("They",): 1, ("playing",): 1, ("They", "*", "playing"): 1}
    assert match_counts(reference, words("They are playing cop per drum .")) == (3, 3)
    assert sorted(map(ngram_text, matched_ngrams(reference, words("They are playing cop per drum .")))) == [
        "They",
        "They * playing",
        "playing",
    ]


def test_gap_matches_zero_words() -> None:
    assert match_counts(words("They * playing"), words("They playing")) == (3, 3)


def test_gap_parts_must_come_in_order() -> None:
    assert match_counts(words("They * playing"), words("playing They")) == (2, 3)


def test_gaps_at_the_ends_and_repeated_gaps_are_one_gap() -> None:
    assert reference_ngrams(words("* a * * b *")) == reference_ngrams(words("a * b"))


def test_ngram_count_of_a_gapless_reference_is_triangular() -> None:
    for n in range(1, 9):
        assert sum(reference_ngrams([f"w{i}" for i in range(n)]).values()) == n * (n + 1) // 2


def test_ngrams_of_a_reference_with_two_gaps() -> None:
    """Every contiguous sub-sequence of "a b * c * d" that neither starts nor ends with *."""
    assert set(map(ngram_text, reference_ngrams(words("a b * c * d")))) == {
        "a", "b", "a b", "c", "d",
        "a b * c", "b * c", "c * d",
        "a b * c * d", "b * c * d",
    }  # fmt: skip


# -- counting and clipping ------------------------------------------------------


def test_clipping_the_the_against_the_cat() -> None:
    """n-grams "the" ×2 and "the the" ×1 → matched min(2, 1) + min(1, 0) = 1 of 3."""
    assert reference_ngrams(words("the the")) == {("the",): 2, ("the", "the"): 1}
    assert match_counts(words("the the"), words("the cat")) == (1, 3)
    assert matched_ngrams(words("the the"), words("the cat")) == [("the",)]


def test_clipping_caps_at_the_reference_count() -> None:
    """"the the" vs "the the the": "the" min(2, 3) = 2, "the the" min(1, 2) = 1 → 3 of 3."""
    assert match_counts(words("the the"), words("the the the")) == (3, 3)


def test_contiguous_ngrams_count_at_every_position() -> None:
    assert ngram_matches(("a", "a"), words("a a a")) == 2


def test_gapped_ngrams_count_greedy_non_overlapping_occurrences() -> None:
    assert ngram_matches(("a", "*", "b"), words("a b a b")) == 2
    assert ngram_matches(("a", "*", "b"), words("a a b b")) == 1
    assert ngram_matches(("a", "*", "a"), words("a a a")) == 1
    assert ngram_matches(("a", "*", "a"), words("a a a a")) == 2
    assert ngram_matches(("a", "b", "*", "b", "c"), words("a b c")) == 0


def test_gapped_ngram_repeated_in_the_reference_is_clipped() -> None:
    """"a * b a * b": a ×2, b ×2, "a * b" ×2, and four n-grams once (10 in all).

    Against "a b": a 1, b 1, "a * b" 1 → 3; against "a b a b": all 10."""
    reference = words("a * b a * b")
    assert reference_ngrams(reference) == {
        ("a",): 2, ("b",): 2, ("a", "*", "b"): 2, ("b", "a"): 1, ("a", "*", "b", "a"): 1,
        ("b", "a", "*", "b"): 1, ("a", "*", "b", "a", "*", "b"): 1,
    }  # fmt: skip
    assert match_counts(reference, words("a b")) == (3, 10)
    assert match_counts(reference, words("a b a b")) == (10, 10)


def test_empty_reference_has_no_ngrams() -> None:
    assert match_counts([], words("a b")) == (0, 0)
    assert match_counts(["*"], words("a b")) == (0, 0)


# -- tokenization -----------------------------------------------------------------


def test_reference_stretches_are_tokenized_with_the_match_tokenizer() -> None:
    tokenize = get_tokenizer("13a")
    assert reference_match_tokens(["de", "Clinton.", "*", "cuenta", "bancaria,"], tokenize) == [
        "de", "Clinton", ".", "*", "cuenta", "bancaria", ",",
    ]  # fmt: skip
    assert reference_match_tokens(["*", "a", "*"], tokenize) == ["a"]


def test_literal_asterisk_is_a_word_not_a_gap() -> None:
    """13a splits "5*3" into 5 * 3; that asterisk must stay a word on both sides."""
    tokenize = get_tokenizer("13a")
    reference = reference_match_tokens(["5*3"], tokenize)
    assert reference == ["5", ASTERISK, "3"]
    assert sum(reference_ngrams(reference).values()) == 6
    assert match_counts(reference, candidate_match_tokens("so 5*3 = 15", tokenize)) == (6, 6)
    # as a gap, "5 * 3" would match "5 3" (3 of 3 n-grams); as a word only 5 and 3 match
    assert match_counts(reference, candidate_match_tokens("so 5 3", tokenize)) == (2, 6)
    assert ngram_text(("5", ASTERISK, "3")) == "5 * 3"


def test_chinese_reference_uses_the_zh_tokenizer() -> None:
    tokenize = get_tokenizer("zh")
    reference = reference_match_tokens(["在其国内"], tokenize)
    assert reference == ["在", "其", "国", "内"]
    assert match_counts(reference, candidate_match_tokens("他在其国内。", tokenize)) == (10, 10)


# -- granularity ------------------------------------------------------------------


def test_lower_matching_succeeds_where_normal_fails() -> None:
    reference, candidate = words("The White House"), words("the white house")
    assert match_counts(reference, candidate) == (0, 6)
    lower = normalizer(MatchMode.LOWER)
    assert match_counts(normalize_tokens(reference, lower), normalize_tokens(candidate, lower)) == (6, 6)


def test_stem_matching_with_the_spanish_stemmer() -> None:
    """Snowball Spanish: niños/Niños → niñ, cantaban/cantando → cant."""
    reference, candidate = words("Los Niños cantaban"), words("los niños cantando")
    assert match_counts(reference, candidate) == (0, 6)
    lower = normalizer("lower")
    assert match_counts(normalize_tokens(reference, lower), normalize_tokens(candidate, lower)) == (3, 6)
    stem = normalizer("stem", "es")
    assert match_counts(normalize_tokens(reference, stem), normalize_tokens(candidate, stem)) == (6, 6)


def test_stemming_keeps_gaps() -> None:
    stem = normalizer("stem", "en")
    assert normalize_tokens(words("playing * drums"), stem) == ["play", "*", "drum"]


def test_unknown_stemmer_language_is_a_one_line_error_listing_languages() -> None:
    with pytest.raises(UsageError) as caught:
        normalizer("stem", "xx")
    message = str(caught.value)
    assert "\n" not in message
    assert "'xx'" in message
    assert "es" in message.split("supports:")[1].split(", ")


def test_unknown_match_mode_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="choose from normal, lower, stem"):
        match_mode("fuzzy")


# -- the vectorised index agrees with the definition -------------------------------


def test_index_on_the_section_5_examples() -> None:
    index = ReferenceIndex()
    references = [(0, words("playing a drum")), (1, words("They * playing")), (1, words("the the"))]
    rows = [index.add(pair, tokens) for pair, tokens in references]
    candidates = [words("He is playing a drum ."), words("They are playing cop per drum . the")]
    matched = index.match([[index.word_id(w) for w in c] for c in candidates])
    assert rows == [0, 1, 2]
    assert matched.tolist() == [6, 3, 1]
    assert index.totals.tolist() == [6, 3, 3]


def test_index_without_any_match() -> None:
    index = ReferenceIndex()
    index.add(0, words("a * b"))
    assert index.match([[]]).tolist() == [0]
    assert index.match([[index.word_id("zzz")]]).tolist() == [0]


def test_index_is_frozen_after_matching() -> None:
    index = ReferenceIndex()
    index.add(0, ["a"])
    index.match([[1]])
    with pytest.raises(RuntimeError):
        index.add(0, ["b"])


VOCABULARY = ["a", "b", "c", "d"]
reference_strategy = st.lists(st.sampled_from([*VOCABULARY, "*"]), min_size=0, max_size=7)
candidate_strategy = st.lists(st.sampled_from([*VOCABULARY, "e"]), min_size=0, max_size=10)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 2), reference_strategy), min_size=1, max_size=8),
    st.lists(candidate_strategy, min_size=3, max_size=3),
)
def test_index_agrees_with_match_counts(references: list[tuple[int, list[str]]], candidates: list[list[str]]) -> None:
    index = ReferenceIndex()
    for pair, tokens in references:
        index.add(pair, tokens)
    matched = index.match([[index.word_id(w) for w in c] for c in candidates])
    expected = [match_counts(tokens, candidates[pair]) for pair, tokens in references]
    assert list(zip(matched.tolist(), index.totals.tolist(), strict=True)) == expected


@settings(max_examples=200, deadline=None)
@given(reference_strategy, candidate_strategy)
def test_matched_never_exceeds_total(reference: list[str], candidate: list[str]) -> None:
    matched, total = match_counts(reference, candidate)
    assert 0 <= matched <= total
    assert len(matched_ngrams(reference, candidate)) == matched


# -- --max-order ------------------------------------------------------------------


def test_max_order_counts_words_not_gaps() -> None:
    """A 5-word reference has 5+4+3+2+1 = 15 n-grams; up to order 4 it has 14, up to 2 it has 9.
    "a b * c d" has 3+3 plain n-grams and gapped ones "b * c", "a b * c", "b * c d", "a b * c d"
    (orders 2, 3, 3, 4): 10 in all, 9 up to order 3, 7 up to order 2."""
    five = ["w1", "w2", "w3", "w4", "w5"]
    assert [len(reference_ngram_list(five, order)) for order in (None, 4, 2, 1)] == [15, 14, 9, 5]
    gapped = ["a", "b", "*", "c", "d"]
    assert [len(reference_ngram_list(gapped, order)) for order in (None, 4, 3, 2, 1)] == [10, 10, 9, 7, 4]
    assert ngram_order(("They", "*", "playing")) == 2


def test_max_order_in_matching_by_hand() -> None:
    """Reference "the new spending is fueled" against "the new spending was fueled":
    orders 1-2 match the, new, spending, fueled, the new, new spending = 6 of 5+4 = 9;
    order 3 adds "the new spending" (1 of 3 trigrams); orders 4-5 add nothing.
    All orders: 7/15; up to 4: 7/14; up to 2: 6/9."""
    reference = ["the", "new", "spending", "is", "fueled"]
    candidate = ["the", "new", "spending", "was", "fueled"]
    assert match_counts(reference, candidate) == (7, 15)
    assert match_counts(reference, candidate, 4) == (7, 14)
    assert match_counts(reference, candidate, 2) == (6, 9)
    index = ReferenceIndex(2)
    index.add(0, reference)
    index.freeze()
    assert index.match([[index.word_id(w) for w in candidate]]).tolist() == [6]
    assert index.totals.tolist() == [9]


def test_reference_index_agrees_with_the_definition_for_every_max_order() -> None:
    """Random references with gaps: the compiled index gives the executable definition's counts."""
    import random

    rng = random.Random(7)
    vocabulary = list("abcde")
    for _ in range(500):
        reference = [rng.choice([*vocabulary, "*"]) for _ in range(rng.randint(1, 12))]
        candidates = [[rng.choice(vocabulary) for _ in range(rng.randint(0, 14))] for _ in range(2)]
        for order in (None, 1, 2, 3, 4):
            index = ReferenceIndex(order)
            for pair in range(2):
                index.add(pair, reference)
            index.freeze()
            matched = index.match([[index.word_id(w) for w in c] for c in candidates])
            for pair, candidate in enumerate(candidates):
                assert (int(matched[pair]), int(index.totals[pair])) == match_counts(reference, candidate, order)


@pytest.mark.parametrize(("value", "expected"), [("4", 4), ("all", None), ("ALL", None), (2, 2), (None, None)])
def test_parse_max_order(value: object, expected: int | None) -> None:
    assert parse_max_order(value) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["0", "-1", "four"])
def test_parse_max_order_rejects(value: str) -> None:
    with pytest.raises(UsageError, match="--max-order"):
        parse_max_order(value)
