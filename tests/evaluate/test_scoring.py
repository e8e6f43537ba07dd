"""Zhou et al. 2008 formulas (2)–(5): r*, recall, penalty and score per category, group and
taxonomy; drill-down (Tables 8–9); system BLEU; bad input."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from checkpoints.errors import CorpusMismatch, SuiteError, UsageError
from checkpoints.evaluate.bleu_row import system_bleu
from checkpoints.evaluate.scopes import Scope, ScopeKind, score_from_stats
from checkpoints.evaluate.scoring import CheckpointScorer
from checkpoints.model import Level, SuiteData

# -- Zhou Tables 8 and 9 -----------------------------------------------------------

SYSTEM_A = "but the prime minister of thailand Dex-in vowed to continue in domestic the search ."
SYSTEM_B = "but the prime minister of thailand Dex-in vowed to continue the search in his country ."


@pytest.fixture
def table8(make_suite) -> SuiteData:
    """Table 8: check-point 在其国内 (Preposition-object phrase), two references with DM 0.5.

    The paper does not print the whole reference sentences; these (18 tokens)
    are at least as long as both translations (17 and 18 tokens: the default
    match tokenizer, ``words``, cuts "Dex-in" into three), so the penalty is 1
    as in Table 9."""
    return make_suite(
        [[
            "however , the thai prime minister thaksin shinawatra has vowed to continue the search in this country .",
            "but the prime minister of thailand , thaksin shinawatra , vowed to continue searching in his country .",
        ]],
        [(1, "Preposition-object", [(0, "in this country", 0.5), (1, "in his country", 0.5)])],
        [("Preposition-object", Level.PHRASE)],
        taxonomy="zh",
    )  # fmt: skip


def test_table9_system_a(table8: SuiteData) -> None:
    """System A: Ref 1 1/6, Ref 2 1/6 (only "in"), score 0.17 = 1/6 exactly: DM cancels in (3)."""
    scorer = CheckpointScorer(table8)
    scores = scorer.score([SYSTEM_A])
    assert scores.chosen.tolist() == [0]  # a tie goes to the first reference
    assert (scores.matched.tolist(), scores.total.tolist(), scores.dm.tolist()) == ([1], [6], [0.5])
    assert scores.checkpoint_scores().tolist() == [0.5 * 1 / 6]  # DM·matched/total of r*
    report = scores.report()
    assert Fraction(report.taxonomy.recall).limit_denominator(100) == Fraction(1, 6)
    assert report.taxonomy.recall == 1 / 6
    assert report.taxonomy.penalty == 1.0
    assert round(report.categories["Preposition-object"].score, 2) == 0.17

    explanation = scorer.explain(table8.checkpoints[0], SYSTEM_A)
    assert [(r.matched, r.total) for r in explanation.references] == [(1, 6), (1, 6)]
    assert [r.matched_ngrams for r in explanation.references] == [["in"], ["in"]]
    assert [r.dm for r in explanation.references] == [0.5, 0.5]
    assert explanation.chosen == 0
    assert explanation.score == 1 / 6
    assert explanation.weighted == 0.5 / 6


def test_table9_system_b(table8: SuiteData) -> None:
    """System B: Ref 1 2/6 (in; country), Ref 2 6/6, r* = Ref 2, score 1."""
    scorer = CheckpointScorer(table8)
    scores = scorer.score([SYSTEM_B])
    assert scores.chosen.tolist() == [1]
    assert (scores.matched.tolist(), scores.total.tolist()) == ([6], [6])
    assert scores.report().taxonomy.score == 1.0

    explanation = scorer.explain(table8.checkpoints[0], SYSTEM_B)
    assert [(r.matched, r.total) for r in explanation.references] == [(2, 6), (6, 6)]
    assert sorted(explanation.references[0].matched_ngrams) == ["country", "in"]
    assert sorted(explanation.references[1].matched_ngrams) == sorted(
        ["in", "his", "country", "in his", "his country", "in his country"]
    )
    assert explanation.references[1].tokens == ["in", "his", "country"]
    assert explanation.chosen == 1
    assert explanation.score == 1.0
    assert explanation.weighted == 0.5


def test_drill_down_shows_original_spelling_under_lower_matching(make_suite) -> None:
    suite = make_suite([["The White House said"]], [(1, "Noun", [(0, "White House", 1.0)])], [("Noun", Level.WORD)])
    explanation = CheckpointScorer(suite, match="lower").explain(suite.checkpoints[0], "the white house")
    assert sorted(explanation.references[0].matched_ngrams) == ["House", "White", "White House"]


# -- aggregation over categories, groups and the taxonomy --------------------------

HYPOTHESES = ["a b c d e f", "g h x", "m n o p q r s t"]


@pytest.fixture
def hand_built(make_suite) -> SuiteData:
    """Three pairs (reference lengths 4, 6, 4; translation lengths 6, 3, 8).

    c1 Noun P1 "a" DM 1 → 1/1        c4 Verb P2 "i j" DM 1 → 0/3
    c2 Noun P1 "d" DM .5 → 1/1       c5 NP P2 "g * i" DM .8 → 1/3 (g; not i, not g * i)
    c3 Verb P1 "b c" DM 1 → 3/3      c6 NP P3 "m n o" DM 1 → 6/6, alternative "z" → 0/1
    """
    return make_suite(
        [["a b c d"], ["g h i j k l"], ["m n o p"]],
        [
            (1, "Noun", [(0, "a", 1.0)]),
            (1, "Noun", [(0, "d", 0.5)]),
            (1, "Verb", [(0, "b c", 1.0)]),
            (2, "Verb", [(0, "i j", 1.0)]),
            (2, "NP", [(0, "g * i", 0.8)]),
            (3, "NP", [(0, "m n o", 1.0), (0, "z", 1.0)]),
        ],
        [("Noun", Level.WORD), ("Verb", Level.WORD), ("NP", Level.PHRASE), ("Relative clause", Level.SENTENCE)],
    )


def test_per_checkpoint_results(hand_built: SuiteData) -> None:
    scores = CheckpointScorer(hand_built).score(HYPOTHESES)
    assert scores.chosen.tolist() == [0, 0, 0, 0, 0, 0]
    assert scores.matched.tolist() == [1, 1, 3, 0, 1, 6]
    assert scores.total.tolist() == [1, 1, 3, 3, 3, 6]
    assert scores.dm.tolist() == [1.0, 0.5, 1.0, 1.0, 0.8, 1.0]


def test_category_group_and_taxonomy_scores(hand_built: SuiteData) -> None:
    report = CheckpointScorer(hand_built).score(HYPOTHESES).report()
    assert [s.scope for s in report.scopes] == [
        Scope(ScopeKind.TAXONOMY, "test"),
        Scope(ScopeKind.GROUP, "word"),
        Scope(ScopeKind.GROUP, "phrase"),
        Scope(ScopeKind.CATEGORY, "Noun"),
        Scope(ScopeKind.CATEGORY, "Verb"),
        Scope(ScopeKind.CATEGORY, "NP"),
    ]  # a category without check-points and its empty level get no line
    noun, verb, np_ = (report.categories[name] for name in ("Noun", "Verb", "NP"))
    # Noun: (1·1 + .5·1)/(1·1 + .5·1) = 1; only P1: T 6 > R 4 → penalty 4/6
    assert (noun.recall, noun.penalty, noun.score) == pytest.approx((1.0, 4 / 6, 2 / 3), rel=1e-12)
    assert (noun.checkpoints, noun.pairs) == (2, 1)
    # Verb: (3 + 0)/(3 + 3); P1 and P2: T 9 ≤ R 10 → penalty 1
    assert (verb.recall, verb.penalty, verb.score) == pytest.approx((0.5, 1.0, 0.5), rel=1e-12)
    # NP: (.8·1 + 1·6)/(.8·3 + 1·6) = 6.8/8.4; P2 and P3: T 11 > R 10 → 10/11
    assert (np_.recall, np_.penalty) == pytest.approx((6.8 / 8.4, 10 / 11), rel=1e-12)
    assert np_.score == pytest.approx(6.8 / 8.4 * 10 / 11, rel=1e-12)
    # word group: (1 + .5 + 3 + 0)/(1 + .5 + 3 + 3) = .6; P1 counts once although it carries
    # three word check-points: T 6 + 3 = 9 ≤ R 4 + 6 = 10 → 1 (counted per check-point: 18/21)
    word = report.groups["word"]
    assert (word.recall, word.penalty, word.score) == pytest.approx((0.6, 1.0, 0.6), rel=1e-12)
    assert (word.checkpoints, word.pairs, word.translation_length, word.reference_length) == (4, 2, 4.5, 5.0)
    assert report.groups["phrase"].score == pytest.approx(np_.score, rel=1e-12)
    # taxonomy: (4.5 + 6.8)/(7.5 + 8.4); all pairs: T 17 > R 14 → 14/17
    top = report.taxonomy
    assert (top.recall, top.penalty) == pytest.approx((11.3 / 15.9, 14 / 17), rel=1e-12)
    assert top.score == pytest.approx(11.3 / 15.9 * 14 / 17, rel=1e-12)
    assert top.checkpoints == 6


def test_report_as_json_object(hand_built: SuiteData) -> None:
    data = CheckpointScorer(hand_built).score(HYPOTHESES).report().to_json()
    assert set(data) == {"score", "recall", "penalty", "checkpoints", "groups", "categories"}
    assert data["groups"] == pytest.approx({"word": 0.6, "phrase": 6.8 / 8.4 * 10 / 11})
    assert data["categories"]["Verb"] == {"score": 0.5, "recall": 0.5, "penalty": 1.0, "checkpoints": 2}


def test_statistics_sum_to_the_report(hand_built: SuiteData) -> None:
    scores = CheckpointScorer(hand_built).score(HYPOTHESES)
    stats = scores.statistics()
    assert stats.shape == (3, 6, 5)
    # pair P1 in the Noun scope: Σ DM·matched 1.5, Σ DM·total 1.5, T 6, R 4, in scope 1
    assert stats[0, 3].tolist() == [1.5, 1.5, 6.0, 4.0, 1.0]
    # pair P3 is not in the Noun scope
    assert stats[2, 3].tolist() == [0.0, 0.0, 0.0, 0.0, 0.0]
    report = scores.report()
    assert score_from_stats(stats.sum(axis=0)).tolist() == [s.score for s in report.scopes]


def test_category_selection_restricts_checkpoints_pairs_and_scopes(hand_built: SuiteData) -> None:
    scorer = CheckpointScorer(hand_built, categories=["Verb"])
    assert [cp.id for cp in scorer.checkpoints] == [3, 4]
    assert scorer.pair_positions.tolist() == [0, 1]
    report = scorer.score(HYPOTHESES).report()
    assert [s.scope.name for s in report.scopes] == ["test", "word", "Verb"]
    assert report.taxonomy.score == 0.5


# -- the penalty ------------------------------------------------------------------


def test_penalty_uses_the_mean_over_reference_translations(make_suite) -> None:
    """R = mean(4, 6) = 5, T = 6 > 5 → penalty 5/6; the check-point itself matches fully."""
    suite = make_suite([["a b c d", "a b c d e f"]], [(1, "Noun", [(0, "a", 1.0)])], [("Noun", Level.WORD)])
    top = CheckpointScorer(suite).score(["a b c d e f"]).report().taxonomy
    assert (top.recall, top.penalty, top.score) == (1.0, 5 / 6, 5 / 6)


def test_no_penalty_when_translations_are_not_longer(make_suite) -> None:
    suite = make_suite([["a b c d", "a b c d e f"]], [(1, "Noun", [(0, "a", 1.0)])], [("Noun", Level.WORD)])
    scorer = CheckpointScorer(suite)
    assert scorer.score(["a b c d e"]).report().taxonomy.penalty == 1.0  # T 5 = R 5
    assert scorer.score(["a"]).report().taxonomy.penalty == 1.0


def test_lengths_are_counted_with_the_match_tokenizer(make_suite) -> None:
    """13a splits "d." into two tokens: R = 5; "a b c d e." is 6 tokens → 5/6."""
    suite = make_suite([["a b c d."]], [(1, "Noun", [(0, "a", 1.0)])], [("Noun", Level.WORD)])
    assert CheckpointScorer(suite).score(["a b c d e."]).report().taxonomy.penalty == 5 / 6
    assert CheckpointScorer(suite, tokenize="none").score(["a b c d e."]).report().taxonomy.penalty == 4 / 5


# -- r* selection -----------------------------------------------------------------


def test_dm_decides_between_references(make_suite) -> None:
    """Ref 1 matches 3/3 with DM .2 (.2), ref 2 1/3 with DM 1 (.33): formula (2) picks ref 2."""
    suite = make_suite(
        [["x y z"]], [(1, "NP", [(0, "a b", 0.2), (0, "a c", 1.0)])], [("NP", Level.PHRASE)]
    )
    scores = CheckpointScorer(suite).score(["a b"])
    assert (scores.chosen.tolist(), scores.matched.tolist(), scores.dm.tolist()) == ([1], [1], [1.0])
    assert scores.report().taxonomy.recall == 1 / 3


def test_checkpoint_without_references_adds_nothing(make_suite) -> None:
    suite = make_suite(
        [["a b"]], [(1, "Noun", []), (1, "Noun", [(0, "a", 1.0)])], [("Noun", Level.WORD)]
    )
    scores = CheckpointScorer(suite).score(["a"])
    assert scores.chosen.tolist() == [-1, 0]
    assert scores.report().taxonomy.recall == 1.0
    assert scores.report().taxonomy.checkpoints == 2
    assert CheckpointScorer(suite).explain(suite.checkpoints[0], "a").chosen == -1


def test_stem_matching_in_the_scorer(make_suite) -> None:
    suite = make_suite(
        [["los niños cantaban"]], [(1, "Verb", [(0, "cantaban", 1.0)])], [("Verb", Level.WORD)], target_lang="es"
    )
    assert CheckpointScorer(suite).score(["los niños cantando"]).report().taxonomy.recall == 0.0
    assert CheckpointScorer(suite, match="lower").score(["Cantaban"]).report().taxonomy.recall == 1.0
    assert CheckpointScorer(suite, match="stem").score(["los niños cantando"]).report().taxonomy.recall == 1.0


def test_chinese_target_defaults_to_the_zh_tokenizer(make_suite) -> None:
    suite = make_suite([["他 在 其 国内"]], [(1, "PP", [(0, "在 其 国内", 1.0)])], [("PP", Level.PHRASE)],
                       target_lang="zh")
    scorer = CheckpointScorer(suite)
    assert scorer.tokenize == "zh"
    assert scorer.score(["他在其国内。"]).total.tolist() == [10]  # 在 其 国 内: 4 words → 10 n-grams
    assert scorer.score(["他在其国内。"]).matched.tolist() == [10]


# -- BLEU -------------------------------------------------------------------------


def test_bleu_on_the_evaluated_pairs_with_all_references(make_suite) -> None:
    suite = make_suite(
        [["the cat sat on the mat", "a cat was sitting on the mat"], ["he reads a book"], ["it rains today"]],
        [(1, "Noun", [(0, "cat", 1.0)]), (2, "Noun", [(0, "book", 1.0)]), (3, "Verb", [(0, "rains", 1.0)])],
        [("Noun", Level.WORD), ("Verb", Level.WORD)],
    )
    hypotheses = ["the cat is on the mat", "he is reading a book", "it is raining"]
    expected = sacrebleu.corpus_bleu(
        hypotheses[:2], [["the cat sat on the mat", "he reads a book"], ["a cat was sitting on the mat", None]]
    ).score
    assert CheckpointScorer(suite, categories=["Noun"]).bleu(hypotheses) == pytest.approx(expected, abs=1e-9)
    assert system_bleu(hypotheses, suite, [0, 1], "13a") == pytest.approx(expected, abs=1e-9)
    everything = sacrebleu.corpus_bleu(
        hypotheses,
        [["the cat sat on the mat", "he reads a book", "it rains today"], ["a cat was sitting on the mat", None, None]],
    ).score
    assert system_bleu(hypotheses, suite) == pytest.approx(everything, abs=1e-9)
    assert expected != pytest.approx(everything)


# -- bad input --------------------------------------------------------------------


def test_wrong_number_of_translations(hand_built: SuiteData) -> None:
    with pytest.raises(CorpusMismatch, match="2 translation lines for the 3 sentence pairs of suite 'test-suite'"):
        CheckpointScorer(hand_built).score(HYPOTHESES[:2])


def test_unknown_category(hand_built: SuiteData) -> None:
    with pytest.raises(SuiteError, match=r"no category 'Adverb' .*\(categories: Noun, Verb, NP, Relative clause\)"):
        CheckpointScorer(hand_built, categories=["Adverb"])


def test_selected_category_without_checkpoints(hand_built: SuiteData) -> None:
    with pytest.raises(SuiteError, match="no check-points to evaluate in categories Relative clause"):
        CheckpointScorer(hand_built, categories=["Relative clause"])


def test_checkpoint_of_a_category_missing_from_the_suite(make_suite) -> None:
    suite = make_suite([["a"]], [(1, "Idiom", [(0, "a", 1.0)])], [("Noun", Level.WORD)])
    with pytest.raises(SuiteError, match="unknown categories: Idiom"):
        CheckpointScorer(suite)


def test_checkpoint_of_a_missing_pair(make_suite) -> None:
    suite = make_suite([["a"]], [(7, "Noun", [(0, "a", 1.0)])], [("Noun", Level.WORD)])
    with pytest.raises(SuiteError, match="refers to pair 7"):
        CheckpointScorer(suite)


def test_pair_without_reference_translation(make_suite) -> None:
    suite = make_suite([[]], [(1, "Noun", [(0, "a", 1.0)])], [("Noun", Level.WORD)])
    with pytest.raises(SuiteError, match="pair 1 of suite 'test-suite' has no reference translation"):
        CheckpointScorer(suite)


def test_bad_options(hand_built: SuiteData, make_suite) -> None:
    with pytest.raises(UsageError, match="unknown tokenizer 'moses'"):
        CheckpointScorer(hand_built, tokenize="moses")
    with pytest.raises(UsageError, match="unknown match mode 'fuzzy'"):
        CheckpointScorer(hand_built, match="fuzzy")
    klingon = make_suite([["a"]], [(1, "Noun", [(0, "a", 1.0)])], [("Noun", Level.WORD)], target_lang="tlh")
    with pytest.raises(UsageError, match="no Snowball stemmer for language 'tlh'; stem matching supports: ar, "):
        CheckpointScorer(klingon, match="stem")


# -- properties -------------------------------------------------------------------

WORDS = ["a", "b", "c", "d"]
CATEGORIES = [("Noun", Level.WORD), ("Verb", Level.WORD), ("NP", Level.PHRASE), ("Clause", Level.SENTENCE)]
sentences = st.lists(st.sampled_from(WORDS), min_size=0, max_size=8).map(" ".join)
reference_texts = st.lists(st.sampled_from([*WORDS, "*"]), min_size=0, max_size=5).map(" ".join)
references = st.lists(
    st.tuples(st.just(0), reference_texts, st.sampled_from([0.25, 0.5, 0.8, 1.0])), min_size=0, max_size=3
)


@st.composite
def random_suites(draw: st.DrawFn) -> tuple[list[list[str]], list, list[str]]:
    pairs = draw(st.integers(1, 4))
    reference_sentences = [[draw(sentences.filter(bool))] for _ in range(pairs)]
    checkpoints = draw(
        st.lists(
            st.tuples(st.integers(1, pairs), st.sampled_from([name for name, _ in CATEGORIES]), references),
            min_size=1,
            max_size=10,
        )
    )
    translations = [draw(sentences) for _ in range(pairs)]
    return reference_sentences, checkpoints, translations


@settings(max_examples=100, deadline=None)
@given(random_suites())
def test_recall_and_score_lie_in_the_unit_interval(make_suite, drawn) -> None:
    reference_sentences, checkpoints, translations = drawn
    report = CheckpointScorer(make_suite(reference_sentences, checkpoints, CATEGORIES)).score(translations).report()
    for line in report.scopes:
        assert 0.0 <= line.recall <= 1.0
        assert 0.0 < line.penalty <= 1.0
        assert 0.0 <= line.score <= line.recall


@settings(max_examples=100, deadline=None)
@given(random_suites(), st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_pair_order(make_suite, drawn, rng: random.Random) -> None:
    reference_sentences, checkpoints, translations = drawn
    order = list(range(len(reference_sentences)))
    rng.shuffle(order)
    suite = make_suite(reference_sentences, checkpoints, CATEGORIES)
    shuffled = make_suite(reference_sentences, checkpoints, CATEGORIES)
    shuffled.pairs = [suite.pairs[i] for i in order]
    report = CheckpointScorer(suite).score(translations).report()
    moved = CheckpointScorer(shuffled).score([translations[i] for i in order]).report()
    assert [s.scope for s in moved.scopes] == [s.scope for s in report.scopes]
    for a, b in zip(report.scopes, moved.scopes, strict=True):
        assert (b.recall, b.penalty, b.score) == pytest.approx((a.recall, a.penalty, a.score), rel=1e-12, abs=1e-15)
        assert (b.checkpoints, b.pairs) == (a.checkpoints, a.pairs)


@settings(max_examples=100, deadline=None)
@given(random_suites())
def test_vectorised_scores_agree_with_the_drill_down(make_suite, drawn) -> None:
    reference_sentences, checkpoints, translations = drawn
    suite = make_suite(reference_sentences, checkpoints, CATEGORIES)
    scorer = CheckpointScorer(suite)
    scores = scorer.score(translations)
    for number, checkpoint in enumerate(scorer.checkpoints):
        explanation = scorer.explain(checkpoint, translations[checkpoint.pair_id - 1])
        assert explanation.chosen == scores.chosen[number]
        best = explanation.best
        if best is not None:
            assert (best.matched, best.total, best.dm) == (
                scores.matched[number], scores.total[number], scores.dm[number]
            )
    assert np.all(scores.checkpoint_scores() <= 1.0)
