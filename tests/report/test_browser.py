"""The demo report in a real headless Chromium, opened from disk with the network blocked."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest


def test_demo_report_in_chromium(offline: Any, demo: dict[str, Any], tmp_path: Path) -> None:
    # The offline fixture has checked that playwright is there (a failure in CI, a skip elsewhere).
    from playwright.sync_api import expect

    page, seen, seconds = offline(demo["report"])
    interactive = page.evaluate("performance.getEntriesByName('cp-interactive')[0].startTime")
    print(f"\ndemo report: {demo['report'].stat().st_size / 1e6:.2f} MB, interactive after {interactive:.0f} ms "
          f"(navigation start), {seconds:.2f} s wall clock including load")
    assert seconds < 20  # generous: the target is < 2 s, printed above

    compared = demo["compare"]
    categories = list(compared["comparisons"][0]["categories"])
    charted = page.eval_on_selector_all("svg.category-chart g.chart-row", "rows => rows.map(r => r.dataset.category)")
    tabled = page.eval_on_selector_all("table.categories tbody tr", "rows => rows.map(r => r.dataset.category)")
    assert sorted(charted) == sorted(categories)
    assert sorted(tabled) == sorted(categories)

    pair = compared["comparisons"][0]
    expected = {name: pair["system_b"] if result["significant"] else "" for name, result in pair["categories"].items()}
    shown = dict(page.eval_on_selector_all(
        "table.categories tbody tr", "rows => rows.map(r => [r.dataset.category, r.dataset.significant])"))
    drawn = dict(page.eval_on_selector_all(
        "svg.category-chart g.chart-row", "rows => rows.map(r => [r.dataset.category, r.dataset.significant])"))
    assert shown == expected
    assert drawn == expected
    assert any(expected.values()) and not all(expected.values())

    # check-point 8 (Noun, pair 1): both systems match "Schulman"
    row = page.locator('table.categories tr[data-category="Noun"]')
    row.focus()
    page.keyboard.press("Enter")
    page.fill("#drill-search", "Schulman")
    page.wait_for_selector('article.checkpoint[data-id="8"]')
    article = page.locator('article.checkpoint[data-id="8"]')
    assert article.locator("mark.span").first.inner_text() == "[Schulman]"
    assert article.locator("dd.translation mark.ngram").all_inner_texts() == ["Schulman", "Schulman"]
    assert "← r*" in article.inner_text() and "score 1.00" in article.inner_text()

    page.fill("#drill-search", "")
    expect(page.locator("#drill-status")).to_have_text(re.compile(r"^check-points 1–50 of \d+$"))
    assert page.locator("#drill-list article").count() == 50
    page.click("#drill-next")
    expect(page.locator("#drill-status")).to_have_text(re.compile(r"^check-points 51–100 of \d+$"))

    # the audit: one row per category, word categories below the threshold marked
    audited = page.eval_on_selector_all("#audit-table tbody tr", "rows => rows.map(r => r.dataset.category)")
    assert sorted(audited) == sorted(categories)
    weak = page.eval_on_selector_all("#audit-table tbody tr.weak", "rows => rows.map(r => r.dataset.category)")
    assert "Noun" not in weak and "Noun" in audited

    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot), full_page=False)
    assert distinct_colours(shot.read_bytes()) > 8
    assert seen == {"console": [], "errors": [], "blocked": []}
    page.close()


def test_hostile_strings_render_as_text(offline: Any, hostile_report: Path) -> None:
    page, seen, _ = offline(hostile_report)
    page.locator("table.categories tbody tr").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("article.checkpoint")
    text = page.locator("#drill-list").inner_text()
    assert "<script>window.pwned=1</script>" in text
    assert '"><img src=x onerror="window.pwned=2">' in text
    assert page.locator("#drill-list img, #drill-list script").count() == 0
    assert "<b>sys</b>" in page.locator("#systems").inner_text()
    assert page.evaluate("window.pwned === undefined")
    assert seen == {"console": [], "errors": [], "blocked": []}
    page.close()


def distinct_colours(png: bytes) -> int:
    """Distinct RGB(A) pixel values of an 8-bit, non-interlaced PNG (what Chromium writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, header = 8, [], b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        at += 12 + length
    width, height, depth, colour_type = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour_type in (2, 6)
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride, previous, colours = width * channels, bytearray(width * channels), set()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        if y % 8 == 0:
            colours.update(bytes(line[i:i + 3]) for i in range(0, stride, channels * 4))
        previous = line
    return len(colours)


def test_meta_scatter_plots_from_real_meta_json(offline: Any, demo: dict[str, Any], tmp_path: Path) -> None:
    """`meta --format json` at system level carries the points; the report draws one scatter per metric."""
    import json

    from checkpoints.cli import main
    from checkpoints.service.report import ReportRequest, write_report

    data = Path(__file__).resolve().parent.parent / "data" / "meta"
    meta = tmp_path / "meta.json"
    with pytest.raises(SystemExit) as caught:
        main(["meta", "--mqm", str(data / "mqm_ted_ende.small.tsv"), "--reference-system", "ref",
              "-m", "BLEU,chrF", "--format", "json", "--output", str(meta)])
    assert caught.value.code in (0, None)
    points = json.loads(meta.read_text(encoding="utf-8"))["points"]
    output = tmp_path / "with-meta.html"
    write_report(ReportRequest(demo["db"], output, meta=meta))
    page, seen, _ = offline(output)
    figures = page.eval_on_selector_all("figure.scatter", "figures => figures.map(f => f.dataset.metric)")
    assert figures == ["BLEU", "chrF"]
    rows = page.locator('figure.scatter[data-metric="chrF"] table tbody tr')
    assert rows.count() == len(points["human"]) == 13
    assert page.locator('figure.scatter[data-metric="chrF"] svg text.point-label').count() == 13
    assert seen == {"console": [], "errors": [], "blocked": []}
    page.close()
