"""XSD validation of IDS documents (audit code 306) against ifctester's bundled ids.xsd.

Reference validator: xmlschema, which compiles ids.xsd with its XMLSchema-namespace
import (lxml alone cannot: `xs:restriction` does not resolve there). It costs ~3 ms per
small document, so the audit first runs a libxml2 validator built from the same ids.xsd:
libxml2 refuses to import the XMLSchema namespace, but accepts a host schema whose target
namespace *is* XMLSchema and which imports ids.xsd. The host declares the small part of
the XSD 1.0 meta-schema that IDS documents use (`xs:restriction` with facets and
annotations, the `xs:occurs` attribute group). Documents outside that part, or whose
libxml2 errors sit inside an `xs:` subtree, go to xmlschema; tests/audit/test_audit.py proves the
verdicts identical on the conformance corpora and on seeded mutations of them.

xmlschema builds each error with `len(parent)`, which lxml computes by walking the children:
an element with 200 000 unexpected children took hours. For trees with an element that wide,
xmlschema validates a stdlib ElementTree copy instead (same structure, comments included, and
an O(1) len); tests/test_fuzz.py checks that both give the same issues. At most MAX_XSD_ISSUES
schema errors are listed (the status is the same; the tool would list them all).
"""
from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import re
import shutil
import tempfile
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from pathlib import Path

from lxml import etree

from idsbench.vocabulary.cache import cache_root
from idsbench.xmlparse import attribute_items

IDS_NS = "http://standards.buildingsmart.org/IDS"
XS_NS = "http://www.w3.org/2001/XMLSchema"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
MAX_XSD_ISSUES = 100
WIDE = 1000  # children (or attributes) of one element beyond which xmlschema gets the stdlib copy
_XSI_SCHEMA_LOCATION = f"{{{XSI_NS}}}schemaLocation"
_LIST_ITEM_AGAIN = re.compile(r"is not a valid value of the (local )?list type")


@dataclass(frozen=True)
class XsdIssue:
    message: str
    line: int | None
    warning: bool = False


@lru_cache(maxsize=1)
def ids_xsd_bytes() -> bytes:
    """ids.xsd as shipped by ifctester (byte-identical to the official IDS 1.0 schema), read from the
    installed package's folder without importing it (importing ifctester takes a quarter second)."""
    spec = importlib.util.find_spec("ifctester")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(folder) / "ids.xsd"
        if path.is_file():
            return path.read_bytes()
    from importlib import resources  # noqa: PLC0415 - a packaging where the folder is not a folder

    return (resources.files("ifctester") / "ids.xsd").read_bytes()


def _ids_xsd_tree(version: str) -> etree._Element:
    """ids.xsd, or for 0.9.7 the same schema also accepting IFC4X3 (all ids097.xsd adds)."""
    tree = etree.fromstring(ids_xsd_bytes(), etree.XMLParser(no_network=True, resolve_entities=False))
    if version == "0.9.7":
        for restriction in tree.iterfind(f".//{{{XS_NS}}}list//{{{XS_NS}}}restriction"):
            etree.SubElement(restriction, f"{{{XS_NS}}}enumeration", value="IFC4X3")
    return tree


_FACET_CONTENT = '<xs:sequence><xs:element ref="xs:annotation" minOccurs="0"/></xs:sequence>'


def _facet(name: str, value_type: str, fixed: bool = True) -> str:
    fixed_attr = '<xs:attribute name="fixed" type="xs:boolean"/>' if fixed else ""
    return (f'<xs:element name="{name}"><xs:complexType>{_FACET_CONTENT}'
            f'<xs:attribute name="value" type="{value_type}" use="required"/>{fixed_attr}'
            f'</xs:complexType></xs:element>')


# The slice of the XSD 1.0 meta-schema (XMLSchema.xsd) that IDS restrictions use. It is
# at most as permissive as the meta-schema: anything else fails here and goes to xmlschema.
_FACETS = {
    "minExclusive": "xs:anySimpleType", "minInclusive": "xs:anySimpleType",
    "maxExclusive": "xs:anySimpleType", "maxInclusive": "xs:anySimpleType",
    "totalDigits": "xs:positiveInteger", "fractionDigits": "xs:nonNegativeInteger",
    "length": "xs:nonNegativeInteger", "minLength": "xs:nonNegativeInteger",
    "maxLength": "xs:nonNegativeInteger",
}
_WHITESPACE_TYPE = ('<xs:simpleType><xs:restriction base="xs:NMTOKEN"><xs:enumeration value="preserve"/>'
                    '<xs:enumeration value="replace"/><xs:enumeration value="collapse"/>'
                    '</xs:restriction></xs:simpleType>')


def _host_schema(ids_location: str) -> bytes:
    facets = "".join(_facet(n, t) for n, t in _FACETS.items())
    facets += _facet("enumeration", "xs:anySimpleType", fixed=False)
    facets += _facet("pattern", "xs:string", fixed=False)
    facets += (f'<xs:element name="whiteSpace"><xs:complexType>{_FACET_CONTENT}'
               f'<xs:attribute name="value" use="required">{_WHITESPACE_TYPE}</xs:attribute>'
               '<xs:attribute name="fixed" type="xs:boolean"/></xs:complexType></xs:element>')
    choice = "".join(f'<xs:element ref="xs:{n}"/>' for n in (*_FACETS, "enumeration", "whiteSpace", "pattern"))
    text_only = '<xs:complexType mixed="true"><xs:sequence/></xs:complexType>'
    return f"""<xs:schema xmlns:xs="{XS_NS}" targetNamespace="{XS_NS}" elementFormDefault="qualified">
  <xs:import namespace="{IDS_NS}" schemaLocation="{ids_location}"/>
  <xs:attributeGroup name="occurs">
    <xs:attribute name="minOccurs" type="xs:nonNegativeInteger" default="1"/>
    <xs:attribute name="maxOccurs" default="1"><xs:simpleType>
      <xs:union memberTypes="xs:nonNegativeInteger"><xs:simpleType><xs:restriction base="xs:NMTOKEN">
      <xs:enumeration value="unbounded"/></xs:restriction></xs:simpleType></xs:union>
    </xs:simpleType></xs:attribute>
  </xs:attributeGroup>
  <xs:element name="annotation"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded">
    <xs:element name="appinfo">{text_only}</xs:element>
    <xs:element name="documentation">{text_only}</xs:element>
  </xs:choice></xs:complexType></xs:element>
  {facets}
  <xs:element name="restriction"><xs:complexType><xs:sequence>
    <xs:element ref="xs:annotation" minOccurs="0"/>
    <xs:choice minOccurs="0" maxOccurs="unbounded">{choice}</xs:choice>
  </xs:sequence><xs:attribute name="base" type="xs:QName"/></xs:complexType></xs:element>
</xs:schema>""".encode()


@lru_cache(maxsize=None)
def _fast_schema_source(version: str) -> bytes:
    ids_tree = _ids_xsd_tree(version)
    for imp in ids_tree.findall(f"{{{XS_NS}}}import"):
        ids_tree.remove(imp)
    ids_tree.insert(0, etree.Element(f"{{{XS_NS}}}import", namespace=XS_NS))
    return etree.tostring(ids_tree)


_SCHEMAS = threading.local()
_FILES: dict[str, Path] = {}  # IDS version -> the host's imported schema, on disk
_COMPILING = threading.RLock()  # libxml2 compiles one schema at a time (concurrent compilations crashed)


def _schema_file(version: str) -> str:
    """The IDS schema the host imports, as a file. A file, not a custom resolver: lxml swaps libxml2's
    process-wide document loader in and out around each parse and compilation, so a resolver can be
    missing when another thread is in the middle of one."""
    with _COMPILING:
        path = _FILES.get(version)
        if path is None or not path.is_file():
            source = _fast_schema_source(version)
            path = _FILES[version] = _cached_copy(source) or _private_copy(version, source)
    return path.as_uri()


def _cached_copy(source: bytes) -> Path | None:
    """The schema in the project's cache folder, named by the hash of its bytes: written once per user and
    reused by every run, so that no run, not even one killed, leaves a temporary file behind. None when the
    cache is off or cannot be written."""
    root = cache_root()
    if root is None:
        return None
    path = root / "xsd" / f"ids-{hashlib.sha256(source).hexdigest()[:16]}.xsd"
    try:
        if path.read_bytes() == source:
            return path
    except OSError:
        pass  # not there yet, or unreadable: written below
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(source)
        os.replace(temporary, path)  # a concurrent reader sees no file or the whole one
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        return None
    return path


def _private_copy(version: str, source: bytes) -> Path:
    """With the cache off: a private folder that the writing process removes at exit (a forked child
    uses its parent's while it is there)."""
    folder = Path(tempfile.mkdtemp(prefix="ids-bench-xsd-"))
    owner = os.getpid()
    atexit.register(lambda: os.getpid() == owner and shutil.rmtree(folder, ignore_errors=True))
    path = folder / f"ids-{version}.xsd"
    path.write_bytes(source)
    return path


def _after_fork() -> None:  # the lock may have been held by another thread of the parent
    global _COMPILING
    _COMPILING = threading.RLock()


os.register_at_fork(after_in_child=_after_fork)


def fast_schema(version: str = "1.0") -> etree.XMLSchema:
    """libxml2 validator equivalent to the reference one on the documents it accepts: one per thread,
    because lxml keeps the error log of the last validation on the schema object (shared between
    threads, one thread would read another's errors); compiled one at a time."""
    schemas = getattr(_SCHEMAS, "by_version", None)
    if schemas is None:
        schemas = _SCHEMAS.by_version = {}
    schema = schemas.get(version)
    if schema is None:
        with _COMPILING:  # two threads compiling at once broke libxml2's tables of built-in types
            parser = etree.XMLParser(no_network=True, resolve_entities=False)
            host = etree.fromstring(_host_schema(_schema_file(version)), parser)
            schema = schemas[version] = etree.XMLSchema(host)
    return schema


@lru_cache(maxsize=None)
def reference_schema(version: str = "1.0"):
    """xmlschema's compilation of ids.xsd (imports resolved from xmlschema's local copies)."""
    import xmlschema

    source = etree.tostring(_ids_xsd_tree(version), encoding="unicode")
    return xmlschema.XMLSchema10(source, allow="none", defuse="always")


def _outside_fast_subset(root: etree._Element) -> bool:
    """Constructs whose meaning the host schema does not model (namespaced attributes)."""
    for el in root.iter(etree.Element):
        for key in el.keys():
            if key[0] == "{" and not (el is root and key == _XSI_SCHEMA_LOCATION):
                return True
    return False


_PREFIXED_NAME = re.compile(rb":[^\s=<>\"'/:]*\s*=")


def _inside_fast_subset_lexically(root: etree._Element, data: bytes) -> bool:
    """True when the source shows no prefixed attribute but namespace declarations and the root's
    xsi:schemaLocation (False: unsure, the tree is looked at). `data` in an ASCII-compatible encoding."""
    seen = 0
    for match in _PREFIXED_NAME.finditer(data):
        begin = start = match.start()
        while begin > 0 and data[begin - 1] not in b" \t\r\n<":
            begin -= 1
        if data[begin:start] != b"xmlns":
            seen += 1
            if seen > 1:
                return False
    return seen == 0 or root.get(_XSI_SCHEMA_LOCATION) is not None


def _libxml2_issues(schema: etree.XMLSchema, root: etree._Element) -> list[XsdIssue] | None:
    """Issues found by libxml2, or None when they must be confirmed by xmlschema."""
    if schema.validate(root):
        return []
    issues: list[XsdIssue] = []
    previous = None  # (line, subject) of the last error kept
    for err in schema.error_log:
        if f"{{{XS_NS}}}" in err.message:
            return None  # inside an xs: subtree, where the host schema is stricter
        subject = err.message.split(": ", 1)[0]  # "Element '{ns}x', attribute 'y'" (the URI has ":/", not ": ")
        if previous == (err.line, subject) and _LIST_ITEM_AGAIN.search(err.message):
            continue  # libxml2 reports a bad list item twice (item, then list); .NET once
        previous = (err.line, subject)
        if len(issues) < MAX_XSD_ISSUES:
            issues.append(XsdIssue(err.message.replace(f"{{{IDS_NS}}}", "ids:"), err.line or None))
    return issues


def _is_wide(root: etree._Element) -> bool:
    return any(len(el) > WIDE or len(el.attrib) > WIDE for el in root.iter(etree.Element))


def stdlib_copy(root: etree._Element) -> tuple[ET.Element, dict[int, int | None]]:
    """The tree as stdlib elements (comments, PIs and entity nodes become comments, which
    xmlschema skips as it skips lxml's) and the source line of each copy, by id."""
    lines: dict[int, int | None] = {}

    def copy(node) -> ET.Element:
        if isinstance(node.tag, str):
            out = ET.Element(node.tag, dict(attribute_items(node)))
        else:
            out = ET.Comment(node.text)
        out.text, out.tail = node.text, node.tail
        lines[id(out)] = node.sourceline
        return out

    top = copy(root)
    stack = [(root, top)]
    while stack:
        source, target = stack.pop()
        for child in source:
            twin = copy(child)
            target.append(twin)
            stack.append((child, twin))
    return top, lines


def _declared_namespaces(root: etree._Element) -> dict[str, str]:
    """Every prefix declared in the tree (the first binding wins; IDS documents rebind none)."""
    found: dict[str, str] = {}
    for el in root.iter(etree.Element):
        for prefix, uri in el.nsmap.items():
            found.setdefault(prefix or "", uri)
    return found


def reference_issues(root: etree._Element, version: str = "1.0", copy: bool | None = None) -> list[XsdIssue]:
    """xmlschema's issues; `copy` (default: for wide trees) validates the stdlib copy."""
    schema = reference_schema(version)
    lines: dict[int, int | None] = {}
    namespaces = None
    if _is_wide(root) if copy is None else copy:
        namespaces = _declared_namespaces(root)  # stdlib elements carry no nsmap for QName values
        root, lines = stdlib_copy(root)
    issues = []
    for err in islice(schema.iter_errors(root, use_location_hints=False, namespaces=namespaces), MAX_XSD_ISSUES):
        elem = err.elem
        line = lines.get(id(elem), getattr(elem, "sourceline", None)) if elem is not None else None
        issues.append(XsdIssue(err.reason or str(err.message), line))
    return issues


def xsd_issues(root: etree._Element, version: str = "1.0", source: bytes | None = None) -> list[XsdIssue]:
    """XSD issues of a parsed IDS tree; a root outside the IDS namespace only gets warnings,
    as .NET's validating reader reports elements it has no schema for. `source`: the document's
    bytes when their encoding is ASCII-compatible (a cheaper look for namespaced attributes)."""
    if etree.QName(root).namespace != IDS_NS:
        return [XsdIssue(f"Could not find schema information for the element '{root.tag}'.",
                         root.sourceline, warning=True)]
    if (source is not None and _inside_fast_subset_lexically(root, source)) or not _outside_fast_subset(root):
        issues = _libxml2_issues(fast_schema(version), root)
        if issues is not None:
            return issues
    return reference_issues(root, version)
