"""Aggregation: paper metrics for a group of examples, overall and per metadata value (docs/facet-scorer.md §5)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from idsbench.example import METADATA_KEYS, ExampleResult

PAPER_METRICS = (
    "processability", "structure", "content", "facet_f1", "precision", "recall", "ag_facet_f1",
)
LABELS = {
    "processability": "Processability", "structure": "Structure", "content": "Content",
    "facet_f1": "FacetF1", "precision": "Precision", "recall": "Recall", "ag_facet_f1": "AG-FacetF1",
    "behaviour": "Behaviour",
}


@dataclass(frozen=True)
class GroupScore:
    """Paper metrics of a group; the Stage 1 columns are None when the audit was not computed."""

    n: int
    processability: float | None
    structure: float | None
    content: float | None
    facet_f1: float
    precision: float
    recall: float
    ag_facet_f1: float | None
    behaviour: float | None = None  # beyond the paper: None when not computed
    behaviour_n: int = 0  # examples with a Behaviour value (a gold without witnesses has none)

    def to_json(self) -> dict:
        row = {"n": self.n, **{name: getattr(self, name) for name in PAPER_METRICS}}
        if self.behaviour_n:
            row.update(behaviour=self.behaviour, behaviour_n=self.behaviour_n)
        return row


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def summarize(results: Sequence[ExampleResult]) -> GroupScore:
    if not results:
        raise ValueError("cannot summarize an empty group")
    f1 = [r.facets.f1 for r in results]
    verdicts = [r.verdict for r in results]
    audited = all(v is not None for v in verdicts)
    stage1 = (
        (_mean([v[0] for v in verdicts]), _mean([v[1] for v in verdicts]), _mean([v[2] for v in verdicts]),
         _mean([x * v[2] for x, v in zip(f1, verdicts)]))
        if audited else (None, None, None, None)
    )
    behaviour = [r.behaviour.value for r in results if r.behaviour is not None and r.behaviour.value is not None]
    return GroupScore(
        n=len(results), processability=stage1[0], structure=stage1[1], content=stage1[2],
        facet_f1=_mean(f1), precision=_mean([r.facets.precision for r in results]),
        recall=_mean([r.facets.recall for r in results]), ag_facet_f1=stage1[3],
        behaviour=_mean(behaviour) if behaviour else None, behaviour_n=len(behaviour),
    )


def group_values(result: ExampleResult, key: str) -> Iterable[str]:
    """The groups of `key` an example belongs to (each of several IFC versions)."""
    value = result.metadata.get(key)
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return [str(value)]


def breakdown(results: Sequence[ExampleResult], keys: Sequence[str] = METADATA_KEYS) -> dict:
    """{key: {value: GroupScore}} for every metadata key present, values sorted."""
    table: dict[str, dict[str, GroupScore]] = {}
    for key in keys:
        groups: dict[str, list[ExampleResult]] = {}
        for result in results:
            for value in group_values(result, key):
                groups.setdefault(value, []).append(result)
        if groups:
            table[key] = {value: summarize(groups[value]) for value in sorted(groups)}
    return table
