"""The report page: a static shell, the data as inert JSON, and the inline CSS and script.

The header (suite, systems, signatures, the commands that reproduce the
report) is written here, escaped, so it reads even with scripts off; the
charts, tables and drill-down are drawn by ``static/*.js`` from the embedded
data, inserting every data string as text, never as markup. The
Content-Security-Policy forbids every network request: the page has nothing
to load.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from checkpoints import __version__
from checkpoints.report.html.embed import script_json, text

CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
SCRIPTS = ("common.js", "charts.js", "drilldown.js", "extras.js", "report.js")
"""Script files in the order they are inlined (later ones use what earlier ones define)."""


@cache
def static_file(name: str) -> str:
    """A file of ``static/``, read from the installed package."""
    return (resources.files("checkpoints.report.html") / "static" / name).read_text(encoding="utf-8")


def render_page(model: dict[str, Any]) -> str:
    """The whole self-contained HTML document for ``model`` (see :mod:`checkpoints.report.html.page_model`)."""
    scripts = "\n".join(_inline_script(static_file(name)) for name in SCRIPTS)
    return "".join(
        [
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
            f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            f"<title>check-points report: {text(model['suite'])}</title>\n",
            f"<style>\n{static_file('report.css')}</style>\n</head>\n<body>\n",
            _header(model),
            '<main id="report" aria-busy="true">\n<p class="loading">Drawing the charts…</p>\n</main>\n',
            f'<script type="application/json" id="report-data">{script_json(model)}</script>\n',
            scripts,
            "\n</body>\n</html>\n",
        ]
    )


def _inline_script(source: str) -> str:
    """Our own script, checked never to close its element early."""
    if "</script" in source.lower():
        raise ValueError("a report script contains '</script'")
    return f"<script>\n{source}</script>"


def _header(model: dict[str, Any]) -> str:
    systems = ", ".join(
        f"{text(name)}{' (baseline)' if name == model['reference'] else ''}" for name in model["systems"]
    )
    source, target = model["languages"]
    run = model.get("comparisonRun")
    origin = f"stored comparison run {run}" if run is not None else "comparison computed for this report (not stored)"
    commands = "\n".join(text(command) for command in model["commands"])
    warnings = "".join(f'<p class="warning" role="note">warning: {text(w)}</p>\n' for w in model["warnings"])
    return (
        '<header id="top">\n'
        f"<h1>Check-point report: <span class=\"suite\">{text(model['suite'])}</span></h1>\n"
        "<dl class=\"facts\">\n"
        f"<dt>Languages</dt><dd>{text(source)} → {text(target)}</dd>\n"
        f"<dt>Systems</dt><dd id=\"systems\">{systems}</dd>\n"
        f"<dt>Comparison</dt><dd>{text(origin)}; {text(model['settings'].get('correction_family') or '')}</dd>\n"
        f"<dt>Signature</dt><dd><code id=\"signature\">{text(model['signature'])}</code></dd>\n"
        f"<dt>Evaluation</dt><dd><code>{text(model['evaluationSignature'])}</code></dd>\n"
        f"<dt>Made by</dt><dd>checkpoints {text(__version__)}</dd>\n"
        "</dl>\n"
        + "".join(f'<p class="summary">{text(sentence)}</p>\n' for sentence in model.get("summary", ()))
        + f"{warnings}"
        "<details class=\"reproduce\"><summary>How to reproduce</summary>\n"
        f"<pre><code>{commands}</code></pre></details>\n"
        "</header>\n"
    )
