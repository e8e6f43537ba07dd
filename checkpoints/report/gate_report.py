"""The gate's decision as a table (people), JUnit XML (any CI system) and JSON (scripts).

JUnit is the one test-report format every CI system reads (GitLab, Jenkins,
GitHub Actions through common actions, Azure, CircleCI), so each rule becomes
one test case: a failed rule is a ``<failure>`` whose message says what
regressed and by how much, a category too small to gate is ``<skipped>``.
"""

from __future__ import annotations

from lxml import etree
from rich.console import Group
from rich.table import Table
from rich.text import Text

from checkpoints.evaluate.gate import GateResult, Outcome, Verdict

_MARK = {Outcome.FAILED: "FAIL", Outcome.PASSED: "pass", Outcome.TOO_FEW: "too few"}


def gate_view(result: GateResult) -> Group:
    """Every rule's verdict, then each regression with the check-points it lost, then the decision."""
    table = Table(title=f"gate: {result.candidate} against {result.baseline}", caption=result.signature,
                  caption_justify="left")
    for header, justify in (("rule", "left"), ("name", "left"), ("check-points", "right"), ("baseline", "right"),
                            ("candidate", "right"), ("difference", "right"), ("95% interval", "right"),
                            ("p (corrected)", "right"), ("min drop", "right"), ("verdict", "left")):
        table.add_column(header, justify=justify, overflow="fold")
    for verdict in result.verdicts:
        low, high = verdict.interval
        table.add_row(
            verdict.rule, verdict.name, "" if verdict.checkpoints is None else str(verdict.checkpoints),
            f"{verdict.baseline_score:.4f}", f"{verdict.candidate_score:.4f}", f"{verdict.difference:+.4f}",
            f"{low:+.4f} … {high:+.4f}", "–" if verdict.adjusted_p is None else f"{verdict.adjusted_p:.4f}",
            f"{verdict.min_drop:g}", _MARK[verdict.outcome],
        )
    parts: list[Table | Text] = [table]
    for verdict in result.failures:
        parts.append(Text(f"\nREGRESSION {verdict.message()}"))  # names are data, not markup
        for example in verdict.examples:
            parts.append(Text(f"  {example_line(example)}"))
            parts.append(Text(f"    candidate: {example['output']}"))
    too_few = [v.name for v in result.verdicts if v.outcome is Outcome.TOO_FEW]
    if too_few:
        parts.append(Text(f"\nnot gated (fewer check-points than the minimum): {', '.join(too_few)}"))
    failures = len(result.failures)
    parts.append(Text("\n" + ("PASSED: no rule regressed" if result.passed
                              else f"FAILED: {failures} rule{'s' if failures != 1 else ''} regressed")))
    return Group(*parts)


def gate_junit(result: GateResult) -> bytes:
    """The verdicts as a JUnit XML document: one ``<testcase>`` per rule."""
    failures = len(result.failures)
    skipped = sum(v.outcome is Outcome.TOO_FEW for v in result.verdicts)
    counts = {"tests": str(len(result.verdicts)), "failures": str(failures), "errors": "0", "skipped": str(skipped)}
    root = etree.Element("testsuites", name="checkpoints gate", **counts)
    suite = etree.SubElement(root, "testsuite", name=f"gate {result.candidate} vs {result.baseline}", **counts)
    properties = etree.SubElement(suite, "properties")
    for name, value in (("baseline", result.baseline), ("candidate", result.candidate),
                        ("signature", result.signature)):
        etree.SubElement(properties, "property", name=name, value=value)
    for verdict in result.verdicts:
        case = etree.SubElement(suite, "testcase", classname=f"checkpoints.gate.{verdict.rule}", name=verdict.name)
        if verdict.failed:
            failure = etree.SubElement(case, "failure", message=verdict.message(), type="regression")
            failure.text = _details(verdict)
        elif verdict.outcome is Outcome.TOO_FEW:
            etree.SubElement(case, "skipped", message=verdict.message())
        else:
            etree.SubElement(case, "system-out").text = verdict.message()
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _details(verdict: Verdict) -> str:
    lines = [verdict.message()]
    lines += [f"{example_line(e)}; candidate's translation: {e['output']}" for e in verdict.examples]
    return "\n".join(lines)


def example_line(example: dict[str, object]) -> str:
    """A check-point the candidate lost, in one line: where, what it translates, both scores."""
    return (f"check-point {example['checkpoint']} (pair {example['pair']}, {example['category']}): "
            f"{example['source']} → {example['reference']}: baseline {example['baseline']}, "
            f"candidate {example['candidate']}")
