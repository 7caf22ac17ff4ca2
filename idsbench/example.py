"""The typed values of one example: its reference, its Stage 1 summary and its result."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from idsbench.audit.verdict import FAILED, Verdict, verdict
from idsbench.behaviour.result import BehaviourScore
from idsbench.facets.counts import FacetScore

METADATA_KEYS = ("language", "input_format", "turn_type", "domain", "ifc_versions", "skills")


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
    behaviour: BehaviourScore | None = None  # None: not computed (it is opt-in)

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
        if self.behaviour is not None:
            row.update(self.behaviour.to_json())
        return row


Auditor = Callable[[str], AuditSummary]
"""Stage 1 as a function of the candidate text (see pipeline.make_auditor)."""
