"""``scripts/split_treebank.py``: the sentence ranges the German and Chinese models were trained on (models/README.md)."""

from __future__ import annotations

import lzma
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent.parent
TREEBANK = ROOT / "tests" / "data" / "ud" / "en_ewt-ud-dev-first100.conllu.xz"


def blocks(text: str) -> list[str]:
    return [block for block in text.strip().split("\n\n") if block.strip()]


def test_parts_are_disjoint_ranges_that_together_give_the_treebank(tmp_path: Path) -> None:
    parts = [tmp_path / "train.conllu", tmp_path / "dev.conllu", tmp_path / "held-out.conllu"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "split_treebank.py"), str(TREEBANK),
         "--part", f"{parts[0]}:0:60", "--part", f"{parts[1]}:60:80", "--part", f"{parts[2]}:80:"],
        capture_output=True, text=True, check=True,
    )
    assert "held-out.conllu: 20 sentences (80..99 of en_ewt-ud-dev-first100.conllu.xz)" in done.stdout
    with lzma.open(TREEBANK, "rt", encoding="utf-8") as handle:
        original = blocks(handle.read())
    pieces = [blocks(path.read_text(encoding="utf-8")) for path in parts]
    assert [len(piece) for piece in pieces] == [60, 20, 20]
    assert [block for piece in pieces for block in piece] == original
    assert all(piece[0].startswith("# ") for piece in pieces)  # comments (sent_id, text) travel with their sentence


def test_an_empty_range_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "split_treebank.py"), str(TREEBANK), "--part", f"{tmp_path / 'x.conllu'}:100:"],
        capture_output=True, text=True,
    )
    assert done.returncode == 2 and "no sentences in 100: of 100" in done.stderr
    assert not (tmp_path / "x.conllu").exists()
