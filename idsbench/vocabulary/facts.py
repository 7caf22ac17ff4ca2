"""The catalogue of hard facts: what a model must know exactly to write a gold IDS, mined from ifcopenshell.

A fact is a typed value with a stable id, a kind, the IFC versions it holds in and the data an author
needs. The kinds (KINDS below) and how each is mined are in `mining.py`; the ids read

    home:pset:Pset_Condition                          a set, property, quantity set, quantity, class or
    home:property:Pset_SpaceCommon.Reference          predefined type that exists in some of IFC2X3 / IFC4 /
    home:class:IFCKERB   home:ptype:IFCWINDOW.SKYLIGHT  IFC4X3_ADD2 and not in the others
    moved:Pset_SpaceCommon.WallCovering>Pset_SpaceCoveringRequirements   a property that changed sets
    datatype:IFC4:Pset_DoorCommon.FireRating          a template data type that is not the intuitive one
    enum:IFC4X3_ADD2:Pset_StairCommon.…               an enumerated property and its allowed values
    qto:IFC4:Qto_WallBaseQuantities                   a quantity set and its quantities
    ptype:IFC4X3_ADD2:IFCCOLUMN.PILASTER              a predefined type and its IFC definition
    unit:IFCTHERMODYNAMICTEMPERATUREMEASURE           the SI unit of a measure and the conversions to it

Use: `catalogue()` (kept on disk like the vocabulary, see cache.py), then `by_id`, `of_kind`, `lookup`,
`select` and `definition`. Nothing here reads the dataset or the audit: the dataset's gates, the
synthetic task generator and `python ishigaki_ids_bench.py facts` build on it.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .cache import cache_root, cached, key
from .fact_types import DOC_VERSIONS, KINDS, VERSIONS, Conversion, Fact, normalized

__all__ = ["Catalogue", "Conversion", "DOC_VERSIONS", "Fact", "KINDS", "VERSIONS", "catalogue", "definition",
           "kind_of", "normalized"]

@dataclass(frozen=True, eq=False)
class Catalogue:
    facts: tuple[Fact, ...]
    _by_id: dict = field(init=False, repr=False)
    _by_subject: dict = field(init=False, repr=False)

    def __post_init__(self) -> None:
        subjects: dict[str, list[Fact]] = {}
        for f in self.facts:
            subjects.setdefault(f.subject.upper(), []).append(f)
        object.__setattr__(self, "_by_id", {f.id: f for f in self.facts})
        object.__setattr__(self, "_by_subject", {k: tuple(v) for k, v in subjects.items()})

    def __len__(self) -> int:
        return len(self.facts)

    def by_id(self, fact_id: str) -> Fact | None:
        return self._by_id.get(fact_id)

    def of_kind(self, kind: str) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if f.kind == kind)

    def lookup(self, subject: str, version: str | None = None, kind: str | None = None) -> tuple[Fact, ...]:
        """The facts about one subject ("Pset_Condition", "IFCCOLUMN.PILASTER"; any case), optionally those
        holding in `version` and of `kind`."""
        found = self._by_subject.get(subject.upper(), ())
        return tuple(f for f in found if (version is None or version in f.versions)
                     and (kind is None or f.kind == kind))

    def select(self, kind: str | None = None, version: str | None = None, grep: str | None = None,
               absent: str | None = None) -> tuple[Fact, ...]:
        """Facts of a kind, holding in `version`, not holding in `absent` (what a version lacks), whose text
        contains `grep` (ignoring case)."""
        needle = (grep or "").lower()
        return tuple(f for f in self.facts if (kind is None or f.kind == kind)
                     and (version is None or version in f.versions)
                     and (absent is None or absent not in f.versions)
                     and (not needle or needle in f.text().lower()))

    def definition(self, version: str, name: str) -> str | None:
        """The IFC definition of a predefined type ("IFCCOLUMN.PILASTER"), a standard property or quantity
        ("Pset_WallCommon.ThermalTransmittance"), a set or a class in one version; None when ifcopenshell
        has none."""
        return definition(version, name)


def kind_of(fact_id: str) -> str:
    """The kind an id names ("" when it names none), without loading the catalogue."""
    kind = fact_id.split(":", 1)[0]
    return kind if kind in KINDS else ""


@lru_cache(maxsize=1)
def _source_digest() -> str:
    digest = hashlib.sha256()
    for name in ("facts.py", "fact_types.py", "mining.py", "datatype_rules.py", "units.py"):
        digest.update(Path(__file__).with_name(name).read_bytes())
    return digest.hexdigest()[:12]


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """Every fact, mined once and kept on disk (rebuilt when ifcopenshell or the mining code changes)."""
    return Catalogue(cached(f"facts-{_source_digest()}", _mine))


def _mine() -> tuple[Fact, ...]:
    from . import mining

    _drop_stale()
    return mining.mine()


def _drop_stale() -> None:
    """The facts of an older mining code share the vocabulary's folder (same ifcopenshell): remove them."""
    root = cache_root()
    current = f"facts-{_source_digest()}.pickle"
    for old in (root / "vocabulary" / key()).glob("facts-*.pickle") if root is not None else ():
        if old.name != current:
            old.unlink(missing_ok=True)


@lru_cache(maxsize=None)
def definition(version: str, name: str) -> str | None:
    from . import mining

    text = mining.definition(DOC_VERSIONS[version], name)
    return normalized(text) if text else None
