"""The body of a training child process: thread limit, then one stanza training module.

Kept apart from :mod:`checkpoints.training.train_models` because it runs in
the child (``python -m checkpoints.training.stanza_child``) and must import
nothing but torch and stanza.

stanza's parser continues from a saved model with its own ``--continue_from``,
but indexes the training data with a vocabulary built afresh from it; when
the parser continues on retagged data (the tagger's tags instead of gold
ones) that vocabulary's tag and feature indices differ from the saved
model's, so the child makes the data use the saved model's vocabulary.
The tagger has no such option, so for the tagger the child supplies it: the
first model the training loop builds starts from the saved one's weights, with
a fresh optimizer, as the tagger's own ``--second_optim_reload`` does when it
reloads its best model. Training data and sizes must be those the saved model
was trained with: a different word vocabulary is refused rather than letting
word indices silently point at other words' weights.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

TAGGER_MODULE = "stanza.models.tagger"
PARSER_MODULE = "stanza.models.parser"
CONTINUE_OPTION = "--continue_from"


class ContinueRefused(RuntimeError):
    """The saved model cannot be continued with this training data or these sizes."""


def units(vocabulary: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each of a ``MultiVocab`` state's vocabularies as its units in index order.

    The rest of a state may differ for the same data: its ``lang`` is the
    treebank shorthand, which follows the training file's name.
    """
    return {key: state.get("_id2unit", state) for key, state in vocabulary.items()}


def trained_on_other_data(stage: str, model_file: str) -> ContinueRefused:
    return ContinueRefused(
        f"cannot continue the {stage} in {model_file}: it was trained on other data "
        "(its vocabulary differs); train the stage afresh"
    )


def continue_tagger_from(model_file: str) -> None:
    """Make the tagger's training start from ``model_file`` instead of fresh weights."""
    tagger = importlib.import_module(TAGGER_MODULE)
    fresh_trainer = tagger.Trainer

    class ContinuedTrainer(fresh_trainer):  # type: ignore[misc, valid-type]
        started = False

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            if kwargs.get("model_file") is not None or ContinuedTrainer.started:
                super().__init__(*args, **kwargs)
                return
            ContinuedTrainer.started = True
            vocab = kwargs.get("vocab")
            try:
                super().__init__(*args, **{**kwargs, "model_file": model_file})
            except RuntimeError as error:  # load_state_dict: other sizes
                reason = str(error).splitlines()[0]
                raise ContinueRefused(f"cannot continue the tagger in {model_file}: other model sizes ({reason})") from error
            if vocab is not None and units(self.vocab.state_dict()) != units(vocab.state_dict()):
                raise trained_on_other_data("tagger", model_file)
            print(f"continuing the tagger from {model_file}", flush=True)

    tagger.Trainer = ContinuedTrainer


def continue_parser_vocabulary(model_file: str) -> None:
    """Index the parser's training data with ``model_file``'s vocabulary.

    Words must be the same (the same treebanks); tags may differ, as they do
    when the data was retagged by a tagger trained since.
    """
    import torch
    from stanza.models.pos.vocab import MultiVocab

    parser = importlib.import_module(PARSER_MODULE)
    saved = MultiVocab.load_state_dict(torch.load(model_file, map_location="cpu", weights_only=True)["vocab"])
    saved_units = units(saved.state_dict())
    fresh_loader = parser.DataLoader

    def loader(doc: Any, batch_size: int, args: dict[str, Any], pretrain: Any, vocab: Any = None, **kwargs: Any) -> Any:
        if vocab is not None:
            return fresh_loader(doc, batch_size, args, pretrain, vocab=vocab, **kwargs)
        built = fresh_loader(doc, batch_size, args, pretrain, **kwargs)
        built_units = units(built.vocab.state_dict())
        if built_units["word"] != saved_units["word"]:
            raise trained_on_other_data("parser", model_file)
        if built_units == saved_units:
            return built
        print(f"indexing the training data with the vocabulary of {model_file}", flush=True)
        return fresh_loader(doc, batch_size, args, pretrain, vocab=saved, **kwargs)

    parser.DataLoader = loader


def main(argv: list[str]) -> None:
    """``THREADS MODULE ARGS...``; ``--continue_from FILE`` among ARGS is handled here for the tagger, helped for the parser."""
    import torch

    threads, module, arguments = int(argv[0]), argv[1], list(argv[2:])
    torch.set_num_threads(threads)
    if module == TAGGER_MODULE and CONTINUE_OPTION in arguments:
        at = arguments.index(CONTINUE_OPTION)
        model_file = arguments[at + 1]
        del arguments[at : at + 2]
        continue_tagger_from(model_file)
    if module == PARSER_MODULE and CONTINUE_OPTION in arguments:
        continue_parser_vocabulary(arguments[arguments.index(CONTINUE_OPTION) + 1])
    try:
        importlib.import_module(module).main(arguments)
    except ContinueRefused as error:
        print(error, file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main(sys.argv[1:])
