"""How much of the gold's standard IFC vocabulary a request spells out (the version-2 leakage share).

Counted names: the gold's entity classes, predefined types, Pset_/Qto_ set names, the property names inside
those sets, and attribute names (data types, custom sets and their properties apart). A name is spelled out
when it occurs in a user turn as a whole word: classes and sets ignoring case (IFCWALL as IfcWall),
predefined types, properties and attributes with their case ("each door needs a name" does not count).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .golds import Gold

LIMITS = {"all": 0.20, "natural_language": 0.10, "csv": 0.35}
_STANDARD_SET = re.compile(r"(?i)^(pset|qto)_")
_CASELESS = ("class", "pset")


@dataclass(frozen=True)
class Leakage:
    counted: tuple[str, ...]  # "kind:name", sorted
    spelled: tuple[str, ...]

    @property
    def share(self) -> float:
        return len(self.spelled) / len(self.counted) if self.counted else 0.0


def standard_names(gold: Gold) -> set[tuple[str, str]]:
    names: set[tuple[str, str]] = set()
    for f in gold.facets:
        if f.kind == "entity":
            names |= {("class", n) for n in f.value("name").names}
            names |= {("ptype", n) for n in f.value("predefinedType").names}
        elif f.kind == "attribute":
            names |= {("attr", n) for n in f.value("name").names}
        elif f.kind == "property":
            sets = [s for s in f.value("propertySet").names if _STANDARD_SET.match(s)]
            names |= {("pset", s) for s in sets}
            if sets:
                names |= {("prop", n) for n in f.value("baseName").names}
    return names


def spelled_out(kind: str, name: str, text: str) -> bool:
    flags = re.IGNORECASE if kind in _CASELESS else 0
    return re.search(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])", text, flags) is not None


def leakage(gold: Gold, user_turns: list[str]) -> Leakage:
    text = "\n".join(user_turns)
    names = sorted(standard_names(gold))
    return Leakage(tuple(f"{k}:{n}" for k, n in names),
                   tuple(f"{k}:{n}" for k, n in names if spelled_out(k, n, text)))


def pooled(items: list[Leakage]) -> float:
    counted = sum(len(x.counted) for x in items)
    return sum(len(x.spelled) for x in items) / counted if counted else 0.0
