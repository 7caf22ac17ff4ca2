"""Composition of the dataset versus its targets (minimums and maximums, kept as data in data/composition.json).

Pure functions over per-scenario facts; build.composition_of feeds them, and the markdown table
(`composition_table`) serves the report, the dataset card and gate g.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ScenarioFacts:
    """What one scenario contributes: its metadata keys plus the flags of its final en gold."""

    scenario_id: str
    keys: frozenset[str]


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Row:
    target: Target
    actual: int

    @property
    def met(self) -> bool:
        lo, hi = self.target.minimum, self.target.maximum
        return (lo is None or self.actual >= lo) and (hi is None or self.actual <= hi)


@dataclass(frozen=True)
class Composition:
    n_scenarios: int
    target_scenarios: int
    rows: tuple[Row, ...]

    @property
    def complete(self) -> bool:
        return self.n_scenarios >= self.target_scenarios

    @property
    def unmet(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if not r.met)


def load_targets(path: Path) -> tuple[int, tuple[Target, ...]]:
    """Read data/composition.json; errors name the file (and the line for JSON syntax errors)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}") from None
    targets = tuple(Target(t["key"], t["label"], t.get("min"), t.get("max")) for t in raw["targets"])
    return int(raw["target_scenarios"]), targets


def metadata_keys(meta: dict) -> set[str]:
    """Keys contributed by scenario.json (the gold adds facet/restriction flags)."""
    keys = {f"domain:{meta.get('domain')}", f"input_format:{meta.get('input_format')}",
            f"turn_type:{meta.get('turn_type')}"}
    versions = meta.get("ifc_versions") or []
    keys |= {f"ifc_version:{v}" for v in versions}
    if len(versions) >= 2:
        keys.add("two_versions")
    return keys


def compose(facts: list[ScenarioFacts], target_scenarios: int, targets: tuple[Target, ...]) -> Composition:
    rows = tuple(Row(t, sum(t.key in f.keys for f in facts)) for t in targets)
    return Composition(len(facts), target_scenarios, rows)


def bound(t: Target) -> str:
    if t.minimum is not None and t.maximum is not None:
        return f"{t.minimum}–{t.maximum}"
    return f"≥ {t.minimum}" if t.minimum is not None else f"≤ {t.maximum}"


def due(t: Target, n: int, total: int) -> int | None:
    """Share of a minimum due at n of total scenarios: while scenarios are being written, the pace to keep."""
    return None if t.minimum is None else math.ceil(t.minimum * n / total)


def behind(c: Composition) -> tuple[Row, ...]:
    """Unmet rows that are also below their pro-rata share (all unmet rows once the set is complete)."""
    if c.complete:
        return c.unmet
    return tuple(r for r in c.unmet
                 if r.target.minimum is None or r.actual < due(r.target, c.n_scenarios, c.target_scenarios))


def composition_table(c: Composition) -> str:
    """Markdown table: scenario counts per criterion, the target, and whether it is met."""
    partial = not c.complete
    head = "| criterion | scenarios | target |" + (" due at this size |" if partial else "") + " met |"
    sep = "|---|---:|---:|" + ("---:|" if partial else "") + ":---:|"
    lines = [head, sep]
    for r in c.rows:
        share = due(r.target, c.n_scenarios, c.target_scenarios)
        cell = f" {'' if share is None else share} |" if partial else ""
        label = r.target.label.replace("|", "\\|")  # a bare | would split the markdown cell
        lines.append(f"| {label} | {r.actual} | {bound(r.target)} |{cell} {'yes' if r.met else 'no'} |")
    return "\n".join(lines)


def progress_line(c: Composition) -> str:
    pct = 100 * c.n_scenarios / c.target_scenarios if c.target_scenarios else 100
    return (f"{c.n_scenarios} of {c.target_scenarios} scenarios ({pct:.0f}%); "
            f"{len(c.rows) - len(c.unmet)}/{len(c.rows)} criteria met")
