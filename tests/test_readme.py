"""Every shell command of the README, and of the docs pages it links, runs as written.

The ```sh blocks of README.md and then of docs/*.md are read in order
(``PAGES``); each command (``\\`` continuations joined, comment lines left
out) runs with bash in one working directory, so later commands see what
earlier ones wrote (``pud.db`` from the build, ``metrics.json`` for the
report). The directory is first filled with the files the commands name,
taken from the repository's own data: the UD PUD treebanks for
``en.conllu``/``es.conllu``/``de.conllu``/``zh.conllu``, the demo's Apertium
outputs for ``direct.es``/``pivot.es``, the WMT 2021 TED copies under
tests/data/metrics/ted for the raw-text corpus, the systems and the MQM file.
The corpora are cut to their first sentences (``PUD_PAIRS``, ``TED_SEGMENTS``)
and the MQM file to a few systems (``MQM_SYSTEMS``), so that the whole walk
stays within a few minutes; the commands are the README's, unchanged.

Raw-text builds parse with the repository's trained models
(``CHECKPOINTS_STANZA_DIR=models``) in place of ``checkpoints models
download``, which needs the network and is skipped. Commands that cannot run
here are listed in ``SKIP`` with the reason; a command naming a Debian data
file that is not installed (``/usr/share/dictd/...``) is skipped too, and so is
every later command that needs a file a skipped command would have written.
Commands that fail because of a known bug of the program are listed in
``XFAIL`` (strict: the entry must go once the bug is fixed).
"""

from __future__ import annotations

import gzip
import itertools
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
DEMO = ROOT / "checkpoints" / "data" / "demo"
TED = DATA / "metrics" / "ted"
MODELS = ROOT / "models"

PAGES = [
    "README.md",
    "docs/building.md",
    "docs/evaluation.md",
    "docs/audit.md",
    "docs/attribution.md",  # builds ted.db, which docs/metrics.md uses
    "docs/metrics.md",
    "docs/report.md",
    "docs/benchmarks.md",
    "docs/layout.md",
]
"""The order commands run in; a docs page not listed here runs after these, by name."""

PUD_PAIRS = 100
"""PUD sentence pairs the CoNLL-U builds get (eflomal runs more iterations on fewer sentences:
fewer pairs would save little)."""
TED_SEGMENTS = 50
"""TED en-de segments of the raw-text corpus, the systems and the MQM file."""
MQM_SYSTEMS = {"ref", "Nemo", "UEdin", "Online-W", "Facebook-AI"}
"""The MQM file keeps these systems' ratings: attribute aligns every output of the file with eflomal."""
COMMAND_TIMEOUT_S = 300

SKIP = {
    "pip install torch==2.13.0 && pip install -e . && checkpoints demo":
        "installs packages (.ci/run runs the set-up as written); the demo runs below",
    "pip install -e '.[test,eflomal,reference-tools,lm,ray]' && python -m pytest":
        "installs packages and runs the whole test suite, this test included",
    "checkpoints models download en && checkpoints models download de":
        "downloads stanza models (network); the test parses with the repository's models/ instead",
    "checkpoints models download en && checkpoints models download es":
        "downloads stanza models (network)",
    "checkpoints build --db news.db --src-lang en --tgt-lang es --source news.en --reference news.es "
    "--alignment news.align --dictionary en-es.tsv":
        "parses raw Spanish: needs stanza's downloaded Spanish models (models/ has en, de and zh)",
    "checkpoints models train en --treebank en_ewt-ud-train.conllu.xz --dev en_ewt-ud-dev.conllu.xz "
    "--output models/en --size full --threads 1":
        "trains full-size models for about two hours from the whole UD English EWT, which the repository does not hold",
}
"""Commands (whitespace collapsed) that do not run here, with the reason."""

XFAIL: dict[str, str] = {}
"""Commands that fail because of a bug of the program (not of the README), with the error."""

OUTPUT_OPTIONS = {"--output", "-o", ">"}
CREATES_DB = {"build", "import", "demo"}


def normalized(command: str) -> str:
    return " ".join(command.split())


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    text: str

    @property
    def key(self) -> str:
        return normalized(self.text)

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def fenced_blocks(text: str) -> list[tuple[str, int, list[str]]]:
    """(language, line number of the first content line, content lines) of every fenced block,
    indented ones (inside a list item) included, with the fence's indentation removed."""
    blocks: list[tuple[str, int, list[str]]] = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        opening = re.match(r"^(\s*)```(\S*)\s*$", lines[index])
        if not opening:
            index += 1
            continue
        indent, language = opening.group(1), opening.group(2)
        start, content = index + 2, []
        index += 1
        while index < len(lines) and not re.match(r"^\s*```\s*$", lines[index]):
            line = lines[index]
            content.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            index += 1
        blocks.append((language, start, content))
        index += 1
    return blocks


def shell_commands(page: str) -> list[Command]:
    commands: list[Command] = []
    for language, start, content in fenced_blocks((ROOT / page).read_text(encoding="utf-8")):
        if language != "sh":
            continue
        pending: list[str] = []
        first = start
        for offset, raw in enumerate(content):
            line = raw.strip()
            if not pending:
                if not line or line.startswith("#"):
                    continue
                first = start + offset
            if line.endswith("\\"):
                pending.append(line[:-1].strip())
                continue
            pending.append(line)
            commands.append(Command(page, first, " ".join(pending)))
            pending = []
        assert not pending, f"{page}:{first}: a command ends with a continuation"
    return commands


def pages() -> list[str]:
    listed = [page for page in PAGES if (ROOT / page).exists()]
    others = sorted(
        str(path.relative_to(ROOT)) for path in (ROOT / "docs").glob("*.md") if str(path.relative_to(ROOT)) not in PAGES
    )
    return listed + others


COMMANDS = [command for page in pages() for command in shell_commands(page)]


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return command.split()


def outputs(command: str) -> set[str]:
    """Files the command writes: --output/-o/> targets, and the store of build, import and demo."""
    words = _words(command)
    written = {value for option, value in itertools.pairwise(words) if option in OUTPUT_OPTIONS}
    subcommands = {value for word, value in itertools.pairwise(words) if word == "checkpoints"}
    if subcommands & CREATES_DB:
        written |= {value for option, value in itertools.pairwise(words) if option == "--db"}
    return written


def needs(command: str) -> set[str]:
    """Files the command reads: every other word that looks like a file name (NAME=FILE gives FILE)."""
    written = outputs(command)
    named = set()
    for word in _words(command):
        value = word.split("=", 1)[1] if "=" in word and not word.startswith("-") else word
        if value.startswith("-") or value in written or not re.search(r"[./]", value):
            continue
        if re.fullmatch(r"[\d.]+", value):
            continue
        named.add(value)
    return named


# -- the working directory -----------------------------------------------------------


def _first_sentences(source: Path, target: Path, count: int) -> list[str]:
    """The first ``count`` sentences of a gzipped CoNLL-U file; returns their ``# text`` lines."""
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        blocks = [block for block in handle.read().split("\n\n") if block.strip()][:count]
    target.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    return [line.removeprefix("# text = ") for block in blocks for line in block.split("\n") if line.startswith("# text = ")]


def _first_lines(source: Path, target: Path, count: int | None = None) -> None:
    lines = source.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    target.write_text("\n".join(lines[:count]) + "\n", encoding="utf-8")


def prepare(folder: Path) -> None:
    """The files the README's commands name, from the repository's data (see the module docstring)."""
    # PUD: en→es (the demo's treebanks and outputs), en→de, zh→en, and the en-es gold alignments
    _first_sentences(DEMO / "en_pud.conllu.gz", folder / "en.conllu", PUD_PAIRS)
    references = _first_sentences(DEMO / "es_pud.conllu.gz", folder / "es.conllu", PUD_PAIRS)
    assert len(references) == PUD_PAIRS
    (folder / "es.txt").write_text("\n".join(references) + "\n", encoding="utf-8")
    _first_sentences(DATA / "build" / "de_pud.conllu.gz", folder / "de.conllu", PUD_PAIRS)
    _first_sentences(DATA / "taxonomy" / "zh_pud-ud-test.conllu.gz", folder / "zh.conllu", PUD_PAIRS)
    for system in ("direct", "pivot"):
        _first_lines(DEMO / f"{system}.es.txt", folder / f"{system}.es", PUD_PAIRS)
    gold = DATA / "gold-align"
    pairs = gold.joinpath("dev-pairs.txt").read_text(encoding="utf-8").split()
    links = gold.joinpath("en-es.dev.pharaoh").read_text(encoding="utf-8").split("\n")
    kept = [(pair, link) for pair, link in zip(pairs, links, strict=False) if int(pair) <= PUD_PAIRS]
    assert kept, "no gold pair among the first PUD pairs"
    (folder / "gold-pairs.txt").write_text("".join(f"{pair}\n" for pair, _ in kept), encoding="utf-8")
    (folder / "gold.align").write_text("".join(f"{link}\n" for _, link in kept), encoding="utf-8")

    # TED en-de: the raw-text corpus (quick start, news.*, ted.db), two systems, the MQM file
    ende = TED / "en-de"
    for name in ("corpus.en", "news.en", "source.en"):
        _first_lines(ende / "source.txt", folder / name, TED_SEGMENTS)
    for name in ("corpus.de", "news.de", "ref.de"):
        _first_lines(ende / "ref.txt", folder / name, TED_SEGMENTS)
    _first_lines(ende / "sys" / "Online-W.txt", folder / "a.de", TED_SEGMENTS)
    _first_lines(ende / "sys" / "UEdin.txt", folder / "b.de", TED_SEGMENTS)
    _first_lines(ende / "sys" / "Nemo.txt", folder / "nemo.txt", TED_SEGMENTS)
    _first_lines(ende / "sys" / "UEdin.txt", folder / "uedin.txt", TED_SEGMENTS)
    ids = ende.joinpath("ids.tsv").read_text(encoding="utf-8").split("\n")[:TED_SEGMENTS]
    segments = {line.split("\t")[2] for line in ids}
    with gzip.open(ende / "mqm_ted_ende.tsv.gz", "rt", encoding="utf-8") as handle:
        rows = handle.read().split("\n")
    kept_rows = [rows[0]] + [
        row for row in rows[1:] if row and row.split("\t")[3] in segments and row.split("\t")[0] in MQM_SYSTEMS
    ]
    (folder / "mqm_ted_ende.tsv").write_text("\n".join(kept_rows) + "\n", encoding="utf-8")

    # TED zh-en: two references and two systems, into English (metrics, qarla)
    zhen = TED / "zh-en"
    for name, source in (("ref.txt", "ref.txt"), ("ref1.txt", "ref.txt"), ("refB.txt", "refB.txt"), ("ref2.txt", "refB.txt")):
        _first_lines(zhen / source, folder / name)
    _first_lines(zhen / "sys" / "Online-W.txt", folder / "a.txt")
    _first_lines(zhen / "sys" / "NiuTrans.txt", folder / "b.txt")

    # `--stanza-dir models`, as from the checkout
    (folder / "models").symlink_to(MODELS, target_is_directory=True)


def environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["CHECKPOINTS_STANZA_DIR"] = str(MODELS)
    env["HF_HUB_OFFLINE"] = "1"
    env["TRANSFORMERS_OFFLINE"] = "1"
    env["TMPDIR"] = str(folder / "tmp")  # the demo's default database lands here, not in /tmp
    return env


@dataclass
class Outcome:
    skipped: str | None = None
    returncode: int = 0
    stderr: str = ""


@dataclass
class Walk:
    """Runs the commands in order, each once; asking for one runs those before it first."""

    folder: Path
    env: dict[str, str]
    outcomes: list[Outcome] = field(default_factory=list)
    unavailable: dict[str, str] = field(default_factory=dict)
    """A file a skipped command would have written -> that command."""

    def outcome(self, index: int) -> Outcome:
        while len(self.outcomes) <= index:
            self.outcomes.append(self._run(COMMANDS[len(self.outcomes)]))
        return self.outcomes[index]

    def _run(self, command: Command) -> Outcome:
        reason = self._skip_reason(command)
        if reason is not None:
            for written in outputs(command.text):
                if not (self.folder / written).exists():
                    self.unavailable[written] = command.key
            return Outcome(skipped=reason)
        result = subprocess.run(
            ["bash", "-c", command.text], cwd=self.folder, env=self.env, capture_output=True, text=True,
            timeout=COMMAND_TIMEOUT_S, check=False,
        )
        if result.returncode == 0:
            for written in outputs(command.text):
                self.unavailable.pop(written, None)
        return Outcome(returncode=result.returncode, stderr=result.stderr)

    def _skip_reason(self, command: Command) -> str | None:
        if command.key in SKIP:
            return SKIP[command.key]
        for name in sorted(needs(command.text)):
            if name.startswith("/usr/share/") and not Path(name).exists():
                return f"{name} is not installed (a Debian package provides it)"
            if name in self.unavailable:
                return f"needs {name}, which the skipped command `{self.unavailable[name]}` writes"
        return None


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Walk:
    folder = tmp_path_factory.mktemp("readme")
    (folder / "tmp").mkdir()
    prepare(folder)
    return Walk(folder, environment(folder))


def _id(index: int) -> str:
    command = COMMANDS[index]
    words = command.key.split()
    return f"{index:02d}-{command.page}:{command.line}-{'-'.join(words[1:3])}"


@pytest.mark.parametrize("index", range(len(COMMANDS)), ids=_id)
def test_command_runs(walk: Walk, index: int, request: pytest.FixtureRequest) -> None:
    command = COMMANDS[index]
    if command.key in XFAIL:
        request.applymarker(pytest.mark.xfail(reason=XFAIL[command.key], strict=True))
    outcome = walk.outcome(index)
    if outcome.skipped is not None:
        pytest.skip(outcome.skipped)
    assert outcome.returncode == 0, (
        f"{command.where}: `{command.text}` exited {outcome.returncode}\nstderr:\n{outcome.stderr[-6000:]}"
    )


def test_the_readme_has_commands_and_the_lists_name_them() -> None:
    keys = {command.key for command in COMMANDS}
    assert any(command.page == "README.md" for command in COMMANDS)
    assert {"checkpoints build", "checkpoints evaluate", "checkpoints compare", "checkpoints report"} <= {
        " ".join(command.key.split()[:2]) for command in COMMANDS if command.page == "README.md"
    }
    assert not (set(SKIP) - keys), f"SKIP names commands no page has: {sorted(set(SKIP) - keys)}"
    assert not (set(XFAIL) - keys), f"XFAIL names commands no page has: {sorted(set(XFAIL) - keys)}"


# -- links between the pages -----------------------------------------------------------


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    fenced = {start + offset for _language, start, content in fenced_blocks(text) for offset in range(-1, len(content) + 1)}
    return {
        _slug(match.group(1))
        for number, line in enumerate(text.split("\n"), start=1)
        if number not in fenced and (match := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line))
    }


@pytest.mark.parametrize("page", pages())
def test_relative_links_and_anchors_resolve(page: str) -> None:
    source = ROOT / page
    text = source.read_text(encoding="utf-8")
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue
        path_part, _, anchor = target.partition("#")
        resolved = (source.parent / path_part).resolve() if path_part else source
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, f"{page}: " + "; ".join(broken)


def test_docs_pages_are_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    unlinked = [page for page in pages()[1:] if f"]({page})" not in readme and f"]({page}#" not in readme]
    assert not unlinked, f"README.md links no {unlinked}"

