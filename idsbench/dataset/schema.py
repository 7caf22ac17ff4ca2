"""The record schema of the dataset: fields and their features, the values each may take, the configs,
and the validation of one record."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from datasets import Features, List, Value

OFFICIAL_HUB_ID = "ONESTRUCTION/Ishigaki-IDS-Bench"
SPLIT = "test"
LANGUAGES = ("en", "ja")
INPUT_FORMATS = ("csv", "natural_language")
TURN_TYPES = ("single_turn", "multi_turn")
DOMAINS = ("architectural", "structural", "mep", "civil")
IFC_VERSIONS = ("IFC2X3", "IFC4", "IFC4X3_ADD2")
MESSAGE_COUNTS = {"single_turn": (2,), "multi_turn": (4, 6)}

FEATURES = Features({
    "id": Value("string"),
    "scenario_id": Value("string"),
    "messages": List({"role": Value("string"), "content": Value("string")}),
    "language": Value("string"),
    "input_format": Value("string"),
    "turn_type": Value("string"),
    "domain": Value("string"),
    "ifc_versions": List(Value("string")),
    "gold_ids": Value("string"),
    # Derived from gold_ids at build time, for breakdowns; the official release may not carry them.
    "n_specifications": Value("int32"),
    "facet_kinds": List(Value("string")),
    "restriction_kinds": List(Value("string")),
    # Which mappings the example exercises (version 2; idsbench.dataset.skills): class-mapping, ...
    "skills": List(Value("string")),
})
CORE_FIELDS = tuple(FEATURES)[:9]
DERIVED_FIELDS = tuple(FEATURES)[9:]


@dataclass(frozen=True)
class Config:
    """A dataset config: YAML selects files by glob; the same subset expressed as a column filter."""

    glob: str
    column: Optional[str] = None
    value: Optional[str] = None


CONFIGS: dict[str, Config] = {
    "all": Config("data/test-*.jsonl"),
    "en": Config("data/test-en-*.jsonl", "language", "en"),
    "ja": Config("data/test-ja-*.jsonl", "language", "ja"),
    "csv": Config("data/test-*-csv-*.jsonl", "input_format", "csv"),
    "natural_language": Config("data/test-*-natural_language-*.jsonl", "input_format", "natural_language"),
    "single_turn": Config("data/test-*-single_turn.jsonl", "turn_type", "single_turn"),
    "multi_turn": Config("data/test-*-multi_turn.jsonl", "turn_type", "multi_turn"),
}
DEFAULT_CONFIG = "all"
ID_RE = re.compile(r"^(s\d{3})-(en|ja)$")


def data_file_name(language: str, input_format: str, turn_type: str) -> str:
    return f"data/test-{language}-{input_format}-{turn_type}.jsonl"


def _choice(rec: dict, key: str, allowed: tuple[str, ...]) -> list[str]:
    return [] if rec.get(key) in allowed else [f"{key} must be one of {list(allowed)}, got {rec.get(key)!r}"]


def _message_problems(rec: dict) -> list[str]:
    msgs = rec.get("messages")
    if not isinstance(msgs, list) or not msgs:
        return ["messages must be a non-empty list of {role, content}"]
    problems = []
    for i, m in enumerate(msgs):
        want = "user" if i % 2 == 0 else "assistant"
        if not isinstance(m, dict) or set(m) != {"role", "content"}:
            problems.append(f"messages[{i}] must have exactly the keys role and content")
        elif m["role"] != want:
            problems.append(f"messages[{i}].role is {m['role']!r}, expected {want!r} (user/assistant alternate)")
        elif not isinstance(m["content"], str) or not m["content"].strip():
            problems.append(f"messages[{i}].content is empty")
    if len(msgs) % 2:
        problems.append("the last message must be the assistant's gold IDS")
    if rec.get("turn_type") in MESSAGE_COUNTS and len(msgs) not in MESSAGE_COUNTS[rec["turn_type"]]:
        problems.append(f"{rec['turn_type']} needs {MESSAGE_COUNTS[rec['turn_type']]} messages, got {len(msgs)}")
    if not problems and rec.get("gold_ids") != msgs[-1]["content"]:
        problems.append("gold_ids differs from the last message's content")
    return problems


def validate_record(rec: dict) -> list[str]:
    """Problems with one record (empty list = valid). Derived columns are checked when present."""
    problems = [f"missing field {k!r}" for k in CORE_FIELDS if k not in rec]
    problems += [f"unknown field {k!r}" for k in rec if k not in FEATURES]
    m = ID_RE.match(str(rec.get("id", "")))
    if not m:
        problems.append(f"id {rec.get('id')!r} must look like s001-en")
    elif (rec.get("scenario_id"), rec.get("language")) != m.groups():
        problems.append(f"id {rec['id']!r} disagrees with scenario_id/language")
    problems += _choice(rec, "language", LANGUAGES) + _choice(rec, "input_format", INPUT_FORMATS)
    problems += _choice(rec, "turn_type", TURN_TYPES) + _choice(rec, "domain", DOMAINS)
    versions = rec.get("ifc_versions")
    if not isinstance(versions, list) or not versions or len(set(versions)) != len(versions) \
            or not set(versions) <= set(IFC_VERSIONS):
        problems.append(f"ifc_versions must be a non-empty list of distinct {list(IFC_VERSIONS)}, got {versions!r}")
    problems += _message_problems(rec)
    if "n_specifications" in rec and (type(rec["n_specifications"]) is not int or rec["n_specifications"] < 1):
        problems.append("n_specifications must be a positive int")
    for key in ("facet_kinds", "restriction_kinds", "skills"):
        if key in rec and not (isinstance(rec[key], list) and all(isinstance(x, str) for x in rec[key])):
            problems.append(f"{key} must be a list of strings")
    return problems
