"""The few facts about IFC schemas that witness generation needs, read from ifcopenshell."""
from __future__ import annotations

from functools import lru_cache

import ifcopenshell
import ifcopenshell.util.attribute
import ifcopenshell.util.type

_W = ifcopenshell.ifcopenshell_wrapper

# How ifcopenshell names the schemas an IDS may declare.
SCHEMAS = ("IFC2X3", "IFC4", "IFC4X3_ADD2")
_PRIMITIVES = {"string": "string", "boolean": "boolean", "logical": "logical", "real": "float",
               "number": "float", "integer": "integer"}
# A quantity set holds quantities, whose class fixes the measure type ifctester reads.
QUANTITY_CLASSES = {"IFCLENGTHMEASURE": "IfcQuantityLength", "IFCAREAMEASURE": "IfcQuantityArea",
                    "IFCVOLUMEMEASURE": "IfcQuantityVolume", "IFCMASSMEASURE": "IfcQuantityWeight",
                    "IFCCOUNTMEASURE": "IfcQuantityCount", "IFCTIMEMEASURE": "IfcQuantityTime"}
WRONG_QUANTITY = {"IfcQuantityLength": "IfcQuantityArea", "IfcQuantityArea": "IfcQuantityVolume",
                  "IfcQuantityVolume": "IfcQuantityArea", "IfcQuantityWeight": "IfcQuantityVolume",
                  "IfcQuantityCount": "IfcQuantityLength", "IfcQuantityTime": "IfcQuantityLength"}
_NOT_CHOSEN = ("USERDEFINED", "NOTDEFINED")


@lru_cache(maxsize=None)
def schema(version: str):
    return ifcopenshell.schema_by_name(version)


@lru_cache(maxsize=None)
def declaration(version: str, name: str):
    """The entity or type declaration for a name in any case, or None."""
    try:
        return schema(version).declaration_by_name(name)
    except (RuntimeError, ValueError):
        return None


def spelled(version: str, name: str) -> str | None:
    """The schema's own spelling of an upper-case name (IFCWALL -> IfcWall)."""
    found = declaration(version, name)
    return found.name() if found is not None else None


@lru_cache(maxsize=None)
def primitive(version: str, type_name: str) -> str | None:
    """'string', 'float', 'integer', 'boolean' or 'logical' for a defined type such as IFCLABEL."""
    found = declaration(version, type_name)
    for _ in range(10):
        if isinstance(found, _W.simple_type):
            return _PRIMITIVES.get(found.declared_type())
        if not isinstance(found, (_W.named_type, _W.type_declaration)):
            return None
        found = found.declared_type()
    return None


def attribute(version: str, ifc_class: str, name: str):
    entity = declaration(version, ifc_class)
    if entity is None or not hasattr(entity, "all_attributes"):
        return None
    return next((a for a in entity.all_attributes() if a.name() == name), None)


def attribute_kind(version: str, ifc_class: str, name: str) -> tuple[str | None, tuple[str, ...]]:
    """(kind of an attribute's value, its enumeration items): kinds as `primitive`, plus 'enum'."""
    found = attribute(version, ifc_class, name)
    if found is None:
        return None, ()
    kind = ifcopenshell.util.attribute.get_primitive_type(found)
    if kind == "enum":
        return "enum", tuple(ifcopenshell.util.attribute.get_enum_items(found))
    return {"string": "string", "float": "float", "integer": "integer", "boolean": "boolean",
            "logical": "logical"}.get(kind if isinstance(kind, str) else "", None), ()


def predefined_types(version: str, ifc_class: str) -> tuple[str, ...]:
    found = attribute(version, ifc_class, "PredefinedType")
    return tuple(ifcopenshell.util.attribute.get_enum_items(found)) if found is not None else ()


def type_class(version: str, ifc_class: str) -> str | None:
    """The type class that carries an occurrence's predefined type (IfcWall -> IfcWallType)."""
    try:
        names = ifcopenshell.util.type.get_applicable_types(spelled(version, ifc_class) or ifc_class, version)
    except Exception:  # noqa: BLE001 - no mapping for this class
        return None
    return next((n for n in names if predefined_types(version, n)), None)


def other_predefined_type(version: str, ifc_class: str, avoid: set[str]) -> str | None:
    """A standard predefined type of the class (or of its type class) outside `avoid`."""
    items = predefined_types(version, ifc_class)
    if not items and (carrier := type_class(version, ifc_class)):
        items = predefined_types(version, carrier)
    return next((i for i in items if i not in avoid and i not in _NOT_CHOSEN), None)


def is_type_class(version: str, ifc_class: str) -> bool:
    found = declaration(version, ifc_class)
    return found is not None and ifcopenshell.util.type.get_applicable_entities(found.name(), version) != [] \
        if hasattr(found, "name") else False


@lru_cache(maxsize=None)
def _concrete_subtypes(version: str, name: str) -> tuple[str, ...]:
    found = declaration(version, name)
    out = []
    for sub in sorted(found.subtypes(), key=lambda d: d.name()) if found is not None else []:
        if not sub.is_abstract():
            out.append(sub.name())
    return tuple(out)


def sibling_class(version: str, ifc_class: str, avoid: set[str], attributes: tuple[str, ...]) -> str | None:
    """Another concrete class near `ifc_class` (same supertype first, then one level up) that has
    the given attributes and is none of `avoid` (upper case)."""
    found = declaration(version, ifc_class)
    parent = found.supertype() if found is not None and hasattr(found, "supertype") else None
    for _ in range(3):
        if parent is None:
            return None
        for name in _concrete_subtypes(version, parent.name()):
            if name.upper() in avoid or name.upper() == ifc_class.upper():
                continue
            if all(attribute(version, name, a) is not None for a in attributes):
                return name
        parent = parent.supertype()
    return None
