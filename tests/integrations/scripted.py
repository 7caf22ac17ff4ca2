"""Scripted model outputs for the integration tests: each example's gold, or a deterministic degradation of
it, looked up by the conversation a framework sends (system prompt left out); and what `ids-bench score`
gives for the same outputs."""
from __future__ import annotations

import json
import re
from pathlib import Path

from idsbench.cli import main
from idsbench.records import load_records
from tests.paths import ROOT

DATA = ROOT / "data"


def records(data: Path = DATA) -> list[dict]:
    return sorted((r for _, _, r in load_records(data)), key=lambda r: r["id"])


def conversation_key(messages) -> str:
    """The turns a model sees, without system messages, as one string."""
    turns = [(m["role"], m["content"]) for m in messages if m["role"] != "system"]
    return json.dumps(turns, ensure_ascii=False)


def degrade(gold: str, kind: int) -> str:
    """kind 0: the gold after a think block and in a fence; 1: entity names in lower case (content errors,
    partial facets); 2: prose only; 3: cut in half (not XML); 4: a specification dropped."""
    if kind == 0:
        return f"<think>Reading the requirements.</think>\n```ids\n{gold}\n```"
    if kind == 1:
        return re.sub(r'(>|value=")(IFC[A-Z0-9_]+)', lambda m: m.group(1) + m.group(2).lower(), gold)
    if kind == 2:
        return "I am sorry, I cannot write that IDS."
    if kind == 3:
        return gold[: len(gold) // 2]
    first = gold.find("<specification ")
    end = gold.find("</specification>", first)
    return gold[:first] + gold[end + len("</specification>"):] if first >= 0 and end >= 0 else gold


def scripted(rows: list[dict], degraded_every: int = 3) -> dict[str, str]:
    """{example id: output}: the gold for most examples, every `degraded_every`-th one degraded."""
    out = {}
    for i, r in enumerate(rows):
        kind = (i // degraded_every) % 5 if i % degraded_every == 0 else 0
        out[r["id"]] = degrade(r["gold_ids"], kind) if i % degraded_every == 0 else r["gold_ids"]
    return out


def by_conversation(rows: list[dict], outputs: dict[str, str]) -> dict[str, str]:
    """{conversation key: output} for a stand-in that answers by what it is sent."""
    return {conversation_key(r["messages"][:-1]): outputs[r["id"]] for r in rows}


METRICS = ("processability", "structure", "content", "facet_f1", "precision", "recall", "ag_facet_f1")


def score_with_cli(tmp_path, outputs: dict[str, str]) -> dict:
    """The overall scores `ids-bench score` gives for {id: output} on the checkout's data."""
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("".join(json.dumps({"id": i, "prediction": p}) + "\n" for i, p in outputs.items()),
                           encoding="utf-8")
    assert main(["score", "--predictions", str(predictions), "--data", str(DATA), "--out", str(tmp_path / "score"),
                 "--no-progress"]) == 0
    return json.loads((tmp_path / "score" / "summary.json").read_text(encoding="utf-8"))["overall"]
