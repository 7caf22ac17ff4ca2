"""The typed values of the catalogue of hard facts (facts.py): a fact, a unit conversion, the kinds."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .schema import SCHEMAS

VERSIONS = SCHEMAS
KINDS = {
    "home": "a set, property, quantity set, quantity, class or predefined type present in some IFC versions only",
    "moved": "a property whose set changed between IFC versions",
    "datatype": "a template data type that is not the intuitive one (rule in the fact)",
    "enum": "an enumerated property with its allowed values in one version",
    "qto": "a quantity set with its quantities and their kinds in one version",
    "ptype": "a predefined type with its IFC definition in one version",
    "unit": "the SI unit of a measure type the templates use, and the conversions an author makes",
}
# The version names of ifcopenshell.util.doc.
DOC_VERSIONS = {"IFC2X3": "IFC2X3", "IFC4": "IFC4", "IFC4X3_ADD2": "IFC4X3"}


@dataclass(frozen=True)
class Conversion:
    """From a unit requests use to the SI unit IDS values are written in: si = value × factor + offset."""

    written: str  # as a request writes it: "°C", "N/mm²", "L/s", "%", "min"
    factor: float
    offset: float = 0.0

    def to_si(self, value: float) -> float:
        return value * self.factor + self.offset


@dataclass(frozen=True)
class Fact:
    id: str
    kind: str  # a key of KINDS
    subject: str  # "Pset_Condition", "Pset_WallCommon.ThermalTransmittance", "IFCCOLUMN.PILASTER", a measure
    versions: tuple[str, ...]  # the IFC versions the fact holds in
    note: str  # one line for an author: what is true and what the obvious answer would get wrong
    data_type: str = ""  # UPPER IDS dataType (datatype facts; the property's type elsewhere)
    values: tuple[str, ...] = ()  # enum: allowed values; qto: "Quantity:DATATYPE"; moved: the two sets
    definition: str = ""  # the IFC definition as ifcopenshell's documentation gives it ("" when it has none)
    unit: str = ""  # unit facts: the SI unit symbol
    obvious: str = ""  # the tempting wrong answer, where the mining rule names one
    applies_to: tuple[str, ...] = ()  # UPPER classes a set applies to (home, qto)
    conversions: tuple[Conversion, ...] = ()

    def text(self) -> str:
        """Everything searchable about the fact, for --grep."""
        return " ".join((self.id, self.subject, self.note, self.data_type, self.definition, self.unit,
                         self.obvious, *self.values, *self.applies_to))


def normalized(text: str) -> str:
    """Definitions compare without markup spacing: runs of white space are one space."""
    return re.sub(r"\s+", " ", text or "").strip()
