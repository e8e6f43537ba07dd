"""`checkpoints export` and `import`: same scores after a round trip, category checks, one-line errors."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from checkpoints.model import SuiteData
from checkpoints.service.evaluate import evaluate_systems
from checkpoints.service.store import load_stored_suite

PAIRS = 40
"""Enough PUD pairs for every level, and Spanish texts that differ from their tokens ("del", "mar.")."""

SUITE = """<?xml version="1.0" encoding="UTF-8"?>
<suite name="hand-made" source-lang="en" target-lang="es" taxonomy="{taxonomy}">
  <pair id="1">
    <source>The house is red .</source>
    <reference id="1">La casa es roja .</reference>
{checkpoints}  </pair>
</suite>
"""


def suite_file(path: Path, categories: list[str], taxonomy: str = "en") -> Path:
    checkpoints = "".join(
        f'    <checkpoint id="{number}" {category}>\n      <span>1</span>\n      <ref reference="1">casa</ref>\n    </checkpoint>\n'
        for number, category in enumerate(categories, start=1)
    )
    path.write_text(SUITE.format(taxonomy=taxonomy, checkpoints=checkpoints), encoding="utf-8")
    return path


def stored(db: Path) -> SuiteData:
    return load_stored_suite(db)


@pytest.fixture
def pud_subset(tmp_path: Path, demo_dir: Path) -> dict[str, Path]:
    """The first PAIRS sentence pairs of the bundled PUD en→es demo, and the first lines of one of its systems."""
    files = {name: tmp_path / name for name in ("en.conllu", "es.conllu", "en-es.align", "direct.es.txt")}
    for language in ("en", "es"):
        text = gzip.decompress((demo_dir / f"{language}_pud.conllu.gz").read_bytes()).decode("utf-8")
        blocks = text.strip("\n").split("\n\n")[:PAIRS]
        files[f"{language}.conllu"].write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    for name in ("en-es.align", "direct.es.txt"):
        lines = (demo_dir / name).read_text(encoding="utf-8").splitlines(keepends=True)[:PAIRS]
        files[name].write_text("".join(lines), encoding="utf-8")
    return files


def test_export_import_keeps_bleu_and_category_scores(run_cli, tmp_path: Path, pud_subset: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    built, copy, old_copy = tmp_path / "built.db", tmp_path / "copy.db", tmp_path / "old.db"
    code, _out, err = run_cli(
        "build", "--db", built, "--src-lang", "en", "--tgt-lang", "es", "--name", "pud40",
        "--source-conllu", pud_subset["en.conllu"], "--reference-conllu", pud_subset["es.conllu"],
        "--alignment", pud_subset["en-es.align"],
    )
    assert code == 0, err
    xml = tmp_path / "pud40.xml"
    assert run_cli("export", "--db", built, "--output", xml)[0] == 0
    code, _out, err = run_cli("import", "--db", copy, xml)
    assert code == 0, err
    assert "warning" not in err

    original, imported = stored(built), stored(copy)
    assert [[r.text for r in p.references] for p in imported.pairs] == [[r.text for r in p.references] for p in original.pairs]
    assert [p.source.text for p in imported.pairs] == [p.source.text for p in original.pairs]
    assert any(p.references[0].text != " ".join(p.references[0].forms) for p in original.pairs)

    system = [("direct", pud_subset["direct.es.txt"])]
    before, after = evaluate_systems(built, system), evaluate_systems(copy, system)
    assert after.bleu == before.bleu
    assert after.reports == before.reports

    # a file from before texts were kept still imports; its references are the tokens, so BLEU moves
    old_style = tmp_path / "old-style.xml"
    old_style.write_text(re.sub(r' text="[^"]*"', "", xml.read_text(encoding="utf-8")), encoding="utf-8")
    assert run_cli("import", "--db", old_copy, old_style)[0] == 0
    assert evaluate_systems(old_copy, system).bleu != before.bleu


def test_unknown_categories_warn_and_are_stored_as_user_defined(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    xml = suite_file(tmp_path / "suite.xml", ['category="Bogus"', 'category="Noun "', 'category="Bogus"', 'category="Noun"'])
    code, _out, err = run_cli("import", "--db", tmp_path / "s.db", xml)
    assert code == 0
    first, *rest = err.splitlines()
    assert first == f"warning: {xml}: 3 check-points name categories not in taxonomy en: 'Bogus' (2), 'Noun ' (1)"
    assert rest and "imported suite 'hand-made'" in rest[0]
    assert stored(tmp_path / "s.db").user_categories == {"Bogus", "Noun "}


def test_strict_refuses_unknown_categories_and_stores_nothing(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    xml = suite_file(tmp_path / "suite.xml", ['category="Bogus"', 'category="Noun"'])
    code, out, err = run_cli("import", "--db", tmp_path / "s.db", "--strict", xml)
    assert (code, out) == (1, "")
    assert err == (
        f"checkpoints: error: {xml}: 1 check-point names a category not in taxonomy en: 'Bogus' (1) "
        "(strict import: nothing imported)\n"
    )
    assert not (tmp_path / "s.db").exists()


def test_unknown_taxonomy_warns_or_is_refused(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    xml = suite_file(tmp_path / "suite.xml", ['category="Noun"', 'category="Verb"'], taxonomy="klingon")
    code, _out, err = run_cli("import", "--db", tmp_path / "s.db", xml)
    assert code == 0
    assert err.splitlines()[0] == (
        f"warning: {xml}: taxonomy 'klingon' is neither built in (en, ud, zh) nor a taxonomy file: "
        "its 2 categories are stored as user-defined"
    )
    code, _out, err = run_cli("import", "--db", tmp_path / "strict.db", "--strict", xml)
    assert code == 1
    assert err == (
        f"checkpoints: error: {xml}: taxonomy 'klingon' is neither built in (en, ud, zh) nor a taxonomy file "
        "(strict import: nothing imported)\n"
    )
    assert not (tmp_path / "strict.db").exists()


def test_declared_user_categories_pass_strict(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``export`` writes a level for each user-defined category: such a file imports under --strict."""
    xml = suite_file(tmp_path / "suite.xml", ['category="My terms" level="phrase"', 'category="Noun"'])
    code, _out, err = run_cli("import", "--db", tmp_path / "s.db", "--strict", xml)
    assert code == 0, err
    assert "warning" not in err
    assert stored(tmp_path / "s.db").user_categories == {"My terms"}


def test_import_help_names_the_file_and_the_strict_behaviour(run_cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _err = run_cli("import", "--help")
    assert code == 0
    usage = out.splitlines()[0]
    assert "SUITE.xml" in usage and "FILE" not in usage.upper().replace("SUITE.XML", "")
    assert "--strict" in out
    assert "one-line warning" in out and "nothing is stored" in " ".join(out.split())


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(b"", "{xml}: empty file: expected XML", id="empty"),
        pytest.param(b"# text = not XML\n", "{xml}:1: not well-formed XML: Start tag expected, '<' not found", id="not XML"),
        pytest.param(b"<suite/>", "{xml}:1: does not follow the suite schema: Element 'suite': The attribute 'name' is required but missing.", id="schema"),
    ],
)
def test_bad_files_are_one_line_errors(run_cli, tmp_path: Path, content: bytes, message: str) -> None:  # type: ignore[no-untyped-def]
    xml = tmp_path / "bad.xml"
    xml.write_bytes(content)
    code, _out, err = run_cli("import", "--db", tmp_path / "s.db", xml)
    assert code == 1
    assert err == f"checkpoints: error: {message.format(xml=xml)}\n"
    assert not (tmp_path / "s.db").exists()


def test_export_to_a_missing_folder_is_a_one_line_error(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    xml = suite_file(tmp_path / "suite.xml", ['category="Noun"'])
    assert run_cli("import", "--db", tmp_path / "s.db", xml)[0] == 0
    code, _out, err = run_cli("export", "--db", tmp_path / "s.db", "--output", tmp_path / "nowhere" / "x.xml")
    assert code == 1
    assert err == f"checkpoints: error: {tmp_path / 'nowhere' / 'x.xml'}: folder {tmp_path / 'nowhere'} does not exist\n"


def test_import_and_export_as_library_calls(tmp_path: Path) -> None:
    """The services behind the two commands: counts and findings back, the suite itself not kept."""
    from checkpoints import export_suite, import_suite
    from checkpoints.errors import InputError

    xml = suite_file(tmp_path / "suite.xml", ['category="Noun"', 'category="Bogus"', 'category="Bogus"'])
    imported = import_suite(tmp_path / "s.db", xml, name="renamed")
    assert (imported.name, imported.pairs, imported.checkpoints) == ("renamed", 1, 3)
    assert imported.findings.undeclared == {"Bogus": 2} and imported.findings.warning() == (
        "2 check-points name categories not in taxonomy en: 'Bogus' (2)"
    )
    written = export_suite(tmp_path / "s.db", tmp_path / "copy.xml")
    assert (written.name, written.pairs, written.checkpoints) == ("renamed", 1, 3)
    again = import_suite(tmp_path / "t.db", tmp_path / "copy.xml", strict=True)  # export declares user categories
    first, second = stored(tmp_path / "s.db"), stored(tmp_path / "t.db")
    assert again.findings.clean and second.checkpoints == first.checkpoints and second.pairs == first.pairs
    assert second.options["content_hash"] == first.options["content_hash"]
    with pytest.raises(InputError, match=r"'Bogus' \(2\) \(strict import: nothing imported\)"):
        import_suite(tmp_path / "u.db", xml, strict=True)
    assert not (tmp_path / "u.db").exists()
