"""What the Stage 1 audit returns: status flags (the validator's exit code), findings and the result."""
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
# What each status bit tells the user (the names are the validator's, and read like exceptions).
STATUS_WORDS = {
    Status.NOT_IMPLEMENTED_ERROR: "not an IDS document",
    Status.INVALID_OPTIONS_ERROR: "bad options, or no files to audit",
    Status.NOT_FOUND_ERROR: "a file or folder not found",
    Status.IDS_STRUCTURE_ERROR: "not well-formed XML, or not valid against the IDS schema",
    Status.IDS_CONTENT_ERROR: "content errors: IFC names, values or cardinalities",
    Status.UNHANDLED_ERROR: "not audited (too large, or too much regular-expression work)",
}
LEVELS = ("critical", "error", "warning", "info")


def status_text(value: int) -> str:
    """.NET flags formatting: "Ok", or the set names joined by ", " ("IdsStructureError, IdsContentError")."""
    if value == 0:
        return "Ok"
    names = [name for flag, name in STATUS_NAMES.items() if value & flag]
    rest = value & ~sum(STATUS_NAMES)
    return ", ".join(names) if not rest else str(value)  # .NET prints the number for unknown bits


def status_line(value: int) -> str:
    """`NotImplementedError (not an IDS document)`: the validator's name, then what it means."""
    words = [w for flag, w in STATUS_WORDS.items() if value & flag]
    return status_text(value) + (f" ({'; '.join(words)})" if words else "")


def parse_status(text: str) -> int:
    """Inverse of status_text (accepts any order: "IdsContentError, IdsStructureError")."""
    by_name = {name: int(flag) for flag, name in STATUS_NAMES.items()}
    text = text.strip()
    if text in ("Ok", ""):
        return 0
    return sum(by_name[part.strip()] for part in text.split(","))


@dataclass(frozen=True)
class Finding:
    """One log line of the audit: `code` is the tool's error code (None for uncoded lines)."""

    code: int | None
    level: str  # one of LEVELS
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
