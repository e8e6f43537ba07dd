"""Cut a UD treebank into sentence ranges, for training models on small data.

German and Chinese have only dev/test treebanks here, so one file must give
training data, an early-stopping set and a held-out evaluation set that
neither of the others has seen. Ranges are by sentence position, so the split
is the same on every machine:

    python scripts/split_treebank.py de_gsd-ud-dev.conllu.xz \\
        --part /tmp/de/train-extra.conllu:0:400 --part /tmp/de/dev.conllu:400:600 \\
        --part /tmp/de/held-out.conllu:600:

Each ``--part FILE:START:END`` writes sentences START..END-1 (END empty: to
the last), comments included, as a plain CoNLL-U file.
"""

from __future__ import annotations

import argparse
import lzma
from pathlib import Path


def read_sentences(path: Path) -> list[str]:
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        blocks = handle.read().split("\n\n")
    return [block.strip("\n") + "\n\n" for block in blocks if block.strip()]


def parse_part(value: str) -> tuple[Path, int, int | None]:
    try:
        name, start, end = value.rsplit(":", 2)
        return Path(name), int(start), int(end) if end else None
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{value!r}: expected FILE:START:END") from error


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("treebank", type=Path)
    parser.add_argument("--part", type=parse_part, action="append", required=True, metavar="FILE:START:END")
    args = parser.parse_args()
    sentences = read_sentences(args.treebank)
    for path, start, end in args.part:
        chosen = sentences[start:end]
        if not chosen:
            parser.error(f"{path}: no sentences in {start}:{'' if end is None else end} of {len(sentences)}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(chosen), encoding="utf-8")
        print(f"{path}: {len(chosen)} sentences ({start}..{start + len(chosen) - 1} of {args.treebank.name})")


if __name__ == "__main__":
    main()
