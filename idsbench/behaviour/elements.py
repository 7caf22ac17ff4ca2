"""What a witness element carries, as plain data, and how facets write into it.

An element is a class, a predefined type, attribute values and property sets. Each write names a
key (`("pset", set, property)`, `("attr", name)`, `("class",)`, `("pdt",)`) so that witness
generation can tell which data a witness owns (its purpose) from data added so that other
specifications of the same IDS accept it.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ifctester.facet import Restriction

from .ifcschema import QUANTITY_CLASSES, spelled
from .patterns import matches_any

ANY_SET = "Custom_Properties"  # where a property goes whose set is given by a pattern


@dataclass(frozen=True)
class Value:
    ifc_type: str  # IfcLabel, IfcPositiveLengthMeasure, ... or IfcQuantityLength, ... in a Qto_ set
    value: Any


@dataclass
class Element:
    ifc_class: str  # the schema's spelling, e.g. IfcWall
    predefined_type: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)  # None = explicitly empty
    psets: dict[str, dict[str, Value]] = field(default_factory=dict)
    spread: list[tuple[tuple[str, ...], str, Value]] = field(default_factory=list)  # any-set properties
    owned: set = field(default_factory=set)

    def copy(self) -> Element:
        return copy.deepcopy(self)

    def set_property(self, pset: str, name: str, value: Value) -> tuple:
        self.psets.setdefault(pset, {})[name] = value
        return ("pset", pset, name)

    def drop_property(self, pset: str, name: str) -> tuple:
        props = self.psets.get(pset, {})
        props.pop(name, None)
        if not props:
            self.psets.pop(pset, None)
        return ("pset", pset, name)

    def finished(self) -> Element:
        """A copy in which every property whose set is a pattern is in every set matching it:
        a property facet with a pattern set is met only if all matching sets carry the property."""
        done = self.copy()
        for patterns, name, value in done.spread:
            for pset, props in done.psets.items():
                if name not in props and matches_any(patterns, pset):
                    props[name] = value
        done.spread = []
        return done


def property_type(version: str, pset: str, data_type: str | None, kind: str) -> str:
    """The IFC class a stored property value gets: the facet's dataType, or a quantity class."""
    if pset.startswith("Qto_"):
        return QUANTITY_CLASSES.get((data_type or "").upper(), "IfcQuantityLength")
    if data_type:
        return spelled(version, data_type) or data_type
    return {"float": "IfcReal", "integer": "IfcInteger", "boolean": "IfcBoolean"}.get(kind, "IfcLabel")


def pattern_list(param: Any) -> tuple[str, ...]:
    if isinstance(param, Restriction) and "pattern" in param.options:
        value = param.options["pattern"]
        return tuple(str(v) for v in (value if isinstance(value, list) else [value]))
    return ()
