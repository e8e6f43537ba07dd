"""Parser-model training: stanza pipelines trained offline from UD treebanks (``checkpoints models train``).

A product of its own beside suite building (:mod:`checkpoints.extract`, which loads the trained
models through :mod:`checkpoints.extract.trained_models`).
"""
