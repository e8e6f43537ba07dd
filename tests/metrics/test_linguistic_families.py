"""SP, DP, CP and NE over stanza annotations, against the test vectors of the linguistic metrics spec.

The fixture (``tests/data/linguistic/linguistic_fixture.conllu``) is the spec's
§10.1: three candidate/reference pairs in hand-written UD with PTB trees in
``# constituency`` comments and BIOES ``ner=`` tags, read with stanza's own
CoNLL-U reader. Every expected value below is from the spec's §10.2–§10.4,
computed independently of this code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from stanza.utils.conll import CoNLL

from checkpoints.errors import UsageError
from checkpoints.evaluate.metrics.linguistic.cp import cp_measure
from checkpoints.evaluate.metrics.linguistic.dp import dp_measure
from checkpoints.evaluate.metrics.linguistic.elements import ParsedSentence, decode_entities
from checkpoints.evaluate.metrics.linguistic.identifiers import Identifier
from checkpoints.evaluate.metrics.linguistic.ne import ne_measure
from checkpoints.evaluate.metrics.linguistic.overlap import best_of
from checkpoints.evaluate.metrics.linguistic.sp import sp_measure

FIXTURE = Path(__file__).parent.parent / "data" / "linguistic" / "linguistic_fixture.conllu"
SEGMENTS = (("c1", "r1"), ("c2", "r2"), ("c3", "r3"))


@pytest.fixture(scope="module")
def sentences() -> dict[str, ParsedSentence]:
    document = CoNLL.conll2doc(input_file=str(FIXTURE))
    return {sentence.sent_id: ParsedSentence.from_stanza(sentence) for sentence in document.sentences}


def measure_of(name: str):  # type: ignore[no-untyped-def]
    identifier = Identifier.parse(name)
    return {
        "SP": lambda: sp_measure(identifier, "en"),
        "DP": lambda: dp_measure(identifier),
        "CP": lambda: cp_measure(identifier, "en"),
        "NE": lambda: ne_measure(identifier),
    }[identifier.family]()


def test_chunks_from_the_ud_tree(sentences: dict[str, ParsedSentence]) -> None:
    """§10.2, CHUNK-UD IOB labels."""
    expected = {
        "r1": "B-NP I-NP B-VP I-VP B-PP B-NP I-NP O",
        "c1": "B-NP I-NP B-VP B-NP I-NP O",
        "r2": "B-NP B-VP I-VP I-VP B-NP I-NP I-NP B-NP O",
        "c2": "B-NP B-NP B-VP B-NP I-NP O",
        "r3": "B-NP I-NP B-NP B-VP B-ADVP B-VP I-VP B-NP O",
        "c3": "B-NP I-NP B-VP B-ADVP B-VP B-NP O",
    }
    assert {key: " ".join(sentences[key].chunks) for key in expected} == expected


def test_entities_and_trees_come_from_stanzas_reader(sentences: dict[str, ParsedSentence]) -> None:
    assert [(e.label, e.words) for e in sentences["r2"].entities] == [("PERSON", (0,)), ("DATE", (7,))]
    assert sentences["r1"].tree is not None and sentences["r1"].tree.label == "ROOT"


# §10.3: segment scores (None: undefined, weight 0) and the system score Σnum/Σweight
VECTORS = [
    ("SP-Op(*)", (0.555556, 0.5, 0.454545), 0.503367),
    ("SP-Op(NN)", (1.0, 1.0, 1.0), 1.0),
    ("SP-Oc(NP)", (1.0, 0.8, 0.75), 0.85),
    ("SP-Oc(VP)", (0.5, 0.333333, 0.666667), 0.5),
    ("SP-Oc(*)", (0.75, 0.666667, 0.777778), 0.731481),
    ("DP-HWCM_w-1", (0.75, 0.5, 0.454545), 0.568182),
    ("DP-HWCM_w-2", (0.722222, 0.24, 0.212121), 0.391448),
    ("DP-HWCMi_w-2", (0.7, 0.066667, 0.090909), 0.285859),
    ("DP-HWCM_c-3", (0.714286, 0.619048, 0.709677), 0.681004),
    ("DP-HWCM_r-4", (0.241379, 0.619048, 0.365854), 0.40876),
    ("DP-Ol(2)", (0.714286, 0.625, 0.555556), 0.631614),
    ("DP-Or(nsubj)", (0.0, 1.0, 0.428571), 0.47619),
    ("DP-Oc(*)", (0.666667, 0.5, 0.625), 0.590909),
    ("DP-Or(*)", (0.305556, 0.574074, 0.542569), 0.474066),
    ("DP-Ol(*)", (0.710317, 0.541667, 0.477525), 0.566605),
    ("CP-STM-1", (0.73913, 0.653846, 0.575758), 0.656245),
    ("CP-STMi-2", (0.583333, 0.576923, 0.515152), 0.558469),
    ("CP-STM-3", (0.583333, 0.556962, 0.5), 0.546765),
    ("CP-STM-9", (0.360902, 0.361702, 0.335079), 0.352561),
    ("CP-Op(*)", (0.555556, 0.5, 0.454545), 0.503367),
    ("CP-Oc(NP)", (1.0, 0.8, 0.571429), 0.790476),
    ("CP-Oc(VP)", (0.333333, 0.25, 0.285714), 0.289683),
    ("CP-Oc(*)", (0.571429, 0.478261, 0.4), 0.48323),
    ("NE-Oe(PER)", (None, 1.0, None), 1.0),
    ("NE-Oe(O)", (0.75, 0.375, 0.4), 0.508333),
    ("NE-Oe(*)", (0.0, 1.0, 1.0), 0.666667),
    ("NE-Oe(**)", (0.75, 0.5, 0.454545), 0.568182),
    ("NE-Me(*)", (0.0, 1.0, 1.0), 0.666667),
]


@pytest.mark.parametrize(("name", "segments", "system"), VECTORS, ids=[v[0] for v in VECTORS])
def test_spec_vectors(sentences: dict[str, ParsedSentence], name: str, segments: tuple, system: float) -> None:
    measure = measure_of(name)
    pairs = [measure(sentences[candidate], sentences[reference]) for candidate, reference in SEGMENTS]
    got = [None if weight == 0 else num / weight for num, weight in pairs]
    for value, want in zip(got, segments, strict=True):
        assert (value is None) == (want is None)
        if want is not None:
            assert value == pytest.approx(want, abs=1e-6)
    assert sum(num for num, _ in pairs) / sum(weight for _, weight in pairs) == pytest.approx(system, abs=1e-6)


def test_hand_checked_counts(sentences: dict[str, ParsedSentence]) -> None:
    """§10.2's hand checks: SP-Op(*) seg1 5/9, DP-HWCM_w-2 seg1 13/18, CP-STM-1 seg1 17/23."""
    c1, r1 = sentences["c1"], sentences["r1"]
    assert measure_of("SP-Op(*)")(c1, r1) == pytest.approx((5 / 9, 1.0))
    assert measure_of("DP-HWCM_w-2")(c1, r1) == pytest.approx((13 / 18, 1.0))
    assert measure_of("CP-STM-1")(c1, r1) == pytest.approx((17 / 23, 1.0))


def test_several_references_keep_the_best_pair(sentences: dict[str, ParsedSentence]) -> None:
    """§10.4: seg2 against r2 and r2b."""
    c2 = sentences["c2"]
    for name, first, best in [("SP-Oc(*)", 0.666667, 1.0), ("NE-Me(*)", 1.0, 1.0)]:
        measure = measure_of(name)
        pairs = [measure(c2, sentences["r2"]), measure(c2, sentences["r2b"])]
        assert pairs[0][0] / pairs[0][1] == pytest.approx(first, abs=1e-6)
        chosen = best_of(pairs)
        assert chosen[0] / chosen[1] == pytest.approx(best, abs=1e-6)
    dp = measure_of("DP-Oc(*)")
    assert best_of([dp(c2, sentences["r2"]), dp(c2, sentences["r2b"])]) == pytest.approx((5.0, 5.0))  # 1.0, weight 5


def test_a_reference_against_itself_scores_one(sentences: dict[str, ParsedSentence]) -> None:
    r3 = sentences["r3"]
    for name in ("SP-Op(*)", "SP-Oc(*)", "DP-HWCM_r-4", "DP-Or(*)", "DP-Ol(*)", "CP-STM-9", "CP-Oc(*)", "NE-Oe(**)"):
        num, weight = measure_of(name)(r3, r3)
        assert num / weight == pytest.approx(1.0), name


def test_best_of_prefers_a_defined_pair_and_the_first_of_equals() -> None:
    assert best_of([(0.0, 0.0), (0.2, 1.0)]) == (0.2, 1.0)
    assert best_of([(0.5, 1.0), (1.0, 2.0)]) == (0.5, 1.0)
    assert best_of([]) == (0.0, 0.0)


def test_bioes_decoding() -> None:
    entities = decode_entities(["B-ORG", "E-ORG", "O", "S-PER", "I-LOC", "I-LOC", "B-DATE"])
    assert [(e.label, e.words) for e in entities] == [
        ("ORG", (0, 1)), ("PER", (3,)), ("LOC", (4, 5)), ("DATE", (6,))]  # the last entity is kept


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("SP-Ox(*)", "SP-Ox(*): unknown SP metric"),
        ("DP-HWCM_x-2", "DP-HWCM_x-2: unknown DP metric"),
        ("DP-HWCM_w-5", "DP-HWCM_w-5: unknown DP metric"),
        ("DP-Ol(10)", "DP-Ol(10): DP-Ol takes a level from 1 to 9, or *"),
        ("CP-STM-10", "CP-STM-10: unknown CP metric"),
        ("NE-Me(**)", "NE-Me(**): unknown NE metric"),
        ("SP-Op(NN", "SP-Op(NN: a type goes in parentheses at the end"),
    ],
)
def test_unknown_identifiers_are_one_line(name: str, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        measure_of(name)
    assert str(caught.value).startswith(message)


def test_a_type_may_hold_parentheses() -> None:
    assert Identifier.parse("SP-Op(()").kind == "("
    assert Identifier.parse("SP-Op())").kind == ")"
    assert Identifier.parse("DP-Or(nsubj:pass)").kind == "nsubj:pass"


def test_the_projects_reader_and_stanzas_give_the_same_sentences(sentences: dict[str, ParsedSentence]) -> None:
    """Given CoNLL-U is read by the project's reader (file:line errors); stanza's reader agrees."""
    from checkpoints.io.conllu import read_conllu

    ours = {sentence.sent_id: ParsedSentence.from_model(sentence) for sentence in read_conllu(FIXTURE, "en")}
    assert set(ours) == set(sentences)
    for key, parsed in ours.items():
        assert parsed.words == sentences[key].words, key
        assert parsed.tree == sentences[key].tree, key


# -- SR over UD-derived proto-roles (spec §6, vectors §10.2–§10.4) ------------------------


def test_propositions_from_the_ud_tree(sentences: dict[str, ParsedSentence]) -> None:
    """§10.2: control of passive agents, negation, time, modals, relative and reduced relative clauses."""
    from checkpoints.evaluate.metrics.linguistic.sr import propositions

    def described(key: str) -> list[tuple[str, list[tuple[str, str]]]]:
        sentence = sentences[key]
        return [(p.key, [(role, " ".join(sentence.word(i).form for i in span)) for role, span in p.arguments])
                for p in propositions(sentence, "en")]

    assert described("r1") == [("chase", [("A1", "The cat"), ("A0", "by the dog")])]
    assert described("c1") == [("chase", [("A0", "The dog"), ("A1", "the cat")])]
    assert described("r2") == [("buy", [("A0", "John"), ("AM-NEG", "not"), ("A1", "a new car"), ("AM-TMP", "yesterday")])]
    assert described("c2") == [("buy", [("AM-TMP", "Yesterday"), ("A0", "John"), ("A1", "a car")])]
    assert described("r3") == [
        ("live", [("A0", "who"), ("AM-ADV", "here"), ("A0", "The man")]),
        ("speak", [("A0", "The man who lives here"), ("AM-MOD", "can"), ("A1", "French")]),
    ]
    assert described("c3") == [
        ("live", [("AM-ADV", "here"), ("A0", "The man")]),
        ("speak", [("A0", "The man living here"), ("A1", "French")]),
    ]


SR_VECTORS = [
    ("SR-Nv", (1.0, 1.0, 1.0), 1.0),
    ("SR-Or", (0.8, 0.666667, 0.727273), 0.731313),
    ("SR-Or(A0)", (0.666667, 1.0, 0.555556), 0.740741),
    ("SR-Or(*)", (0.8, 0.666667, 0.583333), 0.683333),
    ("SR-Mr(*)", (0.333333, 0.4, 0.428571), 0.387302),
    ("SR-Orv(*)", (0.8, 0.666667, 0.583333), 0.683333),
    ("SR-Mrv(*)", (0.333333, 0.4, 0.428571), 0.387302),
    ("SR-Pr(*)", (1.0, 1.0, 0.875), 0.958333),
    ("SR-Rr(*)", (0.8, 0.8, 0.7), 0.766667),
    ("SR-Fr(*)", (0.888889, 0.888889, 0.777778), 0.851852),
    ("SR-Ol", (0.75, 0.5, 0.454545), 0.568182),
]


@pytest.mark.parametrize(("name", "segments", "system"), SR_VECTORS, ids=[v[0] for v in SR_VECTORS])
def test_sr_spec_vectors(sentences: dict[str, ParsedSentence], name: str, segments: tuple, system: float) -> None:
    from checkpoints.evaluate.metrics.linguistic.sr import sr_measure

    measure = sr_measure(Identifier.parse(name), "en")
    pairs = [measure(sentences[candidate], sentences[reference]) for candidate, reference in SEGMENTS]
    assert [num / weight for num, weight in pairs] == pytest.approx(list(segments), abs=1e-6)
    assert sum(num for num, _ in pairs) / sum(weight for _, weight in pairs) == pytest.approx(system, abs=1e-6)


def test_sr_several_references_and_undefined_segments(sentences: dict[str, ParsedSentence]) -> None:
    """§10.4: seg2 against r2 and r2b gives 1.0 for SR-Or(*) and SR-Mr(*); a side without any
    predicate-argument structure leaves the segment out (weight 0), as do roles never produced."""
    from checkpoints.evaluate.metrics.linguistic.sr import sr_measure

    c2 = sentences["c2"]
    for name in ("SR-Or(*)", "SR-Mr(*)"):
        measure = sr_measure(Identifier.parse(name), "en")
        assert best_of([measure(c2, sentences["r2"]), measure(c2, sentences["r2b"])]) == pytest.approx((1.0, 1.0))
    nothing = ParsedSentence(())
    assert sr_measure(Identifier.parse("SR-Or(*)"), "en")(nothing, sentences["r1"]) == (0.0, 0.0)
    assert sr_measure(Identifier.parse("SR-Or(AM-DIR)"), "en")(c2, sentences["r2"]) == (0.0, 0.0)
    with pytest.raises(UsageError, match=r"^SR-Ora\(\*\): the alignment-based SR measures"):
        sr_measure(Identifier.parse("SR-Ora(*)"), "en")


# -- ESA (spec §8, vectors §10.5) --------------------------------------------------------

ESA_CORPUS = ["cats and dogs are pets . a cat chases a dog .", "the dog barks at the cat .",
              "cars and trucks drive on roads .", "a new car costs money ."]


@pytest.mark.parametrize(
    ("candidate", "reference", "e_candidate", "e_reference", "similarity"),
    [
        ("the cat barks", "a dog chases cats", [0.136287, 1.761213, 0, 0], [1.457337, 0.149603, 0, 0.168113], 0.177398),
        ("a new car", "the cat", [0.230754, 0, 0, 1.513016], [0.136287, 1.162801, 0, 0], 0.017551),
        ("cars and trucks", "a new car", [0.136287, 0, 1.361314, 0], [0.230754, 0, 0, 1.513016], 0.015019),
        (". .", "the cat", [0, 0, 0, 0], [0.136287, 1.162801, 0, 0], 0.0),
    ],
)
def test_esa_vectors(candidate: str, reference: str, e_candidate: list, e_reference: list, similarity: float) -> None:
    from checkpoints.evaluate.metrics.linguistic.esa import ConceptSpace

    space = ConceptSpace.from_documents([document.split() for document in ESA_CORPUS])
    assert space.interpret(candidate.split()) == pytest.approx(e_candidate, abs=1e-6)
    assert space.interpret(reference.split()) == pytest.approx(e_reference, abs=1e-6)
    assert space.similarity(candidate.split(), reference.split()) == pytest.approx(similarity, abs=1e-6)


def test_esa_on_the_fixture_segments(sentences: dict[str, ParsedSentence]) -> None:
    """§10.5: seg1 1.0, seg2 0.993213, seg3 1.0 with the 4-document corpus (lower-cased word forms)."""
    from checkpoints.evaluate.metrics.linguistic.esa import ConceptSpace

    space = ConceptSpace.from_documents([document.split() for document in ESA_CORPUS])
    scores = [space.similarity([w.form for w in sentences[c].words], [w.form for w in sentences[r].words])
              for c, r in SEGMENTS]
    assert scores == pytest.approx([1.0, 0.993213, 1.0], abs=1e-6)


def test_esa_concept_corpus_files(tmp_path: Path) -> None:
    from checkpoints.errors import InputError
    from checkpoints.evaluate.metrics.linguistic.esa import read_concept_corpus

    folder = tmp_path / "concepts"
    folder.mkdir()
    for number, text in enumerate(ESA_CORPUS):
        (folder / f"{number}.txt").write_text(text, encoding="utf-8")
    assert read_concept_corpus(folder)[1] == ESA_CORPUS[1].split()
    conllu = tmp_path / "docs.conllu"
    conllu.write_text("# newdoc id = a\n# text = A b\n1\tA\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n"
                      "# text = c\n1\tc\tc\tX\t_\t_\t0\troot\t_\t_\n\n"
                      "# newdoc id = b\n# text = d\n1\td\td\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    assert read_concept_corpus(conllu) == [["A", "b", "c"], ["d"]]
    empty = tmp_path / "empty"
    empty.mkdir()
    for path, message in ((empty, "no files"), (tmp_path / "none", "no such file or folder")):
        with pytest.raises(InputError, match=message):
            read_concept_corpus(path)


def test_sr_robustness_arithmetic() -> None:
    """§10.4: x = [0.8, 0.6, not OK], Ol = [0.7, 0.5, 0.4] → avg 0.7; _b [0.8, 0.6, 0.28], system 0.7,
    a document holding all three 0.7; _i [0.75, 0.55, 0.2], system 0.65."""
    from checkpoints.evaluate.metrics.linguistic.sr_robust import robust_rows, robust_score

    base = [(0.8, 1.0), (0.6, 1.0), (0.0, 0.0)]
    backoff = robust_rows(base, [0.7, 0.5, 0.4], "b")
    assert robust_score(backoff) == pytest.approx([0.8, 0.6, 0.28])
    assert robust_score(backoff.sum(axis=0)) == pytest.approx(0.7)
    interpolated = robust_rows(base, [0.7, 0.5, 0.4], "i")
    assert robust_score(interpolated) == pytest.approx([0.75, 0.55, 0.2])
    assert robust_score(interpolated.sum(axis=0)) == pytest.approx(0.65)
    assert robust_score(robust_rows([(0.0, 0.0)], [0.4], "b")) == pytest.approx([0.0])  # no OK segment: avg 0


def test_robust_suffixes_parse() -> None:
    assert Identifier.parse("SR-Or(*)_b") == Identifier("SR", "Or", "*", "b")
    assert str(Identifier.parse("SR-Orv_i")) == "SR-Orv_i"
    from checkpoints.evaluate.metrics.linguistic.metric import LinguisticMetric

    with pytest.raises(UsageError, match=r"^SR-Nv_b: _b and _i go with"):
        LinguisticMetric("SR-Nv_b")


def test_english_coarse_tag_classes(sentences: dict[str, ParsedSentence]) -> None:
    """SP-Op(N) pools NN, NNS, NNP, NNPS tag by tag (Σ hits / Σ totals), SP-Op(V) VB* and MD
    (lemmas, hand-counted on the fixture)."""
    nouns, verbs, wh = measure_of("SP-Op(N)"), measure_of("SP-Op(V)"), measure_of("SP-Op(W)")
    assert nouns(sentences["c3"], sentences["r3"]) == (1.0, 1.0)  # NN {man}, NNP {french} on both sides
    assert verbs(sentences["c1"], sentences["r1"]) == (0.0, 1.0)  # VBD {chase}/{be} 0 of 2, VBN {}/{chase} 0 of 1
    assert wh(sentences["c3"], sentences["r3"]) == (0.0, 1.0)  # WP {}/{who}: defined, no hit
    assert wh(sentences["c1"], sentences["r1"]) == (0.0, 0.0)  # no W tag on either side: undefined
    with pytest.raises(UsageError, match=r"SP-Op\(N\): J, N, P, R, V, W and F are Asiya's classes of English"):
        sp_measure(Identifier.parse("SP-Op(N)"), "de")


def test_families_are_scored_apart_in_workers() -> None:
    """``meta --jobs`` gives each family its own worker (they share parses, not structures)."""
    from checkpoints.evaluate.metrics.registry import get_metric

    groups = {name: get_metric(name).work_group for name in ("SP-Op(*)", "SP-Oc(*)", "DP-HWCM_r-4", "SR-Or(*)", "BLEU")}
    assert groups["SP-Op(*)"] == groups["SP-Oc(*)"] == "linguistic:SP"
    assert len({groups["SP-Op(*)"], groups["DP-HWCM_r-4"], groups["SR-Or(*)"], groups["BLEU"]}) == 4
