"""References from alignments, DM (Zhou formula 1), dictionaries and the noise filter."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from checkpoints.errors import InputError
from checkpoints.extract.checkpoints import (
    SKIP_NO_ALIGNMENT,
    SKIP_NOISE,
    ExtractionOptions,
    extract_checkpoints,
)
from checkpoints.extract.dictionary import (
    Lexicon,
    dix_orientation,
    estimate_lexicon,
    read_dictionary,
    read_dix_dictionary,
    read_tsv_dictionary,
)
from checkpoints.extract.dm import dictionary_matching_degree
from checkpoints.extract.noise import constituent_spans
from checkpoints.io.conllu import parse_conllu_string
from checkpoints.model import Alignment, Level, ReferenceMode, Sentence, SentencePair, Token

SOURCE = """# text = They opposed the building of reserve funds .
# constituency = (ROOT (S (NP (PRP They)) (VP (VBD opposed) (NP (NP (DT the) (NN building)) (PP (IN of) (NP (NN reserve) (NNS funds))))) (. .)))
1\tThey\tthey\tPRON\tPRP\t_\t2\tnsubj\t_\t_
2\topposed\toppose\tVERB\tVBD\t_\t0\troot\t_\t_
3\tthe\tthe\tDET\tDT\t_\t4\tdet\t_\t_
4\tbuilding\tbuilding\tNOUN\tNN\t_\t2\tobj\t_\t_
5\tof\tof\tADP\tIN\t_\t7\tcase\t_\t_
6\treserve\treserve\tNOUN\tNN\t_\t7\tcompound\t_\t_
7\tfunds\tfund\tNOUN\tNNS\t_\t4\tnmod\t_\t_
8\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_
"""

# Zhou Table 3's pair, English as the source: 他们 反对 建立 储备金 。
REFERENCE = Sentence([Token(form=f, lemma=f) for f in ["他们", "反对", "建立", "储备金", "。"]], language="zh")
LINKS = Alignment.from_pairs([(0, 0), (1, 1), (3, 2), (5, 3), (6, 3), (7, 4)])


@dataclass(frozen=True)
class Found:
    category: str
    indices: tuple[int, ...]
    constituent_labels: tuple[str, ...] = ()
    reference: ReferenceMode = ReferenceMode.ALIGNED


class FixedFinder:
    """Reports the same check-points for every sentence (the taxonomy is tested on its own)."""

    def __init__(self, found: list[Found]) -> None:
        self.found = found

    def find(self, sentence: object) -> list[Found]:
        return self.found


def pair() -> SentencePair:
    (source,) = parse_conllu_string(SOURCE, "en")
    return SentencePair(1, source, [REFERENCE], [LINKS])


LEVELS = {"Pronoun": Level.WORD, "Noun phrase": Level.PHRASE, "Preposition phrase": Level.PHRASE,
          "Subject-verb": Level.PHRASE, "Attribute clause": Level.SENTENCE, "Modal verb": Level.WORD}


def test_references_follow_the_alignment_with_gaps_and_sentence_level_takes_all() -> None:
    lexicon = Lexicon({"they": {"他们"}, "oppose": {"反对"}, "building": {"建筑", "大楼"}, "reserve": {"储备"}})
    finder = FixedFinder([
        Found("Pronoun", (0,)),
        Found("Noun phrase", (2, 3, 4, 5, 6), ("NP",)),
        Found("Subject-verb", (0, 3)),
        Found("Attribute clause", (4, 5, 6), reference=ReferenceMode.SENTENCE),
        Found("Modal verb", (2,)),
    ])
    checkpoints, summary = extract_checkpoints([pair()], finder, LEVELS, lexicon, ExtractionOptions(noise_filter=True))
    by_category = {c.category: c for c in checkpoints}
    assert by_category["Pronoun"].references[0].tokens == ["他们"]
    assert by_category["Pronoun"].references[0].dm == 1.0
    noun_phrase = by_category["Noun phrase"].references[0]
    assert noun_phrase.tokens == ["建立", "储备金"]
    assert noun_phrase.target_indices == [2, 3]
    # Dic = {建筑, 大楼, 储备}: neither 建立 nor 储备金 is in it → 0/2 → floor 0.1
    assert noun_phrase.dm == 0.1
    # They … building → 他们 * 建立 (a gap over 反对)
    assert by_category["Subject-verb"].references[0].tokens == ["他们", "*", "建立"]
    sentence_level = by_category["Attribute clause"].references[0]
    assert sentence_level.tokens == ["他们", "反对", "建立", "储备金", "。"]
    assert (sentence_level.dm, sentence_level.from_alignment) == (1.0, False)
    # "the" (index 2) is aligned to nothing: not stored, counted
    assert "Modal verb" not in by_category
    assert summary.skipped[SKIP_NO_ALIGNMENT]["Modal verb"] == 1
    assert [c.id for c in checkpoints] == [1, 2, 3, 4]
    assert summary.sentences_with_trees == 1


def test_noise_filter_keeps_phrases_the_constituency_tree_agrees_with() -> None:
    finder = FixedFinder([
        Found("Noun phrase", (2, 3, 4, 5, 6), ("NP",)),     # (NP (NP the building) (PP ...)) spans 2..6
        Found("Preposition phrase", (4, 5, 6), ("NP",)),    # the tree has PP over 4..6, not NP
        Found("Noun phrase", (3, 4), ("NP",)),              # no constituent spans "building of"
        Found("Subject-verb", (0, 1), ()),                  # declares no labels: never filtered
    ])
    checkpoints, summary = extract_checkpoints([pair()], finder, LEVELS, Lexicon(), ExtractionOptions(noise_filter=True))
    assert [(c.category, c.source_indices) for c in checkpoints] == [
        ("Noun phrase", [2, 3, 4, 5, 6]), ("Subject-verb", [0, 1])]
    assert summary.skipped[SKIP_NOISE] == {"Preposition phrase": 1, "Noun phrase": 1}
    unfiltered, summary = extract_checkpoints([pair()], finder, LEVELS, Lexicon(), ExtractionOptions(noise_filter=False))
    assert len(unfiltered) == 4
    assert summary.sentences_with_trees == 0


def test_constituent_spans_and_unusable_trees() -> None:
    (source,) = parse_conllu_string(SOURCE, "en")
    spans = constituent_spans(source)
    assert spans is not None
    assert spans.spans[(0, 7)] == frozenset({"S", "ROOT"})
    assert spans.spans[(4, 6)] == frozenset({"PP"})
    assert (0, 0) in spans.spans  # (NP (PRP They)) is a phrase over one word
    assert (1, 1) not in spans.spans  # a preterminal alone is not a phrase
    source.constituency = "(ROOT (S (NP (PRP They)) (VP (VBD opposed))))"
    assert constituent_spans(source) is None  # 2 leaves for 8 words
    source.constituency = "(ROOT (S"
    assert constituent_spans(source) is None


def test_dm_formula_1_counts_common_words_as_a_multiset() -> None:
    source = [Token(form="the", lemma="the"), Token(form="houses", lemma="house")]
    lexicon = Lexicon({"the": {"la", "el"}, "house": {"casa"}})
    reference = [Token(form=f, lemma=lem) for f, lem in [("las", "el"), ("casas", "casa"), ("grandes", "grande")]]
    # las: lemma el ∈ Dic; casas: lemma casa ∈ Dic; grandes: no → 2/3
    assert dictionary_matching_degree(source, reference, lexicon) == pytest.approx(2 / 3)
    # a Dic word counts once per source word that gives it: one "la" in Dic, two in the reference
    twice = [Token(form="la"), Token(form="la")]
    assert dictionary_matching_degree(source, twice, lexicon) == 0.5
    assert dictionary_matching_degree(source, [Token(form="xyz")], lexicon) == 0.1
    assert dictionary_matching_degree(source, [], lexicon) == 0.1


def test_tsv_dictionary(tmp_path: Path) -> None:
    path = tmp_path / "en-es.tsv"
    path.write_text("# comment\nhouse\tcasa\nHouse\thogar\n\nred\trojo\n", encoding="utf-8")
    lexicon = read_tsv_dictionary(path)
    assert lexicon.entries == {"house": {"casa", "hogar"}, "red": {"rojo"}}
    assert lexicon.describe() == "tsv:en-es.tsv"
    bad = tmp_path / "bad.tsv"
    bad.write_text("house\tcasa\nred rojo\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_tsv_dictionary(bad)
    assert str(caught.value) == f"{bad}:2: expected 'source<TAB>target'"
    empty = tmp_path / "empty.tsv"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(InputError, match="the dictionary has no entries"):
        read_tsv_dictionary(empty)


DIX = """<?xml version="1.0" encoding="UTF-8"?>
<dictionary>
  <sdefs><sdef n="n"/><sdef n="adj"/></sdefs>
  <section id="main" type="standard">
    <e><p><l>house<s n="n"/></l><r>casa<s n="n"/></r></p></e>
    <e r="LR"><p><l>home<s n="n"/></l><r>casa<s n="n"/></r></p></e>
    <e r="RL"><p><l>household<s n="n"/></l><r>casa<s n="n"/></r></p></e>
    <e><p><l>ice<b/>cream<s n="n"/></l><r>helado<s n="n"/></r></p></e>
    <e><i>Madrid<s n="np"/></i></e>
  </section>
</dictionary>
"""


def test_apertium_dix_in_both_directions(tmp_path: Path) -> None:
    path = tmp_path / "apertium-eng-spa.eng-spa.dix"
    path.write_text(DIX, encoding="utf-8")
    assert dix_orientation(path, "en", "es") is True
    assert dix_orientation(path, "es", "en") is False
    forward = read_dix_dictionary(path, "en", "es")
    assert forward.entries == {"house": {"casa"}, "home": {"casa"}, "ice cream": {"helado"}, "madrid": {"madrid"}}
    backward = read_dictionary(path, "es", "en")
    assert backward.entries == {"casa": {"house", "household"}, "helado": {"ice cream"}, "madrid": {"madrid"}}
    unnamed = tmp_path / "words.dix"
    unnamed.write_text(DIX, encoding="utf-8")
    assert dix_orientation(unnamed, "en", "es") is None
    # orientation by coverage of the corpus's source lemmas
    assert read_dix_dictionary(unnamed, "es", "en", ["casa", "helado"]).entries == backward.entries
    broken = tmp_path / "broken.dix"
    broken.write_text("<dictionary>\n<section>\n</dictionary>\n", encoding="utf-8")
    with pytest.raises(InputError, match=rf"{broken}:3: not well-formed XML"):
        read_dix_dictionary(broken, "en", "es")
    other = tmp_path / "other.dix"
    other.write_text("<lexicon/>", encoding="utf-8")
    with pytest.raises(InputError, match=r"expected an Apertium <dictionary>, found <lexicon>"):
        read_dix_dictionary(other, "en", "es")


def test_dix_with_entities_is_not_expanded(tmp_path: Path) -> None:
    path = tmp_path / "evil.dix"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        "<dictionary><section><e><p><l>a&x;</l><r>b</r></p></e></section></dictionary>\n",
        encoding="utf-8",
    )
    lexicon = read_dix_dictionary(path, "en", "es")
    assert all("root" not in word for word in lexicon.entries)


def test_corpus_lexicon_keeps_recurring_links_only() -> None:
    def sentence(words: list[str]) -> Sentence:
        return Sentence([Token(form=w, lemma=w.lower()) for w in words])

    pairs = [
        SentencePair(i, sentence(["red", "car"]), [sentence(["coche", "rojo"])], [Alignment.from_pairs([(0, 1), (1, 0)])])
        for i in range(3)
    ]
    pairs.append(SentencePair(9, sentence(["red", "car"]), [sentence(["coche", "rojo"])], [Alignment.from_pairs([(0, 0)])]))
    lexicon = estimate_lexicon(pairs)
    # red→rojo 3 times (kept), red→coche once (dropped: below the minimum count of 2)
    assert lexicon.entries == {"red": {"rojo"}, "car": {"coche"}}
    assert lexicon.kind == "corpus-alignments"
