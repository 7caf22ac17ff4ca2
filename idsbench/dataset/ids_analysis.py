"""Gold-IDS analysis for the dataset tools: structure summary, en/ja parity, XSD and audit gates.

Used by the build and the quality gates; not needed to load the data. Everything here is a pure
function of XML text or of one file path, so the gates can be tested on tiny fixtures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional

from lxml import etree

from idsbench.audit import audit

IDS_NS = "http://standards.buildingsmart.org/IDS"
XS_NS = "http://www.w3.org/2001/XMLSchema"
FACET_KINDS = ("entity", "partOf", "classification", "attribute", "property", "material")
# The benchmark's fixed spelling of "any property set that is not a standard one" (a gold convention).
ANY_PSET_PATTERN = "^(?!(Pset_|Qto_)).+"
BOUND_FACETS = {"minInclusive", "maxInclusive", "minExclusive", "maxExclusive"}
LENGTH_FACETS = {"length", "minLength", "maxLength"}
# Localized or free-text attributes that en and ja may word differently (parity ignores them).
PARITY_IGNORED_ATTRS = {"name", "description", "instructions"}


class IdsParseError(ValueError):
    """The text is not well-formed XML; carries the line for "file:line" messages."""

    def __init__(self, message: str, line: Optional[int]):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Leaf:
    """One comparable value inside a facet: a path such as `value/xs:restriction/xs:enumeration@value`."""

    path: str
    value: str


@dataclass(frozen=True)
class FacetShape:
    section: str  # "applicability" | "requirements"
    kind: str  # entity, attribute, property, ...
    leaves: tuple[Leaf, ...]  # facet attributes (cardinality, dataType, uri) and parameter values


@dataclass(frozen=True)
class SpecShape:
    index: int  # 1-based, for messages
    leaves: tuple[Leaf, ...]  # specification + applicability attributes (ifcVersion, minOccurs, ...)
    facets: tuple[FacetShape, ...]
    ifc_versions: tuple[str, ...]


@dataclass(frozen=True)
class GoldSummary:
    """What the composition report and the derived record columns need from one IDS document."""

    title: str
    specs: tuple[SpecShape, ...]
    facet_kinds: tuple[str, ...]  # sorted, facet element names present anywhere
    restriction_kinds: tuple[str, ...]  # sorted: bounds, enumeration, length, pattern
    flags: frozenset[str] = field(default_factory=frozenset)  # composition flags, see _flags()

    @property
    def n_specifications(self) -> int:
        return len(self.specs)


def _local(tag: str) -> str:
    ns, _, name = tag.rpartition("}")
    return f"xs:{name}" if ns == "{" + XS_NS else name


def parse(xml: str | bytes) -> etree._Element:
    """Parse without network or entity expansion; raise IdsParseError with the line."""
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError as e:
        return _raise_parse(e)


def _raise_parse(e: etree.XMLSyntaxError) -> etree._Element:
    line = e.position[0] if e.position else e.lineno
    raise IdsParseError(f"not well-formed XML: {e.msg}", line)


def _leaves(elem: etree._Element, prefix: str, skip_attrs: set[str]) -> list[Leaf]:
    """Flatten an element's attributes, text and descendants into path/value leaves, document order."""
    out = [Leaf(f"{prefix}@{_local(k)}", v) for k, v in sorted(elem.attrib.items()) if _local(k) not in skip_attrs]
    text = (elem.text or "").strip()
    if text:
        out.append(Leaf(prefix, text))
    for child in elem:
        if isinstance(child.tag, str):
            out.extend(_leaves(child, f"{prefix}/{_local(child.tag)}" if prefix else _local(child.tag), set()))
    return out


def _facet_shapes(spec: etree._Element) -> tuple[FacetShape, ...]:
    shapes = []
    for section in ("applicability", "requirements"):
        for block in spec.findall(f"{{{IDS_NS}}}{section}"):
            for facet in block:
                if isinstance(facet.tag, str):
                    leaves = _leaves(facet, "", {"instructions"})
                    shapes.append(FacetShape(section, _local(facet.tag), tuple(leaves)))
    return tuple(shapes)


def _spec_shape(index: int, spec: etree._Element) -> SpecShape:
    leaves = [Leaf(f"@{k}", v) for k, v in sorted(spec.attrib.items()) if k not in PARITY_IGNORED_ATTRS]
    app = spec.find(f"{{{IDS_NS}}}applicability")
    if app is not None:
        leaves += [Leaf(f"applicability@{k}", v) for k, v in sorted(app.attrib.items())]
    versions = tuple(spec.get("ifcVersion", "").split())
    return SpecShape(index, tuple(leaves), _facet_shapes(spec), versions)


@lru_cache(maxsize=8192)  # build and every gate read the same golds; summaries are immutable
def summarize(xml: str | bytes) -> GoldSummary:
    root = parse(xml)
    title = (root.findtext(f"{{{IDS_NS}}}info/{{{IDS_NS}}}title") or "").strip()
    specs = tuple(_spec_shape(i, s) for i, s in enumerate(root.iter(f"{{{IDS_NS}}}specification"), start=1))
    restrictions = {_restriction_kind(e) for e in root.iter(f"{{{XS_NS}}}*")} - {None}
    kinds = sorted({f.kind for s in specs for f in s.facets}, key=FACET_KINDS.index)
    return GoldSummary(title, specs, tuple(kinds), tuple(sorted(restrictions)), _flags(root, specs))


def _restriction_kind(elem: etree._Element) -> Optional[str]:
    name = _local(elem.tag)[3:]
    if name in BOUND_FACETS:
        return "bounds"
    if name in LENGTH_FACETS:
        return "length"
    return name if name in {"enumeration", "pattern"} else None


def _flags(root: etree._Element, specs: tuple[SpecShape, ...]) -> frozenset[str]:
    """Composition flags of a gold, keyed like the targets of data/composition.json."""
    flags = {f"facet:{f.kind}" for s in specs for f in s.facets}
    facets = [f for s in specs for f in s.facets]
    leaves = [(f, leaf) for f in facets for leaf in f.leaves]
    if any(f.kind == "entity" and leaf.path.startswith("predefinedType/") for f, leaf in leaves):
        flags.add("predefinedType")
    if any(f.kind == "property" and leaf.path.startswith("propertySet/") and leaf.value.startswith("Qto_")
           for f, leaf in leaves):
        flags.add("qto")
    for f, leaf in leaves:
        if leaf.path.endswith("xs:pattern@value"):
            is_convention = f.kind == "property" and leaf.path.startswith("propertySet/") \
                and leaf.value == ANY_PSET_PATTERN
            flags.add("convention:any_pset" if is_convention else "restriction:pattern")
        elif leaf.path.endswith("xs:enumeration@value"):
            flags.add("restriction:enumeration")
        elif any(leaf.path.endswith(f"xs:{b}@value") for b in BOUND_FACETS):
            flags.add("restriction:bounds")
    if any(f.section == "requirements" and Leaf("@cardinality", c) in f.leaves
           for f in facets for c in ("optional", "prohibited")):
        flags.add("cardinality:optional_or_prohibited")
    if any(Leaf("applicability@minOccurs", "0") in s.leaves for s in specs):
        flags.add("applicability:optional_or_prohibited")
    if len(specs) >= 2:
        flags.add("specs:2+")
    if len(specs) >= 5:
        flags.add("specs:5+")
    return frozenset(flags)


# ---------------------------------------------------------------------------------------------- parity

def _localized(a: str, b: str) -> bool:
    """A value with non-ASCII text on either side is a localized name (e.g. JP_防火): not compared."""
    return not (a.isascii() and b.isascii())


def _compare_leaves(where: str, en: tuple[Leaf, ...], ja: tuple[Leaf, ...]) -> list[str]:
    en_paths, ja_paths = [x.path for x in en], [x.path for x in ja]
    if en_paths != ja_paths:
        only_en = [p for p in en_paths if p not in ja_paths]
        only_ja = [p for p in ja_paths if p not in en_paths]
        detail = f"en only {only_en}, ja only {only_ja}" if (only_en or only_ja) else "different order"
        return [f"{where}: structure differs ({detail})"]
    # A code list is localized as a whole: once one of its values is written in Japanese, the others
    # at the same path are the author's local codes too (e.g. a developer's "FIX" next to 引違い).
    localized = {a.path for a, b in zip(en, ja) if _localized(a.value, b.value)}
    return [f"{where}: {a.path or 'value'} en {a.value!r} vs ja {b.value!r}"
            for a, b in zip(en, ja) if a.value != b.value and a.path not in localized]


def parity_problems(en_xml: str | bytes, ja_xml: str | bytes) -> list[str]:
    """Differences between an en and a ja IDS beyond localized text (empty list = parity holds)."""
    en, ja = summarize(en_xml), summarize(ja_xml)
    if en.n_specifications != ja.n_specifications:
        return [f"en has {en.n_specifications} specifications, ja has {ja.n_specifications}"]
    problems: list[str] = []
    for s_en, s_ja in zip(en.specs, ja.specs):
        where = f"specification {s_en.index}"
        problems += _compare_leaves(where, s_en.leaves, s_ja.leaves)
        kinds_en = [(f.section, f.kind) for f in s_en.facets]
        kinds_ja = [(f.section, f.kind) for f in s_ja.facets]
        if kinds_en != kinds_ja:
            problems.append(f"{where}: facets differ: en {_kinds(kinds_en)} vs ja {_kinds(kinds_ja)}")
            continue
        for n, (f_en, f_ja) in enumerate(zip(s_en.facets, s_ja.facets), start=1):
            problems += _compare_leaves(f"{where} facet {n} ({f_en.section}/{f_en.kind})", f_en.leaves, f_ja.leaves)
    return problems


def _kinds(kinds: list[tuple[str, str]]) -> str:
    return "[" + ", ".join(f"{s[:3]}:{k}" for s, k in kinds) + "]"


# ---------------------------------------------------------------------------------------------- per-file gates

def xsd_problems(path: Path, where: str) -> list[str]:
    """Open with ifctester and XSD validation, as users of the data will (schema cached by ifctester)."""
    from ifctester import ids as ifc_ids  # heavy import (ifcopenshell), only when the gate runs

    try:
        ifc_ids.open(str(path), validate=True)
    except ifc_ids.IdsXmlValidationError as e:
        err = e.xml_error
        line = _xsd_error_line(path, ifc_ids.get_schema())
        return [f"{where}{f':{line}' if line else ''}: XSD: {err.reason or err.message}"]
    except Exception as e:  # ifctester raises plain errors for XML it cannot parse or decode
        return [f"{where}: ifctester could not open it: {type(e).__name__}: {str(e).splitlines()[0][:200]}"]
    return []


def _xsd_error_line(path: Path, schema) -> Optional[int]:
    """ifctester parses with ElementTree (no line numbers): re-validate an lxml tree to locate the error."""
    try:
        tree = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True))
        err = next(iter(schema.iter_errors(tree)), None)
    except Exception:  # the line is a convenience; the error itself is already reported
        return None
    elem = getattr(err, "elem", None)
    return getattr(elem, "sourceline", None)


def audit_problems(path: Path, where: str) -> list[str]:
    """Findings of the Stage 1 audit (default profile) for a gold that is not Ok, one line each."""
    result = audit(path.read_bytes())
    if result.status == 0:
        return []
    details = [f"{where}:{f.line or '?'}: audit {f.code}: {f.message}" for f in result.findings]
    return details or [f"{where}: audit status {result.status} with no findings"]
