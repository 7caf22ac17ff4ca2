"""The library entry point: predictions + references -> per-example results, aggregates, signature."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from .aggregate import GroupScore, breakdown, summarize
from .audit import audit
from .evaluation import AuditSummary, Auditor, ExampleResult, Reference, evaluate_one
from .isolation import DEFAULT_TIME_LIMIT, evaluate_isolated
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


def evaluate_stream(
    predictions: Iterable[str | None],
    references: Sequence[Reference],
    *,
    audit_profile: str | None = DEFAULT_PROFILE,
    workers: int = 1,
    time_limit: float | None = None,
) -> Iterator[ExampleResult]:
    """Per-example results in reference order, computed as they are consumed.

    workers=1 and no time_limit: in this process, nothing in between (the fast path, e.g. for a
    reward function). Otherwise: `workers` processes, each example within `time_limit` seconds
    (default 60), a pathological one scored as failed ("timeout after 60s"); see isolation.py.
    """
    if isinstance(predictions, Sequence) and len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions for {len(references)} references")
    if workers < 1 or (time_limit is not None and not time_limit > 0):
        raise ValueError(f"workers must be at least 1 and time_limit positive, got {workers} and {time_limit}")
    pairs = zip(predictions, references, strict=True)
    if workers == 1 and time_limit is None:
        auditor = make_auditor(audit_profile) if audit_profile else None
        return (evaluate_one(raw, ref, auditor) for raw, ref in pairs)
    factory = partial(make_auditor, audit_profile) if audit_profile else None
    return evaluate_isolated(pairs, factory, workers, DEFAULT_TIME_LIMIT if time_limit is None else time_limit)


def score(
    predictions: Iterable[str | None],
    references: Sequence[Reference],
    *,
    audit_profile: str | None = DEFAULT_PROFILE,
    progress: Callable[[Iterable], Iterable] = iter,
    workers: int = 1,
    time_limit: float | None = None,
    on_result: Callable[[ExampleResult], object] | None = None,
) -> ScoreRun:
    """Score raw model outputs (None = failed generation) against references, in order.

    `predictions` may be lazy (read as scoring goes); `on_result` sees each result as soon as it
    is ready (the CLI writes it out); `workers`/`time_limit` as in `evaluate_stream`.
    """
    results = []
    stream = evaluate_stream(predictions, references, audit_profile=audit_profile, workers=workers,
                             time_limit=time_limit)
    for result in progress(stream):
        results.append(result)
        if on_result is not None:
            on_result(result)
    sig = signature(n=len(references), data=data_hash(r.gold for r in references),
                    audit_profile=audit_profile)
    return ScoreRun(results, summarize(results), breakdown(results), sig)
