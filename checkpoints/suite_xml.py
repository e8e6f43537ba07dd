"""The suite interchange XML (``checkpoints export`` / ``import``).

The format is fixed by the project's architecture document and validated
against ``schemas/suite.xsd``; files are parsed by :mod:`checkpoints.io.xml`
(no entities, no DTD, no network, no DOCTYPE), gzip-compressed files too.

``<source>`` and ``<reference>`` hold the tokens; their optional ``text``
attribute holds the sentence's own text when it is not the tokens joined by
spaces ("Juan vino del mar." for ``Juan vino de el mar .``). Reference texts
are what BLEU reads, so a suite must carry them to score the same after an
export and an import; files without the attribute (older exports) still
import, with the text rebuilt from the tokens.

Writing is deterministic (attribute order, two-space indentation, DM written
with Python's shortest round-trip float repr), so export → import → export
gives the same bytes.

Reading a large suite (100,000 check-points) is dominated by per-element
Python work, so the reader touches each element once, shares one
:class:`Token` per distinct word form (tokens are immutable) and splits
token lists with ``str.split`` whenever a value is ASCII.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path

from lxml import etree

from checkpoints.errors import InputError, OutputError
from checkpoints.io.files import write_atomic
from checkpoints.io.xml import parse_xml_bytes, read_xml_bytes, safe_parser, validate
from checkpoints.model import (
    Category,
    CheckPoint,
    Level,
    Reference,
    Sentence,
    SentencePair,
    SuiteData,
    Token,
)

_ASCII_SPACE = re.compile(r"[ \t\r\n]+")
_INNER_SPACE = re.compile(r"\s")
_OTHER_SPACE = re.compile(r"[^\S ]")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 cannot hold, not even as references."""

CategoryResolver = Callable[[str], Sequence[Category] | None]
"""Given a taxonomy name, its categories (None when the taxonomy is unknown here)."""


@dataclass(frozen=True, slots=True)
class CategoryFindings:
    """What an import found about the suite's taxonomy and categories.

    The reader stores every category either way (unknown ones as user-defined,
    as the format allows); callers decide whether a finding is worth a warning
    or a refusal. A check-point that gives a ``level`` attribute declares a
    user-defined category (``export`` writes one for each), so only categories
    outside the taxonomy that no check-point declares count as ``undeclared``:
    those are the likely typos ("Noun ", "Bogus").
    """

    taxonomy: str
    taxonomy_known: bool
    undeclared: dict[str, int]
    """Undeclared categories outside the taxonomy, with how many check-points name each, in file order."""
    user_categories: int
    """How many categories the suite stores as user-defined."""

    @property
    def clean(self) -> bool:
        return self.taxonomy_known and not self.undeclared

    @property
    def undeclared_checkpoints(self) -> int:
        return sum(self.undeclared.values())

    def problem(self) -> str | None:
        """One line about the suite's taxonomy or categories, None when there is nothing to say."""
        if not self.taxonomy_known:
            from checkpoints.taxonomy import builtin_taxonomies

            known = ", ".join(builtin_taxonomies())
            return f"taxonomy {self.taxonomy!r} is neither built in ({known}) nor a taxonomy file"
        if not self.undeclared:
            return None
        listed = [f"{name!r} ({count})" for name, count in list(self.undeclared.items())[:MAX_LISTED]]
        if len(self.undeclared) > MAX_LISTED:
            listed.append(f"and {len(self.undeclared) - MAX_LISTED} more")
        count = self.undeclared_checkpoints
        return (
            f"{count} {_plural(count, 'check-point names a category', 'check-points name categories')} "
            f"not in taxonomy {self.taxonomy}: {', '.join(listed)}"
        )

    def warning(self) -> str | None:
        """:meth:`problem` and what the import did about it, for a suite that was stored anyway."""
        problem = self.problem()
        if problem is not None and not self.taxonomy_known:
            stored = _plural(self.user_categories, "category is", "categories are")
            problem += f": its {self.user_categories} {stored} stored as user-defined"
        return problem


MAX_LISTED = 10
"""Unknown categories named in a finding; more are counted ("and 5 more")."""


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many


@dataclass(slots=True)
class SuiteImport:
    """A suite read from interchange XML, with what was found about its categories."""

    suite: SuiteData
    findings: CategoryFindings


def taxonomy_categories(name: str) -> Sequence[Category] | None:
    """The categories of a built-in taxonomy (``en``, ``zh``, ``ud``) or of a taxonomy file
    at path ``name``, as ``build --taxonomy`` resolves it; None if it is neither."""
    from checkpoints.errors import TaxonomyError
    from checkpoints.taxonomy import builtin_taxonomies, load_taxonomy

    if name in builtin_taxonomies() or Path(name).is_file():
        try:
            return list(load_taxonomy(name).categories)
        except TaxonomyError:
            return None
    return None


_XS = "{http://www.w3.org/2001/XMLSchema}"


@cache
def _schema() -> etree.XMLSchema:
    """``schemas/suite.xsd`` without its ``xs:unique`` constraints, which the reader checks itself.

    libxml2's identity constraints cost as much as the rest of validation on a
    100,000 check-point suite, while the reader keeps the ids in sets anyway;
    the schema file still states them for anyone validating with other tools.
    """
    text = resources.files("checkpoints").joinpath("schemas/suite.xsd").read_bytes()
    document = etree.fromstring(text, safe_parser(remove_comments=True))
    for constraint in list(document.iter(f"{_XS}unique")):
        constraint.getparent().remove(constraint)
    return etree.XMLSchema(document)


def _token_text(forms: Sequence[str]) -> str:
    """Tokens separated by one space; a space *inside* a token becomes U+00A0 so the
    file stays one token per whitespace-separated item. Tokens rarely hold a space,
    so the joined text is checked once rather than each token."""
    joined = " ".join(forms)
    if joined.count(" ") == len(forms) - 1 and not _OTHER_SPACE.search(joined):
        return joined
    return " ".join(_INNER_SPACE.sub("\u00a0", form) for form in forms)


def _split_tokens(text: str) -> list[str]:
    """Tokens are separated by XML whitespace only: U+00A0 (a space inside a token) and
    other Unicode spaces belong to the token. ``str.split`` agrees on ASCII text (the
    other ASCII separators it knows cannot occur in XML) and is several times faster."""
    if text.isascii():
        return text.split()
    return [token for token in _ASCII_SPACE.split(text.strip()) if token]


def write_suite_xml(data: SuiteData, path: str | Path) -> None:
    """Write the suite; the file appears only when complete (written beside it, then renamed)."""
    write_atomic(path, suite_xml_bytes(data))


def _escape_text(value: str) -> str:
    """Character data as libxml2 writes it (``&``, ``<``, ``>`` and CR as references)."""
    if "&" in value or "<" in value or ">" in value or "\r" in value:
        value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    return value


def _escape_attribute(value: str) -> str:
    """An attribute value as libxml2 writes it: also quotes, and tabs and line breaks as
    references, so that attribute-value normalization on reading gives them back."""
    if any(character in value for character in '&<>"\n\r\t'):
        value = (
            value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
        )
    return value


def _sentence_line(tag: str, sentence: Sentence, number: int | None = None) -> str:
    number_attribute = "" if number is None else f' id="{number}"'
    tokens = _token_text(sentence.forms)
    text_attribute = f' text="{_escape_attribute(sentence.text)}"' if sentence.text and sentence.text != tokens else ""
    return f"    <{tag}{number_attribute}{text_attribute}>{_escape_text(tokens)}</{tag}>\n"


def suite_xml_bytes(data: SuiteData) -> bytes:
    """The suite as interchange XML, in the canonical layout (what lxml's pretty printer writes).

    Written as text rather than built as an lxml tree: a 100,000 check-point
    suite is three times faster this way. Values are escaped as libxml2 does,
    and a character XML cannot hold (a control character) is an error that
    names its pair rather than a broken file. Callers are service entry points
    (:func:`checkpoints.gcpause.bulk_work`): the many short-lived strings would
    otherwise make the cyclic collector rescan the whole suite again and again.
    """
    by_pair: dict[int, list[CheckPoint]] = {}
    for checkpoint in data.checkpoints:
        by_pair.setdefault(checkpoint.pair_id, []).append(checkpoint)
    levels = {name: f' level="{data.category(name).level.value}"' for name in data.user_categories}
    categories: dict[str, str] = {}
    header = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<suite name="{_escape_attribute(data.name)}"'
        f' source-lang="{_escape_attribute(data.source_lang)}" target-lang="{_escape_attribute(data.target_lang)}"'
        f' taxonomy="{_escape_attribute(data.taxonomy)}">\n'
    )
    _check_characters(header, "the suite's name, languages or taxonomy")
    parts = [header]
    for pair in data.pairs:
        lines = [f'  <pair id="{pair.id}">\n', _sentence_line("source", pair.source)]
        lines.extend(_sentence_line("reference", reference, index) for index, reference in enumerate(pair.references, start=1))
        for checkpoint in by_pair.get(pair.id, ()):
            name = checkpoint.category
            category = categories.get(name)
            if category is None:
                category = categories[name] = f' category="{_escape_attribute(name)}"{levels.get(name, "")}'
            lines.append(
                f'    <checkpoint id="{checkpoint.id}"{category}>\n'
                f'      <span>{" ".join(map(str, checkpoint.source_indices))}</span>\n'
            )
            lines.extend(
                f'      <ref reference="{reference.reference_index + 1}" dm="{float(reference.dm)!r}">'
                f"{_escape_text(_token_text(reference.tokens))}</ref>\n"
                for reference in checkpoint.references
            )
            lines.append("    </checkpoint>\n")
        lines.append("  </pair>\n")
        chunk = "".join(lines)
        _check_characters(chunk, f"pair {pair.id}")
        parts.append(chunk)
    parts.append("</suite>\n")
    return "".join(parts).encode("utf-8")


def _check_characters(text: str, where: str) -> None:
    found = _NOT_XML.search(text)
    if found:
        raise OutputError(f"cannot write the suite as XML: {where} holds U+{ord(found.group()):04X}, a character XML cannot hold")


def read_suite_xml(path: str | Path, resolve: CategoryResolver = taxonomy_categories) -> SuiteData:
    """Parse and validate a suite file into core types (see :func:`load_suite_xml`)."""
    return load_suite_xml(path, resolve).suite


def load_suite_xml(path: str | Path, resolve: CategoryResolver = taxonomy_categories) -> SuiteImport:
    """Parse and validate a suite file into core types, with findings about its categories.

    Categories named by check-points must belong to the suite's taxonomy (as
    ``resolve`` reports it) or become user categories, with the level given by
    the check-point's ``level`` attribute (default ``word``); the findings say
    which did (see :class:`CategoryFindings`). Any problem in the file is an
    :class:`InputError` naming its line.
    """
    raw = read_xml_bytes(path)
    tree = parse_xml_bytes(raw, path, huge_tree=False, remove_comments=True)
    validate(tree, _schema(), path, "suite")
    return _SuiteReader(path, resolve).read(tree.getroot())


class _TokenCache(dict[str, Token]):
    """One :class:`Token` per word form: a suite repeats its vocabulary a hundred
    thousand times, and a frozen token can be shared."""

    def __missing__(self, form: str) -> Token:
        token = self[form] = Token(form=form)
        return token


class _SuiteReader:
    """Builds a :class:`SuiteData` from a schema-valid ``<suite>``, checking what the schema cannot."""

    def __init__(self, path: str | Path, resolve: CategoryResolver) -> None:
        self.path = path
        self.resolve = resolve

    def read(self, root: etree._Element) -> SuiteImport:
        path = self.path
        source_lang, target_lang = root.get("source-lang"), root.get("target-lang")
        taxonomy = root.get("taxonomy")
        resolved = self.resolve(taxonomy)
        known = {category.name: category for category in resolved or ()}
        categories: dict[str, Category] = dict(known)
        from_alignment = {name: category.level is not Level.SENTENCE for name, category in known.items()}
        user_categories: set[str] = set()
        outside: dict[str, int] = {}
        declared: set[str] = set()
        token = _TokenCache().__getitem__
        split = _split_tokens
        pairs: list[SentencePair] = []
        checkpoints: list[CheckPoint] = []
        pair_ids: set[int] = set()
        checkpoint_ids: set[int] = set()
        for pair_element in root:
            pair_id = int(pair_element.get("id"))
            if pair_id in pair_ids:
                self.duplicate(pair_element, root, "pair", pair_id)
            pair_ids.add(pair_id)
            children = iter(pair_element)
            source_element = next(children)
            source_forms = split(source_element.text)
            source_length = len(source_forms)
            source = Sentence(list(map(token, source_forms)), source_element.get("text", ""), source_lang)
            references: list[Sentence] = []
            reference_numbers: dict[int, int] = {}
            for element in children:
                if element.tag == "reference":
                    forms = split(element.text)
                    number = int(element.get("id"))
                    if number in reference_numbers:
                        self.duplicate(element, pair_element, "reference", number, f" in pair {pair_id}")
                    reference_numbers[number] = len(references)
                    references.append(Sentence(list(map(token, forms)), element.get("text", ""), target_lang))
                    continue
                name = element.get("category")
                level_text = element.get("level")
                category = categories.get(name)
                if category is None:
                    category = Category(name, Level(level_text or "word"), "user category (imported)")
                    categories[name] = category
                    from_alignment[name] = category.level is not Level.SENTENCE
                    user_categories.add(name)
                elif level_text is not None and category.level.value != level_text:
                    raise InputError(
                        path, element.sourceline,
                        f"category {name!r} is {category.level.value}-level, the file says {level_text}",
                    )
                if name not in known:
                    outside[name] = outside.get(name, 0) + 1
                    if level_text is not None:
                        declared.add(name)
                span_element, *ref_elements = element
                span = list(map(int, span_element.text.split()))
                if len(span) > 1 and any(a >= b for a, b in pairwise(span)):
                    raise InputError(path, element.sourceline, "span indices must be increasing and distinct")
                if span[-1] >= source_length:
                    raise InputError(
                        path, element.sourceline,
                        f"span index {span[-1]} out of range (the source has {source_length} tokens)",
                    )
                aligned = from_alignment[name]
                refs: list[Reference] = []
                for ref in ref_elements:
                    number = int(ref.get("reference"))
                    index = reference_numbers.get(number)
                    if index is None:
                        raise InputError(path, ref.sourceline, f"ref names reference {number}, which pair {pair_id} does not have")
                    dm = ref.get("dm")
                    refs.append(Reference(index, [], split(ref.text), 1.0 if dm is None else float(dm), aligned))
                checkpoint_id = int(element.get("id"))
                if checkpoint_id in checkpoint_ids:
                    self.duplicate(element, root, "checkpoint", checkpoint_id)
                checkpoint_ids.add(checkpoint_id)
                checkpoints.append(CheckPoint(pair_id, name, span, refs, checkpoint_id))
            pairs.append(SentencePair(pair_id, source, references, []))
        suite = SuiteData(
            name=root.get("name"),
            source_lang=source_lang,
            target_lang=target_lang,
            taxonomy=taxonomy,
            categories=list(categories.values()),
            pairs=pairs,
            checkpoints=checkpoints,
            options={"imported_from": Path(path).name},
            user_categories=user_categories,
        )
        findings = CategoryFindings(
            taxonomy=taxonomy,
            taxonomy_known=resolved is not None,
            undeclared={name: count for name, count in outside.items() if name not in declared},
            user_categories=len(user_categories),
        )
        return SuiteImport(suite, findings)

    def duplicate(self, element: etree._Element, scope: etree._Element, tag: str, number: int, where: str = "") -> None:
        """The error for an id used twice (the schema's ``xs:unique`` constraints), naming both lines."""
        first = next(
            other.sourceline for other in scope.iter(tag) if other is not element and int(other.get("id")) == number
        )
        what = "check-point" if tag == "checkpoint" else tag
        raise InputError(self.path, element.sourceline, f"{what} id {number} is used twice{where} (first on line {first})")
