"""Challenge sets built from PUD suites, and how the lexical metrics do on them: whole commands, timed.

For each language pair the suite is built as ``reference_quality.py`` builds
it (gold PUD CoNLL-U, eflomal, the pair's dictionaries), then

    checkpoints challenge --db SUITE --output DIR --score -m METRIC ... --format json

builds the contrastive items of every check-point, writes them (ACES' TSV and
JSONL) and scores every metric on good and bad. The script prints both
commands' wall time, the number of items per kind of breakage, and a
Markdown table of accuracy per category and per breakage (ties count half:
0.5 is chance), one column per metric. PUD has one reference per sentence,
so every item is scored against its good translation: an accuracy under 1
says the metric did not see the change.

The linguistic metrics (``--linguistic``, default SP-Op(*), DP-HWCM_w-2,
DP-Or(*)) parse every good and bad sentence with the repository's models
(``models/``, English and German targets), so they score a sample:
``--limit`` items per category (default 50), drawn with the command's seed.

    python benchmarks/challenge.py                       # en-de and zh-en
    python benchmarks/challenge.py --pair en-es -m BLEU -m -PER
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from reference_quality import CONFIGS, build_command

METRICS = ("BLEU", "NIST", "chrF", "-TER", "-WER", "-PER", "GTM-1", "ROUGE-L", "NGRAM-cosTok2ngrams")
LINGUISTIC = ("SP-Op(*)", "DP-HWCM_w-2", "DP-Or(*)")
MODELS = Path(__file__).resolve().parents[1] / "models"


def timed(command: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(command[:2])} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed, done.stdout


def table(report: dict) -> str:
    metrics = report["metrics"]
    cells: dict[tuple[str, str], dict[str, dict]] = {}
    for row in report["accuracy"]:
        cells.setdefault((row["grouping"], row["group"]), {})[row["metric"]] = row
    lines = ["| group | items | " + " | ".join(metrics) + " |", "|---|---|" + "---|" * len(metrics)]
    for (grouping, group), by_metric in cells.items():
        count = next(iter(by_metric.values()))["items"]
        label = group if grouping != "breakage" else f"*{group}*"
        lines.append(f"| {label} | {count} | " + " | ".join(f"{by_metric[m]['accuracy']:.3f}" for m in metrics) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pair", action="append", choices=sorted(CONFIGS), help="language pair (default: en-de and zh-en)")
    parser.add_argument("-m", "--metric", action="append", help=f"metrics to score (default: {' '.join(METRICS)})")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--linguistic", action="append", help=f"linguistic metrics (default: {' '.join(LINGUISTIC)})")
    parser.add_argument("--limit", type=int, default=50, help="items per category the linguistic metrics score")
    args = parser.parse_args(argv)
    metrics = args.metric or list(METRICS)
    linguistic = args.linguistic or list(LINGUISTIC)
    for pair in args.pair or ["en-de", "zh-en"]:
        config = CONFIGS[pair]
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            db = folder / "suite.db"
            built, _ = timed(build_command(config, db))
            command = ["checkpoints", "challenge", "--db", str(db), "--output", str(folder / "challenge"), "--score",
                       "--samples", str(args.samples), "--format", "json"]
            for metric in metrics:
                command += ["-m", metric]
            scored, printed = timed(command)
            report = json.loads(printed)
            made, _ = timed(["checkpoints", "challenge", "--db", str(db), "--output", str(folder / "unscored")])
            parsed_report, parsed_seconds = None, 0.0
            if (MODELS / config.target_lang).is_dir() and linguistic:
                command = ["checkpoints", "challenge", "--db", str(db), "--output", str(folder / "parsed"), "--score",
                           "--limit", str(args.limit), "--samples", str(args.samples), "--format", "json",
                           "--stanza-dir", str(MODELS), "--annotation-cache", str(folder / "cache")]
                for metric in [*linguistic, "BLEU"]:
                    command += ["-m", metric]
                parsed_seconds, printed = timed(command)
                parsed_report = json.loads(printed)
        kinds = ", ".join(f"{kind} {count}" for kind, count in report["breakages"].items())
        print(f"\n## {pair}: {report['items']} items ({kinds})\n")
        print(f"whole commands: build {built:.1f} s; challenge (build the items, write them) {made:.1f} s; "
              f"challenge --score with {len(metrics)} metrics {scored:.1f} s\n")
        print(table(report))
        if parsed_report is not None:
            print(f"\n### {pair}, linguistic metrics: {parsed_report['items']} items (at most {args.limit} per "
                  f"category), parsed with models/{config.target_lang}: whole command {parsed_seconds:.1f} s\n")
            print(table(parsed_report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
