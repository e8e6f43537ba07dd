"""Safe XML parsing shared by every reader of user XML files.

lxml with entity resolution, DTD loading and network access off, and a
DOCTYPE refused outright: none of our formats needs one, and refusing it
closes the door on entity tricks. Every problem, including lxml's own errors
(resource limits, schema validator failures), becomes one line
``FILE:LINE: problem``: a traceback tells a user nothing about their file.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from checkpoints.errors import InputError
from checkpoints.io.bounded import GZIP_MAGIC, gunzip_bounded, read_file_bytes

_POSITION = re.compile(r",? line \d+, column \d+(?: \([^)]*\))?$")
HUGE_VALUE_LIMIT = 10_000_000
"""libxml2's limit on one text or attribute value without ``huge_tree``, in bytes."""


def safe_parser(*, huge_tree: bool = True, remove_comments: bool = False) -> etree.XMLParser:
    """A parser that never loads anything from outside the file.

    ``huge_tree=False`` keeps libxml2's limit of 10 MB per value: readers
    whose values are sentences use it, so a runaway value is a parse error
    with its line rather than a failure deep inside schema validation.
    """
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=huge_tree,
        remove_comments=remove_comments,
        remove_pis=remove_comments,
    )


def clean_message(message: str) -> str:
    """lxml's message on one line, without the position we print in front anyway."""
    text = " ".join(message.replace("{http://www.w3.org/2001/XMLSchema}", "xs:").split())
    return _POSITION.sub("", text)


def read_xml_bytes(path: str | Path) -> bytes:
    """The file's bytes, gunzipped when they are gzip data (``suite.xml.gz``); one-line errors
    for a missing, unreadable, empty or broken compressed file."""
    raw = read_file_bytes(path)
    if raw.startswith(GZIP_MAGIC):
        raw = gunzip_bounded(raw, path)
    if not raw.strip():
        raise InputError(path, None, "empty file: expected XML")
    return raw


def parse_xml_bytes(
    raw: bytes, path: str | Path, *, allow_doctype: bool = False, huge_tree: bool = True, remove_comments: bool = False
) -> etree._ElementTree:
    """Parse ``raw`` (read from ``path``, which errors name)."""
    parser = safe_parser(huge_tree=huge_tree, remove_comments=remove_comments)
    try:
        root = etree.fromstring(raw, parser, base_url=str(path))
    except etree.XMLSyntaxError as error:
        raise InputError(path, error.lineno or None, f"not well-formed XML: {_syntax_problem(error)}") from None
    except etree.LxmlError as error:
        raise InputError(path, None, f"cannot be parsed as XML: {clean_message(str(error))}") from None
    except ValueError as error:  # lxml refuses some inputs before parsing (an encoding it cannot use)
        raise InputError(path, None, f"cannot be parsed as XML: {clean_message(str(error))}") from None
    tree = etree.ElementTree(root)
    if tree.docinfo.doctype and not allow_doctype:
        raise InputError(path, 1, "a DOCTYPE is not allowed here")
    return tree


def parse_xml_file(
    path: str | Path, *, allow_doctype: bool = False, huge_tree: bool = True, remove_comments: bool = False
) -> etree._ElementTree:
    return parse_xml_bytes(
        read_xml_bytes(path), path, allow_doctype=allow_doctype, huge_tree=huge_tree, remove_comments=remove_comments
    )


def _syntax_problem(error: etree.XMLSyntaxError) -> str:
    message = clean_message(error.msg or str(error))
    if "XML_PARSE_HUGE" in message or "Resource limit exceeded" in message:
        return f"a value longer than {HUGE_VALUE_LIMIT:,} bytes (the limit for one text or attribute value)"
    if "amplification" in message.lower() or "entity reference loop" in message.lower():
        # libxml2 names its C function ("see xmlCtxtSetMaxAmplification"), which tells a user nothing
        return "entities that expand to far more text than the file holds (a 'billion laughs' attack): refused"
    return message


def validate(tree: etree._ElementTree, schema: etree.XMLSchema, path: str | Path, what: str) -> None:
    """Schema-validate ``tree``; the first error, with its line, becomes the :class:`InputError`."""
    try:
        valid = schema.validate(tree)
    except etree.LxmlError:
        valid = False
    if not valid:
        errors = schema.error_log
        error = errors[0] if len(errors) else None
        if error is None:
            raise InputError(path, None, f"does not follow the {what} schema")
        if error.type_name == "SCHEMAV_INTERNAL":
            raise InputError(path, error.line, f"cannot be checked against the {what} schema (a value too long for the validator?)")
        raise InputError(path, error.line, f"does not follow the {what} schema: {clean_message(error.message)}")
