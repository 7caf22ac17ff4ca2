"""The facets of a gold IDS as plain values, for the dataset's version-2 gates (conventions, leakage,
review records, skills). Golds are the project's own trusted files, parsed with lxml."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from lxml import etree

IDS_NS = "http://standards.buildingsmart.org/IDS"
XS_NS = "http://www.w3.org/2001/XMLSchema"
ANY_SET_PATTERN = "^(?!(Pset_|Qto_)).+"
_NS = {"i": IDS_NS, "xs": XS_NS}


@dataclass(frozen=True)
class Value:
    """A facet parameter: simple values, enumeration values, patterns, bounds (facet → base, literals)."""

    simple: tuple[str, ...] = ()
    enumeration: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    bounds: tuple[tuple[str, str], ...] = ()  # (minInclusive, "0.9"), ...
    base: Optional[str] = None
    restriction_count: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        return self.simple + self.enumeration


@dataclass(frozen=True)
class Facet:
    spec: int  # 1-based specification index
    section: str  # "a" (applicability) or "r" (requirements)
    kind: str  # entity | attribute | property | classification | material | partOf
    params: dict  # parameter local name -> Value (name, predefinedType, propertySet, baseName, value)
    attrib: dict  # the facet element's own attributes (dataType, cardinality, ...)

    def value(self, name: str) -> Value:
        return self.params.get(name, Value())

    @property
    def key(self) -> str:
        """The review key: S<n>.<a|r>.<kind>:<label> (labels: class/TYPE, set.property, attribute)."""
        if self.kind == "entity":
            label = "|".join(self.value("name").names)
            types = self.value("predefinedType").names
            label += ("/" + "|".join(types)) if types else ""
        elif self.kind == "attribute":
            label = "|".join(self.value("name").names)
        elif self.kind == "property":
            pset = self.value("propertySet")
            label = ("<any>" if pset.patterns == (ANY_SET_PATTERN,) else "|".join(pset.names)) + "."
            label += "|".join(self.value("baseName").names)
        else:
            label = "?"
        return f"S{self.spec}.{self.section}.{self.kind}:{label}"


@dataclass(frozen=True)
class Specification:
    index: int
    attrib: dict
    applicability: dict  # minOccurs/maxOccurs as written
    facets: tuple[Facet, ...]


@dataclass(frozen=True)
class Gold:
    schema_location: Optional[str]
    info_children: tuple[str, ...]
    specs: tuple[Specification, ...]

    @property
    def facets(self) -> tuple[Facet, ...]:
        return tuple(f for s in self.specs for f in s.facets)


def _local(el) -> str:
    return etree.QName(el).localname


def _value(el) -> Value:
    simple = tuple((e.text or "").strip() for e in el.iterfind("i:simpleValue", _NS))
    restrictions = el.findall("xs:restriction", _NS)
    enum, pats, bounds, base = [], [], [], None
    for r in restrictions:
        base = r.get("base")
        for c in r:
            if not isinstance(c.tag, str):
                continue
            name = _local(c)
            if name == "enumeration":
                enum.append(c.get("value", ""))
            elif name == "pattern":
                pats.append(c.get("value", ""))
            else:
                bounds.append((name, c.get("value", "")))
    return Value(simple, tuple(enum), tuple(pats), tuple(bounds), base, len(restrictions))


def _facets(spec_el, index: int) -> tuple[Facet, ...]:
    out = []
    for section, tag in (("a", "applicability"), ("r", "requirements")):
        part = spec_el.find(f"i:{tag}", _NS)
        for f in (part if part is not None else ()):
            if isinstance(f.tag, str):
                params = {_local(p): _value(p) for p in f if isinstance(p.tag, str)}
                out.append(Facet(index, section, _local(f), params, dict(f.attrib)))
    return tuple(out)


def parse_gold(text: str) -> Gold:
    root = etree.fromstring(text.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True))
    info = root.find("i:info", _NS)
    specs = []
    for n, s in enumerate(root.iterfind(".//i:specification", _NS), 1):
        app = s.find("i:applicability", _NS)
        specs.append(Specification(n, dict(s.attrib), dict(app.attrib) if app is not None else {}, _facets(s, n)))
    location = root.get("{http://www.w3.org/2001/XMLSchema-instance}schemaLocation")
    info_children = tuple(_local(c) for c in (info if info is not None else ()) if isinstance(c.tag, str))
    return Gold(location, info_children, tuple(specs))
