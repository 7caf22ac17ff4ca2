"""The library entry point: predictions + references -> per-example results, aggregates, signature."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .aggregate import GroupScore, breakdown, summarize
from .audit import audit
from .evaluation import AuditSummary, Auditor, ExampleResult, Reference, evaluate_all
from .report import format_table, summary_document
from .signature import data_hash, signature

DEFAULT_PROFILE = "ids-tool-1.0.96"


def make_auditor(profile: str) -> Auditor:
    """Stage 1 as a function of the candidate text."""
    def run(candidate: str) -> AuditSummary:
        result = audit(candidate, profile)
        codes = sorted({f.code for f in result.findings if f.code is not None})
        return AuditSummary(result.status, result.status_text, tuple(codes))

    return run


@dataclass(frozen=True)
class ScoreRun:
    results: list[ExampleResult]
    overall: GroupScore
    breakdowns: dict
    signature: str

    def table(self) -> str:
        return format_table(self.overall, self.breakdowns, self.signature)

    def summary(self, **provenance) -> dict:
        return summary_document(self.overall, self.breakdowns, self.signature, **provenance)


def score(
    predictions: Sequence[str | None],
    references: Sequence[Reference],
    *,
    audit_profile: str | None = DEFAULT_PROFILE,
    progress: Callable[[Iterable], Iterable] = iter,
) -> ScoreRun:
    """Score raw model outputs (None = failed generation) against references, in order."""
    auditor = make_auditor(audit_profile) if audit_profile else None
    results = evaluate_all(predictions, references, auditor, progress)
    sig = signature(n=len(references), data=data_hash(r.gold for r in references),
                    audit_profile=audit_profile)
    return ScoreRun(results, summarize(results), breakdown(results), sig)
