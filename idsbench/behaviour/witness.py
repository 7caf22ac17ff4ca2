"""The witness plan of a gold IDS: which elements to build, what each is for, what the gold must say.

For every specification and every IFC version it declares:

- `satisfy`: an element meeting the applicability and every requirement, then `boundary` variants
  (each other class or predefined type of an enumeration, each enumeration value, each inclusive
  bound itself, a string for each pattern alternative) and `optional-absent` (an optional property
  left out): the gold accepts them all;
- `violate`: for each requirement facet, elements that break exactly that facet (property missing,
  a value just outside a bound or outside the enumeration, a non-matching string, the wrong measure
  type, a set the pattern excludes, a prohibited property present, an attribute empty, another
  predefined type): the gold rejects them;
- `near-miss`: elements just outside the applicability (another class, another predefined type, an
  applicability value that does not match or is missing) without the required data: accepted;
- `prohibited-present` (applicability 0..0): an element the specification forbids: rejected.

Model-level witnesses (cardinality) are planned later, from the proven elements (prove.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ifctester import ids as ifctester_ids

from . import ifcschema
from .elements import Element
from .facets import AttributeFacet, PropertyFacet, Unsupported, names, resolve, satisfy

ACCEPTED, REJECTED = "accepted", "rejected"


@dataclass
class Witness:
    id: str
    kind: str
    spec: int
    facet: int | None  # index into the specification's requirements (violations), else None
    purpose: str
    expected: str
    version: str
    element: Element
    owned: set = field(default_factory=set)


def usage(spec: ifctester_ids.Specification) -> str:
    return spec.get_usage()


@dataclass
class SpecPlanner:
    version: str
    index: int
    spec: ifctester_ids.Specification
    avoid_classes: set[str]  # every class any specification of the gold names
    forbidden_pdts: set[str] = field(default_factory=set)  # predefined types prohibited specifications name
    unsupported: list[str] = field(default_factory=list)

    def __post_init__(self):
        entity = next((f for f in self.spec.applicability if isinstance(f, ifctester_ids.Entity)), None)
        self.entity = entity
        self.classes = names(entity.name) if entity else ["IFCBUILDINGELEMENTPROXY"]
        self.pdts = names(entity.predefinedType) if entity else []
        self.ifc_class = ifcschema.spelled(self.version, self.classes[0])
        if self.ifc_class is None:
            raise Unsupported(f"class {self.classes[0]} in {self.version}")
        self.app = [(f, resolve(self.version, self.ifc_class, f))
                    for f in self.spec.applicability if not isinstance(f, ifctester_ids.Entity)]
        self.req = [(i, f, resolve(self.version, self.ifc_class, f)) for i, f in enumerate(self.spec.requirements)]

    # -- building blocks ------------------------------------------------------------------------
    def applicable(self, ifc_class: str | None = None, pdt: str | None = None) -> tuple[Element, set]:
        element = Element(ifc_class or self.ifc_class, pdt if pdt is not None else (self.pdts or [None])[0])
        owned = {("class",), ("pdt",)} if self.pdts or pdt is not None else {("class",)}
        for _, resolved in self.app:
            owned |= satisfy(element, resolved)
        return element, owned

    def satisfying(self, skip: int | None = None) -> tuple[Element, set]:
        """Applicability data (owned: a merge may not change it) and the requirements' base
        values (not owned: a merge may replace them by values that meet other specifications)."""
        element, owned = self.applicable()
        for i, facet, resolved in self.req:
            if i != skip:
                satisfy(element, resolved, getattr(facet, "cardinality", "required"))
        return element, owned

    # -- the witnesses ---------------------------------------------------------------------------
    def witnesses(self) -> list[tuple]:
        """(kind, requirement facet, purpose, expected, element, owned) tuples."""
        prohibited = self.spec.maxOccurs == 0
        if prohibited:
            out = [("prohibited-present", None, "an element the specification forbids", REJECTED, *self.applicable())]
            out += [(k, None, p, REJECTED, e, o) for k, _, p, _, e, o in self._variants(self.applicable, False)]
        else:
            out = [("satisfy", None, "meets the applicability and every requirement", ACCEPTED, *self.satisfying())]
            out += self._variants(self.satisfying, True) + self._violations()
        return out + self._near_misses()

    def _variants(self, make, with_requirements: bool) -> list[tuple]:
        out = []
        for ifc_name in self.classes[1:]:
            element, owned = make()
            element.ifc_class = ifcschema.spelled(self.version, ifc_name) or ifc_name
            out.append(("boundary", None, f"the class {ifc_name} of the enumeration", ACCEPTED, element, owned))
        for pdt in self.pdts[1:]:
            element, owned = make()
            element.predefined_type = pdt
            out.append(("boundary", None, f"the predefined type {pdt} of the enumeration", ACCEPTED, element, owned))
        for facet_list in (self.app, [(f, r) for _, f, r in self.req]):
            for facet, resolved in facet_list:
                if isinstance(resolved, ifctester_ids.Entity) or getattr(facet, "cardinality", "required") == "prohibited":
                    continue
                if facet_list is not self.app and not with_requirements:
                    continue
                for sample in resolved.inside[1:]:
                    element, owned = make()
                    resolved.write(element, sample)
                    out.append(("boundary", None, f"{_label(resolved)}: {sample.note} ({sample.value!r})",
                                ACCEPTED, element, owned))
        return out

    def _violations(self) -> list[tuple]:
        out = []
        for i, facet, resolved in self.req:
            for purpose, element, owned in self._break(i, facet, resolved):
                out.append(("violate", i, purpose, REJECTED, element, owned))
            if getattr(facet, "cardinality", "required") == "optional":
                element, owned = self.satisfying(skip=i)
                owned.add(resolved.remove(element))
                out.append(("optional-absent", None, f"{_label(resolved)} left out (optional)", ACCEPTED, element, owned))
        return out

    def _break(self, i: int, facet, resolved):
        """(purpose, element, owned) for each way of breaking requirement i alone."""
        card = getattr(facet, "cardinality", "required")
        if isinstance(resolved, ifctester_ids.Entity):
            yield from self._break_entity(i, resolved)
            return
        label = _label(resolved)
        if card == "prohibited":
            element, owned = self.satisfying(skip=i)
            if resolved.inside:
                owned.add(resolved.write(element, resolved.inside[0]))
                yield f"{label} present (prohibited)", element, owned
            return
        if card == "required":
            element, owned = self.satisfying(skip=i)
            if isinstance(resolved, AttributeFacet):
                owned.add(resolved.write(element, None))
                yield f"{label} empty", element, owned
            else:
                yield f"{label} missing", element, owned | {("pset", resolved.pset, resolved.name)}
        for sample in resolved.outside:
            element, owned = self.satisfying(skip=i)
            owned.add(resolved.write(element, sample))
            yield f"{label}: {sample.note} ({sample.value!r})", element, owned
        if isinstance(resolved, PropertyFacet) and resolved.inside:
            wrong = resolved.wrong_type()
            if wrong:
                element, owned = self.satisfying(skip=i)
                owned.add(resolved.write(element, resolved.inside[0], ifc_type=wrong))
                yield f"{label} stored as {wrong} instead of {resolved.ifc_type}", element, owned
            if card == "required":
                for sample in resolved.outside_sets:
                    element, owned = self.satisfying(skip=i)
                    owned.add(resolved.write(element, resolved.inside[0], pset=sample.value))
                    yield f"{label} in the set {sample.value!r}, which the set pattern excludes", element, owned

    def _break_entity(self, i: int, entity):
        allowed = set(names(entity.predefinedType))
        if allowed:
            other = ifcschema.other_predefined_type(self.version, self.ifc_class, allowed)
            if other:
                element, owned = self.satisfying(skip=i)
                element.predefined_type = other
                yield f"predefined type {other}, not {sorted(allowed)}", element, owned
        wanted = set(names(entity.name))
        for ifc_name in self.classes:
            if ifc_name not in wanted:
                element, owned = self.satisfying(skip=i)
                element.ifc_class = ifcschema.spelled(self.version, ifc_name) or ifc_name
                yield f"class {ifc_name}, not {sorted(wanted)}", element, owned

    def _near_misses(self) -> list[tuple]:
        out = []
        attrs = tuple(r.name for _, r in self.app if isinstance(r, AttributeFacet))
        sibling = ifcschema.sibling_class(self.version, self.ifc_class, self.avoid_classes, attrs)
        if sibling:
            pdt = self.pdts[0] if self.pdts and self.pdts[0] in ifcschema.predefined_types(self.version, sibling) else ""
            element, owned = self.applicable(sibling, pdt)
            out.append(("near-miss", None, f"another class ({sibling})", ACCEPTED, element, owned))
        if self.pdts:
            other = ifcschema.other_predefined_type(self.version, self.ifc_class, set(self.pdts) | self.forbidden_pdts)
            if other:
                element, owned = self.applicable(pdt=other)
                out.append(("near-miss", None, f"another predefined type ({other})", ACCEPTED, element, owned))
        for facet, resolved in self.app:
            label = _label(resolved)
            for sample in resolved.outside:
                element, owned = self.applicable()
                owned.add(resolved.write(element, sample))
                out.append(("near-miss", None, f"{label}: {sample.note} ({sample.value!r})", ACCEPTED, element, owned))
            element, owned = self.applicable()
            if isinstance(resolved, PropertyFacet):
                owned.add(resolved.remove(element))
                out.append(("near-miss", None, f"{label} missing", ACCEPTED, element, owned))
            else:
                owned.add(resolved.write(element, None))
                out.append(("near-miss", None, f"{label} empty", ACCEPTED, element, owned))
        return out


def _label(resolved) -> str:
    if isinstance(resolved, PropertyFacet):
        return f"property {resolved.pset}.{resolved.name}"
    return f"attribute {resolved.name}"


def plan(document: ifctester_ids.Ids) -> tuple[list[Witness], list[str], dict]:
    """The element witnesses of a gold, what could not be planned (with the reason), and the
    planner of each (version, specification)."""
    avoid = set()
    for spec in document.specifications:
        for facet in spec.applicability + spec.requirements:
            if isinstance(facet, ifctester_ids.Entity):
                try:
                    avoid.update(n.upper() for n in names(facet.name))
                except Unsupported:
                    pass
    forbidden = set()
    for spec in document.specifications:
        for facet in spec.applicability:
            if spec.maxOccurs == 0 and isinstance(facet, ifctester_ids.Entity):
                try:
                    forbidden.update(names(facet.predefinedType))
                except Unsupported:
                    pass
    witnesses, problems, planners = [], [], {}
    for version in ifcschema.SCHEMAS:
        count = 0
        for index, spec in enumerate(document.specifications):
            if version not in spec.ifcVersion:
                continue
            try:
                planner = planners[(version, index)] = SpecPlanner(version, index, spec, avoid, forbidden_pdts=forbidden)
                planned = planner.witnesses()
            except Unsupported as exc:
                problems.append(f"specification {index + 1} ({version}): {exc}")
                continue
            for kind, facet, purpose, expected, element, owned in planned:
                count += 1
                witnesses.append(Witness(f"{version}-{count:03d}", kind, index, facet, purpose, expected,
                                         version, element, owned))
    return witnesses, problems, planners
