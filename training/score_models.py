"""Score a trained model directory on a UD treebank, from raw text.

Both ``checkpoints models train`` (dev, and a held-out file) and
``checkpoints models score`` (any treebank, any time later) use this, so the
figures in a model's ``scores.json`` are always made the same way: the raw
text is rebuilt from the treebank, parsed by the whole pipeline, and scored
by stanza's copy of the CoNLL 2018 shared task scorer, so tokenization
errors count as they will on users' text.
"""

from __future__ import annotations

import io
import json
import tempfile
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from checkpoints.errors import InputError
from checkpoints.training.train_data import MULTIWORD_ID, concatenate_conllu

SCORES_NAME = "scores.json"
"""Per model directory: the scores and exactly how the models were trained."""

SCORE_NAMES = {
    "tokens_f1": "Tokens",
    "sentences_f1": "Sentences",
    "words_f1": "Words",
    "upos": "UPOS",
    "lemma_f1": "Lemmas",
    "uas": "UAS",
    "las": "LAS",
}
"""Our key → the scorer's metric name; values are F1 × 100. Sentence splitting
is kept because, from raw text, a wrongly split sentence costs the parser
more attachments than its few token errors suggest."""

RECORD_KEYS = {"dev": ("dev_scores", "scoring_error"), "held-out": ("held_out_scores", "held_out_error")}
"""Where ``models score --record`` keeps its figures in ``scores.json``."""


GIVEN = ("text", "sentences", "words")
"""What the pipeline is given of the gold treebank: its running text (the
tokenizer splits sentences, as in the CoNLL 2018 shared task), its sentences
one a line (as ``checkpoints build`` parses a raw-text file: the tokenizer
only cuts words), or its own words (the tagger and parser alone)."""

GIVEN_DESCRIPTIONS = {"text": "from raw text", "sentences": "from its raw sentences", "words": "on its gold words"}


def score_pipeline(
    model_dir: Path, language: str, gold: Path, work: Path, threads: int, *, given: str = "text"
) -> tuple[dict[str, float], str | None]:
    """F1 of the whole trained pipeline on ``gold`` (plain CoNLL-U), given one of :data:`GIVEN`.

    Given ``words`` there is no tokenizer and no MWT expander, so the figures
    are the tagger's, lemmatizer's and parser's alone, comparable with the
    dev scores stanza's training modules report; multi-word token lines are
    dropped from the gold side, whose words are then exactly the input.
    Given ``sentences`` each sentence's text (rebuilt from its tokens and
    their spacing) is one paragraph, so sentence boundaries are gold and the
    rest is what users of ``build --source`` get.

    The scorer refuses output whose characters differ from the gold text (a
    weak MWT model can invent some); then no scores and the scorer's reason
    are returned, and the trained models are kept all the same.
    """
    import torch
    from stanza.models.common.utils import UDError, ud_scores
    from stanza.utils.conll import CoNLL
    from stanza.utils.datasets.conllu_to_text import convert_text

    from checkpoints.extract.trained_models import load_trained_pipeline

    torch.set_num_threads(threads)
    if given == "words":
        gold_document = CoNLL.conll2doc(str(gold))
        pipeline = load_trained_pipeline(model_dir, language, pretokenized=True, skip=("mwt",))
        document = pipeline([[word.text for word in sentence.words] for sentence in gold_document.sentences])
        gold = _without_multiword_lines(gold, work / f"score-{gold.stem}.words.conllu")
    elif given == "sentences":
        gold_document = CoNLL.conll2doc(str(gold))
        pipeline = load_trained_pipeline(model_dir, language)
        document = pipeline("\n\n".join(_sentence_text(sentence) for sentence in gold_document.sentences))
    else:
        text_file = work / f"score-{gold.stem}.txt"
        with redirect_stdout(io.StringIO()):
            convert_text(str(gold), str(text_file))
        pipeline = load_trained_pipeline(model_dir, language, split_sentences=True)
        document = pipeline(text_file.read_text(encoding="utf-8"))
    predicted = work / f"score-{gold.stem}.pred.conllu"
    CoNLL.write_doc2conll(document, str(predicted))
    try:
        evaluation = ud_scores(str(gold), str(predicted))
    except UDError as error:
        return {}, " ".join(str(error).split())[:300]
    return {key: round(100 * evaluation[metric].f1, 2) for key, metric in SCORE_NAMES.items()}, None


def _sentence_text(sentence: Any) -> str:
    """A gold sentence as one line of raw text: its tokens with their own spacing, runs of whitespace as one space."""
    return " ".join("".join(token.text + token.spaces_after for token in sentence.tokens).split())


def _without_multiword_lines(conllu: Path, target: Path) -> Path:
    """``conllu`` without its multi-word token ranges (``3-4``): one token per syntactic word."""
    with conllu.open(encoding="utf-8") as source, target.open("w", encoding="utf-8") as out:
        out.writelines(line for line in source if not MULTIWORD_ID.match(line))
    return target


def score_model_directory(
    model_dir: Path, language: str, treebank: Path, threads: int = 1, *, given: str = "text"
) -> tuple[dict[str, float], str | None]:
    """:func:`score_pipeline` on a treebank as users have it (``.conllu`` or ``.conllu.xz``)."""
    with tempfile.TemporaryDirectory(prefix="checkpoints-score-") as temp:
        gold = concatenate_conllu([treebank], Path(temp) / "gold.conllu")
        return score_pipeline(model_dir, language, gold, Path(temp), threads, given=given)


def record_scores(
    model_dir: Path, record: str, treebank: Path, scores: dict[str, float], error: str | None
) -> Path:
    """Keep figures from ``models score`` in the directory's ``scores.json`` as dev or held-out scores.

    The settings written at training time stay; the file is replaced in one
    step so a failure never leaves half of it.
    """
    from checkpoints.io.files import write_atomic

    path = model_dir / SCORES_NAME
    content: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    if not isinstance(content, dict):
        raise InputError(path, None, "not a scores file (expected a JSON object)")
    scores_key, error_key = RECORD_KEYS[record]
    content[scores_key] = scores
    content[error_key] = error
    content.setdefault("settings", {})["held_out" if record == "held-out" else "dev"] = treebank.name
    write_atomic(path, json.dumps(content, indent=2) + "\n")
    return path
