"""Does a missed check-point mean a real error? ``checkpoints attribute`` on WMT 2021 TED (en→de, zh→en).

    python benchmarks/ted_study.py --models models                      # en→de
    python benchmarks/ted_study.py --models models --pair zh-en
    python benchmarks/ted_study.py --models models --alternatives       # also with evaluate --alternatives
    python benchmarks/ted_study.py --models models --work /tmp/ted --format json

Reads the MQM release bundled in ``tests/data/metrics/ted/<pair>``
(``scripts/extract_ted_mqm.py``: the release's error TSV, gzipped, and a
plain-text copy of the 529 sources, the human reference and the 13 systems'
outputs) and needs:

* the trained models of the pair's languages in ``--models``
  (``checkpoints models train``; the repository's ``models/`` folder holds
  English, German and Chinese);
* eflomal (a dependency of the package);
* a real dictionary: FreeDict's English–German from Debian's
  ``dict-freedict-eng-deu`` package for en→de, CC-CEDICT (the ``cedict``
  dictionary the package installs) for zh→en.

Steps, each timed as a user waits for it:

1. ``checkpoints build`` from raw text (the sources and the reference parsed
   by the trained models, eflomal alignment, dictionary repair); beside it,
   parsing alone in this process: the project's ``StanzaParser`` against the
   same stanza pipeline called directly, sentences per second.
2. ``checkpoints attribute --format json`` of the 13 systems: each output
   scored, aligned to its source with eflomal (all outputs in one corpus,
   with the lexicon the build stored) and the rated error spans attributed
   to the check-points they overlap (:mod:`checkpoints.evaluate.attribution`).
   With ``--alternatives`` a second run with ``--alternatives``.

Printed per category: P(error | missed), P(error | matched) and their lift
with its bootstrap interval; the system-level Pearson of the category score
with the MQM penalty attributed to the category, and, for comparison, with
the overall MQM score (a system's mean segment score, as ``checkpoints meta``
computes it) and BLEU's; and the issue's targets: lift ≥ 3 with
P(error | missed) ≥ 0.30 over all check-points, half of the categories of at
least 100 check-points at Pearson ≥ 0.7 with their attributed penalty.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean

from parsing import (
    DEFAULT_DICTIONARY,
    check_dictionary,
    checkpoints_command,
    parse_speed,
    run_command,
)
from scipy import stats

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "metrics" / "ted"
ALL = "all categories"
MIN_CHECKPOINTS = 100
"""Categories at least this large count toward the correlation target."""


@dataclass(frozen=True)
class Pair:
    source: str
    target: str
    infix: str
    dictionary: str
    taxonomy: str


PAIRS = {
    "en-de": Pair("en", "de", "ende", str(DEFAULT_DICTIONARY), "en"),
    "zh-en": Pair("zh", "en", "zhen", "cedict", "zh"),
}


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def system_files(folder: Path) -> dict[str, Path]:
    return {path.stem: path for path in sorted((folder / "sys").glob("*.txt"))}


def mqm_system_scores(folder: Path, pair: Pair, systems: list[str]) -> dict[str, float]:
    """Mean MQM of each system's rated segments (the release's average segment scores)."""
    from checkpoints.io.mqm import read_avg_seg_scores

    scores = read_avg_seg_scores(folder / f"mqm_ted_{pair.infix}.avg_seg_scores.tsv")
    return {name: fmean(v for (s, _), v in scores.items() if s == name and v is not None) for name in systems}


def study(name: str, models: Path, work: Path, alternatives: bool) -> dict[str, object]:
    pair = PAIRS[name]
    folder = DATA / name
    executable = checkpoints_command()
    database = work / f"ted-{name}.db"
    database.unlink(missing_ok=True)
    timings: dict[str, float] = {}
    timings["build_s"] = run_command([
        executable, "build", "--db", str(database), "--src-lang", pair.source, "--tgt-lang", pair.target,
        "--source", str(folder / "source.txt"), "--reference", str(folder / "ref.txt"), "--aligner", "eflomal",
        "--dictionary", pair.dictionary, "--stanza-dir", str(models), "--taxonomy", pair.taxonomy,
        "--name", f"ted-{name}",
    ])
    speed = parse_speed(models, pair.source, read_lines(folder / "source.txt"))
    timings.update(load_s=speed.load_s, project_per_s=speed.project_per_s, stanza_per_s=speed.stanza_per_s)
    systems = system_files(folder)
    runs = {}
    for label, extra in (("plain", []), ("alternatives", ["--alternatives"]))[: 2 if alternatives else 1]:
        output = work / f"attribution-{name}-{label}.json"
        timings[f"attribute_{label}_s"] = run_command([
            executable, "attribute", "--db", str(database), "--mqm", str(folder / f"mqm_ted_{pair.infix}.tsv.gz"),
            *(argument for system, path in systems.items() for argument in ("--system", f"{system}={path}")),
            *extra, "--format", "json", "-o", str(output),
        ])
        runs[label] = json.loads(output.read_text(encoding="utf-8"))
    mqm = mqm_system_scores(folder, pair, list(systems))
    return {"pair": name, "systems": len(systems), "timings": timings, "mqm": mqm, "runs": runs,
            "bleu": bleu_correlation(database, systems, mqm)}


def bleu_correlation(database: Path, systems: dict[str, Path], mqm: dict[str, float]) -> float:
    """Pearson of the suite's corpus BLEU with MQM over the systems (the usual yardstick)."""
    from checkpoints import load_stored_suite
    from checkpoints.evaluate.scoring import CheckpointScorer

    scorer = CheckpointScorer(load_stored_suite(database))
    bleu = [scorer.bleu(read_lines(path)) for path in systems.values()]
    return float(stats.pearsonr(bleu, [mqm[name] for name in systems]).statistic)


def category_rows(run: dict[str, object], mqm: dict[str, float]) -> list[dict[str, object]]:
    """Per category: the attribution's validity figures, its check-points, and the Pearson of its
    score with the overall MQM score beside the one with its own attributed penalty."""
    errors = run["errors"]
    rows = []
    for validity in run["validity"]:
        name = validity["category"]
        per_system = [row for row in errors if row["category"] == name]
        scores = [row["score"] for row in per_system]
        overall = None
        if len(scores) >= 3 and None not in scores and max(scores) > min(scores):
            overall = float(stats.pearsonr(scores, [mqm[row["system"]] for row in per_system]).statistic)
        rows.append({**validity, "pearson_overall": overall})  # "checkpoints": the category's distinct ones
    return rows


def targets(rows: list[dict[str, object]]) -> str:
    every = next(row for row in rows if row["category"] == ALL)
    large = [row for row in rows if row["category"] != ALL and row["checkpoints"] >= MIN_CHECKPOINTS]
    tracking = [row for row in large if row["pearson"] is not None and row["pearson"] >= 0.7]
    return (f"targets: lift {every['lift']:.2f} (≥ 3), P(error | missed) {every['p_error_missed']:.3f} (≥ 0.30); "
            f"{len(tracking)} of {len(large)} categories of ≥ {MIN_CHECKPOINTS} check-points at Pearson ≥ 0.7 with "
            f"their attributed penalty ({', '.join(row['category'] for row in tracking) or 'none'})")


def render(report: dict[str, object]) -> str:
    timings = report["timings"]
    lines = [
        f"TED {report['pair']}: 529 sentence pairs, {report['systems']} systems",
        f"build from raw text (whole command): {timings['build_s']:.1f} s = {529 / timings['build_s']:.1f} pairs/s; "
        f"parsing in process: {timings['project_per_s']:.1f} sentences/s (stanza's pipeline directly: "
        f"{timings['stanza_per_s']:.1f}/s; loading the models {timings['load_s']:.1f} s)",
        "attribute (whole command: scoring, eflomal alignment of 13 outputs, attribution): "
        + ", ".join(f"{key[10:-2]} {value:.1f} s" for key, value in timings.items() if key.startswith("attribute_")),
        f"BLEU against overall MQM: Pearson {report['bleu']:.3f}",
    ]
    plain = category_rows(report["runs"]["plain"], report["mqm"])
    alternative = report["runs"].get("alternatives")
    with_alternatives = {row["category"]: row for row in category_rows(alternative, report["mqm"])} if alternative else {}
    first = report["runs"]["plain"]
    lines.append(f"output words inside a rated error span: {100 * first['words_in_errors']:.1f}%")
    lines.append("")
    header = ("| category | check-points | P(error \\| missed) | P(error \\| matched) | lift [95%] | "
              "Pearson with its attributed penalty | Pearson with overall MQM |")
    if alternative:
        header += " with --alternatives: P(error \\| missed) / lift |"
    lines += [header, "|---|---:|---:|---:|---:|---:|---:|" + ("---:|" if alternative else "")]
    for row in plain:
        few = " !" if row["warnings"] else ""
        low, high = row["lift_interval"]
        cells = [row["category"], str(row["checkpoints"]), _number(row["p_error_missed"]) + few,
                 _number(row["p_error_matched"]) + few,
                 _number(row["lift"], 2) + (f" [{low:.2f}, {high:.2f}]" if low is not None else "") + few,
                 _number(row["pearson"]) + few, _number(row["pearson_overall"]) + few]
        if alternative:
            other = with_alternatives[row["category"]]
            cells.append(f"{_number(other['p_error_missed'])} / {_number(other['lift'], 2)}" + (" !" if other["warnings"] else ""))
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", targets(plain)]
    if alternative:
        lines.append("with --alternatives: " + targets(list(with_alternatives.values())))
    return "\n".join(lines)


def _number(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, required=True, help="folder holding the trained model directories")
    parser.add_argument("--pair", choices=sorted(PAIRS), default="en-de")
    parser.add_argument("--alternatives", action="store_true", help="also attribute with evaluate's --alternatives")
    parser.add_argument("--work", type=Path, help="keep the suite database and JSON here (default: a temporary folder)")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    args = parser.parse_args()
    if args.pair == "en-de":
        check_dictionary(DEFAULT_DICTIONARY)
    with tempfile.TemporaryDirectory(prefix="ted-study-") as temp:
        work = args.work or Path(temp)
        work.mkdir(parents=True, exist_ok=True)
        report = study(args.pair, args.models, work, args.alternatives)
    print(json.dumps(report, indent=2) if args.format == "json" else render(report))


if __name__ == "__main__":
    main()
