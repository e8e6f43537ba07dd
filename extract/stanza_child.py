"""The body of a training child process: thread limit, then one stanza training module.

Kept apart from :mod:`checkpoints.extract.train_models` because it runs in
the child (``python -m checkpoints.extract.stanza_child``) and must import
nothing but torch and stanza.

stanza's parser continues from a saved model with its own ``--continue_from``;
its tagger has no such option, so for the tagger the child supplies it: the
first model the training loop builds starts from the saved one's weights, with
a fresh optimizer, as the tagger's own ``--second_optim_reload`` does when it
reloads its best model. Training data and sizes must be those the saved model
was trained with: a different vocabulary is refused rather than letting word
indices silently point at other words' weights.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

TAGGER_MODULE = "stanza.models.tagger"
CONTINUE_OPTION = "--continue_from"


class ContinueRefused(RuntimeError):
    """The saved tagger cannot be continued with this training data or these sizes."""


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
            if vocab is not None and self.vocab.state_dict() != vocab.state_dict():
                raise ContinueRefused(
                    f"cannot continue the tagger in {model_file}: it was trained on other data "
                    "(its vocabulary differs); train the stage afresh"
                )
            print(f"continuing the tagger from {model_file}", flush=True)

    tagger.Trainer = ContinuedTrainer


def main(argv: list[str]) -> None:
    """``THREADS MODULE ARGS...``; for the tagger, ``--continue_from FILE`` among ARGS is handled here."""
    import torch

    threads, module, arguments = int(argv[0]), argv[1], list(argv[2:])
    torch.set_num_threads(threads)
    if module == TAGGER_MODULE and CONTINUE_OPTION in arguments:
        at = arguments.index(CONTINUE_OPTION)
        model_file = arguments[at + 1]
        del arguments[at : at + 2]
        continue_tagger_from(model_file)
    try:
        importlib.import_module(module).main(arguments)
    except ContinueRefused as error:
        print(error, file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main(sys.argv[1:])
