"""No generated task is one of the benchmark's: the check on scored choices.

A gold's scored choices are the set of (class, predefined type, property set, property) of its property
facets, with the class and predefined type of the specification they are in; attribute facets count with
the set `@attribute`, and the any-set pattern as `<any>`. Two golds that make the same set of choices ask
for the same mapping skill on the same vocabulary, whatever their values and wording: a generated task
whose set equals that of any benchmark gold is drawn again (and counted).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from idsbench.dataset.golds import ANY_SET_PATTERN, Gold, parse_gold
from idsbench.records import iter_records

from .plan import TaskPlan

Choice = tuple[str, str, str, str]


def _entity(spec) -> tuple[str, str]:
    for facet in spec.facets:
        if facet.kind == "entity" and facet.section == "a":
            return "|".join(facet.value("name").names), "|".join(facet.value("predefinedType").names)
    return "", ""


def _set_name(facet) -> str:
    pset = facet.value("propertySet")
    return "<any>" if pset.patterns == (ANY_SET_PATTERN,) else "|".join(pset.names + pset.patterns)


def choices(gold: Gold) -> frozenset[Choice]:
    found: set[Choice] = set()
    for spec in gold.specs:
        cls, ptype = _entity(spec)
        for facet in spec.facets:
            if facet.kind == "property":
                found.add((cls, ptype, _set_name(facet), "|".join(facet.value("baseName").names)))
            elif facet.kind == "attribute":
                found.add((cls, ptype, "@attribute", "|".join(facet.value("name").names)))
            elif facet.kind == "entity" and len(spec.facets) == 1:
                found.add((cls, ptype, "", ""))  # a specification on the class alone (0..0 of proxies)
    return frozenset(found)


def choices_of(text: str) -> frozenset[Choice]:
    return choices(parse_gold(text))


@lru_cache(maxsize=4)
def benchmark_choices(data: Path | None = None) -> frozenset[frozenset[Choice]]:
    """The choice sets of every gold of the benchmark's data (a data file or folder; default: the checkout's
    data, else the copy installed with the package)."""
    return frozenset(choices_of(record["gold_ids"]) for _, _, record in iter_records(data))


def plan_choices(plan: TaskPlan, language: str) -> frozenset[Choice]:
    """choices() of the plan's final gold, read from the plan (the gold need not be parsed)."""
    found: set[Choice] = set()
    for spec in plan.final.specs:
        cls, ptype = spec.group.ifc_class, spec.group.predefined_type or ""
        facets = spec.requirements + ((spec.filter,) if spec.filter else ())
        for req in facets:
            pset = "@attribute" if req.facet == "attribute" else "<any>" if req.pset is None else req.pset.of(language)
            found.add((cls, ptype, pset, req.name.of(language)))
        if not facets:
            found.add((cls, ptype, "", ""))
    return frozenset(found)


def signature(found: frozenset[Choice]) -> frozenset[Choice]:
    """What makes two tasks of one run near-duplicates: the classes they are about and the standard items
    they ask (a client's own properties and attributes aside; wash basins with a status are one task however
    many codes the client adds)."""
    return frozenset({(c, p, s, n) for c, p, s, n in found if s.startswith(("Pset_", "Qto_"))}
                     | {(c, p, "", "") for c, p, _, _ in found})


def shares_choices(plan: TaskPlan, languages, benchmark: frozenset[frozenset[Choice]]) -> bool:
    return any(plan_choices(plan, language) in benchmark for language in languages)
