"""``evaluate --alternatives`` end to end on the bundled PUD en→es sample, built with its dictionaries."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def pud(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, int]:
    """The suite, the reference text as a system, and that text with one Noun's reference word replaced by
    another dictionary translation of its source word (neither the word nor its stem)."""
    from checkpoints.evaluate.alternatives import stored_lexicon
    from checkpoints.evaluate.stemming import get_stemmer
    from checkpoints.service.build import BuildRequest, build_suite
    from checkpoints.service.store import load_stored_suite, store_new_suite

    demo = Path(str(resources.files("checkpoints"))) / "data" / "demo"
    folder = tmp_path_factory.mktemp("alternatives")
    db = folder / "pud.db"
    request = BuildRequest(
        source_lang="en", target_lang="es", source_conllu=demo / "en_pud.conllu.gz",
        reference_conllu=[demo / "es_pud.conllu.gz"], alignments=[demo / "en-es.align"], name="pud",
        dictionaries=[Path("freedict-eng-spa")],
    )
    store_new_suite(db, build_suite(request).suite)
    suite = load_stored_suite(db)
    lexicon = stored_lexicon(suite)
    assert lexicon is not None and len(lexicon) > 1000  # the build kept FreeDict's entries for the corpus's words
    stem = get_stemmer("es")
    lines = [pair.references[0].text for pair in suite.pairs]
    position = {pair.id: index for index, pair in enumerate(suite.pairs)}
    for checkpoint in suite.checkpoints:
        reference = checkpoint.references[0].tokens if checkpoint.references else []
        if checkpoint.category != "Noun" or len(reference) != 1 or len(checkpoint.source_indices) != 1:
            continue
        index = position[checkpoint.pair_id]
        pair = suite.pairs[index]
        word = reference[0]
        others = sorted(
            t for t in lexicon.translations(pair.source.tokens[checkpoint.source_indices[0]])
            if " " not in t and stem(t) != stem(word.lower()) and t not in lines[index].lower()
        )
        if others and lines[index].count(word) == 1:
            changed = list(lines)
            changed[index] = lines[index].replace(word, others[0])
            break
    else:
        pytest.fail("no Noun check-point with another dictionary translation")
    own, other = folder / "own.txt", folder / "other.txt"
    own.write_text("\n".join(lines) + "\n", encoding="utf-8")
    other.write_text("\n".join(changed) + "\n", encoding="utf-8")
    return db, own, other, checkpoint.id


def test_a_dictionary_translation_is_an_accepted_alternative(run_cli, pud) -> None:  # type: ignore[no-untyped-def]
    db, own, other, number = pud
    code, out, err = run_cli("evaluate", "--db", db, "--system", f"ref={own}", "--system", f"alt={other}",
                             "--alternatives", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert "alt:dict+stem" in report["signature"]
    assert report["systems"]["ref"]["score"] == 1.0  # the reference's own text still scores 1
    assert report["systems"]["alt"]["categories"]["Noun"]["score"] == 1.0  # the other translation is accepted
    code, out, err = run_cli("show", "--db", db, "--checkpoint", str(number), "--format", "json")
    assert code == 0, err
    (item,) = json.loads(out)["checkpoints"]
    shown = item["systems"]["alt"]
    assert shown["alternative"] == "dictionary" and shown["score"] == 1.0
    assert item["systems"]["ref"]["alternative"] is None
    code, out, err = run_cli("show", "--db", db, "--checkpoint", str(number))
    assert "matched by an alternative: dictionary" in out


def test_without_alternatives_the_other_translation_is_a_miss(run_cli, pud) -> None:  # type: ignore[no-untyped-def]
    db, own, other, number = pud
    code, out, err = run_cli("evaluate", "--db", db, "--system", f"ref={own}", "--system", f"alt={other}")
    assert code == 0, err
    code, out, err = run_cli("show", "--db", db, "--checkpoint", str(number), "--format", "json")
    (item,) = json.loads(out)["checkpoints"]
    assert item["systems"]["alt"]["score"] < 1.0 and item["systems"]["alt"]["alternative"] is None
    # runs of both settings cannot be compared
    code, out, err = run_cli("compare", "--db", db, "--system", "alt", "--run", "alt=1", "--baseline", "ref")
    assert code != 0 and "alternatives=" in err


def test_the_report_names_the_alternative(run_cli, pud) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.service.report import ReportRequest, report_model

    db, own, other, number = pud
    code, _, err = run_cli("evaluate", "--db", db, "--system", f"ref={own}", "--system", f"alt={other}",
                           "--alternatives")
    assert code == 0, err
    model, _ = report_model(ReportRequest(store=db, output=db.with_suffix(".html"), systems=["ref", "alt"]))
    noun = model["checkpoints"][[row["name"] for row in model["categories"]].index("Noun")]
    (item,) = [cp for cp in noun if cp[0] == number]
    ref, alt = item[4]
    assert alt[0] == 1.0 and alt[3] == "dictionary"  # score, then the alternative that matched
    assert len(ref) == 3  # matched by its reference: no alternative named
