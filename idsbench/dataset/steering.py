"""Steering in a request (gate n, version 3): phrases that tell a model how to write the IDS, and IFC
spellings that hand it the answer.

The phrases are data (data/steering.json, English and Japanese). The spellings are found with the IFC
vocabulary: an IFC class name (IfcWall, IFCWALL) outside a checklist's IFC-class column, a standard set
name (Pset_…, Qto_…), and an IFC enumeration value in capitals: a predefined type or an enumerated
property value of any version, written with an underscore (STRAIGHT_RUN_STAIR) or at least six letters
long (LIGHTDOME), as shorter capitals are ordinary abbreviations (LED, FM).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from idsbench.vocabulary.psets import property_sets
from idsbench.vocabulary.schema import SCHEMAS, schema_vocabulary

from .authoring import class_columns, csv_table

STEERING_FILE = Path(__file__).with_name("data") / "steering.json"
_CLASS = re.compile(r"(?<![A-Za-z0-9_])(?:Ifc[A-Z][A-Za-z0-9]+|IFC[A-Z0-9]{3,})(?![A-Za-z0-9_])")
_SET = re.compile(r"(?<![A-Za-z0-9_])(?:Pset|Qto)_[A-Za-z0-9_]+")
_CAPITALS = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*(?![A-Za-z0-9_])")
MIN_PLAIN_CAPITALS = 6


@lru_cache(maxsize=1)
def phrases() -> tuple[str, ...]:
    data = json.loads(STEERING_FILE.read_text(encoding="utf-8"))
    return tuple(p for language in sorted(data["phrases"]) for p in data["phrases"][language])


@lru_cache(maxsize=1)
def _class_names() -> frozenset[str]:
    return frozenset(upper for v in SCHEMAS for upper, cls in schema_vocabulary(v).classes.items() if cls.entity)


@lru_cache(maxsize=1)
def _enum_values() -> frozenset[str]:
    values = {p for v in SCHEMAS for p in schema_vocabulary(v).predefined_values()}
    values |= {e for v in SCHEMAS for t in property_sets(v, "latest").values()
               for prop in t.properties.values() for e in prop.enum_values}
    return frozenset(values)


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).lower()


def _without_class_columns(request: str) -> str:
    """The request with the cells of its CSV IFC-class columns blanked (real checklists have them)."""
    header, data = csv_table(request)
    columns = set(class_columns(header, data))
    if not columns:
        return request
    cells = {row[c] for row in data for c in columns if c < len(row) and row[c].strip()}
    for cell in sorted(cells, key=len, reverse=True):
        request = request.replace(cell, "")
    return request


def steering_in(request: str) -> list[str]:
    """What in one user message steers the model, each as "phrase '…'", "IFC class …", "set name …"
    or "enumeration value …" (sorted, without repeats)."""
    flat = _flat(request)
    found = {f"phrase {p!r}" for p in phrases() if _flat(p) in flat}
    body = _without_class_columns(request)
    found |= {f"IFC class {m}" for m in _CLASS.findall(body) if m.upper() in _class_names()}
    found |= {f"set name {m}" for m in _SET.findall(request)}
    found |= {f"enumeration value {m}" for m in _CAPITALS.findall(request)
              if m in _enum_values() and ("_" in m or len(m) >= MIN_PLAIN_CAPITALS)}
    return sorted(found)
