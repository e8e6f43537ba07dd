"""``checkpoints align``: word alignments as a build makes them, written out and measured."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import (
    ALIGN_SEED_HELP,
    check_format,
    emit,
    progress_bar,
    quiet_libraries,
    stage_progress,
    stderr_console,
)
from checkpoints.errors import InputError, UsageError
from checkpoints.extract.align_quality import alignment_quality, read_gold, read_pair_numbers
from checkpoints.extract.eflomal_process import DEFAULT_ALIGN_SEED
from checkpoints.io.pharaoh import format_pharaoh, write_pharaoh
from checkpoints.report.formats import json_text
from checkpoints.service.build import BuildRequest, align_pairs

EXAMPLES = """
Aligns a parallel corpus exactly as `checkpoints build` would (same aligner,
dictionary priors and repairs), writes the links in Pharaoh format (i-j,
0-based, one line per sentence pair; with --mark-unsure, i?j for links the
aligner is unsure of), and with --gold prints precision, recall and the
alignment error rate (Och & Ney 2003) against gold links (i-j sure, i?j
possible). --alignment measures a given file instead of aligning.

Examples:

  checkpoints align --src-lang en --tgt-lang es --source-conllu en.conllu \\
      --reference-conllu es.conllu --aligner eflomal --dictionary freedict-eng-spa.index \\
      --output en-es.align

  checkpoints align --src-lang zh --tgt-lang en --source-conllu zh.conllu \\
      --reference-conllu en.conllu --aligner eflomal --dictionary cedict \\
      --gold zh-en.dev.pharaoh --gold-pairs dev-pairs.txt

  checkpoints align --src-lang en --tgt-lang es --source-conllu en.conllu \\
      --reference-conllu es.conllu --alignment mine.align --gold gold.align --format json
"""


def register(app: typer.Typer) -> None:
    app.command("align", help="Word-align a parallel corpus, write Pharaoh links, measure them against gold.\n" + EXAMPLES)(align)


def align(
    src_lang: Annotated[str, typer.Option("--src-lang", "--source-lang", help="Source language code, e.g. en.")],
    tgt_lang: Annotated[str, typer.Option("--tgt-lang", "--target-lang", help="Target language code, e.g. es.")],
    source: Annotated[Path | None, typer.Option("--source", help="Source sentences, one per line (parsed with stanza).")] = None,
    reference: Annotated[Path | None, typer.Option("--reference", help="Reference translations, one per line.")] = None,
    source_conllu: Annotated[Path | None, typer.Option("--source-conllu", help="Parsed source sentences (CoNLL-U).")] = None,
    reference_conllu: Annotated[Path | None, typer.Option("--reference-conllu", help="Parsed references (CoNLL-U).")] = None,
    alignment: Annotated[Path | None, typer.Option("--alignment", help="Measure this Pharaoh file instead of aligning.")] = None,
    aligner: Annotated[str, typer.Option("--aligner", help="eflomal (offline, learns from the corpus) or simalign (a BERT model, downloaded once).")] = "eflomal",
    align_model: Annotated[str, typer.Option("--align-model", help="simalign model: a Hugging Face name or a local directory.")] = "bert-base-multilingual-cased",
    align_method: Annotated[str, typer.Option("--align-method", help="simalign matching method: itermax, mwmf or inter.")] = "itermax",
    seed: Annotated[int, typer.Option("--seed", metavar="N", help=ALIGN_SEED_HELP)] = DEFAULT_ALIGN_SEED,
    dictionary: Annotated[list[Path] | None, typer.Option("--dictionary", help="Bilingual dictionary for priors and repairs (as for build); repeatable.")] = None,
    repair: Annotated[bool, typer.Option("--repair/--no-repair", help="Repair the alignment with the dictionary and fixed expressions.")] = True,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the Pharaoh links here (default: stdout, unless --gold is given).")] = None,
    mark_unsure: Annotated[bool, typer.Option("--mark-unsure", help="Write links the aligner is unsure of as i?j.")] = False,
    gold: Annotated[Path | None, typer.Option("--gold", help="Gold links (Pharaoh; i?j = possible) to measure against.")] = None,
    gold_pairs: Annotated[Path | None, typer.Option("--gold-pairs", help="1-based pair numbers of the gold lines (default: one gold line per pair).")] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help="How --gold figures are printed: table or json.")] = "table",
    stanza_dir: Annotated[str | None, typer.Option("--stanza-dir", help="Stanza models: stanza's resources (models download), a directory written by models train, or a folder of those (default: $CHECKPOINTS_STANZA_DIR, else stanza's).")] = None,
) -> None:

    quiet_libraries()
    check_format(output_format, ("table", "json"))
    if gold_pairs is not None and gold is None:
        raise UsageError("--gold-pairs needs --gold")
    request = BuildRequest(
        source_lang=src_lang,
        target_lang=tgt_lang,
        source=source,
        references=[reference] if reference is not None else [],
        source_conllu=source_conllu,
        reference_conllu=[reference_conllu] if reference_conllu is not None else [],
        alignments=[alignment] if alignment is not None else [],
        aligner=aligner,
        align_model=align_model,
        align_method=align_method,
        seed=seed,
        dictionaries=list(dictionary or []),
        repair=repair,
        stanza_dir=stanza_dir,
    )
    request.validate()
    for path in (gold, gold_pairs):
        if path is not None and not path.is_file():
            raise InputError(path, None, "no such file")
    with progress_bar() as bar:
        corpus = align_pairs(request, stage_progress(bar))
    alignments = [pair.alignments[0] for pair in corpus.pairs]
    if output is not None:
        write_pharaoh(output, alignments, mark_unsure=mark_unsure)
        stderr_console().print(f"wrote {len(alignments)} alignments to {output}")
    elif gold is None:
        emit("".join(format_pharaoh(a, mark_unsure=mark_unsure) + "\n" for a in alignments), None)
    if gold is None:
        return
    numbers = read_pair_numbers(gold_pairs) if gold_pairs is not None else None
    pairs = corpus.pairs
    entries = read_gold(gold, [len(p.source) for p in pairs], [len(p.references[0]) for p in pairs], numbers)
    quality = alignment_quality([alignments[position] for position, _ in entries], [truth for _, truth in entries])
    if output_format == "json":
        emit(json_text(quality.to_json()), None)
        return
    emit(
        f"gold pairs {quality.pairs}  links: predicted {quality.predicted}, sure {quality.sure}\n"
        f"precision {quality.precision:.4f}  recall {quality.recall:.4f}  AER {quality.aer:.4f}\n",
        None,
    )
