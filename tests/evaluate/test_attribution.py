"""Error attribution on a hand-made case whose every figure is worked out in the comments.

Two sentence pairs, four check-points, MQM errors placed by hand:

pair 0: source "house burns", output "Das Haus brennt" (Das 0-3, Haus 4-8, brennt 9-15);
        links house→Haus, burns→brennt; one rater; E1 Major Accuracy/Mistranslation on "Haus" (4-8).
pair 1: source "cats he saw", output "Er sah Katzen" (Er 0-2, sah 3-6, Katzen 7-13);
        links cats→Katzen only ("saw" has no linked word); two raters:
        E2 Minor Fluency/Grammar on "Katzen" (7-13) by rater a,
        E3 Major Accuracy/Omission marked in the source on "saw" (8-11) by rater b.

check-points: c0 Noun "house" (missed), c1 Verb "burns" (matched),
              c2 Noun "cats" (matched), c3 Verb "saw" (missed, unlinked).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from checkpoints.evaluate.attribution import (
    ALL,
    CheckpointView,
    RatedError,
    RatedSegment,
    category_errors,
    category_validity,
    rated_segments,
    system_outcome,
)
from checkpoints.evaluate.output_links import LinkedOutput, source_spans, word_spans
from checkpoints.io.conllu import parse_conllu_string
from checkpoints.io.mqm import marked_spans, read_mqm
from checkpoints.model import Sentence, Token

E1 = RatedError("a", "Accuracy/Mistranslation", "Major", 5.0, ((4, 8),), ())
E2 = RatedError("a", "Fluency/Grammar", "Minor", 1.0, ((7, 13),), ())
E3 = RatedError("b", "Accuracy/Omission", "Major", 5.0, (), ((8, 11),))
VIEW = CheckpointView(
    categories=("Noun", "Verb"),
    category=("Noun", "Verb", "Noun", "Verb"),
    position=np.array([0, 0, 1, 1]),
    source_indices=((0,), (1,), (0,), (2,)),
)
LINKED = [
    LinkedOutput(word_spans("Das Haus brennt"), {0: (1,), 1: (2,)}),
    LinkedOutput(word_spans("Er sah Katzen"), {0: (2,)}),
]
SOURCES = [[(0, 5), (6, 11)], [(0, 4), (5, 7), (8, 11)]]
RATED = {0: RatedSegment(1, (E1,)), 1: RatedSegment(2, (E2, E3))}
RATIO = np.array([0.0, 1.0, 1.0, 0.0])


def outcome(name="A", rated=RATED, score=None):
    return system_outcome(name, VIEW, RATIO, LINKED, SOURCES, rated, score or {"Noun": 0.5, "Verb": 0.5, ALL: 0.5})


def test_errors_overlap_linked_words_and_omissions_overlap_source_words():
    result = outcome()
    # c0 "Haus" in E1; c1 "brennt" in none; c2 "Katzen" in E2; c3 unlinked, but E3 marks "saw" in the source
    assert result.overlaps == ((E1,), (), (E2,), (E3,))
    assert result.linked.tolist() == [True, True, True, False]
    assert result.missed.tolist() == [True, False, False, True]
    assert result.weight.tolist() == [1.0, 1.0, 0.5, 0.5]  # 1 / raters of the segment


def test_attributed_penalty_is_per_rated_segment_and_rater_averaged():
    penalty = outcome().penalty
    # Noun: pair 0 E1 5/1 + pair 1 E2 1/2 = 5.5 over 2 segments; Verb: E3 5/2 = 2.5 over 2;
    # all: 5 + 0.5 + 2.5 = 8 over 2 (each error once, however many check-points it overlaps)
    assert penalty == {"Noun": 2.75, "Verb": 1.25, ALL: 4.0}
    # per segment, what ``meta --by-category`` correlates with: pair 1's E2 and E3 each over two raters
    assert outcome().segment_penalty == {"Noun": {0: 5.0, 1: 0.5}, "Verb": {1: 2.5}, ALL: {0: 5.0, 1: 3.0}}


def test_errors_per_100_checkpoints_by_severity_and_type():
    rows = {row.category: row for row in category_errors(outcome(), VIEW)}
    noun, verb, every = rows["Noun"], rows["Verb"], rows[ALL]
    # Noun: c0 one Major (×1), c2 one Minor (×1/2): 1.5 errors over 2 check-points
    assert (noun.checkpoints, noun.per_100, noun.by_severity) == (2, 75.0, {"Major": 50.0, "Minor": 25.0})
    assert noun.by_type == {"Accuracy": 50.0, "Fluency": 25.0}
    assert noun.unlinked == 0.0
    # Verb: c3's omission counts 1/2; c3 is one of 2 check-points without a linked word
    assert (verb.per_100, verb.by_severity, verb.unlinked) == (25.0, {"Major": 25.0, "Minor": 0.0}, 0.5)
    # all four: 1 + 0.5 + 0.5 = 2 errors; Major 1.5, Minor 0.5; one of four unlinked
    assert (every.checkpoints, every.per_100, every.by_severity, every.unlinked) == (
        4, 50.0, {"Major": 37.5, "Minor": 12.5}, 0.25)
    assert every.few and noun.few  # fewer than 30 check-points


def test_validity_counts_linked_checkpoints_only():
    rows = {row.category: row for row in category_validity([outcome()], VIEW, pairs=2, samples=200)}
    # Noun: c0 missed in error, c2 matched in error → 1/1 and 1/1, lift 1
    assert (rows["Noun"].missed, rows["Noun"].missed_in_error, rows["Noun"].matched, rows["Noun"].matched_in_error) == (1, 1, 1, 1)
    assert rows["Noun"].lift == 1.0
    # Verb: c1 matched without error; c3 (missed) has no linked word and is left out: no P(error | missed)
    assert (rows["Verb"].missed, rows["Verb"].matched, rows["Verb"].p_missed, rows["Verb"].p_matched) == (0, 1, None, 0.0)
    assert rows["Verb"].lift is None
    # all: missed {c0: error}, matched {c1: none, c2: error} → 1.0 / 0.5 = 2
    assert (rows[ALL].p_missed, rows[ALL].p_matched, rows[ALL].lift) == (1.0, 0.5, 2.0)
    assert rows[ALL].pearson is None  # one system: no correlation
    assert rows[ALL].checkpoints == 3 and rows["Verb"].checkpoints == 1  # c3, unlinked, counts for no row
    assert rows[ALL].warnings == [
        "every figure from 3 check-points (< 30), however many systems",
        "P(error | missed) from 1 check-points (< 30)", "P(error | matched) from 2 check-points (< 30)"]


def test_many_systems_scoring_few_checkpoints_still_carry_a_warning():
    """40 systems over the same three linked check-points pool 40 misses and 80 matches: enough
    for each share, yet every figure rests on three check-points."""
    rows = {row.category: row for row in category_validity([outcome(f"S{n}") for n in range(40)], VIEW, pairs=2,
                                                           samples=200)}
    assert (rows[ALL].missed, rows[ALL].matched, rows[ALL].checkpoints) == (40, 80, 3)
    assert rows[ALL].warnings == ["every figure from 3 check-points (< 30), however many systems"]
    assert rows[ALL].to_json()["checkpoints"] == 3


def test_category_correlates_with_its_own_attributed_penalty():
    # A: as above (Noun penalty 2.75); B: rated, no errors (0); C: only E1 (5 over 2 segments = 2.5)
    systems = [
        outcome("A", RATED, {"Noun": 0.2, "Verb": 0.5, ALL: 0.5}),
        outcome("B", {0: RatedSegment(1, ()), 1: RatedSegment(1, ())}, {"Noun": 0.9, "Verb": 0.6, ALL: 0.6}),
        outcome("C", {0: RatedSegment(1, (E1,)), 1: RatedSegment(1, ())}, {"Noun": 0.5, "Verb": 0.7, ALL: 0.7}),
    ]
    noun = next(row for row in category_validity(systems, VIEW, pairs=2, samples=200) if row.category == "Noun")
    # x = (0.2, 0.9, 0.5), y = −penalty = (−2.75, 0, −2.5): dx = (−1/3, 11/30, −1/30), dy = (−1, 1.75, −0.75);
    # Σdxdy = 1/3 + 0.641667 + 0.025 = 1.0; Σdx² = 0.246667; Σdy² = 4.625; r = 1 / sqrt(1.140833) = 1 / 1.068098 = 0.936244
    assert noun.pearson == pytest.approx(0.936244, abs=1e-6)
    # every pair of systems is ordered alike by the score and by −penalty: tau = 1
    assert noun.kendall == pytest.approx(1.0)
    verb = next(row for row in category_validity(systems, VIEW, pairs=2, samples=200) if row.category == "Verb")
    assert verb.pearson is not None and math.isfinite(verb.pearson)


def test_marked_spans_in_the_text_without_marks():
    assert marked_spans("Jetzt <v>möchten</v> wir <v>x</v>") == ((6, 13), (18, 19))
    assert marked_spans("<v>unclosed") == ((0, 8),)
    assert marked_spans("no marks") == ()


def test_source_spans_give_a_multiword_token_to_each_of_its_words():
    sentence = parse_conllu_string(
        "# text = del banco\n1-2\tdel\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\tde\tADP\t_\t_\t3\tcase\t_\t_\n"
        "2\tel\tel\tDET\t_\t_\t3\tdet\t_\t_\n3\tbanco\tbanco\tNOUN\t_\t_\t0\troot\t_\t_\n\n"
    )[0]
    assert source_spans(sentence) == [(0, 3), (0, 3), (4, 9)]
    plain = Sentence(tokens=[Token(form="a"), Token(form="b")], text="a  b")
    assert source_spans(plain) == [(0, 1), (3, 4)]


def test_rated_segments_keep_raters_and_weighted_errors(tmp_path):
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    rows = [
        "S\td\t1\t1\tr1\tthe house\tdas <v>Haus</v>\tAccuracy/Mistranslation\tMajor\n",
        "S\td\t1\t1\tr2\tthe house\tdas Haus\tNo-error\tNo-error\n",
        "S\td\t1\t2\tr1\t<v>cats</v> sleep\tschlafen\tAccuracy/Omission\tMinor\n",
        "T\td\t1\t1\tr1\tthe house\tdas Heim\tNo-error\tNo-error\n",
    ]
    path = tmp_path / "mqm.tsv"
    path.write_text(header + "".join(rows), encoding="utf-8")
    rated = rated_segments(read_mqm(path), "S", [1, 2])
    assert rated[0].raters == 2 and [(e.severity, e.target) for e in rated[0].errors] == [("Major", ((4, 8),))]
    assert rated[1].raters == 1 and rated[1].errors[0].source == ((0, 4),) and rated[1].errors[0].kind == "Accuracy"
    assert rated_segments(read_mqm(path), "T", [1, 2]) == {0: RatedSegment(1, ())}
