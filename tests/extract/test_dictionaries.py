"""Dictionary readers (FreeDict dictd, CC-CEDICT), format detection, merging, matching beyond
the dictionary and DM with those matches. The excerpts in tests/data/dictionaries are real
data (see its README); expected values were read off the excerpts by hand."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from cli.test_build import ZH_REFERENCE  # the Table 3 reference, shared with the build tests

from checkpoints.errors import InputError
from checkpoints.extract.cedict_lexicon import clean_gloss
from checkpoints.extract.dictd import decode_number
from checkpoints.extract.dictformat import DictionaryFormat, detect_format
from checkpoints.extract.dictionary import (
    Lexicon,
    dictionary_path,
    is_named_dictionary,
    pivot_legs,
    read_dictionaries,
    read_dictionary,
    wanted_keys,
)
from checkpoints.extract.dm import dictionary_matching_degree
from checkpoints.extract.freedict import parse_entry, translations_of_line
from checkpoints.extract.wordmatch import name_key, number_key, same_word
from checkpoints.model import Token

DATA = Path(__file__).parent.parent / "data" / "dictionaries"
INDEX = DATA / "freedict-eng-spa.index"
DICT_DZ = DATA / "freedict-eng-spa.dict.dz"
CEDICT = DATA / "cedict-excerpt.u8"
CEDICT_LINE_PROBLEM = "expected 'Traditional Simplified [pin1 yin1] /gloss/' (a CC-CEDICT line)"
INDEX_LINE_PROBLEM = "expected 'headword<TAB>offset<TAB>length' (a dictd index line)"


def copy_freedict(folder: Path, stem: str = "freedict-eng-spa", data_suffix: str = ".dict.dz") -> Path:
    """A copy of the FreeDict excerpt under another stem and/or data format; returns the index."""
    folder.mkdir(parents=True, exist_ok=True)
    index = folder / f"{stem}.index"
    shutil.copy(INDEX, index)
    raw = DICT_DZ.read_bytes()
    if data_suffix == ".dict":
        (folder / f"{stem}.dict").write_bytes(gzip.decompress(raw))
    elif data_suffix == ".dict.gz-plain":
        (folder / f"{stem}.dict.dz").write_bytes(gzip.compress(gzip.decompress(raw)))
    else:
        (folder / f"{stem}.dict.dz").write_bytes(raw)
    return index


# --- FreeDict -----------------------------------------------------------------------------


def test_freedict_english_to_spanish() -> None:
    lexicon = read_dictionary(INDEX, "en", "es")
    assert len(lexicon) == 24
    assert lexicon.describe() == "freedict:freedict-eng-spa.index"
    # "house /haus/ casa"; "house /haustʃɑːdʒ/ servicio" and "house /hausɔfwəːʃip/ iglesia" are
    # "house charge" and "house of worship" cut to "house": dropped (their sounds extend /haus/)
    assert lexicon.entries["house"] == {"casa"}
    assert lexicon.entries["the"] == {"el", "la", "las", "lo", "los"}  # not "LaHaya", "Holanda", ...
    assert lexicon.entries["how"] == {"cómo", "como", "a título de"}  # numbered senses
    assert lexicon.entries["about"] == {
        "en cuanto a", "por lo tocante a", "respecto de", "a eso de", "apróximadamente", "cerca de",
        "alrededor de", "en torno de"}
    assert lexicon.entries["robbed of sleep"] == {"robadas al sueño"}  # "<f>" removed
    assert lexicon.entries["mexico"] == {"méjico", "méxico"}  # headline "Mexico", lower-cased
    assert lexicon.entries["god's acre"] == {"camposanto", "cementerio"}  # index says "gods acre"
    assert not any(key.startswith("00") for key in lexicon.entries)  # metadata entries


@pytest.mark.parametrize("data_suffix", [".dict.dz", ".dict", ".dict.gz-plain"])
def test_freedict_from_either_file_and_any_data_format(tmp_path: Path, data_suffix: str) -> None:
    """dictzip with random access, plain data, and gzip without the random-access table agree."""
    index = copy_freedict(tmp_path, data_suffix=data_suffix)
    expected = read_dictionary(INDEX, "en", "es").entries
    assert read_dictionary(index, "en", "es").entries == expected
    data = next(path for path in tmp_path.iterdir() if path != index)
    assert read_dictionary(data, "en", "es").entries == expected


def test_freedict_inverted_for_spanish_to_english() -> None:
    lexicon = read_dictionary(DICT_DZ, "es", "en")
    assert lexicon.describe() == "freedict-reversed:freedict-eng-spa.dict.dz"
    assert lexicon.entries["casa"] == {"house"}
    assert lexicon.entries["la"] == {"the"}
    assert lexicon.entries["en cuanto a"] == {"about"}
    assert lexicon.entries["méxico"] == {"mexico"}
    assert len(lexicon) == 67


def test_freedict_keeps_only_wanted_entries(tmp_path: Path) -> None:
    assert read_dictionary(INDEX, "en", "es", wanted={"House", "the", "zebra"}).entries.keys() == {"house", "the"}
    # the corpus words given for orientation stand in for the wanted words ("_" is no word)
    assert read_dictionary(INDEX, "en", "es", ["house", "run", "_"]).entries.keys() == {"house", "run"}
    assert wanted_keys(["House", "_"]) == frozenset({"house"})
    assert wanted_keys([], ["Run"]) == frozenset({"run"})
    assert wanted_keys([]) is None and wanted_keys(["_"]) is None
    assert len(read_dictionary(INDEX, "en", "es")) == 24
    # inverted, the wanted words are Spanish
    assert read_dictionary(INDEX, "es", "en", wanted={"casa", "de"}).entries == {"casa": {"house"}, "de": {"of"}}


def test_freedict_orientation_from_the_name_or_the_corpus(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        read_dictionary(INDEX, "en", "fr")
    assert str(caught.value) == f"{INDEX}: freedict-eng-spa translates en→es, but this build is en→fr"
    unnamed = copy_freedict(tmp_path, stem="words")
    # the name says nothing: the side that covers more corpus lemmas is the source side
    assert read_dictionary(unnamed, "es", "en", ["casa", "agua", "de"]).entries["casa"] == {"house"}
    assert read_dictionary(unnamed, "en", "es", ["house", "water"]).entries["house"] == {"casa"}


def test_dictd_base64_numbers() -> None:
    assert decode_number("A") == 0
    assert decode_number("gB") == 32 * 64 + 1
    assert decode_number("/") == 63
    with pytest.raises(ValueError, match="'!' is not a dictd base64 digit"):
        decode_number("h!")


def _break_index_line(index: Path, number: int, replacement: str) -> None:
    lines = index.read_text(encoding="utf-8").splitlines()
    lines[number - 1] = replacement
    index.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("number", "replacement", "problem"),
    [
        (3, "00databaseinfo 3 gB", INDEX_LINE_PROBLEM),
        (9, "a\tjU", INDEX_LINE_PROBLEM),
        (9, "a\tj!U\tX", "bad offset 'j!U': '!' is not a dictd base64 digit"),
        (9, "a\tjU\t", "bad length '': empty number"),
        (10, "a\tjr\tc-", "bad length 'c-': '-' is not a dictd base64 digit"),
        # "////" is 16,777,215; the excerpt's data has 4,272 bytes
        (9, "a\t////\tX", "entry at bytes 16777215..16777238 lies beyond the end of freedict-eng-spa.dict.dz (4272 bytes)"),
    ],
)
def test_malformed_index_lines_name_file_and_line(tmp_path: Path, number: int, replacement: str, problem: str) -> None:
    index = copy_freedict(tmp_path)
    _break_index_line(index, number, replacement)
    with pytest.raises(InputError) as caught:
        read_dictionary(index, "en", "es")
    assert str(caught.value) == f"{index}:{number}: {problem}"


def test_a_syntax_error_is_reported_even_outside_the_wanted_words(tmp_path: Path) -> None:
    index = copy_freedict(tmp_path)
    _break_index_line(index, 9, "a\tj!U\tX")
    with pytest.raises(InputError) as caught:
        read_dictionary(index, "en", "es", wanted={"house"})
    assert str(caught.value) == f"{index}:9: bad offset 'j!U': '!' is not a dictd base64 digit"


def test_dictd_files_need_their_sibling(tmp_path: Path) -> None:
    index = tmp_path / "freedict-eng-spa.index"
    shutil.copy(INDEX, index)
    with pytest.raises(InputError) as caught:
        read_dictionary(index, "en", "es")
    assert str(caught.value) == (
        f"{index}: a dictd index needs its data file next to it "
        "(freedict-eng-spa.dict.dz or freedict-eng-spa.dict not found)"
    )
    alone = tmp_path / "other" / "freedict-eng-spa.dict.dz"
    alone.parent.mkdir()
    shutil.copy(DICT_DZ, alone)
    with pytest.raises(InputError) as caught:
        read_dictionary(alone, "en", "es")
    assert str(caught.value) == f"{alone}: a dictd data file needs its index next to it (freedict-eng-spa.index not found)"


def test_freedict_entry_styles() -> None:
    """Made-up entries in the style of eng-deu (Ding) and eng-fra, which the excerpt does not cover."""
    entry = parse_entry(
        "bank /bˈaŋk/ <n>\n"
        "Bank <fem>, Geldinstitut <neut> [fin.]\n"
        '      "the central bank"  - die Zentralbank\n'
        "   Synonyms: {credit institution}, {lender}\n"
        " see: {banks}\n"
        "         Note: Geldwesen\n"
        " [Am.] Sparkasse <fem>\n"
        "etw. einzahlen <v, trans>\n",
        "bank",
    )
    assert entry.headword == "bank"
    assert entry.pronunciation == "baŋk"
    assert entry.translations == ("Bank", "Geldinstitut", "Sparkasse", "einzahlen")
    # a headword with slashes of its own: the index headword says where it ends
    slashed = parse_entry("of / about / on /ɒv əbaʊt ɒn/\nüber <prep>\n", "of  about  on")
    assert (slashed.headword, slashed.translations) == ("of / about / on", ("über",))
    assert translations_of_line("circa, /kˈɑː/ , zirka <adv>") == ["circa", "zirka"]
    assert translations_of_line("1. ne ... guère, à peine") == ["ne guère", "à peine"]
    assert translations_of_line("0,42, null Komma vier zwei") == ["0,42", "null Komma vier zwei"]
    assert translations_of_line("2. passer, repasser]") == ["passer", "repasser"]
    assert translations_of_line("¿qué hora es?") == ["qué hora es"]


# --- CC-CEDICT ----------------------------------------------------------------------------


def test_cedict_chinese_to_english() -> None:
    lexicon = read_dictionary(CEDICT, "zh-Hant", "en")
    assert lexicon.describe() == "cc-cedict:cedict-excerpt.u8"
    assert len(lexicon) == 36  # 29 traditional headwords, 7 of them with another simplified form
    # both scripts are keys; "to " dropped; whole glosses kept
    assert lexicon.entries["反對"] == lexicon.entries["反对"] == {"fight against", "oppose", "be opposed to", "opposition"}
    assert lexicon.entries["儲備金"] == {"reserves"}  # "reserves (bank)"
    # "Taiwan (abbr.)", "surname Tai", "(classical) you (in letters)", "variant of 臺|台[tai2]"
    assert lexicon.entries["台"] == {"taiwan", "you"}
    # "(Internet slang) bye-bye (alternative for 拜拜[bai2 bai2])"
    assert lexicon.entries["88"] == {"bye-bye"}
    assert lexicon.entries["3q"] == {"thank you"}
    # "(idiom); fig. They are all just as bad as each other." is 9 words: a description
    assert lexicon.entries["一丘之貉"] == {"jackals of the same tribe"}
    # "(polite) my (sister, uncle etc)"; the classifier, CL: and two long descriptions skipped
    assert lexicon.entries["家"] == {"home", "family", "my"}
    # "~'s (possessive particle)", "(used after an attribute)", "see 的士[di1 shi4]", "also pr. ..."
    assert lexicon.entries["的"] == {"of", "really and truly", "aim", "clear"}
    assert lexicon.words(Token(form="反對")) == {"fight", "against", "oppose", "be", "opposed", "to", "opposition"}


def test_cedict_english_to_chinese_takes_single_word_glosses() -> None:
    lexicon = read_dictionary(CEDICT, "en", "zh")
    assert lexicon.describe() == "cc-cedict-reversed:cedict-excerpt.u8"
    assert lexicon.entries["oppose"] == {"反對", "反对"}
    assert lexicon.entries["reserves"] == {"儲備", "储备", "儲備金", "储备金"}
    assert lexicon.entries["fund"] == {"基金"}
    assert "be opposed to" not in lexicon.entries
    assert len(lexicon) == 95
    assert read_dictionary(CEDICT, "en", "zh", wanted={"fund", "house"}).entries == {"fund": {"基金"}, "house": {"房子"}}


def test_cedict_wanted_orientation_and_errors(tmp_path: Path) -> None:
    assert read_dictionary(CEDICT, "zh", "en", wanted={"反對", "银行"}).entries == {
        "反對": {"fight against", "oppose", "be opposed to", "opposition"}, "银行": {"bank"}}
    with pytest.raises(InputError) as caught:
        read_dictionary(CEDICT, "es", "en")
    assert str(caught.value) == f"{CEDICT}: CC-CEDICT translates zh→en, but this build is es→en"
    broken = tmp_path / "mine.txt"
    broken.write_text("# CC-CEDICT\n他們 他们 [ta1 men5] /they/\n反對 反对 fan3 dui4 /to oppose/\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_dictionary(broken, "zh", "en")
    assert str(caught.value) == f"{broken}:3: {CEDICT_LINE_PROBLEM}"
    unclosed = tmp_path / "unclosed.txt"
    unclosed.write_text("他們 他们 [ta1 men5] /they/\n\n銀行 银行 [yin2 hang2] /bank\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_dictionary(unclosed, "zh", "en")
    assert str(caught.value) == f"{unclosed}:3: {CEDICT_LINE_PROBLEM}"


def test_two_dictionaries_that_share_english_are_composed_through_it() -> None:
    """A Chinese→Spanish build given CC-CEDICT (zh–en) and FreeDict's eng-spa: a Chinese word's
    translations are the Spanish translations of its English ones, read off the two excerpts."""
    assert pivot_legs([CEDICT, INDEX], "zh", "es") == {CEDICT: ("en", INDEX)}
    lexicon = read_dictionaries([CEDICT, INDEX], "zh", "es")
    assert lexicon.describe() == "cc-cedict→freedict:cedict-excerpt.u8→freedict-eng-spa.index"
    assert lexicon.entries["房子"] == {"casa", "edificio", "construcción"}  # house, building; no entry for apartment, room
    assert lexicon.entries["他們"] == {"ellos", "ellas"}  # they
    assert lexicon.entries["基金"] == {"caja"}  # fund
    assert "反對" not in lexicon.entries  # oppose: not in the FreeDict excerpt
    # read the other way round, for Spanish→Chinese, each leg is inverted
    backwards = read_dictionaries([INDEX, CEDICT], "es", "zh")
    assert backwards.entries["casa"] == {"房子"}
    assert backwards.entries["ellos"] == {"他們", "他们"}
    # a dictionary of the pair itself is merged with the composed one
    assert pivot_legs([CEDICT, INDEX, "mine.tsv"], "zh", "es") == {CEDICT: ("en", INDEX)}


def test_a_dictionary_of_other_languages_without_its_second_leg_is_an_error() -> None:
    with pytest.raises(InputError) as caught:
        read_dictionaries([CEDICT], "zh", "es")
    assert str(caught.value) == (
        f"{CEDICT}: it translates zh→en, but this build is zh→es (give a dictionary en→es too, and the two "
        "are composed through en)"
    )
    with pytest.raises(InputError) as caught:  # the same for a dictionary of the target language
        read_dictionaries([INDEX], "zh", "es")
    assert str(caught.value) == (
        f"{INDEX}: it translates en→es, but this build is zh→es (give a dictionary zh→en too, and the two "
        "are composed through en)"
    )
    # two legs that do not meet: zh–en and en–es do not make zh→de
    with pytest.raises(InputError) as caught:
        read_dictionaries([CEDICT, INDEX], "zh", "de")
    assert str(caught.value).startswith(f"{CEDICT}: it translates zh→en, but this build is zh→de (give a dictionary en→de")
    with pytest.raises(InputError) as caught:  # no language in common: the reader's own message
        read_dictionaries([INDEX], "zh", "de")
    assert str(caught.value) == f"{INDEX}: freedict-eng-spa translates en→es, but this build is zh→de"


def test_cedict_gloss_cleaning() -> None:
    assert clean_gloss("to look after sb") == ["look after"]
    assert clean_gloss("lit. count by fives and tens (idiom); to narrate systematically") == [
        "count by fives and tens", "narrate systematically"]
    assert clean_gloss("one of the 24 solar terms 二十四節氣|二十四节气[er4 shi2 si4 jie2 qi5]") == [
        "one of the 24 solar terms"]
    for pointer in ["variant of 瞭|了[liao3]", "old variant of 臺[tai2]", "surname Wang", "see 大夫[dai4 fu5]",
                    "CL:個|个[ge4]", "classifier for families", "also pr. [yao1]", "abbr. for 中國|中国[Zhong1 guo2]",
                    "(used after an attribute)"]:
        assert clean_gloss(pointer) == [], pointer
    assert clean_gloss("to see") == ["see"]


def test_cedict_by_name_from_the_installed_package() -> None:
    assert is_named_dictionary("cedict")
    assert dictionary_path("cedict").name == "cedict_1_0_ts_utf-8_mdbg.txt"
    lexicon = read_dictionary("cedict", "zh", "en", wanted={"儲備金"})
    assert lexicon.entries == {"儲備金": {"reserves"}}
    assert lexicon.describe() == "cc-cedict:cedict_1_0_ts_utf-8_mdbg.txt"


# --- format detection and merging ---------------------------------------------------------


def test_format_comes_from_the_content(tmp_path: Path) -> None:
    assert detect_format(INDEX) is DictionaryFormat.DICTD
    assert detect_format(DICT_DZ) is DictionaryFormat.DICTD
    assert detect_format(copy_freedict(tmp_path / "plain", data_suffix=".dict").with_suffix(".dict")) is DictionaryFormat.DICTD
    assert detect_format(CEDICT) is DictionaryFormat.CEDICT
    headerless = tmp_path / "entries.dix"  # the name says .dix, the content says CC-CEDICT
    headerless.write_text("".join(line + "\n" for line in CEDICT.read_text(encoding="utf-8").splitlines()
                                  if not line.startswith("#")), encoding="utf-8")
    assert detect_format(headerless) is DictionaryFormat.CEDICT
    assert read_dictionary(headerless, "zh", "en").entries["基金"] == {"fund"}
    dix = tmp_path / "words.txt"
    dix.write_text('<?xml version="1.0"?>\n<dictionary><section><e><p><l>house</l><r>casa</r></p></e>'
                   "</section></dictionary>\n", encoding="utf-8")
    assert detect_format(dix) is DictionaryFormat.DIX
    assert read_dictionary(dix, "en", "es").entries == {"house": {"casa"}}
    tsv = tmp_path / "en-es.tsv.gz"
    tsv.write_bytes(gzip.compress(b"house\tcasa\n"))
    assert detect_format(tsv) is DictionaryFormat.TSV
    assert read_dictionary(tsv, "en", "es").entries == {"house": {"casa"}}


def test_merged_dictionaries_name_each_member(tmp_path: Path) -> None:
    extra = tmp_path / "extra.tsv"
    extra.write_text("house\thogar\nOK\tvale\n", encoding="utf-8")
    merged = read_dictionaries([extra, INDEX], "en", "es")
    assert merged.describe() == "tsv:extra.tsv + freedict:freedict-eng-spa.index"
    assert merged.entries["house"] == {"casa", "hogar"}
    assert merged.entries["ok"] == {"vale"}
    assert len(merged) == 25
    assert merged.translations(Token(form="House")) == {"casa", "hogar"}


# --- matching beyond the dictionary -------------------------------------------------------


def word(form: str, lemma: str = "_", upos: str = "_") -> Token:
    return Token(form=form, lemma=lemma, upos=upos)


def test_numbers_and_names() -> None:
    assert number_key("1.5") == number_key("1,5") == "15"
    assert number_key("15,000") == number_key("15 000") == number_key("15.000") == number_key("15\u202f000") == "15000"
    assert number_key("-3") == "-3" and number_key("3") == "3"
    assert number_key("1.5.") is None and number_key("abc") is None and number_key("15%") is None
    assert name_key("México") == name_key("MEXICO") == "mexico"
    assert same_word(word("Mexico", upos="PROPN"), word("México"))
    assert not same_word(word("resume", upos="NOUN"), word("résumé", upos="NOUN"))  # not a name


def test_supports_knows_and_pairs() -> None:
    lexicon = Lexicon({"house": {"casa", "vivienda"}, "about": {"alrededor de"}, "ice cream": {"helado"}})
    assert lexicon.supports(word("houses", "house"), word("casas", "casa"))  # by lemma on both sides
    assert lexicon.supports(word("House"), word("Vivienda"))
    assert not lexicon.supports(word("house"), word("hogar"))
    assert not lexicon.supports(word("about"), word("alrededor"))  # only whole translations
    assert lexicon.supports(word("OK"), word("ok"))  # identical forms
    assert lexicon.supports(word("1.5", upos="NUM"), word("1,5", upos="NUM"))
    assert lexicon.supports(word("15,000"), word("15 000"))
    assert not lexicon.supports(word("15,000"), word("16.000"))
    assert lexicon.supports(word("Mexico", upos="PROPN"), word("México", upos="PROPN"))
    assert lexicon.supports(word("Zürich", upos="PROPN"), word("Zurich", upos="NOUN"))
    assert lexicon.knows(word("houses", "house"))
    assert not lexicon.knows(word("Mexico"))
    assert sorted(lexicon.pairs()) == [("house", "casa"), ("house", "vivienda")]
    assert lexicon.words(word("about")) == {"alrededor", "de"}


def test_dm_counts_identical_forms_numbers_and_names() -> None:
    source = [word("In", "in", "ADP"), word("1998", "1998", "NUM"), word("Mexico", "Mexico", "PROPN"),
              word("sold", "sell", "VERB"), word("15,000", "15,000", "NUM"), word("houses", "house", "NOUN")]
    lexicon = Lexicon({"in": {"en"}, "sell": {"vender"}, "house": {"casa"}})
    reference = [word("En", "en"), word("1998", "1998"), word("México", "México", "PROPN"), word("se", "se"),
                 word("vendieron", "vender"), word("15.000", "15.000"), word("casas", "casa"), word("y", "y")]
    # En (Dic "en"), 1998 (identical), México (name), vendieron (lemma in Dic), 15.000 (number),
    # casas (lemma in Dic) match; "se" and "y" do not: 6/8
    assert dictionary_matching_degree(source, reference, lexicon) == pytest.approx(6 / 8)
    # each source word offers itself once: one "1998" in the source, two in the reference → 2/3
    assert dictionary_matching_degree([word("In"), word("1998")], [word("en"), word("1998"), word("1998")],
                                      Lexicon({"in": {"en"}})) == pytest.approx(2 / 3)
    # the dictionary already offers "madrid" for "Madrid": it is not offered a second time → 1/2
    assert dictionary_matching_degree([word("Madrid")], [word("Madrid"), word("Madrid")],
                                      Lexicon({"madrid": {"madrid"}})) == 0.5


def test_dm_takes_the_words_of_translations_and_the_largest_matching() -> None:
    # Zhou's Dic is the bag of the words of the translations: "alrededor de" gives both → 2/2
    lexicon = Lexicon({"about": {"alrededor de"}})
    assert dictionary_matching_degree([word("about")], [word("alrededor"), word("de")], lexicon) == 1.0
    # "la" (lemma "el") may use Dic's "la" or "el", the second "la" only "la": the largest
    # matching gives each its own (2/2), where taking "la" for the first would have left 1/2
    lexicon = Lexicon({"the": {"la", "el"}})
    assert dictionary_matching_degree([word("the")], [word("la", "el"), word("la", "la")], lexicon) == 1.0
    assert dictionary_matching_degree([word("the")], [word("xyz")], lexicon) == 0.1


# --- end to end ----------------------------------------------------------------------------



def test_build_with_the_named_cedict(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Zhou's Table 3 pair with ``--dictionary cedict``, read English → Chinese."""
    from checkpoints.db.repo import load_suite
    from checkpoints.db.session import open_engine, transaction

    reference, alignment = tmp_path / "zh.conllu", tmp_path / "t3.align"
    reference.write_text(ZH_REFERENCE, encoding="utf-8")
    alignment.write_text("0-0 1-1 3-2 5-3 6-3 7-4\n", encoding="utf-8")
    code, _out, err = run_cli(
        "build", "--db", tmp_path / "t3.db", "--src-lang", "en", "--tgt-lang", "zh",
        "--source-conllu", Path(__file__).parent.parent / "data" / "taxonomy" / "table3-en.conllu",
        "--reference-conllu", reference, "--alignment", alignment, "--dictionary", "cedict", "--name", "t3",
    )
    assert code == 0, err
    engine = open_engine(tmp_path / "t3.db", create=False)
    with transaction(engine) as session:
        data = load_suite(session)
    engine.dispose()
    assert data.options["dictionary"] == "cc-cedict-reversed:cedict_1_0_ts_utf-8_mdbg.txt"
    found = {(cp.category, tuple(cp.source_indices)): cp.references[0].dm for cp in data.checkpoints}
    assert found[("Pronoun", (0,))] == 1.0  # they → 他們
    assert found[("Verb", (1,))] == 1.0  # oppose → 反對
    assert found[("Noun", (3,))] == 0.1  # building → 房子, 大樓, ... but not 建立
    # Chinese words are not marked for their class: the noun "building" may become the verb 建立
    assert data.options["class_filter"] is False


def test_bundled_english_spanish_dictionaries_by_name() -> None:
    """`--dictionary freedict-eng-spa` and `apertium-eng-spa` name the demo's bundled dictionaries."""
    from checkpoints.extract.dictionary import (
        dictionary_path,
        is_named_dictionary,
        read_dictionaries,
    )
    from checkpoints.model import Token

    assert is_named_dictionary("freedict-eng-spa") and is_named_dictionary("apertium-eng-spa")
    assert dictionary_path("freedict-eng-spa").name == "freedict-eng-spa.index"
    lexicon = read_dictionaries(["freedict-eng-spa", "apertium-eng-spa"], "en", "es", {"house", "historic"})
    assert lexicon.describe() == "freedict:freedict-eng-spa.index + tsv:apertium-eng-spa.tsv"
    assert "casa" in lexicon.translations(Token(form="house", lemma="house"))
    assert "histórico" in lexicon.translations(Token(form="historic", lemma="historic"))  # only Apertium has it
