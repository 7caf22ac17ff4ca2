"""Standard property and quantity set templates, from ifcopenshell.util.pset.PsetQto.

Two variants: "tool-1.0.96" applies the systematic rules that reproduce what the audit
tool 1.0.96 embeds (its xbim-derived property tables); "latest" keeps every template
ifcopenshell ships. `benchmarks/vocab_diff.py` measures what the rules do not explain.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping

from .cache import cached
from .schema import concrete_descendants, schema_vocabulary

VARIANTS = ("tool-1.0.96", "latest")

_TEMPLATE_FILES_SCHEMA = {"IFC2X3": "IFC2X3", "IFC4": "IFC4", "IFC4X3_ADD2": "IFC4X3"}

# Quantity templates carry no measure type: the IDS dataType follows the quantity kind.
_QUANTITY_TYPES = {
    "Q_LENGTH": "IFCLENGTHMEASURE", "Q_AREA": "IFCAREAMEASURE", "Q_VOLUME": "IFCVOLUMEMEASURE",
    "Q_COUNT": "IFCCOUNTMEASURE", "Q_WEIGHT": "IFCMASSMEASURE", "Q_TIME": "IFCTIMEMEASURE",
}
_KINDS = {
    "P_SINGLEVALUE": "single", "P_ENUMERATEDVALUE": "enum", "P_BOUNDEDVALUE": "bounded",
    "P_LISTVALUE": "list", "P_TABLEVALUE": "table", "P_REFERENCEVALUE": "reference",
}
# Property kinds the 1.0.96 tables leave out, per schema (the xbim property-set readers
# behind them skipped these); measured with benchmarks/vocab_diff.py.
_DROPPED_KINDS_1096 = {
    "IFC2X3": frozenset({"reference", "complex"}),
    "IFC4": frozenset({"reference", "table"}),
    "IFC4X3_ADD2": frozenset(),
}
# Quantity sets are only known to 1.0.96 for IFC4X3 (its IFC4 tables had no Qto_).
_QTO_SCHEMAS_1096 = frozenset({"IFC4X3_ADD2"})


@dataclass(frozen=True)
class PropertyTemplate:
    name: str
    kind: str  # single | enum | bounded | list | table | reference | complex | quantity
    data_types: tuple[str, ...]  # UPPER IDS dataTypes the property allows
    enum_values: tuple[str, ...]


@dataclass(frozen=True)
class PsetTemplate:
    name: str
    applicable: tuple[str, ...]  # UPPER class names
    properties: Mapping[str, PropertyTemplate]
    predefined: tuple[str, ...] = ()  # predefined type each applicable entry names ("" for none)
    template_type: str = ""  # PSET_TYPEDRIVENOVERRIDE, PSET_OCCURRENCEDRIVEN, QTO_... ("" when unset)


def _measure(value) -> str:
    return (value or "").strip().upper()


def _simple_property(prop) -> PropertyTemplate:
    ttype = prop.TemplateType or ""
    if ttype in _QUANTITY_TYPES:
        return PropertyTemplate(prop.Name, "quantity", (_QUANTITY_TYPES[ttype],), ())
    if ttype.startswith("Ifc"):  # three IFC4 templates hold their measure type here
        return PropertyTemplate(prop.Name, "single", (ttype.upper(),), ())
    kind = _KINDS.get(ttype, "single")
    if kind == "enum":
        values = tuple(str(v.wrappedValue) for v in (prop.Enumerators.EnumerationValues or ())) \
            if prop.Enumerators else ()
        return PropertyTemplate(prop.Name, kind, ("IFCLABEL",), values)
    types = [_measure(prop.PrimaryMeasureType)]
    if kind == "table":
        types.append(_measure(prop.SecondaryMeasureType))
    return PropertyTemplate(prop.Name, kind, tuple(t for t in types if t), ())


def _property(prop) -> PropertyTemplate:
    if prop.is_a("IfcComplexPropertyTemplate"):
        return PropertyTemplate(prop.Name, "complex", (), ())
    return _simple_property(prop)


def _applicable(entity_text: str | None) -> dict[str, str]:
    """UPPER class -> predefined type ("" for none) of "IfcSensor/SMOKESENSOR, ..." (first entry wins)."""
    out: dict[str, str] = {}
    for item in (entity_text or "").split(","):
        name, _, predefined = item.strip().partition("/")
        if name.strip():
            out.setdefault(name.strip().upper(), predefined.strip())
    return out


@lru_cache(maxsize=None)
def _template_entities(schema: str) -> tuple:
    import ifcopenshell.util.pset

    qto = ifcopenshell.util.pset.PsetQto(_TEMPLATE_FILES_SCHEMA[schema])
    return tuple(t for tfile in qto.templates for t in tfile.by_type("IfcPropertySetTemplate"))


def _repaired_name(schema: str, pset_name: str, index: int, name: str, taken: set[str]) -> str:
    """A few IFC4 templates carry a definition sentence as property name ("Indicates
    whether the object is intended to carry loads..."): take the name the same set uses
    at the same position in the IFC4X3 templates, when that name is otherwise missing."""
    if " " not in name or schema == "IFC4X3_ADD2":
        return name
    for tmpl in _template_entities("IFC4X3_ADD2"):
        if tmpl.Name == pset_name:
            props = tmpl.HasPropertyTemplates or ()
            fixed = props[index].Name if index < len(props) else ""
            return fixed if fixed and fixed not in taken else name
    return name


@lru_cache(maxsize=None)
def _raw_templates(schema: str) -> tuple[PsetTemplate, ...]:
    out: list[PsetTemplate] = []
    for tmpl in _template_entities(schema):
        props: dict[str, PropertyTemplate] = {}
        entities = tmpl.HasPropertyTemplates or ()
        names = {p.Name for p in entities}
        for index, p in enumerate(entities):
            prop = _property(p)
            name = _repaired_name(schema, tmpl.Name, index, p.Name, names)
            props.setdefault(name, PropertyTemplate(name, prop.kind, prop.data_types, prop.enum_values))
        applicable = _applicable(tmpl.ApplicableEntity)
        out.append(PsetTemplate(tmpl.Name, tuple(applicable), props, tuple(applicable.values()),
                               tmpl.TemplateType or ""))
    return tuple(out)


def _keep_1096(schema: str, tmpl: PsetTemplate) -> PsetTemplate | None:
    if tmpl.name.startswith("Qto_") and schema not in _QTO_SCHEMAS_1096:
        return None
    dropped = _DROPPED_KINDS_1096[schema]
    props = {n: p for n, p in tmpl.properties.items() if p.kind not in dropped}
    return replace(tmpl, properties=props)


@lru_cache(maxsize=None)
def property_sets(schema: str, variant: str = "tool-1.0.96") -> Mapping[str, PsetTemplate]:
    """Standard property/quantity sets of a schema, by name (kept on disk, see cache.py)."""
    return cached(f"psets-{schema}-{variant}", lambda: _derive_property_sets(schema, variant))


def _derive_property_sets(schema: str, variant: str) -> dict[str, PsetTemplate]:
    out: dict[str, PsetTemplate] = {}
    for tmpl in _raw_templates(schema):
        kept = _keep_1096(schema, tmpl) if variant == "tool-1.0.96" else tmpl
        if kept is not None:
            out.setdefault(kept.name, kept)
    return out


@lru_cache(maxsize=None)
def pset_type_filter(schema: str, variant: str, pset_name: str) -> frozenset[str]:
    """Classes a standard set can be attached to: concrete descendants of its applicable
    classes, their type classes, and the direct subclasses of those type classes."""
    vocab = schema_vocabulary(schema)
    tmpl = property_sets(schema, variant).get(pset_name)
    if tmpl is None:
        return frozenset()
    occurrences: set[str] = set()
    for cls in tmpl.applicable:
        occurrences |= concrete_descendants(schema, cls)
    types: set[str] = set()
    for occ in occurrences:
        for tcls in vocab.object_types.get(occ, ()):
            types.add(tcls)
            types.update(vocab.subclasses.get(tcls, ()))
    return frozenset(occurrences | types)
