"""The rounds journal of a repair run (`predictions.rounds.jsonl` beside predictions.jsonl): each round
is appended the moment it is answered, so that an interrupted run resumes an unfinished example at the
round it reached. predictions.jsonl keeps one row per finished example (all its rounds inside); the
journal is removed once every example it mentions is finished.

Only answered rounds are journaled: a failed generation ends its example (a failed row), and
`--retry-failed` resumes it from its last answered round.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from idsbench.records import InputError

from .repair import Round


def journal_path(predictions: Path) -> Path:
    return predictions.with_name(f"{predictions.stem}.rounds.jsonl")


def _rows(path: Path) -> Iterable[tuple[int, dict]]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a crash: its round is asked for again
        if isinstance(row, dict) and isinstance(row.get("id"), str) and isinstance(row.get("round"), int):
            yield number, row


def read_journal(path: Path, run_config: str) -> dict[str, list[Round]]:
    """Answered rounds by example id, in order (0, 1, ... without gaps; a round answered twice: the last)."""
    if not path.exists():
        return {}
    by_id: dict[str, dict[int, dict]] = {}
    for number, row in _rows(path):
        if row.get("run_config") != run_config:
            raise InputError(f"{path}:{number}: written by another configuration (run_config "
                             f"{row.get('run_config')} != {run_config}); use another --out, or --overwrite")
        by_id.setdefault(row["id"], {})[row["round"]] = row
    journal = {}
    for example_id, rounds in by_id.items():
        ordered = []
        while len(ordered) in rounds:
            ordered.append(Round.from_json(rounds[len(ordered)]))
        journal[example_id] = ordered
    return journal


class Journal:
    """Appends rounds; used from the one writing thread only."""

    def __init__(self, path: Path, run_config: str) -> None:
        self.path, self.run_config = path, run_config
        self._handle: TextIO | None = None

    def __enter__(self) -> Journal:
        self._handle = open(self.path, "a", encoding="utf-8")
        return self

    def write(self, example_id: str, answered: Round) -> None:
        assert self._handle is not None, "use Journal as a context manager"
        row = {"id": example_id, "run_config": self.run_config, **answered.to_json()}
        self._handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._handle.flush()

    def __exit__(self, *exc_info) -> None:
        if self._handle is not None:
            self._handle.close()


def close_journal(path: Path, finished: set[str]) -> None:
    """Remove the journal once every example in it is `finished` (has an answer in predictions.jsonl)."""
    if path.exists() and all(row["id"] in finished for _, row in _rows(path)):
        path.unlink()
