"""Requests from a plan: what both languages share (the header, names of items and groups, numbers, the
client's properties, the turn structure); compose.py lays a request out, render_en.py and render_ja.py
write the words.

A `Voice` makes the wording choices of one request: each is drawn once from a random.Random seeded with
the task and the language, and kept, so an item is named the same way throughout a request.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from idsbench.vocabulary.schema import schema_vocabulary

from .gold import file_stem, filter_term, group_term
from .lexicon import Group, Words, lexicon
from .plan import Requirement, SpecPlan, TaskPlan, Turn
from .values import decimal_text
from .version import GENERATOR


@dataclass
class Voice:
    plan: TaskPlan
    language: str
    rng: random.Random
    memory: dict = field(default_factory=dict)

    def pick(self, key, choices):
        """The same choice for the same key throughout the request."""
        if key not in self.memory:
            self.memory[key] = self.rng.choice(tuple(choices))
        return self.memory[key]

    def words(self, key, words: Words) -> str:
        return self.pick(key, words.of(self.language))

    def shared(self, key: str, choices):
        """A choice both languages of the task make alike (the purpose, the remark): drawn from the task, not
        from the language's stream, over lists of the same length in both renderers."""
        return choices[self.shared_rng(key).randrange(len(choices))]

    def shared_rng(self, key: str) -> random.Random:
        """A stream both languages of the task draw alike (the checklist's row order and responsible party)."""
        return random.Random(f"{GENERATOR}:{self.plan.seed}:{self.plan.index}:{key}")


def voice(plan: TaskPlan, language: str) -> Voice:
    return Voice(plan, language, random.Random(f"{GENERATOR}:{plan.seed}:{plan.index}:{language}:request"))


def header(versions: tuple[str, ...], filename: str | None) -> str:
    lines = [f"IDS Version: {' '.join(versions)}"] + ([f"filename: {filename}"] if filename else [])
    return "\n".join(lines) + "\n\n"


def number(value: Fraction) -> str:
    text = decimal_text(value) or str(float(value))
    whole, _, part = text.partition(".")
    if len(whole) > 4:
        whole = f"{int(whole):,}"
    return whole + ("." + part if part else "")


def spelled_class(version: str, upper: str) -> str:
    cls = schema_vocabulary(version).classes.get(upper)
    return cls.name if cls is not None else upper


def data_type_name(version: str, upper: str) -> str:
    """IfcLabel for IFCLABEL: data dictionaries write the IFC type's own spelling."""
    return spelled_class(version, upper)


def unit_symbol(voice_: Voice, unit_key: str | None) -> str:
    return lexicon().units[unit_key].symbol.of(voice_.language)[0] if unit_key else ""


def item_name(v: Voice, req: Requirement) -> str:
    """How the request names the item a requirement is about (not the value)."""
    lex = lexicon()
    if v.plan.spelled and req.source in ("standard", "quantity"):
        return f"{req.pset.en}.{req.name.en}"
    if req.source == "standard":
        return v.words(("item", req.key, req.words), req.words or lex.properties[req.key].words)
    if req.source == "quantity":
        return v.words(("item", req.key, req.words), req.words or lex.quantities[req.key].words)
    if req.source == "attribute":
        return req.name.en if v.plan.spelled else v.words(("item", req.key), lex.attributes[req.key].words)
    return req.name.of(v.language)


def group_name(v: Voice, spec: SpecPlan) -> str:
    return group_term(v.plan, spec.group, v.language)


def value_word(v: Voice, req: Requirement, gold: str, words: Words | None) -> str:
    """Trade words for one value of one item (kept per item: "external" answers IsExternal, not every flag
    that is true), or the value as the gold writes it where names are spelled or the value has no words."""
    if words is None or v.plan.spelled:
        return gold
    return v.words(("value", req.key, gold), words)


def filter_word(v: Voice, spec: SpecPlan) -> str | None:
    return filter_term(v.plan, spec, v.language)


def client_rows(plan: TaskPlan) -> list[Requirement]:
    """The client's own properties the conversation uses, once each, in order of first use."""
    seen: dict[str, Requirement] = {}
    for turn in plan.turns:
        for spec in turn.specs:
            for req in spec.requirements:
                if req.source in ("client", "any-set"):
                    seen.setdefault(req.key, req)
    return list(seen.values())


def dictionary_unit(req: Requirement) -> str | None:
    typical = lexicon().client_properties[req.key].typical
    return typical.unit if typical else None


DEPRECATED_STANDARD_CASES = ("IFC4X3_ADD2",)  # the subtypes are kept only for old files: no exporter's choice


def standard_cases(plan: TaskPlan) -> tuple[Group, ...]:
    """Groups of the conversation whose class has a StandardCase subtype in one of its versions where exporters
    still write it (IFC2X3 and IFC4 walls, IFC4 doors, beams ...): an entity facet does not match the subtype, so
    the request says the model has none."""
    found = {spec.group.key: spec.group for turn in plan.turns for spec in turn.specs
             if any(spec.group.ifc_class + "STANDARDCASE" in schema_vocabulary(v).classes
                    for v in turn.versions if v not in DEPRECATED_STANDARD_CASES)}
    return tuple(found.values())


def filename(plan: TaskPlan) -> str:
    return f"{file_stem(plan)}.ids"


def changed_turns(plan: TaskPlan) -> list[tuple[Turn, Turn]]:
    return list(zip(plan.turns, plan.turns[1:]))


def group_paragraph(v: Voice, spec, group: str, clause, leads: dict, join: str, gap: str, close: str) -> str:
    """A group's paragraph in one language: a lead by the group's occurrence (one of two phrasings, picked once
    per group), then its requirements; a prohibited group is the lead alone. The requirements are written
    before the lead is picked, the order the language's stream of choices was drawn in."""
    def lead() -> str:
        return v.pick((spec.occurrence, spec.group.key),
                      tuple(t.format(group=group, Group=group[:1].upper() + group[1:]) for t in leads[spec.occurrence]))
    if spec.occurrence == "prohibited":
        return lead()
    clauses = join.join(clause(r) for r in spec.requirements)
    return f"{lead()}{gap}{clauses}{close}"
