"""The lm-evaluation-harness task behind lm_eval_tasks/ishigaki_ids_bench (imports lm_eval: use it from there).

Generation: the dataset's own conversation (every turn before the gold answer), rendered with the model's
chat template (`--apply_chat_template`), after the protocol's system prompt. `--metadata` chooses:
  protocol  a protocol name or file (default ishigaki-detailed-v1, this project's prompt: NOT the paper's)
  prompt    the official prompt file for paper-0shot when its URL cannot be reached
  data      a data file or folder (default: the checkout's data/, else the copy installed with the package)
  subset    a dataset config: all, en, ja, csv, natural_language, single_turn, multi_turn
  audit_profile  Stage 1 profile (default ids-tool-1.0.96, the paper's validator)
The protocol's sampling becomes the task's generation_kwargs; `--gen_kwargs` overrides single keys.
Few-shot protocols (fewshot-3, ...) put their solved examples before the document's turns, chosen as
`ids-bench run` chooses them (from all the data, never the document's scenario); lm-eval's own
--num_fewshot stays unused. Repair protocols are refused: generate_until makes one request per document,
and a loop whose next turn depends on the answer cannot be expressed in it (use `ids-bench run` or Inspect).
Scoring: each document through the project's scorer (IdsBenchTask.process_results); the mean of each per-example
value is the paper's metric, as `ids-bench score` reports it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import datasets
import lm_eval.api.metrics  # noqa: F401  (lm-eval's own metrics first: its registry loads them only when empty)
from lm_eval.api.registry import metric_registry, register_metric
from lm_eval.api.task import ConfigurableTask

from idsbench.audit.profiles import DEFAULT_PROFILE
from idsbench.example import METADATA_KEYS
from idsbench.harness.examples import Example, example_from_record
from idsbench.harness.fewshot import choose, solved_turns

from .data import records_of
from .protocol_settings import lm_eval_gen_kwargs, run_protocol
from .scoring import METRICS, scorer_for


def _passthrough(items):  # per-document values come from process_results; lm-eval only aggregates them
    return items


for _name in METRICS:  # registered so that lm-eval does not look the names up in the evaluate library
    if _name not in metric_registry:
        register_metric(metric=_name, higher_is_better=True, output_type="generate_until",
                        aggregation="mean")(_passthrough)


def load_docs(data: str | None = None, subset: str = "all", **_: Any) -> datasets.DatasetDict:
    """The `test` split from local data files (never the Hub); `subset` is one of the dataset configs."""
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(records_of(data, subset))})


def last_user_turn(doc: dict) -> str:
    return doc["messages"][-2]["content"]


def conversation(doc: dict, system: str | None, shots: list[Example] | None = None) -> list[dict[str, str]]:
    """System prompt + solved examples (few-shot protocols) + every turn before the gold answer (the last
    message)."""
    turns = [*(t for shot in shots or () for t in solved_turns(shot)), *doc["messages"][:-1]]
    return ([{"role": "system", "content": system}] if system else []) + \
        [{"role": m["role"], "content": m["content"]} for m in turns]


class IdsBenchTask(ConfigurableTask):
    """A ConfigurableTask whose prompt is the document's conversation, under a protocol."""

    def __init__(self, config: dict | None = None, **kwargs: Any) -> None:
        config = {k: v for k, v in (config or {}).items() if k != "class"}
        meta = dict(config.get("metadata") or {})
        self.run_protocol = run_protocol(meta.get("protocol"), meta.get("prompt"))
        loop = self.run_protocol.protocol
        if loop.repair is not None:
            raise ValueError(f"protocol {loop.name} loops generate -> audit -> feedback, which lm-eval's "
                             "generate_until (one request per document) cannot express: use `ids-bench run "
                             f"--protocol {loop.name}` or the Inspect task")
        self.fewshot = loop.fewshot
        self.pool = [example_from_record(r) for r in records_of(meta.get("data"), "all")] if loop.fewshot else []
        self.scorer = scorer_for(meta.get("audit_profile", DEFAULT_PROFILE))  # an unknown one fails here
        meta["protocol_settings"] = self.run_protocol.to_json()
        config["metadata"] = meta
        config["generation_kwargs"] = lm_eval_gen_kwargs(self.run_protocol) | (config.get("generation_kwargs") or {})
        super().__init__(config=config, **kwargs)

    def fewshot_context(self, doc: dict, num_fewshot: int, system_instruction: str | None = None,
                        apply_chat_template: bool = False, fewshot_as_multiturn: bool = False,
                        chat_template: Callable[..., Any] | None = None, gen_prefix: str | None = None,
                        **_: Any) -> Any:
        if num_fewshot:
            raise ValueError("ishigaki_ids_bench takes its examples from the protocol (--metadata "
                             "'{\"protocol\": \"fewshot-3\"}'): leave --num_fewshot unset")
        if not (apply_chat_template and chat_template):
            raise ValueError("ishigaki_ids_bench sends multi-turn conversations: run lm_eval with "
                             "--apply_chat_template (chat models)")
        # --system_instruction, when given, replaces the protocol's prompt (lm-eval records its hash).
        shots = choose(example_from_record(doc), self.pool, self.fewshot) if self.fewshot else None
        return chat_template(conversation(doc, system_instruction or self.run_protocol.prompt.text, shots))

    def process_results(self, doc: dict, results: list) -> dict[str, float]:
        """The seven metrics of one document (as `ids-bench score` computes them); lm-eval averages each."""
        metadata = {k: doc[k] for k in METADATA_KEYS if k in doc}
        raw = results[0] if results else None
        return self.scorer.score(raw, doc["gold_ids"], doc["id"], metadata).metrics()
