"""Specification and facet-collection checks (101, 107, 201, 204, 301) and the document
walk that runs every node's check at its end tag, children before parents."""
from __future__ import annotations

import re
from typing import Iterator

from idsbench.vocabulary.schema import SCHEMAS

from .context import AuditContext, schema_label
from .facets import FACET_AUDITS, FACETS, audit_cardinality, is_required
from .result import Status
from .tree import Node
from .xs import XS_AUDITS

# IfcSchemaHelper.GetSchemaVersions: the tokens the tool maps (case-sensitive).
SCHEMA_TOKENS = {"IFC2X3": "IFC2X3", "IFC4": "IFC4", "IFC4X3": "IFC4X3_ADD2", "IFC4X3_ADD2": "IFC4X3_ADD2"}
_UINT = re.compile(r"^[\t\n\v\f\r ]*\+?(\d+)[\t\n\v\f\r ]*$", re.ASCII)
_UINT_MAX = 2**32 - 1


def child_facets(collection: Node) -> list[Node]:
    return [c for c in collection.children if c.name in FACETS]


def read_schemas(ctx: AuditContext, spec: Node) -> tuple[str, ...]:
    """Schemas of a specification, read when its start tag is; bad tokens log 107 without
    changing the status (the tool reports them from the node constructor)."""
    found = set()
    for token in spec.attrs.get("ifcVersion", "").split(" "):
        if token in SCHEMA_TOKENS:
            found.add(SCHEMA_TOKENS[token])
        elif token:
            ctx.report(107, spec, status=Status.OK, version=token)
    return tuple(s for s in SCHEMAS if s in found)


def collection_filter(ctx: AuditContext, collection: Node, schema: str) -> frozenset | None:
    """Intersection of the required facets' type filters (None: unconstrained)."""
    result = None
    for facet in child_facets(collection):
        if not is_required(facet):
            continue
        own = ctx.facet(facet).filters.get(schema)
        if own is None:
            continue
        result = own if result is None else result & own
        if not result:
            break
    return result


def _uint(text: str) -> int | None:
    m = _UINT.match(text)
    digits = m.group(1).lstrip("0") if m else None
    if digits is None or len(digits) > len(str(_UINT_MAX)):
        return None  # beyond UInt32 (int() would also refuse past 4300 digits)
    value = int(digits or "0")
    return value if value <= _UINT_MAX else None


def occurs_problem(node: Node) -> str:
    """MinMaxCardinality.Audit: only [0|1 .. 0|unbounded] are IDS implementation agreements."""
    low_text, high_text = node.attrs.get("minOccurs", "1"), node.attrs.get("maxOccurs", "1")
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


def audit_collection(ctx: AuditContext, node: Node, spec: Node) -> None:
    if node.name == "requirements":
        for facet in child_facets(node):
            audit_cardinality(ctx, facet)
    elif not ctx.profile.applicability_occurs_check_only_097 or ctx.ids_version == "0.9.7":
        problem = occurs_problem(node)
        if problem:
            ctx.report(301, node, message=problem)
    facets = child_facets(node)
    for schema in ctx.schemas.get(id(spec), ()):
        if not all(ctx.facet(f).valid for f in facets):
            continue
        found = collection_filter(ctx, node, schema)
        if found is not None and not found:
            ctx.report(201, node, schema=schema_label(schema), message="impossible match of constraints in set")


def _describe(types: frozenset) -> str:
    return f"{len(types)} types" if len(types) > 5 else ", ".join(sorted(types))


def _is_optional(applicability: Node) -> bool:
    return applicability.attrs.get("minOccurs", "1") == "0" and applicability.attrs.get("maxOccurs", "1") != "0"


def audit_specification(ctx: AuditContext, node: Node) -> None:
    schemas = ctx.schemas.get(id(node), ())
    if not schemas:
        ctx.report(107, node, version="IfcNoVersion")
    applicability = node.child("applicability")
    if applicability is None:
        ctx.report(101, node, message="applicability not found")
        return
    if not child_facets(applicability):
        ctx.report(101, node, message="One condition is required at minimum")
        return
    requirements = node.child("requirements")
    has_requirements = requirements is not None and bool(child_facets(requirements))
    if applicability.attrs.get("maxOccurs", "1") == "0" and has_requirements:
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
        if not a_filter & r_filter:
            ctx.report(201, node, schema=schema_label(schema), message=(
                f"impossible match of types between applicability ({_describe(a_filter)}) "
                f"and requirements ({_describe(r_filter)})"))


def events(root: Node) -> Iterator[tuple[bool, Node]]:
    """(is_start, node) in document order."""
    stack: list[tuple[Node, int]] = [(root, -1)]
    while stack:
        node, i = stack.pop()
        if i < 0:
            yield True, node
        if i + 1 < len(node.children):
            stack.append((node, i + 1))
            stack.append((node.children[i + 1], -1))
        else:
            yield False, node


def _audit_node(ctx: AuditContext, node: Node) -> None:
    if node.name in XS_AUDITS:
        XS_AUDITS[node.name](ctx, node)
    if node.name == "specification":
        return audit_specification(ctx, node)
    if node.name not in FACETS and node.name not in ("applicability", "requirements"):
        return
    spec = node.ancestor("specification")
    if spec is None:
        ctx.report(501, node, status=Status.IDS_STRUCTURE_ERROR, message="Missing IdsSpecification")
    elif node.name in FACETS:
        FACET_AUDITS[node.name](ctx, node, ctx.schemas.get(id(spec), ()))
    else:
        audit_collection(ctx, node, spec)


def run_content_audit(ctx: AuditContext, root: Node) -> list[tuple[int, int]]:
    """Audit every complete node; returns (line, event index) of element starts, which
    lets the caller place XSD issues in the same order as the tool's log."""
    starts: list[tuple[int, int]] = []
    for index, (is_start, node) in enumerate(events(root)):
        ctx.event = index
        if is_start:
            starts.append((node.line or 0, index))
            if node.name == "specification":
                ctx.schemas[id(node)] = read_schemas(ctx, node)
        elif node.complete:
            _audit_node(ctx, node)
    return starts
