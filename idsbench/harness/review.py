"""The audit of one raw answer as a repair loop sees it: the candidate the scorer extracts, audited the
way the scorer audits it (one Candidate read by Stage 1), with its findings. The answer passes exactly
when its scored Content verdict is 1; the gold plays no part."""
from __future__ import annotations

from dataclasses import dataclass

from idsbench.audit import run_audit
from idsbench.audit.result import Finding, status_text
from idsbench.audit.verdict import verdict
from idsbench.extract import extract_candidate
from idsbench.xmlparse import Candidate


@dataclass(frozen=True)
class Review:
    status: int | None  # the audit status; None when there is no candidate at all
    findings: tuple[Finding, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == 0

    @property
    def candidate_empty(self) -> bool:
        return self.status is None

    @property
    def not_ids(self) -> bool:
        """Not an IDS document for the validator: not processable, and no coded finding to repair."""
        return self.status is not None and verdict(self.status)[0] == 0 and all(f.code is None for f in self.findings)

    @property
    def status_text(self) -> str:
        return "EmptyOutput" if self.status is None else status_text(self.status)

    def codes(self) -> list[int]:
        return sorted({f.code for f in self.findings if f.code is not None})


def review(raw: str, profile: str) -> Review:
    """Stage 1 on the answer's candidate under `profile`, findings included."""
    candidate = extract_candidate(raw)
    if not candidate:
        return Review(None)
    document = Candidate(candidate)
    result = run_audit(document.text, profile, reader=document.reader).result()
    return Review(result.status, result.findings)
