"""Stage 1: a pure-Python reproduction of buildingSMART's IDS-Audit-tool (`ids-tool audit`).

    >>> from idsbench.audit import audit
    >>> audit("not xml").status_text
    'NotImplementedError'

`audit()` never raises for a document: broken or hostile input is a verdict. The checks and codes
are summarised in docs/audit.md, one rule per code in rules.py; profiles choose between the 1.0.96
behaviour (default, quirks included) and the newest tool snapshot.
"""
from __future__ import annotations

import bisect

from idsbench.regex.safe import work_budget

from .context import AuditContext, Issue
from .profiles import DEFAULT_PROFILE, PROFILES, Profile, get_profile
from .result import AuditResult, Finding, Status, status_text
from .rules import rule as rule_for
from .spec import run_content_audit
from .tree import Locator, Node, build_tree
from .xml import MAX_DOCUMENT_BYTES, MAX_ELEMENTS, ParsedDocument, as_bytes, parse_document
from .xsd import xsd_issues

__all__ = ["audit", "AuditResult", "DEFAULT_PROFILE", "Finding", "Status", "PROFILES", "status_text"]

# IdsFacts.GetVersionFromLocation: the only two schemaLocation values the tool recognises.
SCHEMA_LOCATIONS = {
    "http://standards.buildingsmart.org/IDS http://standards.buildingsmart.org/IDS/1.0/ids.xsd": "1.0",
    "http://standards.buildingsmart.org/IDS http://standards.buildingsmart.org/IDS/0.9.7/ids.xsd": "0.9.7",
}


def _finding(issue: Issue, locator: Locator | None) -> Finding:
    rule = rule_for(issue.rule)
    node = issue.node
    if node is None or locator is None:
        return Finding(rule.code, rule.level, issue.message, "", issue.line, None)
    return Finding(rule.code, rule.level, issue.message, locator.path(node), issue.line, locator.column(node))


def _source_lines(data: bytes, encoding: str | None) -> list[str] | None:
    try:
        return data.decode(encoding or "utf-8").splitlines()
    except (UnicodeDecodeError, LookupError):
        return None


def _result(ctx: AuditContext, profile: Profile, data: bytes = b"", encoding: str | None = None,
            root: Node | None = None) -> AuditResult:
    issues = sorted(ctx.issues, key=lambda i: i.order)
    locator = None
    if root is not None and any(i.node is not None for i in issues):
        locator = Locator(root, _source_lines(data, encoding))
    return AuditResult(int(ctx.status), tuple(_finding(i, locator) for i in issues), profile.name)


def _probe(ctx: AuditContext, doc: ParsedDocument, custom_xsd: bool, empty: bool) -> str | None:
    """The version probe; returns the IDS version to validate against, or None to stop."""
    if custom_xsd:  # -x: no probe, but a DOCTYPE or broken prolog still breaks the pass
        if doc.root is None or doc.doctype:
            message = "DTD is prohibited in this XML document." if doc.doctype else doc.error.message
            ctx.report(502, None, line=doc.error.line if doc.error else 1, message=message)
            return None
        return "1.0"
    if doc.root is None or doc.doctype or doc.root_local_name != "ids":
        status = ctx.profile.empty_document_status if empty else None
        ctx.report("not_ids", None, status=status, message="the stream is not an IDS document.")
        return None
    version = SCHEMA_LOCATIONS.get(doc.schema_location or "")
    if version is None:
        ctx.report("bad_version", None, line=doc.root.sourceline, location=doc.schema_location or "")
        return None
    if version == "0.9.7":
        ctx.report("transitional", None, version="Ids0_9_7")
    return version


def _xsd_issues(ctx: AuditContext, doc: ParsedDocument, version: str, starts: list[tuple[int, int]]) -> None:
    if doc.error is not None:
        return  # a broken document already is an IdsStructureError (502)
    lines = [line for line, _ in starts]
    for issue in xsd_issues(doc.root, version):
        ctx.event = starts[min(bisect.bisect_left(lines, issue.line or 0), len(starts) - 1)][1] - 1
        ctx.report(307 if issue.warning else 306, None, line=issue.line, message=issue.message)


def _audit_parsed(ctx: AuditContext, doc: ParsedDocument, custom_xsd: bool, empty: bool,
                  omit_content: bool = False) -> Node | None:
    """Run the probe, the content audit and the XSD validation; returns the node tree."""
    version = _probe(ctx, doc, custom_xsd, empty)
    if version is None:
        return None
    ctx.ids_version = version
    if doc.oversized or sum(1 for _ in doc.root.iter()) > MAX_ELEMENTS:
        ctx.report(503, None, message=f"more than {MAX_ELEMENTS} XML elements; not audited")
        return None
    root, _ = build_tree(doc.root, doc.ended)
    starts = run_content_audit(ctx, root)
    if omit_content:  # -c: only the construction-time 107 lines survive, without status
        ctx.issues = [i for i in ctx.issues if i.status == Status.OK]
    _xsd_issues(ctx, doc, version, starts)
    if doc.error is not None:
        ctx.event = len(starts) * 2
        ctx.report(502, None, line=doc.error.line, message=doc.error.message)
    return root


def audit(document: str | bytes, profile: str = DEFAULT_PROFILE, *, custom_xsd: bool = False,
          omit_content: bool = False) -> AuditResult:
    """Audit an IDS document like `ids-tool audit` (with `-x ids.xsd` when custom_xsd, and
    `-c` when omit_content: XSD and probe only).

    A str is audited as UTF-8 text (its declared encoding is ignored); bytes are parsed as
    given. Unknown profile names raise ValueError; documents never raise."""
    prof = get_profile(profile)
    ctx = AuditContext(prof)
    data, encoding = as_bytes(document) if isinstance(document, (str, bytes, bytearray)) else (b"", None)
    if len(data) > MAX_DOCUMENT_BYTES:
        ctx.report(503, None, message=f"document larger than {MAX_DOCUMENT_BYTES} bytes; not audited")
        return _result(ctx, prof)
    root = None
    try:
        with work_budget():  # bounded regex work per document (a pathological pattern is a 503)
            root = _audit_parsed(ctx, parse_document(data, encoding), custom_xsd, not data.strip(), omit_content)
        return _result(ctx, prof, data, encoding, root)
    except Exception as exc:  # noqa: BLE001 - any failure is a verdict, as in the tool (503)
        ctx.report(503, None, message=f"{type(exc).__name__}: {exc}")
    return _result(ctx, prof)

