"""The vocabulary as a profile sees it, as tables built once per process: ifcopenshell's schema
vocabulary (plus, in the latest profile, the IFC2X3 occurrence names IDS maps onto type objects) and
the property-set templates of the profile's variant. Every list a check matches against is a `Names`:
its values in the tool's order (messages quote the first ones) with their set (membership is O(1))."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping

from idsbench.vocabulary.psets import PsetTemplate, property_sets, pset_type_filter
from idsbench.vocabulary.schema import IfcAttribute, IfcClass, SchemaVocabulary, schema_vocabulary, subclass_table

from .context import AuditContext


class Names(tuple):
    """Values in order, with `.set`."""

    set: frozenset

    def __new__(cls, values):
        self = super().__new__(cls, values)
        self.set = frozenset(self)
        return self


@lru_cache(maxsize=None)
def _ifc2x3_with_occurrence_names() -> SchemaVocabulary:
    """IFC2X3 plus the IFC4 occurrence classes whose type object exists in IFC2X3
    (IFCAIRTERMINAL -> IfcAirTerminalType): IDS names them, the IFC2X3 file stores an
    IfcFlowTerminal typed by IfcAirTerminalType. Predefined types come from the type."""
    base, ifc4 = schema_vocabulary("IFC2X3"), schema_vocabulary("IFC4")
    classes = dict(base.classes)
    holders: dict[str, set[str]] = {}
    for upper, cls in ifc4.classes.items():
        type_cls = base.classes.get(upper + "TYPE")
        if upper in classes or not cls.entity or cls.abstract or type_cls is None:
            continue
        occurrence = _nearest_known_ancestor(ifc4, base, upper)  # e.g. IFCFLOWTERMINAL
        attributes = base.classes[occurrence].attributes if occurrence else ()
        classes[upper] = IfcClass(cls.name, occurrence, False, type_cls.predefined, attributes)
        for attr in attributes:
            holders.setdefault(attr, set()).add(upper)
    attrs = {n: IfcAttribute(n, a.classes | holders.get(n, set()), a.xsd_types, a.defined_types)
             for n, a in base.attributes.items()}
    return replace(base, classes=classes, subclasses=subclass_table(classes), attributes=attrs)


def _nearest_known_ancestor(ifc4: SchemaVocabulary, ifc2x3: SchemaVocabulary, upper: str) -> str:
    parent = ifc4.classes[upper].parent
    while parent and parent not in ifc2x3.classes:
        parent = ifc4.classes[parent].parent
    return parent


@dataclass(frozen=True, eq=False)
class EntityTables:
    """One schema's classes, attributes and data types, as the checks read them."""

    vocabulary: SchemaVocabulary
    classes: Names  # UPPER class names (entities and defined types)
    attributes: Names  # attribute names
    data_types: Names  # UPPER dataType names
    predefined: frozenset[str]  # every predefined-type value of the schema


@lru_cache(maxsize=None)
def _entity_tables(schema: str, occurrence_mapping: bool) -> EntityTables:
    vocab = _ifc2x3_with_occurrence_names() if occurrence_mapping else schema_vocabulary(schema)
    return EntityTables(vocab, Names(vocab.classes), Names(vocab.attributes), Names(vocab.data_types),
                        vocab.predefined_values())


def entity_tables(ctx: AuditContext, schema: str) -> EntityTables:
    return _entity_tables(schema, schema == "IFC2X3" and ctx.profile.ifc2x3_occurrence_mapping)


def entity_vocabulary(ctx: AuditContext, schema: str) -> SchemaVocabulary:
    return entity_tables(ctx, schema).vocabulary


def class_names(ctx: AuditContext, schema: str) -> Names:
    return entity_tables(ctx, schema).classes


def attribute_names(ctx: AuditContext, schema: str) -> Names:
    return entity_tables(ctx, schema).attributes


@lru_cache(maxsize=None)
def _union(tables: tuple[EntityTables, ...], what: str) -> frozenset[str]:
    return frozenset().union(*(getattr(t, what) if what == "predefined" else getattr(t, what).set for t in tables))


def every_class(ctx: AuditContext, schemas: tuple[str, ...]) -> frozenset[str]:
    """The class names of all the specification's schemas (entity enumerations are checked against it)."""
    return _union(tuple(entity_tables(ctx, s) for s in schemas), "classes")


def predefined_union(ctx: AuditContext, schemas: tuple[str, ...]) -> frozenset[str]:
    return _union(tuple(entity_tables(ctx, s) for s in schemas), "predefined")


def common_predefined(tables: EntityTables, classes: tuple[str, ...]) -> list[str]:
    """The predefined types every one of the classes has, in the first class's order (a list: pattern
    work on it is charged by content, as for any list built per facet)."""
    return list(_common_predefined(tables, classes))


@lru_cache(maxsize=4096)
def _common_predefined(tables: EntityTables, classes: tuple[str, ...]) -> tuple[str, ...]:
    values: list[str] | None = None
    for name in classes:
        own = tables.vocabulary.classes[name].predefined
        values = list(own) if values is None else [v for v in values if v in own]
    return tuple(values or ())


@dataclass(frozen=True, eq=False)
class PropertyVocabulary:
    schema: str
    variant: str
    psets: Mapping[str, PsetTemplate]
    names: Names = Names(())

    def type_filter(self, pset_names: list[str]) -> frozenset[str] | None:
        """Classes the matched sets apply to; None when a set names no class of the schema
        (some IFC2X3 templates list schema domains instead of classes)."""
        return _pset_filter(self, tuple(pset_names))

    def property_names(self, pset_names: list[str]) -> Names:
        """The property names of the matched sets, in order, without repeats."""
        return _property_names(self, tuple(pset_names))


@lru_cache(maxsize=4096)
def _pset_filter(vocab: PropertyVocabulary, pset_names: tuple[str, ...]) -> frozenset[str] | None:
    known = schema_vocabulary(vocab.schema).classes
    out: set[str] = set()
    for name in pset_names:
        if not any(c in known for c in vocab.psets[name].applicable):
            return None
        out |= pset_type_filter(vocab.schema, vocab.variant, name)
    return frozenset(out)


@lru_cache(maxsize=4096)
def _property_names(vocab: PropertyVocabulary, pset_names: tuple[str, ...]) -> Names:
    return Names(dict.fromkeys(p for s in pset_names for p in vocab.psets[s].properties))


@lru_cache(maxsize=None)
def _property_vocabulary(schema: str, variant: str) -> PropertyVocabulary:
    psets = property_sets(schema, variant)
    return PropertyVocabulary(schema, variant, psets, Names(psets))


def property_vocabulary(ctx: AuditContext, schema: str) -> PropertyVocabulary:
    return _property_vocabulary(schema, ctx.profile.pset_variant)
