"""Which check-point categories track human judgments? A study on real MT output: WMT 2021 TED talks, en→de.

    python benchmarks/ted_study.py --models models
    python benchmarks/ted_study.py --models models --work /tmp/ted --format json

Reads the compact copy of the MQM release in ``tests/data/metrics/ted/en-de``
(``scripts/extract_ted_mqm.py``: the 529 English sources, the human reference,
13 systems' outputs, the release's segment MQM scores and every rated error
span) and needs:

* English and German models in ``--models`` (``checkpoints models train``;
  the repository's ``models/`` folder holds both);
* eflomal (``pip install 'mt-checkpoints[eflomal]'``);
* a real English–German dictionary: FreeDict's, from Debian's
  ``dict-freedict-eng-deu`` package (``--dictionary`` names another file).

Steps, each timed as a user waits for it:

1. ``checkpoints build`` from raw text (the sources and the reference parsed
   by the trained models, eflomal alignment, dictionary repair): a whole
   command, reported as sentence pairs per second. Beside it, parsing alone
   in this process: the project's ``StanzaParser`` against the same stanza
   pipeline called directly (``bulk_process``), sentences per second.
2. ``checkpoints evaluate`` of the 13 systems: a whole command.
3. Per category, over the 13 systems: Pearson and Kendall (tau-b) of the
   category score with MQM (a system's MQM is the mean of its rated
   segments, as ``checkpoints meta`` computes it; higher is better), with
   their p-values; the overall score and the suite's BLEU for comparison.
4. Per category, whether check-points sit where humans marked errors. Each
   system's output is aligned to the source with eflomal (all 13 systems and
   the reference in one corpus, lower-cased, with the dictionary's priors), a
   check-point's source words are followed through the links to the
   output's words, and the check-point *overlaps* an error when one of those
   words' characters lies in a rated error span (any rater) of that output.
   Check-points are split into *missed* (less than half of the chosen
   reference's n-grams found in the output) and *matched* (half or more); a
   check-point with no linked output word is counted apart (``unlinked``).
   The table gives, per split, the share overlapping any error and each MQM
   error type (Accuracy, Fluency, Terminology, Style; Other is in "any").

A category tracks human judgment when its missed check-points overlap errors
clearly more often than its matched ones, and its system scores correlate
with MQM.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean

import numpy as np
from parsing import (
    DEFAULT_DICTIONARY,
    check_dictionary,
    checkpoints_command,
    parse_speed,
    run_command,
    stored_suite,
)
from scipy import stats

TED = Path(__file__).resolve().parent.parent / "tests" / "data" / "metrics" / "ted" / "en-de"
ERROR_TYPES = ("Accuracy", "Fluency", "Terminology", "Style")
MISSED_BELOW = 0.5
"""A check-point is missed when less than this share of its chosen reference's n-grams is found."""
WORD = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]")
"""Output words for the alignment, with their character offsets."""


@dataclass
class Split:
    """Check-points of one category and one side of the split, and how many overlap each error type."""

    count: int = 0
    overlaps: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def share(self, kind: str) -> float | None:
        return self.overlaps[kind] / self.count if self.count else None


@dataclass
class CategoryFindings:
    name: str
    checkpoints: int
    pearson: float
    pearson_p: float
    kendall: float
    kendall_p: float
    missed: Split = field(default_factory=Split)
    matched: Split = field(default_factory=Split)
    unlinked: int = 0


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def system_files() -> dict[str, Path]:
    return {path.stem: path for path in sorted((TED / "sys").glob("*.txt"))}


def mqm_system_scores(systems: Sequence[str]) -> dict[str, float]:
    """Mean MQM of each system's rated segments (the release's average segment scores)."""
    from checkpoints.io.mqm import read_avg_seg_scores

    scores = read_avg_seg_scores(TED / "mqm_ted_ende.avg_seg_scores.tsv")
    return {name: fmean(v for (s, _), v in scores.items() if s == name and v is not None) for name in systems}


def read_error_spans() -> dict[tuple[str, int], list[tuple[str, int, int]]]:
    """(system, 0-based segment) → [(error type, start, end)] for errors marked in the output."""
    spans: dict[tuple[str, int], list[tuple[str, int, int]]] = defaultdict(list)
    for line in read_lines(TED / "errors.tsv")[1:]:
        system, segment, _rater, category, _severity, start, end = line.split("\t")
        if int(start) >= 0:
            spans[(system, int(segment) - 1)].append((category.split("/")[0], int(start), int(end)))
    return spans


def link_outputs(suite, dictionary: Path) -> dict[str, list[tuple[list[tuple[int, int]], dict[int, set[int]]]]]:  # type: ignore[no-untyped-def]
    """Per system, per pair: the output words' character ranges and source word → output words."""
    from checkpoints.extract.align_eflomal import EflomalAligner
    from checkpoints.extract.dictionary import read_dictionary

    systems = {**system_files(), "ref": TED / "ref.txt"}
    sources = [[(t.lemma if t.lemma not in ("", "_") else t.form).lower() for t in pair.source.tokens] for pair in suite.pairs]
    words = {name: [[(m.start(), m.end()) for m in WORD.finditer(line)] for line in read_lines(path)] for name, path in systems.items()}
    corpus = []
    for name, path in systems.items():
        for source, line, ranges in zip(sources, read_lines(path), words[name], strict=True):
            corpus.append((source, [line[start:end].lower() for start, end in ranges]))
    lemmas = {word for source in sources for word in source}
    lexicon = read_dictionary(dictionary, "en", "de", lemmas)
    alignments = iter(EflomalAligner().align(corpus, lexicon))
    linked = {}
    for name in systems:
        per_pair = []
        for ranges in words[name]:
            links: dict[int, set[int]] = defaultdict(set)
            for source_index, target_index in next(alignments).links:
                links[source_index].add(target_index)
            per_pair.append((ranges, links))
        linked[name] = per_pair
    return linked


def study(models: Path, dictionary: Path, work: Path) -> dict[str, object]:
    import checkpoints

    executable = checkpoints_command()
    database = work / "ted-ende.db"
    database.unlink(missing_ok=True)
    sources = read_lines(TED / "source.txt")
    timings: dict[str, float] = {}
    timings["build_s"] = run_command([
        executable, "build", "--db", str(database), "--src-lang", "en", "--tgt-lang", "de",
        "--source", str(TED / "source.txt"), "--reference", str(TED / "ref.txt"), "--aligner", "eflomal",
        "--dictionary", str(dictionary), "--stanza-dir", str(models), "--taxonomy", "en", "--name", "ted-ende",
    ])
    systems = system_files()
    timings["evaluate_s"] = run_command([executable, "evaluate", "--db", str(database), *(
        argument for name, path in systems.items() for argument in ("--system", f"{name}={path}")
    )])
    speed = parse_speed(models, "en", sources)
    timings.update(load_s=speed.load_s, project_per_s=speed.project_per_s, stanza_per_s=speed.stanza_per_s)
    suite = stored_suite(database)
    evaluation = checkpoints.stored_evaluation(database, list(systems))
    mqm = mqm_system_scores(list(systems))
    human = np.array([mqm[name] for name in systems])
    started = time.perf_counter()
    linked = link_outputs(suite, dictionary)
    timings["align_outputs_s"] = time.perf_counter() - started
    errors = read_error_spans()

    def correlate(name: str, values: list[float], count: int) -> CategoryFindings:
        r, r_p = stats.pearsonr(values, human)
        tau, tau_p = stats.kendalltau(values, human)
        return CategoryFindings(name, count, float(r), float(r_p), float(tau), float(tau_p))

    categories = [c.name for c in suite.categories if any(cp.category == c.name for cp in suite.checkpoints)]
    findings = {"BLEU": correlate("BLEU", [evaluation.bleu[name] for name in systems], 0)}
    findings["all"] = correlate("all", [evaluation.reports[name].taxonomy.score for name in systems],
                                len(evaluation.scorer.checkpoints))
    for category in categories:
        scores = [evaluation.reports[name].categories[category].score for name in systems]
        count = sum(cp.category == category for cp in evaluation.scorer.checkpoints)
        findings[category] = correlate(category, scores, count)
    pair_position = {pair.id: index for index, pair in enumerate(suite.pairs)}
    for name in systems:
        result = evaluation.scores[name]
        ratio = np.divide(result.matched, result.total, out=np.zeros(len(result.total)), where=result.total > 0)
        for checkpoint, share, total in zip(evaluation.scorer.checkpoints, ratio, result.total, strict=True):
            if total == 0:
                continue
            position = pair_position[checkpoint.pair_id]
            ranges, links = linked[name][position]
            chars = [ranges[j] for i in checkpoint.source_indices for j in links.get(i, ())]
            for key in ("all", checkpoint.category):
                target = findings[key]
                if not chars:
                    target.unlinked += 1
                    continue
                side = target.missed if share < MISSED_BELOW else target.matched
                side.count += 1
                kinds = {kind for kind, start, end in errors.get((name, position), ())
                         if any(a < end and start < b for a, b in chars)}
                for kind in kinds | ({"any"} if kinds else set()):
                    side.overlaps[kind] += 1
    in_error = sum(
        any(start < e_end and e_start < end for _, e_start, e_end in errors.get((name, position), ()))
        for name in systems for position, (ranges, _) in enumerate(linked[name]) for start, end in ranges
    )
    words = sum(len(ranges) for name in systems for ranges, _ in linked[name])
    return {
        "pairs": len(suite.pairs),
        "systems": len(systems),
        "timings": timings,
        "words_in_errors": in_error / words,
        "findings": list(findings.values()),
    }


def render(report: dict[str, object]) -> str:
    timings = report["timings"]
    pairs = report["pairs"]
    lines = [
        f"TED en→de: {pairs} sentence pairs, {report['systems']} systems",
        f"build from raw text (whole command): {timings['build_s']:.1f} s = {pairs / timings['build_s']:.1f} pairs/s; "
        f"parsing in process: {timings['project_per_s']:.1f} sentences/s (stanza's pipeline directly: "
        f"{timings['stanza_per_s']:.1f}/s; loading the models {timings['load_s']:.1f} s)",
        f"evaluate 13 systems (whole command): {timings['evaluate_s']:.1f} s; aligning the outputs: {timings['align_outputs_s']:.1f} s",
        f"output words inside a rated error span: {100 * report['words_in_errors']:.1f}%",
        "",
        "| category | check-points | Pearson (p) | Kendall (p) | any error: missed / matched | "
        + " | ".join(f"{kind}: missed / matched" for kind in ERROR_TYPES) + " | missed share | unlinked |",
        "|---|---:|---:|---:|---:|" + "---:|" * len(ERROR_TYPES) + "---:|---:|",
    ]
    for finding in report["findings"]:
        cells = [finding.name, str(finding.checkpoints) if finding.checkpoints else "",
                 f"{finding.pearson:.3f} ({finding.pearson_p:.2f})", f"{finding.kendall:.3f} ({finding.kendall_p:.2f})"]
        if finding.name == "BLEU":
            lines.append("| " + " | ".join(cells + [""] * (len(ERROR_TYPES) + 3)) + " |")
            continue
        for kind in ("any", *ERROR_TYPES):
            missed, matched = finding.missed.share(kind), finding.matched.share(kind)
            cells.append(f"{_percent(missed)} / {_percent(matched)}")
        linked = finding.missed.count + finding.matched.count
        cells.append(_percent(finding.missed.count / linked if linked else None))
        cells.append(str(finding.unlinked))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, required=True, help="folder holding the en and de model directories")
    parser.add_argument("--dictionary", type=Path, default=DEFAULT_DICTIONARY, help="English–German dictionary")
    parser.add_argument("--work", type=Path, help="keep the suite database here (default: a temporary folder)")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    args = parser.parse_args()
    check_dictionary(args.dictionary)
    with tempfile.TemporaryDirectory(prefix="ted-study-") as temp:
        work = args.work or Path(temp)
        work.mkdir(parents=True, exist_ok=True)
        report = study(args.models, args.dictionary, work)
    if args.format == "json":
        report["findings"] = [finding.__dict__ | {"missed": vars(finding.missed), "matched": vars(finding.matched)}
                              for finding in report["findings"]]
        print(json.dumps(report, indent=2, default=dict))
    else:
        print(render(report))


if __name__ == "__main__":
    main()
