"""Verifiable rewards from the scorer, in the calling conventions of TRL and veRL (neither is imported).

TRL (GRPOTrainer(reward_funcs=[...])) calls each function with keywords: `prompts`, `completions`,
`completion_ids`, every other dataset column as a list (here `gold_ids`), and `trainer_state`, `log_extra`,
`log_metric`; it wants one float (or None) per completion. Completions are strings, or for
conversational datasets lists of messages whose last assistant message is the answer.

veRL (reward.custom_reward_function.path=pkg://idsbench.integrations.rewards, .name=compute_score) calls
compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=...) plus any
custom_reward_function.reward_kwargs (e.g. flavour=mix); a dict return gives `score` as the reward and
logs the other keys.

Flavours: `audit` (no gold: 1 when the output passes the IDS audit, Content/IDSAuditPass, the follow-up
paper's reward), `ag_facet_f1` (FacetF1 against the gold, gated by the audit), `mix` (a weighted sum of
per-example metrics, by default half audit pass, half AG-FacetF1). Each call is bounded: outputs longer
than MAX_OUTPUT_CHARS score 0, and the parser's limits bound the rest. Safe in threads (one example at a
time per process) and in processes (each builds its own scorer on first use, forked children too).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from idsbench.audit.profiles import DEFAULT_PROFILE

from .scoring import METRICS, Scorer, scorer_for

FLAVOURS = ("audit", "ag_facet_f1", "mix")
DEFAULT_WEIGHTS: Mapping[str, float] = {"content": 0.5, "ag_facet_f1": 0.5}
MAX_OUTPUT_CHARS = 1_000_000  # a 15,000-token answer is about 60,000 characters


def completion_text(completion: Any) -> str | None:
    """The answer of a string or conversational completion (text parts of the last assistant message)."""
    if completion is None or isinstance(completion, str):
        return completion
    messages = [m for m in completion if isinstance(m, Mapping) and m.get("role", "assistant") == "assistant"]
    if not messages:
        return None
    content = messages[-1].get("content")
    if isinstance(content, list):  # content parts: [{"type": "text", "text": ...}, ...]
        return "".join(p.get("text", "") for p in content if isinstance(p, Mapping) and p.get("type") == "text")
    return content if isinstance(content, str) else None


def _check_weights(weights: Mapping[str, float]) -> Mapping[str, float]:
    unknown = sorted(set(weights) - set(METRICS))
    if unknown or not weights:
        raise ValueError(f"mix weights must name some of {', '.join(METRICS)}; got {sorted(weights)}")
    return weights


def _check_flavour(flavour: str) -> None:
    if flavour not in FLAVOURS:
        raise ValueError(f"unknown reward flavour {flavour!r}; choose one of {', '.join(FLAVOURS)}")


def _scorer(audit_profile: str) -> Scorer:
    return scorer_for(audit_profile, MAX_OUTPUT_CHARS)


def _combine(metrics: Mapping[str, float], flavour: str, weights: Mapping[str, float] | None) -> float:
    if flavour == "ag_facet_f1":
        return metrics["ag_facet_f1"]
    return sum(w * metrics[name] for name, w in _check_weights(weights or DEFAULT_WEIGHTS).items())


def _metrics(text: str | None, gold: str | None, flavour: str, audit_profile: str) -> dict[str, float]:
    if not gold:
        raise ValueError(f"the {flavour} reward needs the gold IDS (TRL: a gold_ids column; veRL: "
                         "reward_model.ground_truth)")
    return _scorer(audit_profile).score(text, gold).metrics()


def reward(text: str | None, gold: str | None, flavour: str = "ag_facet_f1", *,
           weights: Mapping[str, float] | None = None, audit_profile: str = DEFAULT_PROFILE) -> float:
    """One output's reward in [0, 1] (for `mix`, the weighted sum; weights that sum to 1 keep it there)."""
    _check_flavour(flavour)
    if flavour == "audit":
        return float(_scorer(audit_profile).audit_verdict(text)[2])
    return _combine(_metrics(text, gold, flavour, audit_profile), flavour, weights)


def _golds(gold_ids: Sequence[str] | None, n: int) -> Sequence[str | None]:
    if gold_ids is None:
        raise ValueError("this reward needs a gold_ids column in the training dataset")
    if len(gold_ids) != n:
        raise ValueError(f"{len(gold_ids)} gold_ids for {n} completions")
    return gold_ids


# TRL: the function names are what TRL logs (rewards/<name>).
def ids_audit_reward(completions: Sequence[Any], **_: Any) -> list[float]:
    """1.0 when the completion's IDS passes the audit (no gold needed), else 0.0."""
    return [reward(completion_text(c), None, "audit") for c in completions]


def ids_ag_facet_f1_reward(completions: Sequence[Any], gold_ids: Sequence[str] | None = None, **_: Any) -> list[float]:
    """AG-FacetF1 of each completion against its example's gold IDS."""
    golds = _golds(gold_ids, len(completions))
    return [reward(completion_text(c), g, "ag_facet_f1") for c, g in zip(completions, golds)]


def ids_mix_reward(completions: Sequence[Any], gold_ids: Sequence[str] | None = None, **_: Any) -> list[float]:
    """0.5 x audit pass + 0.5 x AG-FacetF1 (other weights: make_mix_reward)."""
    golds = _golds(gold_ids, len(completions))
    return [reward(completion_text(c), g, "mix") for c, g in zip(completions, golds)]


def make_mix_reward(weights: Mapping[str, float]):
    """A TRL reward function with other mix weights, e.g. {"structure": 0.2, "content": 0.3, "ag_facet_f1": 0.5}."""
    weights = dict(_check_weights(weights))

    def ids_weighted_reward(completions: Sequence[Any], gold_ids: Sequence[str] | None = None,
                            **_: Any) -> list[float]:
        golds = _golds(gold_ids, len(completions))
        return [reward(completion_text(c), g, "mix", weights=weights) for c, g in zip(completions, golds)]

    return ids_weighted_reward


# veRL
def compute_score(data_source: str | None = None, solution_str: str | None = None, ground_truth: str | None = None,
                  extra_info: Mapping[str, Any] | None = None, *, flavour: str = "ag_facet_f1",
                  weights: Mapping[str, float] | None = None, audit_profile: str = DEFAULT_PROFILE,
                  **_: Any) -> dict[str, float]:
    """veRL's custom reward: {"score": the flavour's reward} and, except for `audit`, the seven metrics."""
    _check_flavour(flavour)
    if flavour == "audit":
        return {"score": reward(solution_str, None, "audit", audit_profile=audit_profile)}
    metrics = _metrics(solution_str, ground_truth, flavour, audit_profile)
    return {"score": _combine(metrics, flavour, weights), **metrics}


def training_rows(records: Sequence[Mapping[str, Any]], system_prompt: str | None = None) -> dict[str, list]:
    """Columns for TRL (conversational `prompt`, `gold_ids`) and veRL (`data_source`, `prompt`,
    `reward_model`, `extra_info`) from dataset records: the conversation before the gold answer."""
    def prompt(record):
        system = [{"role": "system", "content": system_prompt}] if system_prompt else []
        return system + [{"role": m["role"], "content": m["content"]} for m in record["messages"][:-1]]

    return {"prompt": [prompt(r) for r in records], "gold_ids": [r["gold_ids"] for r in records],
            "data_source": ["ishigaki-ids-bench"] * len(records),
            "reward_model": [{"style": "rule", "ground_truth": r["gold_ids"]} for r in records],
            "extra_info": [{"id": r["id"]} for r in records]}
