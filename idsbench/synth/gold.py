"""The gold IDS of a turn, written from its plan with the harness's IDS model (idsbench.harness.idsxml).

What the gold writes follows the published prompt and the standard: ifcVersion as the request's line,
applicability cardinality from the stated occurrence, upper-case entities, a cardinality on every
requirement, data types on property facets (the template's, or the data dictionary's for the client's
own), the any-set pattern where no set is named, SI values, bases xs:double / xs:integer / xs:string.
Specification names and the title are not scored; they are written in the request's language.
"""
from __future__ import annotations

import random

from idsbench.harness.idsxml import (ANY_SET, Attribute, Entity, IdsDocument, Property, Restriction, Specification,
                                    render)

from .lexicon import Group
from .plan import Equals, OneOf, Presence, Requirement, SpecPlan, TaskPlan, Turn, Value
from .values import Format, Range
from .version import GENERATOR

OCCURRENCE = {"required": ("1", "unbounded"), "optional": ("0", "unbounded"), "prohibited": ("0", "0")}


def value_param(value: Value, data_type: str | None) -> str | Restriction | None:
    """The facet's value parameter: a simpleValue, an enumeration, a pattern or bounds."""
    if isinstance(value, Presence):
        return None
    if isinstance(value, Equals):
        return value.gold
    if isinstance(value, OneOf):
        return Restriction("xs:string", tuple(("enumeration", v) for v in value.gold))
    if isinstance(value, Format):
        return Restriction("xs:string", (("pattern", value.regex),))
    if isinstance(value, Range):
        return Restriction(value.base, tuple((b.facet, b.si) for b in value.bounds))
    raise TypeError(f"unknown value {value!r}")


def facet(req: Requirement, language: str) -> Attribute | Property:
    value = value_param(req.value, req.data_type)
    if req.facet == "attribute":
        return Attribute(req.name.of(language), value, req.cardinality)
    pset = ANY_SET if req.pset is None else req.pset.of(language)
    return Property(pset, req.name.of(language), value, req.data_type, req.cardinality)


def narrowed(group: str, adjective: str | None, enumeration: bool, language: str) -> str:
    """'external walls', 「外部に面する壁」, 「既存の扉」."""
    if not adjective:
        return group
    if language == "en":
        return f"{adjective} {group}"
    return f"{adjective}の{group}" if enumeration else f"{adjective}{group}"


def term(plan: TaskPlan, key: tuple, phrases: tuple[str, ...], language: str) -> str:
    """The phrase a task uses for a group or a filter value in one language: the request and the gold's
    specification name say the same (no 「仕切弁」 in the name of a specification asked for as 「遮断弁」)."""
    rng = random.Random(f"{GENERATOR}:{plan.seed}:{plan.index}:{language}:{'/'.join(map(str, key))}")
    return phrases[rng.randrange(len(phrases))]


def group_term(plan: TaskPlan, group: Group, language: str) -> str:
    return term(plan, ("group", group.key), group.words.of(language), language)


def filter_term(plan: TaskPlan, spec: SpecPlan, language: str) -> str | None:
    value = spec.filter.value if spec.filter else None
    if not isinstance(value, Equals) or value.words is None:
        return None
    return term(plan, ("filter", spec.filter.key, value.gold), value.words.of(language), language)


def spec_name(plan: TaskPlan, spec: SpecPlan, language: str) -> str:
    name = narrowed(group_term(plan, spec.group, language), filter_term(plan, spec, language),
                    spec.filter is not None and not spec.filter.flag, language)
    return name[:1].upper() + name[1:]


def specification(plan: TaskPlan, spec: SpecPlan, versions: tuple[str, ...], language: str) -> Specification:
    entity = Entity(spec.group.ifc_class, spec.group.predefined_type)
    applicability = (entity,) + ((facet(spec.filter, language),) if spec.filter else ())
    low, high = OCCURRENCE[spec.occurrence]
    return Specification(spec_name(plan, spec, language), " ".join(versions), applicability,
                         tuple(facet(r, language) for r in spec.requirements), low, high)


def file_stem(plan: TaskPlan) -> str:
    return f"{plan.slug}-{plan.index:06d}"


def document(plan: TaskPlan, turn: Turn, language: str) -> IdsDocument:
    return IdsDocument(file_stem(plan), tuple(specification(plan, s, turn.versions, language) for s in turn.specs))


def gold_ids(plan: TaskPlan, turn: Turn, language: str) -> str:
    """The gold IDS text of one turn in one language."""
    return render(document(plan, turn, language))
