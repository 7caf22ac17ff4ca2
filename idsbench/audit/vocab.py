"""The vocabulary as a profile sees it: ifcopenshell's schema vocabulary, plus (latest
profile) the IFC2X3 occurrence names IDS maps onto type objects, and the property-set
templates of the profile's variant."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping

from idsbench.vocabulary.psets import PsetTemplate, property_sets, pset_type_filter
from idsbench.vocabulary.schema import IfcAttribute, IfcClass, SchemaVocabulary, schema_vocabulary, subclass_table

from .context import AuditContext


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


def entity_vocabulary(ctx: AuditContext, schema: str) -> SchemaVocabulary:
    if schema == "IFC2X3" and ctx.profile.ifc2x3_occurrence_mapping:
        return _ifc2x3_with_occurrence_names()
    return schema_vocabulary(schema)


@lru_cache(maxsize=None)
def _names(vocab: SchemaVocabulary) -> tuple[str, ...]:
    return tuple(vocab.classes)


def class_names(ctx: AuditContext, schema: str) -> tuple[str, ...]:
    return _names(entity_vocabulary(ctx, schema))


@lru_cache(maxsize=None)
def _attribute_names(vocab: SchemaVocabulary) -> tuple[str, ...]:
    return tuple(vocab.attributes)


def attribute_names(ctx: AuditContext, schema: str) -> tuple[str, ...]:
    """Attribute names as one long-lived tuple (matchers cache lookups per tuple)."""
    return _attribute_names(entity_vocabulary(ctx, schema))


def predefined_union(ctx: AuditContext, schemas: tuple[str, ...]) -> frozenset[str]:
    out: set[str] = set()
    for schema in schemas:
        out |= entity_vocabulary(ctx, schema).predefined_values()
    return frozenset(out)


@dataclass(frozen=True)
class PropertyVocabulary:
    schema: str
    variant: str
    psets: Mapping[str, PsetTemplate]
    names: tuple[str, ...] = ()

    def type_filter(self, pset_names: list[str]) -> frozenset[str] | None:
        """Classes the matched sets apply to; None when a set names no class of the schema
        (some IFC2X3 templates list schema domains instead of classes)."""
        known = schema_vocabulary(self.schema).classes
        out: set[str] = set()
        for name in pset_names:
            if not any(c in known for c in self.psets[name].applicable):
                return None
            out |= pset_type_filter(self.schema, self.variant, name)
        return frozenset(out)


@lru_cache(maxsize=None)
def _property_vocabulary(schema: str, variant: str) -> PropertyVocabulary:
    psets = property_sets(schema, variant)
    return PropertyVocabulary(schema, variant, psets, tuple(psets))


def property_vocabulary(ctx: AuditContext, schema: str) -> PropertyVocabulary:
    return _property_vocabulary(schema, ctx.profile.pset_variant)
