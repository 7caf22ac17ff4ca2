"""Which facts of the standard a chosen requirement depends on, from the vocabulary's catalogue of hard facts
(idsbench.vocabulary.facts, mined from ifcopenshell). A task records them by fact id, so that what makes
it hard can be looked up (`python ishigaki_ids_bench.py facts --grep ...`).

The kinds, as the catalogue names them: `home` (a set, property, quantity or class that exists in some IFC
versions only: IFC4X3's ChillerCapacity for IFC4's NominalCapacity), `moved` (a property whose set
changed: IFC2X3 Pset_SpaceCommon.FloorCovering), `datatype` (a template type that is not the intuitive
one), `enum` (a value that must be one of the template's enumerators, asked for in trade words), `qto` (a
quantity set per version), `ptype` (a predefined type chosen by its definition) and `unit` (a conversion
beyond millimetres to metres).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from idsbench.vocabulary.facts import catalogue, kind_of

from .lexicon import Group
from .vocab import Home

PLAIN_UNITS = frozenset({"mm", "m", "m2", "m3", "kg", "W", "W/m2K", "lx"})


@dataclass(frozen=True)
class Trap:
    kind: str  # the catalogue's kind: home | moved | datatype | enum | qto | ptype | unit
    fact: str  # the catalogue's fact id


def _trap(fact_id: str) -> Trap:
    return Trap(kind_of(fact_id), fact_id)


def _known(fact_id: str) -> tuple[Trap, ...]:
    return (_trap(fact_id),) if catalogue().by_id(fact_id) is not None else ()


@lru_cache(maxsize=1)
def _moves() -> dict[tuple[str, str], tuple[str, ...]]:
    """(set, property) -> ids of the moves from or to it (a move's subject names only where it came from)."""
    found: dict[tuple[str, str], list[str]] = {}
    for fact in catalogue().of_kind("moved"):
        name = fact.subject.rpartition(".")[2]
        for pset in fact.values:
            found.setdefault((pset, name), []).append(fact.id)
    return {k: tuple(v) for k, v in found.items()}


@lru_cache(maxsize=None)
def home_traps(version: str, home: Home, quantity: bool) -> tuple[Trap, ...]:
    """Facts about a standard property's or quantity's home in the requested version: where it lives only in
    some versions or moved, its set per version (quantities), its data type."""
    where = f"{home.pset}.{home.name}"
    ids = [f.id for f in catalogue().lookup(where, version, "home") if f.subject == where]
    ids += [f.id for f in catalogue().lookup(home.pset, version, "home")]
    ids += list(_moves().get((home.pset, home.name), ()))
    traps = tuple(_trap(i) for i in dict.fromkeys(ids))
    if quantity:
        traps += _known(f"qto:{version}:{home.pset}")
    return traps + _known(f"datatype:{version}:{where}")


def enum_trap(version: str, home: Home) -> tuple[Trap, ...]:
    return _known(f"enum:{version}:{home.pset}.{home.name}")


def ptype_trap(version: str, group: Group) -> tuple[Trap, ...]:
    return _known(f"ptype:{version}:{group.ifc_class}.{group.predefined_type}") if group.predefined_type else ()


def unit_trap(unit_key: str | None, data_type: str | None) -> tuple[Trap, ...]:
    if unit_key is None or unit_key in PLAIN_UNITS or not data_type:
        return ()
    return _known(f"unit:{data_type}")
