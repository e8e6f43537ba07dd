"""``checkpoints build``: a check-point suite from a parallel corpus."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from checkpoints.cli.common import (
    ALIGN_SEED_HELP,
    check_name_free,
    progress_bar,
    quiet_libraries,
    stage_progress,
    stderr_console,
    stdout_console,
)
from checkpoints.cli.engine_options import Address, EngineName, GpusPerWorker, Workers, engine_spec
from checkpoints.extract.eflomal_process import DEFAULT_ALIGN_SEED
from checkpoints.model import SuiteData
from checkpoints.service.build import BuildRequest, build_into_store
from checkpoints.service.build_resume import build_into_store_resumably

EXAMPLES = """
The recommended recipe: eflomal alignment (the default; offline, no model to
download) with a real bilingual dictionary, which primes the aligner, repairs
its links and weighs references (DM). Raw text is parsed by stanza (trained
models with --stanza-dir, or `checkpoints models download LANG` once).

Examples:

  # recommended: gold or parsed CoNLL-U, eflomal with FreeDict (apt-get install dict-freedict-eng-deu):
  checkpoints build --db pud.db --src-lang en --tgt-lang de \\
      --source-conllu en.conllu --reference-conllu de.conllu \\
      --dictionary /usr/share/dictd/freedict-eng-deu.index

  # alignments given (offline, nothing estimated):
  checkpoints build --db pud.db --src-lang en --tgt-lang es \\
      --source-conllu en.conllu --reference-conllu es.conllu --alignment en-es.align

  # a large corpus on a Ray cluster (parsing and extraction spread over its workers):
  checkpoints build --db big.db --src-lang en --tgt-lang de --source big.en --reference big.de \\
      --dictionary /usr/share/dictd/freedict-eng-deu.index --engine ray --address ray://head:10001

  # a long build that can be interrupted: run the same command again to go on
  checkpoints build --db big.db --src-lang en --tgt-lang de --source-conllu big.en.conllu \\
      --reference-conllu big.de.conllu --dictionary /usr/share/dictd/freedict-eng-deu.index --resume

  # raw text, parsed by trained stanza models, Chinese with CC-CEDICT:
  checkpoints build --db news.db --src-lang zh --tgt-lang en \\
      --source news.zh --reference news.en --dictionary cedict --stanza-dir models
"""


def register(app: typer.Typer) -> None:
    app.command("build", help="Build a check-point suite from a parallel corpus.\n" + EXAMPLES)(build)


def build(
    db: Annotated[str, typer.Option("--db", help="SQLite file or SQLAlchemy URL (sqlite:///x.db, postgresql://...) to store the suite in.")],
    src_lang: Annotated[str, typer.Option("--src-lang", "--source-lang", help="Source language code, e.g. en.")],
    tgt_lang: Annotated[str, typer.Option("--tgt-lang", "--target-lang", help="Target (reference) language code, e.g. es.")],
    source: Annotated[Path | None, typer.Option("--source", help="Source sentences, one per line (parsed with stanza).")] = None,
    reference: Annotated[list[Path] | None, typer.Option("--reference", help="Reference translations, one per line; repeat for several references.")] = None,
    source_conllu: Annotated[Path | None, typer.Option("--source-conllu", help="Parsed source sentences (CoNLL-U).")] = None,
    reference_conllu: Annotated[list[Path] | None, typer.Option("--reference-conllu", help="Parsed references (CoNLL-U); repeat for several.")] = None,
    alignment: Annotated[list[Path] | None, typer.Option("--alignment", help="Pharaoh alignments (i-j, 0-based), one file per reference, same order.")] = None,
    aligner: Annotated[str, typer.Option("--aligner", help="Aligner when no --alignment is given: eflomal (offline, learns from the corpus) or simalign (a BERT model, downloaded once).")] = "eflomal",
    align_model: Annotated[str, typer.Option("--align-model", help="simalign model: a Hugging Face name or a local directory.")] = "bert-base-multilingual-cased",
    align_method: Annotated[str, typer.Option("--align-method", help="simalign matching method: itermax, mwmf or inter.")] = "itermax",
    seed: Annotated[int, typer.Option("--seed", metavar="N", help=ALIGN_SEED_HELP)] = DEFAULT_ALIGN_SEED,
    taxonomy: Annotated[str | None, typer.Option("--taxonomy", help="en, zh, ud or a taxonomy file (default: the source language's, else ud).")] = None,
    dictionary: Annotated[list[Path] | None, typer.Option("--dictionary", help="Bilingual dictionary for DM and alignment: TSV source<TAB>target, an Apertium .dix, a FreeDict/dictd .index, a CC-CEDICT file, or `cedict`; repeat to merge several. Two that share a third language are composed through it (`cedict` with an English–German one for a Chinese→German build).")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Suite name (default: from the source file and languages).")] = None,
    noise_filter: Annotated[bool, typer.Option("--noise-filter/--no-noise-filter", help="Keep phrase check-points only where the constituency tree agrees.")] = True,
    min_dm: Annotated[float, typer.Option("--min-dm", help="Drop references whose DM is below this, unless the aligner is sure of all their links (0 keeps all).")] = 0.0,
    repair: Annotated[bool, typer.Option("--repair/--no-repair", help="Repair automatic alignments with the dictionary and fixed expressions of the reference.")] = True,
    pos_filter: Annotated[bool, typer.Option("--pos-filter/--no-pos-filter", help="Drop word references whose aligned words cannot translate them (a dropped pronoun linked to a verb), or change class with no dictionary support (a noun linked to a verb).")] = True,
    parallel_filter: Annotated[bool, typer.Option("--parallel-filter/--no-parallel-filter", help="Skip pairs whose reference translates a neighbouring source sentence better than its own.")] = True,
    confirm: Annotated[bool, typer.Option("--confirm/--no-confirm", help="Keep phrase and clause references only when the aligner is sure of every link, and not when it left a two-word phrase's head unlinked.")] = True,
    complete: Annotated[bool, typer.Option("--complete/--no-complete", help="Complete references on the target side with the function words the aligner leaves out (auxiliaries, clitics, governed prepositions).")] = True,
    audit: Annotated[bool, typer.Option("--audit/--no-audit", help="Audit the new suite (reference self-score, substitution test) and keep the audit in its summary.")] = True,
    threads: Annotated[int | None, typer.Option("--threads", help="CPU threads for parsing raw text (default: torch's, one per core; 1 is often faster for small corpora).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Commit each chunk as it is done (out of sight until the suite is whole) and, when a build of the same inputs was interrupted, go on from its last committed chunk; the suite is the same as an uninterrupted build's.")] = False,
    replace: Annotated[bool, typer.Option("--replace", help="Replace a suite of the same name (in one transaction: an interrupted build keeps the old one).")] = False,
    engine: EngineName = "local",
    address: Address = None,
    workers: Workers = None,
    gpus_per_worker: GpusPerWorker = 0.0,
    stanza_dir: Annotated[str | None, typer.Option("--stanza-dir", help="Stanza models: stanza's resources (models download), a directory written by models train, or a folder of those (default: $CHECKPOINTS_STANZA_DIR, else stanza's).")] = None,
) -> None:
    quiet_libraries()
    request = BuildRequest(
        source_lang=src_lang,
        target_lang=tgt_lang,
        source=source,
        references=list(reference or []),
        source_conllu=source_conllu,
        reference_conllu=list(reference_conllu or []),
        alignments=list(alignment or []),
        aligner=aligner,
        align_model=align_model,
        align_method=align_method,
        seed=seed,
        taxonomy=taxonomy,
        dictionaries=list(dictionary or []),
        name=name,
        noise_filter=noise_filter,
        stanza_dir=stanza_dir,
        min_dm=min_dm,
        repair=repair,
        pos_filter=pos_filter,
        parallel_filter=parallel_filter,
        confirm=confirm,
        complete=complete,
        audit=audit,
        threads=threads,
        engine=engine_spec(engine, address, workers, gpus_per_worker),
    )
    if not replace:  # a name clash found now, not after a long build
        check_name_free(db, request.suite_name())
    started = time.perf_counter()
    with progress_bar() as bar:
        store = build_into_store_resumably if resume else build_into_store
        result = store(request, db, replace=replace, progress=stage_progress(bar))
    elapsed = time.perf_counter() - started
    print_summary(result.suite.name, result.summary, result.suite, db, elapsed)


def print_summary(name: str, summary: dict[str, Any], suite: SuiteData, db: Path, elapsed: float) -> None:
    """The build summary: per category what was found, skipped (and why) and stored."""
    console = stdout_console()
    per_category: dict[str, int] = summary["per_category"]
    found: dict[str, int] = summary["found"]
    skipped: dict[str, dict[str, int]] = summary["skipped"]
    reasons = list(skipped)
    table = Table(title=f"suite {name}: {summary['pairs']} sentence pairs, {summary['checkpoints']} check-points")
    table.add_column("level")
    table.add_column("category")
    table.add_column("found", justify="right")
    for reason in reasons:
        table.add_column(f"skipped: {reason}", justify="right")
    table.add_column("stored", justify="right")
    levels = {c.name: c.level.value for c in suite.categories}
    for category, stored in per_category.items():
        table.add_row(
            levels.get(category, ""),
            category,
            str(found.get(category, 0)),
            *[str(skipped[reason].get(category, 0)) for reason in reasons],
            str(stored),
        )
    console.print(table)
    notes = []
    trees = summary.get("sentences_with_trees", 0)
    if summary.get("noise_filter") and trees:
        notes.append(f"noise filter: phrase check-points checked against {trees} constituency trees")
        unusable = summary.get("sentences_without_usable_tree", 0)
        if unusable:
            notes.append(f"{unusable} trees did not match their sentence's words and were not used")
    dictionary = suite.options.get("dictionary")
    notes.append(f"DM dictionary: {dictionary} ({suite.options.get('dictionary_entries')} source entries)")
    skipped_pairs = summary.get("skipped_pairs") or []
    if skipped_pairs:
        shown = ", ".join(map(str, skipped_pairs[:20])) + (", ..." if len(skipped_pairs) > 20 else "")
        notes.append(f"{len(skipped_pairs)} pairs skipped as not parallel: {shown}")
    repairs = summary.get("alignment_repairs") or {}
    if any(repairs.values()):
        notes.append(
            f"alignment repaired: {repairs.get('anchored', 0)} dictionary links added, {repairs.get('removed', 0)} "
            f"links they contradict removed, {repairs.get('swapped', 0)} crossed adjective-noun pairs swapped, "
            f"{repairs.get('relinked', 0)} links mended by both parses, "
            f"{repairs.get('bound', 0)} links joining fixed expressions and clitics"
        )
    audit = summary.get("audit")
    if audit:
        notes.append(str(audit["summary"]))
    resumed = summary.get("resumed_chunks")
    if resumed:
        notes.append(f"resumed: {resumed} chunks committed by an interrupted build were taken back")
    notes.append(f"stored in {db} in {elapsed:.1f}s")
    notes.extend(f"warning: {warning}" for warning in summary.get("warnings", ()))
    for note in notes:
        stderr_console().print(note, highlight=False, markup=False)
