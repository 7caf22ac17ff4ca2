"""IFC vocabulary for the Stage 1 audit, derived from ifcopenshell's EXPRESS schemas.

Built lazily once per schema and cached. Nothing here is copied from the audit tool's
tables: the rules below re-derive what the tool embeds (see docs/audit.md,
"The IFC vocabulary") and `benchmarks/vocab_diff.py` measures the
remaining differences.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

SCHEMAS = ("IFC2X3", "IFC4", "IFC4X3_ADD2")

# The tool's enum name for each schema, used in messages ("in the context of Ifc4").
SCHEMA_LABELS = {"IFC2X3": "Ifc2x3", "IFC4": "Ifc4", "IFC4X3_ADD2": "Ifc4x3"}

# Backing XSD type of EXPRESS simple types when they underlie an IFC defined type.
_SIMPLE_BACKING = {
    "real": "xs:double", "number": "xs:double", "integer": "xs:integer",
    "string": "xs:string", "boolean": "xs:boolean", "logical": "xs:string", "binary": "",
}
# Defined types whose lexical form is not that of their EXPRESS type (they are strings).
_BACKING_OVERRIDES = {
    "IFCDATE": "xs:date", "IFCDATETIME": "xs:dateTime", "IFCDURATION": "xs:duration",
    "IFCTIME": "xs:time", "IFCCOUNTMEASURE": "xs:integer",
}
# Raw EXPRESS types used directly by an attribute; STRING has no XSD type in the tool.
_RAW_ATTRIBUTE_TYPES = {
    "boolean": "xs:boolean", "logical": "xs:boolean", "integer": "xs:integer",
    "real": "xs:double", "number": "xs:double",
}


@dataclass(frozen=True)
class IfcClass:
    """An entity or defined type, as the tool's class table lists it."""

    name: str
    parent: str  # UPPER name of the supertype, "" for none
    abstract: bool
    predefined: tuple[str, ...]
    attributes: tuple[str, ...]
    entity: bool = True  # False for defined types


@dataclass(frozen=True)
class IfcAttribute:
    name: str
    classes: frozenset[str]  # UPPER names of every entity having the attribute
    xsd_types: tuple[str, ...]
    defined_types: tuple[str, ...] = ()  # the UPPER defined type behind each xsd_types entry


@dataclass(frozen=True, eq=False)  # identity hash: usable as a cache key
class SchemaVocabulary:
    schema: str
    classes: Mapping[str, IfcClass]  # UPPER name -> class
    subclasses: Mapping[str, tuple[str, ...]]  # UPPER -> direct subclasses (UPPER)
    attributes: Mapping[str, IfcAttribute]  # attribute name (PascalCase) -> info
    data_types: Mapping[str, str]  # UPPER dataType -> backing XSD type ("" for none)
    object_types: Mapping[str, tuple[str, ...]]  # UPPER occurrence -> UPPER type classes

    @property
    def class_names(self) -> tuple[str, ...]:
        return tuple(self.classes)

    def predefined_values(self) -> frozenset[str]:
        return _predefined_values(self)


@lru_cache(maxsize=None)
def _predefined_values(vocab: "SchemaVocabulary") -> frozenset[str]:
    return frozenset(v for c in vocab.classes.values() for v in c.predefined)


def _wrapper_schema(schema: str):
    import ifcopenshell

    return ifcopenshell.schema_by_name(schema)


def _resolve_named(decl):
    """Follow defined types down to their underlying non-named type."""
    seen = 0
    t = decl.declared_type()
    while t.as_named_type() is not None and seen < 32:
        inner = t.declared_type()
        if inner.as_type_declaration() is None:
            return inner
        t = inner.declared_type()
        seen += 1
    return t


def _defined_type_backing(decl) -> str | None:
    """Backing XSD type of a defined type; None when it is an aggregate (not a dataType)."""
    upper = decl.name().upper()
    target = _resolve_named(decl)
    if target.as_aggregation_type() is not None:
        return None
    if upper in _BACKING_OVERRIDES:
        return _BACKING_OVERRIDES[upper]
    if target.as_simple_type() is not None:
        return _SIMPLE_BACKING.get(target.declared_type(), "")
    if hasattr(target, "as_enumeration_type") and target.as_enumeration_type() is not None:
        return "xs:string"
    return ""


def _data_types(declarations) -> dict[str, str]:
    out: dict[str, str] = {}
    for d in declarations:
        if d.as_type_declaration() is not None:
            backing = _defined_type_backing(d)
            if backing is not None:
                out[d.name().upper()] = backing
        elif d.as_enumeration_type() is not None and d.name().upper().endswith("ENUM"):
            out[d.name().upper()] = "xs:string"
    return dict(sorted(out.items()))


def _attribute_xsd_type(attr_type, data_types: Mapping[str, str]) -> tuple[str, str]:
    """(XSD base type, defined type name) of an attribute ("" when values cannot be checked)."""
    agg = attr_type.as_aggregation_type()
    while agg is not None:
        attr_type = agg.type_of_element()
        agg = attr_type.as_aggregation_type()
    named = attr_type.as_named_type()
    if named is not None:
        decl = named.declared_type()
        if decl.as_type_declaration() is not None:
            return data_types.get(decl.name().upper(), ""), decl.name().upper()
        return ("xs:string" if decl.as_enumeration_type() is not None else ""), ""
    simple = attr_type.as_simple_type()
    return (_RAW_ATTRIBUTE_TYPES.get(simple.declared_type(), "") if simple is not None else ""), ""


def _forward_attributes(entity) -> list:
    # Explicit attributes, inherited included. Attributes a subtype redeclares as DERIVE
    # stay listed: the tool's tables (from xbim metadata) keep them too.
    return list(entity.all_attributes())


def _predefined(entity) -> tuple[str, ...]:
    for attr in entity.all_attributes():
        if attr.name() != "PredefinedType":
            continue
        named = attr.type_of_attribute().as_named_type()
        decl = named.declared_type() if named is not None else None
        if decl is not None and decl.as_enumeration_type() is not None:
            return tuple(decl.enumeration_items())
    return ()


def _entity_class(entity) -> IfcClass:
    parent = entity.supertype()
    return IfcClass(
        name=entity.name(),
        parent=parent.name().upper() if parent is not None else "",
        abstract=bool(entity.is_abstract()),
        predefined=_predefined(entity),
        attributes=tuple(a.name() for a in _forward_attributes(entity)),
    )


def _classes(declarations) -> dict[str, IfcClass]:
    out: dict[str, IfcClass] = {}
    for d in declarations:
        if d.as_entity() is not None:
            out[d.name().upper()] = _entity_class(d)
        elif d.as_type_declaration() is not None:
            # The tool's class list includes defined types (IFCLABEL passes as an entity name).
            out[d.name().upper()] = IfcClass(d.name(), "", False, (), (), entity=False)
    return out


def _attributes(declarations, data_types: Mapping[str, str]) -> dict[str, IfcAttribute]:
    classes: dict[str, set[str]] = {}
    types: dict[str, dict[str, str]] = {}  # attribute -> {xsd type: defined type}
    for d in declarations:
        if d.as_entity() is None:
            continue
        for attr in _forward_attributes(d):
            name = attr.name()
            classes.setdefault(name, set()).add(d.name().upper())
            xsd, defined = _attribute_xsd_type(attr.type_of_attribute(), data_types)
            if xsd:
                types.setdefault(name, {}).setdefault(xsd, defined)
    return {n: IfcAttribute(n, frozenset(c), tuple(types.get(n, {})), tuple(types.get(n, {}).values()))
            for n, c in sorted(classes.items())}


def subclass_table(classes: Mapping[str, IfcClass]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for upper, cls in classes.items():
        if cls.parent:
            out.setdefault(cls.parent, []).append(upper)
    return {k: tuple(v) for k, v in out.items()}


def _is_a(classes: Mapping[str, IfcClass], upper: str, ancestor: str) -> bool:
    while upper:
        if upper == ancestor:
            return True
        cls = classes.get(upper)
        upper = cls.parent if cls is not None else ""
    return False


def _object_types(classes: Mapping[str, IfcClass]) -> dict[str, tuple[str, ...]]:
    """Occurrence -> type object by the IFC naming convention: IfcXType, or IfcXStyle where
    no IfcXType exists (IFC2X3 doors and windows); only IfcTypeObject subtypes count."""
    out: dict[str, tuple[str, ...]] = {}
    for upper, cls in classes.items():
        if not cls.entity:
            continue
        for suffix in ("TYPE", "STYLE"):
            if _is_a(classes, upper + suffix, "IFCTYPEOBJECT"):
                out[upper] = (upper + suffix,)
                break
    return out


@lru_cache(maxsize=None)
def schema_vocabulary(schema: str) -> SchemaVocabulary:
    """Entities, defined types, attributes and dataTypes of one IFC schema."""
    declarations = _wrapper_schema(schema).declarations()
    data_types = _data_types(declarations)
    classes = _classes(declarations)
    return SchemaVocabulary(
        schema=schema,
        classes=classes,
        subclasses=subclass_table(classes),
        attributes=_attributes(declarations, data_types),
        data_types=data_types,
        object_types=_object_types(classes),
    )


@lru_cache(maxsize=4096)
def concrete_descendants(schema: str, upper: str) -> frozenset[str]:
    """The class itself (when concrete) and every concrete subclass, UPPER names."""
    vocab = schema_vocabulary(schema)
    out: set[str] = set()
    stack = [upper]
    while stack:
        name = stack.pop()
        cls = vocab.classes.get(name)
        if cls is None:
            continue
        if not cls.abstract:
            out.add(name)
        stack.extend(vocab.subclasses.get(name, ()))
    return frozenset(out)


@lru_cache(maxsize=None)
def select_members(schema: str, select_name: str) -> tuple[str, ...]:
    """Entity names (UPPER) listed by a SELECT type, flattening nested selects."""
    decl = _wrapper_schema(schema).declaration_by_name(select_name)
    out: list[str] = []
    for item in decl.select_list():
        if item.as_select_type() is not None:
            out.extend(select_members(schema, item.name()))
        else:
            out.append(item.name().upper())
    return tuple(out)


def _related_object_roots(schema: str) -> tuple[str, ...]:
    """Classes IfcRelAssociates can point at: IfcRoot in IFC2X3, IfcDefinitionSelect later."""
    rel = _wrapper_schema(schema).declaration_by_name("IfcRelAssociates")
    attr = next(a for a in rel.attributes() if a.name() == "RelatedObjects")
    element = attr.type_of_attribute().as_aggregation_type().type_of_element()
    decl = element.as_named_type().declared_type()
    if decl.as_select_type() is not None:
        return select_members(schema, decl.name())
    return (decl.name().upper(),)


def _union_concrete(schema: str, roots: tuple[str, ...]) -> frozenset[str]:
    out: set[str] = set()
    for root in roots:
        out |= concrete_descendants(schema, root)
    return frozenset(out)


@lru_cache(maxsize=None)
def material_classes(schema: str) -> frozenset[str]:
    """Type filter of a required material facet (classes a material can be associated to)."""
    return _union_concrete(schema, _related_object_roots(schema))


@lru_cache(maxsize=None)
def classification_classes(schema: str) -> frozenset[str]:
    """Type filter of a classification facet: associated objects plus, from IFC4 on, the
    resource objects an IfcExternalReferenceRelationship can classify."""
    roots = _related_object_roots(schema)
    if schema != "IFC2X3":
        roots = roots + select_members(schema, "IfcResourceObjectSelect")
    return _union_concrete(schema, roots)


# Relations an IDS partOf facet can name (IDS 1.0 `relations` enumeration, split).
PARTOF_RELATIONS = ("IFCRELAGGREGATES", "IFCRELASSIGNSTOGROUP", "IFCRELCONTAINEDINSPATIALSTRUCTURE",
                    "IFCRELNESTS", "IFCRELVOIDSELEMENT", "IFCRELFILLSELEMENT")


def _attribute_entity(attr) -> str:
    t = attr.type_of_attribute()
    agg = t.as_aggregation_type()
    if agg is not None:
        t = agg.type_of_element()
    return t.as_named_type().declared_type().name().upper()


@lru_cache(maxsize=None)
def partof_relation(schema: str, relation: str) -> tuple[str, str] | None:
    """(whole, part) entity names of a relation, read from its Relating*/Related* attributes."""
    if relation not in PARTOF_RELATIONS:
        return None
    decl = _wrapper_schema(schema).declaration_by_name(relation)
    attrs = {a.name(): a for a in decl.all_attributes()}
    whole = next(a for n, a in attrs.items() if n.startswith("Relating"))
    part = next(a for n, a in attrs.items() if n.startswith("Related"))
    return _attribute_entity(whole), _attribute_entity(part)
