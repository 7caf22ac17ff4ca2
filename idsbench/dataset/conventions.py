"""The mechanical rules of docs/dataset-conventions.md, checked on one gold (marked ⚙ there).

Each rule has a stable id (C1 …) and one line of meaning; `problems(text, versions)` lists every
breach as "C<n> <where>: <what>".
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

from .golds import ANY_SET_PATTERN, Facet, Gold, parse_gold

SCHEMA_LOCATION = ("http://standards.buildingsmart.org/IDS "
                   "http://standards.buildingsmart.org/IDS/1.0/ids.xsd")
RULES = {
    "C1": "exact IDS schemaLocation; info holds only a title",
    "C2": "every specification's ifcVersion is the request's IDS Version",
    "C3": "applicability minOccurs and maxOccurs written",
    "C4": "entity: one class and at most one predefined type, upper case (version 2's IFC2X3 walls: "
          "IFCWALL|IFCWALLSTANDARDCASE)",
    "C5": "requirement property and attribute facets carry an explicit cardinality",
    "C6": "every property facet carries a dataType (a prohibited one apart)",
    "C7": "restriction base: xs:double for reals and measures, xs:integer for integers, xs:string for text",
    "C8": "numeric literals in shortest plain form (1, 0.9, 2400000)",
    "C9": "patterns: XSD style, [0-9] not \\d, no ^/$ anchors (the any-set pattern apart)",
    "C10": "one allowed value is a simpleValue, never a one-value enumeration",
    "C11": "no description or instructions",
}
IFC2X3_WALLS = ("IFCWALL", "IFCWALLSTANDARDCASE")
NUMBER_RE = re.compile(r"^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$")
_SCHEMAS = {"IFC2X3": "IFC2X3", "IFC4": "IFC4", "IFC4X3_ADD2": "IFC4X3_ADD2"}


@lru_cache(maxsize=None)
def underlying(data_type: str, version: str) -> str:
    """'integer', 'real', 'boolean', 'string' or 'other' for an IFC defined type (IFCLABEL → string)."""
    import ifcopenshell

    schema = ifcopenshell.schema_by_name(_SCHEMAS.get(version, "IFC4"))
    try:
        decl = schema.declaration_by_name(data_type)
    except Exception:  # noqa: BLE001 - unknown type: the audit reports it
        return "other"
    t = decl
    while hasattr(t, "declared_type"):
        t = t.declared_type()
    kind = str(t.declared_type() if hasattr(t, "declared_type") else t).lower()
    for word, out in (("integer", "integer"), ("real", "real"), ("number", "real"),
                      ("boolean", "boolean"), ("logical", "boolean"), ("string", "string")):
        if word in kind:
            return out
    return "other"


def _entity(f: Facet, versions: tuple[str, ...], edition: int) -> Iterator[str]:
    # Version 2 fixed IFC2X3 walls as an enumeration of both classes; version 3 leaves the class to the
    # request's words, like any other.
    names, types = f.value("name"), f.value("predefinedType")
    walls_rule = edition == 2 and "IFC2X3" in versions
    allowed_enum = walls_rule and tuple(names.enumeration) == IFC2X3_WALLS
    if not (len(names.simple) == 1 and not names.enumeration) and not allowed_enum:
        yield f"C4 {f.key}: entity name must be one simpleValue"
    if walls_rule and names.simple == ("IFCWALL",):
        yield f"C4 {f.key}: IFC2X3 walls are the IFCWALL|IFCWALLSTANDARDCASE enumeration"
    if types.enumeration or types.patterns or len(types.simple) > 1:
        yield f"C4 {f.key}: predefinedType must be one simpleValue"
    for n in names.names + types.names:
        if n != n.upper():
            yield f"C4 {f.key}: {n!r} must be upper case"


def _literals(f: Facet, kind: str) -> Iterator[str]:
    value = f.value("value")
    if kind in ("integer", "real"):
        for lit in value.simple + value.enumeration + tuple(v for _, v in value.bounds):
            if not NUMBER_RE.match(lit):
                yield f"C8 {f.key}: numeric literal {lit!r} not in shortest plain form"
    want = {"integer": "xs:integer", "real": "xs:double", "string": "xs:string"}.get(kind)
    if value.base and want and value.base != want:
        yield f"C7 {f.key}: restriction base {value.base} for a {kind} type (want {want})"


def _patterns(f: Facet) -> Iterator[str]:
    for param in f.params.values():
        for p in param.patterns:
            if p == ANY_SET_PATTERN:
                continue
            if "\\d" in p:
                yield f"C9 {f.key}: pattern {p!r} uses \\d (write [0-9])"
            if p.startswith("^") or p.endswith("$"):
                yield f"C9 {f.key}: pattern {p!r} is anchored (XSD patterns are implicitly anchored)"
        if len(param.enumeration) == 1 and not param.simple:
            yield f"C10 {f.key}: one-value enumeration (write a simpleValue)"


def _facet(f: Facet, versions: tuple[str, ...], edition: int) -> Iterator[str]:
    if f.kind == "entity":
        yield from _entity(f, versions, edition)
    if f.section == "r" and f.kind in ("property", "attribute") and "cardinality" not in f.attrib:
        yield f"C5 {f.key}: no cardinality"
    if f.kind == "property":
        data_type = f.attrib.get("dataType")
        if not data_type and f.attrib.get("cardinality") != "prohibited":
            yield f"C6 {f.key}: no dataType"
        elif data_type:
            yield from _literals(f, underlying(data_type.upper(), versions[0] if versions else "IFC4"))
    if "instructions" in f.attrib:
        yield f"C11 {f.key}: instructions"
    yield from _patterns(f)


def gold_problems(gold: Gold, versions: tuple[str, ...], edition: int = 2) -> list[str]:
    out = []
    if gold.schema_location != SCHEMA_LOCATION:
        out.append(f"C1 schemaLocation {gold.schema_location!r}")
    if gold.info_children != ("title",):
        out.append(f"C1 info holds {list(gold.info_children)} (want only title)")
    for s in gold.specs:
        if tuple((s.attrib.get("ifcVersion") or "").split()) != versions:
            out.append(f"C2 S{s.index}: ifcVersion {s.attrib.get('ifcVersion')!r} != IDS Version {' '.join(versions)!r}")
        if not {"minOccurs", "maxOccurs"} <= set(s.applicability):
            out.append(f"C3 S{s.index}: applicability minOccurs/maxOccurs not both written")
        if "description" in s.attrib or "instructions" in s.attrib:
            out.append(f"C11 S{s.index}: description/instructions")
        for f in s.facets:
            out += list(_facet(f, versions, edition))
    return out


def problems(text: str, versions: tuple[str, ...], edition: int = 2) -> list[str]:
    """Every convention breach of one gold IDS text under the request's IDS Version (edition: the
    dataset version whose rules apply)."""
    return gold_problems(parse_gold(text), versions, edition)
