"""Repair protocols (validator in the loop): after each answer the harness audits it (review.py) and,
unless it passes or the rounds are used up, sends the findings back (feedback.py) and asks for the whole
corrected IDS. Round 0 is the zero-shot answer; round N the last repair.

A Round is one generation of an example and what the loop made of it; its JSON is what predictions.jsonl
(and, while the example is unfinished, the rounds journal) records.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from idsbench.audit.result import Finding
from idsbench.extract import strip_think

from .feedback import FeedbackTemplate, render, sent_findings
from .predictions import Generation
from .review import review

MAX_ROUNDS = 9  # round labels stay one digit (charts and tables sort them as text)


@dataclass(frozen=True)
class Repair:
    rounds: int  # repair rounds after the first answer
    audit_profile: str
    feedback: FeedbackTemplate

    def to_json(self) -> dict:
        return {"rounds": self.rounds, "audit_profile": self.audit_profile, "feedback": self.feedback.to_json()}


def finding_json(finding: Finding) -> dict:
    return {"code": finding.code, "level": finding.level, "line": finding.line, "column": finding.column,
            "message": finding.message}


@dataclass(frozen=True)
class Round:
    index: int
    generation: Generation
    audit: Mapping[str, Any] | None = None  # {"status", "status_text", "codes"}; None: not audited
    feedback: str | None = None  # the next user turn; None: the conversation ends here
    findings_sent: tuple[Mapping[str, Any], ...] = ()

    def to_json(self) -> dict:
        g = self.generation
        return {"round": self.index, "prediction": g.prediction, "finish_reason": g.finish_reason, "usage": g.usage,
                "error": g.error, "latency_s": round(g.latency_s, 3), "attempts": g.attempts, "audit": self.audit,
                "feedback": self.feedback, "findings_sent": list(self.findings_sent)}

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> Round:
        generation = Generation(row["prediction"], row.get("finish_reason"), row.get("usage"), row.get("error"),
                                float(row.get("latency_s") or 0), int(row.get("attempts") or 1))
        return cls(int(row["round"]), generation, row.get("audit"), row.get("feedback"),
                   tuple(row.get("findings_sent") or ()))


def review_round(repair: Repair, index: int, generation: Generation) -> Round:
    """Audit round `index`'s answer; the feedback to send, unless it passes, failed, or was the last."""
    if generation.prediction is None:
        return Round(index, generation)
    found = review(generation.prediction, repair.audit_profile)
    audit = {"status": found.status, "status_text": found.status_text, "codes": found.codes()}
    if found.ok or index >= repair.rounds:
        return Round(index, generation, audit)
    text = render(repair.feedback, found, repair.audit_profile)
    sent = tuple(finding_json(f) for f in sent_findings(repair.feedback, found))
    return Round(index, generation, audit, text, sent)


def repair_turns(rounds: Sequence[Round]) -> list[dict[str, str]]:
    """The turns the rounds add to the conversation: each answer (without its <think> blocks, as chat
    templates drop earlier reasoning) and the feedback that followed it."""
    turns: list[dict[str, str]] = []
    for r in rounds:
        if r.feedback is not None:
            turns += [{"role": "assistant", "content": strip_think(r.generation.prediction or "")},
                      {"role": "user", "content": r.feedback}]
    return turns


def _total_usage(rounds: Sequence[Round]) -> dict[str, int] | None:
    usage: dict[str, int] = {}
    for r in rounds:
        for key, value in (r.generation.usage or {}).items():
            if isinstance(value, int):
                usage[key] = usage.get(key, 0) + value
    return usage or None


def final_generation(rounds: Sequence[Round]) -> Generation:
    """The example's outcome: the last round's answer, with tokens, time and attempts summed over rounds."""
    last = rounds[-1].generation
    return replace(last, usage=_total_usage(rounds), latency_s=sum(r.generation.latency_s for r in rounds),
                   attempts=sum(r.generation.attempts for r in rounds))
