"""The streaming build: chunks, a spool that spills to disk, and a store written chunk by chunk
make the same suite as the whole corpus held at once, leave nothing behind on failure, and
leave no cyclic garbage behind each sentence (the collector is paused during a build)."""

from __future__ import annotations

import gc
import gzip
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select

from checkpoints.db.session import open_engine, transaction
from checkpoints.db.tables import AlignmentRow, CheckpointBlock, SentenceRow, Suite
from checkpoints.errors import CorpusMismatch, InputError, SuiteError
from checkpoints.io.conllu import iter_conllu
from checkpoints.model import Alignment, SentencePair
from checkpoints.service import build_corpus, pair_spool
from checkpoints.service.build import build_into_store, build_suite, plan_suite
from checkpoints.service.build_request import BuildRequest
from checkpoints.service.demo import demo_request
from checkpoints.service.pair_spool import PackedAlignment, PairSpool
from checkpoints.service.store import load_stored_suite, store_new_suite
from checkpoints.signature import suite_hash


def _request(demo_dir: Path, **changes: object) -> BuildRequest:
    request = demo_request(demo_dir)
    request.audit = False
    for key, value in changes.items():
        setattr(request, key, value)
    return request


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 578 pairs, so that the demo's non-parallel pairs 577–579 straddle the first
    boundary, and a spool that writes everything past the first chunk to disk."""
    monkeypatch.setattr(pair_spool, "CHUNK_PAIRS", 578)
    monkeypatch.setattr(pair_spool, "MEMORY_PAIRS", 578)


def test_chunked_build_makes_the_suite_of_the_whole_corpus(demo_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = build_suite(_request(demo_dir))
    monkeypatch.setattr(pair_spool, "CHUNK_PAIRS", 578)
    monkeypatch.setattr(pair_spool, "MEMORY_PAIRS", 578)
    chunked = build_suite(_request(demo_dir))
    assert suite_hash(chunked.suite) == suite_hash(whole.suite) == whole.suite.options["content_hash"]
    assert chunked.summary == whole.summary
    # the non-parallel check saw the neighbours across the chunk boundary (PUD pairs 577-579 are shifted)
    assert chunked.summary["skipped_pairs"] == [577, 578, 579]
    assert [c.id for c in chunked.suite.checkpoints] == list(range(1, len(whole.suite.checkpoints) + 1))
    assert chunked.suite.options == whole.suite.options


def test_chunked_build_repairs_and_estimates_a_lexicon_as_the_whole_build(
    demo_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No dictionary and automatic alignments: the lexicon is estimated from the links and the
    repair rewrites them, each a pass over the spooled corpus. Pharaoh-file links stand in for
    the aligner's (the repair runs whenever the links were not given by the user)."""
    links = (demo_dir / "en-es.align").read_text().splitlines()

    class FileAligner:
        name, version, token_key = "lines", "1", "form"

        def align(self, pairs: list[tuple[list[str], list[str]]], lexicon: object = None) -> list[Alignment]:
            from checkpoints.io.pharaoh import parse_pharaoh_line

            return [parse_pharaoh_line(line, len(s), len(t)) for line, (s, t) in zip(links, pairs, strict=True)]

        def settings(self) -> dict[str, object]:
            return {}

    monkeypatch.setattr(build_corpus, "_make_aligner", lambda request: FileAligner())
    request = _request(demo_dir, alignments=[], dictionaries=[])
    whole = build_suite(request)
    assert whole.summary["alignment_repairs"]["relinked"] > 0
    monkeypatch.setattr(pair_spool, "CHUNK_PAIRS", 300)
    monkeypatch.setattr(pair_spool, "MEMORY_PAIRS", 300)
    chunked = build_suite(request)
    assert suite_hash(chunked.suite) == suite_hash(whole.suite)
    assert chunked.summary == whole.summary
    assert chunked.suite.options["lexicon"] == whole.suite.options["lexicon"] != {}


def test_streamed_store_holds_the_same_rows_as_a_suite_stored_whole(demo_dir: Path, tmp_path: Path, small_chunks: None) -> None:
    whole_db, streamed_db = tmp_path / "whole.db", tmp_path / "streamed.db"
    store_new_suite(whole_db, build_suite(_request(demo_dir)).suite)
    result = build_into_store(_request(demo_dir), streamed_db)
    assert result.suite.pairs == [] and result.suite.checkpoints == []  # nothing of the corpus held

    def rows(db: Path) -> tuple[object, ...]:
        engine = open_engine(db)
        try:
            with transaction(engine) as session:
                suite = session.execute(select(Suite.options, Suite.summary)).one()
                block = session.execute(select(CheckpointBlock)).scalar_one()
                packed = tuple(bytes(getattr(block, column)) for column in ("numbers", "pair_positions", "spans", "targets", "dm"))
                sentences = session.execute(
                    select(SentenceRow.side, SentenceRow.text, SentenceRow.tokens, SentenceRow.conllu).order_by(SentenceRow.id)
                ).all()
                links = session.execute(select(AlignmentRow.links).order_by(AlignmentRow.id)).scalars().all()
                return suite.options, suite.summary, block.count, block.tokens, packed, sentences, links
        finally:
            engine.dispose()

    assert rows(streamed_db) == rows(whole_db)


def test_a_build_that_fails_while_storing_leaves_no_suite_and_no_file(
    demo_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_chunks: None
) -> None:
    from checkpoints.db import suite_writer

    chunks: list[int] = []
    original = suite_writer.SuiteWriter.add

    def failing(self: suite_writer.SuiteWriter, pairs: list[SentencePair], checkpoints: list[object]) -> None:
        chunks.append(len(pairs))
        if len(chunks) == 2:
            raise OSError("disk full")
        original(self, pairs, checkpoints)  # type: ignore[arg-type]

    monkeypatch.setattr(suite_writer.SuiteWriter, "add", failing)
    new_file = tmp_path / "new.db"
    with pytest.raises(OSError, match="disk full"):
        build_into_store(_request(demo_dir), new_file)
    assert chunks == [578, 422]  # the first chunk was written before the failure
    assert list(tmp_path.iterdir()) == []
    existing = tmp_path / "existing.db"
    build_into_store(_request(demo_dir, name="kept"), existing)
    chunks.clear()
    with pytest.raises(OSError, match="disk full"):
        build_into_store(_request(demo_dir, name="kept"), existing, replace=True)
    engine = open_engine(existing)
    try:
        with transaction(engine) as session:
            assert session.execute(select(Suite.name)).scalars().all() == ["kept"]  # the old suite survives
    finally:
        engine.dispose()
    with pytest.raises(SuiteError, match="already exists"):
        build_into_store(_request(demo_dir, name="kept"), existing)


def test_extraction_leaves_no_cyclic_garbage_per_sentence(demo_dir: Path) -> None:
    """With the collector paused (as during a build), objects in reference cycles are never
    freed: one cycle per sentence (a self-calling closure holding the sentence graph, a
    networkx view) grew a 10,000-pair build by 900 MB although each chunk was dropped."""
    request = _request(demo_dir)
    corpus = build_corpus.align_pairs(request)
    try:
        plan = plan_suite(request, corpus, lambda description, total: (lambda n: None), _taxonomy(request))
        gc.collect()
        was_enabled = gc.isenabled()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            plan.extract(lambda chunk, found, counts: None, lambda description, total: (lambda n: None))
            gc.collect()
            garbage = Counter(type(item).__name__ for item in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            if was_enabled:
                gc.enable()
    finally:
        corpus.close()
    # a few objects of one-off imports may be cyclic; nothing may come per sentence (1,000 here)
    assert sum(garbage.values()) < 1000, garbage.most_common(5)


def _taxonomy(request: BuildRequest):  # type: ignore[no-untyped-def]
    from checkpoints.taxonomy import load_taxonomy

    return load_taxonomy(request.taxonomy_name())


def test_uneven_conllu_files_name_both_counts(demo_dir: Path, tmp_path: Path, small_chunks: None) -> None:
    shorter = tmp_path / "es.conllu"
    text = gzip.decompress((demo_dir / "es_pud.conllu.gz").read_bytes()).decode("utf-8")
    shorter.write_text("\n\n".join(text.strip().split("\n\n")[:999]) + "\n\n", encoding="utf-8")
    with pytest.raises(CorpusMismatch, match=r"es.conllu: 999 sentences, but .*en_pud.conllu.gz has 1000"):
        build_suite(_request(demo_dir, reference_conllu=[shorter]))


def test_an_alignment_file_of_another_length_is_refused_before_its_lines(demo_dir: Path, tmp_path: Path) -> None:
    links = tmp_path / "short.align"
    links.write_text("0-0\n99-99\n")
    with pytest.raises(InputError, match=r"short.align: 2 alignment lines for 1000 sentence pairs"):
        build_suite(_request(demo_dir, alignments=[links]))


def test_spool_spills_to_disk_and_reads_back_every_pass(demo_dir: Path) -> None:
    sentences = list(iter_conllu(demo_dir / "en_pud.conllu.gz", "en"))[:10]
    with PairSpool(memory_pairs=4) as spool:
        for start in range(0, 10, 3):
            spool.append([SentencePair(i + 1, sentences[i], [sentences[i]], []) for i in range(start, min(start + 3, 10))])
        assert len(spool) == 10
        for _ in range(2):
            assert [[pair.id for pair in chunk] for chunk in spool.chunks()] == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]]
            assert [pair.source.text for pair in spool] == [sentence.text for sentence in sentences]
        assert spool._file is not None  # the three chunks past the first went to disk


def test_packed_alignments_keep_links_and_which_are_sure() -> None:
    given = Alignment(frozenset({(0, 1), (2, 0), (1, 1)}))
    sampled = Alignment(frozenset({(0, 1), (2, 0), (1, 1)}), sure=frozenset({(2, 0)}))
    empty = Alignment(frozenset(), sure=frozenset())
    for alignment in (given, sampled, empty):
        unpacked = PackedAlignment.of(alignment).unpack()
        assert unpacked == alignment
        assert unpacked.sure == alignment.sure
    assert PackedAlignment.of(given).unpack().is_sure((0, 1))
    assert not PackedAlignment.of(sampled).unpack().is_sure((0, 1))


def test_a_streamed_build_reads_back_as_the_suite_held_whole(demo_dir: Path, store_url: str, small_chunks: None) -> None:
    """SQLite takes the packed check-points through blob I/O, PostgreSQL whole: both read back
    as the suite the whole corpus makes."""


    whole = build_suite(_request(demo_dir)).suite
    build_into_store(_request(demo_dir), store_url)
    stored = load_stored_suite(store_url)
    assert stored.options["content_hash"] == suite_hash(stored) == suite_hash(whole)
    def content(suite: object) -> list[tuple[object, ...]]:
        # a reference's tokens are stored joined by spaces, so a token with a space ("6 000") reads back as two
        return [
            (c.id, c.pair_id, c.category, c.source_indices, [(r.target_indices, " ".join(r.tokens), r.dm) for r in c.references])
            for c in suite.checkpoints  # type: ignore[attr-defined]
        ]

    assert content(stored) == content(whole)


def test_an_interrupted_resumable_build_goes_on_and_ends_as_an_uninterrupted_one(
    demo_dir: Path, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checkpoints.db.staging import staged_chunks
    from checkpoints.service import build as build_module
    from checkpoints.service.build_resume import build_into_store_resumably

    monkeypatch.setattr(pair_spool, "CHUNK_PAIRS", 300)  # four chunks: 300, 300, 300, 100
    whole = build_suite(_request(demo_dir, audit=True))
    extracted: list[int] = []
    original = build_module.extract_window

    def interrupted(context: object, window: build_module.Window) -> object:
        extracted.append(window.chunk[0].id)
        if window.chunk[0].id == 601:
            raise KeyboardInterrupt
        return original(context, window)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "extract_window", interrupted)
    db = store_url
    with pytest.raises(KeyboardInterrupt):
        build_into_store_resumably(_request(demo_dir, audit=True), db)
    engine = open_engine(db)
    try:
        with transaction(engine) as session:
            assert [chunk.index for chunk in staged_chunks(session, "pud-en-es-demo")] == [0, 1]
        with pytest.raises(SuiteError, match="holds no suite"):  # nothing shows before the suite is whole
            load_stored_suite(db)
    finally:
        engine.dispose()

    extracted.clear()
    monkeypatch.setattr(build_module, "extract_window", original)
    monkeypatch.setattr(build_module, "extract_window", lambda c, w: (extracted.append(w.chunk[0].id), original(c, w))[1])
    result = build_into_store_resumably(_request(demo_dir, audit=True), db)
    assert extracted == [601, 901]  # the two committed chunks were taken back, not extracted again
    assert result.summary["resumed_chunks"] == 2
    stored = load_stored_suite(db)
    assert stored.options["content_hash"] == whole.suite.options["content_hash"] == suite_hash(stored)
    assert {k: v for k, v in stored.summary.items() if k != "resumed_chunks"} == whole.summary
    engine = open_engine(db)
    try:
        with transaction(engine) as session:
            assert staged_chunks(session, "pud-en-es-demo") == []
            assert session.execute(select(Suite.name)).scalars().all() == ["pud-en-es-demo"]
    finally:
        engine.dispose()


def test_a_resumable_build_of_other_inputs_starts_over(demo_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from checkpoints.service import build as build_module
    from checkpoints.service.build_resume import build_into_store_resumably, inputs_key

    monkeypatch.setattr(pair_spool, "CHUNK_PAIRS", 500)
    original = build_module.extract_window

    def stop_at_second(context: object, window: build_module.Window) -> object:
        if window.chunk[0].id == 501:
            raise KeyboardInterrupt
        return original(context, window)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "extract_window", stop_at_second)
    db = tmp_path / "big.db"
    with pytest.raises(KeyboardInterrupt):
        build_into_store_resumably(_request(demo_dir, min_dm=0.2), db)
    monkeypatch.setattr(build_module, "extract_window", original)
    assert inputs_key(_request(demo_dir, min_dm=0.2)) != inputs_key(_request(demo_dir))
    result = build_into_store_resumably(_request(demo_dir), db)
    assert result.summary["resumed_chunks"] == 0
    assert any("from other inputs was discarded" in warning for warning in result.summary["warnings"])
    assert load_stored_suite(db).options["content_hash"] == build_suite(_request(demo_dir)).suite.options["content_hash"]
