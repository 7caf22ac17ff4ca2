"""Generated tasks as dataset records: the benchmark's record schema plus what says where a task came from.

A record has every field of idsbench.dataset.schema (messages, language, input format, turn type, domain,
IFC versions, gold, and the derived columns) and, declared in the folder's card, `generator`, `seed`,
`difficulty`, `trap_kinds` and `traps` (fact ids, see traps.py). Ids are `synth-s<seed>-<index>-<language>`:
the two languages of a task share their scenario id, as the benchmark's do.
"""
from __future__ import annotations

from datasets import Features, List, Value

from idsbench.dataset.golds import Gold
from idsbench.dataset.ids_analysis import FACET_KINDS
from idsbench.dataset.schema import CORE_FIELDS, FEATURES, validate_record
from idsbench.dataset.skills import skills

from idsbench.harness.idsxml import render

from .analysis import as_gold
from .gold import document, gold_ids
from .plan import TaskPlan
from .request import user_messages
from .version import GENERATOR

SYNTH_FEATURES = Features({
    **FEATURES,
    "generator": Value("string"),  # the generator version that made the task (version.py)
    "seed": Value("int64"),
    "difficulty": Value("string"),  # easy | medium | hard
    "trap_kinds": List(Value("string")),  # version-home, datatype, enumeration, quantity-set, predefined-type, unit
    "traps": List(Value("string")),  # the facts behind them, as ids of the vocabulary's catalogue of hard facts
})
EXTRA_FIELDS = tuple(SYNTH_FEATURES)[len(FEATURES):]


def scenario_id(seed: int, index: int) -> str:
    return f"synth-s{seed}-{index:06d}"


def record(plan: TaskPlan, language: str) -> dict:
    """The record of one task in one language."""
    users = user_messages(plan, language)
    final = document(plan, plan.final, language)
    golds = [gold_ids(plan, turn, language) for turn in plan.turns[:-1]] + [render(final)]
    messages = [m for pair in zip(users, golds) for m in ({"role": "user", "content": pair[0]},
                                                           {"role": "assistant", "content": pair[1]})]
    turn_type = "multi_turn" if len(plan.turns) > 1 else "single_turn"
    gold = as_gold(final)
    traps = plan.traps
    return {
        "id": f"{scenario_id(plan.seed, plan.index)}-{language}", "scenario_id": scenario_id(plan.seed, plan.index),
        "messages": messages, "language": language, "input_format": plan.input_format, "turn_type": turn_type,
        "domain": plan.domain, "ifc_versions": list(plan.final.versions), "gold_ids": golds[-1],
        "n_specifications": len(gold.specs),
        "facet_kinds": sorted({f.kind for f in gold.facets}, key=FACET_KINDS.index),
        "restriction_kinds": restriction_kinds(gold), "skills": skills(gold, users, turn_type),
        "generator": GENERATOR, "seed": plan.seed, "difficulty": plan.difficulty,
        "trap_kinds": sorted({t.kind for t in traps}), "traps": [t.fact for t in traps],
    }


def restriction_kinds(gold: Gold) -> list[str]:
    """The dataset's derived column (ids_analysis.summarize gives the same), from the gold already parsed."""
    values = [v for f in gold.facets for v in f.params.values()]
    kinds = {"bounds": any(v.bounds for v in values), "enumeration": any(v.enumeration for v in values),
             "pattern": any(v.patterns for v in values)}
    return sorted(k for k, present in kinds.items() if present)


def problems(rec: dict) -> list[str]:
    """What is wrong with a generated record: the benchmark's checks (its id pattern apart) and ours."""
    core = {k: rec.get(k) for k in FEATURES if k in rec}
    core.update(id="s001-" + str(rec.get("language")), scenario_id="s001")  # the benchmark's own id pattern
    found = [p for p in validate_record(core) if not p.startswith("id ")]
    expected = f"{rec.get('scenario_id')}-{rec.get('language')}"
    if rec.get("id") != expected:
        found.append(f"id {rec.get('id')!r} must be {expected!r}")
    found += [f"missing field {k!r}" for k in (*CORE_FIELDS, *EXTRA_FIELDS) if k not in rec]
    found += [f"unknown field {k!r}" for k in rec if k not in SYNTH_FEATURES]
    if rec.get("difficulty") not in ("easy", "medium", "hard"):
        found.append(f"difficulty must be easy, medium or hard, got {rec.get('difficulty')!r}")
    return found


def data_file(split: str, rec: dict) -> str:
    return f"{split}-{rec['difficulty']}-{rec['language']}-{rec['input_format']}-{rec['turn_type']}.jsonl"
