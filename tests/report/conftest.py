"""The demo suite and its report, built once per test session (about 10 s), and a browser page
that can read nothing but the report file."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from required_tools import tool_missing


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The demo database, its report and `compare --format json` of the same runs."""
    from checkpoints.service.demo import run_demo

    folder = tmp_path_factory.mktemp("demo")
    result = run_demo(folder / "demo.db", samples=1000)
    return {"db": result.database, "report": result.report, "compare": result.comparison.report}


DATA = Path(__file__).resolve().parent.parent / "data"
TED_LINES = (10, 47, 167)
"""Lines of ``metrics/ted/en-de`` that are the three segments of ``data/attribution`` (MQM seg_id 10, 47, 244)."""


@pytest.fixture(scope="session")
def ted_attribution(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Suite ``ted3`` (three WMT 2021 TED en→de segments) with Nemo's and UEdin's outputs evaluated,
    and the JSON ``checkpoints attribute --format json`` writes for the MQM release's 13 systems."""
    import json

    from checkpoints.service.attribute import AttributeRequest, attribute
    from checkpoints.service.build import BuildRequest, build_suite
    from checkpoints.service.evaluate import evaluate_systems
    from checkpoints.service.store import store_new_suite

    folder = tmp_path_factory.mktemp("ted")
    db = folder / "ted.db"
    sources = DATA / "attribution"
    store_new_suite(db, build_suite(BuildRequest(
        source_lang="en", target_lang="de", source_conllu=sources / "ted-ende.source.conllu",
        reference_conllu=[sources / "ted-ende.reference.conllu"], alignments=[sources / "ted-ende.align"],
        name="ted3",
    )).suite)
    systems = []
    for name in ("Nemo", "UEdin"):
        lines = (DATA / "metrics" / "ted" / "en-de" / "sys" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
        path = folder / f"{name}.txt"
        path.write_text("".join(lines[number - 1] + "\n" for number in TED_LINES), encoding="utf-8")
        systems.append((name, path))
    evaluate_systems(db, systems)
    result = attribute(AttributeRequest(db, DATA / "meta" / "mqm_ted_ende.small.tsv", alternatives=False))
    path = folder / "attribution.json"
    path.write_text(json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return {"db": db, "attribution": path, "data": json.loads(path.read_text(encoding="utf-8"))}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        tool_missing("playwright is not installed", skipped="the report is not tested in a browser",
                     ci_needs="pip install playwright (the test extra)")
    chromium = shutil.which("chromium")
    if chromium is None:
        tool_missing("chromium is not installed", skipped="the report is not tested in a browser",
                     ci_needs="apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--headless=new", "--no-sandbox"])
        yield browser
        browser.close()


HOSTILE_SYSTEM = "<b>sys</b>"
HOSTILE_TEXT = ' <script>window.pwned=1</script> "><img src=x onerror="window.pwned=2"> \u2028</script>'


@pytest.fixture(scope="session")
def hostile_report(demo: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report of a copy of the demo suite with a system named like markup whose every
    translation carries a script element, an attribute break-out and a line separator."""
    from checkpoints.service.demo import demo_folder
    from checkpoints.service.evaluate import evaluate_systems
    from checkpoints.service.report import ReportRequest, write_report

    folder = tmp_path_factory.mktemp("hostile")
    database = folder / "hostile.db"
    shutil.copyfile(demo["db"], database)
    with demo_folder() as data:
        lines = (data / "direct.es.txt").read_text(encoding="utf-8").splitlines()
        hostile = folder / "hostile.txt"
        hostile.write_text("".join(f"{line}{HOSTILE_TEXT}\n" for line in lines), encoding="utf-8")
        evaluate_systems(database, [("clean", data / "direct.es.txt"), (HOSTILE_SYSTEM, hostile)])
    output = folder / "hostile.html"
    write_report(ReportRequest(database, output, ("clean", HOSTILE_SYSTEM)))
    return output


@pytest.fixture
def offline(browser: Any) -> Any:
    """``offline(path)``: the page of ``path`` opened with the network blocked (see :func:`open_offline`)."""
    return lambda path: open_offline(browser, path)


def open_offline(browser: Any, path: Path) -> tuple[Any, dict[str, list[str]], float]:
    """Open ``path`` from disk with every other request blocked; returns the page, what was
    logged (console errors, page errors, blocked requests) and the seconds to interactive."""
    import time

    url = path.resolve().as_uri()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    seen: dict[str, list[str]] = {"console": [], "errors": [], "blocked": []}
    page.on("console", lambda message: seen["console"].append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: seen["errors"].append(str(error)))

    def route(request_route: Any) -> None:
        if request_route.request.url == url:
            request_route.continue_()
        else:
            seen["blocked"].append(request_route.request.url)
            request_route.abort()

    page.route("**/*", route)
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    return page, seen, time.perf_counter() - started
