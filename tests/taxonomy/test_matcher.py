"""Pattern semantics on small hand-built trees: relations, absent and optional nodes, check-point spans,
word lists (single and multi-token, user lists), reduplication and lexicon filters."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.model import Sentence, SentencePair, Token
from checkpoints.taxonomy import Found, load_taxonomy

HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n<taxonomy name="t" language="en" version="1">\n'


def sentence(spec: str) -> Sentence:
    """Tokens as FORM/LEMMA/UPOS/HEAD/DEPREL[/FEATS], heads 1-based as in CoNLL-U."""
    tokens = []
    for item in spec.split():
        parts = item.split("/")
        form, lemma, upos, head, deprel = parts[:5]
        feats = dict(pair.split("=") for pair in parts[5].split("|")) if len(parts) > 5 else {}
        tokens.append(Token(form=form, lemma=lemma, upos=upos, xpos=upos, feats=feats, head=int(head), deprel=deprel))
    return Sentence(tokens=tokens)


# "The old man who lives here saw the dog in the garden ."
GARDEN = sentence(
    "The/the/DET/3/det old/old/ADJ/3/amod man/man/NOUN/7/nsubj who/who/PRON/5/nsubj lives/live/VERB/3/acl:relcl "
    "here/here/ADV/5/advmod saw/see/VERB/0/root the/the/DET/9/det dog/dog/NOUN/7/obj in/in/ADP/12/case "
    "the/the/DET/12/det garden/garden/NOUN/7/obl ././PUNCT/7/punct"
)


def find(tmp_path: Path, body: str, target: Sentence, files: dict[str, str] | None = None) -> list[tuple[int, ...]]:
    for name, content in (files or {}).items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    path = tmp_path / "t.xml"
    path.write_text(
        HEADER + f'<category name="C" level="phrase"><description>d</description>{body}</category></taxonomy>\n',
        encoding="utf-8",
    )
    found = load_taxonomy(path).prepare([]).find(target)
    assert all(f.category == "C" for f in found)
    return [f.indices for f in found]


def test_head_relation_and_relation_constraint(tmp_path: Path) -> None:
    body = '<pattern><node id="v" upos="VERB"/><node id="o" head="v" deprel="obj"/><checkpoint nodes="v o"/></pattern>'
    assert find(tmp_path, body, GARDEN) == [(6, 8)]


def test_ancestor_relation(tmp_path: Path) -> None:
    # pronouns dominated by the subject "man": only the relative pronoun "who"
    body = '<pattern><node id="s" deprel="nsubj" upos="NOUN"/><node id="p" upos="PRON" ancestor="s"/><checkpoint nodes="p"/></pattern>'
    assert find(tmp_path, body, GARDEN) == [(3,)]


def test_word_order_relations(tmp_path: Path) -> None:
    before = '<pattern><node id="v" deprel="root"/><node id="d" upos="DET" before="v"/><checkpoint nodes="d"/></pattern>'
    after = '<pattern><node id="v" deprel="root"/><node id="d" upos="DET" after="v"/><checkpoint nodes="d"/></pattern>'
    assert find(tmp_path, before, GARDEN) == [(0,)]
    assert find(tmp_path, after, GARDEN) == [(7,), (10,)]


def test_node_stated_as_head_of_an_earlier_node(tmp_path: Path) -> None:
    # the head of every determiner that precedes an adjective-modified noun
    body = (
        '<pattern><node id="d" deprel="det"/><node id="n" upos="NOUN"/>'
        '<node id="a" deprel="amod" head="n"/><node id="x" head="n" deprel="det"/>'
        '<checkpoint nodes="n"/></pattern>'
    )
    assert find(tmp_path, body, GARDEN) == [(2,)]


def test_absent_child(tmp_path: Path) -> None:
    # nouns without a determiner: none here; nouns without an adjective: dog and garden
    no_det = '<pattern><node id="n" upos="NOUN"/><absent head="n" deprel="det"/><checkpoint nodes="n"/></pattern>'
    no_amod = '<pattern><node id="n" upos="NOUN"/><absent head="n" deprel="amod"/><checkpoint nodes="n"/></pattern>'
    assert find(tmp_path, no_det, GARDEN) == []
    assert find(tmp_path, no_amod, GARDEN) == [(8,), (11,)]


def test_sentence_wide_absent(tmp_path: Path) -> None:
    body = '<pattern><node id="v" deprel="root"/><absent form="?"/><checkpoint nodes="v"/></pattern>'
    assert find(tmp_path, body, GARDEN) == [(6,)]
    question = sentence("Who/who/PRON/2/nsubj came/come/VERB/0/root ?/?/PUNCT/2/punct")
    assert find(tmp_path, body, question) == []


def test_optional_node_collects_all_and_never_multiplies(tmp_path: Path) -> None:
    body = (
        '<pattern><node id="n" upos="NOUN"/><node id="d" head="n" deprel="det|amod" optional="true"/>'
        '<checkpoint nodes="n d"/></pattern>'
    )
    assert find(tmp_path, body, GARDEN) == [(0, 1, 2), (7, 8), (10, 11)]
    bare = sentence("Dogs/dog/NOUN/2/nsubj bark/bark/VERB/0/root")
    assert find(tmp_path, body, bare) == [(0,)]


def test_subtree_with_exclusion_trimming_and_limits(tmp_path: Path) -> None:
    # noun phrases without their preposition; the subject's relative clause makes it 6 words
    body = '<pattern><node id="n" upos="NOUN"/><checkpoint subtree="n" exclude-deprel="case" min-tokens="2" max-tokens="5"/></pattern>'
    assert find(tmp_path, body, GARDEN) == [(7, 8), (10, 11)]
    wide = body.replace('max-tokens="5"', 'max-tokens="6"')
    assert find(tmp_path, wide, GARDEN) == [(0, 1, 2, 3, 4, 5), (7, 8), (10, 11)]
    # the root's subtree: final punctuation trimmed, internal words kept
    root = '<pattern><node id="v" deprel="root"/><checkpoint subtree="v"/></pattern>'
    assert find(tmp_path, root, GARDEN) == [tuple(range(12))]
    kept = '<pattern><node id="v" deprel="root"/><checkpoint subtree="v" trim-punct="false"/></pattern>'
    assert find(tmp_path, kept, GARDEN) == [tuple(range(13))]


def test_exclusion_applies_to_the_root_dependents_only(tmp_path: Path) -> None:
    # "of" inside the phrase stays: only the phrase head's own case dependent is removed
    s = sentence(
        "in/in/ADP/3/case the/the/DET/3/det top/top/NOUN/0/root of/of/ADP/6/case the/the/DET/6/det hill/hill/NOUN/3/nmod"
    )
    body = '<pattern><node id="n" deprel="root"/><checkpoint subtree="n" exclude-deprel="case"/></pattern>'
    assert find(tmp_path, body, s) == [(1, 2, 3, 4, 5)]


def test_contiguous_keeps_the_run_around_the_root(tmp_path: Path) -> None:
    # "why people might vote": the verb phrase without its subject is "why * might vote"; contiguous keeps "might vote"
    s = sentence("why/why/ADV/4/advmod people/people/NOUN/4/nsubj might/might/AUX/4/aux vote/vote/VERB/0/root")
    loose = '<pattern><node id="v" upos="VERB"/><checkpoint subtree="v" exclude-deprel="nsubj"/></pattern>'
    tight = '<pattern><node id="v" upos="VERB"/><checkpoint subtree="v" exclude-deprel="nsubj" contiguous="true"/></pattern>'
    assert find(tmp_path, loose, s) == [(0, 2, 3)]
    assert find(tmp_path, tight, s) == [(2, 3)]


def test_same_span_reported_once_across_patterns_and_matches(tmp_path: Path) -> None:
    body = (
        '<pattern><node id="v" deprel="root"/><node id="d" head="v"/><checkpoint nodes="v"/></pattern>'
        '<pattern><node id="v" upos="VERB" deprel="root"/><checkpoint nodes="v"/></pattern>'
    )
    assert find(tmp_path, body, GARDEN) == [(6,)]


def test_subtype_wildcard_in_patterns(tmp_path: Path) -> None:
    s = sentence("it/it/PRON/2/nsubj:pass was/be/AUX/2/aux:pass built/build/VERB/0/root")
    body = '<pattern><node id="x" deprel="nsubj:*|aux:*"/><checkpoint nodes="x"/></pattern>'
    assert find(tmp_path, body, s) == [(0,), (1,)]


def test_found_carries_constituent_labels(tmp_path: Path) -> None:
    path = tmp_path / "t.xml"
    path.write_text(
        HEADER
        + '<category name="NP" level="phrase" constituent="NP|NML"><description>d</description>'
        + '<pattern><node id="n" upos="NOUN"/><checkpoint subtree="n" min-tokens="2" max-tokens="3"/></pattern>'
        + "</category></taxonomy>",
        encoding="utf-8",
    )
    found = load_taxonomy(path).prepare([]).find(GARDEN)
    assert found == [Found("NP", (7, 8), ("NP", "NML")), Found("NP", (9, 10, 11), ("NP", "NML"))]


# -- word lists -------------------------------------------------------------------


TERMS = "# user terms\nold man\ngarden\tNOUN=2\ndog\tVERB=1\nsee\n"


def test_user_word_list_single_and_multi_token(tmp_path: Path) -> None:
    body = '<wordlist file="terms.txt" match="lemma"/>'
    assert find(tmp_path, body, GARDEN, {"terms.txt": TERMS}) == [(1, 2), (6,), (8,), (11,)]


def test_word_list_upos_and_sense_filters(tmp_path: Path) -> None:
    # "dog" is listed as a VERB only, so a NOUN token does not qualify for min-senses
    body = '<wordlist file="terms.txt" match="lemma" upos="NOUN" min-senses="2"/>'
    assert find(tmp_path, body, GARDEN, {"terms.txt": TERMS}) == [(11,)]
    # the multi-token entry is checked on its syntactic head ("man", a NOUN)
    body = '<wordlist file="terms.txt" match="lemma" upos="NOUN"/>'
    assert find(tmp_path, body, GARDEN, {"terms.txt": TERMS}) == [(1, 2), (8,), (11,)]


def test_word_list_tags_and_case_folding(tmp_path: Path) -> None:
    s = sentence("The/the/DET/2/det Garden/Garden/PROPN/0/root")
    files = {"terms.txt": TERMS}
    assert find(tmp_path, '<wordlist file="terms.txt" match="form"/>', s, files) == []
    assert find(tmp_path, '<wordlist file="terms.txt" match="form" casefold="true"/>', s, files) == [(1,)]
    assert find(tmp_path, '<wordlist file="terms.txt" match="form" casefold="true" tags="VERB"/>', s, files) == []


def test_word_list_match_lemma_or_form(tmp_path: Path) -> None:
    s = sentence("seen/see/VERB/0/root gardens/garden/NOUN/1/obj")
    files = {"forms.txt": "seen\n"}
    assert find(tmp_path, '<wordlist file="forms.txt" match="lemma"/>', s, files) == []
    assert find(tmp_path, '<wordlist file="forms.txt" match="lemma|form"/>', s, files) == [(0,)]


def test_chinese_word_list_joins_tokens_without_spaces_and_tries_both_scripts(tmp_path: Path) -> None:
    files = {"idioms.txt": "一心一意\ti\n无家可归\ti\n"}  # simplified entries only
    split = sentence("他們/他/PRON/4/nsubj 一心/一心/ADV/4/advmod 一意/一意/ADV/2/flat 工作/工作/VERB/0/root")
    body = '<wordlist file="idioms.txt" match="form" convert="t2s" join="" tags="i"/>'
    assert find(tmp_path, body, split, files) == [(1, 2)]
    traditional = sentence("無家可歸/無家可歸/VERB/0/root")
    assert find(tmp_path, body, traditional, files) == [(0,)]  # found after t2s conversion
    without_conversion = '<wordlist file="idioms.txt" match="form" join="" tags="i"/>'
    assert find(tmp_path, without_conversion, traditional, files) == []
    # a key is also tried as written: a list in traditional script matches traditional text despite t2s
    assert find(tmp_path, body, traditional, {"idioms.txt": "無家可歸\ti\n"}) == [(0,)]


def test_shipped_idiom_list_holds_both_scripts(tmp_path: Path) -> None:
    body = '<wordlist file="idioms-zh.txt" match="form" join="" tags="i"/>'
    assert find(tmp_path, body, sentence("成群/成群/ADV/2/advmod 結隊/結隊/VERB/0/root")) == [(0, 1)]
    assert find(tmp_path, body, sentence("成群结队/成群结队/VERB/0/root")) == [(0,)]


def test_word_list_head_constraints_and_sense_tag(tmp_path: Path) -> None:
    """min-senses reads the tag named by sense-tag; xpos, deprel and lemma constrain the span's head."""
    files = {"senses.txt": "打\tsenses=18\n個\tsenses=5\n說\tsenses=7\n"}
    s = Sentence(
        tokens=[
            Token(form="他", lemma="他", upos="PRON", xpos="PRP", head=2, deprel="nsubj"),
            Token(form="打", lemma="打", upos="VERB", xpos="VV", head=0, deprel="root"),
            Token(form="個", lemma="個", upos="NOUN", xpos="NNB", head=4, deprel="clf"),
            Token(form="說", lemma="說", upos="VERB", xpos="VV", head=2, deprel="ccomp"),
        ]
    )
    body = '<wordlist file="senses.txt" match="form" join="" min-senses="{n}" sense-tag="senses" {extra}/>'
    assert find(tmp_path, body.format(n=5, extra=""), s, files) == [(1,), (2,), (3,)]
    assert find(tmp_path, body.format(n=8, extra=""), s, files) == [(1,)]
    assert find(tmp_path, body.format(n=5, extra='xpos="!NNB"'), s, files) == [(1,), (3,)]
    assert find(tmp_path, body.format(n=5, extra='deprel="!clf|root"'), s, files) == [(3,)]
    assert find(tmp_path, body.format(n=5, extra='lemma="!打|說"'), s, files) == [(2,)]
    # without sense-tag the count is read from the tag named after the head's UPOS, which this list lacks
    assert find(tmp_path, '<wordlist file="senses.txt" match="form" min-senses="5"/>', s, files) == []


# -- lexicon filters and reduplication ----------------------------------------------


def test_listed_and_unlisted_filters_with_a_user_file(tmp_path: Path) -> None:
    files = {"stop.txt": "the\nwho\n"}
    listed = '<pattern><node id="w"/><listed node="w" file="stop.txt" match="lemma"/><checkpoint nodes="w"/></pattern>'
    unlisted = '<pattern><node id="w" upos="DET|PRON"/><unlisted node="w" file="stop.txt" match="lemma"/><checkpoint nodes="w"/></pattern>'
    assert find(tmp_path, listed, GARDEN, files) == [(0,), (3,), (7,), (10,)]
    assert find(tmp_path, unlisted, GARDEN, files) == []


def test_unlisted_in_jieba_dictionary(tmp_path: Path) -> None:
    s = sentence("谷歌/谷歌/PROPN/2/nsubj 發布/發布/VERB/0/root 手機/手機/NOUN/2/obj")
    body = '<pattern><node id="w"/><unlisted node="w" source="jieba" convert="t2s"/><checkpoint nodes="w"/></pattern>'
    assert find(tmp_path, body, s) == [(0,)]


def test_unlisted_in_cedict_knows_both_scripts(tmp_path: Path) -> None:
    # 谷歌 (Google) is a CC-CEDICT headword; 返現 (cash back) is not, in either script
    s = sentence("谷歌/谷歌/PROPN/2/nsubj 提供/提供/VERB/0/root 返現/返現/NOUN/2/obj 返现/返现/NOUN/3/conj")
    body = '<pattern><node id="w"/><unlisted node="w" source="cedict"/><checkpoint nodes="w"/></pattern>'
    assert find(tmp_path, body, s) == [(2,), (3,)]


def test_lexicon_split_counts_two_listed_words_as_listed(tmp_path: Path) -> None:
    files = {"words.txt": "投資者\n們\n投\n資\n者\n"}
    s = sentence("投資者們/投資者們/NOUN/0/root 投資/投資/VERB/1/dep 資者/資者/NOUN/1/dep")
    unlisted = '<pattern><node id="w"/><unlisted node="w" file="words.txt" {split}/><checkpoint nodes="w"/></pattern>'
    assert find(tmp_path, unlisted.format(split=""), s, files) == [(0,), (1,), (2,)]
    # 投資者 + 們: listed once split; two-character keys (投 + 資) are below split="3" and stay unlisted
    assert find(tmp_path, unlisted.format(split='split="3"'), s, files) == [(1,), (2,)]
    assert find(tmp_path, unlisted.format(split='split="2"'), s, files) == []


def test_lexicon_tags_narrow_jieba_to_a_part_of_speech(tmp_path: Path) -> None:
    """jieba tags 積極 ad (adverbial adjective), 迅速 ad, 也 d (adverb) and 但 c (conjunction)."""
    s = sentence("積極/積極/ADV/5/advmod 也/也/ADV/5/advmod 但/但/ADV/5/advmod 迅速/迅速/ADV/5/advmod 參與/參與/VERB/0/root")
    body = '<pattern><node id="d" upos="ADV"/><listed node="d" source="jieba" convert="t2s" tags="a|ad|z"/><checkpoint nodes="d"/></pattern>'
    assert find(tmp_path, body, s) == [(0,), (3,)]
    files = {"tagged.txt": "也\tfunction\n但\tfunction\n積極\n"}
    body = '<pattern><node id="d" upos="ADV"/><listed node="d" file="tagged.txt" tags="function"/><checkpoint nodes="d"/></pattern>'
    assert find(tmp_path, body, s, files) == [(1,), (2,)]


def test_distinct_pattern_keeps_one_match_per_lemma_combination(tmp_path: Path) -> None:
    # 發現 大陸 three times, 發現 島嶼 once: one check-point per distinct pair, the first in word order
    s = sentence(
        "他/他/PRON/2/nsubj 發現/發現/VERB/0/root 大陸/大陸/NOUN/2/obj 發現/發現/VERB/2/conj 大陸/大陸/NOUN/4/obj "
        "發現/發現/VERB/2/conj 島嶼/島嶼/NOUN/6/obj 發現/發現/VERB/2/conj 大陸/大陸/NOUN/8/obj"
    )
    pattern = '<pattern{distinct}><node id="v" upos="VERB"/><node id="o" head="v" deprel="obj"/><checkpoint nodes="v o"/></pattern>'
    assert find(tmp_path, pattern.format(distinct=""), s) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert find(tmp_path, pattern.format(distinct=' distinct="lemma"'), s) == [(1, 2), (5, 6)]


def test_distinct_pattern_counts_a_pair_once_per_sentence_for_association(tmp_path: Path) -> None:
    """Three sentences repeating one pair three times give 3 observations, not 9."""
    s = sentence("他/他/PRON/2/nsubj 發現/發現/VERB/0/root 大陸/大陸/NOUN/2/obj 發現/發現/VERB/2/conj 大陸/大陸/NOUN/4/obj")
    path = tmp_path / "t.xml"
    body = (
        '<pattern{distinct}><node id="v" upos="VERB"/><node id="o" head="v" deprel="obj"/>'
        '<association nodes="v o" min-count="1" min-score="0"/><checkpoint nodes="v o"/></pattern>'
    )
    for distinct, observations in (("", 6), (' distinct="lemma"', 3)):
        path.write_text(
            HEADER + f'<category name="C" level="word"><description>d</description>{body.format(distinct=distinct)}'
            "</category></taxonomy>\n",
            encoding="utf-8",
        )
        corpus = [SentencePair(i, s, [], []) for i in range(3)]
        assert load_taxonomy(path).prepare(corpus).resources["C"]["observations"] == observations  # type: ignore[index]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("看看/看看/VERB/0/root", [(0,)]),  # AA in one token
        ("高高興興/高高興興/ADJ/0/root", [(0,)]),  # AABB
        ("研究/研究/VERB/0/root 研究/研究/VERB/1/compound:redup", [(0, 1)]),  # ABAB over two tokens
        ("看/看/VERB/0/root 一/一/NUM/1/dep 看/看/VERB/1/dep", [(0, 1, 2)]),  # A一A over three tokens
        ("媽媽/媽媽/NOUN/0/root", []),  # reduplicated kinship noun: not VERB/ADJ/ADV
        ("。。/。。/PUNCT/0/root", []),  # not Chinese characters
        ("研究研究/研究/VERB/0/root", [(0,)]),  # ABAB in one token
    ],
)
def test_reduplication_shapes(tmp_path: Path, spec: str, expected: list[tuple[int, ...]]) -> None:
    body = '<reduplication shapes="AA AABB ABAB A一A" chars="[一-鿿]" upos="VERB|ADJ|ADV"/>'
    assert find(tmp_path, body, sentence(spec)) == expected


def test_reduplication_unlisted_in_a_lexicon(tmp_path: Path) -> None:
    """往往 ("usually") and 僅僅 ("merely") are CC-CEDICT words; 真的真的 is a repetition for emphasis."""
    s = sentence("往往/往往/ADV/3/advmod 僅僅/僅僅/ADV/3/advmod 走/走/VERB/0/root 真的/真的/ADV/5/advmod 真的/真的/ADV/3/advmod")
    body = '<reduplication shapes="AA ABAB" chars="[一-鿿]" upos="ADV"{unlisted}/>'
    assert find(tmp_path, body.format(unlisted=""), s) == [(0,), (1,), (3, 4)]
    assert find(tmp_path, body.format(unlisted=' unlisted="cedict"'), s) == [(3, 4)]
    # simplified-only lexicon: the traditional form is found after t2s conversion
    assert find(tmp_path, body.format(unlisted=' unlisted="jieba"'), s) == [(1,), (3, 4)]
    assert find(tmp_path, body.format(unlisted=' unlisted="jieba" convert="t2s"'), s) == [(3, 4)]


def test_malformed_cyclic_tree_does_not_break_matching(tmp_path: Path) -> None:
    # heads 2 -> 3 -> 2: no root, a cycle; subtrees come from networkx's search instead
    s = sentence("a/a/DET/2/det b/b/NOUN/3/nsubj c/c/VERB/2/conj")
    body = '<pattern><node id="n" upos="NOUN"/><checkpoint subtree="n"/></pattern>'
    assert find(tmp_path, body, s) == [(0, 1, 2)]
