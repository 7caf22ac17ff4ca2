"""Which mappings an example exercises (the optional `skills` column), derived from its gold and request."""

from __future__ import annotations

import re

from .golds import ANY_SET_PATTERN, Gold
from .leakage import spelled_out

SKILLS = {
    "class-mapping": "an IFC class the request does not name",
    "predefined-type": "an entity with a predefined type",
    "standard-pset": "a property in an IFC standard property set",
    "quantity-set": "a quantity in an IFC base quantity set",
    "client-pset": "a property in a set the client names",
    "any-set": "a property in any set (the published any-set pattern)",
    "attribute": "an attribute facet",
    "data-type": "a measure data type (length, area, pressure, ...)",
    "unit-conversion": "a numeric value the request gives in other units",
    "enumeration": "a list of allowed values",
    "pattern": "a format as a regular expression",
    "bounds": "numeric bounds",
    "cardinality": "optional or prohibited items, or objects that may or must not exist",
    "revision": "a change request on an earlier IDS",
}
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def _numbers_in(text: str) -> set[str]:
    return {m.group(0).lstrip("-") for m in _NUMBER.finditer(text.replace(",", ""))}


def _numeric_literals(gold: Gold) -> set[str]:
    out = set()
    for f in gold.facets:
        if f.kind == "property" and "MEASURE" in (f.attrib.get("dataType") or "").upper():
            v = f.value("value")
            out |= {x.lstrip("-") for x in v.simple + v.enumeration + tuple(b for _, b in v.bounds)}
    return out


def skills(gold: Gold, user_turns: list[str], turn_type: str) -> list[str]:
    text = "\n".join(user_turns)
    found = set()
    for f in gold.facets:
        v = f.value("value")
        if f.kind == "entity":
            if any(not spelled_out("class", n, text) for n in f.value("name").names):
                found.add("class-mapping")
            if f.value("predefinedType").names:
                found.add("predefined-type")
        elif f.kind == "attribute":
            found.add("attribute")
        elif f.kind == "property":
            pset = f.value("propertySet")
            if pset.patterns == (ANY_SET_PATTERN,):
                found.add("any-set")
            elif any(s.lower().startswith("qto_") for s in pset.names):
                found.add("quantity-set")
            elif any(s.lower().startswith("pset_") for s in pset.names):
                found.add("standard-pset")
            else:
                found.add("client-pset")
            if "MEASURE" in (f.attrib.get("dataType") or "").upper():
                found.add("data-type")
        if f.section == "r" and f.attrib.get("cardinality") in ("optional", "prohibited"):
            found.add("cardinality")
        if v.enumeration:
            found.add("enumeration")
        if any(p != ANY_SET_PATTERN for p in v.patterns):
            found.add("pattern")
        if v.bounds:
            found.add("bounds")
    if any(s.applicability.get("minOccurs") == "0" for s in gold.specs):
        found.add("cardinality")
    if _numeric_literals(gold) - _numbers_in(text):
        found.add("unit-conversion")
    if turn_type == "multi_turn":
        found.add("revision")
    return [s for s in SKILLS if s in found]
