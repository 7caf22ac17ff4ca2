"""Human-readable tables and the summary document of a scoring run."""
from __future__ import annotations

from collections.abc import Mapping

from .aggregate import LABELS, PAPER_METRICS, GroupScore

NOT_COMPUTED = "n/c"


def _cell(value: float | None) -> str:
    return NOT_COMPUTED if value is None else f"{100 * value:.1f}"


def table_rows(overall: GroupScore, breakdowns: Mapping[str, Mapping[str, GroupScore]]) -> list[tuple[str, GroupScore]]:
    rows = [("all", overall)]
    for key, groups in breakdowns.items():
        rows += [(f"{key}={value}", score) for value, score in groups.items()]
    return rows


def columns(overall: GroupScore) -> tuple[str, ...]:
    """The paper metrics, and Behaviour after them when it was computed."""
    return PAPER_METRICS + (("behaviour",) if overall.behaviour_n else ())


def subset_note(n: int, of: int) -> str:
    return f"subset: {n} of {of} examples, not a full run (the signature's n and data hash are the subset's)"


def format_table(overall: GroupScore, breakdowns: Mapping[str, Mapping[str, GroupScore]], signature: str,
                 of: int | None = None) -> str:
    """A fixed-width table in percent; `n/c` marks Stage 1 columns that were not computed; `of` (the
    size of the data when a subset was scored) puts a subset line on top."""
    rows = table_rows(overall, breakdowns)
    metrics = columns(overall)
    width = max(len(name) for name, _ in rows)
    header = f"{'group':<{width}}  {'N':>4}  " + "  ".join(f"{LABELS[m]:>14}" for m in metrics)
    lines = ([] if of is None else [subset_note(overall.n, of)]) + [header, "-" * len(header)]
    for name, score in rows:
        cells = "  ".join(f"{_cell(getattr(score, m)):>14}" for m in metrics)
        lines.append(f"{name:<{width}}  {score.n:>4}  {cells}")
    lines.append(f"(percent; {NOT_COMPUTED} = not computed)  signature: {signature}")
    return "\n".join(lines)


def summary_document(overall: GroupScore, breakdowns: Mapping[str, Mapping[str, GroupScore]],
                     signature: str, **provenance) -> dict:
    return {
        "signature": signature,
        "overall": overall.to_json(),
        "breakdowns": {key: {v: s.to_json() for v, s in groups.items()} for key, groups in breakdowns.items()},
        **provenance,
    }
