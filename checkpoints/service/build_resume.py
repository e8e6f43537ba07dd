"""``build --resume``: a long build that survives an interruption.

Each chunk is committed as soon as it is extracted, as a staged suite that no
command shows (:mod:`checkpoints.db.staging`), keyed by the build's inputs:
the files' contents, every option that shapes the suite, the chunk size and
the checkpoints version. Run again with ``--resume`` on the same inputs, the
build reads, parses and aligns again (all deterministic, eflomal seeded),
takes the committed chunks back instead of extracting them, extracts the
rest, and then moves everything into the finished suite in one transaction:
the same suite, with the same content hash, as a build never interrupted.
Staged chunks of other inputs are discarded, and the build says so.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select

from checkpoints import __version__
from checkpoints.engine import open_engine
from checkpoints.errors import SuiteError
from checkpoints.extract.checkpoints import ExtractionSummary
from checkpoints.gcpause import bulk_work
from checkpoints.model import CheckPoint, SentencePair
from checkpoints.progress import no_progress
from checkpoints.service import pair_spool
from checkpoints.service.build import align_pairs, load_request_taxonomy, plan_suite, suite_writer
from checkpoints.service.build_request import BuildRequest, BuildResult, input_paths

if TYPE_CHECKING:
    from checkpoints.engine import Engine
    from checkpoints.progress import Progress
    from checkpoints.service.store import Store
    from checkpoints.taxonomy import Taxonomy

IGNORED = {"engine", "threads", "name"}
"""Request fields that do not shape the suite's content (where it runs, under which name)."""


def inputs_key(request: BuildRequest) -> str:
    """SHA-256 of what makes the suite: the input files' contents and every shaping option."""
    digest = hashlib.sha256()
    settings = {f.name: getattr(request, f.name) for f in fields(request) if f.name not in IGNORED}
    digest.update(json.dumps(settings, default=str, sort_keys=True).encode())
    digest.update(f"{__version__}|{pair_spool.CHUNK_PAIRS}".encode())
    for path in [*input_paths(request), *request.dictionaries]:
        if Path(path).is_file():
            with Path(path).open("rb") as handle:
                while piece := handle.read(1 << 20):
                    digest.update(piece)
    return digest.hexdigest()


@bulk_work
def build_into_store_resumably(
    request: BuildRequest, store: Store, *, replace: bool = False, progress: Progress = no_progress
) -> BuildResult:
    """:func:`~checkpoints.service.build.build_into_store`, each chunk committed as it is done and
    an interrupted build of the same inputs taken up where it stopped."""
    request.validate()
    taxonomy = load_request_taxonomy(request)
    with open_engine(request.engine) as engine:
        return _build_resumably(request, store, replace, progress, taxonomy, engine)


def _build_resumably(
    request: BuildRequest, store: Store, replace: bool, progress: Progress, taxonomy: Taxonomy, engine: Engine
) -> BuildResult:
    from checkpoints.db.repo import claim_name, delete_suite, name_taken
    from checkpoints.db.session import transaction
    from checkpoints.db.staging import assemble, discard, staged_checkpoints, staged_chunks
    from checkpoints.db.staging_names import staging_name
    from checkpoints.db.tables import Suite
    from checkpoints.service.store import engine_for

    name = request.suite_name()
    key = inputs_key(request)
    with engine_for(store, create=True) as database:
        with transaction(database) as session:
            if not replace and session.scalar(select(Suite.id).where(Suite.name == name)) is not None:
                raise SuiteError(name_taken(name))  # before any work, as a build that is not resumed
            staged = staged_chunks(session, name)
            discarded = bool(staged) and any(chunk.inputs != key for chunk in staged)
            if discarded:
                discard(session, name)
                staged = []
            prefix = [chunk for position, chunk in enumerate(staged) if chunk.index == position]
            for orphan in staged[len(prefix):]:  # chunks are committed in order; one after a gap cannot be used
                delete_suite(session, staging_name(name, orphan.index))
            staged = prefix
        corpus = align_pairs(request, progress, engine)
        try:
            plan = plan_suite(request, corpus, progress, taxonomy)
            header = plan.header
            done = len(staged)

            def read_back(chunk: list[SentencePair]) -> tuple[list[CheckPoint], ExtractionSummary]:
                staged_chunk = staged.pop(0)
                with transaction(database) as session:
                    found = staged_checkpoints(session, staged_chunk, chunk)
                return found, ExtractionSummary.from_state(staged_chunk.summary["extraction"])

            committed = [done]

            def commit(chunk: list[SentencePair], found: list[CheckPoint], counts: ExtractionSummary) -> None:
                index = committed[0]
                with transaction(database) as session:
                    writer = suite_writer(session, header, name=staging_name(name, index),
                                          options={"staging_inputs": key})
                    writer.add(chunk, found)
                    writer.finish({"staging_inputs": key}, {"extraction": counts.state()})
                committed[0] += 1

            result = plan.extract(commit, progress, engine, staged=[read_back] * done)
            result.summary["resumed_chunks"] = done
            if discarded:
                result.summary["warnings"].append(  # type: ignore[attr-defined]
                    f"an interrupted build of {name!r} from other inputs was discarded; this one started over")
            with transaction(database) as session:
                claim_name(session, name, replace=replace)
                writer = suite_writer(session, header)
                assemble(session, name, writer)
                writer.finish(result.suite.options, result.summary)
        finally:
            corpus.close()
    return result

