"""Shared fixtures: paths to bundled test data, a clean environment for CLI runs, and stores
(an SQLite file and a real PostgreSQL) for the store tests."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from required_tools import tool_missing

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing in the test suite may reach a model hub."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")




@pytest.fixture
def demo_dir() -> Path:
    """The bundled demo data (gold UD PUD en/es, alignments, two Apertium systems)."""
    from importlib import resources

    return Path(str(resources.files("checkpoints"))) / "data" / "demo"


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's store (en→es PUD suite, the direct and pivot Apertium systems evaluated and
    compared), built once for the session: tests that write to it take a copy."""
    from checkpoints.cli import main

    db = tmp_path_factory.mktemp("demo") / "demo.db"
    with pytest.raises(SystemExit) as stopped:
        main(["demo", "--db", str(db), "--samples", "20"])
    assert stopped.value.code == 0
    return db


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """Run ``checkpoints ARGS`` in-process; returns (exit code, stdout, stderr)."""
    from checkpoints.cli import main

    def run(*args: object) -> tuple[int, str, str]:
        capsys.readouterr()
        with pytest.raises(SystemExit) as stopped:
            main([str(arg) for arg in args])
        captured = capsys.readouterr()
        code = stopped.value.code
        return (code if isinstance(code, int) else 1), captured.out, captured.err

    return run


# -- stores: an SQLite file and a real PostgreSQL --------------------------------

POSTGRES_URL_VARIABLE = "CHECKPOINTS_TEST_POSTGRES_URL"
"""A PostgreSQL URL to test against instead of a throwaway server (its user may create databases)."""


def _unavailable(reason: str) -> NoReturn:
    tool_missing(reason, skipped="the PostgreSQL variant of this test cannot run",
                 ci_needs="test the PostgreSQL store (.ci/run installs Debian's postgresql)")


def _postgres_tools() -> tuple[str, str] | None:
    """initdb and pg_ctl from PATH, else from the newest /usr/lib/postgresql/*/bin (Debian keeps them there)."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        return initdb, pg_ctl

    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in folder.parent.name.split(".") if part.isdigit())

    for folder in sorted((Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")), key=version, reverse=True):
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return str(folder / "initdb"), str(folder / "pg_ctl")
    return None


class _ThrowawayPostgres:
    """A PostgreSQL cluster in a temporary folder, listening only on a Unix socket there.

    PostgreSQL refuses to run as root, so as root the cluster belongs to the
    ``postgres`` user (else ``nobody``) and its tools run through ``runuser``.
    Durability is off: the cluster lives for one test session.
    """

    def __init__(self, initdb: str, pg_ctl: str) -> None:
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self.folder = Path(tempfile.mkdtemp(prefix="checkpoints-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            user = next((name for name in ("postgres", "nobody") if _user_exists(name)), None)
            runuser = shutil.which("runuser") or next(
                (p for p in ("/usr/sbin/runuser", "/sbin/runuser") if Path(p).exists()), None
            )
            if user is None or runuser is None:
                raise RuntimeError("running as root, but no postgres/nobody user or no runuser to run PostgreSQL as")
            self.prefix = [runuser, "-u", user, "--"]
            shutil.chown(self.folder, user=user)
            self.folder.chmod(0o700)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://checkpoints@/postgres?host={self.folder}"

    def start(self) -> None:
        self._run(self.initdb, "-D", str(self.data), "-U", "checkpoints", "--auth=trust", "--no-sync",
                  "--encoding=UTF8", "--locale=C")
        options = (f"-c listen_addresses='' -k {self.folder} -F -c full_page_writes=off "
                   "-c synchronous_commit=off -c max_connections=100")
        self._run(self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def log_tail(self) -> str:
        try:
            return " | ".join(self.log.read_text(errors="replace").splitlines()[-5:])
        except OSError:
            return "(no server log)"

    def _run(self, *command: str) -> None:
        # run from the cluster's folder: the server's user may not enter the caller's working directory
        subprocess.run([*self.prefix, *command], check=True, capture_output=True, text=True, timeout=120,
                       cwd=self.folder)


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server for the session, as a URL whose user may create databases:
    ``CHECKPOINTS_TEST_POSTGRES_URL`` if set, else a throwaway cluster started here."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("psycopg is not installed (pip install -e '.[test]')")
    given = os.environ.get(POSTGRES_URL_VARIABLE)
    if given:
        yield given
        return
    tools = _postgres_tools()
    if tools is None:
        _unavailable(
            f"PostgreSQL is not installed (no initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin) "
            f"and {POSTGRES_URL_VARIABLE} is not set"
        )
    try:
        server = _ThrowawayPostgres(*tools)
    except (RuntimeError, OSError) as error:
        _unavailable(f"no PostgreSQL server could be set up: {error}")
    try:
        server.start()
    except (subprocess.SubprocessError, OSError) as error:
        details = getattr(error, "stderr", "") or ""
        server.stop()
        _unavailable(f"the throwaway PostgreSQL server did not start: {error} {details.strip()} {server.log_tail()}")
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def new_postgres_database(postgres_server: str) -> Iterator[Callable[[], str]]:
    """Make fresh, empty PostgreSQL databases (URLs); each is dropped after the test.

    Where the server's user may not create databases, the given database's
    ``public`` schema is emptied instead (one database per test then).
    """
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.pool import NullPool

    server = make_url(postgres_server.replace("postgresql://", "postgresql+psycopg://", 1))
    admin = create_engine(server, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    made: list[str] = []

    def new() -> str:
        name = f"checkpoints_test_{uuid.uuid4().hex[:12]}"
        try:
            with admin.connect() as connection:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
        except DBAPIError:
            if made:
                raise
            with admin.connect() as connection:
                connection.execute(text("DROP SCHEMA public CASCADE"))
                connection.execute(text("CREATE SCHEMA public"))
            made.append("")
            return server.render_as_string(hide_password=False)
        made.append(name)
        return server.set(database=name).render_as_string(hide_password=False)

    yield new
    with admin.connect() as connection:
        for name in filter(None, made):
            try:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            except DBAPIError:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()


@pytest.fixture
def postgres_url(new_postgres_database: Callable[[], str]) -> str:
    """One fresh, empty PostgreSQL database for this test."""
    return new_postgres_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """Make new, empty stores: SQLite files that do not exist yet, or fresh PostgreSQL databases.

    Store tests take this (or :func:`store_url`) to run once per backend.
    """
    if request.param == "postgresql":
        return request.getfixturevalue("new_postgres_database")
    counter = iter(range(1_000_000))
    return lambda: str(tmp_path / f"store{next(counter)}.db")


@pytest.fixture
def store_url(new_store: Callable[[], str]) -> str:
    """A new store, once as an SQLite file path and once as a PostgreSQL URL."""
    return new_store()


@pytest.fixture
def make_suite() -> Callable[..., Any]:
    """A small but complete suite (two pairs, three check-points over word and phrase categories,
    DM 1/3, nested options) named as asked, for store tests."""

    def make(name: str = "sample") -> Any:
        from checkpoints.model import (
            Alignment,
            Category,
            CheckPoint,
            Level,
            Reference,
            Sentence,
            SentencePair,
            SuiteData,
            Token,
        )

        def words(text: str) -> Sentence:
            return Sentence([Token(form=w) for w in text.split()])

        categories = [Category("Noun", Level.WORD, "nouns"), Category("Preposition phrase", Level.PHRASE, "PPs"),
                      Category("My terms", Level.PHRASE, "user list")]
        pairs = [
            SentencePair(1, words("the house ."), [words("la casa ."), words("el hogar .")],
                         [Alignment.from_pairs([(0, 0), (1, 1)]), Alignment.from_pairs([(1, 1)])]),
            SentencePair(2, words("in the red house"), [words("en la casa roja"), words("en la casa colorada")],
                         [Alignment.from_pairs([(0, 0), (3, 2)]), Alignment.from_pairs([])]),
        ]
        checkpoints = [
            CheckPoint(1, "Noun", [1], [Reference(0, [1], ["casa"], 0.5), Reference(1, [1], ["hogar"], 1 / 3)], id=1),
            CheckPoint(2, "Preposition phrase", [0, 1, 2, 3], [Reference(0, [0, 2], ["en", "*", "casa"], 1.0)], id=2),
            CheckPoint(2, "My terms", [2], [Reference(0, [3], ["roja"], 0.1)], id=3),
        ]
        return SuiteData(
            name=name, source_lang="en", target_lang="es", taxonomy="en", categories=categories,
            pairs=pairs, checkpoints=checkpoints,
            options={"aligner": "pharaoh-files", "weights": [0.1, 1 / 3, 1e-9], "nested": {"ñ": None, "on": True}},
            summary={"pairs": 2, "per_category": {"Noun": 1}}, user_categories={"My terms"},
        )

    return make


TABLE8_XML = """<?xml version="1.0" encoding="UTF-8"?>
<suite name="table8" source-lang="zh" target-lang="en" taxonomy="zh">
  <pair id="1">
    <source>不过 泰国 总理 戴克辛 誓言 将 继续 在 其 国内 进行 搜寻 。</source>
    <reference id="1">but thai prime minister thaksin shinawatra vowed that he would still continue the search in this country .</reference>
    <reference id="2">but thai prime minister thaksin shinawatra vowed that he would still continue the search in his country .</reference>
    <checkpoint id="1" category="Preposition-object phrase">
      <span>7 8 9</span>
      <ref reference="1" dm="0.5">in this country</ref>
      <ref reference="2" dm="0.5">in his country</ref>
    </checkpoint>
  </pair>
</suite>
"""
"""Zhou et al. 2008, Table 8: one Preposition-object check-point with two references, DM 0.5 each."""


@pytest.fixture
def table8_inputs(tmp_path: Path) -> dict[str, Path]:
    """Zhou Table 8 as suite XML, and the two systems of Table 9 (A scores 1/6, B 1)."""
    files = {"xml": tmp_path / "table8.xml", "a": tmp_path / "a.txt", "b": tmp_path / "b.txt"}
    files["xml"].write_text(TABLE8_XML, encoding="utf-8")
    files["a"].write_text("but the prime minister of thailand Dex-in vowed to continue in domestic the search.\n",
                          encoding="utf-8")
    files["b"].write_text("but the prime minister of thailand Dex-in vowed to continue the search in his country.\n",
                          encoding="utf-8")
    return files


TABLE3_ZH = """# text = 他們反對建立儲備金。
1\t他們\t他\tPRON\tPRP\t_\t2\tnsubj\t_\tSpaceAfter=No
2\t反對\t反對\tVERB\tVV\t_\t0\troot\t_\tSpaceAfter=No
3\t建立\t建立\tVERB\tVV\t_\t2\tccomp\t_\tSpaceAfter=No
4\t儲備金\t儲備金\tNOUN\tNN\t_\t3\tobj\t_\tSpaceAfter=No
5\t。\t。\tPUNCT\t.\t_\t2\tpunct\t_\t_
"""


@pytest.fixture
def build_table3(run_cli, tmp_path: Path) -> Callable[..., tuple[int, str, str]]:  # type: ignore[no-untyped-def]
    """``checkpoints build`` of Zhou Table 3 (English source, Chinese reference, a small
    dictionary, given alignments) into ``--db DB``: offline and quick."""
    folder = tmp_path / "table3-inputs"
    folder.mkdir(exist_ok=True)
    reference, alignment, dictionary = folder / "zh.conllu", folder / "t3.align", folder / "en-zh.tsv"
    reference.write_text(TABLE3_ZH, encoding="utf-8")
    alignment.write_text("0-0 1-1 3-2 5-3 6-3 7-4\n", encoding="utf-8")
    dictionary.write_text("they\t他們\noppose\t反對\nbuilding\t建築\nreserve\t儲備\nreserve\t儲備金\nfund\t基金\n",
                          encoding="utf-8")

    def build(db: object, *extra: object) -> tuple[int, str, str]:
        return run_cli(
            "build", "--db", db, "--src-lang", "en", "--tgt-lang", "zh",
            "--source-conllu", DATA / "taxonomy" / "table3-en.conllu", "--reference-conllu", reference,
            "--alignment", alignment, "--dictionary", dictionary, "--name", "table3", *extra,
        )

    return build


@pytest.fixture
def write_texts(tmp_path: Path) -> Callable[[dict[str, str]], dict[str, Path]]:
    """Writes small UTF-8 text files into the test's folder: ``{name: text}`` → ``{name: path}``."""

    def write(contents: dict[str, str]) -> dict[str, Path]:
        paths = {name: tmp_path / name for name in contents}
        for name, text in contents.items():
            paths[name].write_text(text, encoding="utf-8")
        return paths

    return write


@pytest.fixture(params=[True, False], ids=["forked", "one process"])
def forked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Work that :func:`checkpoints.workers.in_background` may fork runs once in a forked child
    (even on one CPU or beside pytest's threads) and once in this process."""
    from checkpoints import workers

    if request.param and not workers.can_fork():
        pytest.skip("only Linux forks here")
    monkeypatch.setattr(workers, "can_run_beside", workers.can_fork if request.param else lambda: False)
    return bool(request.param)


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[None]:
    """A local Ray runtime with two CPUs for the ``--engine ray`` tests: started once per module
    (it takes seconds) and stopped after it, so that the rest of the suite does not run, and fork,
    beside Ray's threads and signal handlers. Ray is the ``ray`` extra, which CI installs."""
    from required_tools import tool_missing

    try:
        import ray
    except ImportError:
        tool_missing("Ray is not installed", skipped="the Ray engine cannot be tested",
                     ci_needs="install the ray extra (pip install -e '.[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()
