"""Dataset records -> Examples (the conversation without its gold answer), and the run's selection."""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from idsbench.example import METADATA_KEYS, Reference
from idsbench.records import InputError, load_records, reference_from_record

FILTER_KEYS = ("language", "input_format", "turn_type")


@dataclass(frozen=True)
class Example:
    """What a system sees: `messages` ends with a user turn; `gold` only the gold baseline may read."""

    id: str
    messages: tuple[Mapping[str, str], ...]
    metadata: Mapping[str, Any] = field(default_factory=dict)
    gold: str | None = None
    scenario: str = ""  # the scenario both language versions of an example share

    def without_gold(self) -> Example:
        return replace(self, gold=None)

    @property
    def reference(self) -> Reference:
        return Reference(self.id, self.gold or "", self.metadata)


@dataclass(frozen=True)
class Selection:
    """Which examples a run covers; empty fields select everything."""

    ids: tuple[str, ...] = ()
    limit: int | None = None
    filters: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def _message_problem(messages: Any) -> str | None:
    if not isinstance(messages, list) or len(messages) < 2:
        return "\"messages\" must be a list of at least a user turn and the gold assistant turn"
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("content"), str) or m.get("role") not in ("user", "assistant"):
            return f"messages[{i}] must be {{\"role\": \"user\"|\"assistant\", \"content\": string}}"
    if messages[-1]["role"] != "assistant" or messages[-2]["role"] != "user":
        return "the last message must be the gold (assistant) after a user turn"
    return None


def example_from_record(record: Mapping[str, Any]) -> Example:
    problem = _message_problem(record.get("messages"))
    if problem:
        raise InputError(f"record {record.get('id')!r}: {problem}")
    reference = reference_from_record(record)
    messages = tuple({"role": m["role"], "content": m["content"]} for m in record["messages"][:-1])
    metadata = {k: record[k] for k in METADATA_KEYS if k in record}
    scenario = str(record.get("scenario_id") or reference.id.rsplit("-", 1)[0])
    return Example(reference.id, messages, metadata, reference.gold, scenario)


def load_examples(data: Path) -> list[Example]:
    """Every record of a JSONL file or data folder, sorted by id; each problem names its file and line."""
    examples, problems = [], []
    for path, number, record in load_records(data):
        try:
            if not isinstance(record, dict):
                raise InputError("expected a JSON object")
            examples.append(example_from_record(record))
        except InputError as exc:
            problems.append(f"{path}:{number}: {exc}")
    duplicates = sorted(i for i, c in Counter(e.id for e in examples).items() if c > 1)
    problems += [f"{data}: duplicate id {i!r}" for i in duplicates]
    if problems:
        raise InputError.listing(problems)
    return sorted(examples, key=lambda e: e.id)


def _values(examples: Sequence[Example], key: str) -> list[str]:
    return sorted({str(e.metadata.get(key)) for e in examples if key in e.metadata})


def select(examples: Sequence[Example], selection: Selection) -> list[Example]:
    """Apply ids, then config filters, then the limit; unknown ids or values are input errors."""
    chosen = list(examples)
    if selection.ids:
        known = {e.id for e in chosen}
        unknown = [i for i in selection.ids if i not in known]
        if unknown:
            raise InputError(f"--ids not in the data: {', '.join(unknown)}")
        wanted = set(selection.ids)
        chosen = [e for e in chosen if e.id in wanted]
    for key, values in selection.filters.items():
        if not values:
            continue
        bad = sorted(set(values) - set(_values(examples, key)))
        if bad:
            raise InputError(f"--{key.replace('_', '-')} {', '.join(bad)}: not in the data "
                             f"(available: {', '.join(_values(examples, key))})")
        chosen = [e for e in chosen if str(e.metadata.get(key)) in values]
    if selection.limit is not None:
        chosen = chosen[: max(selection.limit, 0)]
    if not chosen:
        raise InputError("the selection is empty: no example matches --ids/--limit/filters")
    return chosen


def inputs_hash(examples: Sequence[Example]) -> str:
    """sha256 prefix over what the systems see (id + messages), in the style of lm-eval's task hashes."""
    digest = hashlib.sha256()
    for e in sorted(examples, key=lambda e: e.id):
        digest.update(json.dumps([e.id, list(e.messages)], ensure_ascii=False, sort_keys=True).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()[:12]
