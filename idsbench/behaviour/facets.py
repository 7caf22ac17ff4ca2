"""One IDS facet, resolved for an IFC version: the data that meets it and the data that does not."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ifctester import ids as ifctester_ids
from ifctester.facet import Restriction

from . import ifcschema
from .elements import ANY_SET, Element, Value, pattern_list, property_type
from .values import Sample, accepts, samples

WRONG_STRING = {"IfcLabel": "IfcText", "IfcText": "IfcLabel"}
WRONG_BY_KIND = {"string": "IfcLabel", "float": "IfcReal", "integer": "IfcReal", "boolean": "IfcLogical",
                 "logical": "IfcBoolean"}


class Unsupported(Exception):
    """A construct witness generation does not cover (reported, never silently skipped)."""


def names(param: Any) -> list[str]:
    """The values a name-like parameter allows: a simpleValue or an enumeration."""
    if param is None:
        return []
    if isinstance(param, Restriction):
        if "enumeration" in param.options:
            value = param.options["enumeration"]
            return [str(v) for v in (value if isinstance(value, list) else [value])]
        raise Unsupported(f"a name given as a {sorted(param.options)} restriction")
    return [str(param)]


@dataclass
class PropertyFacet:
    facet: ifctester_ids.Property
    pset: str  # where a satisfying value goes
    name: str
    kind: str
    ifc_type: str
    inside: list[Sample]
    outside: list[Sample]
    set_patterns: tuple[str, ...]  # the set is a pattern: the property must be in every match
    outside_sets: list[Sample]  # set names the pattern rejects

    @classmethod
    def resolve(cls, version: str, facet) -> PropertyFacet:
        if not isinstance(facet.baseName, str):
            raise Unsupported("a baseName given as a restriction")
        set_patterns = pattern_list(facet.propertySet)
        if isinstance(facet.propertySet, str):
            pset, outside_sets = facet.propertySet, []
        elif set_patterns:
            inside, outside_sets = samples(facet.propertySet, "string", preferred=(ANY_SET,))
            if not inside:
                raise Unsupported(f"no set name matches {set_patterns}")
            pset = inside[0].value
        else:
            pset, outside_sets = names(facet.propertySet)[0], []
        data_type = facet.dataType.upper() if isinstance(facet.dataType, str) else None
        kind = ifcschema.primitive(version, data_type) if data_type else "string"
        if kind is None:
            raise Unsupported(f"dataType {data_type} in {version}")
        inside, outside = samples(facet.value, kind, preferred=("W",))
        return cls(facet, pset, facet.baseName, kind, property_type(version, pset, data_type, kind),
                   inside, outside, set_patterns, outside_sets)

    def write(self, element: Element, sample: Sample, pset: str | None = None, ifc_type: str | None = None) -> tuple:
        value = Value(ifc_type or self.ifc_type, sample.value)
        if self.set_patterns and pset is None:
            element.spread.append((self.set_patterns, self.name, value))
        return element.set_property(pset or self.pset, self.name, value)

    def remove(self, element: Element) -> tuple:
        return element.drop_property(self.pset, self.name)

    def wrong_type(self) -> str | None:
        if self.ifc_type.startswith("IfcQuantity"):
            return ifcschema.WRONG_QUANTITY.get(self.ifc_type)
        other = WRONG_STRING.get(self.ifc_type) or WRONG_BY_KIND.get(self.kind)
        if other == self.ifc_type:
            other = "IfcLengthMeasure" if self.kind == "float" else None
        return other


@dataclass
class AttributeFacet:
    facet: ifctester_ids.Attribute
    name: str
    kind: str
    inside: list[Sample]
    outside: list[Sample]

    @classmethod
    def resolve(cls, version: str, ifc_class: str, facet) -> AttributeFacet:
        if not isinstance(facet.name, str):
            raise Unsupported("an attribute name given as a restriction")
        kind, items = ifcschema.attribute_kind(version, ifc_class, facet.name)
        if kind is None:
            raise Unsupported(f"attribute {facet.name} of {ifc_class} in {version}")
        inside, outside = samples(facet.value, kind, items, preferred=("W",))
        return cls(facet, facet.name, kind, inside, outside)

    def write(self, element: Element, sample: Sample | None) -> tuple:
        element.attributes[self.name] = None if sample is None else sample.value
        return ("attr", self.name)

    def remove(self, element: Element) -> tuple:
        element.attributes.pop(self.name, None)
        return ("attr", self.name)


def resolve(version: str, ifc_class: str, facet):
    """A resolved facet, or the facet itself (entity) — Unsupported for the other kinds."""
    if isinstance(facet, ifctester_ids.Property):
        return PropertyFacet.resolve(version, facet)
    if isinstance(facet, ifctester_ids.Attribute):
        return AttributeFacet.resolve(version, ifc_class, facet)
    if isinstance(facet, ifctester_ids.Entity):
        return facet
    raise Unsupported(f"a {type(facet).__name__} facet")


def satisfy(element: Element, resolved, usage: str = "required") -> set:
    """Write the base value that meets a facet (remove the data for a prohibited one)."""
    if isinstance(resolved, ifctester_ids.Entity):
        allowed = names(resolved.predefinedType)
        if allowed and element.predefined_type not in allowed:
            element.predefined_type = allowed[0]
            return {("pdt",)}
        return set()
    if usage == "prohibited":
        if isinstance(resolved, PropertyFacet):
            return {resolved.remove(element)}
        return {resolved.remove(element)}
    if meets(element, resolved):
        return set()
    if not resolved.inside:
        raise Unsupported(f"no value meets {type(resolved.facet).__name__} {resolved.name}")
    return {resolved.write(element, resolved.inside[0])}


def meets(element: Element, resolved) -> bool:
    """Whether the element already holds a value that meets the facet (a merge keeps it)."""
    if isinstance(resolved, PropertyFacet):
        stored = element.psets.get(resolved.pset, {}).get(resolved.name)
        return stored is not None and stored.ifc_type == resolved.ifc_type and accepts(resolved.facet.value, stored.value)
    stored = element.attributes.get(resolved.name)
    return stored is not None and accepts(resolved.facet.value, stored)
