"""simalign (Jalili Sabet et al. 2020): word alignment from multilingual BERT embeddings.

No parallel training data is needed: each sentence pair is embedded by the
model, words are compared by cosine similarity, and a matching method turns
the similarity matrix into links. simalign's own loading code is used
unchanged (``SentenceAligner``), so any Hugging Face name or local directory
with a BERT-like model works; simalign 0.4 runs as is with transformers 5.

Sub-words. With ``token_type="bpe"`` (the default, and simalign's) the model's
tokenizer splits each given word into sub-words, the matching runs on
sub-words, and every sub-word link is mapped back to the words it came from:
a word pair is linked if *any* of their sub-words are. ``token_type="word"``
instead averages the sub-word vectors of each word and matches words.

Matching methods (simalign's names):

- ``inter`` ("ArgMax"): a link where source and target are each other's most
  similar word — mutual best match; precise, leaves many words unaligned.
- ``itermax`` ("IterMax"): ArgMax, then a second round of mutual best matches
  among the words the first round left unaligned (simalign runs two rounds).
  **Default**: check-points get their reference words from the alignment, so
  an unaligned check-point word loses its reference; IterMax recovers links
  for such words while keeping the mutual-best-match precision of ArgMax.
- ``mwmf`` ("Match"): a maximum-weight bipartite matching (networkx), which
  pairs up as many words as the shorter sentence has, even words with no
  real counterpart, and costs cubic time in the sentence length.

Sentences longer than the model's input limit are aligned on the words that
fit; the rest stay unaligned and are counted in one warning.

The model is found on this machine only, never downloaded: a local directory,
or a Hugging Face name already in the Hugging Face cache (``hf download NAME``
puts it there), which is then loaded from its cached directory. Given a name,
transformers would otherwise ask the Hub about the repository on every load,
and offline it retries for half a minute, printing each retry, before failing;
a model that is not here is instead reported at once, before torch is imported.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from checkpoints.errors import ModelNotAvailable, UsageError
from checkpoints.model import Alignment

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "bert-base-multilingual-cased"

METHODS = {"inter": "a", "itermax": "i", "mwmf": "m"}
"""Our method names → simalign's one-letter ``matching_methods`` codes."""

TOKEN_TYPES = ("bpe", "word")

DEFAULT_LAYER = 8
"""The hidden layer simalign uses by default; its paper found layer 8 of mBERT best."""


class SimAligner:
    """Word alignment with simalign.

    Args:
        model: Hugging Face model name (already in the Hugging Face cache;
            see :func:`resolve_model`) or a local directory holding a
            BERT-like model and its tokenizer.
        method: ``itermax`` (default), ``inter`` or ``mwmf``; see the module docstring.
        token_type: ``bpe`` (match sub-words) or ``word`` (match averaged words).
        device: torch device, e.g. ``cpu`` or ``cuda``.
        layer: hidden layer whose output embeds the words (0 = embeddings).

    The model is loaded on the first :meth:`align`.
    """

    name = "simalign"
    token_key = "form"
    """The model reads words as written."""

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        method: str = "itermax",
        token_type: str = "bpe",
        device: str = "cpu",
        layer: int = DEFAULT_LAYER,
    ) -> None:
        if method not in METHODS:
            raise UsageError(f"unknown simalign matching method {method!r} (choose {', '.join(METHODS)})")
        if token_type not in TOKEN_TYPES:
            raise UsageError(f"unknown simalign token type {token_type!r} (choose bpe or word)")
        if layer < 0:
            raise UsageError(f"the embedding layer must be 0 or more, not {layer}")
        self.model = str(model)
        self.method = method
        self.token_type = token_type
        self.device = device
        self.layer = layer
        self.version = metadata.version("simalign")
        self._aligner: Any = None
        self._limit = 0

    def settings(self) -> dict[str, object]:
        return {
            "aligner": self.name,
            "version": self.version,
            "model": self.model,
            "method": self.method,
            "token_type": self.token_type,
            "layer": self.layer,
        }

    def align(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], lexicon: object = None) -> list[Alignment]:
        """One alignment per pair, ``(source index, target index)`` into the given word lists."""
        if not pairs:
            return []
        aligner = self._load()
        tokenizer = aligner.embed_loader.tokenizer
        result = []
        truncated = 0
        for source, target in pairs:
            source_fit = _fitting_words(source, tokenizer, self._limit)
            target_fit = _fitting_words(target, tokenizer, self._limit)
            if len(source_fit) < len(source) or len(target_fit) < len(target):
                truncated += 1
            if not source_fit or not target_fit:
                result.append(Alignment(frozenset()))
                continue
            links = aligner.get_word_aligns(source_fit, target_fit)[self.method]
            result.append(Alignment(frozenset((int(s), int(t)) for s, t in links)))
        if truncated:
            logger.warning(
                "%d of %d sentence pairs exceed the %d sub-words %s accepts; their last words were left unaligned",
                truncated,
                len(pairs),
                self._limit,
                self.model,
            )
        return result

    def _load(self) -> Any:
        if self._aligner is not None:
            return self._aligner
        directory = resolve_model(self.model)  # before importing torch: a missing model fails at once
        from simalign import SentenceAligner

        try:
            aligner = SentenceAligner(
                model=directory,
                token_type=self.token_type,
                matching_methods=METHODS[self.method],
                device=self.device,
                layer=self.layer,
            )
        except (OSError, ValueError) as error:
            # transformers raises OSError for a directory missing a file it
            # needs, ValueError for a directory that holds no model.
            raise ModelNotAvailable(
                f"cannot load alignment model {self.model!r} ({type(error).__name__}): download it once with "
                "network access, give --align-model a local directory with a BERT model, "
                "or pass Pharaoh files with --alignment"
            ) from error
        config = aligner.embed_loader.emb_model.config
        layers = int(config.num_hidden_layers)
        if self.layer > layers:
            raise UsageError(f"embedding layer {self.layer} asked for, but alignment model {self.model!r} has {layers} layers")
        self._limit = _subword_limit(aligner.embed_loader.tokenizer, config)
        self._aligner = aligner
        return aligner


SIMALIGN_ALIASES = {"bert": DEFAULT_MODEL, "xlmr": "xlm-roberta-base"}
"""Short names simalign's ``SentenceAligner`` accepts for two Hugging Face models."""


def resolve_model(model: str) -> str:
    """The local directory holding ``model``, found without the network.

    ``model`` is a directory (``~`` expanded) or a Hugging Face name (or one
    of simalign's short names) whose files are in the Hugging Face cache
    (``HF_HOME``/``HF_HUB_CACHE``); the cached snapshot directory is returned
    so that loading it never contacts the Hub either.

    Raises:
        ModelNotAvailable: no such directory, or the name is not in the cache.
    """
    path = Path(model).expanduser()
    if path.is_dir():
        return str(path)
    if model.startswith(("/", ".", "~")):
        raise ModelNotAvailable(
            f"alignment model directory {model} does not exist: give --align-model a directory "
            "with a BERT model, or pass Pharaoh files with --alignment"
        )
    name = SIMALIGN_ALIASES.get(model, model)
    from huggingface_hub import snapshot_download

    try:
        # local_files_only reads the cache's refs and snapshots and nothing else.
        return str(snapshot_download(name, local_files_only=True))
    except (OSError, ValueError):
        # LocalEntryNotFoundError (an OSError) when the cache lacks the model,
        # HFValidationError (a ValueError) for a string that cannot name one.
        raise ModelNotAvailable(
            f"simalign model {model!r} is not on this machine: pass --alignment FILE (Pharaoh), "
            f"--aligner eflomal, or --align-model DIR (a local BERT), or download it once with internet "
            f"(hf download {name})"
        ) from None


def _subword_limit(tokenizer: Any, config: Any) -> int:
    """Sub-words one sentence may have: the model's input size minus [CLS] and [SEP].

    A locally saved tokenizer often carries no ``model_max_length`` (it reads
    as a huge sentinel), so the position-embedding size bounds it too.
    """
    limits = [int(getattr(config, "max_position_embeddings", 512))]
    declared = getattr(tokenizer, "model_max_length", None)
    if isinstance(declared, int) and declared < 10**6:
        limits.append(declared)
    return min(limits) - 2


def _fitting_words(words: Sequence[str], tokenizer: Any, limit: int) -> list[str]:
    """The longest prefix of ``words`` whose sub-words fit in ``limit``."""
    kept: list[str] = []
    used = 0
    for word in words:
        used += len(tokenizer.tokenize(word))
        if used > limit:
            break
        kept.append(word)
    return kept
