"""The benchmark as an Inspect task (inspect_ai): `inspect eval idsbench/ishigaki_ids_bench --model ...`.

Each record becomes a Sample whose input is the protocol's system prompt followed by the record's own
conversation (every turn before the gold answer); the target is the gold IDS. The scorer returns the seven
per-example metrics as one value dict, with the audit verdict, findings and facet counts as explanation;
each metric is the mean over samples, as `ids-bench score` reports it. Task options (`-T key=value`):
protocol (default ishigaki-detailed-v1, this project's prompt: NOT the paper's protocol), prompt (the
official prompt file for paper-0shot), data, subset, audit_profile.

Under a few-shot protocol the solved examples come before the record's turns, chosen as `ids-bench run`
chooses them (from all the data). Under a repair protocol the solver loops generate -> audit -> feedback
(`repair_loop`, the harness's own decisions and texts) and the scorer adds every round's seven values
(`round0_content`, ...: an example that passed earlier keeps its answer), next to the final ones.
"""
from __future__ import annotations

import site
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import Generate, TaskState, generate, solver

from idsbench.audit.profiles import DEFAULT_PROFILE
from idsbench.example import METADATA_KEYS
from idsbench.harness.examples import Example, example_from_record
from idsbench.harness.fewshot import FewShot, choose, solved_turns
from idsbench.harness.predictions import Generation
from idsbench.harness.protocol import load_protocol
from idsbench.harness.repair import repair_turns, review_round

from .data import records_of
from .protocol_settings import inspect_generate_config, run_protocol
from .scoring import METRICS, scorer_for

ROLES = {"user": ChatMessageUser, "assistant": ChatMessageAssistant}


def sample_of(record: Mapping[str, Any], system: str, shots: Sequence[Example] = ()) -> Sample:
    turns: list[ChatMessage] = [ChatMessageSystem(content=system)]
    conversation = [*(t for shot in shots for t in solved_turns(shot)), *record["messages"][:-1]]
    turns += [ROLES[m["role"]](content=m["content"]) for m in conversation]
    metadata = {k: record[k] for k in METADATA_KEYS if k in record}
    return Sample(id=record["id"], input=turns, target=record["gold_ids"],
                  metadata=metadata | ({"fewshot": [s.id for s in shots]} if shots else {}))


def samples(records: Sequence[Mapping[str, Any]], system: str, fewshot: FewShot | None, data: str | None) -> list:
    if fewshot is None:
        return [sample_of(r, system) for r in records]
    pool = [example_from_record(r) for r in records_of(data, "all")]  # as `ids-bench run`: from all the data
    return [sample_of(r, system, choose(example_from_record(r), pool, fewshot)) for r in records]


@solver
def repair_loop(protocol: str):
    """generate -> audit -> feedback until the answer passes or the protocol's rounds are used up; every
    round's answer goes to the sample's metadata ("rounds")."""
    repair = load_protocol(protocol).repair
    if repair is None:
        raise ValueError(f"protocol {protocol!r} has no repair loop")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answers: list[str] = []
        while True:
            state = await generate(state)
            answers.append(state.output.completion)
            answered = review_round(repair, len(answers) - 1, Generation(answers[-1]))
            if answered.feedback is None:
                break
            # the same turns the harness sends: the answer without its <think> blocks, then the feedback
            answer, feedback = repair_turns([answered])
            state.messages[-1] = ChatMessageAssistant(content=answer["content"])
            state.messages.append(ChatMessageUser(content=feedback["content"]))
        state.metadata["rounds"] = answers
        return state

    return solve


@scorer(metrics={name: [mean(), stderr()] for name in METRICS})
def ids_scorer(audit_profile: str = DEFAULT_PROFILE):
    """Stage 1 and Stage 2 of one output against the sample's gold IDS."""
    scoring = scorer_for(audit_profile)

    async def score(state: TaskState, target: Target) -> Score:
        scored = scoring.score(state.output.completion, target.text, str(state.sample_id), state.metadata)
        audit = scored.result.audit
        return Score(value=scored.metrics(), explanation=scored.explanation(),
                     metadata={"audit_status": audit.status_text if audit else None,
                               "audit_codes": list(audit.codes) if audit else [],
                               "facets": {"matched": scored.result.facets.matched,
                                          "predicted": scored.result.facets.pred_total,
                                          "gold": scored.result.facets.gold_total}})

    return score


def round_names(rounds: int) -> list[str]:
    return [f"round{i}_{m}" for i in range(rounds + 1) for m in METRICS]


def ids_rounds_scorer(audit_profile: str, rounds: int):
    """`ids_scorer`'s values for the final answer, and the same seven for every round."""
    @scorer(metrics={name: [mean(), stderr()] for name in (*METRICS, *round_names(rounds))}, name="ids_rounds_scorer")
    def build():
        scoring = scorer_for(audit_profile)
        final = ids_scorer(audit_profile)

        async def score(state: TaskState, target: Target) -> Score:
            answers = state.metadata.get("rounds") or [state.output.completion]
            values = {}
            for index in range(rounds + 1):
                answer = answers[min(index, len(answers) - 1)]
                scored = scoring.score(answer, target.text, str(state.sample_id), state.metadata)
                values |= {f"round{index}_{m}": v for m, v in scored.metrics().items()}
            last = await final(state, target)
            return Score(value=last.value | values, explanation=last.explanation,
                         metadata={**(last.metadata or {}), "rounds": len(answers)})

        return score

    return build()


def _prefixed_by_inspect() -> bool:
    """Inspect names a task "<import package>/<name>" when the package lies in site-packages, or is installed
    in editable mode under a distribution of the same name. Ours is ishigaki-ids-bench, so an editable
    install would get a bare name, and `inspect eval idsbench/ishigaki_ids_bench` would not find it."""
    here = str(Path(__file__).resolve()).lower()
    roots = [*site.getsitepackages(), site.getusersitepackages()]
    roots += [p for p in sys.path if "site-packages" in p.lower()]
    return any(here.startswith(str(Path(root).resolve()).lower()) for root in roots if root)


TASK_NAME = "ishigaki_ids_bench" if _prefixed_by_inspect() else "idsbench/ishigaki_ids_bench"


@task(name=TASK_NAME)
def ishigaki_ids_bench(protocol: str | None = None, prompt: str | None = None, data: str | None = None,
                       subset: str = "all", audit_profile: str = DEFAULT_PROFILE) -> Task:
    """Ishigaki-IDS-Bench: turn BIM requirements into a buildingSMART IDS file."""
    run = run_protocol(protocol, prompt)
    loop = run.protocol
    dataset = samples(records_of(data, subset), run.prompt.text, loop.fewshot, data)
    solve = repair_loop(protocol) if loop.repair else generate()
    scores = ids_rounds_scorer(audit_profile, loop.repair.rounds) if loop.repair else ids_scorer(audit_profile)
    return Task(dataset=MemoryDataset(dataset, name=f"ishigaki-ids-bench-{subset}"), solver=solve,
                scorer=scores, config=GenerateConfig(**inspect_generate_config(run)),
                metadata={"protocol": run.to_json(), "prompt": run.prompt.to_json(), "subset": subset})
