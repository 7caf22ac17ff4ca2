"""Checklist CSVs (en/ja headers, extra columns ignored) -> requirements grouped by applicability."""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass

from ..idsxml import Attribute, Entity, Property, Restriction
from ..vocabulary import attribute_names, set_entity
from .entities import element_words, entity_by_predefined, entity_for_cell, ifc_names, valid_predefined
from .values import cardinality_of, make_property, normalize, parse_constraint

# Column roles by header words (NFKC-normalized, lower-cased). Roles are assigned in this order; within a
# role the alternatives are tried in order over all free columns, so "Requirement" beats "Condition".
ROLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("datatype", (r"data ?type|データ型|^型$",)),
    ("pset", (r"property ?set|pset|quantity ?set|qto|プロパティセット|プロパティ・セット", r"セット")),
    ("entity", (r"ifc ?(entity|class)|^entity$|^class$|エンティティ|ifcクラス|^クラス$",)),
    ("predefined", (r"predefined|定義済|事前定義|定義タイプ", r"^(ifc ?)?type$|^タイプ$|^種類$")),
    ("unit", (r"^units?$|単位",)),
    ("cardinality", (r"^(required|mandatory|obligation|cardinality|必須|要否|区分)",)),
    ("property", (r"propert|parameter|attribute|プロパティ|属性|パラメータ", r"^name$|^名称$|項目名",
                  r"ifc ?(field|項目)|^field$|フィールド")),
    ("value", (r"value|値", r"allowed|許容", r"requirement|要求|要件|rule|ルール|criteria|基準|range|範囲",
               r"condition|条件")),
    ("element", (r"element|object|asset|component|bar role|部位|対象|要素|資産|部材", r"^item$|^項目$")),
)
ROW_SKIP = re.compile(r"^\s*(n/?a|tbd|tbc|未定|対象外|該当なし)\s*$", re.I)
ANY_CELL = re.compile(r"^\s*[(（]?\s*(any|all|全て|すべて|全部|-|－)?\s*[)）]?\s*$", re.I)
ATTRIBUTE_CELL = re.compile(r"^\s*(attribute|attr\.?|属性)\s*$", re.I)
DOTTED = re.compile(r"^\s*((?:Pset|Qto)_[A-Za-z0-9]+|[A-Za-z][\w]*_[\w]+)\.([A-Za-z][A-Za-z0-9]*)\s*$")


@dataclass(frozen=True)
class Requirement:
    """One requirement facet on one applicability; `label` names the specification."""

    entity: Entity
    facet: Attribute | Property
    label: str
    conditions: tuple = ()  # further applicability facets (attribute/property conditions)


def column_roles(header: list[str]) -> dict[str, int]:
    cells = [normalize(c).strip().lower() for c in header]
    roles: dict[str, int] = {}
    for role, alternatives in ROLES:
        for pattern in alternatives:
            free = [i for i, c in enumerate(cells) if i not in roles.values() and re.search(pattern, c)]
            if free:
                roles[role] = free[0]
                break
    return roles


def find_table(body: str) -> tuple[int, list[str], list[list[str]]] | None:
    """(offset of the header, header, rows) of the first CSV table in the message; prose around it is ignored."""
    lines = body.split("\n")
    for start, line in enumerate(lines):
        if line.count(",") < 2:
            continue
        rows = list(csv.reader(lines[start:]))
        roles = column_roles(rows[0])
        if "property" in roles and len(roles) >= 2:
            table = []
            for row in rows[1:]:
                if len(row) < 2:
                    if table:
                        break
                    continue
                table.append(row + [""] * (len(rows[0]) - len(row)))
            return len("\n".join(lines[:start])), rows[0], table
    return None


def _cell(row: list[str], roles: dict[str, int], role: str) -> str:
    return row[roles[role]].strip() if role in roles and roles[role] < len(row) else ""


def split_name(row: list[str], roles: dict[str, int]) -> tuple[str, str]:
    """(set, property): "Pset_X.Prop" in either cell is split; otherwise the two cells as they are."""
    pset, name = _cell(row, roles, "pset"), _cell(row, roles, "property")
    for cell in (name, pset):
        if (match := DOTTED.match(cell)):
            return match[1], match[2]
    return pset, name


def _predefined_token(row: list[str], roles: dict[str, int], entity: str | None, schemas: list[str]) -> str | None:
    """The predefined-type column, or an UPPERCASE word valid for the class in a descriptive column."""
    if "predefined" in roles:
        cell = _cell(row, roles, "predefined")
        return None if ANY_CELL.match(cell) else normalize(cell).strip()
    taken = {roles.get(r) for r in ("value", "property", "pset", "unit", "datatype")}
    for i, cell in enumerate(row):
        for word in re.findall(r"(?<![A-Za-z0-9_])[A-Z]{3,}(?![A-Za-z0-9_])", cell) if i not in taken else ():
            if entity and valid_predefined(entity, word, schemas):
                return word
    return None


def row_entity(row: list[str], roles: dict[str, int], schemas: list[str], fallback: Entity | None) -> Entity | None:
    """The class from the class column, element words, the predefined type alone, the standard set's
    applicable class, or else `fallback`."""
    mentions = ifc_names(_cell(row, roles, "entity") + " " + _cell(row, roles, "element"), schemas)
    entity = mentions[0].entity if mentions else entity_for_cell(_cell(row, roles, "element"), schemas)
    token = _predefined_token(row, roles, entity.name if entity else None, schemas)
    if entity is None and token and (name := entity_by_predefined(token, schemas)):
        entity = Entity(name)
    if entity is None and (applicable := set_entity(schemas, split_name(row, roles)[0])):
        entity = Entity(*applicable)
    if entity is None:
        return fallback
    predefined = valid_predefined(entity.name, token, schemas) if token else entity.predefined_type
    return Entity(entity.name, predefined)


def row_facet(row: list[str], roles: dict[str, int], entity: Entity, schemas: list[str]):
    """The requirement facet of one row, or None for rows the gold convention leaves out."""
    pset, name = split_name(row, roles)
    value_cell = _cell(row, roles, "value")
    constraint = parse_constraint(value_cell)
    if not name or constraint.kind == "skip" or any(ROW_SKIP.match(c) for c in row):
        return None
    cardinality = cardinality_of(_cell(row, roles, "cardinality") + " " + value_cell)
    unit = _cell(row, roles, "unit")
    unit = None if ANY_CELL.match(unit) else unit
    attributes = [attribute_names(s, entity.name) for s in schemas]
    if ATTRIBUTE_CELL.match(pset) or (not pset and all(name in a for a in attributes)):
        value = Restriction("xs:string", (("pattern", constraint.values[0]),)) if constraint.kind == "pattern" \
            else (constraint.values[0] if constraint.kind == "simple" else None)
        return Attribute(name, value, "required" if value is None and cardinality == "optional" else cardinality)
    named_set = pset if pset and not ANY_CELL.match(pset) and not pset.startswith(("(", "（")) else None
    prop = make_property(schemas, named_set, name, constraint, unit, cardinality)
    data_type = normalize(_cell(row, roles, "datatype")).strip().upper()
    if re.fullmatch(r"IFC[A-Z]+", data_type) and not pset.startswith(("Pset_", "Qto_")):
        prop = Property(prop.property_set, prop.base_name, prop.value, data_type, prop.cardinality)
    return prop


def csv_requirements(body: str, schemas: list[str]) -> list[Requirement]:
    """Requirements from the first table in `body`; [] when there is no recognizable table."""
    table = find_table(body)
    if table is None:
        return []
    offset, header, rows = table
    roles = column_roles(header)
    prose = ifc_names(body[:offset], schemas) or element_words(body[:offset], schemas)
    entities = fill_gaps([row_entity(row, roles, schemas, None) for row in rows], prose[0].entity if prose else None)
    found = []
    for row, entity in zip(rows, entities):
        facet = row_facet(row, roles, entity, schemas) if entity else None
        if facet is not None:
            label = _cell(row, roles, "element") or _cell(row, roles, "entity") or entity.name
            found.append(Requirement(entity, facet, label))
    return found


def fill_gaps(entities: list[Entity | None], default: Entity | None) -> list[Entity | None]:
    """Rows without an element take the previous row's, else the next row's, else the one in the prose."""
    filled, last = [], None
    for entity in entities:
        last = entity or last
        filled.append(last)
    following = next((e for e in entities if e), default)
    return [e or following for e in filled]
