"""simalign finds its model on this machine only: a missing model fails at once, a cached one loads offline.

Every test here blocks the network (a socket guard that records and refuses
any connection or name lookup) and points the Hugging Face cache at a
temporary directory, so nothing the user has downloaded is touched or used.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from checkpoints.errors import ModelNotAvailable
from checkpoints.extract.align_simalign import SimAligner, resolve_model

ROOT = Path(__file__).parent.parent.parent
DEMO = ROOT / "checkpoints" / "data" / "demo"

MISSING = (
    "simalign model 'bert-base-multilingual-cased' is not on this machine: pass --alignment FILE (Pharaoh), "
    "--aligner eflomal, or --align-model DIR (a local BERT), or download it once with internet "
    "(hf download bert-base-multilingual-cased)"
)

GUARD = """
import socket, sys

def refuse(*args, **kwargs):
    sys.stderr.write("NETWORK ATTEMPTED\\n")
    raise OSError("network disabled by the test")

socket.getaddrinfo = refuse
socket.create_connection = refuse
socket.socket.connect = refuse
sys.argv = ["checkpoints", *sys.argv[1:]]
from checkpoints.cli import main
try:
    main()
finally:
    if "torch" in sys.modules:
        sys.stderr.write("TORCH IMPORTED\\n")
"""
"""Runs the command line with the network refused and says whether torch was imported."""


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Refuse (and record) every name lookup and connection made in this process."""
    attempts: list[str] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(repr(args[:2]))
        raise OSError("network disabled by the test")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    return attempts


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty Hugging Face cache, for this process (already imported) and for subprocesses (environment)."""
    from huggingface_hub import constants

    home = tmp_path / "hf-home"
    cache = home / "hub"
    cache.mkdir(parents=True)
    monkeypatch.setenv("HF_HOME", str(home))
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(cache))
    return cache


def test_missing_model_fails_at_once_without_network(empty_cache: Path, no_network: list[str]) -> None:
    started = time.perf_counter()
    with pytest.raises(ModelNotAvailable) as caught:
        SimAligner().align([(["a"], ["b"])])
    assert str(caught.value) == MISSING
    assert time.perf_counter() - started < 5
    assert no_network == []


def test_short_names_and_bad_names(empty_cache: Path, no_network: list[str]) -> None:
    with pytest.raises(ModelNotAvailable, match=r"^simalign model 'xlmr' is not on this machine: .*\(hf download xlm-roberta-base\)$"):
        resolve_model("xlmr")
    # Not a valid repository name: the same one-line error, not huggingface_hub's validation message.
    with pytest.raises(ModelNotAvailable, match=r"^simalign model 'not a//name' is not on this machine"):
        resolve_model("not a//name")
    assert no_network == []


def test_cached_model_loads_by_name_from_its_snapshot(
    empty_cache: Path, no_network: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model in the Hugging Face cache is loaded from its snapshot directory: no Hub request, even online."""
    torch = pytest.importorskip("torch")
    from transformers import BertConfig, BertModel, BertTokenizer

    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    snapshot = empty_cache / "models--example--tiny-bert" / "snapshots" / ("0" * 40)
    snapshot.mkdir(parents=True)
    (empty_cache / "models--example--tiny-bert" / "refs").mkdir()
    (empty_cache / "models--example--tiny-bert" / "refs" / "main").write_text("0" * 40)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "el", "gato"]
    (snapshot / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    torch.manual_seed(13)
    config = BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=32, max_position_embeddings=16)
    BertModel(config).save_pretrained(snapshot)
    BertTokenizer(str(snapshot / "vocab.txt")).save_pretrained(snapshot)

    assert resolve_model("example/tiny-bert") == str(snapshot)
    aligner = SimAligner("example/tiny-bert", layer=2)
    assert aligner.align([(["the", "cat"], ["the", "cat"])])[0].links == {(0, 0), (1, 1)}
    assert aligner.settings()["model"] == "example/tiny-bert"  # signatures name the model, not the cache path
    assert no_network == []


def test_build_without_the_model_fails_in_one_line(empty_cache: Path, tmp_path: Path) -> None:
    """A CoNLL-U build with simalign offline: one line, exit 1, no database, no network, torch never imported.
    (The default aligner, eflomal, needs no model: the same build without --aligner works offline.)"""
    db = tmp_path / "x.db"
    command = [
        sys.executable, "-c", GUARD, "build", "--db", str(db), "--src-lang", "en", "--tgt-lang", "es",
        "--source-conllu", str(DEMO / "en_pud.conllu.gz"), "--reference-conllu", str(DEMO / "es_pud.conllu.gz"),
        "--aligner", "simalign",
    ]
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tmp_path)
    elapsed = time.perf_counter() - started
    assert result.returncode == 1, result.stderr
    assert result.stderr == f"checkpoints: error: {MISSING}\n"
    assert result.stdout == ""
    assert not db.exists()
    assert elapsed < 30  # generous for a busy machine; it used to be 26 s of retries on an idle one
