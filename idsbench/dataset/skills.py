"""Which mappings an example exercises (the optional `skills` column), derived from its gold and request,
and for version-3 scenarios the kinds of the hard facts its review cites as traps (`trap-…`)."""

from __future__ import annotations

import re

from idsbench.vocabulary.facts import kind_of

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
    "trap-version-home": "a trap: a set, property, class or predefined type that exists in some IFC versions only",
    "trap-data-type": "a trap: a template data type that is not the intuitive one",
    "trap-enumeration": "a trap: an enumerated value of the declared version",
    "trap-quantity-set": "a trap: a quantity set of the declared version",
    "trap-predefined-type": "a trap: a predefined type chosen by its IFC definition",
    "trap-unit": "a trap: a conversion to the SI unit beyond mm to m",
}
TRAP_SKILLS = {"home": "trap-version-home", "moved": "trap-version-home", "datatype": "trap-data-type",
               "enum": "trap-enumeration", "qto": "trap-quantity-set", "ptype": "trap-predefined-type",
               "unit": "trap-unit"}
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


def skills(gold: Gold, user_turns: list[str], turn_type: str, traps: tuple[str, ...] = ()) -> list[str]:
    """`traps`: the catalogue ids a version-3 review cites."""
    text = "\n".join(user_turns)
    found = {TRAP_SKILLS[kind_of(t)] for t in traps if kind_of(t)}
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
