"""Facet checks (entity, attribute, property, partOf, classification, material), run at
each facet's end tag per IFC schema of the enclosing specification; each records its
validity and per-schema type filter in a FacetState (docs/audit.md §3, §5)."""
from __future__ import annotations

from idsbench.vocabulary.schema import PARTOF_RELATIONS, classification_classes, concrete_descendants, material_classes
from idsbench.vocabulary.schema import partof_relation

from . import clean
from .context import AuditContext, FacetState, describe_candidates, schema_label
from .nodes import ELEMENTS, content, local
from .values import Node, does_match, is_null_or_empty, list_matcher, matches_prefix, try_match, value_is_valid
from .vocab import (attribute_names, class_names, common_predefined, entity_tables, entity_vocabulary, every_class,
                    predefined_union, property_vocabulary)
from .xs import report_problems

FACETS = ("entity", "partOf", "classification", "attribute", "property", "material")
CONDITIONAL = ("required", "prohibited", "optional")
VOID_FILL = "IFCRELVOIDSELEMENT IFCRELFILLSELEMENT"


def cardinality(node: Node) -> str:
    return node.get("cardinality", "required")


def is_required(node: Node, name: str) -> bool:
    """`name`: the facet's local name (an entity is always required)."""
    return name == "entity" or node.get("cardinality", "required") == "required"




def _match(ctx: AuditContext, matcher: Node, candidates, variable: str, schema: str) -> list[str] | None:
    """Matches, or None after reporting why nothing matched."""
    matches, problems = does_match(matcher, candidates)
    return None if report_problems(ctx, problems, variable, schema, candidates) else matches


def _check_enumeration_values(ctx: AuditContext, matcher: Node, allowed: frozenset[str], variable: str,
                              schemas: tuple[str, ...]) -> bool:
    """Each xs:enumeration of a restriction must be a known value (103 per value)."""
    if local(matcher) != "restriction":
        return True
    ok = True
    for item in matcher.iterchildren(ELEMENTS):
        value = item.get("value", "")
        if local(item) == "enumeration" and value not in allowed:
            ctx.report(103, item, variable=variable, value=value, candidates="value not found",
                       schema=", ".join(schema_label(s) for s in schemas))
            ok = False
    return ok


# -- entity --------------------------------------------------------------------------------
def _predefined_common(ctx: AuditContext, schema: str, classes: list[str]) -> list[str]:
    return common_predefined(entity_tables(ctx, schema), tuple(classes))


def _audit_predefined(ctx: AuditContext, node: Node, pmatcher: Node, schema: str, classes: list[str]) -> bool:
    if not classes:
        ctx.report(105, node, message="predefinedType")
        return False
    if ctx.profile.skip_empty_predefined_type and local(pmatcher) == "simpleValue" and content(pmatcher) == "":
        return True
    values = _predefined_common(ctx, schema, classes)
    if "USERDEFINED" in values:  # any value is acceptable when a user-defined option exists
        return True
    return _match(ctx, pmatcher, values, "PredefinedTypes", schema) is not None


def _predefined_enumerations_ok(ctx: AuditContext, pmatcher: Node, schemas, classes_by_schema) -> bool:
    if ctx.profile.predefined_enum_check_only_without_userdefined and any(
            "USERDEFINED" in _predefined_common(ctx, s, c) for s, c in classes_by_schema.items()):
        return True
    return _check_enumeration_values(ctx, pmatcher, predefined_union(ctx, schemas), "PredefinedTypes", schemas)


def audit_entity(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    if clean.ENABLED and clean.clean_entity(ctx, node, schemas):
        return
    state = ctx.facet(node)
    matcher = list_matcher(ctx.child(node, "name"))
    if matcher is None:
        ctx.report(102, node, field="name")
        return state.invalidate()
    ptype = ctx.child(node, "predefinedType")
    pmatcher = list_matcher(ptype)
    ok = _check_enumeration_values(ctx, matcher, every_class(ctx, schemas), "entity name", schemas)
    found: dict[str, list[str]] = {}
    for schema in schemas:
        matches = _match(ctx, matcher, class_names(ctx, schema), "entity name", schema)
        if matches is None:
            ok = False
        elif ok:
            found[schema] = matches
            state.filters[schema] = clean.filter_of(tuple(matches))
    if ok and ptype is not None:
        ok = _audit_entity_predefined(ctx, node, pmatcher, schemas, found)
    if not ok:
        state.invalidate()


def _audit_entity_predefined(ctx: AuditContext, node: Node, pmatcher: Node | None, schemas, found) -> bool:
    if pmatcher is None:
        ctx.report(102, node, field="predefinedType")
        return False
    if not _predefined_enumerations_ok(ctx, pmatcher, schemas, found):
        return False  # once the facet has an error, the per-schema checks are skipped
    ok = True
    for schema in schemas:
        ok = ok and _audit_predefined(ctx, node, pmatcher, schema, found.get(schema, []))
    return ok


# -- attribute -----------------------------------------------------------------------------
def _audit_attribute_value(ctx: AuditContext, value: Node, xsd_types: list[str]) -> bool:
    matcher = list_matcher(value)
    if not xsd_types:
        ctx.report(303, value, base="", detail=" (no valid base type exists)")
        return False
    if matcher is None:
        return True
    base, kind = matcher.get("base", ""), local(matcher)
    if kind == "restriction" and base not in xsd_types:
        ctx.report(303, matcher, base=base or "empty", detail=f" (expected {' or '.join(xsd_types)})")
        return False
    if len(xsd_types) == 1 and kind == "simpleValue" and not value_is_valid(content(matcher), xsd_types[0]):
        ctx.report(305, matcher, value=content(matcher), base=xsd_types[0])
        return False
    return True


def audit_attribute(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    if clean.ENABLED and clean.clean_attribute(ctx, node, schemas):
        return
    state = ctx.facet(node)
    matcher = list_matcher(ctx.child(node, "name"))
    if matcher is None:
        ctx.report(102, node, field="name")
        return state.invalidate()
    ok = True
    value = ctx.child(node, "value")
    for schema in schemas:
        vocabulary = entity_vocabulary(ctx, schema)
        matches = _match(ctx, matcher, attribute_names(ctx, schema), "attribute name", schema)
        if matches is None:
            ok = False
            continue
        state.filters[schema] = clean.attribute_filter(vocabulary, tuple(matches))
        if value is not None:
            types = list(dict.fromkeys(clean.attribute_types(ctx, vocabulary.attributes[m]) for m in matches))
            types = [t for group in types for t in group]
            ok = _audit_attribute_value(ctx, value, types) and ok
    if not ok:
        state.invalidate()


# -- property ------------------------------------------------------------------------------
def _audit_data_type(ctx: AuditContext, node: Node, schema: str, allowed: list[str]) -> bool:
    data_type = node.get("dataType", "")
    if data_type not in _as_set(allowed):
        ctx.report(103, node, variable="dataType", value=data_type,
                   candidates=lambda: _short(list(allowed)), schema=schema_label(schema))
        return False
    backing = dict(ctx.profile.backing_overrides).get(data_type) or \
        entity_vocabulary(ctx, schema).data_types.get(data_type, "")
    matcher = list_matcher(ctx.child(node, "value"))
    if not backing or matcher is None:
        return True
    kind = local(matcher)
    if kind == "restriction" and matcher.get("base", "") != backing:
        ctx.report(303, matcher, base=matcher.get("base", "") or "empty", detail=f" (expected {backing})")
        return False
    if kind == "simpleValue" and not value_is_valid(content(matcher), backing):
        ctx.report(305, matcher, value=content(matcher), base=backing)
        return False
    return True


def _as_set(values) -> frozenset | list:
    return getattr(values, "set", values)


def _short(values: list[str]) -> str:
    return describe_candidates(values)


def _standard_property(ctx: AuditContext, node: Node, schema: str, psets: list[str], name_matcher: Node,
                       state: FacetState) -> list[str] | None:
    """Checks against standard sets; returns the allowed dataTypes, None after a 103."""
    vocab = property_vocabulary(ctx, schema)
    props = _match(ctx, name_matcher, vocab.property_names(psets), "property baseName", schema)
    if props is None:
        return None
    templates = [vocab.psets[s].properties[p] for s in psets for p in props if p in vocab.psets[s].properties]
    allowed = list(dict.fromkeys(t for tmpl in templates for t in tmpl.data_types))
    type_filter = vocab.type_filter(psets)
    if type_filter is not None:
        state.filters[schema] = type_filter
    if ctx.profile.check_enumerated_property_values:
        _check_enumerated_value(ctx, node, templates)
    return allowed


def _check_enumerated_value(ctx: AuditContext, node: Node, templates) -> None:
    enum_values = [v for t in templates if t.kind == "enum" for v in t.enum_values]
    matcher = list_matcher(ctx.child(node, "value"))
    if enum_values and matcher is not None and local(matcher) == "simpleValue" and content(matcher) not in enum_values:
        ctx.report(103, matcher, variable="enumerated value", value=content(matcher),
                   candidates=lambda: _short(enum_values), schema="the standard property")


def _audit_property_schema(ctx: AuditContext, node: Node, schema: str, pset: Node, name: Node,
                           state: FacetState) -> bool | None:
    """One schema; returns validity, or None when the facet stops (103 baseName, 401)."""
    allowed = entity_tables(ctx, schema).data_types
    if is_required(node, "property"):
        psets = try_match(pset, property_vocabulary(ctx, schema).names)
        if psets:
            allowed = _standard_property(ctx, node, schema, psets, name, state)
            if allowed is None:
                return None
        elif matches_prefix(pset, "Pset_"):
            ctx.report(401, node, prefix="Pset_", field="property set name", value=",".join(
                [content(pset)] if local(pset) == "simpleValue" else [pset.get("value", "")]),
                schema=schema_label(schema))
            return None
    if not node.get("dataType"):
        return True
    return _audit_data_type(ctx, node, schema, allowed)


def audit_property(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    if clean.ENABLED and clean.clean_property(ctx, node, schemas):
        return
    state = ctx.facet(node)
    pset, name = list_matcher(ctx.child(node, "propertySet")), list_matcher(ctx.child(node, "baseName"))
    if pset is None or name is None:
        ctx.report(102, node, field="propertySet" if pset is None else "baseName")
        return state.invalidate()
    if not node.get("dataType") and not is_null_or_empty(ctx.child(node, "value")):
        ctx.report(203, node, message="specifying a 'value' requires a 'dataType'")
        return state.invalidate()
    for schema in schemas:
        ok = _audit_property_schema(ctx, node, schema, pset, name, state)
        if ok is None:
            return state.invalidate()
        state.valid = state.valid and ok


# -- partOf, classification, material ------------------------------------------------------
def _relation_sides(ctx: AuditContext, schema: str, relation: str) -> tuple[frozenset, frozenset] | None:
    """Concrete classes on the whole and part sides of a relation; None when unknown. The
    XSD value for void+fill is one string with a space: 1.0.96 rejects it as a relation."""
    combined = relation == VOID_FILL and ctx.profile.accept_void_fill_relation
    sides = [partof_relation(schema, n) for n in (relation.split(" ") if combined else [relation])]
    if not all(sides):
        return None
    whole = frozenset().union(*(concrete_descendants(schema, w) for w, _ in sides))
    part = frozenset().union(*(concrete_descendants(schema, p) for _, p in sides))
    return whole, part


def audit_part_of(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    state = ctx.facet(node)
    if cardinality(node) != "required":
        return  # only required partOf facets are checked
    entity = ctx.child(node, "entity")
    if entity is None:
        ctx.report(106, node, field="entity")
        return state.invalidate()
    relation = node.get("relation")
    if relation is None:
        return
    for schema in schemas:
        sides = _relation_sides(ctx, schema, relation)
        if sides is None:
            ctx.report(103, node, variable="relation names", value=relation,
                       candidates=lambda: _short(list(PARTOF_RELATIONS)), schema=schema_label(schema))
            return state.invalidate()
        part = ctx.facet(entity).filters.get(schema)
        if part is not None and part.isdisjoint(sides[0]):
            ctx.report(201, node, schema=schema_label(schema),
                       message="relation not compatible with provided child entity")
            return state.invalidate()
        state.filters[schema] = sides[1]


def audit_classification(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    state = ctx.facet(node)
    if is_null_or_empty(ctx.child(node, "system")):
        ctx.report(106, node, field="system")
        state.valid = False
    if is_required(node, "classification"):
        state.filters.update({s: classification_classes(s) for s in schemas})


def audit_material(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    if is_required(node, "material"):
        ctx.facet(node).filters.update({s: material_classes(s) for s in schemas})


FACET_AUDITS = {
    "entity": audit_entity, "attribute": audit_attribute, "property": audit_property,
    "partOf": audit_part_of, "classification": audit_classification, "material": audit_material,
}


# -- requirement cardinalities (run by the requirements collection) -------------------------
def audit_cardinality(ctx: AuditContext, node: Node, name: str) -> None:
    """`name`: the facet's local name."""
    if name == "entity":
        return
    value = cardinality(node)
    valid = ("required", "prohibited") if name == "partOf" else CONDITIONAL
    state = ctx.facet(node)
    if value not in valid:
        ctx.report(301, node, message=f"Invalid cardinality '{value}'")
        state.valid = False
        return
    reason = _cardinality_context_problem(ctx, node, name, value)
    if reason:
        ctx.report(202, node, cardinality=value, message=reason)
        state.valid = False


def _cardinality_context_problem(ctx: AuditContext, node: Node, name: str, value: str) -> str:
    data_type = node.get("dataType", "")
    if name == "property":
        if value == "optional" and not data_type:
            return "it requires the specification of the 'dataType' constraint"
        if value == "prohibited" and data_type:
            return "it is not compatible with the specification of the 'dataType' constraint"
        return ""
    if name in ("attribute", "classification", "material") and value == "optional":
        if is_null_or_empty(ctx.child(node, "value")):
            return "it requires the specification of a non-empty 'value' constraint"
    return ""
