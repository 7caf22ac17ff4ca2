"""Clean facets, recognised fast: most facets name their values with plain simpleValues that the
vocabulary knows. For them these functions decide with a few set lookups that the check in facets.py
would report nothing, and record the facet state that check would record; for anything else (a
restriction, a value the vocabulary lacks, a missing part) they answer False before touching any
state, and the check runs in full. tests/audit/test_audit.py holds both ways to the same results.
"""
from __future__ import annotations

from functools import lru_cache

from .context import AuditContext
from .profiles import get_profile
from .nodes import content, local
from .values import MATCHER_NAMES, Node, is_null_or_empty, list_matcher, value_is_valid
from .vocab import entity_tables, property_vocabulary

ENABLED = True  # False: every facet goes through the full check (tests compare both)
MATCHERS = frozenset(MATCHER_NAMES)


def _simple(param: Node | None) -> str | None:
    """The content of the parameter's matcher when that is a simpleValue, else None."""
    if param is None:
        return None
    for node in param:
        tag = node.tag
        if tag.__class__ is str:
            name = tag[tag.rfind("}") + 1:]
            if name in MATCHERS:
                return content(node) if name == "simpleValue" else None
    return None


@lru_cache(maxsize=4096)
def filter_of(names: tuple[str, ...]) -> frozenset[str]:
    """One frozenset per matched tuple, shared by every facet that matches it."""
    return frozenset(names)


@lru_cache(maxsize=4096)
def attribute_filter(vocabulary, names: tuple[str, ...]) -> frozenset[str]:
    """Every class having one of the attributes (one frozenset per vocabulary and names)."""
    return frozenset().union(*(vocabulary.attributes[name].classes for name in names))


def attribute_types(ctx: AuditContext, attribute) -> tuple[str, ...]:
    """XSD types of an attribute's values, with the profile's overrides of backing types."""
    if not ctx.profile.backing_overrides:
        return attribute.xsd_types
    overrides = dict(ctx.profile.backing_overrides)
    return tuple(overrides.get(d, x) for x, d in zip(attribute.xsd_types, attribute.defined_types))


def clean_attribute(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> bool:
    attribute = _simple(ctx.child(node, "name"))
    if attribute is None:
        return False
    value = ctx.child(node, "value")
    matcher = list_matcher(value) if value is not None else None
    filters = {}
    for schema in schemas:
        tables = entity_tables(ctx, schema)
        if attribute not in tables.attributes.set:
            return False
        filters[schema] = attribute_filter(tables.vocabulary, (attribute,))
        if value is None:
            continue
        types = attribute_types(ctx, tables.vocabulary.attributes[attribute])
        if not types:
            return False
        if matcher is not None:
            kind = local(matcher)
            if kind == "restriction" and matcher.get("base", "") not in types:
                return False
            if len(types) == 1 and kind == "simpleValue" and not value_is_valid(content(matcher), types[0]):
                return False
    ctx.facet(node).filters.update(filters)
    return True


def clean_entity(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> bool:
    value = _simple(ctx.child(node, "name"))
    if value is None:
        return False
    tables = [entity_tables(ctx, schema) for schema in schemas]
    if not all(value in t.classes.set for t in tables):
        return False
    ptype = ctx.child(node, "predefinedType")
    if ptype is not None:
        wanted = _simple(ptype)
        if wanted is None:
            return False
        if not (ctx.profile.skip_empty_predefined_type and wanted == ""):
            for t in tables:
                common = t.vocabulary.classes[value].predefined
                if "USERDEFINED" not in common and wanted not in common:
                    return False
    state, found = ctx.facet(node), filter_of((value,))
    for schema in schemas:
        state.filters[schema] = found
    return True


def _value_fits(ctx: AuditContext, node: Node, backing: str) -> bool:
    """The facet's value passes the check of its data type's backing XSD type."""
    matcher = list_matcher(ctx.child(node, "value"))
    if not backing or matcher is None:
        return True
    kind = local(matcher)
    if kind == "restriction":
        return matcher.get("base", "") == backing
    return kind != "simpleValue" or value_is_valid(content(matcher), backing)


def clean_property(ctx: AuditContext, node: Node, schemas: tuple[str, ...]) -> bool:
    pset_name, base_name = _simple(ctx.child(node, "propertySet")), _simple(ctx.child(node, "baseName"))
    if pset_name is None or base_name is None:
        return False
    data_type = node.get("dataType")
    if not data_type and not is_null_or_empty(ctx.child(node, "value")):
        return False
    required = node.get("cardinality", "required") == "required"
    plan = _property_plan(ctx.profile.name, schemas, pset_name, base_name, data_type or "", required)
    if plan is None:
        return False
    filters, backings, enumerations = plan
    if enumerations and not _enumerated_ok(ctx, node, enumerations):
        return False
    if not all(_value_fits(ctx, node, backing) for backing in backings):
        return False
    ctx.facet(node).filters.update(filters)
    return True


@lru_cache(maxsize=8192)
def _property_plan(profile: str, schemas: tuple[str, ...], pset_name: str, base_name: str, data_type: str,
                   required: bool) -> tuple | None:
    """What the vocabulary says of a property facet with these names (the same for every facet that
    has them): None when the full check would report something, else (the type filters, the backing
    XSD types its value must fit, the value lists of enumerated standard properties)."""
    ctx = AuditContext(get_profile(profile))
    filters, backings, enumerations = {}, [], []
    for schema in schemas:
        tables = entity_tables(ctx, schema)
        allowed = tables.data_types.set
        if required:
            vocab = property_vocabulary(ctx, schema)
            if pset_name in vocab.names.set:
                template = vocab.psets[pset_name].properties.get(base_name)
                if template is None:
                    return None
                if ctx.profile.check_enumerated_property_values and template.kind == "enum" and template.enum_values:
                    enumerations.append(template.enum_values)
                allowed = template.data_types
                found = vocab.type_filter([pset_name])
                if found is not None:
                    filters[schema] = found
            elif pset_name.startswith("Pset_"):
                return None  # 401
        if data_type:
            if data_type not in allowed:
                return None
            backings.append(dict(ctx.profile.backing_overrides).get(data_type)
                            or tables.vocabulary.data_types.get(data_type, ""))
    return filters, tuple(dict.fromkeys(backings)), tuple(enumerations)


def _enumerated_ok(ctx: AuditContext, node: Node, enumerations: tuple) -> bool:
    """The latest profile's check of an enumerated standard property's value."""
    matcher = list_matcher(ctx.child(node, "value"))
    if matcher is None or local(matcher) != "simpleValue":
        return True
    value = content(matcher)
    return all(value in values for values in enumerations)
