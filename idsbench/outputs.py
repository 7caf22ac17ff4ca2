"""Output folders of `score` and `run`: results are never replaced by another command's, or by those of
another predictions file, unless --overwrite says so.

A folder's results are recognised by its summary.json: `run` records the generation it made, `score`
the predictions file it read. Writing again what was written before is allowed (a rerun, or the resume of
an interrupted `run`); anything else stops the command before it writes, naming what is there.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from idsbench.records import InputError

RESULT_FILES = ("results.jsonl", "summary.json", "report.html")


@dataclass(frozen=True)
class Writer:
    """Who writes (or wrote) a folder's results: `run`, or `score` of one predictions file."""

    command: str  # "run" | "score"
    predictions: Path | None = None  # score: the file scored

    def describe(self) -> str:
        return "`ids-bench run`" if self.command == "run" else f"`ids-bench score --predictions {self.predictions}`"

    def same_as(self, other: Writer) -> bool:
        if self.command != other.command:
            return False
        return self.command == "run" or _resolved(self.predictions) == _resolved(other.predictions)


def _resolved(path: Path | None) -> Path | None:
    return None if path is None else Path(path).resolve()


def recorded_writer(folder: Path) -> Writer | None:
    """The writer of the results in `folder`, from its summary.json; None when it cannot tell."""
    try:
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        summary = None
    if isinstance(summary, dict) and "generation" in summary:
        return Writer("run")
    if isinstance(summary, dict) and isinstance(summary.get("predictions"), str):
        return Writer("score", Path(summary["predictions"]))
    if summary is None and (folder / "predictions.jsonl").is_file():
        return Writer("run")  # a run stopped after generating, before its summary was written
    return None


def claim_output(folder: Path, writer: Writer, *, overwrite: bool = False) -> None:
    """Raise InputError when `folder` holds results that `writer` must not silently replace."""
    if overwrite or not any((folder / name).exists() for name in RESULT_FILES):
        return
    found = recorded_writer(folder)
    if found is not None and found.same_as(writer):
        return
    what = f"the results of {found.describe()}" if found else "results of another or an unfinished command"
    raise InputError(f"{folder} already holds {what}; choose another folder with --out, or add --overwrite "
                     "to replace them")


def score_folder(predictions: Path) -> Path:
    """`score`'s default output folder, apart from the `runs/<model>` of `run`: runs/<name>-score, where
    the name is the predictions file's, or its folder's for a run's predictions.jsonl."""
    name = predictions.parent.resolve().name if predictions.stem == "predictions" else predictions.stem
    return Path("runs") / f"{name or 'predictions'}-score"
