"""The feedback a repair protocol sends: a versioned template (prompts/repair-feedback-v1.json) filled
from the audit of the answer alone (status, codes with their meanings from audit/rules.py, positions,
the validator's messages). Nothing here can see the gold: `render` takes a Review and nothing else.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from idsbench.audit.result import Finding
from idsbench.audit.rules import meaning
from idsbench.records import InputError

from .prompt import PROMPTS
from .review import Review

FORMAT = "ishigaki-ids-bench/feedback@1"
TEXTS = ("header", "finding", "finding_uncoded", "position_line_column", "position_line", "position_none", "more",
         "no_ids", "reason_empty", "reason_not_ids", "request")


@dataclass(frozen=True)
class FeedbackTemplate:
    name: str
    version: int
    levels: tuple[str, ...]  # findings of these levels are sent
    max_findings: int
    max_message_chars: int
    texts: dict[str, str]
    sha256: str  # of the file

    def to_json(self) -> dict:
        return {"name": self.name, "version": self.version, "sha256": self.sha256}


def _problem(doc: object) -> str | None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return f'expected a JSON object with "format": "{FORMAT}"'
    missing = [k for k in ("name", "version", "levels", "max_findings", "max_message_chars", *TEXTS) if k not in doc]
    if missing:
        return f"missing {', '.join(missing)}"
    if not isinstance(doc["max_findings"], int) or doc["max_findings"] < 1:
        return "max_findings must be a positive integer"
    return None


def load_feedback(name_or_path: str | Path) -> FeedbackTemplate:
    """A packaged template by name (prompts/NAME.json), or a template file by path."""
    path = Path(name_or_path)
    if not path.suffix:
        path = PROMPTS / f"{name_or_path}.json"
    try:
        raw = path.read_bytes()
        doc = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: cannot read the feedback template: {exc}") from exc
    problem = _problem(doc)
    if problem:
        raise InputError(f"{path}: {problem}")
    return FeedbackTemplate(doc["name"], doc["version"], tuple(doc["levels"]), doc["max_findings"],
                            doc["max_message_chars"], {k: doc[k] for k in TEXTS}, hashlib.sha256(raw).hexdigest())


def _message(template: FeedbackTemplate, text: str) -> str:
    flat = " ".join(text.split())
    limit = template.max_message_chars
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


def _position(template: FeedbackTemplate, finding: Finding) -> str:
    t = template.texts
    if finding.line and finding.column:
        return t["position_line_column"].format(line=finding.line, column=finding.column)
    return t["position_line"].format(line=finding.line) if finding.line else t["position_none"]


def finding_line(template: FeedbackTemplate, finding: Finding) -> str:
    fields = {"code": finding.code, "meaning": meaning(finding.code), "level": finding.level,
              "position": _position(template, finding), "message": _message(template, finding.message)}
    return template.texts["finding" if finding.code is not None else "finding_uncoded"].format(**fields)


def _listed(template: FeedbackTemplate, review: Review) -> list[Finding]:
    return [f for f in review.findings if f.level in template.levels]


def sent_findings(template: FeedbackTemplate, review: Review) -> tuple[Finding, ...]:
    """The findings the feedback lists (the template's levels, at most max_findings; none for no IDS)."""
    if review.candidate_empty or review.not_ids:
        return ()
    return tuple(_listed(template, review)[:template.max_findings])


def render(template: FeedbackTemplate, review: Review, profile: str) -> str:
    """The user turn asking to repair an answer that did not pass the audit."""
    t = template.texts
    if review.candidate_empty:
        return f"{t['no_ids'].format(reason=t['reason_empty'])}\n{t['request']}"
    if review.not_ids:
        said = review.unreadable or " ".join(_message(template, f.message) for f in review.findings)
        said = _message(template, said or review.status_text)
        return f"{t['no_ids'].format(reason=t['reason_not_ids'].format(message=said))}\n{t['request']}"
    listed, shown = _listed(template, review), sent_findings(template, review)
    lines = [t["header"].format(profile=profile, status=review.status_text, count=len(listed)),
             *(finding_line(template, f) for f in shown)]
    if len(listed) > len(shown):
        lines.append(t["more"].format(more=len(listed) - len(shown)))
    return "\n".join([*lines, t["request"]])
