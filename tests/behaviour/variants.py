"""Edits of a gold IDS, for the equivalence and meaning-change tables.

Each edit takes the document's root (lxml) and changes it in place; `variant` refuses an edit that
changes nothing, so a table row can never pass by not applying.
"""
from __future__ import annotations

import copy

from lxml import etree

IDS = "http://standards.buildingsmart.org/IDS"
XS = "http://www.w3.org/2001/XMLSchema"
BOUNDS = ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive")


def q(tag: str) -> str:
    return f"{{{IDS}}}{tag}"


def xs(tag: str) -> str:
    return f"{{{XS}}}{tag}"


def specifications(root):
    return root.findall(f".//{q('specification')}")


def variant(gold: str, *edits) -> str:
    root = etree.fromstring(gold.encode("utf-8"))
    before = etree.tostring(root)
    for edit in edits:
        edit(root)
    after = etree.tostring(root)
    assert after != before, "the edit does not apply to this gold"
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8").decode("utf-8")


# -- edits that keep the meaning -------------------------------------------------------------------
def numeric_literals(root) -> None:
    """1.0 -> 1, 1 -> 1.0, 0.7 -> 0.70: the same xs:double."""
    for name in BOUNDS:
        for bound in root.iter(xs(name)):
            value = bound.get("value")
            if bound.getparent().get("base") == "xs:double":
                bound.set("value", value[:-2] if value.endswith(".0") else value + ("0" if "." in value else ".0"))


def digit_escape(root) -> None:
    """[0-9] -> \\d in every pattern (the same on ASCII digits)."""
    for pattern in root.iter(xs("pattern")):
        pattern.set("value", pattern.get("value").replace("[0-9]", "\\d"))


def one_value_enumeration(root) -> None:
    """Every entity name as a one-value enumeration instead of a simpleValue."""
    for entity in root.iter(q("entity")):
        simple = entity.find(f"{q('name')}/{q('simpleValue')}")
        if simple is None:
            continue
        name = simple.getparent()
        restriction = etree.SubElement(name, xs("restriction"), base="xs:string")
        etree.SubElement(restriction, xs("enumeration"), value=simple.text)
        name.remove(simple)


def reversed_specifications(root) -> None:
    holder = root.find(q("specifications"))
    holder[:] = list(reversed(list(holder)))


def reversed_enumerations(root) -> None:
    for restriction in root.iter(xs("restriction")):
        values = [c for c in restriction if c.tag == xs("enumeration")]
        if len(values) > 1:
            others = [c for c in restriction if c.tag != xs("enumeration")]
            restriction[:] = others + list(reversed(values))


def renamed_specifications(root) -> None:
    for number, spec in enumerate(specifications(root), start=1):
        spec.set("name", f"Check {number}")


def optional_specifications(root) -> None:
    """Applicability 0..unbounded everywhere (used to build a gold, not as a variant)."""
    for applicability in root.iter(q("applicability")):
        if applicability.get("maxOccurs") != "0":
            applicability.set("minOccurs", "0")


def split_class_enumerations(root) -> None:
    """A specification whose entity is an enumeration of classes becomes one per class."""
    for spec in specifications(root):
        name = spec.find(f"{q('applicability')}/{q('entity')}/{q('name')}")
        restriction = name.find(xs("restriction"))
        if restriction is None:
            continue
        classes = [e.get("value") for e in restriction.iter(xs("enumeration"))]
        for ifc_class in reversed(classes):
            twin = copy.deepcopy(spec)
            twin_name = twin.find(f"{q('applicability')}/{q('entity')}/{q('name')}")
            twin_name[:] = []
            etree.SubElement(twin_name, q("simpleValue")).text = ifc_class
            spec.addnext(twin)
        spec.getparent().remove(spec)


def merge_predefined_types(first: int, second: int):
    """Two specifications that differ only in the predefined type -> one with an enumeration."""
    def edit(root) -> None:
        specs = specifications(root)
        keep, drop = specs[first], specs[second]
        types = [s.find(f"{q('applicability')}/{q('entity')}/{q('predefinedType')}") for s in (keep, drop)]
        values = [t.find(q("simpleValue")).text for t in types]
        types[0][:] = []
        restriction = etree.SubElement(types[0], xs("restriction"), base="xs:string")
        for value in values:
            etree.SubElement(restriction, xs("enumeration"), value=value)
        drop.getparent().remove(drop)
    return edit


# -- edits that change the meaning -----------------------------------------------------------------
def drop_requirement(spec: int, facet: int):
    def edit(root) -> None:
        requirements = specifications(root)[spec].find(q("requirements"))
        requirements.remove(list(requirements)[facet])
    return edit


def move_first_bound(factor: float):
    def edit(root) -> None:
        bound = next(b for name in BOUNDS for b in root.iter(xs(name)))
        bound.set("value", f"{float(bound.get('value')) * factor:g}")
    return edit


def first_required_property_optional(root) -> None:
    facet = next(p for p in root.iter(q("property")) if p.get("cardinality") == "required")
    facet.set("cardinality", "optional")


def requirement_cardinality(spec: int, facet: int, cardinality: str):
    def edit(root) -> None:
        target = list(specifications(root)[spec].find(q("requirements")))[facet]
        target.set("cardinality", cardinality)
        if cardinality == "prohibited":
            target.attrib.pop("dataType", None)
            value = target.find(q("value"))
            if value is not None:
                target.remove(value)
    return edit


def drop_last_enumeration_value(root) -> None:
    restriction = next(r for r in root.iter(xs("restriction"))
                       if len([c for c in r if c.tag == xs("enumeration")]) > 1
                       and r.getparent().tag == q("value"))
    restriction.remove([c for c in restriction if c.tag == xs("enumeration")][-1])


def entity(spec: int, name: str | None = None, predefined_type: str | None = None):
    def edit(root) -> None:
        facet = specifications(root)[spec].find(f"{q('applicability')}/{q('entity')}")
        if name:
            facet.find(f"{q('name')}/{q('simpleValue')}").text = name
        if predefined_type:
            facet.find(f"{q('predefinedType')}/{q('simpleValue')}").text = predefined_type
    return edit


def applicability(spec: int, min_occurs: str, max_occurs: str = "unbounded"):
    def edit(root) -> None:
        target = specifications(root)[spec].find(q("applicability"))
        target.set("minOccurs", min_occurs)
        target.set("maxOccurs", max_occurs)
    return edit


def data_type(old: str, new: str):
    def edit(root) -> None:
        facet = next(p for p in root.iter(q("property")) if p.get("dataType") == old)
        facet.set("dataType", new)
    return edit


def one_specification_per_requirement(root) -> None:
    """Every specification becomes one per requirement facet, with the same applicability."""
    for spec in specifications(root):
        requirements = spec.find(q("requirements"))
        if requirements is None or len(requirements) < 2:
            continue
        for index in reversed(range(len(requirements))):
            twin = copy.deepcopy(spec)
            facets = list(twin.find(q("requirements")))
            for other, facet in enumerate(facets):
                if other != index:
                    facet.getparent().remove(facet)
            spec.addnext(twin)
        spec.getparent().remove(spec)
