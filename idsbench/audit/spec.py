"""Specification and facet-collection checks (101, 107, 201, 204, 301) and the walk over the parsed
tree that runs every element's check at its end tag, children before parents."""
from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

from idsbench.vocabulary.schema import SCHEMAS

from .context import AuditContext, schema_label
from .facets import FACET_AUDITS, FACETS, audit_cardinality, is_required
from .nodes import ancestor, local
from .result import Status
from .values import Node
from .xs import BOUNDS, XS_AUDITS

# IfcSchemaHelper.GetSchemaVersions: the tokens the tool maps (case-sensitive).
SCHEMA_TOKENS = {"IFC2X3": "IFC2X3", "IFC4": "IFC4", "IFC4X3": "IFC4X3_ADD2", "IFC4X3_ADD2": "IFC4X3_ADD2"}
_UINT = re.compile(r"^[\t\n\v\f\r ]*\+?(\d+)[\t\n\v\f\r ]*$", re.ASCII)
_UINT_MAX = 2**32 - 1
_COLLECTIONS = ("applicability", "requirements")
# Every element some check looks at (by local name, in any namespace); the rest are walked in C. Bounds
# (minInclusive, ...) are checked only by profiles that check them.
_CHECKED_TAGS = tuple("{*}" + name for name in ("specification", *_COLLECTIONS, *FACETS, *XS_AUDITS))
_CHECKED_WITHOUT_BOUNDS = tuple(tag for tag in _CHECKED_TAGS if tag[3:] not in BOUNDS)


def child_facets(ctx: AuditContext, collection: Node) -> list[tuple[Node, str]]:
    """The facet children of an applicability or requirements, with their local names."""
    found = ctx.collections.get(collection)
    if found is None:
        found = ctx.collections[collection] = [(c, name) for c in collection
                                               if (name := local(c)) in FACET_AUDITS]
    return found


def read_schemas(ctx: AuditContext, spec: Node) -> tuple[str, ...]:
    """Schemas of a specification, read when its start tag is; bad tokens log 107 without
    changing the status (the tool reports them from the node constructor)."""
    found = set()
    for token in spec.get("ifcVersion", "").split(" "):
        if token in SCHEMA_TOKENS:
            found.add(SCHEMA_TOKENS[token])
        elif token:
            ctx.report(107, spec, status=Status.OK, version=token)
    return tuple(s for s in SCHEMAS if s in found)


def collection_filter(ctx: AuditContext, collection: Node, schema: str) -> frozenset | None:
    """Intersection of the required facets' type filters (None: unconstrained)."""
    key = (collection, schema)
    if key in ctx.filters:
        return ctx.filters[key]  # the facets' states are final once their collection has ended
    result = None
    for facet, name in child_facets(ctx, collection):
        if not is_required(facet, name):
            continue
        own = ctx.facet(facet).filters.get(schema)
        if own is None:
            continue
        result = own if result is None or result is own else intersection(result, own)
        if not result:
            break
    ctx.filters[key] = result
    return result


@lru_cache(maxsize=4096)
def intersection(a: frozenset, b: frozenset) -> frozenset:
    """Type filters repeat from document to document (a standard set's classes, say)."""
    return a & b


def _uint(text: str) -> int | None:
    m = _UINT.match(text)
    digits = m.group(1).lstrip("0") if m else None
    if digits is None or len(digits) > len(str(_UINT_MAX)):
        return None  # beyond UInt32 (int() would also refuse past 4300 digits)
    value = int(digits or "0")
    return value if value <= _UINT_MAX else None


def occurs_problem(node: Node) -> str:
    """MinMaxCardinality.Audit: only [0|1 .. 0|unbounded] are IDS implementation agreements."""
    return _occurs_problem(node.get("minOccurs", "1"), node.get("maxOccurs", "1"))


@lru_cache(maxsize=1024)
def _occurs_problem(low_text: str, high_text: str) -> str:
    high = _UINT_MAX if high_text == "unbounded" else _uint(high_text)
    if high is None:
        return f"Invalid maxOccurs '{high_text}'"
    low = _uint(low_text)
    if low is None:
        return f"Invalid minOccurs '{low_text}'"
    if high < low:
        return f"Invalid range '{low_text}' to `{high_text}`"
    if low > 1 or high not in (0, _UINT_MAX):
        return f"Invalid configuration for IDS implementation agreements [{low_text}..{high_text}]"
    return ""


def audit_collection(ctx: AuditContext, node: Node, name: str, spec: Node) -> None:
    if name == "requirements":
        for facet, facet_name in child_facets(ctx, node):
            audit_cardinality(ctx, facet, facet_name)
    elif not ctx.profile.applicability_occurs_check_only_097 or ctx.ids_version == "0.9.7":
        problem = occurs_problem(node)
        if problem:
            ctx.report(301, node, message=problem)
    schemas = ctx.schemas.get(spec, ())
    if not schemas or not all(ctx.facet(f).valid for f, _ in child_facets(ctx, node)):
        return
    for schema in schemas:
        found = collection_filter(ctx, node, schema)
        if found is not None and not found:
            ctx.report(201, node, schema=schema_label(schema), message="impossible match of constraints in set")


def _describe(types: frozenset) -> str:
    return f"{len(types)} types" if len(types) > 5 else ", ".join(sorted(types))


def _is_optional(applicability: Node) -> bool:
    return applicability.get("minOccurs", "1") == "0" and applicability.get("maxOccurs", "1") != "0"


def audit_specification(ctx: AuditContext, node: Node) -> None:
    schemas = ctx.schemas.get(node, ())
    if not schemas:
        ctx.report(107, node, version="IfcNoVersion")
    applicability = ctx.child(node, "applicability")
    if applicability is None:
        ctx.report(101, node, message="applicability not found")
        return
    if not child_facets(ctx, applicability):
        ctx.report(101, node, message="One condition is required at minimum")
        return
    requirements = ctx.child(node, "requirements")
    has_requirements = requirements is not None and bool(child_facets(ctx, requirements))
    if applicability.get("maxOccurs", "1") == "0" and has_requirements:
        ctx.report(204, node, message="requirements are not allowed when applicability is prohibited.")
    if ctx.profile.optional_specification_needs_requirements and _is_optional(applicability) and not has_requirements:
        ctx.report(204, node, message="an optional specification needs requirements.")
    if requirements is not None:
        _audit_coherence(ctx, node, applicability, requirements, schemas)


def _audit_coherence(ctx: AuditContext, node: Node, applicability: Node, requirements: Node, schemas) -> None:
    for schema in schemas:
        a_filter = collection_filter(ctx, applicability, schema)
        r_filter = collection_filter(ctx, requirements, schema)
        if a_filter is None or r_filter is None or not a_filter or not r_filter:
            continue  # unconstrained, or already reported as an impossible set
        if a_filter.isdisjoint(r_filter):
            ctx.report(201, node, schema=schema_label(schema), message=(
                f"impossible match of types between applicability ({_describe(a_filter)}) "
                f"and requirements ({_describe(r_filter)})"))


def _within_specification(check):
    """`check(ctx, node, spec)` for an element that belongs to a specification (501 when none holds it)."""
    def run(ctx: AuditContext, node: Node) -> None:
        spec = _specification_of(ctx, node)
        if spec is None:
            ctx.report(501, node, status=Status.IDS_STRUCTURE_ERROR, message="Missing IdsSpecification")
        else:
            check(ctx, node, spec)
    return run


def _facet_check(audit_facet):
    return _within_specification(lambda ctx, node, spec: audit_facet(ctx, node, ctx.schemas.get(spec, ())))


def _collection_check(name: str):
    return _within_specification(lambda ctx, node, spec: audit_collection(ctx, node, name, spec))


# The check of each element a check looks at, by local name (the names of the three kinds never overlap).
_CHECKS = {**XS_AUDITS, "specification": audit_specification,
           **{name: _facet_check(audit) for name, audit in FACET_AUDITS.items()},
           **{name: _collection_check(name) for name in _COLLECTIONS}}
assert len(_CHECKS) == len(XS_AUDITS) + 1 + len(FACET_AUDITS) + len(_COLLECTIONS)


def _specification_of(ctx: AuditContext, node: Node) -> Node | None:
    """The nearest enclosing specification (looked up once per parent: facets share theirs)."""
    parent = node.getparent()
    if parent is None:
        return None
    found = ctx.owners.get(parent, False)
    if found is False:
        found = ctx.owners[parent] = parent if local(parent) == "specification" else ancestor(parent, "specification")
    return found


def read_every_schema(ctx: AuditContext, root: Node) -> None:
    """The schemas of every specification, as the tool reads them at each start tag (a 107 for a bad
    token is logged there)."""
    before = ctx.where
    for spec in root.iter("{*}specification"):
        ctx.where = ("start", spec)
        ctx.schemas[spec] = read_schemas(ctx, spec)
    ctx.where = before


def run_content_audit(ctx: AuditContext, root: Node) -> None:
    """Every complete element's check, at its end tag in document order (the elements no check
    looks at are skipped by the walk itself)."""
    ended = ctx.ended
    tags = _CHECKED_TAGS if ctx.profile.check_bounds else _CHECKED_WITHOUT_BOUNDS
    checks = _CHECKS
    for _, node in etree.iterwalk(root, events=("end",), tag=tags):
        if ended is not None and node not in ended:
            continue
        ctx.where = ("end", node)
        tag = node.tag
        checks[tag[tag.rfind("}") + 1:]](ctx, node)
    ctx.where = ("after",)
