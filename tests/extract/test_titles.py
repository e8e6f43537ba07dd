"""Titles a parser reads as clauses (extract.noise.is_title), on real PUD sentences (pair ids cited)."""

from __future__ import annotations

from pathlib import Path

from checkpoints.extract.noise import is_title
from checkpoints.io.conllu import read_conllu


def test_titles_in_title_case_are_not_clauses(demo_dir: Path) -> None:
    """Pair 152: the song "Knuck If You Buck" holds the adverbial clause "If You Buck" (head "Buck");
    pair 995: "Don't Go Breaking My Heart" holds the verb phrase "Breaking My Heart". Pair 995's
    relative clause "who worked with his record label" and a noun phrase in title case ("The Rocket
    Record Company") stay, as does pair 1's clause that starts its sentence."""
    english = read_conllu(demo_dir / "en_pud.conllu.gz", "en")
    song = english[151].tokens
    assert [t.form for t in song[15:18]] == ["If", "You", "Buck"]
    assert is_title(song, [15, 16, 17], 17)
    single = english[994].tokens
    assert [t.form for t in single[36:39]] == ["Breaking", "My", "Heart"]
    assert is_title(single, [36, 37, 38], 36)
    assert not is_title(single, list(range(7, 13)), 8)  # "who worked with his record label"
    assert not is_title(single, [13, 14, 15, 16], 16)  # a name: a noun phrase
    quoted = english[0].tokens
    assert not is_title(quoted, list(range(1, 9)), 8)  # "While much of the digital transition is unprecedented"
    assert not is_title(quoted, list(range(0, 9)), 8)


def test_the_build_skips_titles(run_cli, tmp_path: Path, demo_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """Pair 152 built alone with its demo alignment: no Adverbial clause "If You Buck", counted as a
    title; ``--no-noise-filter`` keeps it."""
    import gzip

    for language in ("en", "es"):
        text = gzip.decompress((demo_dir / f"{language}_pud.conllu.gz").read_bytes()).decode("utf-8")
        block = [b for b in text.split("\n\n") if b.strip()][151]
        (tmp_path / f"{language}.conllu").write_text(block + "\n\n", encoding="utf-8")
    links = (demo_dir / "en-es.align").read_text(encoding="utf-8").splitlines()[151]
    (tmp_path / "a.align").write_text(links + "\n", encoding="utf-8")
    from checkpoints.db.repo import load_suite
    from checkpoints.db.session import open_engine, transaction

    for name, extra in (("filtered", ()), ("kept", ("--no-noise-filter",))):
        code, _out, err = run_cli(
            "build", "--db", tmp_path / f"{name}.db", "--src-lang", "en", "--tgt-lang", "es",
            "--source-conllu", tmp_path / "en.conllu", "--reference-conllu", tmp_path / "es.conllu",
            "--alignment", tmp_path / "a.align", *extra,
        )
        assert code == 0, err
        engine = open_engine(tmp_path / f"{name}.db", create=False)
        with transaction(engine) as session:
            suite = load_suite(session)
        engine.dispose()
        clause = ("Adverbial clause", (15, 16, 17))
        found = {(cp.category, tuple(cp.source_indices)) for cp in suite.checkpoints}
        if name == "filtered":
            assert suite.summary["skipped"]["a title, not a clause"] == {"Adverbial clause": 1}
            assert clause not in found
        else:
            assert clause in found
