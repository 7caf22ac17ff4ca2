"""The catalogue of hard facts: each quoted fact checked against ifcopenshell itself (templates through
ifcopenshell.util.pset, classes through the schema, definitions through ifcopenshell.util.doc), the
datatype rules, the unit conversions, the API and the `facts` command."""
from __future__ import annotations

import json
import subprocess
import sys

import ifcopenshell
import ifcopenshell.util.doc
import ifcopenshell.util.pset
import ifcopenshell.util.unit
import pytest

from idsbench.vocabulary import facts as facts_module
from idsbench.vocabulary.datatype_rules import matching_rules
from idsbench.vocabulary.facts import KINDS, VERSIONS, Conversion, catalogue, kind_of
from tests.paths import ROOT

TEMPLATE_SCHEMA = {"IFC2X3": "IFC2X3", "IFC4": "IFC4", "IFC4X3_ADD2": "IFC4X3"}


def template(version: str, name: str):
    return ifcopenshell.util.pset.get_template(TEMPLATE_SCHEMA[version]).get_by_name(name)


def has_class(version: str, name: str) -> bool:
    try:
        return not ifcopenshell.schema_by_name(version).declaration_by_name(name).is_abstract()
    except Exception:  # noqa: BLE001 - not declared in this schema
        return False


@pytest.fixture(scope="module")
def cat():
    return catalogue()


@pytest.mark.parametrize("fact_id, versions", [
    ("home:pset:Pset_AirTerminalOccurrence", ("IFC4", "IFC4X3_ADD2")),
    ("home:pset:Pset_Condition", ("IFC4", "IFC4X3_ADD2")),
    ("home:pset:Pset_EnvironmentalImpactIndicators", ("IFC4", "IFC4X3_ADD2")),
    ("home:pset:Pset_ElementKinematics", ("IFC4X3_ADD2",)),
    ("home:pset:Pset_SpaceThermalRequirements", ("IFC2X3", "IFC4")),
    ("home:qto:Qto_WallBaseQuantities", ("IFC4", "IFC4X3_ADD2")),
])
def test_set_homes_hold_in_ifcopenshell_templates(cat, fact_id, versions):
    fact = cat.by_id(fact_id)
    assert fact.kind == "home" and fact.versions == versions
    name = fact_id.rsplit(":", 1)[1]
    assert tuple(v for v in VERSIONS if template(v, name) is not None) == versions


@pytest.mark.parametrize("fact_id, versions", [
    ("home:class:IFCKERB", ("IFC4X3_ADD2",)),
    ("home:class:IFCCHIMNEY", ("IFC4", "IFC4X3_ADD2")),
])
def test_class_homes_hold_in_the_schemas(cat, fact_id, versions):
    assert cat.by_id(fact_id).versions == versions
    assert tuple(v for v in VERSIONS if has_class(v, fact_id.rsplit(":", 1)[1])) == versions


def test_classes_in_every_version_are_no_home_fact(cat):
    assert all(has_class(v, "IfcWallStandardCase") for v in VERSIONS)
    assert cat.by_id("home:class:IFCWALLSTANDARDCASE") is None and cat.by_id("home:class:IFCWALL") is None


def test_a_predefined_type_home_and_its_definition(cat):
    home = cat.by_id("home:ptype:IFCWINDOW.SKYLIGHT")
    assert home.versions == ("IFC4", "IFC4X3_ADD2")  # IFC2X3 windows have no PredefinedType
    pilaster = cat.by_id("ptype:IFC4X3_ADD2:IFCCOLUMN.PILASTER")
    assert pilaster.definition == ifcopenshell.util.doc.get_predefined_type_doc("IFC4X3", "IfcColumn", "PILASTER")
    assert "arch" in cat.by_id("ptype:IFC4X3_ADD2:IFCCOLUMN.STANDCOLUMN").definition
    assert cat.by_id("ptype:IFC4X3_ADD2:IFCCOLUMN.STANDCOLUMN").versions == ("IFC4X3_ADD2",)


def test_an_inherited_predefined_type_takes_the_declaring_class_definition(cat):
    inherited = cat.definition("IFC4", "IFCBEAMSTANDARDCASE.JOIST")
    assert inherited and inherited == cat.definition("IFC4", "IFCBEAM.JOIST")


def test_a_property_missing_from_one_version_of_its_set(cat):
    fact = cat.by_id("home:property:Pset_Condition.AssessmentMethod")
    assert fact.versions == ("IFC4X3_ADD2",)
    assert "AssessmentMethod" not in [p.Name for p in template("IFC4", "Pset_Condition").HasPropertyTemplates]


def test_a_property_that_moved_between_sets(cat):
    fact = cat.by_id("moved:Pset_SpaceCommon.WallCovering>Pset_SpaceCoveringRequirements")
    assert fact.values == ("Pset_SpaceCommon", "Pset_SpaceCoveringRequirements")
    names = lambda v, s: [p.Name for p in template(v, s).HasPropertyTemplates]  # noqa: E731
    assert "WallCovering" in names("IFC2X3", "Pset_SpaceCommon") and "WallCovering" not in names("IFC4", "Pset_SpaceCommon")
    assert "WallCovering" in names("IFC4", "Pset_SpaceCoveringRequirements")


@pytest.mark.parametrize("fact_id, data_type, rule, obvious", [
    ("datatype:IFC4:Pset_DoorCommon.FireRating", "IFCLABEL", "rating-is-text", "IFCREAL"),
    ("datatype:IFC4:Pset_WindowCommon.Reference", "IFCIDENTIFIER", "identifier", "IFCLABEL"),
    ("datatype:IFC4:Pset_WindowCommon.GlazingAreaFraction", "IFCPOSITIVERATIOMEASURE", "ratio", "IFCREAL"),
    ("datatype:IFC2X3:Pset_BuildingCommon.NumberOfStoreys", "IFCINTEGER", "count-is-integer", "IFCCOUNTMEASURE"),
    ("datatype:IFC2X3:Pset_AirTerminalTypeCommon.ThrowLength", "IFCLENGTHMEASURE", "signed-length",
     "IFCPOSITIVELENGTHMEASURE"),
])
def test_datatype_facts_carry_the_template_type_and_the_rule(cat, fact_id, data_type, rule, obvious):
    fact = cat.by_id(fact_id)
    version, subject = fact_id.split(":")[1:]
    set_name, prop = subject.split(".")
    found = next(p for p in template(version, set_name).HasPropertyTemplates if p.Name == prop)
    assert fact.data_type == data_type == found.PrimaryMeasureType.upper()
    assert f"[{rule}]" in fact.note and fact.obvious == obvious


def test_an_intuitive_data_type_is_no_fact(cat):
    assert not cat.lookup("Pset_WallCommon.ThermalTransmittance", kind="datatype")


@pytest.mark.parametrize("prop, data_type, elsewhere, rules", [
    ("FireRating", "IFCLABEL", {}, ["rating-is-text"]),
    ("Width", "IFCLENGTHMEASURE", {}, ["signed-length"]),
    ("Width", "IFCPOSITIVELENGTHMEASURE", {}, ["positive-length"]),
    ("ServiceLife", "IFCTIMEMEASURE", {}, ["duration-in-seconds"]),
    ("IsExternal", "IFCBOOLEAN", {}, []),
    ("Description", "IFCLABEL", {"IFC4X3_ADD2": ("IFCTEXT",)}, ["version-change"]),
])
def test_datatype_rules(prop, data_type, elsewhere, rules):
    assert [r.name for r in matching_rules(prop, data_type, elsewhere)] == rules


def test_enumeration_values_per_version(cat):
    fact = cat.by_id("enum:IFC4:Pset_StairCommon.Status")
    enum = next(p for p in template("IFC4", "Pset_StairCommon").HasPropertyTemplates if p.Name == "Status")
    assert set(fact.values) == {v.wrappedValue.strip() for v in enum.Enumerators.EnumerationValues}
    changed = cat.by_id("enum:IFC4X3_ADD2:Pset_ActuatorTypeCommon.FailPosition")
    assert "FAILCLOSED" in changed.values and "vs IFC2X3" in changed.note and "FailClosed" in changed.note


def test_quantity_sets_per_version(cat):
    ifc4, ifc4x3 = cat.by_id("qto:IFC4:Qto_WallBaseQuantities"), cat.by_id("qto:IFC4X3_ADD2:Qto_WallBaseQuantities")
    assert "GrossFootprintArea:IFCAREAMEASURE" in ifc4.values and "GrossFootPrintArea:IFCAREAMEASURE" in ifc4x3.values
    assert ifc4.versions == ("IFC4",) and ifc4.applies_to == ("IFCWALL",)


@pytest.mark.parametrize("measure, unit, written, value, si", [
    ("IFCTHERMODYNAMICTEMPERATUREMEASURE", "K", "°C", 20, 293.15),
    ("IFCPRESSUREMEASURE", "Pa", "N/mm²", 24, 24e6),
    ("IFCFORCEMEASURE", "N", "kN", 5, 5000),
    ("IFCVOLUMETRICFLOWRATEMEASURE", "m3/s", "L/s", 12, 0.012),
    ("IFCPOSITIVERATIOMEASURE", "1", "%", 60, 0.6),
    ("IFCTIMEMEASURE", "s", "min", 30, 1800),
    ("IFCTHERMALTRANSMITTANCEMEASURE", "W/(m2·K)", None, None, None),
])
def test_units_and_conversions(cat, measure, unit, written, value, si):
    fact = cat.by_id(f"unit:{measure}")
    assert fact.unit == unit
    if written:
        conversion = next(c for c in fact.conversions if c.written == written)
        assert conversion.to_si(value) == pytest.approx(si)


@pytest.mark.parametrize("written, prefix, name, si_name", [
    ("kN", "KILO", "NEWTON", "NEWTON"), ("mm", "MILLI", "METRE", "METRE"), ("kW", "KILO", "WATT", "WATT"),
    ("min", None, "minute", "SECOND"), ("h", None, "hour", "SECOND"), ("L", None, "litre", "CUBIC_METRE"),
    ("°", None, "degree", "RADIAN"), ("t", None, "tonne", "GRAM"),
])
def test_conversion_factors_agree_with_ifcopenshell(cat, written, prefix, name, si_name):
    factors = {c.written: c.factor for f in cat.of_kind("unit") for c in f.conversions}
    expected = ifcopenshell.util.unit.convert(1, prefix, name, None, si_name)
    assert factors[written] == pytest.approx(expected)  # ifcopenshell's factors for mass are in kilograms too


def test_catalogue_api(cat):
    assert set(KINDS) == {f.kind for f in cat.facts} and len(cat) == len({f.id for f in cat.facts})
    assert all(kind_of(f.id) == f.kind for f in cat.facts)
    assert kind_of("nothing:here") == ""
    assert {f.id for f in cat.lookup("pset_condition")} >= {"home:pset:Pset_Condition"}
    assert all("IFC2X3" in f.versions for f in cat.select(kind="enum", version="IFC2X3"))
    lacking = {f.id for f in cat.select(kind="home", absent="IFC2X3")}
    assert "home:pset:Pset_Condition" in lacking and "home:pset:Pset_SpaceThermalRequirements" not in lacking
    assert cat.select(grep="LIGHTDOME") and all("lightdome" in f.text().lower() for f in cat.select(grep="LIGHTDOME"))
    assert cat.definition("IFC4", "Pset_WindowCommon.GlazingAreaFraction").startswith("Fraction of the glazing area")
    assert cat.definition("IFC4", "Pset_NoSuchSet.Nothing") is None
    assert Conversion("°C", 1.0, 273.15).to_si(0) == 273.15


def test_catalogue_is_kept_on_disk(cat):
    import os
    from pathlib import Path

    kept = list((Path(os.environ["IDS_BENCH_CACHE"]) / "vocabulary").glob(
        f"*/facts-{facts_module._source_digest()}.pickle"))
    assert len(kept) == 1  # the next process reads it instead of mining again
    stale = kept[0].with_name("facts-000000000000.pickle")
    stale.write_bytes(b"older mining code")
    facts_module._drop_stale()  # what mining again does first
    assert not stale.exists() and kept[0].exists()


def run_facts(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "ishigaki_ids_bench.py", "facts", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_facts_command_table_json_and_exit_codes():
    table = run_facts("--kind", "home", "--grep", "Pset_Condition")
    assert table.returncode == 0 and "home:pset:Pset_Condition" in table.stdout and "4,4X3" in table.stdout
    lines = run_facts("--id", "unit:IFCPRESSUREMEASURE", "--json").stdout.splitlines()
    assert [json.loads(line)["unit"] for line in lines] == ["Pa"]
    none = run_facts("--grep", "no fact says this")
    assert none.returncode == 1 and "none matched" in none.stderr
    assert run_facts("--kind", "nonsense").returncode == 2
