"""Minimal IDS documents from a few strings: the audit rules' examples, the tests and the benchmarks
all build their documents with these.

A parameter value given as plain text becomes a `simpleValue`; text that starts with "<" is taken as
XML as it is (a restriction, say). `None` leaves the element or attribute out.

    ids(spec(entity("IFCWALL"), [prop("Pset_WallCommon", "FireRating", "EI60")]))
"""
from __future__ import annotations

from collections.abc import Sequence

IDS_NS = "http://standards.buildingsmart.org/IDS"
SCHEMA_LOCATION = f"{IDS_NS} http://standards.buildingsmart.org/IDS/1.0/ids.xsd"
ROOT_OPEN = (f'<ids xmlns="{IDS_NS}" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
             f'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="{SCHEMA_LOCATION}">')
HEADER = f'<?xml version="1.0" encoding="UTF-8"?>\n{ROOT_OPEN}'
APPLICABILITY_OCCURS = 'minOccurs="1" maxOccurs="unbounded"'
Parts = str | Sequence[str]


def value(text: str) -> str:
    """The XML of a parameter value: a simpleValue, unless `text` already is XML."""
    return text if text.lstrip().startswith("<") else f"<simpleValue>{text}</simpleValue>"


def param(tag: str, text: str | None) -> str:
    return "" if text is None else f"<{tag}>{value(text)}</{tag}>"


def _attributes(**attrs: str | None) -> str:
    return "".join(f' {key}="{text}"' for key, text in attrs.items() if text is not None)


def _joined(parts: Parts) -> str:
    return parts if isinstance(parts, str) else "".join(parts)


def restriction(base: str, *facets: str) -> str:
    return f'<xs:restriction base="{base}">{"".join(facets)}</xs:restriction>'


def facet(name: str, text: str) -> str:
    """An xs: facet, e.g. facet("enumeration", "EI60") or facet("pattern", "[A-Z]+")."""
    return f'<xs:{name} value="{text}"/>'


def enumeration(*values: str, base: str = "xs:string") -> str:
    return restriction(base, *(facet("enumeration", v) for v in values))


def entity(name: str, predefined: str | None = None) -> str:
    return f"<entity>{param('name', name)}{param('predefinedType', predefined)}</entity>"


def attribute(name: str, text: str | None = None, cardinality: str | None = "required") -> str:
    return f"<attribute{_attributes(cardinality=cardinality)}>{param('name', name)}{param('value', text)}</attribute>"


def prop(pset: str, name: str, text: str | None = None, data_type: str | None = "IFCLABEL",
         cardinality: str | None = "required") -> str:
    inner = param("propertySet", pset) + param("baseName", name) + param("value", text)
    return f"<property{_attributes(dataType=data_type, cardinality=cardinality)}>{inner}</property>"


def spec(applicability: Parts, requirements: Parts | None = None, name: str = "S", version: str | None = "IFC4",
         occurs: str = APPLICABILITY_OCCURS) -> str:
    """A specification; `requirements` None (or empty) leaves the requirements element out."""
    req = f"<requirements>{_joined(requirements)}</requirements>" if requirements else ""
    return (f"<specification{_attributes(name=name, ifcVersion=version)}>\n"
            f"<applicability{' ' + occurs if occurs else ''}>{_joined(applicability)}</applicability>{req}\n"
            "</specification>")


def ids(*specs: str, title: str = "t", header: str = HEADER) -> str:
    return (f"{header}\n<info><title>{title}</title></info>\n<specifications>\n" + "\n".join(specs)
            + "\n</specifications>\n</ids>")


WALLS = spec(entity("IFCWALL"), [prop("Pset_WallCommon", "FireRating", "EI60"),
                                 prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN")], name="walls")
DOORS = spec(entity("IFCDOOR"), [attribute("Name"), prop("Pset_DoorCommon", "FireRating")], name="doors")
