"""A task plan: every choice of a generated task, typed, before anything is written.

The gold (gold.py) and the requests (render_en.py, render_ja.py) are pure functions of a plan, so the two
languages and the two input formats of one task say the same things and require the same gold.
"""
from __future__ import annotations

from dataclasses import dataclass

from .lexicon import Group, Words
from .traps import Trap, ptype_trap
from .values import Format, Range


@dataclass(frozen=True)
class Text:
    """A name that may differ between the languages (the client's own names); IFC names are the same."""

    en: str
    ja: str

    def of(self, language: str) -> str:
        return self.en if language == "en" else self.ja

    @classmethod
    def same(cls, text: str) -> Text:
        return cls(text, text)


@dataclass(frozen=True)
class Brief:
    """What every item of a task draws from: the client's own properties (mode and set) and the one
    jurisdiction whose standards give grades and classes (jp | intl)."""

    client_mode: str | None  # client | any-set | None
    client_set: Text | None
    jurisdiction: str


@dataclass(frozen=True)
class Presence:
    """The item must be given (no value restriction)."""


@dataclass(frozen=True)
class Equals:
    gold: str  # the value as the gold writes it (true, EI60, NEW, ...)
    words: Words | None = None  # trade words for it, when the request does not write it as is


@dataclass(frozen=True)
class OneOf:
    gold: tuple[str, ...]
    words: tuple[Words | None, ...]


Value = Presence | Equals | OneOf | Range | Format


@dataclass(frozen=True)
class Requirement:
    source: str  # standard | quantity | client | any-set | attribute
    key: str  # the lexicon key of the concept, client property or attribute
    pset: Text | None  # None for attributes and any-set properties
    name: Text  # property or attribute name, as the gold writes it
    data_type: str | None  # None for attributes
    value: Value
    cardinality: str = "required"  # required | optional | prohibited
    traps: tuple[Trap, ...] = ()
    words: Words | None = None  # the item's words where the group's trade names it otherwise
    normed: bool = False  # the value is a class of the task's jurisdiction's standards

    @property
    def facet(self) -> str:
        return "attribute" if self.source == "attribute" else "property"

    @property
    def flag(self) -> bool:
        """A yes/no item (IfcLogical's third answer, unknown, is never asked for)."""
        return self.data_type in ("IFCBOOLEAN", "IFCLOGICAL")


@dataclass(frozen=True)
class SpecPlan:
    group: Group
    occurrence: str  # required (must exist) | optional (where there are any) | prohibited (must not exist)
    requirements: tuple[Requirement, ...]
    filter: Requirement | None = None  # a property in the applicability ("external walls")

    def traps(self, version: str) -> tuple[Trap, ...]:
        reqs = self.requirements + ((self.filter,) if self.filter else ())
        return ptype_trap(version, self.group) + tuple(t for r in reqs for t in r.traps)


@dataclass(frozen=True)
class Change:
    """What a follow-up request asks for; `spec` indexes the previous turn's specifications."""

    kind: str  # add-requirement | change-bound | remove-requirement | version-upgrade | group-split
    spec: int = 0
    requirement: Requirement | None = None  # added, or the changed one in its new form
    old: Requirement | None = None  # the removed one, or the changed one before
    versions: tuple[str, ...] = ()  # version-upgrade: the new versions
    moved: tuple[Trap, ...] = ()  # version-upgrade: homes that move


@dataclass(frozen=True)
class Turn:
    """The state after a message. A revision message that asks for several changes keeps the states between
    them in `steps` (each with its own change), so each change can be worded against the state it changes."""

    versions: tuple[str, ...]
    specs: tuple[SpecPlan, ...]
    change: Change | None = None
    steps: tuple[Turn, ...] = ()

    @property
    def changes(self) -> tuple[Change, ...]:
        return tuple(t.change for t in (*self.steps, self) if t.change is not None)


@dataclass(frozen=True)
class TaskPlan:
    index: int
    seed: int
    difficulty: str  # easy | medium | hard
    domain: str
    input_format: str  # csv | natural_language
    turns: tuple[Turn, ...]
    spelled: bool  # the request spells IFC names (easy)
    client_set: Text | None
    slug: str
    jurisdiction: str = "intl"

    @property
    def final(self) -> Turn:
        return self.turns[-1]

    @property
    def traps(self) -> tuple[Trap, ...]:
        """Distinct traps of the final gold and of the changes asked for, in order."""
        found = [t for s in self.final.specs for t in s.traps(self.final.versions[0])]
        found += [t for turn in self.turns for change in turn.changes for t in change.moved]
        return tuple(dict.fromkeys(found))

    def normed(self) -> bool:
        """A value of a standard's classes is asked (the request then says whose standards)."""
        return any(r.normed for turn in self.turns for s in turn.specs
                   for r in s.requirements + ((s.filter,) if s.filter else ()))

    def uses(self, source: str) -> bool:
        return any(r.source == source for turn in self.turns for s in turn.specs
                   for r in s.requirements + ((s.filter,) if s.filter else ()))
