"""Few-shot protocols: K solved examples as earlier turns of the conversation.

The examples come from the benchmark's own other scenarios (leave-one-scenario-out): never the
example's scenario, in either language, and at most one per scenario. Candidates that share the
example's language come first, then its input format, then its turn type; ties are broken by a seeded
hash of the two ids, so the choice depends only on the seed, the example and the data, never on which
examples a run selects or in which order it sends them.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .examples import Example

MATCHED_ON = ("language", "input_format", "turn_type")  # in order of importance


@dataclass(frozen=True)
class FewShot:
    k: int
    seed: int = 0

    def to_json(self) -> dict:
        return {"k": self.k, "seed": self.seed}


def _tie_break(seed: int, target: str, candidate: str) -> str:
    return hashlib.sha256(f"{seed}\n{target}\n{candidate}".encode("utf-8")).hexdigest()


def _rank(target: Example, candidate: Example, seed: int) -> tuple:
    mismatches = tuple(candidate.metadata.get(k) != target.metadata.get(k) for k in MATCHED_ON)
    return (*mismatches, _tie_break(seed, target.id, candidate.id))


def choose(target: Example, pool: Sequence[Example], fewshot: FewShot) -> list[Example]:
    """The K solved examples for `target`, best matched first."""
    candidates = [e for e in pool if e.scenario != target.scenario and e.gold]
    chosen: list[Example] = []
    for candidate in sorted(candidates, key=lambda e: _rank(target, e, fewshot.seed)):
        if all(c.scenario != candidate.scenario for c in chosen):
            chosen.append(candidate)
            if len(chosen) == fewshot.k:
                break
    return chosen


def solved_turns(shot: Example) -> list[dict[str, str]]:
    """A solved example as conversation turns: its own turns, then its gold as the assistant's answer
    (unfenced, as the data writes earlier answers of multi-turn examples)."""
    return [*map(dict, shot.messages), {"role": "assistant", "content": shot.gold or ""}]


def with_shots(target: Example, shots: Sequence[Example]) -> Example:
    """`target` whose conversation starts with the solved examples."""
    turns = [turn for shot in shots for turn in solved_turns(shot)]
    return replace(target, messages=(*turns, *target.messages))
