"""The dataset gate: every gold passes its own witnesses (166/166 on the shipped data)."""
from __future__ import annotations

from collections.abc import Mapping

from .cache import witnesses_for
from .check import Unchecked

MAX_LISTED = 5


def witness_problems(golds: Mapping[str, str]) -> tuple[list[str], str]:
    """(one line per problem, a summary note) for {example id: gold IDS text}."""
    problems, proven, counted = [], 0, 0
    for example, gold in golds.items():
        witnesses = witnesses_for(gold)
        if isinstance(witnesses, Unchecked):
            problems.append(f"{example}: the gold cannot be checked: {witnesses.reason}")
            continue
        counted += len(witnesses.verdicts)
        if witnesses.proven:
            proven += 1
            continue
        details = (witnesses.unsupported + witnesses.failures)[:MAX_LISTED]
        problems += [f"{example}: {line}" for line in details] or [f"{example}: no witnesses"]
    return problems, f"{proven}/{len(golds)} golds proven on {counted} witnesses"
