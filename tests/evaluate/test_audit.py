"""The suite audit (:mod:`checkpoints.evaluate.audit`): exact figures on a hand-made suite, the
substitution on real Spanish contractions, and the audit of the real en→es PUD suite."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from checkpoints.evaluate.audit import (
    CLASSES,
    MIN_SENSITIVITY,
    audit_suite,
    replacement_pools,
    substituted_text,
)
from checkpoints.io.conllu import read_conllu
from checkpoints.model import SuiteData
from checkpoints.service.build import BuildRequest, build_suite

ENGLISH = """\
# text = The cat sleeps.
1	The	the	DET	DT	Definite=Def|PronType=Art	2	det	_	_
2	cat	cat	NOUN	NN	Number=Sing	3	nsubj	_	_
3	sleeps	sleep	VERB	VBZ	Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin	0	root	_	SpaceAfter=No
4	.	.	PUNCT	.	_	3	punct	_	_

# text = The dog eats.
1	The	the	DET	DT	Definite=Def|PronType=Art	2	det	_	_
2	dog	dog	NOUN	NN	Number=Sing	3	nsubj	_	_
3	eats	eat	VERB	VBZ	Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin	0	root	_	SpaceAfter=No
4	.	.	PUNCT	.	_	3	punct	_	_

"""

SPANISH = """\
# text = El gato duerme.
1	El	el	DET	_	_	2	det	_	_
2	gato	gato	NOUN	_	_	3	nsubj	_	_
3	duerme	dormir	VERB	_	_	0	root	_	SpaceAfter=No
4	.	.	PUNCT	_	_	3	punct	_	_

# text = El perro come.
1	El	el	DET	_	_	2	det	_	_
2	perro	perro	NOUN	_	_	3	nsubj	_	_
3	come	comer	VERB	_	_	0	root	_	SpaceAfter=No
4	.	.	PUNCT	_	_	3	punct	_	_

"""


@pytest.fixture
def small_suite(tmp_path: Path) -> SuiteData:
    (tmp_path / "en.conllu").write_text(ENGLISH, encoding="utf-8")
    (tmp_path / "es.conllu").write_text(SPANISH, encoding="utf-8")
    (tmp_path / "en-es.align").write_text("0-0 1-1 2-2 3-3\n0-0 1-1 2-2 3-3\n", encoding="utf-8")
    request = BuildRequest(
        source_lang="en", target_lang="es", source_conllu=tmp_path / "en.conllu",
        reference_conllu=[tmp_path / "es.conllu"], alignments=[tmp_path / "en-es.align"], name="small",
    )
    return build_suite(request).suite


def test_hand_made_suite_gives_the_exact_figures(small_suite: SuiteData) -> None:
    """Two pairs: replacing the nouns swaps gato and perro (the only two), so no Noun reference
    matches any more (sensitivity 1) while the verbs do (no leakage); likewise for the verbs. The
    noun phrase "El gato" keeps "El" of its three n-grams (El, gato, El gato): it falls by 2/3."""
    audit = audit_suite(small_suite)
    by_name = {c.name: c for c in audit.categories}
    assert audit.reference_score == 1.0
    assert set(audit.classes) == {"NOUN", "VERB", "PRON"}  # DET counts with pronouns
    noun, verb, phrase = by_name["Noun"], by_name["Verb"], by_name["Noun phrase"]
    assert (noun.checkpoints, noun.reference_score, noun.own_class) == (2, 1.0, "NOUN")
    assert noun.sensitivity == pytest.approx(1.0) and noun.drops["VERB"] == 0.0 and noun.leakage == 0.0
    assert verb.own_class == "VERB" and verb.sensitivity == pytest.approx(1.0) and verb.drops["NOUN"] == 0.0
    assert phrase.drops["NOUN"] == pytest.approx(2 / 3)
    # "El" is the only determiner: nothing to replace it with, nothing falls
    assert phrase.drops["PRON"] == 0.0
    assert noun.gapped == 0.0 and noun.sentence_references == 0.0
    # no dictionary: a corpus lexicon that has seen each noun once confirms none (DM floor 0.1)
    assert noun.mean_dm == pytest.approx(0.1)
    assert audit.low_sensitivity() == []  # under 30 check-points nothing is judged
    data = audit.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["categories"][0]["category"] == "Noun" and data["low_sensitivity"] == []


def test_the_audit_is_reproducible_and_its_seed_matters(small_suite: SuiteData) -> None:
    assert audit_suite(small_suite, seed=3).to_json() == audit_suite(small_suite, seed=3).to_json()
    assert audit_suite(small_suite, seed=3).to_json()["seed"] == 3


def test_substitution_changes_only_the_class_inside_a_contraction(demo_dir: Path) -> None:
    """Spanish pair 241 "muy cerca de la frontera" and pair 63 "policía de tráfico": replacing
    prepositions turns "del" (de + el) into "al" (a + el); replacing determiners leaves "del", as
    Spanish contracts "de" with no other article."""
    spanish = read_conllu(demo_dir / "es_pud.conllu.gz", "es")
    pools = replacement_pools(spanish)
    assert ("al", ("a", "el")) in pools.contractions[("ADP", "DET")]
    with_del = next(s for s in spanish if " del " in f" {s.text} ")
    rng = random.Random(0)
    by_adposition = substituted_text(with_del, "ADP", pools, rng)
    assert " del " not in f" {by_adposition} " and " al " in f" {by_adposition} "
    by_determiner = substituted_text(with_del, "PRON", pools, random.Random(0))
    assert by_determiner.count(" del ") == f" {with_del.text} ".count(" del ")
    # words of other classes are untouched, nouns among them
    text = substituted_text(spanish[62], "ADP", pools, random.Random(0))
    assert "policía" in text and "tráfico" in text and "Shenzhen" in text


def test_substitution_keeps_the_sentence_as_written(tmp_path: Path) -> None:
    """Glued tokens stay glued ("duerme." keeps its full stop attached)."""
    (tmp_path / "es.conllu").write_text(SPANISH, encoding="utf-8")
    sentences = read_conllu(tmp_path / "es.conllu", "es")
    pools = replacement_pools(sentences)
    assert substituted_text(sentences[0], "VERB", pools, random.Random(1)) == "El gato come."
    assert substituted_text(sentences[0], "NUM", pools, random.Random(1)) == "El gato duerme."


@pytest.mark.slow
def test_the_pud_suite_audit(demo_dir: Path) -> None:
    """The gold en→es PUD suite with the demo's alignment: every category's reference text scores 1,
    nouns fall by more than 0.9 under their own class and by less than 0.05 under any other."""
    request = BuildRequest(
        source_lang="en", target_lang="es", source_conllu=demo_dir / "en_pud.conllu.gz",
        reference_conllu=[demo_dir / "es_pud.conllu.gz"], alignments=[demo_dir / "en-es.align"],
    )
    result = build_suite(request)
    stored = result.summary["audit"]
    audit = audit_suite(result.suite)
    assert stored == audit.to_json()  # the build kept the same audit
    by_name = {c.name: c for c in audit.categories}
    assert all(c.reference_score >= 0.99 for c in audit.categories if c.checkpoints >= 30)
    noun = by_name["Noun"]
    assert noun.own_class == "NOUN" and noun.sensitivity > 0.9 and noun.leakage < 0.05
    assert by_name["Preposition"].own_class == "ADP" and by_name["Pronoun"].own_class == "PRON"
    assert set(audit.classes) == set(CLASSES)
    weak = {c.name for c in audit.low_sensitivity()}
    assert all(by_name[name].sensitivity < MIN_SENSITIVITY for name in weak)
    assert "Noun" not in weak and audit.summary_line().startswith("audit: the reference text scores 1.000")
