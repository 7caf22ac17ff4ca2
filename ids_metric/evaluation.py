"""One prediction against one reference: extraction, Stage 1 audit, Stage 2 facet score."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .extract import extract_candidate
from .scorer import FacetScore, failed, score_documents
from .stage1 import FAILED, Verdict, verdict

METADATA_KEYS = ("language", "input_format", "turn_type", "domain", "ifc_versions")


@dataclass(frozen=True, slots=True)
class Reference:
    """A gold IDS with the metadata used for breakdowns."""

    id: str
    gold: str
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AuditSummary:
    status: int | None
    status_text: str
    codes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ExampleResult:
    id: str
    metadata: Mapping[str, Any]
    facets: FacetScore
    audit: AuditSummary | None = None
    error: str | None = None

    @property
    def verdict(self) -> Verdict | None:
        """(processability, structure, content), or None when Stage 1 was not computed."""
        if self.audit is None:
            return None
        return verdict(self.audit.status) if self.audit.status is not None else FAILED

    def to_json(self) -> dict:
        row = {"id": self.id, **{k: self.metadata.get(k) for k in METADATA_KEYS if k in self.metadata}}
        v = self.verdict
        row.update(
            processability=v and v[0], structure=v and v[1], content=v and v[2],
            audit=None if self.audit is None else asdict(self.audit),
            **asdict(self.facets),
        )
        if self.error:
            row["error"] = self.error
        return row


Auditor = Callable[[str], AuditSummary]


def evaluate_one(raw: str | None, reference: Reference, auditor: Auditor | None = None) -> ExampleResult:
    """Score one raw model output. A failed generation (None or empty) scores 0 everywhere."""
    candidate = extract_candidate(raw) if raw else ""
    if not candidate:
        audit = None if auditor is None else AuditSummary(None, "EmptyOutput")
        return ExampleResult(reference.id, reference.metadata, failed("empty output"), audit, "empty output")
    audit = None if auditor is None else auditor(candidate)
    return ExampleResult(reference.id, reference.metadata, score_documents(candidate, reference.gold), audit)


def evaluate_all(
    raws: Sequence[str | None],
    references: Sequence[Reference],
    auditor: Auditor | None = None,
    progress: Callable[[Iterable], Iterable] = iter,
) -> list[ExampleResult]:
    if len(raws) != len(references):
        raise ValueError(f"{len(raws)} predictions for {len(references)} references")
    return [evaluate_one(raw, ref, auditor) for raw, ref in progress(list(zip(raws, references)))]
