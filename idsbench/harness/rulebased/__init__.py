"""The rule-based baseline: requirements text or checklist CSV -> IDS, by patterns and the IFC vocabulary.

What it does (deterministic, offline, reading only the conversation before the gold answer):
- Header: the latest `IDS Version` becomes every specification's ifcVersion; the filename (without .ids)
  the title. Applicability always has explicit minOccurs/maxOccurs.
- CSV checklists: finds the header row by en/ja synonyms (entity/IFCクラス/対象, property set/プロパティセット,
  property/プロパティ名/属性名, value/値/許容値, unit/単位, data type/データ型, required/必須 ...), skips rows
  marked n/a, TBD, 未定, 対象外, and turns each row into a facet grouped by (entity, predefinedType).
- Natural language: explicit IFC class names and common element words (wall/壁, door/ドア/扉, slab/スラブ,
  space/室, beam/梁, column/柱 ...), UPPERCASE predefined types valid for the class, Pset_/Qto_ names,
  CamelCase property names, attribute names (Name, LongName, Tag ...), and the words after each name:
  limits ("at least 1,100 mm", "150㎡以下"), code lists ("SN400B or SN490B"), yes/no wording for booleans,
  a pattern generalised from an example ("e.g. CL-B07" -> CL-[A-Z][0-9]{2}).
- Values are converted to SI (mm -> m, kN -> N, bar/MPa -> Pa, °C -> K, % -> ratio for ratio measures);
  dataTypes come from the standard Pset_/Qto_ templates of the schema, else a guess from the unit/value;
  a property with no set named gets the any-set pattern ^(?!(Pset_|Qto_)).+ .
- Multi-turn: starts from the earlier IDS, switches ifcVersion when asked, deletes facets whose names a
  "remove/drop/削除" sentence mentions, adds or replaces facets the change request describes.

What it cannot do (be careful reading its scores as a floor, not a target):
- It does not understand sentences: negation, scope ("only external walls"), exceptions, coreference
  beyond "the nearest element mentioned before", or requirements spread over several sentences.
- Applicability beyond entity + predefinedType comes only from a few fixed phrasings ("whose ObjectType is
  Toilet", "marked HandicapAccessible = true", 「ObjectType が「トイレ」の」); other conditions are missed or
  become requirements.
- Property names are found only when written as in IFC (CamelCase, or its words: "working pressure"),
  quoted in 「」 next to a set name, or introduced once as "使用圧力（WorkingPressure）". A property named
  only by description ("the fire resistance") is missed; custom dataTypes are guesses.
- Values: only limits, ranges, code lists, booleans and example-based patterns; units it does not know are
  left unconverted; "prohibited" needs explicit wording. Change requests that rename, move or re-scope
  requirements are mostly ignored (the earlier IDS is kept).
"""
from __future__ import annotations

from ..baselines import current_version, previous_ids, title_for, user_requests
from ..examples import Example
from ..idsxml import Entity, IdsDocument, Specification, fenced, render
from ..vocabulary import versions_of
from .csvrules import Requirement, csv_requirements
from .entities import element_words, ifc_names
from .revise import revise
from .textrules import text_requirements

__all__ = ["generate_ids", "requirements_for", "build_document"]


def requirements_for(body: str, schemas: list[str]) -> tuple[list[Requirement], bool]:
    """CSV rules when the body holds a recognizable table, otherwise the natural-language rules."""
    found = csv_requirements(body, schemas)
    return (found, False) if found else text_requirements(body, schemas)


def spec_name(label: str, entity: Entity) -> str:
    label = " ".join(label.split()).strip(" -–:・")
    return (label[:1].upper() + label[1:]) if label and not label.isdigit() else entity.name


def specifications(requirements: list[Requirement], version: str, optional: bool) -> list[Specification]:
    """One specification per applicability (entity, predefinedType, conditions), in order of first appearance."""
    groups: dict[tuple, list[Requirement]] = {}
    for r in requirements:
        groups.setdefault((r.entity, r.conditions), []).append(r)
    min_occurs = "0" if optional else "1"
    return [Specification(spec_name(reqs[0].label, entity), version, (entity, *conditions),
                          tuple(r.facet for r in reqs), min_occurs=min_occurs)
            for (entity, conditions), reqs in groups.items()]


def build_document(title: str, body: str, version: str) -> IdsDocument:
    schemas = versions_of(version) or ["IFC4"]
    requirements, optional = requirements_for(body, schemas)
    specs = specifications(requirements, version, optional)
    if not specs:  # nothing recognised: at least the first element mentioned, else the project
        mentions = ifc_names(body, schemas) or element_words(body, schemas)
        entity = mentions[0].entity if mentions else Entity("IFCPROJECT")
        specs = [Specification(spec_name(mentions[0].label if mentions else "", entity), version, (entity,))]
    return IdsDocument(title, tuple(specs))


def generate_ids(example: Example) -> str:
    """The baseline's raw output for one example (fenced like a model's answer). Never reads the gold."""
    version = current_version(example)
    earlier = previous_ids(example)
    if earlier is not None:
        return revise(earlier, user_requests(example)[-1], version)
    first = user_requests(example)[0]
    return fenced(render(build_document(title_for(example), first.body, version)))
