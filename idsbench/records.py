"""Reading reference data and prediction files: harness input, so problems raise InputError."""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO

from idsbench.example import METADATA_KEYS, Reference
from idsbench.locations import default_data


class InputError(ValueError):
    """Bad harness input (a file, a line, an id): raised before anything is written."""


def iter_jsonl(path: Path) -> Iterator[tuple[int, int, Any]]:
    """(line number, byte offset, object) for each non-blank line, read one line at a time.

    Lines end at "\n" only: JSON text may hold U+2028, U+0085 or form feeds unescaped (writers
    with ensure_ascii=False leave them), and `str.splitlines` would cut a model output there.
    Every malformed line is named at once, in an InputError raised after the last line."""
    problems = []
    try:
        with open(path, "rb") as handle:
            offset = 0
            for number, line in enumerate(handle, start=1):
                start, offset = offset, offset + len(line)
                row = _json_line(line, f"{path}:{number}", problems)
                if row is not None:
                    yield number, start, row[0]
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc}") from exc
    if problems:
        raise InputError("\n".join(problems))


def _json_line(line: bytes, where: str, problems: list[str]) -> tuple[Any] | None:
    """(object,) for a JSON line, None for a blank one or (noting the problem) a bad one."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(f"{where}: not UTF-8: {exc.reason} at byte {exc.start}")
        return None
    if not text.strip():
        return None
    try:
        return (json.loads(text),)
    except json.JSONDecodeError as exc:
        problems.append(f"{where}: not JSON: {exc.msg} (column {exc.colno})")
        return None


def read_jsonl(path: Path) -> list[tuple[int, Any]]:
    """(line number, object) for each non-blank line; every malformed line is named at once."""
    return [(number, row) for number, _, row in iter_jsonl(path)]


def reference_from_record(record: Mapping[str, Any]) -> Reference:
    """A dataset record (published schema) -> Reference; the gold is `gold_ids` or the last message."""
    gold = record.get("gold_ids")
    if gold is None:
        messages = record.get("messages") or []
        gold = messages[-1]["content"] if messages and messages[-1].get("role") == "assistant" else None
    if not isinstance(record.get("id"), str) or not isinstance(gold, str):
        raise InputError(f"record {record.get('id')!r}: needs a string id and a gold IDS")
    return Reference(record["id"], gold, {k: record[k] for k in METADATA_KEYS if k in record})


def data_files(data: Path | None = None) -> list[Path]:
    """The JSONL files of `data` (a file or a folder; default: locations.default_data())."""
    data = default_data() if data is None else Path(data)
    if data.is_file():
        return [data]
    files = sorted(data.glob("test-*.jsonl")) or sorted(data.glob("*.jsonl"))
    if not files:
        raise InputError(f"{data}: no JSONL data files found")
    return files


def iter_records(data: Path | None = None) -> Iterator[tuple[str, int, dict]]:
    """(file, line, record) for every record of a JSONL file or a data folder, one at a time."""
    for path in data_files(data):
        for number, _, record in iter_jsonl(path):
            yield str(path), number, record


def load_records(data: Path | None = None) -> list[tuple[str, int, dict]]:
    """(file, line, record) for every record of a JSONL file or a data folder."""
    return list(iter_records(data))


def load_references(data: Path | None = None) -> list[Reference]:
    """All records of a JSONL file or a data folder, sorted by id."""
    references, problems = [], []
    # One copy of equal golds and of equal metadata: k samples of a prompt need one, not k, and
    # 100,000 references share a few hundred metadata combinations.
    golds: dict[str, str] = {}
    metadata: dict[str, Mapping[str, Any]] = {}
    for path, number, record in iter_records(data):  # records (with their prompts) are not kept
        try:
            reference = reference_from_record(record)
            key = json.dumps(reference.metadata, sort_keys=True)
            references.append(replace(reference, gold=golds.setdefault(reference.gold, reference.gold),
                                      metadata=metadata.setdefault(key, reference.metadata)))
        except (InputError, KeyError, TypeError, AttributeError) as exc:
            problems.append(f"{path}:{number}: {exc}")
    duplicates = [i for i, c in Counter(r.id for r in references).items() if c > 1]
    problems += [f"duplicate reference id {i!r}" for i in sorted(duplicates)]
    if problems:
        raise InputError("\n".join(problems))
    return sorted(references, key=lambda r: r.id)


def index_predictions(path: Path, reference_ids: Sequence[str]) -> dict[str, int]:
    """{id: byte offset of its line}, the file checked like `load_predictions` but no output kept:
    scoring then reads each prediction when it is its turn (`read_predictions`)."""
    seen: dict[str, int] = {}
    problems = []
    for number, offset, row in iter_jsonl(path):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            problems.append(f"{path}:{number}: expected an object with a string \"id\"")
            continue
        raw = row.get("prediction")
        if raw is not None and not isinstance(raw, str):
            problems.append(f"{path}:{number}: \"prediction\" must be a string or null")
        elif row["id"] in seen:
            problems.append(f"{path}:{number}: duplicate id {row['id']!r}")
        seen[row["id"]] = offset
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


def _prediction_at(handle: BinaryIO, offset: int) -> str | None:
    handle.seek(offset)
    return json.loads(handle.readline().decode("utf-8"))["prediction"]


def read_predictions(path: Path, offsets: Mapping[str, int], ids: Sequence[str]) -> Iterator[str | None]:
    """The raw outputs of `ids`, in that order, each read when it is asked for."""
    with open(path, "rb") as handle:
        for i in ids:
            yield _prediction_at(handle, offsets[i])


def load_predictions(path: Path, reference_ids: Sequence[str]) -> dict[str, str | None]:
    """{id: raw output or None (a failed generation)}, checked against the reference ids."""
    offsets = index_predictions(path, reference_ids)
    return dict(zip(reference_ids, read_predictions(path, offsets, reference_ids)))
