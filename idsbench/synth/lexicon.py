"""The trade-word lexicon (lexicon/*.yaml) as typed, read-only values.

The YAML files are written and reviewed like the dataset: how each trade names a group of objects, a
standard property or quantity, an attribute, a unit and the client's own properties, per language.
tests/synth/test_lexicon.py holds every IFC name in them to ifcopenshell.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Mapping

import yaml

FOLDER = Path(__file__).with_name("lexicon")
LANGUAGES = ("en", "ja")


@dataclass(frozen=True)
class Words:
    """Phrasings per language, plainest first."""

    en: tuple[str, ...]
    ja: tuple[str, ...]

    def of(self, language: str) -> tuple[str, ...]:
        return self.en if language == "en" else self.ja


@dataclass(frozen=True)
class Typical:
    """A range a practitioner writes values in: low..high in `unit`, by `step`."""

    low: Fraction | None  # None: no known range (only a positive value is checked)
    high: Fraction | None
    step: Fraction
    unit: str | None = None
    bound: str | None = None  # max | min: the only side a brief limits
    series: tuple[Fraction, ...] = ()  # when given, the only values a brief writes (DN sizes), low..high


FOUNDATION_CLASSES = ("IFCFOOTING", "IFCPILE", "IFCSLAB/BASESLAB")  # cast against the ground, below the building


@dataclass(frozen=True)
class Group:
    """A group of objects: an IFC class, optionally narrowed by a predefined type."""

    ifc_class: str
    predefined_type: str | None
    versions: tuple[str, ...]
    skip_versions: tuple[str, ...]
    domain: str
    words: Words
    family: str | None = None  # the kind of asset, for the purposes that fit it
    materials: tuple[str, ...] = ()  # when given, the only materials the trade word's objects are made of

    @property
    def key(self) -> str:
        return f"{self.ifc_class}/{self.predefined_type}" if self.predefined_type else self.ifc_class

    @property
    def foundation(self) -> bool:
        return self.ifc_class in FOUNDATION_CLASSES or self.key in FOUNDATION_CLASSES

    def usable_in(self, versions: tuple[str, ...]) -> bool:
        return all(v in self.versions and v not in self.skip_versions for v in versions)


@dataclass(frozen=True)
class Concept:
    """A standard property or base quantity as the trades name it."""

    key: str
    names: tuple[str, ...]
    kind: str
    data_types: tuple[str, ...]
    words: Words
    quantity: bool = False
    codes: tuple[str, ...] = ()  # label values, written the same in both languages
    enumeration: tuple[tuple[str, Words], ...] = ()  # (template value, trade words)
    true: Words | None = None  # booleans: the adjective for each answer
    false: Words | None = None
    typical: Typical | None = None
    sets: tuple[str, ...] = ()  # when given, the only standard sets that count as the concept's homes
    classes: tuple[str, ...] = ()  # when given, the only classes whose requests use the concept
    domains: tuple[str, ...] = ()  # when given, the only trades whose requests use the concept
    answer: str = "true"  # booleans: the answer a brief asks for (true | false | either)
    answer_for: tuple[tuple[str, bool], ...] = ()  # (group key or class, the only sensible answer)
    ranges: tuple[tuple[str, Typical], ...] = ()  # (group key, the range for it)
    excluded: tuple[str, ...] = ()  # group keys of listed classes the concept makes no sense for
    words_for: tuple[tuple[str, Words], ...] = ()  # (group key or class, the trade's own words for it there)
    norms: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (jurisdiction, its codes): a standard's classes
    not_with: tuple[str, ...] = ()  # concepts a brief does not ask of the same group beside this one
    excludes: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (value, concepts not asked beside it on a group)
    rivals: tuple[str, ...] = ()  # standard properties the words fit as well: no home where one applies
    role: bool = False  # a flag that selects objects ("main boards"), never one asked of every object
    envelope: bool = False  # thermal and solar: asked of the building's skin only, never of internal objects
    above_ground: bool = False  # fire and heat loss: never asked of foundations
    asked: tuple[str, ...] = ()  # enumerations: the only values a brief requires of every object of a group
    asked_for: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (group key or class, its plausible values; none: not asked)
    scale: tuple[str, ...] = ()  # an ordinal enumeration's grades, lowest first: "one of" takes neighbours only

    def available(self, jurisdiction: str | None) -> bool:
        """A standard's classes are asked only where the task's jurisdiction has them (None: any)."""
        return not self.norms or jurisdiction is None or jurisdiction in dict(self.norms)

    def codes_for(self, jurisdiction: str | None) -> tuple[str, ...]:
        return dict(self.norms).get(jurisdiction, ()) if self.norms else self.codes

    def fits(self, group: Group) -> bool:
        if self.domains and group.domain not in self.domains or group.key in self.excluded:
            return False
        if self.above_ground and group.foundation:
            return False
        if self.kind == "boolean" and self.decided(group):
            return False  # the group's name answers it ("roofs", "shear walls"): no brief asks
        if self.asked_of(group) == ():
            return False  # no value of it is typical of the group (a fuel of radiators)
        return not self.classes or group.ifc_class in self.classes or group.key in self.classes

    def decided(self, group: Group) -> bool:
        return bool({group.key, group.ifc_class} & dict(self.answer_for).keys())

    def asked_of(self, group: Group) -> tuple[str, ...] | None:
        """The values a brief may require of the group: its own list, else the concept's (None: any)."""
        found = dict(self.asked_for)
        for key in (group.key, group.ifc_class):
            if key in found:
                return found[key]
        return self.asked or None

    def words_of(self, group: Group) -> Words:
        """The item's words for the group: a subtype's own where the trade says it differently."""
        found = dict(self.words_for)
        return found.get(group.key) or found.get(group.ifc_class) or self.words

    def answer_of(self, group: Group, draw: float) -> bool:
        """A boolean's answer for the group: the only sensible one, else the concept's, else as drawn."""
        fixed = dict(self.answer_for)
        for key in (group.key, group.ifc_class):
            if key in fixed:
                return fixed[key]
        return {"true": True, "false": False}.get(self.answer, draw < 0.5)

    def typical_for(self, group: Group) -> Typical | None:
        """The range for the group: its own (a culvert is no pipe), else the concept's; a quantity has none
        of its own (None: only "positive")."""
        found = dict(self.ranges)
        if group.key in found:
            return found[group.key]
        return None if self.quantity else self.typical


@dataclass(frozen=True)
class AttributeWords:
    key: str
    name: str  # the IFC attribute
    applies: str  # element | space
    values: tuple[str, ...]
    words: Words


@dataclass(frozen=True)
class Unit:
    key: str
    measure: str
    factor: Fraction
    offset: Fraction
    intuitive: str
    symbol: Words


@dataclass(frozen=True)
class ClientProperty:
    key: str
    kind: str
    data_type: str
    names: Words  # the property name the request gives, one per language
    words: Words
    values: tuple[str, ...]
    codes: tuple[str, ...] = ()
    typical: Typical | None = None
    domains: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()  # when given, the only classes (or group keys) the property is kept for

    def typical_for(self, group: Group) -> Typical | None:
        return self.typical

    def fits(self, group: Group) -> bool:
        return group.domain in self.domains and (
            not self.classes or group.ifc_class in self.classes or group.key in self.classes)


@dataclass(frozen=True)
class Lexicon:
    groups: tuple[Group, ...]
    properties: Mapping[str, Concept]
    quantities: Mapping[str, Concept]
    attributes: Mapping[str, AttributeWords]
    units: Mapping[str, Unit]
    client_sets: tuple[Mapping[str, str], ...]
    client_properties: Mapping[str, ClientProperty]
    synonyms: tuple[frozenset[str], ...] = ()  # standard property names the trades' words do not tell apart
    prefixes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # group key or class -> a code's leading letters

    def group(self, key: str) -> Group:
        return next(g for g in self.groups if g.key == key)

    def prefixes_of(self, group: Group | None) -> tuple[str, ...]:
        """The letters a code of the group's objects starts with: its own, its class's, else plain ones."""
        keys = (group.key, group.ifc_class) if group else ()
        return next((self.prefixes[k] for k in keys if k in self.prefixes), self.prefixes["default"])


def _read(name: str):
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader where PyYAML has it: 10x faster
    return yaml.load((FOLDER / name).read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - safe loaders only


def _words(entry: Mapping) -> Words:
    return Words(tuple(entry["en"]), tuple(entry["ja"]))


def _typical(entry: Mapping | None) -> Typical | None:
    if not entry:
        return None
    series = tuple(Fraction(str(v)) for v in entry.get("series", ()))
    return Typical(Fraction(str(entry["low"])), Fraction(str(entry["high"])), Fraction(str(entry.get("step", 1))),
                   entry.get("unit"), entry.get("bound"), series)


def _group(entry: Mapping) -> Group:
    return Group(entry["class"], entry.get("predefined_type"), tuple(entry["versions"]),
                 tuple(entry.get("skip_versions", ())), entry["domain"], _words(entry), entry.get("family"),
                 tuple(entry.get("materials", ())))


def _flag(entry: Mapping, key: bool) -> Words | None:
    answer = entry.get(key)  # YAML reads the keys true/false as booleans
    return Words((answer["en"],), (answer["ja"],)) if answer else None


def _concept(key: str, entry: Mapping, quantity: bool) -> Concept:
    values = entry.get("values") or ()
    enumeration = tuple((v, _words(w)) for v, w in values.items()) if isinstance(values, dict) else ()
    codes = () if isinstance(values, dict) else tuple(str(v) for v in values)
    kind = entry.get("kind", "measure" if entry.get("typical", {}).get("unit") else "count")

    ranges = tuple((k, _typical({**entry.get("typical", {}), **r})) for k, r in entry.get("ranges", {}).items())
    return Concept(key, tuple(entry.get("names", [key])), kind, tuple(entry.get("data_types", ())), _words(entry),
                   quantity=quantity, codes=codes, enumeration=enumeration, true=_flag(entry, True),
                   false=_flag(entry, False), typical=_typical(entry.get("typical")), sets=tuple(entry.get("sets", ())),
                   classes=tuple(entry.get("classes", ())), domains=tuple(entry.get("domains", ())),
                   answer=str(entry.get("answer", "true")).lower(), ranges=ranges,  # YAML reads false as a bool
                   answer_for=tuple(entry.get("answer_for", {}).items()), excluded=tuple(entry.get("excluded", ())),
                   words_for=tuple((k, _words(w)) for k, w in entry.get("words_for", {}).items()),
                   norms=tuple((k, tuple(v)) for k, v in entry.get("norms", {}).items()),
                   not_with=tuple(entry.get("not_with", ())), rivals=tuple(entry.get("rivals", ())),
                   excludes=tuple((k, tuple(v)) for k, v in entry.get("excludes", {}).items()),
                   role=bool(entry.get("role", False)), envelope=bool(entry.get("envelope", False)),
                   above_ground=bool(entry.get("above_ground", False)),
                   asked=tuple(entry.get("asked", ())), scale=tuple(entry.get("scale", ())),
                   asked_for=tuple((k, tuple(v)) for k, v in entry.get("asked_for", {}).items()))


def _unit(key: str, entry: Mapping) -> Unit:
    return Unit(key, entry["measure"], Fraction(entry["factor"]), Fraction(entry.get("offset", "0")),
                entry["intuitive"], Words((entry["en"],), (entry["ja"],)))


def _attribute(key: str, entry: Mapping) -> AttributeWords:
    return AttributeWords(key, entry.get("names", [key])[0], entry["applies"], tuple(entry["values"]), _words(entry))


def _client_property(key: str, entry: Mapping) -> ClientProperty:
    names = Words((entry["names"]["en"],), (entry["names"]["ja"],))
    return ClientProperty(key, entry["kind"], entry["data_type"], names, _words(entry),
                          tuple(entry["values"]), tuple(entry.get("codes", ())), _typical(entry.get("typical")),
                          tuple(entry["domains"]), tuple(entry.get("classes", ())))


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The lexicon, read once per process."""
    clients = _read("clients.yaml")
    return Lexicon(
        groups=tuple(_group(e) for e in _read("classes.yaml")),
        properties={k: _concept(k, e, False) for k, e in _read("properties.yaml").items()},
        quantities={k: _concept(k, e, True) for k, e in _read("quantities.yaml").items()},
        attributes={k: _attribute(k, e) for k, e in _read("attributes.yaml").items()},
        units={k: _unit(k, e) for k, e in _read("units.yaml").items()},
        client_sets=tuple(dict(s) for s in clients["sets"]),
        client_properties={k: _client_property(k, e) for k, e in clients["properties"].items()},
        synonyms=tuple(frozenset(names) for names in _read("synonyms.yaml")),
        prefixes={k: tuple(v) for k, v in _read("prefixes.yaml").items()},
    )
