"""The benchmark as an Inspect task (inspect_ai): `inspect eval idsbench/ishigaki_ids_bench --model ...`.

Each record becomes a Sample whose input is the protocol's system prompt followed by the record's own
conversation (every turn before the gold answer); the target is the gold IDS. The scorer returns the seven
per-example metrics as one value dict, with the audit verdict, findings and facet counts as explanation;
each metric is the mean over samples, as `ids-bench score` reports it. Task options (`-T key=value`):
protocol (default ishigaki-detailed-v1, this project's prompt: NOT the paper's protocol), prompt (the
official prompt file for paper-0shot), data, subset, audit_profile.
"""
from __future__ import annotations

import site
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState, generate

from idsbench.audit.profiles import DEFAULT_PROFILE
from idsbench.example import METADATA_KEYS

from .data import records_of
from .protocol_settings import inspect_generate_config, run_protocol
from .scoring import METRICS, scorer_for

ROLES = {"user": ChatMessageUser, "assistant": ChatMessageAssistant}


def sample_of(record: Mapping[str, Any], system: str) -> Sample:
    turns: list[ChatMessage] = [ChatMessageSystem(content=system)]
    turns += [ROLES[m["role"]](content=m["content"]) for m in record["messages"][:-1]]
    return Sample(id=record["id"], input=turns, target=record["gold_ids"],
                  metadata={k: record[k] for k in METADATA_KEYS if k in record})


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
    samples = [sample_of(r, run.prompt.text) for r in records_of(data, subset)]
    return Task(dataset=MemoryDataset(samples, name=f"ishigaki-ids-bench-{subset}"), solver=generate(),
                scorer=ids_scorer(audit_profile), config=GenerateConfig(**inspect_generate_config(run)),
                metadata={"protocol": run.to_json(), "prompt": run.prompt.to_json(), "subset": subset})
