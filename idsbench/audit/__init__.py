"""Stage 1: a pure-Python reproduction of buildingSMART's IDS-Audit-tool (`ids-tool audit`).

    >>> from idsbench.audit import audit
    >>> audit("not xml").status_text
    'NotImplementedError'

`audit()` never raises for a document: broken or hostile input is a verdict. The checks and codes
are summarised in docs/audit.md, one rule per code in rules.py; profiles choose between the 1.0.96
behaviour (default, quirks included) and the newest tool snapshot.

How a document is read: the version probe reads up to the root start tag (xmlparse.IdsReader), so a
document the tool rejects there costs no full parse, whatever its size; then the content checks run
as direct passes over the libxml2 tree (spec.py) and the XSD validation over the same tree (xsd.py).
Findings are written only for `audit()`: the scorer asks for the status and the codes (`audit_summary`).
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from idsbench.regex.safe import work_budget
from idsbench.xmlparse import MAX_ELEMENTS, IdsRead, IdsReader, as_read, large_document

from .context import AuditContext
from .locate import findings, ordered
from .nodes import ascii_markup, without_cdata
from .profiles import DEFAULT_PROFILE, PROFILES, Profile, get_profile
from .result import AuditResult, Finding, Status, status_text
from .spec import read_every_schema, run_content_audit
from .xsd import xsd_issues

__all__ = ["audit", "AuditResult", "DEFAULT_PROFILE", "Finding", "Status", "PROFILES", "status_text"]

MAX_DOCUMENT_BYTES = 10 * 1024 * 1024
PROBE_LIMIT = 1024 * 1024  # bytes read to find the root start tag of a document over MAX_DOCUMENT_BYTES
# IdsFacts.GetVersionFromLocation: the only two schemaLocation values the tool recognises.
SCHEMA_LOCATIONS = {
    "http://standards.buildingsmart.org/IDS http://standards.buildingsmart.org/IDS/1.0/ids.xsd": "1.0",
    "http://standards.buildingsmart.org/IDS http://standards.buildingsmart.org/IDS/0.9.7/ids.xsd": "0.9.7",
}


def as_bytes(document: str | bytes) -> tuple[bytes, str | None]:
    """The bytes to read and their encoding: a str as the UTF-8 file it would be written to
    (xmlparse.as_read: its declared encoding counts), bytes as given."""
    if isinstance(document, str):
        return as_read(document)
    return bytes(document), None


@dataclass
class Run:
    """One audit's issues and what writing their findings needs."""

    ctx: AuditContext
    reader: IdsReader
    root: etree._Element | None = None  # the tree the checks ran on
    stopped: tuple | None = None  # where an unexpected error ended the pass

    def result(self) -> AuditResult:
        issues = ordered(self.ctx.issues, self.root, self.stopped)
        found = findings(issues, self.root, self.reader.data, self.reader.encoding, positions=self.stopped is None)
        return AuditResult(int(self.ctx.status), found, self.ctx.profile.name)

    def codes(self) -> tuple[int, ...]:
        """The codes of the findings, sorted, without writing them."""
        issues = self.ctx.issues if self.stopped is None else ordered(self.ctx.issues, self.root, self.stopped)
        return tuple(sorted({i.rule for i in issues if isinstance(i.rule, int)}))


def _probe(ctx: AuditContext, head: IdsRead, custom_xsd: bool, data: bytes) -> str | None:
    """The version probe; returns the IDS version to validate against, or None to stop."""
    if custom_xsd:  # -x: no probe, but a DOCTYPE or broken prolog still breaks the pass
        if head.root is None or head.doctype:
            message = "DTD is prohibited in this XML document." if head.doctype else head.error.message
            ctx.report(502, None, line=head.error.line if head.error else 1,
                       column=head.error.column if head.error and not head.doctype else None, message=message)
            return None
        return "1.0"
    if head.root is None or head.doctype or head.root_local_name != "ids":
        status = ctx.profile.empty_document_status if not data.strip() else None
        ctx.report("not_ids", None, status=status, message="the stream is not an IDS document.")
        return None
    version = SCHEMA_LOCATIONS.get(head.schema_location or "")
    if version is None:
        ctx.report("bad_version", None, line=head.root.sourceline, location=head.schema_location or "")
        return None
    if version == "0.9.7":
        ctx.report("transitional", None, version="Ids0_9_7")
    return version


def _content_tree(ctx: AuditContext, reader: IdsReader, doc: IdsRead) -> etree._Element:
    """The tree the content checks read: the document itself, or, when it holds CDATA sections, the
    same document with each one as an empty comment (the tool's reader sets no content from CDATA;
    lines stay where they were, and the XSD still validates the document as written)."""
    data = reader.data
    if b"CDATA" in data or b"C\x00D\x00A\x00T\x00A" in data:  # UTF-8 or UTF-16
        changed = without_cdata(data, reader.encoding, doc.root.getroottree().docinfo.encoding)
        twin = IdsReader(changed, reader.encoding).read() if changed is not None else None
        if twin is not None and twin.root is not None:
            ctx.ended = twin.ended
            return twin.root
    return doc.root


def _audit_read(run: Run, custom_xsd: bool, omit_content: bool) -> None:
    """The probe, the content checks and the XSD validation, in the tool's order of logging."""
    ctx, reader = run.ctx, run.reader
    too_large = len(reader.data) > MAX_DOCUMENT_BYTES
    head = reader.probe(PROBE_LIMIT if too_large else None)
    version = _probe(ctx, head, custom_xsd, reader.data) if head is not None else "?"
    if version is None:
        return
    if too_large:
        ctx.report(503, None, message=f"document larger than {MAX_DOCUMENT_BYTES} bytes; not audited")
        return
    ctx.ids_version = version
    doc = reader.read()
    if doc.oversized or (not reader.whole and _count_nodes(doc.root) > MAX_ELEMENTS):
        ctx.report(503, None, message=f"more than {MAX_ELEMENTS} XML elements; not audited")
        return
    ctx.ended = doc.ended
    run.root = _content_tree(ctx, reader, doc)
    read_every_schema(ctx, run.root)
    if not omit_content:  # -c: only the construction-time 107 lines are logged, without status
        run_content_audit(ctx, run.root)
    else:
        ctx.where = ("after",)
    if doc.error is None:
        source = reader.data if ascii_markup(reader.encoding or doc.root.getroottree().docinfo.encoding) else None
        for issue in xsd_issues(doc.root, version, source):
            ctx.where = ("xsd", issue.line)
            ctx.report(307 if issue.warning else 306, None, line=issue.line, message=issue.message)
    else:  # a broken document already is an IdsStructureError (502)
        ctx.where = ("final",)
        ctx.report(502, None, line=doc.error.line, column=doc.error.column, message=doc.error.message)


def _count_nodes(root: etree._Element) -> int:
    """Elements, comments and PIs (a document parsed whole is too small to hold MAX_ELEMENTS)."""
    return sum(1 for _ in root.iter())


def run_audit(document: str | bytes, profile: str = DEFAULT_PROFILE, *, custom_xsd: bool = False,
              omit_content: bool = False, reader: IdsReader | None = None) -> Run:
    """The audit's issues (see `audit`); `reader` reads a document already being read elsewhere."""
    ctx = AuditContext(get_profile(profile))
    if reader is None:
        data, encoding = as_bytes(document) if isinstance(document, (str, bytes, bytearray)) else (b"", None)
        reader = IdsReader(data, encoding)
    run = Run(ctx, reader)
    try:
        with work_budget(), large_document(len(reader.data)):  # bounded regex work per document (a 503)
            _audit_read(run, custom_xsd, omit_content)
    except Exception as exc:  # noqa: BLE001 - any failure is a verdict, as in the tool (503)
        run.stopped = ctx.where
        ctx.report(503, None, message=f"{type(exc).__name__}: {exc}")
    return run


def audit(document: str | bytes, profile: str = DEFAULT_PROFILE, *, custom_xsd: bool = False,
          omit_content: bool = False) -> AuditResult:
    """Audit an IDS document like `ids-tool audit` (with `-x ids.xsd` when custom_xsd, and
    `-c` when omit_content: XSD and probe only).

    A str is audited as the UTF-8 file it would be written to (a declaration of another encoding
    makes it unreadable, as for the validator); bytes are parsed as given. Unknown profile names raise ValueError; documents never raise."""
    return run_audit(document, profile, custom_xsd=custom_xsd, omit_content=omit_content).result()
