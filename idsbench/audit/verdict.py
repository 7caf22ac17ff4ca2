"""Stage 1 verdicts: audit status flags -> (processability, structure, content) (docs/facet-scorer.md §5)."""
from __future__ import annotations

OK = 0
IDS_STRUCTURE_ERROR = 8
IDS_CONTENT_ERROR = 16

Verdict = tuple[int, int, int]
FAILED: Verdict = (0, 0, 0)


def verdict(status: int | None) -> Verdict:
    """Ok -> 1/1/1; any structure error -> 1/0/0; else a content error -> 1/1/0; otherwise 0/0/0."""
    if status is None:
        return FAILED
    if status == OK:
        return (1, 1, 1)
    if status & IDS_STRUCTURE_ERROR:
        return (1, 0, 0)
    if status & IDS_CONTENT_ERROR:
        return (1, 1, 0)
    return FAILED
