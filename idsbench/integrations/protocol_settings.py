"""A protocol's settings in the shapes the evaluation frameworks take (lm-eval gen_kwargs, Inspect config).

Both follow what `ids-bench run` sends (see harness/endpoint.py): temperature, top_p and max_tokens as
such; top_k and min_p for servers that read them (vLLM, SGLang); thinking as
chat_template_kwargs.enable_thinking, or OpenAI-style reasoning_effort when one is set.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from idsbench.harness.protocol import DEFAULT_PROTOCOL, RunProtocol, load_protocol, resolve

LM_EVAL_MAX_GEN_TOKS = 8192


def run_protocol(protocol: str | Path | None = None, prompt: str | Path | None = None) -> RunProtocol:
    """The named protocol (default: the project's own), with the official prompt file if one is given."""
    return resolve(load_protocol(protocol or DEFAULT_PROTOCOL), prompt_file=Path(prompt) if prompt else None)


def thinking_fields(run: RunProtocol) -> dict[str, Any]:
    if run.reasoning_effort is not None:
        return {"reasoning_effort": run.reasoning_effort}
    if run.thinking is not None:
        return {"chat_template_kwargs": {"enable_thinking": run.thinking}}
    return {}


def lm_eval_gen_kwargs(run: RunProtocol) -> dict[str, Any]:
    """lm-eval's generation_kwargs: max_gen_toks for max_tokens (LM_EVAL_MAX_GEN_TOKS when the protocol
    leaves it to the server, since lm-eval would otherwise cut answers at 256 tokens); no stop sequence
    (an IDS has blank lines); the chat-completions backends send the other keys in the body as they are."""
    s = dict(run.sampling)
    kwargs: dict[str, Any] = {"until": [], "do_sample": bool(s.get("temperature")),
                              "max_gen_toks": s.pop("max_tokens", LM_EVAL_MAX_GEN_TOKS)}
    return kwargs | s | thinking_fields(run) | dict(run.extra_body)


def inspect_generate_config(run: RunProtocol) -> dict[str, Any]:
    """Keyword arguments of inspect_ai's GenerateConfig."""
    s = run.sampling
    config: dict[str, Any] = {k: s[k] for k in ("temperature", "top_p", "top_k", "max_tokens", "seed") if k in s}
    body = ({"min_p": s["min_p"]} if "min_p" in s else {}) | thinking_fields(run) | dict(run.extra_body)
    if "reasoning_effort" in body:
        config["reasoning_effort"] = body.pop("reasoning_effort")
    return config | {"attempt_timeout": int(run.timeout_s), "max_retries": run.retries} | (
        {"extra_body": body} if body else {})
