"""The per-example behaviour result: light (no IFC imports), so results can carry it cheaply."""
from __future__ import annotations

from dataclasses import dataclass

from .version import GENERATOR

SIGNATURE_KEY = "behaviour"
SIGNATURE = f"{SIGNATURE_KEY}:{GENERATOR}"  # the signature part of every score that includes Behaviour
MAX_LISTED = 20


@dataclass(frozen=True, slots=True)
class BehaviourScore:
    value: float | None  # None: the gold has no witnesses (unscored)
    recall: float | None = None
    specificity: float | None = None
    rejected: int = 0  # witnesses the gold rejects
    accepted: int = 0  # witnesses the gold accepts
    reason: str | None = None
    disagreements: tuple[str, ...] = ()  # witness ids judged differently (the first few)

    def to_json(self) -> dict:
        row = {"behaviour": self.value, "behaviour_recall": self.recall,
               "behaviour_specificity": self.specificity, "witnesses": self.rejected + self.accepted}
        if self.reason:
            row["behaviour_reason"] = self.reason
        if self.disagreements:
            row["behaviour_disagreements"] = list(self.disagreements)
        return row


