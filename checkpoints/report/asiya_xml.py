"""Asiya's XML score reports: one ``<SET>`` per system and metric, read and written.

Asiya's unified score report (manual Table 2): ``<SET metric n_docs
n_segments hyp ref score>`` / ``<DOC id n n_segments score>`` / ``<SEG
n>score</SEG>``, segment numbers absolute over the set. ``asiya-xml`` output
holds one ``<SET>`` per system and metric (each holds all three levels, so
``-g`` does not apply) inside an ``<ASIYA_REPORT>`` element that also holds
the significance results; :func:`write_asiya_set` writes a single ``<SET>``
document exactly as Asiya's score cache does, and :func:`read_asiya_xml`
reads either.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from checkpoints.errors import InputError
from checkpoints.evaluate.metric_runner import MetricReport
from checkpoints.io.xml import parse_xml_file
from checkpoints.report.formats import asiya_number
from checkpoints.report.metric_text import describe_significance


@dataclass(frozen=True, slots=True)
class AsiyaDocument:
    id: str
    n: int
    """1-based position of the document in the set."""
    score: float
    segments: tuple[tuple[int, float], ...]
    """(absolute segment number from 1, score)."""


@dataclass(frozen=True, slots=True)
class AsiyaScoreSet:
    """One metric's scores for one system against one reference set (Asiya's ``<SET>``)."""

    metric: str
    hypothesis: str
    reference: str
    score: float
    documents: tuple[AsiyaDocument, ...]
    signature: str | None = None

    @property
    def n_segments(self) -> int:
        return sum(len(document.segments) for document in self.documents)


def asiya_sets(report: MetricReport) -> list[AsiyaScoreSet]:
    """One set per system and metric; segment numbers count over the whole test set, from 1."""
    documents = report.documents
    members: dict[str, list[int]] = {doc: [] for doc in documents}
    for index, doc in enumerate(report.doc_ids):
        members[doc].append(index)
    result = []
    for system in report.systems:
        for metric in report.metrics:
            scores = report.scores[system][metric]
            result.append(
                AsiyaScoreSet(
                    metric=metric,
                    hypothesis=system,
                    reference=_reference_set(report, system),
                    score=scores.system,
                    documents=tuple(
                        AsiyaDocument(
                            id=doc,
                            n=position,
                            score=scores.documents[doc],
                            segments=tuple((index + 1, scores.segments[index]) for index in members[doc]),
                        )
                        for position, doc in enumerate(documents, start=1)
                    ),
                    signature=report.signatures[metric],
                )
            )
    return result


def _reference_set(report: MetricReport, hypothesis: str) -> str:
    """Asiya's reference-set name; a reference scored with ``--include-refs`` is scored against the others."""
    if hypothesis in report.references:
        return "_".join(sorted(name for name in report.references if name != hypothesis))
    return report.reference_set


def _set_element(score_set: AsiyaScoreSet) -> etree._Element:
    element = etree.Element(
        "SET",
        metric=score_set.metric,
        n_docs=str(len(score_set.documents)),
        n_segments=str(score_set.n_segments),
        hyp=score_set.hypothesis,
        ref=score_set.reference,
        score=asiya_number(score_set.score),
    )
    if score_set.signature is not None:
        element.set("signature", score_set.signature)
    for document in score_set.documents:
        doc = etree.SubElement(
            element,
            "DOC",
            id=document.id,
            n=str(document.n),
            n_segments=str(len(document.segments)),
            score=asiya_number(document.score),
        )
        for number, score in document.segments:
            etree.SubElement(doc, "SEG", n=str(number)).text = asiya_number(score)
    return element


def write_asiya_set(score_set: AsiyaScoreSet) -> str:
    """One ``<SET>`` document, as in the Asiya manual's Table 2 (with ``</SEG>`` closing tags)."""
    body = etree.tostring(_set_element(score_set), pretty_print=True, encoding="unicode")
    return '<?xml version="1.0"?>\n<!DOCTYPE asiya SYSTEM "asiya.dtd" []>\n' + body


def render_asiya_xml(report: MetricReport) -> str:
    """Every ``<SET>`` of the report, and the significance results, in one ``<ASIYA_REPORT>``."""
    root = etree.Element("ASIYA_REPORT", test_set=report.test_set, ref=report.reference_set)
    for score_set in asiya_sets(report):
        root.append(_set_element(score_set))
    if report.significance is not None:
        significance = report.significance
        request = significance.request
        element = etree.SubElement(
            root,
            "SIGNIFICANCE",
            method=request.spec.method.value,
            samples=str(request.spec.samples),
            seed=str(request.spec.seed),
            alpha=f"{request.alpha:g}",
            correction=request.correction.value,
            description=describe_significance(significance),
            signature=significance.signature(),
        )
        if request.baseline is not None:
            element.set("baseline", request.baseline)
        for comparison in significance.comparisons:
            outcome = comparison.outcome
            etree.SubElement(
                element,
                "COMPARISON",
                metric=comparison.metric,
                baseline=comparison.baseline,
                system=comparison.system,
                baseline_score=asiya_number(outcome.score_a),
                score=asiya_number(outcome.score_b),
                difference=asiya_number(outcome.difference),
                ci_low=asiya_number(outcome.interval[0]),
                ci_high=asiya_number(outcome.interval[1]),
                p_value=f"{outcome.p_value:.6f}",
                p_adjusted=f"{comparison.p_adjusted:.6f}",
                significant="yes" if comparison.significant else "no",
            )
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + etree.tostring(root, pretty_print=True, encoding="unicode")


def read_asiya_xml(path: str | Path) -> list[AsiyaScoreSet]:
    """The ``<SET>`` reports of an Asiya XML file (a single ``<SET>`` or an ``<ASIYA_REPORT>``).

    Counts are checked against the content (``n_docs``, ``n_segments``), so a
    truncated or hand-edited report is an error, not silently wrong scores.
    """
    root = parse_xml_file(path, allow_doctype=True).getroot()  # Asiya writes <!DOCTYPE asiya ...>
    if root.tag == "SET":
        elements = [root]
    elif root.tag == "ASIYA_REPORT":
        elements = root.findall("SET")
    else:
        raise InputError(path, root.sourceline, f"root element <{root.tag}>, expected <SET> or <ASIYA_REPORT>")
    return [_read_set(path, element) for element in elements]


def _read_set(path: str | Path, element: etree._Element) -> AsiyaScoreSet:
    documents = []
    for doc in element.findall("DOC"):
        segments = tuple(
            (_attribute_int(path, seg, "n"), _float(path, seg, seg.text or "", "segment score"))
            for seg in doc.findall("SEG")
        )
        if _attribute_int(path, doc, "n_segments") != len(segments):
            raise InputError(path, doc.sourceline, f"n_segments={doc.get('n_segments')} but {len(segments)} <SEG> elements")
        documents.append(
            AsiyaDocument(
                id=_attribute(path, doc, "id"),
                n=_attribute_int(path, doc, "n"),
                score=_float(path, doc, _attribute(path, doc, "score"), "score"),
                segments=segments,
            )
        )
    score_set = AsiyaScoreSet(
        metric=_attribute(path, element, "metric"),
        hypothesis=_attribute(path, element, "hyp"),
        reference=_attribute(path, element, "ref"),
        score=_float(path, element, _attribute(path, element, "score"), "score"),
        documents=tuple(documents),
        signature=element.get("signature"),
    )
    if _attribute_int(path, element, "n_docs") != len(documents):
        raise InputError(path, element.sourceline, f"n_docs={element.get('n_docs')} but {len(documents)} <DOC> elements")
    if _attribute_int(path, element, "n_segments") != score_set.n_segments:
        raise InputError(
            path, element.sourceline, f"n_segments={element.get('n_segments')} but {score_set.n_segments} <SEG> elements"
        )
    return score_set


def _attribute(path: str | Path, element: etree._Element, name: str) -> str:
    value = element.get(name)
    if value is None:
        raise InputError(path, element.sourceline, f"<{element.tag}> without a {name} attribute")
    return value


def _attribute_int(path: str | Path, element: etree._Element, name: str) -> int:
    value = _attribute(path, element, name)
    try:
        return int(value)
    except ValueError:
        raise InputError(path, element.sourceline, f"<{element.tag}> {name}={value!r} is not an integer") from None


def _float(path: str | Path, element: etree._Element, value: str, what: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise InputError(path, element.sourceline, f"<{element.tag}> {what} {value.strip()!r} is not a number") from None
