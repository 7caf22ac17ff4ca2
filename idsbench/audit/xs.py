"""Checks of the `xs:` nodes inside IDS values (run at their end tag, before their facet):
restriction base and children (303, 304, 308), enumeration values (305), pattern
validity under .NET rules (109), and in the latest profile the min/max bounds (305)."""
from __future__ import annotations

from typing import Sequence

from idsbench.regex.dotnet import compile_dotnet
from idsbench.regex.safe import charge_compile

from .context import AuditContext, describe_candidates, schema_label
from .tree import Node
from .values import ALLOWED_CHILDREN, BASE_TYPES, MatchProblem, value_is_valid

_BOUNDS = ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive")
_LATEST_BASES = {"xs:anyURI": "XsAnyUri", "xs:time": "XsTime"}


def base_type(ctx: AuditContext, restriction: Node) -> str | None:
    """The tool's BaseTypes name for a restriction's base, or None when invalid."""
    base = restriction.attrs.get("base", "")
    if base in BASE_TYPES:
        return BASE_TYPES[base]
    if base in ctx.profile.accepted_bases:
        return _LATEST_BASES[base]
    return None


def _base_xsd_type(ctx: AuditContext, restriction: Node) -> str | None:
    kind = base_type(ctx, restriction)
    if kind is None:
        return None
    return next(k for k, v in {**BASE_TYPES, **_LATEST_BASES}.items() if v == kind)


def audit_restriction(ctx: AuditContext, node: Node) -> None:
    kind = base_type(ctx, node)
    if kind is None:
        ctx.report(303, node, base=node.attrs.get("base", ""), detail=" (invalid base type)")
    if not node.children:
        ctx.report(304, node)
    allowed = ALLOWED_CHILDREN.get(kind or "")
    if allowed is None:
        return  # anyUri and invalid bases: children are not checked
    for child in node.children:
        if child.name not in allowed:
            ctx.report(308, child, facet=child.name, base=kind)


def audit_enumeration(ctx: AuditContext, node: Node) -> None:
    restriction = node.ancestor("restriction")
    if restriction is None:
        return
    xsd_type = _base_xsd_type(ctx, restriction)
    value = node.attrs.get("value", "")
    if xsd_type not in (None, "xs:string", "xs:anyUri", "xs:anyURI") and not value_is_valid(value, xsd_type):
        ctx.report(305, node, value=value, base=base_type(ctx, restriction))


def audit_bound(ctx: AuditContext, node: Node) -> None:
    """XsBoundary (newer tool only): a bound must be a value of the restriction's base."""
    restriction = node.parent if node.parent is not None and node.parent.name == "restriction" else None
    if restriction is None or not ctx.profile.check_bounds:
        return
    xsd_type = _base_xsd_type(ctx, restriction)
    value = node.attrs.get("value", "")
    if xsd_type in (None, "xs:string", "xs:boolean", "xs:anyUri", "xs:anyURI"):
        return
    if not value_is_valid(value, xsd_type):
        ctx.report(305, node, value=value, base=base_type(ctx, restriction))


def audit_pattern(ctx: AuditContext, node: Node) -> None:
    pattern = node.attrs.get("value", "")
    charge_compile(pattern)  # bounded compile work per document
    if compile_dotnet(pattern).error is not None:
        ctx.report(109, node, typo=ctx.profile.regex_message_word, pattern=pattern)


XS_AUDITS = {
    "restriction": audit_restriction, "enumeration": audit_enumeration, "pattern": audit_pattern,
    **{name: audit_bound for name in _BOUNDS},
}


def report_problems(ctx: AuditContext, problems: Sequence[MatchProblem], variable: str, schema: str,
                    candidates: Sequence[str]) -> bool:
    """Log the problems of a failed match; True when there were any."""
    for p in problems:
        if p.code == 103:
            ctx.report(103, p.node, variable=variable, value=p.value,
                       candidates=describe_candidates(list(candidates)), schema=schema_label(schema))
        elif p.code == 302:
            ctx.report(302, p.node, message=p.value)
        else:
            ctx.report(303, p.node, base=p.value, detail=" (string matchers need `xs:string`)")
    return bool(problems)
