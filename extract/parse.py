"""Parsing backends: raw sentences in, :class:`~checkpoints.model.Sentence` out.

stanza is the one real parser. It is imported lazily (it pulls in torch), and
it never downloads at run time: models come from ``checkpoints models download
LANG`` on a machine with network, or users pass parsed CoNLL-U instead
(``--source-conllu/--reference-conllu``, read by
:func:`checkpoints.io.conllu.read_conllu`).

Indices everywhere in the project count *syntactic words* (stanza ``Word``),
so multi-word tokens such as Spanish "del" become two tokens (de + el) plus a
:class:`~checkpoints.model.MultiWordToken` kept for the surface text, exactly
as the CoNLL-U reader does.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from importlib import metadata
from typing import TYPE_CHECKING, Any, Protocol

from checkpoints.errors import InputError, ModelNotAvailable, UsageError
from checkpoints.extract.trained_models import (
    BASE_PROCESSORS,
    MODEL_DIR_VARIABLE,
    REQUIRED_PROCESSORS,
    TOKENIZE_MAX_SEQLEN,
    TrainedModels,
    find_trained_models,
    load_trained_pipeline,
)
from checkpoints.model import MultiWordToken, Sentence, Token

if TYPE_CHECKING:
    import stanza

logger = logging.getLogger(__name__)

_STANZA_FIELDS = ("id", "text", "lemma", "upos", "xpos", "feats", "head", "deprel", "misc", "ner")
"""Fields asked of stanza's ``Token.to_dict``; start/end offsets are left out on purpose."""

MERGED_RELATION = "parataxis"
"""UD relation that attaches the roots of extra stanza sentences to the first root.

UD uses ``parataxis`` for clauses placed side by side without a connective,
which is what two "sentences" on one input line are.
"""


class Parser(Protocol):
    """Anything that turns raw sentences into parsed ones, one per input text."""

    name: str
    version: str

    def parse(self, texts: Sequence[str], language: str) -> list[Sentence]: ...

    def settings(self) -> dict[str, object]:
        """What a report signature needs to say how the parse was made."""
        ...


class StanzaParser:
    """stanza's neural pipeline, one input line = one sentence.

    Args:
        language: stanza language code (``en``, ``es``, ``zh``...).
        model_dir: stanza's resource directory, or a directory written by
            ``checkpoints models train`` (or a folder of such directories);
            None means ``$CHECKPOINTS_STANZA_DIR`` if set, else stanza's
            default (``$STANZA_RESOURCES_DIR`` or its user cache).
        constituency: True to require a constituency tree, False to skip it,
            None to use it where stanza has a model for the language.
        pretokenized: the texts are already split into syntactic words by
            whitespace. stanza then neither tokenizes nor expands multi-word
            tokens, so word indices equal whitespace positions — which keeps
            user-supplied alignment files valid.
        ner: also run named-entity recognition (``Token.ner``, BIOES).
        batch_size: input lines handed to stanza per call; bounds memory on
            large corpora while still letting stanza batch across sentences.

    The pipeline is built on the first :meth:`parse`, so constructing a parser
    is cheap and a missing model is reported when it is needed.
    """

    name = "stanza"

    def __init__(
        self,
        language: str,
        *,
        model_dir: str | None = None,
        constituency: bool | None = None,
        pretokenized: bool = False,
        ner: bool = False,
        batch_size: int = 256,
    ) -> None:
        if batch_size < 1:
            raise UsageError(f"batch size must be at least 1, not {batch_size}")
        self.language = language
        self.model_dir = None if model_dir is None else str(model_dir)
        self.constituency = constituency
        self.pretokenized = pretokenized
        self.ner = ner
        self.batch_size = batch_size
        self.version = metadata.version("stanza")
        self._pipeline: Any = None
        self._processors: dict[str, str] = {}

    def settings(self) -> dict[str, object]:
        return {
            "parser": self.name,
            "version": self.version,
            "language": self.language,
            "processors": dict(self._processors),
            "pretokenized": self.pretokenized,
            "constituency": "constituency" in self._processors,
        }

    def parse(self, texts: Sequence[str], language: str) -> list[Sentence]:
        """One :class:`Sentence` per text, in order.

        Raises:
            UsageError: ``language`` is not the language this parser loaded.
            InputError: a text is empty (line = its 1-based position).
            ModelNotAvailable: stanza's models for the language are missing.
        """
        if language != self.language:
            raise UsageError(f"this stanza parser is for {self.language!r}, not {language!r}")
        for number, text in enumerate(texts, start=1):
            if not text.strip():
                raise InputError("<input>", number, "empty sentence: nothing to parse")
        if not texts:
            return []
        pipeline = self._load()
        sentences: list[Sentence] = []
        for start in range(0, len(texts), self.batch_size):
            chunk = list(texts[start : start + self.batch_size])
            documents = pipeline.bulk_process(chunk)
            sentences.extend(sentences_from_documents(documents, chunk, language, first_line=start + 1))
        return sentences

    def _load(self) -> Any:
        if self._pipeline is not None:
            return self._pipeline
        model_dir = self.model_dir or os.environ.get(MODEL_DIR_VARIABLE) or None
        if model_dir is not None:
            manifest = find_trained_models(model_dir, self.language)
            if manifest is not None:
                self._pipeline = self._load_trained(manifest)
                return self._pipeline
        self._pipeline = self._load_stanza(model_dir)
        return self._pipeline

    def _load_trained(self, manifest: TrainedModels) -> Any:
        """A pipeline from a directory written by ``checkpoints models train``."""
        if self.constituency:
            raise ModelNotAvailable(f"{manifest.directory}: no constituency model (trained model directories have none)")
        if self.ner:
            raise ModelNotAvailable(f"{manifest.directory}: no named-entity model (trained model directories have none)")
        skip = ("mwt",) if self.pretokenized else ()
        pipeline = load_trained_pipeline(manifest.directory, self.language, pretokenized=self.pretokenized, skip=skip)
        self._processors = {name: f"trained:{file}" for name, file in manifest.processors.items() if name not in skip}
        return pipeline

    def _load_stanza(self, model_dir: str | None) -> Any:
        import stanza
        from stanza.resources.common import DEFAULT_MODEL_DIR, load_resources_json

        model_dir = model_dir or DEFAULT_MODEL_DIR
        try:
            resources = load_resources_json(model_dir)
        except FileNotFoundError as error:
            raise ModelNotAvailable(missing_model_message(self.language, self.model_dir)) from error
        processors = stanza_processors(
            resources,
            self.language,
            constituency=self.constituency,
            ner=self.ner,
            pretokenized=self.pretokenized,
        )
        options: dict[str, object] = {"tokenize_pretokenized": True} if self.pretokenized else {"tokenize_no_ssplit": True}
        options["tokenize_max_seqlen"] = TOKENIZE_MAX_SEQLEN
        try:
            pipeline = stanza.Pipeline(
                self.language,
                dir=model_dir,
                package=None,
                processors=processors,
                download_method=None,
                **options,
            )
        except FileNotFoundError as error:
            # LanguageNotDownloadedError, UnsupportedProcessorError and a
            # plain FileNotFoundError for one missing model file all derive
            # from FileNotFoundError; each means the same thing to a user.
            raise ModelNotAvailable(missing_model_message(self.language, self.model_dir)) from error
        self._processors = processors
        return pipeline


def missing_model_message(language: str, model_dir: str | None = None) -> str:
    """The one line users see when stanza's models are not installed."""
    where = "" if model_dir is None else f" in {model_dir}"
    option = "" if model_dir is None else f" --model-dir {model_dir}"
    return (
        f"stanza models for {language!r} are not installed{where}: run "
        f"'checkpoints models download {language}{option}' on a machine with network, "
        f"or pass parsed CoNLL-U with --source-conllu/--reference-conllu"
    )


def stanza_processors(
    resources: Mapping[str, Any],
    language: str,
    *,
    constituency: bool | None = None,
    ner: bool = False,
    pretokenized: bool = False,
) -> dict[str, str]:
    """The processor → model package mapping a build needs for ``language``.

    Taken from the language's ``default`` package in stanza's resources.json,
    so a parse uses stanza's recommended models, and ``models download``
    fetches exactly what a parse will load. Multi-word token expansion is
    used only where the language has it, and not for pretokenized input
    (there the given words are already syntactic words).

    Raises:
        ModelNotAvailable: stanza has no models (or no parser, or no
            constituency model when one is required) for the language.
    """
    from stanza.resources.common import get_language_resources

    entry = get_language_resources(dict(resources), language)
    if entry is None:
        raise ModelNotAvailable(
            f"stanza has no models for language {language!r}: "
            f"pass parsed CoNLL-U with --source-conllu/--reference-conllu"
        )
    default = entry.get("packages", {}).get("default") or entry.get("default_processors", {})
    missing = [name for name in REQUIRED_PROCESSORS if name not in default]
    if missing:
        raise ModelNotAvailable(
            f"stanza has no {'/'.join(missing)} model for {language!r}: "
            f"pass parsed CoNLL-U with --source-conllu/--reference-conllu"
        )
    wanted = [name for name in BASE_PROCESSORS if not (pretokenized and name == "mwt")]
    if constituency is None:
        constituency = "constituency" in default
    if constituency:
        if "constituency" not in default:
            raise ModelNotAvailable(f"stanza has no constituency model for {language!r}")
        wanted.append("constituency")
    if ner:
        if "ner" not in default:
            raise ModelNotAvailable(f"stanza has no named-entity model for {language!r}")
        wanted.append("ner")
    return {name: str(default[name]) for name in wanted if name in default}


def sentences_from_stanza(doc: stanza.Document, language: str) -> list[Sentence]:
    """Every sentence of a stanza ``Document`` as a :class:`Sentence`.

    Syntactic words become tokens; a multi-word token adds a
    :class:`MultiWordToken` and lends its NER tag to each of its words. MISC
    is what stanza's own CoNLL-U writer puts there (``SpaceAfter=No`` from the
    token's trailing whitespace, ``ner=`` when NER ran), so a sentence stored
    as CoNLL-U reads back equal through :func:`checkpoints.io.conllu.read_conllu`.
    """
    return [_sentence(sentence, language) for sentence in doc.sentences]


def _sentence(sentence: Any, language: str) -> Sentence:
    tokens: list[Token] = []
    multiword: list[MultiWordToken] = []
    for stanza_token in sentence.tokens:
        ner = stanza_token.ner or "O"
        rows = stanza_token.to_dict(fields=list(_STANZA_FIELDS))
        if len(stanza_token.id) > 1:
            multiword.append(
                MultiWordToken(
                    first=stanza_token.id[0],
                    last=stanza_token.id[-1],
                    form=stanza_token.text,
                    misc=_misc(rows[0]),
                )
            )
            rows = rows[1:]
        tokens.extend(_token(row, ner) for row in rows)
    tree = sentence.constituency
    return Sentence(
        tokens=tokens,
        text=sentence.text or "",
        language=language,
        constituency=None if tree is None else str(tree),
        sent_id=sentence.sent_id,
        multiword=multiword,
        comments=list(sentence.comments),
    )


def _token(row: Mapping[str, Any], ner: str) -> Token:
    return Token(
        form=row["text"],
        lemma=row.get("lemma") or "_",
        upos=row.get("upos") or "_",
        xpos=row.get("xpos") or "_",
        feats=_feats(row.get("feats")),
        head=int(row.get("head") or 0),
        deprel=row.get("deprel") or "_",
        misc=_misc(row),
        ner=ner,
    )


def _feats(feats: str | None) -> dict[str, str]:
    if not feats or feats == "_":
        return {}
    result: dict[str, str] = {}
    for item in feats.split("|"):
        key, _, value = item.partition("=")
        result[key] = value
    return result


def _misc(row: Mapping[str, Any]) -> str:
    """MISC as stanza writes it: the word's own MISC, then ``ner=`` if tagged."""
    pieces = [row["misc"]] if row.get("misc") else []
    if row.get("ner"):
        pieces.append(f"ner={row['ner']}")
    return "|".join(pieces) or "_"


def sentences_from_documents(
    documents: Sequence[Any], texts: Sequence[str], language: str, *, first_line: int = 1
) -> list[Sentence]:
    """One :class:`Sentence` per input text from stanza's one ``Document`` per text.

    The input line is the unit of a parallel corpus, so it must stay one
    sentence even if stanza's splitter saw two (``tokenize_no_ssplit`` should
    prevent it; the guard keeps line ``i`` aligned with reference line ``i``
    whatever a model does). stanza numbers sentences per document, so its
    ``sent_id`` is dropped rather than repeated as "0" on every line.
    ``first_line`` is the input line of ``texts[0]``, for error messages.
    """
    if len(documents) != len(texts):
        raise ValueError(f"stanza returned {len(documents)} documents for {len(texts)} texts")
    result = []
    merged = 0
    for number, (document, text) in enumerate(zip(documents, texts, strict=True), start=first_line):
        parts = sentences_from_stanza(document, language)
        if not parts:
            raise InputError("<input>", number, "stanza found no words in this sentence")
        if len(parts) > 1:
            merged += 1
        sentence = merge_sentences(parts, text)
        result.append(replace(sentence, sent_id=None, comments=[]))
    if merged:
        logger.warning(
            "stanza split %d of %d input lines into several sentences; each was merged back into one "
            "(later roots attached to the first as %s)",
            merged,
            len(texts),
            MERGED_RELATION,
        )
    return result


def merge_sentences(parts: Sequence[Sentence], text: str) -> Sentence:
    """Join consecutive sentences of one line into a single sentence.

    Word indices, heads and multi-word ranges of later parts are shifted; the
    root of each later part is attached to the first part's root with
    :data:`MERGED_RELATION`, so the result is still one tree. Constituency
    trees are joined under one ``ROOT`` when every part has one.
    """
    text = text.strip()
    if len(parts) == 1:
        return replace(parts[0], text=text)
    first_root = next((i for i, token in enumerate(parts[0].tokens, start=1) if token.head == 0), 0)
    tokens: list[Token] = []
    multiword: list[MultiWordToken] = []
    for part in parts:
        offset = len(tokens)
        for token in part.tokens:
            if token.head == 0 and offset and first_root:
                tokens.append(replace(token, head=first_root, deprel=MERGED_RELATION))
            elif token.head == 0:
                tokens.append(token)
            else:
                tokens.append(replace(token, head=token.head + offset))
        multiword.extend(replace(mwt, first=mwt.first + offset, last=mwt.last + offset) for mwt in part.multiword)
    trees = [part.constituency for part in parts]
    constituency = None
    if all(tree is not None for tree in trees):
        constituency = "(ROOT " + " ".join(_root_children(tree) for tree in trees if tree is not None) + ")"
    return Sentence(
        tokens=tokens,
        text=text,
        language=parts[0].language,
        constituency=constituency,
        sent_id=parts[0].sent_id,
        multiword=multiword,
        comments=[],
    )


def _root_children(tree: str) -> str:
    """``(ROOT (S ...))`` → ``(S ...)``; a tree without a ROOT node is kept whole."""
    tree = tree.strip()
    if tree.startswith("(ROOT ") and tree.endswith(")"):
        return tree[len("(ROOT ") : -1].strip()
    return tree
