"""Checks of the `xs:` nodes inside IDS values (run at their end tag, before their facet):
restriction base and children (303, 304, 308), enumeration values (305), pattern
validity under .NET rules (109), and in the latest profile the min/max bounds (305)."""
from __future__ import annotations

from typing import Sequence

from idsbench.regex.dotnet import compile_dotnet
from idsbench.regex.safe import charge_compile

from .context import AuditContext, describe_candidates, schema_label
from .nodes import ELEMENTS, ancestor, local
from .values import ALLOWED_CHILDREN, BASE_TYPES, MatchProblem, Node, value_is_valid

BOUNDS = ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive")
_LATEST_BASES = {"xs:anyURI": "XsAnyUri", "xs:time": "XsTime"}
_XSD_TYPE_OF: dict[str, str] = {}  # BaseTypes name -> the first spelling that gives it
for _spelling, _kind in {**BASE_TYPES, **_LATEST_BASES}.items():
    _XSD_TYPE_OF.setdefault(_kind, _spelling)


def base_type(ctx: AuditContext, restriction: Node) -> str | None:
    """The tool's BaseTypes name for a restriction's base, or None when invalid."""
    base = restriction.get("base", "")
    if base in BASE_TYPES:
        return BASE_TYPES[base]
    if base in ctx.profile.accepted_bases:
        return _LATEST_BASES[base]
    return None


def _base_xsd_type(ctx: AuditContext, restriction: Node) -> str | None:
    kind = base_type(ctx, restriction)
    return None if kind is None else _XSD_TYPE_OF[kind]


def audit_restriction(ctx: AuditContext, node: Node) -> None:
    kind = base_type(ctx, node)
    if kind is None:
        ctx.report(303, node, base=node.get("base", ""), detail=" (invalid base type)")
    kids = list(node.iterchildren(ELEMENTS))
    if not kids:
        ctx.report(304, node)
    allowed = ALLOWED_CHILDREN.get(kind or "")
    if allowed is None:
        return  # anyUri and invalid bases: children are not checked
    for child in kids:
        name = local(child)
        if name not in allowed:
            ctx.report(308, child, facet=name, base=kind)


def audit_enumeration(ctx: AuditContext, node: Node) -> None:
    restriction = ancestor(node, "restriction")
    if restriction is None:
        return
    xsd_type = _base_xsd_type(ctx, restriction)
    value = node.get("value", "")
    if xsd_type not in (None, "xs:string", "xs:anyUri", "xs:anyURI") and not value_is_valid(value, xsd_type):
        ctx.report(305, node, value=value, base=base_type(ctx, restriction))


def audit_bound(ctx: AuditContext, node: Node) -> None:
    """XsBoundary (newer tool only): a bound must be a value of the restriction's base."""
    if not ctx.profile.check_bounds:
        return
    restriction = node.getparent()
    if restriction is None or local(restriction) != "restriction":
        return
    xsd_type = _base_xsd_type(ctx, restriction)
    value = node.get("value", "")
    if xsd_type in (None, "xs:string", "xs:boolean", "xs:anyUri", "xs:anyURI"):
        return
    if not value_is_valid(value, xsd_type):
        ctx.report(305, node, value=value, base=base_type(ctx, restriction))


def audit_pattern(ctx: AuditContext, node: Node) -> None:
    pattern = node.get("value", "")
    charge_compile(pattern)  # bounded compile work per document
    if compile_dotnet(pattern).error is not None:
        ctx.report(109, node, typo=ctx.profile.regex_message_word, pattern=pattern)


XS_AUDITS = {
    "restriction": audit_restriction, "enumeration": audit_enumeration, "pattern": audit_pattern,
    **{name: audit_bound for name in BOUNDS},
}


def report_problems(ctx: AuditContext, problems: Sequence[MatchProblem], variable: str, schema: str,
                    candidates: Sequence[str]) -> bool:
    """Log the problems of a failed match; True when there were any."""
    for p in problems:
        if p.code == 103:
            ctx.report(103, p.node, variable=variable, value=p.value,
                       candidates=lambda: describe_candidates(list(candidates)), schema=schema_label(schema))
        elif p.code == 302:
            ctx.report(302, p.node, message=p.value)
        else:
            ctx.report(303, p.node, base=p.value, detail=" (string matchers need `xs:string`)")
    return bool(problems)
