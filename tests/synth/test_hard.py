"""hard.py's rules on facts of the standard, and the settings' share of requirements on such items."""
from __future__ import annotations

import pytest

from idsbench.synth.hard import facet_kinds, spelled_otherwise
from idsbench.synth.lexicon import Words
from idsbench.synth.plan import Equals, OneOf
from idsbench.synth.sample import sample_task


@pytest.mark.parametrize("versions, pset, name, data_type, kinds", [
    (("IFC4",), "Pset_WallCommon", "FireRating", "IFCLABEL", set()),  # the everyday case
    (("IFC4",), "Pset_WallCommon", "ThermalTransmittance", "IFCTHERMALTRANSMITTANCEMEASURE", set()),
    (("IFC4",), "Pset_StairCommon", "NumberOfRiser", "IFCCOUNTMEASURE", {"datatype"}),
    (("IFC4",), "Pset_DoorWindowGlazingType", "GlassLayers", "IFCCOUNTMEASURE", {"datatype", "set"}),
    (("IFC4",), "Pset_ManufacturerOccurrence", "SerialNumber", "IFCIDENTIFIER", {"datatype"}),  # a set all share
    (("IFC4",), "Pset_SpaceLightingRequirements", "Illuminance", "IFCILLUMINANCEMEASURE", {"set", "version"}),
    (("IFC2X3",), "Pset_RoofCommon", "ProjectedArea", "IFCAREAMEASURE", {"version"}),  # a property in IFC2X3 only
    (("IFC4X3_ADD2",), "Pset_SpaceHeaterTypeCommon", "SpaceHeaterPlacement", "IFCLABEL", {"version"}),  # renamed
    (("IFC4X3_ADD2",), "Pset_SpaceHeaterTypeCommon", "NumberOfPanels", "IFCCOUNTMEASURE", {"datatype", "version"}),
    (("IFC4X3_ADD2",), "Qto_WallBaseQuantities", "GrossFootPrintArea", "IFCAREAMEASURE", {"version"}),
    (("IFC4", "IFC4X3_ADD2"), "Pset_WallCommon", "FireRating", "IFCLABEL", set()),
])
def test_the_kinds_of_a_home_follow_from_the_templates(versions, pset, name, data_type, kinds):
    assert facet_kinds(versions, pset, name, data_type) == kinds


@pytest.mark.parametrize("value, words, otherwise", [
    ("MODERATE", ("medium",), True), ("PENDANT", ("pendent",), True), ("HandleWithCare", ("handle with care",), True),
    ("CABINET_RECESSED", ("in a recessed cabinet",), True), ("NEWRAIL", ("new",), True),
    ("BALL", ("ball valve",), False), ("SURFACE", ("surface-mounted",), False), ("SUPPLYAIR", ("supply air",), False),
    ("NEW", None, False),
])
def test_a_value_is_spelled_otherwise_when_its_trade_words_do_not_hold_it(value, words, otherwise):
    assert spelled_otherwise(value, Words(words, words) if words else None) is otherwise


def _share(level: str, n: int = 45) -> float:
    found = total = 0
    for index in range(n):
        plan = sample_task(12, index, level)
        for spec in plan.final.specs:
            for req in spec.requirements:
                total += 1
                value = req.value
                gold = value.gold if isinstance(value, OneOf) else (value.gold,) if isinstance(value, Equals) else ()
                words = value.words if isinstance(value, OneOf) else (value.words,) if isinstance(value, Equals) else ()
                standard = req.source in ("standard", "quantity")
                found += standard and bool(facet_kinds(plan.final.versions, req.pset.en, req.name.en, req.data_type)
                                           or any(spelled_otherwise(g, w) for g, w in zip(gold, words)))
    return found / total


def test_the_share_of_requirements_on_hard_items_rises_with_the_setting():
    easy, medium, hard = (_share(level) for level in ("easy", "medium", "hard"))
    assert easy + 0.1 < medium < hard - 0.05 and hard > 0.75, (easy, medium, hard)
