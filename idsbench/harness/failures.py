"""Failed generations: a failure is data (a null prediction that scores 0), but a run made mostly of
them measures the endpoint, not the model, so the commands say so and exit non-zero."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def one_line(text: Any, limit: int = 300) -> str:
    """An error text as one short line (endpoint errors can carry a whole HTML page)."""
    flat = " ".join(str(text or "no error recorded").split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


@dataclass(frozen=True)
class Failures:
    """Failed generations of a run (they score 0): how many, of how many, and the first one's error."""

    failed: int
    total: int
    first: dict | None = None  # {"id", "error"}

    @classmethod
    def from_stats(cls, stats: dict[str, Any], total: int) -> Failures:
        return cls(len(stats["failed_ids"]), total, stats.get("first_error"))

    @property
    def mostly(self) -> bool:
        """All, or more than half: the scores then say more about the endpoint than about the model."""
        return self.total > 0 and 2 * self.failed > self.total

    def line(self) -> str:
        first = f" (first: {self.first['id']}: {self.first['error']})" if self.first else ""
        return f"{self.failed} of {self.total} generations failed{first}"
