"""Which facts of the standard a chosen requirement depends on where the obvious answer is wrong.

The facts are read from the IFC vocabulary through vocab.py (ifcopenshell's schemas and templates). Their
ids follow the vocabulary's catalogue of hard facts, so a task's traps can be looked up there:
`home:property:Pset_SpaceCoveringRequirements.FloorCovering`, `datatype:IFC4:Pset_StairCommon.RiserHeight`,
`enum:IFC4:Pset_DoorCommon.Status`, `qto:IFC4:Qto_WallBaseQuantities`, `ptype:IFC4:IFCBEAM.LINTEL`,
`unit:IFCTHERMODYNAMICTEMPERATUREMEASURE`.

The kinds:
- version-home: in another IFC version where the class exists, the concept lives in another set or under
  another name (IFC2X3 Pset_SpaceCommon.FloorCovering; IFC4X3 ChillerCapacity for IFC4 NominalCapacity);
- datatype: the template's type is not the one a writer reaches for (IfcPositiveLengthMeasure for a length,
  IfcCountMeasure for a count, IfcText or IfcIdentifier for text, IfcPositiveRatioMeasure for a
  percentage), or it differs between versions;
- enumeration: the value must be one of the template's enumerators, which the request gives in trade words;
- quantity-set: the base quantity set or quantity differs between versions where the class exists;
- unit: a conversion beyond millimetres to metres (°C to K, kN to N, % to a ratio, m³/h to m³/s, t to kg ...);
- predefined-type: the group is a predefined type chosen by its IFC definition (spec-level, see plan.py).
"""
from __future__ import annotations

from functools import lru_cache

from idsbench.vocabulary.schema import SCHEMAS

from .lexicon import Concept, Group, lexicon
from .plan import Trap
from .vocab import Home, group_exists, home

# What a writer types a value as before looking at the template (the client-property convention).
INTUITIVE = {"label": "IFCLABEL", "identifier": "IFCLABEL", "text": "IFCLABEL", "enumeration": "IFCLABEL",
             "boolean": "IFCBOOLEAN", "count": "IFCINTEGER", "date": "IFCDATE"}
PLAIN_UNITS = frozenset({"mm", "m", "m2", "m3", "kg", "W", "W/m2K"})


def intuitive_type(concept: Concept) -> str:
    if concept.kind == "measure" and concept.typical and concept.typical.unit:
        return lexicon().units[concept.typical.unit].intuitive
    return INTUITIVE.get(concept.kind, "")


def _elsewhere(versions: tuple[str, ...], group: Group, concept: Concept) -> list[Home]:
    return [h for v in SCHEMAS if v not in versions and group_exists(v, group)
            if (h := home(v, group, concept)) is not None]


def _moved(found: Home, others: list[Home]) -> bool:
    return any((h.pset, h.name) != (found.pset, found.name) for h in others)


def concept_traps(versions: tuple[str, ...], group: Group, concept: Concept, found: Home) -> tuple[Trap, ...]:
    """Traps of a standard property or base quantity at its home for the group."""
    return _concept_traps(versions, group.key, concept.key, concept.quantity, found)


@lru_cache(maxsize=None)
def _concept_traps(versions: tuple[str, ...], group_key: str, key: str, quantity: bool, found: Home) -> tuple[Trap, ...]:
    lex = lexicon()
    group, concept = lex.group(group_key), (lex.quantities if quantity else lex.properties)[key]
    version = versions[0]
    where = f"{found.pset}.{found.name}"
    others = _elsewhere(versions, group, concept)
    traps = []
    if _moved(found, others) or (concept.quantity and _qto_missing(versions, group, concept)):
        traps.append(Trap("quantity-set", f"qto:{version}:{found.pset}") if concept.quantity
                     else Trap("version-home", f"home:property:{where}"))
    retyped = any(h.data_type != found.data_type for h in others)
    if not concept.quantity and (found.data_type != intuitive_type(concept) or retyped):
        traps.append(Trap("datatype", f"datatype:{version}:{where}"))
    if concept.kind == "enumeration":
        traps.append(Trap("enumeration", f"enum:{version}:{where}"))
    return tuple(traps)


def _qto_missing(versions: tuple[str, ...], group: Group, concept: Concept) -> bool:
    """A base quantity the class has in the requested version but not in another where the class exists
    (IFC2X3 has no quantity set templates: an IFC2X3 habit does not help)."""
    return any(home(v, group, concept) is None for v in SCHEMAS
               if v not in versions and v != "IFC2X3" and group_exists(v, group))


def unit_trap(unit_key: str | None, data_type: str | None) -> tuple[Trap, ...]:
    if unit_key is None or unit_key in PLAIN_UNITS or not data_type:
        return ()
    return (Trap("unit", f"unit:{data_type}"),)
