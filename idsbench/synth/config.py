"""What a generation run is asked for (kept apart from the run itself, so the command line loads fast)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Options:
    n: int
    seed: int
    difficulty: str = "mixed"
    languages: tuple[str, ...] = ("en", "ja")
    split: str = "train"
    prove: bool = False
    workers: int = 1
    name: str | None = None  # a pinned set's name (synth-eval-v1)
