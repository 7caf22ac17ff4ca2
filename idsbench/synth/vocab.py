"""What the IFC vocabulary (idsbench.vocabulary, from ifcopenshell) says about the lexicon's words.

The one rule that keeps a generated request determined: a concept is used for a group only where it has
exactly one home among the standard sets that apply to the group's class (and predefined type) in the
version at hand. "Use the standard property sets wherever the item exists there" then names one set and
one property. Quantities are looked up among the class's base quantity sets only, as the request asks
for them "as base quantities".
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from idsbench.harness.vocabulary import applicable_sets
from idsbench.vocabulary.psets import PsetTemplate, property_sets
from idsbench.vocabulary.schema import schema_vocabulary

from .lexicon import Concept, Group, lexicon

VARIANTS = ("latest", "tool-1.0.96")  # a home must read the same in both audit profiles' tables
_PROPERTY_KINDS = frozenset({"single", "enum"})


@dataclass(frozen=True)
class Home:
    """Where a concept lives for one class in one version: set, property, data type, allowed values."""

    pset: str
    name: str
    data_type: str
    enum_values: tuple[str, ...] = ()


def group_exists(version: str, group: Group) -> bool:
    cls = schema_vocabulary(version).classes.get(group.ifc_class)
    if cls is None or not cls.entity or cls.abstract:
        return False
    return group.predefined_type is None or group.predefined_type in cls.predefined


def has_attribute(version: str, ifc_class: str, attribute: str) -> bool:
    cls = schema_vocabulary(version).classes.get(ifc_class)
    return cls is not None and attribute in cls.attributes


def _restricted_elsewhere(template: PsetTemplate, predefined_type: str | None) -> bool:
    """A set whose every applicable entry names predefined types other than the group's."""
    named = set(template.predefined)
    return "" not in named and predefined_type not in named


@lru_cache(maxsize=None)
def candidate_sets(version: str, ifc_class: str, predefined_type: str | None) -> tuple[str, ...]:
    """Standard sets that apply to the class (and predefined type) in the version."""
    templates = property_sets(version, "latest")
    return tuple(s for s in applicable_sets(version, ifc_class)
                 if not _restricted_elsewhere(templates[s], predefined_type))


def _in_set(set_name: str, concept: Concept) -> bool:
    if concept.quantity:
        return set_name.startswith("Qto_") and set_name.endswith("BaseQuantities")
    return set_name.startswith("Pset_")


def _matches(version: str, group: Group, concept: Concept) -> list[tuple[str, str]]:
    templates = property_sets(version, "latest")
    found = []
    for set_name in candidate_sets(version, group.ifc_class, group.predefined_type):
        if not _in_set(set_name, concept):
            continue
        props = templates[set_name].properties
        kinds = _PROPERTY_KINDS | {"quantity"}
        found += [(set_name, n) for n in concept.names if n in props and props[n].kind in kinds]
    return found


CONCRETE_SETS = ("Pset_Concrete", "Pset_Reinforcement", "Pset_Precast")  # sets of concrete elements only


def _material_fits(group: Group, set_name: str) -> bool:
    """A group whose trade word names timber or steel objects (joists, 根太) carries no concrete item."""
    return not group.materials or "concrete" in group.materials or not set_name.startswith(CONCRETE_SETS)


def rivalled(version: str, group: Group, concept: Concept) -> bool:
    """A standard property the concept's words fit as well applies to the group ("fire resistance rating" is
    also IFC2X3's FireResistanceRating): the words do not single one out, so the concept is not asked."""
    rivals = rival_names(concept)
    if not rivals:
        return False
    templates = property_sets(version, "latest")
    present = {n for s in candidate_sets(version, group.ifc_class, group.predefined_type)
               for n in templates[s].properties}
    return bool(present & rivals)


def rival_names(concept: Concept) -> frozenset[str]:
    """The concept's declared rivals and the synonyms of its names (a gutter's Slope beside the Gradient)."""
    own = set(concept.names)
    synonyms = {n for names in lexicon().synonyms if names & own for n in names}
    return frozenset((synonyms | set(concept.rivals)) - own)


def _agrees(version: str, home: Home) -> bool:
    """The other profile's tables say the same, or do not know the set (IFC4 quantity sets in 1.0.96)."""
    template = property_sets(version, "tool-1.0.96").get(home.pset)
    if template is None:
        return home.pset.startswith("Qto_")
    prop = template.properties.get(home.name)
    return prop is not None and prop.data_types[:1] == (home.data_type,)


def expected_types(concept: Concept) -> tuple[str, ...]:
    """Data types a home may have: the concept's own list; a quantity's follows from its unit."""
    if not concept.quantity:
        return concept.data_types
    unit = concept.typical.unit if concept.typical else None
    return (lexicon().units[unit].intuitive,) if unit else ("IFCCOUNTMEASURE",)


def home(version: str, group: Group, concept: Concept) -> Home | None:
    """The concept's one home for the group in the version, or None (absent, ambiguous, or another type)."""
    return _home(version, group.key, concept.key, concept.quantity)


@lru_cache(maxsize=None)
def _home(version: str, group_key: str, concept_key: str, quantity: bool) -> Home | None:
    lex = lexicon()
    group = lex.group(group_key)
    concept = (lex.quantities if quantity else lex.properties)[concept_key]
    if not group_exists(version, group) or not concept.fits(group) or rivalled(version, group, concept):
        return None
    found = _matches(version, group, concept)
    if len(found) != 1 or (concept.sets and found[0][0] not in concept.sets) or not _material_fits(group, found[0][0]):
        return None
    set_name, name = found[0]
    prop = property_sets(version, "latest")[set_name].properties[name]
    found_home = Home(set_name, name, (prop.data_types or ("",))[0], prop.enum_values)
    if found_home.data_type not in expected_types(concept) or not _agrees(version, found_home):
        return None
    return found_home


def common_home(versions: tuple[str, ...], group: Group, concept: Concept) -> Home | None:
    """The home shared by every listed version (same set, property and data type), or None."""
    homes = {home(v, group, concept) for v in versions}
    return next(iter(homes)) if len(homes) == 1 else None
