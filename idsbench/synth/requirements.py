"""What may be required of a group, and one requirement drawn with its value.

An option is a concept with its one home for the group (standard properties, base quantities), an
attribute the class has, or one of the client's own properties. Values are drawn from the lexicon (codes,
enumerators in trade words, typical ranges in practitioners' units) and from values.py (formats, bounds).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import lru_cache

from idsbench.vocabulary.schema import schema_vocabulary

from .hard import spelled_otherwise
from .lexicon import AttributeWords, ClientProperty, Concept, Group, lexicon
from .plan import Brief, Equals, OneOf, Presence, Requirement, Text, Value
from .settings import Setting
from .traps import PLAIN_UNITS, enum_trap, home_traps, unit_trap
from .values import positive, sample_format, sample_range
from .vocab import Home, common_home, has_attribute

RANGE_DRAWS = 6  # a drawn bound whose SI value is not a short decimal is drawn again this often


@dataclass(frozen=True)
class Option:
    source: str  # standard | quantity | attribute | client | any-set
    key: str
    home: Home | None = None


def _client_fits(prop: ClientProperty, versions: tuple[str, ...]) -> bool:
    """The dictionary's data type exists in every version (IFC2X3 has no IfcDate)."""
    return all(prop.data_type in schema_vocabulary(v).data_types for v in versions)


def _attribute_fits(group: Group, attribute: AttributeWords, versions: tuple[str, ...]) -> bool:
    space = group.ifc_class == "IFCSPACE"
    if (attribute.applies == "space") != space or (space and attribute.key == "Name"):
        return False
    return all(has_attribute(v, group.ifc_class, attribute.name) for v in versions)


def options(versions: tuple[str, ...], group: Group, client_mode: str | None,
            jurisdiction: str | None = None) -> list[Option]:
    """Everything a specification on the group may require in the versions (and the jurisdiction: None for
    any), in lexicon order."""
    return list(_options(versions, group.key, client_mode, jurisdiction))


@lru_cache(maxsize=None)
def _options(versions: tuple[str, ...], group_key: str, client_mode: str | None,
             jurisdiction: str | None) -> tuple[Option, ...]:
    lex = lexicon()
    group = lex.group(group_key)
    found = [Option("standard", k, h) for k, c in lex.properties.items()  # role flags only narrow (narrow.py)
             if c.available(jurisdiction) and not c.role and (h := common_home(versions, group, c)) is not None]
    if "IFC2X3" not in versions:
        found += [Option("quantity", k, h) for k, c in lex.quantities.items()
                  if (h := common_home(versions, group, c)) is not None]
    found += [Option("attribute", k) for k, a in lex.attributes.items() if _attribute_fits(group, a, versions)]
    if client_mode:
        found += [Option(client_mode, k) for k, p in lex.client_properties.items()
                  if p.fits(group) and _client_fits(p, versions)]
    return tuple(found)


def clashes(option: Option, keys: set[str]) -> bool:
    """The option is a standard property a brief does not ask beside one already asked of the group (a
    concrete cover beside the cover to the main bars), either way round."""
    props = lexicon().properties
    if option.source != "standard":
        return False
    return bool(set(props[option.key].not_with) & keys) or any(
        option.key in props[k].not_with for k in keys if k in props)


def _excluded_by(req: Requirement) -> set[str]:
    """The concepts a standard requirement's value rules out on its group (an electric boiler: no firing mode)."""
    concept = lexicon().properties.get(req.key) if req.source == "standard" else None
    if concept is None or not concept.excludes:
        return set()
    values = {req.value.gold} if isinstance(req.value, Equals) else set(req.value.gold) if isinstance(
        req.value, OneOf) else set()
    return {k for value, keys in concept.excludes if value in values for k in keys}


def _internal(req: Requirement) -> bool:
    return req.key == "IsExternal" and isinstance(req.value, Equals) and req.value.gold == "false"


def _envelope(req: Requirement) -> bool:
    concept = lexicon().properties.get(req.key) if req.source == "standard" else None
    return concept is not None and concept.envelope


def compatible(req: Requirement, others) -> bool:
    """No value of one rules out the other's item, either way round; no U-value or g-value of internal
    objects."""
    return not any(req.key in _excluded_by(o) or o.key in _excluded_by(req)
                   or _internal(req) and _envelope(o) or _envelope(req) and _internal(o) for o in others)


def compatible_all(reqs) -> tuple[Requirement, ...]:
    """The requirements in order, without those an earlier one's value rules out."""
    kept: list[Requirement] = []
    for req in reqs:
        if compatible(req, kept):
            kept.append(req)
    return tuple(kept)


def concept_of(option: Option) -> Concept:
    lex = lexicon()
    return lex.quantities[option.key] if option.source == "quantity" else lex.properties[option.key]


def _measure(rng: random.Random, setting: Setting, typical, integer: bool) -> tuple[Value, str | None]:
    unit_key = typical.unit
    if unit_key and not setting.conversions and unit_key not in PLAIN_UNITS:
        return Presence(), None
    unit = lexicon().units[unit_key] if unit_key else None
    if typical.low is None:
        return positive(unit, integer), None
    for _ in range(RANGE_DRAWS):
        drawn = sample_range(rng, typical, unit, integer)
        if drawn is not None:
            return drawn, unit_key
    return Presence(), None


def _neighbours(rng: random.Random, concept: Concept, known: list) -> list:
    """Two values for "one of": adjacent grades of an ordinal scale (low or medium, never low or very high),
    any two of a list of kinds."""
    if not concept.scale:
        return sorted(rng.sample(known, 2), key=known.index)
    graded = sorted((k for k in known if k[0] in concept.scale), key=lambda k: concept.scale.index(k[0]))
    pairs = [p for p in zip(graded, graded[1:])
             if concept.scale.index(p[1][0]) - concept.scale.index(p[0][0]) == 1]
    return list(rng.choice(pairs)) if pairs else []


def _enumeration(rng: random.Random, setting: Setting, concept: Concept, home: Home, group: Group) -> Value:
    asked = concept.asked_of(group) or home.enum_values  # "every pile existing" is no brief's requirement
    known = [(v, w) for v, w in concept.enumeration if v in home.enum_values and v in asked]
    chosen = _neighbours(rng, concept, known) if len(known) >= 2 and rng.random() < 0.4 else []
    if chosen:
        return OneOf(tuple(v for v, _ in chosen), tuple(w for _, w in chosen))
    weights = [3 if i < 2 else 1 for i in range(len(known))]  # the everyday values first (new, existing)
    if any(spelled_otherwise(v, w) for v, w in known) and rng.random() < setting.hard:
        weights = [int(spelled_otherwise(v, w)) for v, w in known]
    value, words = rng.choices(known, weights)[0]
    return Equals(value, words)


def _codes(rng: random.Random, codes: tuple[str, ...]) -> Value:
    if len(codes) >= 3 and rng.random() < 0.45:  # codes are listed as a scale: neighbours (Fc24-Fc30), no gaps
        count = rng.choice((2, 3))
        start = rng.randrange(len(codes) - count + 1)
        return OneOf(codes[start:start + count], (None,) * count)
    return Equals(rng.choice(codes))


def concept_value(rng: random.Random, setting: Setting, concept: Concept, home: Home,
                  group: Group, jurisdiction: str | None = None) -> tuple[Value, str | None]:
    """A value for a standard property or quantity, and the unit it is written in (None: no unit)."""
    roll = rng.random()
    if concept.kind in ("measure", "count") and concept.typical and roll < 0.75:
        typical = concept.typical_for(group) or replace(concept.typical, low=None, high=None)
        return _measure(rng, setting, typical, concept.kind == "count")
    if concept.kind == "enumeration" and concept.enumeration:
        return _enumeration(rng, setting, concept, home, group), None
    if concept.kind == "boolean" and roll < 0.7:
        answer = concept.answer_of(group, rng.random())
        return Equals("true" if answer else "false", concept.true if answer else concept.false), None
    codes = concept.codes_for(jurisdiction)
    if concept.kind == "label" and codes and roll < 0.7:
        return _codes(rng, codes), None
    if concept.kind == "identifier" and roll < 0.35:
        return sample_format(rng, prefixes=lexicon().prefixes_of(group)), None
    return Presence(), None


def _standard(rng: random.Random, setting: Setting, versions, group: Group, option: Option,
              jurisdiction: str) -> Requirement:
    concept = concept_of(option)
    value, unit_key = concept_value(rng, setting, concept, option.home, group, jurisdiction)
    traps = home_traps(versions[0], option.home, concept.quantity)
    if isinstance(value, (Equals, OneOf)) and concept.kind == "enumeration":
        traps += enum_trap(versions[0], option.home)
    words = concept.words_of(group)
    return Requirement(option.source, option.key, Text.same(option.home.pset), Text.same(option.home.name),
                       option.home.data_type, value, traps=traps + unit_trap(unit_key, option.home.data_type),
                       words=None if words == concept.words else words,
                       normed=bool(concept.norms) and isinstance(value, (Equals, OneOf)))


LOCATING = ("Name", "Tag", "RoomNumber")  # fields that mark an object where it is, as storey-led codes do


def _attribute(rng: random.Random, group: Group, option: Option) -> Requirement:
    attribute = lexicon().attributes[option.key]
    storeys = option.key in LOCATING and group.domain != "civil"
    pattern = "pattern" in attribute.values and rng.random() < 0.6
    value = sample_format(rng, storeys, lexicon().prefixes_of(group)) if pattern else Presence()
    return Requirement("attribute", option.key, None, Text.same(attribute.name), None, value)


def client_value(rng: random.Random, setting: Setting, prop: ClientProperty,
                 group: Group | None = None) -> tuple[Value, str | None]:
    way = rng.choice(prop.values)
    if way == "code":
        return sample_format(rng, prefixes=lexicon().prefixes_of(group)), None
    if way == "enumeration":
        return _codes(rng, prop.codes), None
    if way == "boolean":
        return Equals(rng.choice(("true", "true", "false"))), None
    if way == "bounds":
        return _measure(rng, setting, prop.typical, prop.kind == "integer")
    return Presence(), None


def _client(rng: random.Random, setting: Setting, option: Option, client_set: Text | None,
            group: Group) -> Requirement:
    prop = lexicon().client_properties[option.key]
    name = Text(prop.names.en[0], prop.names.ja[0])
    pset = client_set if option.source == "client" else None
    if rng.random() < setting.prohibited_requirement:  # a property the client retires: it must not be given
        return Requirement(option.source, option.key, pset, name, prop.data_type, Presence(), "prohibited")
    value, unit_key = client_value(rng, setting, prop, group)
    return Requirement(option.source, option.key, pset, name, prop.data_type, value,
                       traps=unit_trap(unit_key, prop.data_type))


def requirement(rng: random.Random, setting: Setting, versions: tuple[str, ...], group: Group, option: Option,
                brief: Brief) -> Requirement:
    """One requirement for the option, with its value and cardinality."""
    if option.source in ("standard", "quantity"):
        found = _standard(rng, setting, versions, group, option, brief.jurisdiction)
    elif option.source == "attribute":
        found = _attribute(rng, group, option)
    else:
        found = _client(rng, setting, option, brief.client_set, group)
    if not isinstance(found.value, Presence) and rng.random() < setting.optional_requirement:
        return Requirement(**{**found.__dict__, "cardinality": "optional"})
    return found
