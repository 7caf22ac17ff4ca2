"""The pipeline: one example (extract -> Stage 1 audit -> Stage 2 facet score) and the run entry point
(predictions + references -> per-example results, aggregates and the signature)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial

from lxml import etree

from idsbench.audit import run_audit
from idsbench.audit.profiles import DEFAULT_PROFILE, get_profile
from idsbench.audit.result import status_text
from idsbench.behaviour.result import SIGNATURE_KEY, BehaviourScore
from idsbench.behaviour.version import GENERATOR
from idsbench.example import AuditSummary, Auditor, ExampleResult, Reference
from idsbench.extract import extract_candidate
from idsbench.facets.counts import failed, score_parsed
from idsbench.isolation import DEFAULT_TIME_LIMIT, evaluate_isolated
from idsbench.report.aggregate import GroupScore, breakdown, summarize
from idsbench.report.signature import data_hash, signature
from idsbench.report.table import format_table, summary_document
from idsbench.xmlparse import Candidate


class ProfileAuditor:
    """Stage 1 under one profile: called with a candidate's text, or (`audit_candidate`) with the
    candidate already being read for Stage 2, so that both stages share one parse. The summary keeps
    the status and the codes; no finding is written."""

    def __init__(self, profile: str = DEFAULT_PROFILE):
        get_profile(profile)  # an unknown profile raises ValueError now
        self.profile = profile

    def __call__(self, candidate: str) -> AuditSummary:
        return self.audit_candidate(Candidate(candidate))

    def audit_candidate(self, candidate: Candidate) -> AuditSummary:
        run = run_audit(candidate.text, self.profile, reader=candidate.reader)
        candidate.audited = run
        status = int(run.ctx.status)
        return AuditSummary(status, status_text(status), run.codes())


def make_auditor(profile: str = DEFAULT_PROFILE) -> Auditor:
    """Stage 1 as a function of the candidate text (an unknown profile raises ValueError now)."""
    return ProfileAuditor(profile)


def evaluate_one(raw: str | None, reference: Reference, auditor: Auditor | None = None,
                 behaviour: bool = False) -> ExampleResult:
    """Score one raw model output. A failed generation (None or empty) scores 0 everywhere.
    `behaviour`: also the behavioural agreement on the gold's witness models (beyond the paper).

    The candidate is parsed once for both stages when `auditor` comes from `make_auditor`; any other
    callable auditor is given the candidate's text. Every output gets a result: should a stage raise
    on some text after all, the output scores 0 with the exception named as its error."""
    try:
        candidate = extract_candidate(raw) if raw else ""
        if not candidate:
            return _unscored(reference, auditor, behaviour, "empty output", "EmptyOutput")
        document = Candidate(candidate)
        if auditor is None:
            summary = None
        else:
            shared = getattr(auditor, "audit_candidate", None)
            summary = shared(document) if shared is not None else auditor(candidate)
        agreement = behaviour_of(candidate, reference.gold) if behaviour else None
        return ExampleResult(reference.id, reference.metadata, score_parsed(document.stage2(), reference.gold),
                             summary, behaviour=agreement)
    except (ValueError, LookupError, RecursionError, MemoryError, OSError, etree.LxmlError) as exc:
        return _unscored(reference, auditor, behaviour, f"unscorable output: {type(exc).__name__}: {exc}"[:500],
                         "UnscorableOutput")


def _unscored(reference: Reference, auditor: Auditor | None, behaviour: bool, reason: str,
              status: str) -> ExampleResult:
    summary = None if auditor is None else AuditSummary(None, status)
    agreement = BehaviourScore(0.0, reason=reason) if behaviour else None
    return ExampleResult(reference.id, reference.metadata, failed(reason), summary, reason, agreement)


def behaviour_of(candidate: str, gold: str) -> BehaviourScore:
    from idsbench.behaviour import behaviour  # noqa: PLC0415 - IFC models load only when asked for

    return behaviour(candidate, gold)


def _unscored_behaviour(result: ExampleResult) -> ExampleResult:
    """An example a worker could not finish (timeout, crash) scores 0 in Behaviour too."""
    if result.behaviour is not None:
        return result
    return replace(result, behaviour=BehaviourScore(0.0, reason=result.error or "not scored"))


@dataclass(frozen=True)
class ScoreRun:
    results: list[ExampleResult]
    overall: GroupScore
    breakdowns: dict
    signature: str
    of: int | None = None  # the number of examples in the data, when only a subset of them was scored

    def table(self) -> str:
        return format_table(self.overall, self.breakdowns, self.signature, of=self.of)

    def summary(self, **provenance) -> dict:
        document = summary_document(self.overall, self.breakdowns, self.signature, **provenance)
        return document if self.of is None else {**document, "subset": {"n": self.overall.n, "of": self.of}}


def evaluate_stream(
    predictions: Iterable[str | None],
    references: Sequence[Reference],
    *,
    audit_profile: str | None = DEFAULT_PROFILE,
    workers: int = 1,
    time_limit: float | None = None,
    behaviour: bool = False,
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
        return (evaluate_one(raw, ref, auditor, behaviour) for raw, ref in pairs)
    if audit_profile:
        get_profile(audit_profile)  # an unknown name fails here, before a worker starts
    factory = partial(make_auditor, audit_profile) if audit_profile else None
    limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
    if not behaviour:
        return evaluate_isolated(pairs, factory, evaluate_one, workers, limit)
    evaluate = partial(evaluate_one, behaviour=True)
    return map(_unscored_behaviour, evaluate_isolated(pairs, factory, evaluate, workers, limit))


def score(
    predictions: Iterable[str | None],
    references: Sequence[Reference],
    *,
    audit_profile: str | None = DEFAULT_PROFILE,
    progress: Callable[[Iterable], Iterable] = iter,
    workers: int = 1,
    time_limit: float | None = None,
    on_result: Callable[[ExampleResult], object] | None = None,
    behaviour: bool = False,
) -> ScoreRun:
    """Score raw model outputs (None = failed generation) against references, in order.

    `predictions` may be lazy (read as scoring goes); `on_result` sees each result as soon as it
    is ready (the CLI writes it out); `workers`/`time_limit` as in `evaluate_stream`; `behaviour` adds
    the behavioural agreement (its own signature part, behaviour:witness-v1; the paper metrics unchanged).
    """
    results = []
    stream = evaluate_stream(predictions, references, audit_profile=audit_profile, workers=workers,
                             time_limit=time_limit, behaviour=behaviour)
    for result in progress(stream):
        results.append(result)
        if on_result is not None:
            on_result(result)
    sig = signature(n=len(references), data=data_hash(r.gold for r in references),
                    audit_profile=audit_profile, extra={SIGNATURE_KEY: GENERATOR} if behaviour else None)
    return ScoreRun(results, summarize(results), breakdown(results), sig)
