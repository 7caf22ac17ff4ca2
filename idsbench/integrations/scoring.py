"""One raw output scored for a framework: the seven paper metrics of one example, and why.

`scorer_for(profile)` is the process's scorer: built once per process (and again in a forked child), safe
to call from many threads at once (each thread validates with its own compiled XSD). Each call is bounded by the hardened parser's limits (size, depth, element count, pattern
work) and, when `max_chars` is set, by the length of the output.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from idsbench.audit import run_audit
from idsbench.audit.profiles import DEFAULT_PROFILE, get_profile
from idsbench.audit.result import Finding
from idsbench.audit.verdict import FAILED, Verdict, verdict
from idsbench.example import AuditSummary, ExampleResult, Reference
from idsbench.extract import extract_candidate
from idsbench.facets.counts import failed
from idsbench.pipeline import evaluate_one
from idsbench.report.aggregate import PAPER_METRICS
from idsbench.xmlparse import Candidate

METRICS = PAPER_METRICS  # processability, structure, content, facet_f1, precision, recall, ag_facet_f1
MAX_FINDINGS_SHOWN = 20


@dataclass(frozen=True)
class Scored:
    """An example's result (as `ids-bench score` writes it) and the audit findings behind its verdict."""

    result: ExampleResult
    findings: tuple[Finding, ...] = ()

    def metrics(self) -> dict[str, float]:
        """Per-example values whose means are the paper's metrics (AG-FacetF1 = FacetF1 x Content)."""
        v = self.result.verdict or FAILED
        f = self.result.facets
        return {"processability": float(v[0]), "structure": float(v[1]), "content": float(v[2]),
                "facet_f1": f.f1, "precision": f.precision, "recall": f.recall, "ag_facet_f1": f.f1 * v[2]}

    def explanation(self) -> str:
        audit_summary, f = self.result.audit, self.result.facets
        lines = [f"audit: {audit_summary.status_text if audit_summary else 'not run'}"
                 + (f" (codes {', '.join(map(str, audit_summary.codes))})" if audit_summary and audit_summary.codes
                    else "")]
        for finding in self.findings[:MAX_FINDINGS_SHOWN]:
            where = f" (line {finding.line})" if finding.line else ""
            code = f" {finding.code}" if finding.code is not None else ""
            lines.append(f"- {finding.level}{code}: {finding.message}{where}")
        if len(self.findings) > MAX_FINDINGS_SHOWN:
            lines.append(f"- ... {len(self.findings) - MAX_FINDINGS_SHOWN} more findings")
        lines.append(f"facets: {f.matched} matched of {f.pred_total} predicted and {f.gold_total} gold blocks"
                     + (f" ({f.error})" if f.error else ""))
        return "\n".join(lines)


class Scorer:
    """Stage 1 and Stage 2 for one process; `max_chars` bounds the output length (longer scores 0)."""

    def __init__(self, audit_profile: str = DEFAULT_PROFILE, max_chars: int | None = None) -> None:
        get_profile(audit_profile)  # an unknown profile fails here, not in the first call
        self.audit_profile = audit_profile
        self.max_chars = max_chars

    def _too_long(self, raw: str | None) -> bool:
        return self.max_chars is not None and raw is not None and len(raw) > self.max_chars

    def score(self, raw: str | None, gold: str, example_id: str = "", metadata: Mapping | None = None) -> Scored:
        """Both stages, exactly as `ids-bench score` (a None or empty output scores 0)."""
        reference = Reference(example_id, gold, metadata or {})
        if self._too_long(raw):
            reason = f"output longer than {self.max_chars} characters"
            return Scored(ExampleResult(example_id, reference.metadata, failed(reason),
                                        AuditSummary(None, "TooLong"), reason))
        auditor = _KeepingAuditor(self.audit_profile)
        result = evaluate_one(raw, reference, auditor)
        return Scored(result, auditor.seen[0] if auditor.seen else ())

    def audit_verdict(self, raw: str | None) -> Verdict:
        """Stage 1 alone (no gold needed): the (processability, structure, content) verdict of the output."""
        if not raw or self._too_long(raw):
            return FAILED
        candidate = extract_candidate(raw)
        if not candidate:
            return FAILED
        reader = Candidate(candidate).reader  # the candidate as the validator reads it, as `score` does
        return verdict(int(run_audit(candidate, self.audit_profile, reader=reader).ctx.status))  # no findings written


class _KeepingAuditor:
    """Stage 1 on the candidate Stage 2 reads (one parse for both, as pipeline.make_auditor's), keeping
    the findings."""

    def __init__(self, profile: str):
        self.profile, self.seen = profile, []

    def __call__(self, candidate: str) -> AuditSummary:
        return self.audit_candidate(Candidate(candidate))

    def audit_candidate(self, document: Candidate) -> AuditSummary:
        result = run_audit(document.text, self.profile, reader=document.reader).result()
        self.seen.append(result.findings)
        return AuditSummary(result.status, result.status_text, tuple(sorted(set(result.codes))))


_guard = threading.Lock()
_scorers: dict[tuple[str, int | None], Scorer] = {}


def _after_fork() -> None:  # a lock held by another thread at fork time would never be released in the child
    global _guard, _scorers
    _guard, _scorers = threading.Lock(), {}


os.register_at_fork(after_in_child=_after_fork)


def scorer_for(audit_profile: str = DEFAULT_PROFILE, max_chars: int | None = None) -> Scorer:
    """The process's scorer for a profile (created on first use)."""
    key = (audit_profile, max_chars)
    with _guard:
        if key not in _scorers:
            _scorers[key] = Scorer(audit_profile, max_chars)
        return _scorers[key]


def means(rows: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """The paper's aggregates from per-example metric rows (what every framework's `mean` computes)."""
    rows = list(rows)
    if not rows:
        raise ValueError("no examples to aggregate")
    return {m: sum(r[m] for r in rows) / len(rows) for m in METRICS}
