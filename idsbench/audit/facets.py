"""Facet checks (entity, attribute, property, partOf, classification, material), run at
each facet's end tag per IFC schema of the enclosing specification; each records its
validity and per-schema type filter in a FacetState (docs/audit.md §3, §5)."""
from __future__ import annotations

from idsbench.vocabulary.schema import PARTOF_RELATIONS, classification_classes, concrete_descendants, material_classes
from idsbench.vocabulary.schema import partof_relation

from .context import AuditContext, FacetState, describe_candidates, schema_label
from .tree import Node
from .values import does_match, is_null_or_empty, list_matcher, matches_prefix, try_match, value_is_valid
from .vocab import attribute_names, class_names, entity_vocabulary, predefined_union, property_vocabulary
from .xs import report_problems

FACETS = ("entity", "partOf", "classification", "attribute", "property", "material")
CONDITIONAL = ("required", "prohibited", "optional")
VOID_FILL = "IFCRELVOIDSELEMENT IFCRELFILLSELEMENT"


def cardinality(node: Node) -> str:
    return node.attrs.get("cardinality", "required")


def is_required(node: Node) -> bool:
    return node.name == "entity" or cardinality(node) == "required"


def _match(ctx: AuditContext, matcher: Node, candidates, variable: str, schema: str) -> list[str] | None:
    """Matches, or None after reporting why nothing matched."""
    matches, problems = does_match(matcher, candidates)
    return None if report_problems(ctx, problems, variable, schema, candidates) else matches


def _check_enumeration_values(ctx: AuditContext, matcher: Node, allowed: frozenset[str], variable: str,
                              schemas: tuple[str, ...]) -> bool:
    """Each xs:enumeration of a restriction must be a known value (103 per value)."""
    if matcher.name != "restriction":
        return True
    ok = True
    for child in matcher.children:
        value = child.attrs.get("value", "")
        if child.name == "enumeration" and value not in allowed:
            ctx.report(103, child, variable=variable, value=value, candidates="value not found",
                       schema=", ".join(schema_label(s) for s in schemas))
            ok = False
    return ok


# -- entity --------------------------------------------------------------------------------
def _predefined_common(ctx: AuditContext, schema: str, classes: list[str]) -> list[str]:
    vocab = entity_vocabulary(ctx, schema)
    values: list[str] | None = None
    for name in classes:
        own = vocab.classes[name].predefined
        values = list(own) if values is None else [v for v in values if v in own]
    return values or []


def _audit_predefined(ctx: AuditContext, node: Node, pmatcher: Node, schema: str, classes: list[str]) -> bool:
    if not classes:
        ctx.report(105, node, message="predefinedType")
        return False
    if ctx.profile.skip_empty_predefined_type and pmatcher.name == "simpleValue" and pmatcher.content == "":
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
    state = ctx.facet(node)
    matcher = list_matcher(node.child("name"))
    if matcher is None:
        ctx.report(102, node, field="name")
        return state.invalidate()
    ptype = node.child("predefinedType")
    pmatcher = list_matcher(ptype)
    every_class = ctx.shared_set(("classes", schemas),
                                 lambda: frozenset().union(*(class_names(ctx, s) for s in schemas)))
    ok = _check_enumeration_values(ctx, matcher, every_class, "entity name", schemas)
    found: dict[str, list[str]] = {}
    for schema in schemas:
        matches = _match(ctx, matcher, class_names(ctx, schema), "entity name", schema)
        if matches is None:
            ok = False
        elif ok:
            found[schema] = matches
            state.filters[schema] = ctx.shared_set(("entities", tuple(matches)), lambda: matches)
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
    base = matcher.attrs.get("base", "")
    if matcher.name == "restriction" and base not in xsd_types:
        ctx.report(303, matcher, base=base or "empty", detail=f" (expected {' or '.join(xsd_types)})")
        return False
    if len(xsd_types) == 1 and matcher.name == "simpleValue" and not value_is_valid(matcher.content, xsd_types[0]):
        ctx.report(305, matcher, value=matcher.content, base=xsd_types[0])
        return False
    return True


def _attribute_types(ctx: AuditContext, attribute) -> tuple[str, ...]:
    overrides = dict(ctx.profile.backing_overrides)
    return tuple(overrides.get(d, x) for x, d in zip(attribute.xsd_types, attribute.defined_types))


def audit_attribute(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    state = ctx.facet(node)
    matcher = list_matcher(node.child("name"))
    if matcher is None:
        ctx.report(102, node, field="name")
        return state.invalidate()
    ok = True
    for schema in schemas:
        attributes = entity_vocabulary(ctx, schema).attributes
        matches = _match(ctx, matcher, attribute_names(ctx, schema), "attribute name", schema)
        if matches is None:
            ok = False
            continue
        state.filters[schema] = ctx.shared_set(
            ("attribute classes", schema, tuple(matches)),
            lambda: frozenset().union(*(attributes[m].classes for m in matches)))
        value = node.child("value")
        if value is not None:
            types = list(dict.fromkeys(_attribute_types(ctx, attributes[m]) for m in matches))
            types = [t for group in types for t in group]
            ok = _audit_attribute_value(ctx, value, types) and ok
    if not ok:
        state.invalidate()


# -- property ------------------------------------------------------------------------------
def _audit_data_type(ctx: AuditContext, node: Node, schema: str, allowed: list[str]) -> bool:
    data_type = node.attrs.get("dataType", "")
    if data_type not in allowed:
        ctx.report(103, node, variable="dataType", value=data_type,
                   candidates=_short(allowed), schema=schema_label(schema))
        return False
    backing = dict(ctx.profile.backing_overrides).get(data_type) or \
        entity_vocabulary(ctx, schema).data_types.get(data_type, "")
    matcher = list_matcher(node.child("value"))
    if not backing or matcher is None:
        return True
    if matcher.name == "restriction" and matcher.attrs.get("base", "") != backing:
        ctx.report(303, matcher, base=matcher.attrs.get("base", "") or "empty", detail=f" (expected {backing})")
        return False
    if matcher.name == "simpleValue" and not value_is_valid(matcher.content, backing):
        ctx.report(305, matcher, value=matcher.content, base=backing)
        return False
    return True


def _short(values: list[str]) -> str:
    return describe_candidates(values)


def _standard_property(ctx: AuditContext, node: Node, schema: str, psets: list[str], name_matcher: Node,
                       state: FacetState) -> list[str] | None:
    """Checks against standard sets; returns the allowed dataTypes, None after a 103."""
    vocab = property_vocabulary(ctx, schema)
    names = list(dict.fromkeys(p for s in psets for p in vocab.psets[s].properties))
    props = _match(ctx, name_matcher, names, "property baseName", schema)
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
    matcher = list_matcher(node.child("value"))
    if enum_values and matcher is not None and matcher.name == "simpleValue" and matcher.content not in enum_values:
        ctx.report(103, matcher, variable="enumerated value", value=matcher.content,
                   candidates=_short(enum_values), schema="the standard property")


def _audit_property_schema(ctx: AuditContext, node: Node, schema: str, pset: Node, name: Node,
                           state: FacetState) -> bool | None:
    """One schema; returns validity, or None when the facet stops (103 baseName, 401)."""
    allowed = list(entity_vocabulary(ctx, schema).data_types)
    if is_required(node):
        psets = try_match(pset, property_vocabulary(ctx, schema).names)
        if psets:
            allowed = _standard_property(ctx, node, schema, psets, name, state)
            if allowed is None:
                return None
        elif matches_prefix(pset, "Pset_"):
            ctx.report(401, node, prefix="Pset_", field="property set name", value=",".join(
                [pset.content] if pset.name == "simpleValue" else [pset.attrs.get("value", "")]),
                schema=schema_label(schema))
            return None
    if not node.attrs.get("dataType"):
        return True
    return _audit_data_type(ctx, node, schema, allowed)


def audit_property(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    state = ctx.facet(node)
    pset, name = list_matcher(node.child("propertySet")), list_matcher(node.child("baseName"))
    if pset is None or name is None:
        ctx.report(102, node, field="propertySet" if pset is None else "baseName")
        return state.invalidate()
    if not node.attrs.get("dataType") and not is_null_or_empty(node.child("value")):
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
    entity = node.child("entity")
    if entity is None:
        ctx.report(106, node, field="entity")
        return state.invalidate()
    relation = node.attrs.get("relation")
    if relation is None:
        return
    for schema in schemas:
        sides = _relation_sides(ctx, schema, relation)
        if sides is None:
            ctx.report(103, node, variable="relation names", value=relation,
                       candidates=_short(list(PARTOF_RELATIONS)), schema=schema_label(schema))
            return state.invalidate()
        child = ctx.facet(entity).filters.get(schema)
        if child is not None and not child & sides[0]:
            ctx.report(201, node, schema=schema_label(schema),
                       message="relation not compatible with provided child entity")
            return state.invalidate()
        state.filters[schema] = sides[1]


def audit_classification(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    state = ctx.facet(node)
    if is_null_or_empty(node.child("system")):
        ctx.report(106, node, field="system")
        state.valid = False
    if is_required(node):
        state.filters.update({s: classification_classes(s) for s in schemas})


def audit_material(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> None:
    if is_required(node):
        ctx.facet(node).filters.update({s: material_classes(s) for s in schemas})


FACET_AUDITS = {
    "entity": audit_entity, "attribute": audit_attribute, "property": audit_property,
    "partOf": audit_part_of, "classification": audit_classification, "material": audit_material,
}


# -- requirement cardinalities (run by the requirements collection) -------------------------
def audit_cardinality(ctx: AuditContext, node: Node) -> None:
    value = cardinality(node)
    valid = ("required", "prohibited") if node.name == "partOf" else CONDITIONAL
    state = ctx.facet(node)
    if node.name == "entity":
        return
    if value not in valid:
        ctx.report(301, node, message=f"Invalid cardinality '{value}'")
        state.valid = False
        return
    reason = _cardinality_context_problem(node, value)
    if reason:
        ctx.report(202, node, cardinality=value, message=reason)
        state.valid = False


def _cardinality_context_problem(node: Node, value: str) -> str:
    data_type = node.attrs.get("dataType", "")
    if node.name == "property":
        if value == "optional" and not data_type:
            return "it requires the specification of the 'dataType' constraint"
        if value == "prohibited" and data_type:
            return "it is not compatible with the specification of the 'dataType' constraint"
        return ""
    if node.name in ("attribute", "classification", "material") and value == "optional":
        if is_null_or_empty(node.child("value")):
            return "it requires the specification of a non-empty 'value' constraint"
    return ""
