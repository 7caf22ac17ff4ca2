"""From a gold IDS to its proven witness models.

1. Plan the element witnesses (witness.py).
2. Settle them: specifications of one IDS overlap (two specifications on walls, one narrowed by a
   property), so an element built for one specification may be judged by another. ifctester checks
   the draft model with the gold; where another specification rejects an element, that
   specification's required data is added, unless it touches data the witness exists for (then a
   violation or near miss is dropped as not clean, and a satisfying witness is left to fail).
3. Plan the model-level witnesses: per specification, a model with every accepted element that
   the specification does not apply to (rejected when it is required, accepted otherwise), and for
   a prohibited one the same model plus one forbidden element.
4. Prove: the gold's verdicts, from ifctester, must be the designed ones; a violation must fail
   exactly its facet, and a forbidden element only its specification.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import ifcopenshell
from ifctester import ids as ifctester_ids

from . import ifcschema
from .build import build
from .check import Outcome, Unchecked, check
from .facets import satisfy
from .witness import ACCEPTED, REJECTED, SpecPlanner, Witness, plan

MAX_ROUNDS = 4
ACCEPTING = ("satisfy", "boundary", "optional-absent")
_MISSING = object()


@dataclass
class ModelWitness:
    id: str
    kind: str  # no-applicable | prohibited-present
    spec: int
    purpose: str
    expected: str
    version: str
    members: tuple[str, ...]


@dataclass
class VersionModel:
    model: ifcopenshell.file
    elements: dict[str, int]  # witness id -> step id


@dataclass
class WitnessSet:
    """A gold's witnesses, their models, the gold's own verdicts and the proof."""

    seed: str
    witnesses: list[Witness]
    model_witnesses: list[ModelWitness]
    models: dict[str, VersionModel]  # per IFC version
    cardinality_models: dict[str, ifcopenshell.file]  # per model witness id
    verdicts: dict[str, bool]  # witness id -> the gold rejects it
    unsupported: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def proven(self) -> bool:
        return not self.failures and not self.unsupported and bool(self.verdicts)


def _value(element, key):
    if key[0] == "pset":
        return element.psets.get(key[1], {}).get(key[2], _MISSING)
    if key[0] == "attr":
        return element.attributes.get(key[1], _MISSING)
    return element.ifc_class if key[0] == "class" else element.predefined_type


def _merge(witness: Witness, planner: SpecPlanner) -> bool:
    """Add what `planner`'s specification requires, unless it changes data the witness owns."""
    if planner.spec.maxOccurs == 0:
        return _avoid_prohibited(witness, planner)
    trial, keys = witness.element.copy(), set()
    for _, facet, resolved in planner.req:
        keys |= satisfy(trial, resolved, getattr(facet, "cardinality", "required"))
    if any(_value(trial, k) != _value(witness.element, k) for k in keys & witness.owned):
        return False
    witness.element = trial
    return True


def _avoid_prohibited(witness: Witness, planner: SpecPlanner) -> bool:
    """Move an element out of a prohibited specification by its predefined type, if the witness
    does not own it (IFC2X3 types default to NOTDEFINED, which golds may forbid)."""
    if ("pdt",) in witness.owned or not planner.pdts:
        return False
    other = ifcschema.other_predefined_type(planner.version, witness.element.ifc_class, planner.forbidden_pdts)
    if other is None:
        return False
    witness.element.predefined_type = other
    return True


def _rejecting(outcome: Outcome, document, step: int) -> set[int]:
    found = {s for s, _, e in outcome.failures if e == step}
    found |= {s for s, e in outcome.applicable if e == step and document.specifications[s].maxOccurs == 0}
    return found


def _settle(document, version, seed, witnesses, planners, result) -> tuple[list[Witness], VersionModel, Outcome]:
    active = list(witnesses)
    for _ in range(MAX_ROUNDS):
        model, steps = build(version, seed, [(w.id, w.element) for w in active])
        outcome = check(document, model)
        if isinstance(outcome, Unchecked):
            result.failures.append(f"{version}: {outcome.reason}")
            return active, VersionModel(model, steps), None
        changed, keep = False, []
        for w in active:
            rejecting = _rejecting(outcome, document, steps[w.id])
            others = rejecting - {w.spec}
            if w.kind in ACCEPTING and w.spec in rejecting:
                others.add(w.spec)  # a merge replaced a base value: meet the own specification again
            if w.kind == "violate" and (w.spec, steps[w.id]) not in outcome.applicable:
                result.dropped.append(f"{w.id} violation takes it out of the applicability: {w.purpose}")
                changed = True
                continue
            if w.kind == "near-miss" and w.spec in rejecting:
                result.dropped.append(f"{w.id} near miss still applicable: {w.purpose}")
                changed = True
                continue
            if others:
                changed = True
                merged = all(_merge(w, planners[(version, s)]) for s in sorted(others) if (version, s) in planners)
                if not merged and w.kind not in ("satisfy",):
                    result.dropped.append(f"{w.id} {w.kind} not clean (specifications {sorted(s + 1 for s in others)}): {w.purpose}")
                    continue
            keep.append(w)
        active = keep
        if not changed:
            return active, VersionModel(model, steps), outcome
    model, steps = build(version, seed, [(w.id, w.element) for w in active])
    outcome = check(document, model)
    return active, VersionModel(model, steps), None if isinstance(outcome, Unchecked) else outcome


def _prove_elements(document, witnesses, vm: VersionModel, outcome: Outcome, result) -> None:
    for w in witnesses:
        step = vm.elements[w.id]
        rejected = step in outcome.rejected
        result.verdicts[w.id] = rejected
        problem = None
        if rejected != (w.expected == REJECTED):
            problem = f"the gold {'rejects' if rejected else 'accepts'} it"
        elif w.kind == "violate":
            failing = {(s, f) for s, f, e in outcome.failures if e == step}
            if failing != {(w.spec, w.facet)} or _rejecting(outcome, document, step) != {w.spec}:
                problem = f"it fails {sorted((s + 1, f + 1) for s, f in failing)}, not only requirement {w.facet + 1}"
        elif w.kind == "prohibited-present" and _rejecting(outcome, document, step) != {w.spec}:
            problem = "it is rejected by other specifications too"
        if problem:
            result.failures.append(f"{w.id} {w.kind}, specification {w.spec + 1}: {w.purpose}: {problem}")


def _plan_models(document, version, witnesses, outcome: Outcome, vm: VersionModel, result) -> list[ModelWitness]:
    accepted = [w for w in witnesses if not result.verdicts.get(w.id, True)]
    applies = {}
    for s, e in outcome.applicable:
        applies.setdefault(s, set()).add(e)
    planned, seen = [], set()
    for s, spec in enumerate(document.specifications):
        if version not in spec.ifcVersion:
            continue
        members = tuple(w.id for w in accepted if vm.elements[w.id] not in applies.get(s, set()))
        usage = spec.get_usage()
        covered = all(any(vm.elements[m] in applies.get(o, set()) for m in members)
                      for o, other in enumerate(document.specifications)
                      if o != s and version in other.ifcVersion and other.get_usage() == "required")
        if usage != "required" and not covered:
            result.dropped.append(f"{version} specification {s + 1}: no clean model without it")
            continue
        expected = REJECTED if usage == "required" else ACCEPTED
        candidates = [("no-applicable", members, expected,
                       f"no element the specification applies to ({usage})")]
        if usage == "prohibited":
            forbidden = next((w.id for w in witnesses if w.spec == s and w.kind == "prohibited-present"), None)
            if forbidden:
                candidates.append(("prohibited-present", members + (forbidden,), REJECTED,
                                   "one element the specification forbids, all else accepted"))
        for kind, chosen, verdict, purpose in candidates:
            if (chosen, verdict) in seen:
                continue
            seen.add((chosen, verdict))
            planned.append(ModelWitness(f"{version}-m{len(planned) + 1:02d}", kind, s, purpose, verdict,
                                        version, chosen))
    return planned


def _prove_models(document, planned, by_id, seed, result) -> None:
    for mw in planned:
        model, _ = build(mw.version, f"{seed}:{mw.id}", [(m, by_id[m].element) for m in mw.members])
        outcome = check(document, model)
        if isinstance(outcome, Unchecked):
            result.failures.append(f"{mw.id}: {outcome.reason}")
            continue
        result.cardinality_models[mw.id] = model
        result.verdicts[mw.id] = outcome.model_rejected
        if outcome.model_rejected != (mw.expected == REJECTED):
            result.failures.append(f"{mw.id} {mw.kind}, specification {mw.spec + 1}: {mw.purpose}: "
                                   f"the gold {'rejects' if outcome.model_rejected else 'accepts'} the model")
        result.model_witnesses.append(mw)


def prove(document: ifctester_ids.Ids, seed: str) -> WitnessSet:
    """Witnesses for a gold (already loaded with check.load_ids), proven against it."""
    planned, unsupported, planners = plan(document)
    result = WitnessSet(seed, [], [], {}, {}, {}, unsupported)
    for version in sorted({w.version for w in planned}):
        mine = [w for w in planned if w.version == version]
        settled, vm, outcome = _settle(document, version, f"{seed}:{version}", mine, planners, result)
        if outcome is None:
            continue
        result.models[version] = vm
        result.witnesses += settled
        _prove_elements(document, settled, vm, outcome, result)
        by_id = {w.id: w for w in settled}
        models = _plan_models(document, version, settled, outcome, vm, result)
        _prove_models(document, models, by_id, seed, result)
    return result
