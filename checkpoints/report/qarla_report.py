"""QARLA reports: the table and the JSON document of ``checkpoints qarla``.

The table shows QUEEN per system (best first), then KING and JACK of the
metric set with the tie policy and the sampling they were computed with,
and, with ``--optimize``, the greedy optimal set with the single-metric KING
values it was ranked by, and, with ``--check-references``, each reference's
QUEEN as a peer against the other references beside the systems' QUEEN
against the same references (flagged when most systems score higher). The
JSON document is
:meth:`~checkpoints.evaluate.meta.qarla.QarlaResult.to_json`.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from checkpoints.evaluate.meta.qarla import QarlaResult
from checkpoints.report.formats import json_text


def qarla_json(result: QarlaResult) -> str:
    """The ``--format json`` document, one trailing newline."""
    return json_text(result.to_json())


def _number(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.4f}"


def _line(text: str) -> Text:
    """A heading on a line of its own, never wrapped (metric names are copied as they are)."""
    return Text(text, no_wrap=True, overflow="ignore", end="\n")


def qarla_tables(result: QarlaResult) -> Group:
    """QUEEN per system, KING and JACK, and the optimal set when it was searched for."""
    queen = Table()
    queen.add_column("system")
    queen.add_column("QUEEN", justify="right")
    for system, value in sorted(result.queen.items(), key=lambda item: (-item[1], item[0])):
        queen.add_row(system, _number(value))
    sampling = "trans-topic" if result.trans_topic else "per segment"
    measures = Table()
    measures.add_column("measure")
    measures.add_column("value", justify="right")
    measures.add_row(f"KING (tie {result.tie.value})", _number(result.king))
    measures.add_row("JACK" if result.jack is not None else "JACK (needs two systems)", _number(result.jack))
    parts: list[Table | Text] = [
        _line(f"metric set: {{{', '.join(result.metrics)}}}"),
        _line(f"references: {', '.join(result.references)}; reference pairs: {sampling}"),
        _line(f"QUEEN per system (mean of segment QUEEN over {result.n_segments} segments)"),
        queen,
        measures,
    ]
    if result.optimal is not None:
        parts.append(_line("greedy optimal set: metrics in single-metric KING order, kept on a strict increase"))
        optimal = Table()
        optimal.add_column("metric")
        optimal.add_column("KING alone", justify="right")
        optimal.add_column("kept", justify="center")
        for name, value in result.optimal.single.items():
            optimal.add_row(name, _number(value), "yes" if name in result.optimal.metrics else "")
        parts.append(optimal)
        parts.append(_line(f"optimal set: {{{', '.join(result.optimal.metrics)}}}  KING {_number(result.optimal.king)}"))
    if result.reference_check is not None:
        parts.append(_line("reference check: each reference scored as a peer against the others, "
                           "systems against the same references"))
        check = Table()
        check.add_column("reference")
        check.add_column("QUEEN as peer", justify="right")
        check.add_column("systems' median", justify="right")
        check.add_column("systems above", justify="right")
        check.add_column("flag")
        for item in result.reference_check:
            check.add_row(
                item.reference,
                _number(item.queen),
                _number(item.median),
                f"{item.above}/{len(item.systems)}",
                "less human-like than most systems" if item.flagged else "",
            )
        parts.append(check)
    return Group(*parts)
