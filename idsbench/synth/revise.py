"""Multi-turn revisions: the client asks for a change to the IDS the conversation already holds.

Kinds: a requirement added, a bound changed, a requirement dropped, a version upgrade (every home is looked
up again in the new version; some move, which is the point), and a group split (one group becomes two by a
property, each with its own requirements). What the change does not touch stays as it was.
"""
from __future__ import annotations

import random
from dataclasses import replace

from .lexicon import lexicon
from .plan import Brief, Change, Equals, Requirement, SpecPlan, Text, Turn
from .requirements import clashes, compatible, options, requirement
from .settings import Setting
from .narrow import fits
from .traps import enum_trap, home_traps
from .values import Range, shift_range
from .vocab import common_home, group_exists, home

UPGRADES = {("IFC2X3",): ("IFC4",), ("IFC4",): ("IFC4X3_ADD2",)}
SPLIT_BY = ("IsExternal", "LoadBearing")  # narrowed as sample.FILTERS allows


def _editable(turn: Turn) -> list[int]:
    return [i for i, s in enumerate(turn.specs) if s.occurrence != "prohibited"]


def _replace_spec(turn: Turn, index: int, spec: SpecPlan, change: Change) -> Turn:
    specs = turn.specs[:index] + (spec,) + turn.specs[index + 1:]
    return Turn(turn.versions, specs, change)


def _add(rng, setting, turn: Turn, brief: Brief) -> Turn | None:
    index = rng.choice(_editable(turn))
    spec = turn.specs[index]
    taken = {r.name.en for r in spec.requirements} | ({spec.filter.name.en} if spec.filter else set())
    pool = [o for o in options(turn.versions, spec.group, brief.client_mode, brief.jurisdiction)
            if (o.home.name if o.home else o.key) not in taken and o.source != "attribute"
            and not clashes(o, {r.key for r in spec.requirements})]
    if not pool:
        return None
    added = requirement(rng, setting, turn.versions, spec.group, rng.choice(pool), brief)
    if not compatible(added, spec.requirements + ((spec.filter,) if spec.filter else ())):
        return None
    return _replace_spec(turn, index, replace(spec, requirements=spec.requirements + (added,)),
                         Change("add-requirement", index, added))


def _bound(rng, setting, turn: Turn, *_) -> Turn | None:
    found = [(i, j) for i, s in enumerate(turn.specs) for j, r in enumerate(s.requirements)
             if isinstance(r.value, Range)]
    if not found:
        return None
    index, position = rng.choice(found)
    spec = turn.specs[index]
    old = spec.requirements[position]
    typical = concept_of_requirement(old).typical_for(spec.group)
    new_range = shift_range(rng, old.value, typical)
    if new_range is None:
        return None
    new = replace(old, value=new_range)
    reqs = spec.requirements[:position] + (new,) + spec.requirements[position + 1:]
    return _replace_spec(turn, index, replace(spec, requirements=reqs), Change("change-bound", index, new, old))


def concept_of_requirement(req: Requirement):
    lex = lexicon()
    if req.source in ("client", "any-set"):
        return lex.client_properties[req.key]
    return lex.quantities[req.key] if req.source == "quantity" else lex.properties[req.key]


def _remove(rng, setting, turn: Turn, *_) -> Turn | None:
    found = [i for i in _editable(turn) if len(turn.specs[i].requirements) >= 2]
    if not found:
        return None
    index = rng.choice(found)
    spec = turn.specs[index]
    position = rng.randrange(len(spec.requirements))
    old = spec.requirements[position]
    reqs = spec.requirements[:position] + spec.requirements[position + 1:]
    return _replace_spec(turn, index, replace(spec, requirements=reqs), Change("remove-requirement", index, None, old))


def _rehome(req: Requirement, versions: tuple[str, ...], group) -> Requirement | None:
    if req.source not in ("standard", "quantity"):
        return req
    concept = lexicon().quantities[req.key] if req.source == "quantity" else lexicon().properties[req.key]
    found = common_home(versions, group, concept)
    if found is None:
        return None
    if isinstance(req.value, Equals) and concept.enumeration and req.value.gold not in found.enum_values:
        return None  # the value asked for is no enumerator there
    traps = home_traps(versions[0], found, concept.quantity)
    traps += enum_trap(versions[0], found) if any(t.kind == "enum" for t in req.traps) else ()
    return replace(req, pset=Text.same(found.pset), name=Text.same(found.name), data_type=found.data_type,
                   traps=traps + tuple(t for t in req.traps if t.kind == "unit"))


def _upgrade(rng, setting, turn: Turn, *_) -> Turn | None:
    versions = UPGRADES.get(turn.versions)
    if versions is None:
        return None
    specs, moved = [], []
    for spec in turn.specs:
        if not spec.group.usable_in(versions) or not all(group_exists(v, spec.group) for v in versions):
            return None
        reqs = tuple(_rehome(r, versions, spec.group) for r in spec.requirements)
        narrow = _rehome(spec.filter, versions, spec.group) if spec.filter else None
        if any(r is None for r in reqs) or (spec.filter and narrow is None):
            return None
        moved += [t for o, n in zip(spec.requirements, reqs)
                  if (o.pset, o.name, o.data_type) != (n.pset, n.name, n.data_type) for t in n.traps
                  if t.kind in ("home", "moved", "datatype")]
        specs.append(replace(spec, requirements=reqs, filter=narrow))
    if not moved and rng.random() < 0.7:
        return None  # an upgrade is worth asking for mostly where a home moves
    return Turn(versions, tuple(specs), Change("version-upgrade", versions=versions, moved=tuple(moved)))


def _split(rng, setting, turn: Turn, brief: Brief) -> Turn | None:
    for index in _editable(turn):
        spec = turn.specs[index]
        for key in SPLIT_BY:
            concept = lexicon().properties[key]
            if not fits(key, spec.group):
                continue
            found = common_home(turn.versions, spec.group, concept)
            if spec.filter or found is None or any(r.name.en == found.name for r in spec.requirements):
                continue
            yes, no = (Requirement("standard", key, Text.same(found.pset), Text.same(found.name), found.data_type,
                                   Equals(v, w)) for v, w in (("true", concept.true), ("false", concept.false)))
            if not compatible(no, spec.requirements):
                continue  # internal walls keep no U-value
            added = _add(rng, setting, Turn(turn.versions, (replace(spec, filter=yes),)), brief)
            if added is None:
                return None
            first = added.specs[0]
            second = replace(spec, filter=no)
            specs = turn.specs[:index] + (first, second) + turn.specs[index + 1:]
            return Turn(turn.versions, specs, Change("group-split", index, added.change.requirement, yes))
    return None


KINDS = {"add-requirement": _add, "change-bound": _bound, "remove-requirement": _remove,
         "version-upgrade": _upgrade, "group-split": _split}


def touched(before: Turn, after: Turn) -> set[tuple[str, str]]:
    """The (group, item) pairs a change adds, changes or drops: a message names each item once at most."""
    change = after.change
    if change.kind == "version-upgrade":
        return set()
    group = before.specs[change.spec].group.key
    return {(group, r.name.en) for r in (change.requirement, change.old) if r is not None}


def _next(rng: random.Random, setting: Setting, turn: Turn, brief: Brief, used=(),
          items=frozenset()) -> Turn | None:
    kinds = rng.sample(list(KINDS), len(KINDS))
    if rng.random() < setting.upgrade:  # homes that move or are renamed with the version: tried first
        kinds.sort(key=lambda k: k != "version-upgrade")
    for kind in kinds:
        if kind in used:  # one change of each kind per message
            continue
        found = KINDS[kind](rng, setting, turn, brief)
        if found is not None and not touched(turn, found) & items:
            return found
    return None


def _message(rng: random.Random, setting: Setting, turn: Turn, brief: Brief) -> Turn | None:
    """The state after one revision message of setting.changes changes; the states between in `steps`."""
    states, items = [turn], set()
    for _ in range(rng.randint(*setting.changes)):
        found = _next(rng, setting, states[-1], brief, {t.change.kind for t in states[1:]},
                      frozenset(items))
        if found is None:
            break
        items |= touched(states[-1], found)
        states.append(found)
    if len(states) == 1:
        return None
    return replace(states[-1], steps=tuple(states[1:-1]))


def revise(rng: random.Random, setting: Setting, turns: tuple[Turn, ...], brief: Brief) -> tuple[Turn, ...]:
    """One revision message (two for some hard tasks) after the first turn; unchanged when none applies."""
    count = 2 if rng.random() < setting.second_revision else 1
    for _ in range(count):
        found = _message(rng, setting, turns[-1], brief)
        if found is None:
            break
        turns += (found,)
    return turns


__all__ = ["home", "revise"]
