"""Scores per repair round: round 0 is the first answer of every example (what the base zero-shot protocol
scores on the same outputs), round i each example's answer after i repairs, or its last answer when it
passed the audit (or failed) earlier. The last round is the run's score. Each round is scored by the same
`idsbench.pipeline.score` as `ids-bench score`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from idsbench.example import Reference
from idsbench.pipeline import ScoreRun, score
from idsbench.report.aggregate import LABELS, PAPER_METRICS
from idsbench.report.table import NOT_COMPUTED


def answers(row: Mapping[str, Any]) -> list[str | None]:
    """An example's answer at each round it reached (a row without rounds: its one answer)."""
    rounds = row.get("rounds")
    return [r.get("prediction") for r in rounds] if rounds else [row.get("prediction")]


def answer_at(row: Mapping[str, Any], index: int) -> str | None:
    """The answer at round `index`: the last one when the example stopped before."""
    found = answers(row)
    return found[min(index, len(found) - 1)]


def round_outputs(rows: Mapping[str, Mapping[str, Any]], ids: Sequence[str], index: int) -> list[str | None]:
    return [answer_at(rows[i], index) for i in ids]


@dataclass(frozen=True)
class RoundScore:
    index: int
    answered: int  # examples that were answered at this round (all at round 0; then those sent feedback)
    scores: ScoreRun

    def to_json(self, signature: str) -> dict:
        return {"round": self.index, "answered": self.answered, "signature": f"{signature}|round:{self.index}",
                "overall": self.scores.overall.to_json()}


def score_rounds(rows: Mapping[str, Mapping[str, Any]], ids: Sequence[str], references: Sequence[Reference],
                 rounds: int, final: ScoreRun, **scoring: Any) -> list[RoundScore]:
    """Rounds 0..rounds. From the round after which no example was answered again on, the answers are the
    final ones: those rounds are `final` (the run's score, already computed)."""
    reached = [len(answers(rows[i])) for i in ids]
    scored = []
    for index in range(rounds + 1):
        settled = all(n <= index + 1 for n in reached)
        run = final if settled else score(round_outputs(rows, ids, index), references, **scoring)
        scored.append(RoundScore(index, sum(1 for n in reached if n > index), run))
    return scored


def rounds_table(rounds: Sequence[RoundScore], protocol: str) -> str:
    """The paper metrics per round, in percent, under the run's table."""
    def cell(value: float | None) -> str:
        return NOT_COMPUTED if value is None else f"{100 * value:.1f}"

    header = f"{'round':<5}  {'answered':>8}  " + "  ".join(f"{LABELS[m]:>14}" for m in PAPER_METRICS)
    lines = [f"repair rounds ({protocol}): round 0 = the first answers; an example that passes the audit keeps "
             "its answer; the last round is the run's score", header, "-" * len(header)]
    for r in rounds:
        overall = r.scores.overall
        lines.append(f"{r.index:<5}  {r.answered:>8}  "
                     + "  ".join(f"{cell(getattr(overall, m)):>14}" for m in PAPER_METRICS))
    return "\n".join(lines)
