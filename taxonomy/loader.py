"""Reading taxonomy XML files: schema validation, semantic checks, compilation.

Every problem is reported as one ``TaxonomyError("FILE:LINE: problem")`` so a
user editing their own taxonomy sees at once where it is wrong: XML syntax and
schema errors carry lxml's line numbers, semantic errors (unknown node ids,
missing word lists, duplicate names, bad value syntax) the line of the
element that holds them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from checkpoints.errors import TaxonomyError
from checkpoints.model import Category, Level, ReferenceMode
from checkpoints.taxonomy.core import CategoryRules, Rule, Taxonomy
from checkpoints.taxonomy.filters import AssociationFilter, EntropyFilter, LexiconFilter
from checkpoints.taxonomy.lexicons import (
    LEXICON_SOURCES,
    TAGGED_SOURCES,
    check_converter_name,
    lexicon_lookup,
    named_lexicon,
    resolve_wordlist,
)
from checkpoints.taxonomy.pattern import (
    BindingFilter,
    CheckpointSpec,
    NodeSpec,
    Pattern,
    compile_pattern,
)
from checkpoints.taxonomy.rules import ReduplicationRule, WordListRule, parse_shapes
from checkpoints.taxonomy.values import ValueSpec, ValueSyntaxError, compile_feats, compile_value
from checkpoints.taxonomy.wordlist import key_functions, load_wordlist

PACKAGE_DIR = Path(__file__).resolve().parent
SCHEMA_PATH = PACKAGE_DIR / "schema" / "taxonomy.xsd"
BUILTIN_DIR = PACKAGE_DIR / "builtin"

_VALUE_ATTRIBUTES = ("form", "lemma", "upos", "xpos", "deprel")
_HEAD_ATTRIBUTES = ("upos", "xpos", "deprel", "lemma", "form")
_RELATION_ATTRIBUTES = ("head", "ancestor", "before", "after")
_DEFAULT_CHARS = r"[^\W\d_]"


def builtin_taxonomies() -> list[str]:
    """Names of the taxonomies shipped with the package (``en``, ``ud``, ``zh``)."""
    return sorted(path.stem for path in BUILTIN_DIR.glob("*.xml"))


def load_taxonomy(name_or_path: str | Path) -> Taxonomy:
    """Load a built-in taxonomy by name, or a taxonomy file by path.

    A string naming a built-in taxonomy wins over a file of the same name in
    the working directory; write ``./en`` to mean the file.
    """
    if isinstance(name_or_path, str) and name_or_path in builtin_taxonomies():
        return _load(BUILTIN_DIR / f"{name_or_path}.xml", builtin=True)
    path = Path(name_or_path)
    if not path.is_file():
        known = ", ".join(builtin_taxonomies())
        raise TaxonomyError(f"{path}: no such taxonomy file (built-in taxonomies: {known})")
    return _load(path, builtin=False)


def validate_taxonomy(path: str | Path) -> Taxonomy:
    """Load a taxonomy and also read every word-list file it names, so that any error shows now."""
    taxonomy = load_taxonomy(path)
    for entry in taxonomy.entries:
        for rule in entry.rules:
            if isinstance(rule, WordListRule):
                rule.wordlist()
            elif isinstance(rule, Pattern):
                for binding_filter in rule.filters:
                    if isinstance(binding_filter, LexiconFilter) and binding_filter.path is not None:
                        load_wordlist(binding_filter.path)
    return taxonomy


@functools.cache
def _schema() -> etree.XMLSchema:
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    return etree.XMLSchema(etree.parse(str(SCHEMA_PATH), parser))


def validate_document(path: Path) -> etree._ElementTree:
    """Parse and schema-validate ``path``; errors name the file and line."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True)
    try:
        tree = etree.parse(str(path), parser)
    except etree.XMLSyntaxError as error:
        line = error.position[0] if error.position else error.lineno
        raise TaxonomyError(f"{path}:{line}: {_one_line(error.msg)}") from None
    except OSError as error:
        raise TaxonomyError(f"{path}: cannot read: {error}") from None
    if tree.docinfo.doctype:
        raise TaxonomyError(f"{path}:1: a DOCTYPE is not allowed in taxonomy files")
    schema = _schema()
    if not schema.validate(tree):
        error = schema.error_log[0]
        raise TaxonomyError(f"{path}:{error.line}: {_one_line(error.message)}")
    return tree


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _load(path: Path, builtin: bool) -> Taxonomy:
    tree = validate_document(path)
    return _Builder(path).taxonomy(tree.getroot(), builtin)


class _Builder:
    """Turns a schema-valid document into a :class:`Taxonomy`, checking what the schema cannot."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def error(self, element: etree._Element, problem: str) -> TaxonomyError:
        return TaxonomyError(f"{self.path}:{element.sourceline}: {problem}")

    # -- document ---------------------------------------------------------------

    def taxonomy(self, root: etree._Element, builtin: bool) -> Taxonomy:
        description_element = root.find("description")
        taxonomy = Taxonomy(
            name=root.get("name", "").strip(),
            language=root.get("language", "").strip(),
            version=root.get("version", "").strip(),
            description=_text(description_element),
            path=self.path,
            builtin=builtin,
        )
        seen: dict[str, int] = {}
        for element in root.iterfind("category"):
            entry = self.category(element)
            name = entry.category.name
            if name in seen:
                raise self.error(element, f"duplicate category name {name!r} (first defined on line {seen[name]})")
            seen[name] = element.sourceline or 0
            taxonomy.entries.append(entry)
        return taxonomy

    def category(self, element: etree._Element) -> CategoryRules:
        name = " ".join(element.get("name", "").split())
        level = element.get("level", "")
        if level not in {member.value for member in Level}:
            raise self.error(element, f"bad level {level!r}: expected word, phrase or sentence")
        labels: tuple[str, ...] = ()
        constituent = element.get("constituent")
        if constituent is not None:
            labels = tuple(label.strip() for label in constituent.split("|"))
            if any(not label for label in labels):
                raise self.error(element, f"constituent {constituent!r}: empty label")
        rules: list[Rule] = []
        for child in element:
            if child.tag == "pattern":
                rules.append(self.pattern(child))
            elif child.tag == "wordlist":
                rules.append(self.wordlist(child))
            elif child.tag == "reduplication":
                rules.append(self.reduplication(child))
        category = Category(name=name, level=Level(level), description=_text(element.find("description")))
        reference = element.get("reference")
        mode = ReferenceMode(reference) if reference else ReferenceMode.default_for(category.level)
        return CategoryRules(category, rules, labels, element.sourceline or 0, mode)

    # -- patterns -----------------------------------------------------------------

    def pattern(self, element: etree._Element) -> Rule:
        nodes: list[NodeSpec] = []
        absent: list[NodeSpec] = []
        filter_elements: list[etree._Element] = []
        checkpoint_element = element.find("checkpoint")
        ids: dict[str, NodeSpec] = {}
        for child in element:
            if child.tag == "node":
                node = self.node(child)
                if node.id in ids:
                    raise self.error(child, f"duplicate node id {node.id!r} in this pattern")
                ids[node.id or ""] = node
                nodes.append(node)
            elif child.tag == "absent":
                absent.append(self.node(child))
            elif child.tag in ("listed", "unlisted", "association", "translation-entropy"):
                filter_elements.append(child)
        required = {node.id for node in nodes if not node.optional}
        if not required:
            raise self.error(element, "a pattern needs at least one node that is not optional")
        for node in [*nodes, *absent]:
            self.check_references(node, ids, required)
        self.check_head_cycles(nodes, element)
        filters = [self.filter(child, required) for child in filter_elements]
        checkpoint = self.checkpoint(checkpoint_element, ids, required)
        return compile_pattern(nodes, absent, filters, checkpoint, element.sourceline or 0, element.get("distinct"))

    def node(self, element: etree._Element) -> NodeSpec:
        attributes: list[tuple[str, ValueSpec]] = []
        for name in _VALUE_ATTRIBUTES:
            value = element.get(name)
            if value is not None:
                attributes.append((name, self.value(element, name, value)))
        feats_text = element.get("feats")
        feats = None
        if feats_text is not None:
            try:
                feats = compile_feats(feats_text)
            except ValueSyntaxError as error:
                raise self.error(element, f"feats: {error}") from None
        return NodeSpec(
            id=element.get("id"),
            attributes=tuple(attributes),
            feats=feats,
            head=element.get("head"),
            ancestor=element.get("ancestor"),
            before=element.get("before"),
            after=element.get("after"),
            optional=_boolean(element.get("optional")),
            line=element.sourceline or 0,
        )

    def value(self, element: etree._Element, attribute: str, text: str) -> ValueSpec:
        try:
            return compile_value(text)
        except ValueSyntaxError as error:
            raise self.error(element, f"{attribute}: {error}") from None

    def check_references(self, node: NodeSpec, ids: dict[str, NodeSpec], required: set[str | None]) -> None:
        where = f"node {node.id!r}" if node.id is not None else "<absent>"
        line = _FakeLine(node.line)
        for attribute, ref in node.references():
            if ref not in ids:
                known = ", ".join(sorted(ids)) or "none"
                raise self.error(line, f"{where}: {attribute}={ref!r} names no node of this pattern (nodes: {known})")
            if ref == node.id:
                raise self.error(line, f"{where}: {attribute}={ref!r} refers to the node itself")
            if ref not in required:
                raise self.error(
                    line, f"{where}: {attribute}={ref!r} refers to an optional node; only required nodes can be referred to"
                )

    def check_head_cycles(self, nodes: list[NodeSpec], element: etree._Element) -> None:
        heads = {node.id: node.head for node in nodes if node.head is not None}
        for start in heads:
            seen = {start}
            current = heads.get(start)
            while current is not None:
                if current in seen:
                    raise self.error(element, f"head= relations form a cycle through node {start!r}")
                seen.add(current)
                current = heads.get(current)

    def filter(self, element: etree._Element, required: set[str | None]) -> BindingFilter:
        tag = element.tag
        line = element.sourceline or 0
        if tag in ("listed", "unlisted"):
            return self.lexicon_filter(element, required, absent=tag == "unlisted")
        if tag == "association":
            first, second = element.get("nodes", "").split()
            for ref in (first, second):
                self.require_node(element, ref, required, "nodes")
            return AssociationFilter(
                first=first,
                second=second,
                key=element.get("key", "lemma"),
                measure=element.get("measure", "g2"),
                min_count=int(element.get("min-count", "3")),
                min_score=float(element.get("min-score", "0")),
                line=line,
            )
        node = element.get("node", "")
        self.require_node(element, node, required, "node")
        target_upos = element.get("target-upos")
        return EntropyFilter(
            node=node,
            key=element.get("key", "lemma"),
            min_count=int(element.get("min-count", "5")),
            min_bits=float(element.get("min-bits", "0")),
            target_upos=self.value(element, "target-upos", target_upos) if target_upos is not None else None,
            line=line,
        )

    def lexicon_filter(self, element: etree._Element, required: set[str | None], absent: bool) -> LexiconFilter:
        node = element.get("node", "")
        self.require_node(element, node, required, "node")
        file_name = element.get("file")
        source = element.get("source")
        if (file_name is None) == (source is None):
            raise self.error(element, f"<{element.tag}> needs exactly one of file= and source=")
        convert = self.converter(element)
        keys = key_functions(element.get("match", "form"), _boolean(element.get("casefold")), convert)
        tags = self.tags(element)
        split_text = element.get("split")
        split = int(split_text) if split_text is not None else None
        within_text = element.get("within")
        within = int(within_text) if within_text is not None else None
        line = element.sourceline or 0
        if source is not None:
            if source not in LEXICON_SOURCES:
                raise self.error(element, f"unknown lexicon source {source!r}; known: {', '.join(LEXICON_SOURCES)}")
            if tags is not None and source not in TAGGED_SOURCES:
                tagged = ", ".join(sorted(TAGGED_SOURCES))
                raise self.error(element, f"tags= needs a lexicon whose entries have tags; {source} has none (tagged: {tagged})")
            name = source
            return LexiconFilter(
                node, lambda: named_lexicon(name), keys, absent, f"source {source}",
                line=line, tags=tags, split=split, within=within,
            )
        path = self.wordlist_path(element, file_name or "")
        return LexiconFilter(
            node,
            lambda: load_wordlist(path).entries,
            keys,
            absent,
            f"file {path.name}",
            path=path,
            line=line,
            tags=tags,
            split=split,
            within=within,
        )

    def tags(self, element: etree._Element) -> frozenset[str] | None:
        tags_text = element.get("tags")
        if tags_text is None:
            return None
        tags = frozenset(tags_text.split("|"))
        if "" in tags:
            raise self.error(element, f"tags {tags_text!r}: empty alternative")
        return tags

    def require_node(self, element: etree._Element, ref: str, required: set[str | None], attribute: str) -> None:
        if ref not in required:
            known = ", ".join(sorted(r for r in required if r is not None))
            raise self.error(element, f"<{element.tag}> {attribute}={ref!r} names no required node of this pattern (nodes: {known})")

    def checkpoint(self, element: etree._Element, ids: dict[str, NodeSpec], required: set[str | None]) -> CheckpointSpec:
        nodes = tuple(element.get("nodes", "").split())
        subtrees = tuple(element.get("subtree", "").split())
        if not nodes and not subtrees:
            raise self.error(element, "<checkpoint> needs nodes= or subtree=")
        for ref in nodes:
            if ref not in ids:
                raise self.error(element, f"<checkpoint> nodes: {ref!r} names no node of this pattern")
        for ref in subtrees:
            if ref not in ids:
                raise self.error(element, f"<checkpoint> subtree: {ref!r} names no node of this pattern")
            if ref not in required:
                raise self.error(element, f"<checkpoint> subtree: {ref!r} is optional; a subtree needs a required node")
        min_tokens = int(element.get("min-tokens", "1"))
        max_text = element.get("max-tokens")
        max_tokens = int(max_text) if max_text is not None else None
        if max_tokens is not None and max_tokens < min_tokens:
            raise self.error(element, f"<checkpoint> max-tokens={max_tokens} is below min-tokens={min_tokens}")
        exclude_text = element.get("exclude-deprel")
        exclude = self.value(element, "exclude-deprel", exclude_text) if exclude_text is not None else None
        if exclude is not None and not subtrees:
            raise self.error(element, "<checkpoint> exclude-deprel= applies to subtree= nodes, and none is given")
        return CheckpointSpec(
            nodes=nodes,
            subtrees=subtrees,
            min_tokens=min_tokens,
            max_tokens=max_tokens,
            exclude=exclude,
            trim_punct=_boolean(element.get("trim-punct"), default=True),
            contiguous=_boolean(element.get("contiguous")),
            line=element.sourceline or 0,
        )

    # -- word lists and reduplication ---------------------------------------------

    def wordlist_path(self, element: etree._Element, name: str) -> Path:
        path = resolve_wordlist(name, self.path)
        if path is None:
            raise self.error(
                element, f"word-list file {name!r} not found next to the taxonomy file or among the package's word lists"
            )
        return path

    def converter(self, element: etree._Element) -> str | None:
        convert = element.get("convert")
        if convert is not None:
            problem = check_converter_name(convert)
            if problem is not None:
                raise self.error(element, problem)
        return convert

    def wordlist(self, element: etree._Element) -> WordListRule:
        path = self.wordlist_path(element, element.get("file", ""))
        convert = self.converter(element)
        head = tuple(
            (name, self.value(element, name, text))
            for name in _HEAD_ATTRIBUTES
            if (text := element.get(name)) is not None
        )
        min_senses_text = element.get("min-senses")
        sense_tag = element.get("sense-tag")
        if sense_tag is not None and min_senses_text is None:
            raise self.error(element, "sense-tag= names the tag that min-senses= reads, and no min-senses= is given")
        return WordListRule(
            path=path,
            keys=key_functions(element.get("match", "lemma"), _boolean(element.get("casefold")), convert),
            join=element.get("join", " "),
            tags=self.tags(element),
            head=head,
            min_senses=int(min_senses_text) if min_senses_text is not None else None,
            sense_tag=sense_tag,
            max_tokens=int(element.get("max-tokens", "8")),
            unsplit=self.unsplit(element, convert),
            unsplit_chars=int(element.get("unsplit-chars", "3")),
            line=element.sourceline or 0,
        )

    def unsplit(self, element: etree._Element, convert: str | None) -> Callable[[str], bool] | None:
        """``unsplit="cedict|jieba"``: whether a text is a word of any of these lexicons."""
        text = element.get("unsplit")
        if text is None:
            return None
        sources = text.split("|")
        for source in sources:
            if source not in LEXICON_SOURCES:
                raise self.error(element, f"unsplit: unknown lexicon source {source!r}; known: {', '.join(LEXICON_SOURCES)}")
        lookups = [lexicon_lookup(source, convert) for source in sources]
        return lambda word: any(lookup(word) for lookup in lookups)

    def reduplication(self, element: etree._Element) -> ReduplicationRule:
        try:
            shapes = parse_shapes(element.get("shapes", ""))
        except ValueError as error:
            raise self.error(element, str(error)) from None
        chars_text = element.get("chars", _DEFAULT_CHARS)
        try:
            chars = re.compile(chars_text)
        except re.error as error:
            raise self.error(element, f"chars: bad regular expression: {error}") from None
        upos_text = element.get("upos")
        convert = self.converter(element)
        unlisted = element.get("unlisted")
        if unlisted is not None and unlisted not in LEXICON_SOURCES:
            raise self.error(element, f"unknown lexicon source {unlisted!r}; known: {', '.join(LEXICON_SOURCES)}")
        if convert is not None and unlisted is None:
            raise self.error(element, "convert= applies to the unlisted= lexicon look-up, and no unlisted= is given")
        return ReduplicationRule(
            shapes=shapes,
            chars=chars,
            upos=self.value(element, "upos", upos_text) if upos_text is not None else None,
            across_tokens=_boolean(element.get("across-tokens"), default=True),
            unlisted=lexicon_lookup(unlisted, convert) if unlisted is not None else None,
            line=element.sourceline or 0,
        )


class _FakeLine:
    """Stands in for an element when only its line number was kept."""

    def __init__(self, line: int) -> None:
        self.sourceline = line


def _text(element: etree._Element | None) -> str:
    if element is None or element.text is None:
        return ""
    return " ".join(element.text.split())


def _boolean(value: str | None, default: bool = False) -> bool:
    if value is None:
        return default
    return value.strip() in ("true", "1")
