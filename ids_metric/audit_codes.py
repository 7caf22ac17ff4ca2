"""Stable data of the Stage 1 audit: status flags, rule codes and result types.

Codes, levels and statuses are those of buildingSMART's IDS-Audit-tool 1.0.96
(ids-lib/ErrorCodes.md, ids-lib/Messages/*.cs); see docs/reference/ids-audit-tool-1.0.96.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntFlag


class Status(IntFlag):
    """`Audit.Status` of the tool (a .NET [Flags] enum); the CLI exits with its value."""

    OK = 0
    NOT_IMPLEMENTED_ERROR = 1
    INVALID_OPTIONS_ERROR = 2
    NOT_FOUND_ERROR = 4
    IDS_STRUCTURE_ERROR = 8
    IDS_CONTENT_ERROR = 16
    XSD_SCHEMA_ERROR = 64
    UNHANDLED_ERROR = 128
    IDS_STRUCTURE_WARNING = 256


# .NET names, in ascending value order as Enum.ToString() prints combined flags.
STATUS_NAMES = {
    Status.NOT_IMPLEMENTED_ERROR: "NotImplementedError",
    Status.INVALID_OPTIONS_ERROR: "InvalidOptionsError",
    Status.NOT_FOUND_ERROR: "NotFoundError",
    Status.IDS_STRUCTURE_ERROR: "IdsStructureError",
    Status.IDS_CONTENT_ERROR: "IdsContentError",
    Status.XSD_SCHEMA_ERROR: "XsdSchemaError",
    Status.UNHANDLED_ERROR: "UnhandledError",
    Status.IDS_STRUCTURE_WARNING: "IdsStructureWarning",
}


def status_text(value: int) -> str:
    """.NET flags formatting: "Ok", or the set names joined by ", " ("IdsStructureError, IdsContentError")."""
    if value == 0:
        return "Ok"
    names = [name for flag, name in STATUS_NAMES.items() if value & flag]
    rest = value & ~sum(STATUS_NAMES)
    return ", ".join(names) if not rest else str(value)  # .NET prints the number for unknown bits


def parse_status(text: str) -> int:
    """Inverse of status_text (accepts any order: "IdsContentError, IdsStructureError")."""
    by_name = {name: int(flag) for flag, name in STATUS_NAMES.items()}
    text = text.strip()
    if text in ("Ok", ""):
        return 0
    return sum(by_name[part.strip()] for part in text.split(","))


LEVELS = ("critical", "error", "warning", "info")
C, S = Status.IDS_CONTENT_ERROR, Status.IDS_STRUCTURE_ERROR


@dataclass(frozen=True)
class Rule:
    key: str
    code: int | None
    level: str
    status: Status
    template: str


_RULE_ROWS = (
    ("not_ids", None, "critical", Status.NOT_IMPLEMENTED_ERROR, "Unhandled scenario: {message}"),
    ("bad_version", None, "critical", S, "Unrecognised version from location value ({location})"),
    ("transitional", None, "warning", Status.OK,
     "Version {version} is transitional, update to 1.0 before circulating."),
    ("101", 101, "error", C, "Invalid applicability. {message}"),
    ("102", 102, "error", C, "Empty string matcher for `{field}`"),
    ("103", 103, "error", C, "Invalid {variable} `{value}` ({candidates}) in the context of {schema}"),
    ("104", 104, "error", C, "Invalid number of matches for `{value}` in the context of {schema}"),
    ("105", 105, "error", C, "{message}"),
    ("106", 106, "error", C, "Invalid empty attribute {field}"),
    ("107", 107, "error", C, "Invalid schema version '{version}'"),
    ("108", 108, "error", Status.OK, "Unsupported schema version '{version}'"),
    ("109", 109, "error", C, "{typo} pattern string '{pattern}'"),
    ("201", 201, "error", C, "Inconsistent clauses for {schema} : {message}"),
    ("202", 202, "error", C, "Invalid cardinality `{cardinality}`, {message}"),
    ("203", 203, "error", C, "Incompatible constraints: {message}"),
    ("204", 204, "error", C, "Incompatible requirements: {message}"),
    ("301", 301, "error", C, "Invalid cardinality. {message}"),
    ("302", 302, "error", C, "Invalid context; {message}"),
    ("303", 303, "error", C, "Invalid type `{base}`{detail}"),
    ("304", 304, "error", C, "No details"),
    ("305", 305, "error", C, "Invalid value '{value}' for base type '{base}'"),
    ("306", 306, "error", S, "Schema compliance error; {message}"),
    ("307", 307, "info", Status.OK, "Schema compliance warning; {message}"),
    ("308", 308, "error", C, "Invalid facet `{facet}` for base type `{base}`"),
    ("401", 401, "error", C, "Reserved prefix '{prefix}' for {field} ({value}) in the context of {schema}"),
    ("501", 501, "critical", Status.NOT_IMPLEMENTED_ERROR, "Unhandled scenario: {message}"),
    ("502", 502, "error", S, "XML structure error: {message}"),
    ("503", 503, "error", Status.UNHANDLED_ERROR, "Unhandled error: {message}"),
    ("504", 504, "critical", Status.NOT_IMPLEMENTED_ERROR, "No embedded schema for {version}"),
)
RULES: dict[str, Rule] = {row[0]: Rule(*row) for row in _RULE_ROWS}


@dataclass(frozen=True)
class Finding:
    """One log line of the audit: `code` is the tool's error code (None for uncoded lines)."""

    code: int | None
    level: str  # "critical" | "error" | "warning" | "info"
    message: str
    path: str  # positional id, e.g. /ids1/specifications1/specification1/applicability1
    line: int | None
    column: int | None


@dataclass(frozen=True)
class AuditResult:
    status: int
    findings: tuple[Finding, ...]
    profile: str

    @property
    def status_text(self) -> str:
        return status_text(self.status)

    @property
    def codes(self) -> tuple[int, ...]:
        return tuple(f.code for f in self.findings if f.code is not None)

    def to_dict(self) -> dict:
        return {
            "status": self.status, "status_text": self.status_text, "profile": self.profile,
            "findings": [f.__dict__ for f in self.findings],
        }
