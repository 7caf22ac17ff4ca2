"""Reading reference data and prediction files: harness input, so problems raise InputError."""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .evaluation import METADATA_KEYS, Reference

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "data"


class InputError(ValueError):
    """Bad harness input (a file, a line, an id): raised before anything is written."""


def read_jsonl(path: Path) -> list[tuple[int, Any]]:
    """(line number, object) for each non-blank line; every malformed line is named at once."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from exc
    rows, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            problems.append(f"{path}:{number}: not JSON: {exc.msg} (column {exc.colno})")
    if problems:
        raise InputError("\n".join(problems))
    return rows


def reference_from_record(record: Mapping[str, Any]) -> Reference:
    """A dataset record (published schema) -> Reference; the gold is `gold_ids` or the last message."""
    gold = record.get("gold_ids")
    if gold is None:
        messages = record.get("messages") or []
        gold = messages[-1]["content"] if messages and messages[-1].get("role") == "assistant" else None
    if not isinstance(record.get("id"), str) or not isinstance(gold, str):
        raise InputError(f"record {record.get('id')!r}: needs a string id and a gold IDS")
    return Reference(record["id"], gold, {k: record[k] for k in METADATA_KEYS if k in record})


def data_files(data: Path) -> list[Path]:
    data = Path(data)
    if data.is_file():
        return [data]
    files = sorted(data.glob("test-*.jsonl")) or sorted(data.glob("*.jsonl"))
    if not files:
        raise InputError(f"{data}: no JSONL data files found")
    return files


def load_records(data: Path = DEFAULT_DATA) -> list[tuple[str, int, dict]]:
    """(file, line, record) for every record of a JSONL file or a data folder."""
    rows = []
    for path in data_files(data):
        rows += [(str(path), number, record) for number, record in read_jsonl(path)]
    return rows


def load_references(data: Path = DEFAULT_DATA) -> list[Reference]:
    """All records of a JSONL file or a data folder, sorted by id."""
    references, problems = [], []
    for path, number, record in load_records(data):
        try:
            references.append(reference_from_record(record))
        except (InputError, KeyError, TypeError, AttributeError) as exc:
            problems.append(f"{path}:{number}: {exc}")
    duplicates = [i for i, c in Counter(r.id for r in references).items() if c > 1]
    problems += [f"duplicate reference id {i!r}" for i in sorted(duplicates)]
    if problems:
        raise InputError("\n".join(problems))
    return sorted(references, key=lambda r: r.id)


def load_predictions(path: Path, reference_ids: list[str]) -> dict[str, str | None]:
    """{id: raw output or None (a failed generation)}, checked against the reference ids."""
    seen: dict[str, str | None] = {}
    problems = []
    for number, row in read_jsonl(path):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            problems.append(f"{path}:{number}: expected an object with a string \"id\"")
            continue
        raw = row.get("prediction")
        if raw is not None and not isinstance(raw, str):
            problems.append(f"{path}:{number}: \"prediction\" must be a string or null")
        elif row["id"] in seen:
            problems.append(f"{path}:{number}: duplicate id {row['id']!r}")
        seen[row["id"]] = raw
    known = set(reference_ids)
    unknown = sorted(set(seen) - known)
    missing = [i for i in reference_ids if i not in seen]
    if unknown:
        problems.append(f"{path}: ids not in the data: {', '.join(unknown[:20])}"
                        + (f" (+{len(unknown) - 20} more)" if len(unknown) > 20 else ""))
    if missing:
        problems.append(f"{path}: missing predictions for: {', '.join(missing[:20])}"
                        + (f" (+{len(missing) - 20} more)" if len(missing) > 20 else ""))
    if problems:
        raise InputError("\n".join(problems))
    return seen
