"""How one example's conversation unfolds under the run's protocol: few-shot turns first (fewshot.py),
then the example's own turns, then, for a repair protocol, answer and feedback turns until the answer
passes the audit or the rounds are used up (repair.py). Zero-shot protocols and the baselines have one
round and write exactly the rows they always wrote.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .examples import Example
from .fewshot import FewShot, choose, with_shots
from .predictions import Generation, prediction_row
from .repair import Repair, Round, final_generation, repair_turns, review_round


@dataclass(frozen=True)
class Plan:
    repair: Repair | None = None
    fewshot: FewShot | None = None
    pool: tuple[Example, ...] = ()  # where solved examples come from: the whole data, not the selection

    def open(self, example: Example, rounds: Sequence[Round] = ()) -> Conversation:
        """The conversation of `example`, resumed after `rounds` when an earlier run reached them."""
        if self.fewshot is None:
            return Conversation(self, example, (), list(rounds))
        shots = choose(example, self.pool, self.fewshot)
        return Conversation(self, with_shots(example, shots), tuple(s.id for s in shots), list(rounds))


@dataclass
class Conversation:
    plan: Plan
    example: Example  # with its few-shot turns
    shots: tuple[str, ...] = ()
    rounds: list[Round] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return bool(self.rounds) and (self.plan.repair is None or self.rounds[-1].feedback is None)

    def next_example(self) -> Example:
        """What the system is sent for the next round."""
        return replace(self.example, messages=(*self.example.messages, *repair_turns(self.rounds)))

    def answered(self, generation: Generation) -> Round:
        """The next round, made of this generation (audited and answered with feedback under repair)."""
        index = len(self.rounds)
        if self.plan.repair is None:
            return Round(index, generation)
        return review_round(self.plan.repair, index, generation)

    def row(self, tags: dict[str, Any]) -> dict[str, Any]:
        """The predictions.jsonl row of a finished conversation."""
        shots = {"fewshot": list(self.shots)} if self.plan.fewshot is not None else {}
        if self.plan.repair is None:
            return {**prediction_row(self.example.id, self.rounds[-1].generation, tags), **shots}
        return {**prediction_row(self.example.id, final_generation(self.rounds), tags), **shots,
                "rounds": [r.to_json() for r in self.rounds]}
