"""``checkpoints challenge``: challenge sets built from a suite, and how metrics do on them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from checkpoints.cli.common import check_format, emit, quiet_libraries, stderr_console
from checkpoints.cli.linguistic_options import AnnotationCache, Parsed, StanzaDir
from checkpoints.errors import UsageError
from checkpoints.evaluate.defaults import DEFAULT_SAMPLES, DEFAULT_SEED

EXAMPLES = """
For each check-point, contrastive variants of its reference sentence in which
exactly the check-point's phenomenon is broken, built from the target-side
parse the suite keeps: a word of the category's own part of speech replaced
by another of that part of speech, a noun's number flipped (with a form the
suite's references attest), a negation or a modal deleted, a phrase's or
clause's words reordered. Written to DIR as challenge.tsv (ACES' columns, so
ACES' scripts read it) and challenge.jsonl. The metric scores against the
pair's second reference translation when it has one, else against the good
translation itself (then an item asks whether the metric sees the change).

With --score, every -m metric scores good and bad, and the table gives per
category and per kind of breakage the share of items where the metric
prefers the good translation (ties count half: chance is 0.5), with a 95%
bootstrap interval; challenge.scored.tsv adds ACES' <metric>-good and
<metric>-bad columns.

Examples:

  checkpoints challenge --db pud.db --output challenge/

  checkpoints challenge --db pud.db --output challenge/ --score -m BLEU -m chrF -m -PER

  checkpoints challenge --db pud.db --output challenge/ --category Preposition --format json

  checkpoints challenge --db pud.db --output challenge/ --limit 100 --score \\
      -m SP-Op(*) -m DP-HWCM_w-2 --stanza-dir models
"""


def register(app: typer.Typer) -> None:
    app.command("challenge", help="Build contrastive challenge sets from a suite and score metrics on them.\n" + EXAMPLES)(challenge)


def challenge(
    db: Annotated[str, typer.Option("--db", help="The suite database: an SQLite file or an SQLAlchemy URL.")],
    output: Annotated[Path, typer.Option("--output", help="Folder for challenge.tsv, challenge.jsonl (and challenge.scored.tsv).")],
    score: Annotated[bool, typer.Option("--score", help="Score the items with the -m metrics.")] = False,
    metric: Annotated[list[str] | None, typer.Option("--metric", "-m", help="A metric to score with (any name `metrics` knows); repeat.")] = None,
    category: Annotated[list[str] | None, typer.Option("--category", help="Only the check-points of this category; repeat.")] = None,
    tokenize: Annotated[str | None, typer.Option("--tokenize", help="The metrics' tokenizer (default: sacreBLEU's for the target language).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed of the substitutions and the bootstrap.")] = DEFAULT_SEED,
    samples: Annotated[int, typer.Option("--samples", help="Bootstrap resamples of the intervals.")] = DEFAULT_SAMPLES,
    limit: Annotated[int | None, typer.Option("--limit", help="At most this many items per category, drawn with --seed (metrics that parse are slow).")] = None,
    parsed: Parsed = None,
    stanza_dir: StanzaDir = None,
    annotation_cache: AnnotationCache = None,
    suite: Annotated[str | None, typer.Option("--suite", help="Suite name, when the database holds several.")] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help="table or json (printed to stdout).")] = "table",
) -> None:

    quiet_libraries()
    from checkpoints.evaluate.resample import ResampleSpec
    from checkpoints.report.challenge_report import challenge_json, challenge_table
    from checkpoints.report.formats import json_text
    from checkpoints.service.challenge import (
        challenge_set,
        score_challenge_set,
        write_challenge_set,
    )
    from checkpoints.service.linguistic_options import LinguisticOptions
    from checkpoints.service.option_values import check_at_least

    check_format(output_format, ("table", "json"))
    check_at_least("--samples", samples, 1)
    if limit is not None:
        check_at_least("--limit", limit, 1)
    if metric and not score:
        raise UsageError("-m names metrics to score with: add --score")
    if score and not metric:
        raise UsageError("--score needs at least one metric (-m BLEU, -m chrF, ...)")
    if output.exists() and not output.is_dir():
        raise UsageError(f"--output {output}: not a folder")
    if score:
        from checkpoints.service.metric_texts import checked_metric_names

        checked_metric_names(metric or [])
    linguistic = LinguisticOptions(parsed=list(parsed or []), stanza_dir=stanza_dir, annotation_cache=annotation_cache)
    linguistic.extra()  # a bad linguistic option fails before the items are built
    built = challenge_set(db, suite, seed=seed, categories=category or (), limit=limit)
    scores = None
    if score:
        scores = score_challenge_set(built, metric or [], spec=ResampleSpec(samples=samples, seed=seed),
                                     tokenize=tokenize, linguistic=linguistic)
    written = write_challenge_set(built, output, scores)
    report = challenge_json(built, scores, [str(path) for path in written])
    if output_format == "json":
        emit(json_text(report), None)
    elif scores is not None:
        emit(challenge_table(report), None)
    stderr_console().print(f"{len(built.items)} items written to {', '.join(map(str, written))}", markup=False,
                           highlight=False)
