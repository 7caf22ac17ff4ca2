"""What a model that knows IFC well still gets wrong, as general rules over where the standard puts an item.

The rules read the standard (ifcopenshell's templates) and the lexicon's trade words, never a list of
answers some model missed; medium and hard draw requirements on such items in proportion to their setting
(settings.Setting.hard). A home has these kinds:

- datatype: its data type is not the everyday one a writer reaches for (IfcLabel for text, IfcBoolean for
  yes/no, IfcDate, the plain measure of a unit: IfcLengthMeasure, IfcAreaMeasure...): counts and integers,
  positive and non-negative lengths, the three ratio types, reals, identifiers, long text, logicals,
  durations.
- set: it is in a set of the class's own other than its common set (Pset_...Common): a type-specific set
  (Pset_DoorWindowGlazingType, Pset_SanitaryTerminalTypeToiletPan), an occurrence or a requirements set
  (Pset_FanOccurrence, Pset_SpaceOccupancyRequirements). The sets every element has (manufacturer, warranty,
  condition) are well known; they count only by their other kinds.
- version: the neighbouring IFC version (IFC4 beside IFC2X3 and IFC4X3, IFC4X3 beside IFC4) has no such
  property in that set, or types it otherwise: the set or the name moved, or the type changed.

and an enumerated value is `enum`-hard when it cannot be read off its trade words: it is no part of them in
capitals (MODERATE for "medium", PENDANT for "pendent", CABINET_RECESSED for "in a recessed cabinet", IFC2X3's
HandleWithCare for "handle with care"; BALL for "ball valve" can be read off).
"""
from __future__ import annotations

import re
from functools import lru_cache

from idsbench.vocabulary.psets import property_sets

from .lexicon import Words, lexicon
from .vocab import Home

NEIGHBOUR = {"IFC2X3": "IFC4", "IFC4": "IFC4X3_ADD2", "IFC4X3_ADD2": "IFC4"}
COMPETING = ("ratio", "time")  # IfcRatio-, IfcPositiveRatio-, IfcNormalisedRatioMeasure; IfcTime- or IfcDuration


@lru_cache(maxsize=1)
def everyday_types() -> frozenset[str]:
    """Text, yes/no, dates, and the measure a writer reaches for first for each unit of the lexicon (units.yaml),
    except where several types compete for the same quantity."""
    units = lexicon().units.values()
    return frozenset({"IFCLABEL", "IFCBOOLEAN", "IFCDATE"} | {u.intuitive for u in units if u.measure not in COMPETING})


def _moves(version: str, pset: str, name: str, data_type: str) -> bool:
    template = property_sets(NEIGHBOUR[version], "latest").get(pset)
    prop = template.properties.get(name) if template is not None else None
    return prop is None or prop.data_types[:1] != (data_type,)


@lru_cache(maxsize=None)
def facet_kinds(versions: tuple[str, ...], pset: str, name: str, data_type: str) -> frozenset[str]:
    """The kinds of a standard property or quantity (a Pset_ or Qto_ set) in the versions asked for."""
    kinds = set()
    if data_type not in everyday_types():
        kinds.add("datatype")
    if pset.startswith("Pset_") and not pset.endswith("Common") and not any(shared_set(v, pset) for v in versions):
        kinds.add("set")
    if any(_moves(v, pset, name, data_type) for v in versions):
        kinds.add("version")
    return frozenset(kinds)


@lru_cache(maxsize=None)
def shared_set(version: str, pset: str) -> bool:
    """A set every element has (manufacturer, warranty, condition, maintenance...), not one of the class."""
    template = property_sets(version, "latest").get(pset)
    return template is not None and bool(set(template.applicable) & {"IFCELEMENT", "IFCPRODUCT", "IFCOBJECT"})


def home_kinds(versions: tuple[str, ...], home: Home) -> frozenset[str]:
    return facet_kinds(versions, home.pset, home.name, home.data_type)


def spelled_otherwise(value: str, words: Words | None) -> bool:
    """The enumerator, without its underscores, is in none of its English trade words written in capitals
    without spaces or signs."""
    if words is None:
        return False
    return all(value.replace("_", "") not in re.sub(r"[^A-Z0-9]", "", w.upper()) for w in words.en)


@lru_cache(maxsize=1)
def _value_words() -> dict[tuple[str, str], Words]:
    """(IFC property name, enumerator) -> the lexicon's trade words for it."""
    return {(n, v): w for c in lexicon().properties.values() for n in c.names for v, w in c.enumeration}


def requirement_kinds(versions: tuple[str, ...], pset: str, name: str, data_type: str,
                      values: tuple[str, ...]) -> frozenset[str]:
    """The kinds of a requirement as a gold writes it (for calibration): its home's, and `enum` when a value
    the lexicon has words for is spelled otherwise (values the lexicon does not word are not judged)."""
    if not pset.startswith(("Pset_", "Qto_")):
        return frozenset()
    words = _value_words()
    tricky = any(spelled_otherwise(v, words.get((name, v))) for v in values)
    return facet_kinds(versions, pset, name, data_type) | ({"enum"} if tricky else set())
