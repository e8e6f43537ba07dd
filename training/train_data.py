"""UD treebanks turned into what stanza's training modules read.

stanza's modules read plain CoNLL-U and, for the tokenizer, raw text with a
label per character; treebanks come compressed and in several files. These
helpers of :mod:`checkpoints.training.train_models` make those inputs, with
stanza's own preparation utilities where it has them.
"""

from __future__ import annotations

import io
import lzma
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Any

from checkpoints.errors import InputError

__all__ = ["concatenate_conllu", "has_multiword_tokens", "tokenizer_data", "treebank_shorthand"]


@contextmanager
def _open_conllu(path: Path) -> Iterator[Any]:
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        yield handle


def concatenate_conllu(paths: Sequence[Path], target: Path) -> Path:
    """One plain CoNLL-U file from several, each decompressed if ``.xz``.

    stanza's modules read plain files only. Each input must hold a sentence,
    and each ends with a blank line so sentences never run together.
    """
    with target.open("w", encoding="utf-8") as out:
        for path in paths:
            words = 0
            blank = True
            try:
                with _open_conllu(path) as handle:
                    for line in handle:
                        if line.strip() or not blank:
                            out.write(line if line.strip() else "\n")
                        blank = not line.strip()
                        words += bool(line[:1].isdigit())
            except (lzma.LZMAError, UnicodeDecodeError, EOFError) as error:
                raise InputError(path, None, f"cannot read as CoNLL-U: {error}") from error
            if not words:
                raise InputError(path, None, "no sentences in this CoNLL-U file")
            if not blank:
                out.write("\n")
    return target


MULTIWORD_ID = re.compile(r"^\d+-\d+\t")
"""A CoNLL-U line of a multi-word token's range (``3-4``), not of a syntactic word."""


def has_multiword_tokens(conllu: Path) -> bool:
    """Whether any token line has a range id (``3-4``): only then is an MWT model trained."""
    with conllu.open(encoding="utf-8") as handle:
        return any(MULTIWORD_ID.match(line) for line in handle)


def treebank_shorthand(language: str, treebank: Path) -> str:
    """stanza's ``lang_treebank`` name (``en_ewt``) from a UD file name, else ``lang_custom``.

    stanza derives a few language-specific behaviours from the shorthand's
    language part, so it must start with the language trained.
    """
    match = re.match(rf"({re.escape(language)}_[a-z0-9]+)-ud-", treebank.name)
    return match.group(1) if match else f"{language}_custom"


def tokenizer_data(conllu: Path, stem: Path) -> tuple[Path, Path, Path]:
    """Raw text, character labels and MWT expansions for stanza's tokenizer.

    Made with stanza's own preparation utilities: ``conllu_to_text`` rebuilds
    the raw text from ``# text``/``SpaceAfter``, ``prepare_tokenizer_data``
    labels every character (end of word, sentence, MWT). Their status lines
    on stdout are swallowed: stdout belongs to the command's report.
    """
    from stanza.utils.datasets import prepare_tokenizer_data
    from stanza.utils.datasets.conllu_to_text import convert_text

    text = stem.with_suffix(".txt")
    labels = stem.with_suffix(".labels")
    mwt = stem.with_suffix(".mwt.json")
    with redirect_stdout(io.StringIO()):
        convert_text(str(conllu), str(text))
        prepare_tokenizer_data.main([str(text), str(conllu), "-o", str(labels), "-m", str(mwt)])
    return text, labels, mwt
