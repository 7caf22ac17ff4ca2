"""The catalogue's unit facts: the SI unit of each measure type the templates use, and the conversions from
the units requests are written in.

From ifcopenshell: which unit type a measure belongs to (ifcopenshell.util.unit.get_measure_unit_type,
checked against the schema's IfcUnitEnum and IfcDerivedUnitEnum) and the SI unit of every named unit type
(si_type_names, with the symbols of unit_symbols). What it does not hold is physics, written here: the SI
symbols it lacks, the SI composition of derived unit types (only those a template measure uses and whose
quantity is unambiguous; the others get no unit fact), and the conversion factors, which the tests check
against ifcopenshell.util.unit.convert where it can express them. Mass is in kilograms (IFC names the
SI unit GRAM and writes it with the prefix KILO). Ratios have no unit: a fraction, 0.5 for 50 %.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from math import pi

from .fact_types import Conversion, Fact

_SYMBOLS = {
    "GRAM": "kg", "KELVIN": "K", "WATT": "W", "JOULE": "J", "AMPERE": "A", "VOLT": "V", "OHM": "Ω",
    "HERTZ": "Hz", "RADIAN": "rad", "STERADIAN": "sr", "LUMEN": "lm", "LUX": "lx", "CANDELA": "cd",
    "MOLE": "mol", "COULOMB": "C", "FARAD": "F", "SIEMENS": "S", "WEBER": "Wb", "TESLA": "T",
    "HENRY": "H", "BECQUEREL": "Bq", "GRAY": "Gy", "SIEVERT": "Sv",
}
_DERIVED = {
    "VOLUMETRICFLOWRATEUNIT": "m3/s", "THERMALTRANSMITTANCEUNIT": "W/(m2·K)", "LINEARVELOCITYUNIT": "m/s",
    "MASSFLOWRATEUNIT": "kg/s", "MODULUSOFELASTICITYUNIT": "Pa", "SHEARMODULUSUNIT": "Pa",
    "MASSDENSITYUNIT": "kg/m3", "MASSPERLENGTHUNIT": "kg/m", "AREADENSITYUNIT": "kg/m2",
    "SECTIONMODULUSUNIT": "m3", "MOMENTOFINERTIAUNIT": "m4", "TORQUEUNIT": "N·m", "PLANARFORCEUNIT": "Pa",
    "LINEARFORCEUNIT": "N/m", "ROTATIONALFREQUENCYUNIT": "Hz", "THERMALRESISTANCEUNIT": "m2·K/W",
    "HEATFLUXDENSITYUNIT": "W/m2", "SPECIFICHEATCAPACITYUNIT": "J/(kg·K)", "HEATINGVALUEUNIT": "J/kg",
    "THERMALEXPANSIONCOEFFICIENTUNIT": "1/K", "TEMPERATURERATEOFCHANGEUNIT": "K/s", "SOUNDPRESSUREUNIT": "Pa",
    "SOUNDPOWERUNIT": "W", "ACCELERATIONUNIT": "m/s2", "ANGULARVELOCITYUNIT": "rad/s",
    "KINEMATICVISCOSITYUNIT": "m2/s", "DYNAMICVISCOSITYUNIT": "Pa·s", "MOLECULARWEIGHTUNIT": "kg/mol",
    "INTEGERCOUNTRATEUNIT": "1/s",
}
_RATIO_UNIT_TYPES = ("RATIOUNIT", "NORMALISEDRATIOUNIT")
_PER_HOUR = 1 / 3600
CONVERSIONS = {
    "THERMODYNAMICTEMPERATUREUNIT": (Conversion("°C", 1.0, 273.15),),
    "PRESSUREUNIT": (Conversion("N/mm²", 1e6), Conversion("kPa", 1e3), Conversion("MPa", 1e6), Conversion("bar", 1e5)),
    "MODULUSOFELASTICITYUNIT": (Conversion("N/mm²", 1e6), Conversion("kN/mm²", 1e9), Conversion("GPa", 1e9)),
    "FORCEUNIT": (Conversion("kN", 1e3),),
    "LINEARFORCEUNIT": (Conversion("kN/m", 1e3),),
    "PLANARFORCEUNIT": (Conversion("kN/m²", 1e3),),
    "VOLUMETRICFLOWRATEUNIT": (Conversion("L/s", 1e-3), Conversion("m³/h", _PER_HOUR), Conversion("L/min", 1e-3 / 60)),
    "MASSFLOWRATEUNIT": (Conversion("kg/h", _PER_HOUR),),
    "RATIOUNIT": (Conversion("%", 0.01),),
    "NORMALISEDRATIOUNIT": (Conversion("%", 0.01),),
    "TIMEUNIT": (Conversion("min", 60.0), Conversion("h", 3600.0)),
    "LENGTHUNIT": (Conversion("mm", 1e-3), Conversion("cm", 1e-2), Conversion("km", 1e3)),
    "AREAUNIT": (Conversion("mm²", 1e-6), Conversion("cm²", 1e-4)),
    "VOLUMEUNIT": (Conversion("L", 1e-3),),
    "MASSUNIT": (Conversion("t", 1e3), Conversion("g", 1e-3)),
    "POWERUNIT": (Conversion("kW", 1e3),),
    "ENERGYUNIT": (Conversion("kWh", 3.6e6), Conversion("kJ", 1e3)),
    "ELECTRICVOLTAGEUNIT": (Conversion("kV", 1e3),),
    "ELECTRICCURRENTUNIT": (Conversion("mA", 1e-3),),
    "PLANEANGLEUNIT": (Conversion("°", pi / 180),),
    "LINEARVELOCITYUNIT": (Conversion("km/h", 1 / 3.6),),
    "MASSDENSITYUNIT": (Conversion("t/m³", 1e3),),
    "SECTIONMODULUSUNIT": (Conversion("cm³", 1e-6), Conversion("mm³", 1e-9)),
    "MOMENTOFINERTIAUNIT": (Conversion("cm⁴", 1e-8), Conversion("mm⁴", 1e-12)),
    "TORQUEUNIT": (Conversion("kN·m", 1e3),),
}


@lru_cache(maxsize=None)
def _unit_types(version: str) -> tuple[frozenset[str], frozenset[str]]:
    import ifcopenshell

    schema = ifcopenshell.schema_by_name(version)
    named = schema.declaration_by_name("IfcUnitEnum").enumeration_items()
    derived = schema.declaration_by_name("IfcDerivedUnitEnum").enumeration_items()
    return frozenset(named), frozenset(derived)


def unit_type(version: str, measure: str) -> str:
    """IfcUnitEnum / IfcDerivedUnitEnum item of an UPPER measure type ("" when it has none)."""
    import ifcopenshell
    import ifcopenshell.util.unit

    name = ifcopenshell.schema_by_name(version).declaration_by_name(measure).name()
    found = ifcopenshell.util.unit.get_measure_unit_type(name)
    named, derived = _unit_types(version)
    return found if found in named | derived or found in _RATIO_UNIT_TYPES else ""


def si_unit(unit_type_name: str) -> str:
    """The SI unit symbol of a unit type ("" when unknown here, "1" for a ratio)."""
    import ifcopenshell.util.unit as units

    if unit_type_name in _RATIO_UNIT_TYPES:
        return "1"
    si_name = units.si_type_names.get(unit_type_name)
    if si_name and unit_type_name != "USERDEFINED":
        return _SYMBOLS.get(si_name) or units.unit_symbols.get(si_name, "")
    return _DERIVED.get(unit_type_name, "")


def unit_facts(measures: dict[str, tuple[str, ...]]) -> Iterator[Fact]:
    """One fact per measure type with a known SI unit; `measures` maps it to the versions using it."""
    for measure, versions in measures.items():
        kind = unit_type(versions[-1], measure)
        unit = si_unit(kind) if kind else ""
        if not unit:
            continue
        conversions = CONVERSIONS.get(kind, ())
        written = ", ".join(f"{c.written} → {_example(c)}" for c in conversions)
        note = (f"{measure} values are in {unit}" + (" (a fraction: 0.5 for 50 %)" if unit == "1" else "")
                + (f"; convert {written}" if written else ""))
        yield Fact(f"unit:{measure}", "unit", measure, versions, note, data_type=measure, unit=unit,
                   obvious=conversions[0].written if conversions else "", conversions=conversions)


def _example(conversion: Conversion) -> str:
    value = 20.0 if conversion.offset else 1.0
    return f"{value:g} {conversion.written} = {conversion.to_si(value):.6g}"
