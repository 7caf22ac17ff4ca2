"""A system turns an Example into a Generation: an endpoint or one of the offline baselines."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .examples import Example
from .predictions import Generation

BASELINES = ("gold", "copy-previous", "rule-based")
SYSTEMS = (*BASELINES, "endpoint")


class SystemUnreachable(Exception):
    """The system cannot be reached at all (an endpoint refusing its first connection): the run stops
    instead of recording a failure for every example, and nothing is written for the example tried."""


@dataclass(frozen=True)
class System:
    """`settings` is everything that changes the output; it is hashed into `run_config` and provenance."""

    name: str
    call: Callable[[Example], Generation]
    settings: dict[str, Any] = field(default_factory=dict)
    needs_gold: bool = False  # only the gold sanity check may see the answer

    @property
    def model(self) -> str:
        return str(self.settings.get("model") or self.name)

    @property
    def run_config(self) -> str:
        text = json.dumps({"system": self.name, **self.settings}, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]

    def tags(self) -> dict[str, str]:
        protocol = {"protocol": self.settings["protocol"]} if self.settings.get("protocol") else {}
        return {"system": self.name, "model": self.model, "run_config": self.run_config, **protocol}


def baseline_system(name: str) -> System:
    """The offline baselines: deterministic, no network."""
    from . import baselines, rulebased  # noqa: PLC0415  (rule-based pulls in ifcopenshell)

    calls: dict[str, tuple[Callable[[Example], str], bool]] = {
        "gold": (baselines.gold, True),
        "copy-previous": (baselines.copy_previous, False),
        "rule-based": (rulebased.generate_ids, False),
    }
    if name not in calls:
        raise ValueError(f"unknown baseline {name!r}; choose from {', '.join(BASELINES)}")
    make, needs_gold = calls[name]
    return System(name, lambda example: Generation(make(example), finish_reason="stop"),
                  {"model": name, "version": baselines.BASELINE_VERSION}, needs_gold)
