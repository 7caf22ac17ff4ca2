"""The predictions JSONL: one row per example, appended as results arrive, resumable after a crash.

Row: {"id", "prediction" (raw output, null on failure), "finish_reason", "usage", "error", "latency_s",
"attempts", "system", "model", "run_config"}, plus "protocol" for endpoint runs, "fewshot" (the solved
examples' ids) under a few-shot protocol, and "rounds" under a repair protocol (each round's answer and
what the loop made of it, repair.Round; the row's prediction is the last answer, usage, latency and
attempts are summed). `run_config` is a hash of everything that changes the output (system, model,
endpoint, prompt, sampling, protocol), so a resume never mixes two configurations in one file.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from idsbench.records import InputError


@dataclass(frozen=True)
class Generation:
    """One system call's outcome. A failure is data: prediction None and the error text."""

    prediction: str | None
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None
    error: str | None = None
    latency_s: float = 0.0
    attempts: int = 1


def prediction_row(example_id: str, generation: Generation, tags: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": example_id, "prediction": generation.prediction, "finish_reason": generation.finish_reason,
        "usage": generation.usage, "error": generation.error, "latency_s": round(generation.latency_s, 3),
        "attempts": generation.attempts, **tags,
    }


@dataclass
class Existing:
    """What an earlier (possibly interrupted) run left: rows by id, and where the intact part ends."""

    rows: dict[str, dict] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    intact_bytes: int = 0
    dropped_tail: bool = False


def _parse_line(path: Path, number: int, raw: bytes) -> dict | None:
    try:
        row = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(row, dict) or not isinstance(row.get("id"), str):
        raise InputError(f"{path}:{number}: expected an object with a string \"id\"")
    return row


def read_existing(path: Path) -> Existing:
    """Rows already written. A broken *last* line is a crash mid-write: tolerated, to be redone."""
    existing = Existing()
    if not path.exists():
        return existing
    data = path.read_bytes()
    offset = 0
    chunks = data.split(b"\n")
    for number, raw in enumerate(chunks, start=1):
        is_last = number == len(chunks)
        end = offset + len(raw) + (0 if is_last else 1)
        if raw.strip():
            row = _parse_line(path, number, raw)
            if row is None and not is_last:
                raise InputError(f"{path}:{number}: not a JSON prediction row (the file is damaged)")
            if is_last:  # no newline after it: cut short by a crash, even if it happens to parse
                existing.dropped_tail = True
                break
            if row["id"] in existing.rows:
                raise InputError(f"{path}:{number}: duplicate id {row['id']!r} "
                                 f"(first on line {existing.lines[row['id']]})")
            existing.rows[row["id"]] = row
            existing.lines[row["id"]] = number
        existing.intact_bytes = end
        offset = end
    return existing


def _check_config(path: Path, existing: Existing, run_config: str) -> None:
    for example_id, row in existing.rows.items():
        if row.get("run_config") not in (None, run_config):
            raise InputError(
                f"{path}:{existing.lines[example_id]}: written by another configuration "
                f"(run_config {row.get('run_config')} != {run_config}: system, model, endpoint, prompt or "
                "sampling changed); use another --out, or --overwrite to start again")


def _rewrite(path: Path, rows: list[dict]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    os.replace(tmp, path)  # atomic: a crash leaves the old or the new file, never half of one


def prepare(path: Path, run_config: str, *, overwrite: bool = False, retry_failed: bool = False) -> dict[str, dict]:
    """Make `path` ready for appending and return the rows to keep (their ids are skipped)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if overwrite and path.exists():
        path.unlink()
    existing = read_existing(path)
    _check_config(path, existing, run_config)
    rows = existing.rows
    if retry_failed and any(r.get("prediction") is None for r in rows.values()):
        rows = {i: r for i, r in rows.items() if r.get("prediction") is not None}
        _rewrite(path, list(rows.values()))
    elif existing.dropped_tail:
        with open(path, "r+b") as handle:
            handle.truncate(existing.intact_bytes)
    return rows


class PredictionWriter:
    """Appends one complete line per result and flushes it; used from one thread only."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: TextIO | None = None
        self.written = 0

    def __enter__(self) -> PredictionWriter:
        needs_newline = False
        if self.path.exists() and self.path.stat().st_size > 0:
            with open(self.path, "rb") as handle:
                handle.seek(-1, os.SEEK_END)
                needs_newline = handle.read(1) != b"\n"
        self._handle = open(self.path, "a", encoding="utf-8")
        if needs_newline:  # a file edited by hand without its final newline
            self._handle.write("\n")
        return self

    def write(self, row: dict) -> None:
        assert self._handle is not None, "use PredictionWriter as a context manager"
        self._handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._handle.flush()
        self.written += 1

    def __exit__(self, *exc_info) -> None:
        if self._handle is not None:
            self._handle.close()
