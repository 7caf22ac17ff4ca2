"""A gold as the dataset's analysis sees it (idsbench.dataset.golds.Gold), made from the document the gold is
written from instead of parsed back from its XML: the derived record columns (skills, facet and restriction
kinds) of a generated task cost no parse. tests/synth/test_records.py holds it equal to the parse."""
from __future__ import annotations

from idsbench.dataset.golds import Facet, Gold, Specification, Value
from idsbench.harness.idsxml import SCHEMA_LOCATION, Attribute, Entity, IdsDocument, Property, Restriction
from idsbench.harness.idsxml import Specification as IdsSpecification

BOUNDS = ("minInclusive", "minExclusive", "maxInclusive", "maxExclusive")


def value_of(param: str | Restriction) -> Value:
    if isinstance(param, str):
        return Value(simple=(param,))
    pick = lambda kind: tuple(v for k, v in param.items if k == kind)  # noqa: E731
    bounds = tuple((k, v) for k, v in param.items if k in BOUNDS)
    return Value((), pick("enumeration"), pick("pattern"), bounds, param.base, 1)


def _params(pairs) -> dict:
    return {name: value_of(param) for name, param in pairs if param is not None}


def facet_of(facet: Entity | Attribute | Property, spec: int, section: str) -> Facet:
    if isinstance(facet, Entity):
        params = (("name", facet.name), ("predefinedType", facet.predefined_type))
        return Facet(spec, section, "entity", _params(params), {})
    attrib = {"cardinality": facet.cardinality} if section == "r" else {}
    if isinstance(facet, Attribute):
        return Facet(spec, section, "attribute", _params((("name", facet.name), ("value", facet.value))), attrib)
    if facet.data_type and not (section == "r" and facet.cardinality == "prohibited"):
        attrib = {"dataType": facet.data_type, **attrib}
    params = (("propertySet", facet.property_set), ("baseName", facet.base_name), ("value", facet.value))
    return Facet(spec, section, "property", _params(params), attrib)


def _specification(spec: IdsSpecification, index: int) -> Specification:
    facets = tuple(facet_of(f, index, "a") for f in spec.applicability)
    if spec.max_occurs != "0":
        facets += tuple(facet_of(f, index, "r") for f in spec.requirements)
    return Specification(index, {"name": spec.name, "ifcVersion": spec.ifc_version},
                         {"minOccurs": spec.min_occurs, "maxOccurs": spec.max_occurs}, facets)


def as_gold(doc: IdsDocument) -> Gold:
    specs = tuple(_specification(s, i) for i, s in enumerate(doc.specifications, 1))
    return Gold(SCHEMA_LOCATION, ("title",), specs)
