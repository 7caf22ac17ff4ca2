"""The audit of one raw answer as a repair loop sees it: the candidate the scorer extracts, audited the
way the scorer audits it (one Candidate read by Stage 1), with its findings. The answer passes exactly
when its scored Content verdict is 1; the gold plays no part."""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from idsbench.audit import run_audit
from idsbench.audit.result import Finding, status_text
from idsbench.audit.verdict import verdict
from idsbench.extract import extract_candidate
from idsbench.xmlparse import Candidate


# What evaluate_one turns into an "unscorable output" verdict rather than let it escape.
UNREADABLE = (ValueError, LookupError, RecursionError, MemoryError, OSError, etree.LxmlError)


@dataclass(frozen=True)
class Review:
    status: int | None  # the audit status; None when there is no candidate, or it could not be read
    findings: tuple[Finding, ...] = ()
    unreadable: str | None = None  # why the candidate could not be audited at all

    @property
    def ok(self) -> bool:
        return self.status == 0

    @property
    def candidate_empty(self) -> bool:
        return self.status is None and self.unreadable is None

    @property
    def not_ids(self) -> bool:
        """Not an IDS document for the validator: not processable, and no coded finding to repair."""
        if self.status is None:
            return self.unreadable is not None
        return verdict(self.status)[0] == 0 and all(f.code is None for f in self.findings)

    @property
    def status_text(self) -> str:
        if self.status is None:
            return "UnscorableOutput" if self.unreadable else "EmptyOutput"
        return status_text(self.status)

    def codes(self) -> list[int]:
        return sorted({f.code for f in self.findings if f.code is not None})


def review(raw: str, profile: str) -> Review:
    """Stage 1 on the answer's candidate under `profile`, findings included."""
    candidate = extract_candidate(raw)
    if not candidate:
        return Review(None)
    try:
        document = Candidate(candidate)
        result = run_audit(document.text, profile, reader=document.reader).result()
    except UNREADABLE as exc:  # a verdict, never an exception that would stop the run
        return Review(None, (), f"{type(exc).__name__}: {exc}"[:500])
    return Review(result.status, result.findings)
