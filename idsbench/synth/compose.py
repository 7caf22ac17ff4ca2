"""The shape of a request, the same in both languages: a letter (opening, conventions, one paragraph per
group, a remark, the data dictionary), a checklist (conventions, the CSV table with a TBD row, the data
dictionary) and a revision message. `w` is the language's renderer (render_en, render_ja): its word
tables and its sentences.
"""
from __future__ import annotations

import csv
import io
from types import ModuleType

from .lexicon import lexicon
from .plan import Equals, OneOf, Requirement, SpecPlan, TaskPlan, Turn
from .render import Voice, client_rows, data_type_name, dictionary_unit, item_name, standard_cases, unit_symbol
from .values import Range


def conventions(v: Voice, plan: TaskPlan, w: ModuleType) -> str:
    lines = []
    if not plan.spelled and plan.uses("standard"):
        lines.append(v.pick("standard", w.STANDARD))
    if not plan.spelled and plan.uses("quantity"):
        lines.append(v.pick("quantities", w.QUANTITIES))
    if plan.client_set and client_rows(plan):  # the sentence points to the dictionary: only with one
        lines.append(v.pick("client", w.CLIENT_SET).format(name=plan.client_set.of(v.language)))
    if plan.uses("any-set"):
        lines.append(v.pick("anyset", w.ANY_SET))
    if plan.normed():  # whose standards the grades and classes are: one jurisdiction per task
        lines.append(v.pick("norms", w.NORMS[plan.jurisdiction]))
    if standard_cases(plan):  # the class alone is then the one right entity
        version = plan.turns[0].versions[0]  # named as the body names them: IfcWall elements at easy
        lines.append(w.standard_case_text([w.group_phrase(v, SpecPlan(g, "required", ()), version)
                                           for g in standard_cases(plan)]))
    return w.SEPARATOR.join(lines)


def dictionary(v: Voice, plan: TaskPlan, version: str, w: ModuleType) -> str:
    """The data dictionary of the client's own properties: name, IFC data type, unit, what it is."""
    rows = client_rows(plan)
    if not rows:
        return ""
    lines = [*w.DICTIONARY, "|---|---|---|---|"]
    for req in rows:
        prop = lexicon().client_properties[req.key]
        unit = unit_symbol(v, dictionary_unit(req)) or w.NONE
        lines.append(f"| {req.name.of(v.language)} | {data_type_name(version, req.data_type)} | {unit} | "
                     f"{prop.words.of(v.language)[0]} |")
    return "\n".join(lines)


# Purposes per domain, each with the families of groups it fits (None: every group of the domain).
PURPOSES = {
    "architectural": (("design-check", None), ("fm-handover", None), ("fire-review", None), ("access-review", ("access",))),
    "structural": (("structural-check", None), ("fabrication", None), ("take-off", None)),
    "mep": (("commissioning", None), ("fire-equipment", ("fire",)), ("maintenance-register", None)),
    "civil": (("civil-register", None), ("road-register", ("road", "drainage")), ("bridge-inspection", ("bridge",)),
              ("earthworks-check", ("earthworks",)), ("drainage-register", ("drainage",)),
              ("track-register", ("track",))),
}


NEW_BUILD = frozenset({"fabrication", "commissioning"})  # purposes about new objects only: no existing piles


def _items(plan: TaskPlan) -> list[Requirement]:
    return [r for turn in plan.turns for s in turn.specs
            for r in (*s.requirements, *((s.filter,) if s.filter else ()))]


# Purposes about one topic: most items of a request for them are on it (a fire-safety review asks fire items).
TOPICS = {"fire-review": frozenset({"FireRating", "SurfaceSpreadOfFlame", "Combustible", "Compartmentation", "FireExit",
                                   "SelfClosing", "SmokeStop", "SprinklerProtection", "AirPressurization",
                                   "FireFightingLift", "FireResistanceRating"})}


# Purposes about one kind of item: a request for them asks at least one of it (a take-off measures quantities).
SOURCES = {"take-off": frozenset({"quantity"})}

# Purposes before anything is bought or built, and the items that exist only once it is: who made an object,
# its serial and batch, its warranty, installation and condition.
DESIGN_STAGE = frozenset({"design-check", "structural-check", "fire-review", "access-review", "take-off",
                          "earthworks-check"})
AS_BUILT = frozenset({"Manufacturer", "ModelLabel", "ModelReference", "ArticleNumber", "GlobalTradeItemNumber",
                      "ProductionYear", "ManufacturingDate", "SerialNumber", "BarCode", "BatchReference",
                      "AcquisitionDate", "WarrantyStartDate", "WarrantyEndDate", "WarrantyIdentifier",
                      "WarrantyPeriod", "PointOfContact", "AssessmentDate", "NextAssessmentDate",
                      "PutIntoOperationDate", "AcceptanceDate"})
NEUTRAL = {"architectural": "fm-handover", "structural": "maintenance-register", "mep": "maintenance-register",
           "civil": "civil-register"}  # the purpose any request of the trade fits


def _on_topic(purpose: str, items: list[Requirement]) -> bool:
    standard = [r.key for r in items if r.source == "standard"]
    return 2 * sum(k in TOPICS[purpose] for k in standard) > len(items)


def _fits(purpose: str, items: list[Requirement], first: list[Requirement]) -> bool:
    """New-build purposes ask nothing of existing objects or of objects to be demolished; a purpose about one
    topic asks mostly of it; a design-stage purpose asks nothing that exists only once an object is bought."""
    if purpose in TOPICS and not _on_topic(purpose, items):
        return False
    if purpose in SOURCES and not any(r.source in SOURCES[purpose] for r in first):  # the letter states it
        return False
    if purpose in DESIGN_STAGE and any(r.key in AS_BUILT and r.source == "standard" for r in items):
        return False
    return purpose not in NEW_BUILD or not any(r.key == "Status" and _golds(r) - {"NEW"} for r in items)


def _golds(req: Requirement) -> set[str]:
    value = req.value
    return {value.gold} if isinstance(value, Equals) else set(value.gold) if isinstance(value, OneOf) else set()


def purposes(plan: TaskPlan) -> tuple[str, ...]:
    """The purposes that fit every group the request is about (a bridge database holds no manholes) and every
    item it asks for."""
    families = {s.group.family for s in plan.turns[0].specs}
    items, first = _items(plan), [r for s in plan.turns[0].specs for r in s.requirements]
    fitting = tuple(p for p, fit in PURPOSES[plan.domain]
                    if (fit is None or families <= set(fit)) and _fits(p, items, first))
    return fitting or (NEUTRAL[plan.domain],)


def letter(v: Voice, plan: TaskPlan, turn: Turn, w: ModuleType) -> str:
    purpose = w.PURPOSES[v.shared("purpose", purposes(plan))]
    numbered = v.pick("numbered", (True, False))
    body = [w.spec_paragraph(v, s, turn.versions[0]) for s in turn.specs]
    parts = [v.pick("opening", w.OPENINGS).format(purpose=purpose), conventions(v, plan, w),
             "\n".join(f"{i}. {p}" if numbered else f"{w.BULLET}{p}" for i, p in enumerate(body, 1))]
    if plan.difficulty != "easy" and v.shared("remark", (True, False)):
        parts.append(v.shared("noise", w.NOISE[plan.domain]))
    parts.append(dictionary(v, plan, turn.versions[0], w))
    return "\n\n".join(p for p in parts if p)


def _source(v: Voice, req: Requirement, w: ModuleType) -> str:
    """The checklist's set column: the set itself where names are spelled or the client names it."""
    if req.source in ("standard", "quantity") and not v.plan.spelled or req.source in ("attribute", "any-set"):
        return w.SOURCES["any-set" if req.source == "any-set" else req.source]
    return req.pset.of(v.language)


def _row(v: Voice, spec: SpecPlan, req: Requirement | None, version: str, extra: str, w: ModuleType) -> list[str]:
    group = w.capital(w.group_phrase(v, spec, version))
    if req is None:
        return [group, w.PRESENCE[spec.occurrence], w.NONE, w.NONE, w.NOT_PERMITTED, w.NONE, extra]
    unit = unit_symbol(v, req.value.unit.key) if isinstance(req.value, Range) and req.value.unit else w.NONE
    return [group, w.PRESENCE[spec.occurrence], w.capital(item_name(v, req)), _source(v, req, w), w.rule(v, req),
            unit, extra]


def checklist(v: Voice, plan: TaskPlan, turn: Turn, w: ModuleType) -> str:
    """A checklist export: one row per requirement, columns the gold ignores, a row still to be decided."""
    shared = v.shared_rng(f"checklist:{plan.turns.index(turn)}")  # both languages: same rows, same order
    rows = [_row(v, spec, req, turn.versions[0], w.EXTRAS[shared.randrange(len(w.EXTRAS))], w)
            for spec in turn.specs for req in spec.requirements or (None,)]
    if plan.difficulty != "easy":
        rows.insert(shared.randint(0, len(rows)), [rows[0][0], rows[0][1], *w.TBD_ROW])
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(v.pick("csv-header", w.HEADERS))
    writer.writerows([str(i), *r] for i, r in enumerate(rows, 1))
    parts = (conventions(v, plan, w), table.getvalue().rstrip("\n"), dictionary(v, plan, turn.versions[0], w))
    return "\n\n".join(p for p in parts if p)


def revision(v: Voice, plan: TaskPlan, states: list[Turn], w: ModuleType) -> str:
    """A revision message: one change, or a numbered list of them, then what stays."""
    changes = [w.change_text(v, plan, a, b) for a, b in zip(states, states[1:])]
    closing = v.pick("closing", w.CLOSINGS)
    if len(changes) == 1:
        return f"{changes[0]}{w.SEPARATOR}{closing}"
    intro = w.count_intro(v.pick("intro", w.INTROS), len(changes))
    items = "\n".join(f"{i}. {c}" for i, c in enumerate(changes, 1))
    return f"{intro}\n{items}\n{closing}"
