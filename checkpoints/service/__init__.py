"""The workflows behind every command: build, align, import, export, evaluate, compare, show, metrics, meta, demo.

Each command of the ``checkpoints`` program parses its options, calls one
function here and renders what it returns (``options → service → render``);
library users call the same functions, re-exported from :mod:`checkpoints`.
Services take a store target (an SQLite path or an SQLAlchemy URL), plain
values and files; they never print, and their errors name values, not flags.
"""
