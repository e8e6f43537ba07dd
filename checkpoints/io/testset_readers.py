"""Readers of metric test sets: raw text, NIST SGML (mteval), NIST XML (Metrics MaTr) and WMT XML.

Each reader returns :class:`~checkpoints.io.testset_model.TextSet` objects,
one per source, reference or system found in the file, with the document and
segment ids that reports and human assessments refer to, and the language
the file declares.

Conventions (Asiya manual §3.3, digest §12.2):

* raw text: one segment per line; the set's name is the file name; every
  segment belongs to one document, ``UNKNOWN_DOC``; segment ids are line
  numbers from 1. Lines are kept as they are (tokenizers handle spacing).
* NIST SGML (``mteval-v13a.pl`` input): ``<srcset>``, ``<refset>``,
  ``<tstset>`` holding ``<doc docid= sysid=>`` holding ``<seg id=>``. Like
  mteval, the reader does not need well-formed XML: tag and attribute names are
  case-insensitive, attribute values may be unquoted, and tags other than
  these four (``<p>``, ``<hl>``) are ignored. Several references or systems
  are several ``<doc>`` elements with different ``sysid`` values.
* NIST XML (Metrics MaTr 2010 plan): ``<mteval>`` holding the same three set
  elements (``refid``/``sysid`` on the set or on each document), read with
  lxml.
* WMT XML (WMT 2021 and later): ``<dataset><collection><doc id=>`` holding
  ``<src>``, ``<ref translator=>`` and ``<hyp system=>``, each with
  ``<p><seg id=>``; segment ids restart in every document. Documents marked
  ``testsuite`` are skipped, as sacreBLEU does.

Segment text from SGML and XML is whitespace-normalised (leading and trailing
space removed, inner runs collapsed), as sacreBLEU cleans these formats,
because line breaks inside a ``<seg>`` are layout, not content; character
entities are decoded.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from pathlib import Path

from lxml import etree

from checkpoints.errors import InputError
from checkpoints.io.bounded import GZIP_MAGIC, gunzip_bounded, read_file_bytes
from checkpoints.io.lines import read_lines
from checkpoints.io.testset_model import UNKNOWN_DOC, SetKind, TextSet
from checkpoints.io.xml import parse_xml_file

# ---------------------------------------------------------------------------
# raw text


def read_raw(path: str | Path, kind: SetKind, name: str | None = None) -> TextSet:
    """A one-segment-per-line file (Asiya's ``-i raw``).

    Empty lines are kept (a system may fail to translate a segment); an empty
    file is an error, since it cannot be a test set.
    """
    lines = read_lines(path)
    if not lines:
        raise InputError(path, None, "the file is empty")
    count = len(lines)
    return TextSet(
        name=name if name is not None else Path(path).name,
        kind=kind,
        path=str(path),
        doc_ids=(UNKNOWN_DOC,) * count,
        seg_ids=tuple(str(number) for number in range(1, count + 1)),
        segments=tuple(lines),
        lines=tuple(range(1, count + 1)),
    )


# ---------------------------------------------------------------------------
# NIST SGML and XML


def read_nist(path: str | Path) -> list[TextSet]:
    """NIST XML when the file starts with an XML declaration, a doctype or ``<mteval>``; else SGML."""
    head = _read_bytes(path)[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<?xml", b"<!doctype", b"<mteval")):
        return read_nist_xml(path)
    return read_nist_sgml(path)


_SGML_TAG = re.compile(r"<(/?)(srcset|refset|tstset|doc|seg)\b([^>]*)>", re.IGNORECASE)
_SGML_ATTRIBUTE = re.compile(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_SET_KINDS = {"srcset": SetKind.SOURCE, "refset": SetKind.REFERENCE, "tstset": SetKind.SYSTEM}


def read_nist_sgml(path: str | Path) -> list[TextSet]:
    """Every source, reference and system in a NIST SGML file, in order of appearance.

    A small tag scanner, not an XML parser: mteval's input is SGML (unquoted
    attributes, bare ``&``), which an XML parser rejects, and the scanner
    still locates every structural error by line.
    """
    text = _decode(path)
    newlines = [match.start() for match in re.finditer("\n", text)]

    def line_of(offset: int) -> int:
        return bisect_right(newlines, offset - 1) + 1

    builder = _SetBuilder(path)
    current_set: tuple[SetKind, dict[str, str]] | None = None
    current_doc: dict[str, str] | None = None
    # attributes, text start, line, set kind and attributes, doc attributes
    open_seg: tuple[dict[str, str], int, int, SetKind, dict[str, str], dict[str, str]] | None = None
    seg_position = doc_line = set_line = 0
    for match in _SGML_TAG.finditer(text):
        closing, tag, raw_attributes = match.group(1) == "/", match.group(2).lower(), match.group(3)
        line = line_of(match.start())
        if open_seg is not None and not (closing and tag == "seg"):
            raise InputError(path, open_seg[2], "<seg> not closed")
        if tag in _SET_KINDS:
            if closing:
                if current_set is None or _SET_KINDS[tag] is not current_set[0]:
                    raise InputError(path, line, f"</{tag}> without a matching <{tag}>")
                if current_doc is not None:
                    raise InputError(path, line, f"</{tag}> inside an open <doc>")
                current_set = None
            else:
                if current_set is not None:
                    raise InputError(path, line, f"<{tag}> inside another set")
                current_set = (_SET_KINDS[tag], _sgml_attributes(raw_attributes))
                set_line = line
        elif tag == "doc":
            if closing:
                if current_doc is None:
                    raise InputError(path, line, "</doc> without <doc>")
                current_doc = None
            else:
                if current_set is None:
                    raise InputError(path, line, "<doc> outside <srcset>, <refset> or <tstset>")
                if current_doc is not None:
                    raise InputError(path, line, "<doc> inside another <doc> (missing </doc>?)")
                current_doc = _sgml_attributes(raw_attributes)
                doc_line = line
                if not current_doc.get("docid"):
                    raise InputError(path, line, "<doc> without a docid attribute")
                seg_position = 0
        elif closing:
            if open_seg is None:
                raise InputError(path, line, "</seg> without <seg>")
            attributes, start, seg_line, kind, set_attributes, doc_attributes = open_seg
            seg_position += 1
            builder.add(
                kind=kind,
                name=_set_name(kind, set_attributes, doc_attributes),
                language=_set_language(kind, set_attributes),
                doc_id=doc_attributes["docid"],
                seg_id=attributes.get("id") or str(seg_position),
                text=_clean(html.unescape(text[start : match.start()])),
                line=seg_line,
                set_id=set_attributes.get("setid"),
            )
            open_seg = None
        else:
            if current_set is None or current_doc is None:
                raise InputError(path, line, "<seg> outside <doc>")
            open_seg = (_sgml_attributes(raw_attributes), match.end(), line, current_set[0], current_set[1], current_doc)
    if open_seg is not None:
        raise InputError(path, open_seg[2], "<seg> not closed")
    if current_doc is not None:
        raise InputError(path, doc_line, "<doc> not closed before the end of the file")
    if current_set is not None:
        raise InputError(path, set_line, "set element not closed before the end of the file")
    return builder.finish("no <srcset>, <refset> or <tstset> with segments: not a NIST SGML file")


def read_nist_xml(path: str | Path) -> list[TextSet]:
    """Every source, reference and system in a NIST (Metrics MaTr) XML file."""
    root = _parse_xml(path)
    builder = _SetBuilder(path)
    for set_element in root.iter("srcset", "refset", "tstset"):
        kind = _SET_KINDS[set_element.tag]
        set_attributes = dict(set_element.attrib)
        for doc in set_element.iter("doc"):
            doc_id = doc.get("docid")
            if not doc_id:
                raise InputError(path, doc.sourceline, "<doc> without a docid attribute")
            name = _set_name(kind, set_attributes, dict(doc.attrib))
            for position, seg in enumerate(doc.iter("seg"), start=1):
                builder.add(
                    kind=kind,
                    name=name,
                    language=_set_language(kind, set_attributes),
                    doc_id=doc_id,
                    seg_id=seg.get("id") or str(position),
                    text=_clean(seg.xpath("string()")),
                    line=seg.sourceline or 0,
                    set_id=set_attributes.get("setid"),
                )
    return builder.finish("no <srcset>, <refset> or <tstset> with segments: not a NIST XML file")


def _set_name(kind: SetKind, set_attributes: dict[str, str], doc_attributes: dict[str, str]) -> str:
    """``refid``/``sysid`` of the set (XML) or ``sysid`` of the document (SGML); the source is ``source``."""
    if kind is SetKind.SOURCE:
        return "source"
    keys = ("refid", "sysid") if kind is SetKind.REFERENCE else ("sysid",)
    for attributes in (doc_attributes, set_attributes):
        for key in keys:
            if attributes.get(key):
                return attributes[key]
    return set_attributes.get("setid") or ("reference" if kind is SetKind.REFERENCE else "system")


def _set_language(kind: SetKind, attributes: dict[str, str]) -> str | None:
    return attributes.get("srclang" if kind is SetKind.SOURCE else "trglang")


def _sgml_attributes(raw: str) -> dict[str, str]:
    result = {}
    for match in _SGML_ATTRIBUTE.finditer(raw):
        value = next(group for group in match.groups()[1:] if group is not None)
        result[match.group(1).lower()] = html.unescape(value)
    return result


# ---------------------------------------------------------------------------
# WMT XML


def read_wmt_xml(path: str | Path) -> list[TextSet]:
    """Source, references (one per ``translator``) and systems (one per ``system``) of a WMT XML file."""
    root = _parse_xml(path)
    if root.tag != "dataset":
        raise InputError(path, root.sourceline, f"root element <{root.tag}>, expected <dataset> (WMT XML)")
    builder = _SetBuilder(path)
    for doc in root.iter("doc"):
        if "testsuite" in doc.attrib:
            continue
        doc_id = doc.get("id")
        if not doc_id:
            raise InputError(path, doc.sourceline, "<doc> without an id attribute")
        for child in doc:
            if child.tag == "src":
                kind, name = SetKind.SOURCE, "source"
            elif child.tag == "ref":
                kind, name = SetKind.REFERENCE, child.get("translator") or "ref"
            elif child.tag == "hyp":
                kind, name = SetKind.SYSTEM, child.get("system") or ""
                if not name:
                    raise InputError(path, child.sourceline, "<hyp> without a system attribute")
            else:
                continue
            for seg in child.iter("seg"):
                seg_id = seg.get("id")
                if not seg_id:
                    raise InputError(path, seg.sourceline, "<seg> without an id attribute")
                builder.add(
                    kind=kind,
                    name=name,
                    language=child.get("lang"),
                    doc_id=doc_id,
                    seg_id=seg_id,
                    text=_clean(seg.xpath("string()")),
                    line=seg.sourceline or 0,
                    set_id=root.get("id"),
                )
    return builder.finish("no <src>, <ref> or <hyp> segments: not a WMT XML test set")


# ---------------------------------------------------------------------------
# helpers shared by the XML and SGML readers


class _SetBuilder:
    """Collects segments per (kind, name) and rejects a segment id seen twice in a set."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._sets: dict[tuple[SetKind, str], dict[str, list]] = {}
        self._seen: dict[tuple[SetKind, str], dict[tuple[str, str], int]] = {}

    def add(
        self,
        *,
        kind: SetKind,
        name: str,
        language: str | None,
        doc_id: str,
        seg_id: str,
        text: str,
        line: int,
        set_id: str | None = None,
    ) -> None:
        key = (kind, name)
        fields = self._sets.setdefault(
            key, {"doc_ids": [], "seg_ids": [], "segments": [], "lines": [], "meta": [language, set_id]}
        )
        seen = self._seen.setdefault(key, {})
        if (doc_id, seg_id) in seen:
            raise InputError(
                self.path, line, f"segment {seg_id} of document {doc_id} given twice for {name} (first at line {seen[doc_id, seg_id]})"
            )
        seen[doc_id, seg_id] = line
        fields["doc_ids"].append(doc_id)
        fields["seg_ids"].append(seg_id)
        fields["segments"].append(text)
        fields["lines"].append(line)

    def finish(self, empty_problem: str) -> list[TextSet]:
        if not self._sets:
            raise InputError(self.path, None, empty_problem)
        return [
            TextSet(
                name=name,
                kind=kind,
                path=self.path,
                doc_ids=tuple(fields["doc_ids"]),
                seg_ids=tuple(fields["seg_ids"]),
                segments=tuple(fields["segments"]),
                lines=tuple(fields["lines"]),
                language=fields["meta"][0],
                set_id=fields["meta"][1],
            )
            for (kind, name), fields in self._sets.items()
        ]


def _read_bytes(path: str | Path) -> bytes:
    """The file's bytes (gzip data inflated with a bound)."""
    raw = read_file_bytes(path)
    return gunzip_bounded(raw, path) if raw.startswith(GZIP_MAGIC) else raw


def _decode(path: str | Path) -> str:
    raw = _read_bytes(path)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise InputError(path, line, "not valid UTF-8") from None


def _parse_xml(path: str | Path) -> etree._Element:
    """The shared safe parser; NIST XML files carry a DOCTYPE naming the mteval DTD (never loaded)."""
    return parse_xml_file(path, allow_doctype=True).getroot()


def _clean(text: str) -> str:
    return " ".join(text.split())
