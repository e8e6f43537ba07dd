"""What the raw-text benchmarks share: timing whole commands, parsing speed, reading a stored suite.

Imported by ``raw_text.py`` and ``ted_study.py`` (run as scripts, so this
folder is on ``sys.path``).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from checkpoints.model import SuiteData

DEFAULT_DICTIONARY = Path("/usr/share/dictd/freedict-eng-deu.index")
"""Debian's ``dict-freedict-eng-deu``: the real English–German dictionary both benchmarks build with."""


def checkpoints_command() -> str:
    """The ``checkpoints`` script of this Python, as a user would run it."""
    return str(Path(sys.executable).with_name("checkpoints"))


def check_dictionary(path: Path) -> None:
    if not path.is_file():
        sys.exit(f"{path}: no such dictionary: apt-get install dict-freedict-eng-deu, or pass --dictionary")


def run_command(arguments: Sequence[str]) -> float:
    """Seconds a whole command takes; its output is shown only when it fails."""
    started = time.perf_counter()
    done = subprocess.run(list(arguments), capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{' '.join(arguments[1:3])} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return time.perf_counter() - started


@dataclass(frozen=True)
class ParseSpeed:
    load_s: float
    """Loading the models (and parsing two sentences)."""
    project_per_s: float
    """Sentences/s through the project's ``StanzaParser``."""
    stanza_per_s: float
    """Sentences/s through the same stanza pipeline called directly (``bulk_process``)."""


def parse_speed(models: Path, language: str, sentences: Sequence[str]) -> ParseSpeed:
    """The project's parser beside stanza's pipeline on the same sentences, models loaded once."""
    import stanza

    from checkpoints.extract.parse import StanzaParser
    from checkpoints.extract.trained_models import load_trained_pipeline

    started = time.perf_counter()
    parser = StanzaParser(language, model_dir=str(models))
    parser.parse(list(sentences[:2]), language)
    load = time.perf_counter() - started
    started = time.perf_counter()
    parser.parse(list(sentences), language)
    ours = len(sentences) / (time.perf_counter() - started)
    pipeline = load_trained_pipeline(models, language)
    started = time.perf_counter()
    pipeline.bulk_process([stanza.Document([], text=text) for text in sentences])
    return ParseSpeed(load, ours, len(sentences) / (time.perf_counter() - started))


def stored_suite(database: Path) -> SuiteData:
    from checkpoints import load_stored_suite

    return load_stored_suite(database)
