"""A small typed model of the IDS 1.0 subset the baselines write, and its XML rendering (gold layout)."""
from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

SCHEMA_LOCATION = "http://standards.buildingsmart.org/IDS http://standards.buildingsmart.org/IDS/1.0/ids.xsd"
ROOT_OPEN = (
    '<ids xmlns="http://standards.buildingsmart.org/IDS" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
    f'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="{SCHEMA_LOCATION}">'
)
ANY_SET_PATTERN = "^(?!(Pset_|Qto_)).+"  # the benchmark's "no property set named" convention


@dataclass(frozen=True)
class Restriction:
    """An xs:restriction: `items` are (facet, value) pairs such as ("enumeration", "A"), ("minInclusive", "0.9")."""

    base: str
    items: tuple[tuple[str, str], ...]


Param = str | Restriction  # a simpleValue or a restriction
ANY_SET = Restriction("xs:string", (("pattern", ANY_SET_PATTERN),))


@dataclass(frozen=True)
class Entity:
    name: str  # UPPERCASE
    predefined_type: str | None = None


@dataclass(frozen=True)
class Attribute:
    name: str
    value: Param | None = None
    cardinality: str = "required"


@dataclass(frozen=True)
class Property:
    property_set: Param
    base_name: str
    value: Param | None = None
    data_type: str | None = None
    cardinality: str = "required"


Facet = Entity | Attribute | Property


@dataclass(frozen=True)
class Specification:
    name: str
    ifc_version: str
    applicability: tuple[Facet, ...]
    requirements: tuple[Facet, ...] = ()
    min_occurs: str = "1"
    max_occurs: str = "unbounded"


@dataclass(frozen=True)
class IdsDocument:
    title: str
    specifications: tuple[Specification, ...] = field(default_factory=tuple)


def _param(tag: str, value: Param, indent: str) -> list[str]:
    if isinstance(value, str):
        return [f"{indent}<{tag}>", f"{indent}  <simpleValue>{escape(value)}</simpleValue>", f"{indent}</{tag}>"]
    lines = [f"{indent}<{tag}>", f"{indent}  <xs:restriction base={quoteattr(value.base)}>"]
    lines += [f"{indent}    <xs:{kind} value={quoteattr(v)}/>" for kind, v in value.items]
    return lines + [f"{indent}  </xs:restriction>", f"{indent}</{tag}>"]


def _facet(facet: Facet, in_requirements: bool, indent: str) -> list[str]:
    inner = indent + "  "
    if isinstance(facet, Entity):
        body = _param("name", facet.name, inner)
        body += _param("predefinedType", facet.predefined_type, inner) if facet.predefined_type else []
        return [f"{indent}<entity>", *body, f"{indent}</entity>"]
    attrs = ""
    if isinstance(facet, Property):
        if facet.data_type and not (in_requirements and facet.cardinality == "prohibited"):
            attrs += f" dataType={quoteattr(facet.data_type)}"  # prohibited + dataType is audit error 202
        body = _param("propertySet", facet.property_set, inner) + _param("baseName", facet.base_name, inner)
        tag = "property"
    else:
        body = _param("name", facet.name, inner)
        tag = "attribute"
    body += _param("value", facet.value, inner) if facet.value is not None else []
    if in_requirements:
        attrs += f" cardinality={quoteattr(facet.cardinality)}"
    return [f"{indent}<{tag}{attrs}>", *body, f"{indent}</{tag}>"]


def _specification(spec: Specification, indent: str) -> list[str]:
    inner = indent + "  "
    lines = [f"{indent}<specification name={quoteattr(spec.name)} ifcVersion={quoteattr(spec.ifc_version)}>",
             f'{inner}<applicability minOccurs="{spec.min_occurs}" maxOccurs="{spec.max_occurs}">']
    for facet in spec.applicability:
        lines += _facet(facet, False, inner + "  ")
    lines.append(f"{inner}</applicability>")
    if spec.requirements and spec.max_occurs != "0":  # a prohibited applicability carries no requirements
        lines.append(f"{inner}<requirements>")
        for facet in spec.requirements:
            lines += _facet(facet, True, inner + "  ")
        lines.append(f"{inner}</requirements>")
    return lines + [f"{indent}</specification>"]


def render(doc: IdsDocument) -> str:
    """The document as IDS 1.0 XML, laid out like the gold files (2-space indent, one element per line)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', ROOT_OPEN, "  <info>",
             f"    <title>{escape(doc.title)}</title>", "  </info>", "  <specifications>"]
    for spec in doc.specifications:
        lines += _specification(spec, "    ")
    return "\n".join(lines + ["  </specifications>", "</ids>"]) + "\n"


def fenced(xml: str) -> str:
    """The answer format the prompt asks models for, so baselines go through the same extraction."""
    return f"```ids\n{xml.rstrip()}\n```"
