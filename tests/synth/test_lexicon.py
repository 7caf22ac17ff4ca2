"""The trade-word lexicon against ifcopenshell: every IFC name, the versions it holds in, and its data types."""
from __future__ import annotations

import re

import pytest

from idsbench.synth import vocab
from idsbench.synth.lexicon import lexicon
from idsbench.vocabulary.psets import property_sets
from idsbench.vocabulary.schema import SCHEMAS, schema_vocabulary

LEX = lexicon()
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("group", LEX.groups, ids=[g.key for g in LEX.groups])
def test_a_group_lists_exactly_the_versions_its_class_and_type_exist_in(group):
    assert tuple(v for v in SCHEMAS if vocab.group_exists(v, group)) == group.versions
    assert set(group.skip_versions) <= set(group.versions)


def test_group_keys_are_unique_and_every_group_is_usable_somewhere():
    keys = [g.key for g in LEX.groups]
    assert len(keys) == len(set(keys))
    assert [g.key for g in LEX.groups if set(g.versions) <= set(g.skip_versions)] == []


def _homes(concept):
    return [(v, g, h) for g in LEX.groups for v in g.versions if (h := vocab.home(v, g, concept)) is not None]


@pytest.mark.parametrize("key", sorted(LEX.properties) + sorted(f"qto:{k}" for k in LEX.quantities))
def test_every_concept_has_a_home_with_its_declared_types_and_names(key):
    concept = LEX.quantities[key[4:]] if key.startswith("qto:") else LEX.properties[key]
    homes = _homes(concept)
    assert homes, f"{key} has no home among the lexicon's groups"
    assert {h.data_type for _, _, h in homes} <= set(vocab.expected_types(concept))
    assert {h.name for _, _, h in homes} <= set(concept.names)
    for version, _, home in homes:  # the home is a property of that name and type in ifcopenshell's template
        prop = property_sets(version, "latest")[home.pset].properties[home.name]
        assert prop.data_types[0] == home.data_type


@pytest.mark.parametrize("key", sorted(k for k, c in LEX.properties.items() if c.enumeration))
def test_enumerated_values_are_the_templates_own(key):
    concept = LEX.properties[key]
    for version, group, home in _homes(concept):
        known = [value for value, _ in concept.enumeration if value in home.enum_values]
        assert len(known) >= 1, (version, group.key, home)
    every = {v for _, _, h in _homes(concept) for v in h.enum_values}
    assert {value for value, _ in concept.enumeration} <= every


def test_restrictions_name_real_sets_classes_and_units():
    sets = {s for v in SCHEMAS for s in property_sets(v, "latest")}
    classes = {g.ifc_class for g in LEX.groups} | {g.key for g in LEX.groups}
    for concept in (*LEX.properties.values(), *LEX.quantities.values()):
        assert set(concept.sets) <= sets, concept.key
        assert set(concept.classes) <= classes, concept.key
        assert set(concept.domains) <= {"architectural", "structural", "mep", "civil"}, concept.key
        typical = concept.typical
        assert typical is None or typical.unit is None or typical.unit in LEX.units, concept.key
        assert all(t.unit is None or t.unit in LEX.units for _, t in concept.ranges), concept.key


def test_client_properties_have_data_types_and_units_of_the_standard():
    for prop in LEX.client_properties.values():
        assert prop.data_type in schema_vocabulary("IFC4").data_types, prop.key
        assert prop.typical is None or prop.typical.unit is None or prop.typical.unit in LEX.units
        assert set(prop.domains) <= {"architectural", "structural", "mep", "civil"}


def test_attributes_exist_on_the_classes_they_are_offered_for():
    for attribute in LEX.attributes.values():
        holders = [g for g in LEX.groups if (g.ifc_class == "IFCSPACE") == (attribute.applies == "space")]
        assert any(vocab.has_attribute(v, g.ifc_class, attribute.name) for g in holders for v in g.versions)


def test_every_entry_has_phrasings_in_both_languages_and_japanese_is_japanese():
    words = [g.words for g in LEX.groups] + [c.words for c in (*LEX.properties.values(), *LEX.quantities.values())]
    words += [a.words for a in LEX.attributes.values()] + [p.words for p in LEX.client_properties.values()]
    assert all(w.en and w.ja for w in words)
    assert [w.ja for w in words if not all(JAPANESE.search(p) for p in w.ja if not p.isascii())] == []
    assert [w.en for w in words if any(JAPANESE.search(p) for p in w.en)] == []


def test_japanese_boolean_items_are_asked_as_questions_or_as_presence():
    phrases = [p for c in LEX.properties.values() if c.kind == "boolean" for p in c.words.ja]
    assert [p for p in phrases if not p.endswith(("か", "有無"))] == []


def test_boolean_answers_read_as_written():
    assert LEX.properties["Combustible"].answer == "false" and LEX.properties["IsExternal"].answer == "either"
    shear = LEX.group("IFCWALL/SHEAR")
    assert all(LEX.properties["LoadBearing"].answer_of(shear, draw) for draw in (0.1, 0.9))
    assert not any(LEX.properties["Combustible"].answer_of(shear, draw) for draw in (0.1, 0.9))


def _applicable(group):
    """Concepts with a home for the group in some version it is used in."""
    concepts = (*LEX.properties.values(), *LEX.quantities.values())
    return [c for c in concepts if any(vocab.home(v, group, c) for v in group.versions if v not in group.skip_versions)]


@pytest.mark.parametrize("language", ("en", "ja"))
def test_no_phrase_names_two_items_of_one_group(language):
    clashes = []
    for group in LEX.groups:
        owner = {}
        for concept in _applicable(group):
            for phrase in concept.words_of(group).of(language):
                if owner.setdefault(phrase, concept.key) != concept.key:
                    clashes.append((group.key, phrase, owner[phrase], concept.key))
    assert clashes == []


def test_ranges_are_ones_a_practitioner_accepts():
    table = [  # concept, group, lowest and highest bound a brief may write, in the range's unit
        ("WorkingPressure", "IFCDUCTSEGMENT", 250, 2500, "Pa"),
        ("WorkingPressure", "IFCPIPESEGMENT", 100, 2000, "kPa"),
        ("TankCapacity", "IFCTANK/EXPANSION", 8, 500, "L"),
        ("TankCapacity", "IFCTANK/STORAGE", 1, 200, "m3"),
        ("ConcreteCover", "IFCCOLUMN/PIERSTEM", 35, 90, "mm"),
        ("ConcreteCover", "IFCSLAB/FLOOR", 20, 80, "mm"),
        ("ConcreteCover", "IFCPILE/BORED", 60, 100, "mm"),
    ]
    for key, group_key, low, high, unit in table:
        typical = LEX.properties[key].typical_for(LEX.group(group_key))
        assert (typical.low, typical.high, typical.unit) == (low, high, unit), (key, group_key)


@pytest.mark.parametrize("key, group_key", [
    ("CapacityPeople", "IFCTRANSPORTELEMENT/ESCALATOR"), ("NominalDiameter", "IFCPIPESEGMENT/GUTTER"),
    ("NominalDiameter", "IFCPIPESEGMENT/CULVERT"), ("RailingDiameter", "IFCRAILING/FENCE"),
    ("ConcreteCoverAtLinks", "IFCSLAB/SIDEWALK"), ("GlazingAreaFraction", "IFCDOOR/GATE"),
    ("NumberOfPoles", "IFCUNITARYEQUIPMENT/SPLITSYSTEM"), ("WorkingPressure", "IFCPIPESEGMENT/GUTTER"),
    ("IsExternal", "IFCROOF"), ("LoadBearing", "IFCWALL/SHEAR"),  # the name answers it
    ("ThermalTransmittance", "IFCSLAB/BASESLAB"), ("Compartmentation", "IFCFOOTING/PAD_FOOTING"),
    ("Combustible", "IFCPILE/BORED"), ("Compartmentation", "IFCSLAB/BASESLAB"),  # foundations: no fire, no heat loss
])
def test_items_are_not_asked_of_objects_they_make_no_sense_for(key, group_key):
    assert not LEX.properties[key].fits(LEX.group(group_key))


def test_a_standards_classes_belong_to_one_jurisdiction():
    normed = {k: dict(c.norms) for k, c in LEX.properties.items() if c.norms}
    assert {"StrengthClass", "ReinforcementStrengthClass", "ExposureClass", "AccessCoverLoadRating"} <= set(normed)
    for key, codes in normed.items():
        assert set(codes) <= {"jp", "intl"} and not LEX.properties[key].codes, key
        assert not set(codes.get("jp", ())) & set(codes.get("intl", ())), key


GENERIC_VALUES = frozenset({"OTHER", "NOTKNOWN", "UNSET", "USERDEFINED", "NOTDEFINED"})


def _stems(text: str) -> set[str]:
    """Word stems of a phrase or of a CamelCase name: "factory-assembled" and "AssemblyPlace" share assem."""
    words = re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text).lower())
    return {w[:5] for w in words if len(w) > 2}


def _sibling_fits(concept, group, home, prop_name, prop) -> bool:
    """The concept's words fit another property of the group that takes the same kind of value: they say all
    of its name (two words or more, and not a plainer name the home's own contains: "fire resistance rating"),
    or a value phrase names one of its enumerators with a word of its name ("factory-assembled": AssemblyPlace
    FACTORY)."""
    if prop.data_types[:1] != (home.data_type,):
        return False
    values = [w for value, ws in concept.enumeration if value in home.enum_values for w in ws.en]
    said = set().union(*(_stems(p) for p in (*concept.words_of(group).en, *values)))
    name, own = _stems(prop_name), _stems(home.name)
    if len(name) >= 2 and name <= said and not name < own:
        return True
    enumerators = [_stems(e) for e in prop.enum_values if e not in GENERIC_VALUES]
    return any(e and e <= _stems(v) and (name - own) & _stems(v) for v in values for e in enumerators)


def test_no_item_fits_another_standard_property_of_its_group_as_well():
    """Every property of every set applicable to the group (element-wide sets included) is checked against
    the item's words and value words ("factory-assembled" is an AssemblyPlace as much as a construction)."""
    found = []
    for group in LEX.groups:
        for version in (v for v in group.versions if v not in group.skip_versions):
            templates = property_sets(version, "latest")
            sets = [s for s in vocab.candidate_sets(version, group.ifc_class, group.predefined_type)
                    if s.startswith("Pset_")]
            for concept in LEX.properties.values():
                home = vocab.home(version, group, concept)
                found += [(concept.key, group.key, version, f"{s}.{n}") for s in sets if home is not None
                          for n, prop in templates[s].properties.items()
                          if (s, n) != (home.pset, home.name) and _sibling_fits(concept, group, home, n, prop)]
    assert found == []


def test_the_sibling_check_finds_words_that_fit_an_element_wide_property():
    """"factory-assembled" air handlers: the words fit Pset_ManufacturerTypeInformation.AssemblyPlace."""
    from idsbench.synth.lexicon import Concept, Words

    concept = Concept("Construction", ("AirHandlerConstruction",), "enumeration", ("IFCLABEL",),
                      Words(("how the unit is built",), ("製作方式",)),
                      enumeration=(("MANUFACTUREDITEM", Words(("factory-assembled",), ("工場組立",))),))
    home = vocab.Home("Pset_UnitaryEquipmentTypeAirHandler", "AirHandlerConstruction", "IFCLABEL",
                      ("MANUFACTUREDITEM", "CONSTRUCTEDONSITE"))
    rival = property_sets("IFC4", "latest")["Pset_ManufacturerTypeInformation"].properties["AssemblyPlace"]
    group = LEX.group("IFCUNITARYEQUIPMENT/AIRHANDLER")
    assert _sibling_fits(concept, group, home, "AssemblyPlace", rival)
    maker = property_sets("IFC4", "latest")["Pset_ManufacturerTypeInformation"].properties["Manufacturer"]
    assert not _sibling_fits(concept, group, home, "Manufacturer", maker)


@pytest.mark.parametrize("key, group_key, version", [
    ("FireRating", "IFCCURTAINWALL", "IFC2X3"),  # Pset_FireRatingProperties.FireResistanceRating
    ("ModelReference", "IFCPUMP", "IFC4X3_ADD2"),  # Pset_ConstructionOccurence.ModelNumber
    ("Gradient", "IFCPIPESEGMENT/GUTTER", "IFC4X3_ADD2"),  # the gutter's own Pset_PipeSegmentTypeGutter.Slope
    ("Gradient", "IFCPIPESEGMENT/GUTTER", "IFC4"),
])
def test_a_rivalled_item_is_not_asked_where_its_rival_applies(key, group_key, version):
    concept, group = LEX.properties[key], LEX.group(group_key)
    assert vocab.rivalled(version, group, concept) and vocab.home(version, group, concept) is None


def test_no_item_belongs_to_another_process_or_material():
    """Packing and risk sets serve moves and risk registers, which no purpose is; joists carry no concrete."""
    homes = [(g, h) for c in LEX.properties.values() for _, g, h in _homes(c)]
    assert not [h.pset for _, h in homes if h.pset in ("Pset_PackingInstructions", "Pset_Risk")]
    assert not [h.pset for g, h in homes if g.key == "IFCBEAM/JOIST" and h.pset.startswith(vocab.CONCRETE_SETS)]
    assert not any(h.pset == "Pset_CoveringCommon" and h.name in ("Finish", "TotalThickness")
                   for g, h in homes if g.key == "IFCCOVERING/INSULATION")


ABBREVIATION = re.compile(r"\b[A-Z]{2,}s\b")  # PRVs, AHUs: plural abbreviations a reader must decode


@pytest.mark.parametrize("language", ("en", "ja"))
def test_trade_words_for_a_predefined_type_are_spelled_out_and_qualified(language):
    """An abbreviation comes with its words (PRV is a reducing and a relief valve); a Japanese one-character
    noun names the whole family (桝 is also a catch pit, 集水桝)."""
    phrases = [(g.key, p) for g in LEX.groups if g.predefined_type for p in g.words.of(language)]
    if language == "en":
        assert [(k, p) for k, p in phrases if ABBREVIATION.search(p) and "(" not in p] == []
    else:
        assert [(k, p) for k, p in phrases if len(p) == 1 or p.isascii()] == []  # nor a bare AHU


def test_japanese_words_fit_the_object_and_its_material():
    assert "工事区分" not in LEX.properties["Status"].words.ja  # scope of works, not new/existing
    building_slabs = [g for g in LEX.groups if g.ifc_class == "IFCSLAB" and g.domain != "civil"]
    assert not [p for g in building_slabs for p in g.words.ja if "床版" in p]  # 床版 is a bridge deck
    basins = LEX.group("IFCSANITARYTERMINAL/WASHHANDBASIN")
    assert "手洗器" not in basins.words.ja and all("洗面器" in p for p in LEX.properties["BasinMounting"].words.ja)


def test_english_yes_no_items_are_predicates():
    phrases = [p for c in LEX.properties.values() if c.kind == "boolean" for p in c.words.en]
    assert [p for p in phrases if "flag" in p or "/" in p] == []


def test_synonyms_leave_a_home_where_no_other_name_of_the_group_applies():
    """Only the predefined type's own set brings the rival: a culvert's fall is still the occurrence's Gradient."""
    concept = LEX.properties["Gradient"]
    assert vocab.home("IFC4X3_ADD2", LEX.group("IFCPIPESEGMENT/CULVERT"), concept).name == "Gradient"
    assert {"Slope"} <= vocab.rival_names(concept) and "Gradient" not in vocab.rival_names(concept)


@pytest.mark.parametrize("version", ("IFC2X3", "IFC4", "IFC4X3_ADD2"))
def test_no_home_has_a_synonym_among_its_groups_standard_sets(version):
    templates = property_sets(version, "latest")
    for group in LEX.groups:
        names = {n for s in vocab.candidate_sets(version, group.ifc_class, group.predefined_type)
                 for n in templates[s].properties}
        for concept in (*LEX.properties.values(), *LEX.quantities.values()):
            found = vocab.home(version, group, concept)
            assert found is None or not vocab.rival_names(concept) & names, (version, group.key, concept.key)


def test_enumerations_asked_per_group_are_template_values_and_scales_are_complete():
    for key, concept in LEX.properties.items():
        values = {v for v, _ in concept.enumeration}
        assert all(set(allowed) <= values for _, allowed in concept.asked_for), key
        assert not concept.scale or set(concept.scale) == values, key


@pytest.mark.parametrize("key", sorted(k for k, c in LEX.properties.items() if c.typical and c.typical.series))
def test_a_series_lies_in_the_range_it_is_drawn_from(key):
    typical = LEX.properties[key].typical
    assert any(typical.low <= v <= typical.high for v in typical.series), key
    assert typical.low in typical.series and typical.high in typical.series, key


@pytest.mark.parametrize("key, group_key, low", [
    ("GlazingAreaFraction", "IFCWINDOW", 50), ("GlazingAreaFraction", "IFCWINDOW/SKYLIGHT", 50),
    ("NominalThickness", "IFCPAVEMENT/RIGID", 150),  # a concrete road slab
])
def test_a_range_fits_the_kind_of_object(key, group_key, low):
    """A window or rooflight is mostly glass: no brief asks for one glazed at most 20 %."""
    assert LEX.properties[key].typical_for(LEX.group(group_key)).low >= low


@pytest.mark.parametrize("key, group_key", [
    ("HandicapAccessible", "IFCSTAIR"), ("HandicapAccessible", "IFCDOOR/TRAPDOOR"),
    ("FireExit", "IFCWINDOW/SKYLIGHT"), ("FireExit", "IFCTRANSPORTELEMENT/ESCALATOR"),
    ("SmokeStop", "IFCDOOR/GATE"), ("HasProtectiveEarth", "IFCSENSOR/SMOKESENSOR"),
    ("ValveOperation", "IFCVALVE/PRESSUREREDUCING"), ("DuctShape", "IFCAIRTERMINAL/GRILLE"),
])
def test_statements_that_make_no_sense_for_the_object_are_not_made(key, group_key):
    assert not LEX.properties[key].fits(LEX.group(group_key))


@pytest.mark.parametrize("key, group_key, value", [
    ("StorageType", "IFCTANK/STORAGE", "WASTEWATER"), ("TankPattern", "IFCTANK/EXPANSION", "RECTANGULAR"),
    ("LightFixtureMountingType", "IFCLIGHTFIXTURE/SECURITYLIGHTING", "TRACKMOUNTED"),
])
def test_values_the_kind_of_object_does_not_have_are_not_asked(key, group_key, value):
    assert value not in LEX.properties[key].asked_of(LEX.group(group_key))


def test_exclusions_name_template_values_and_concepts_that_share_a_group():
    """An exclusion is only worth its line where both items can be asked of one group."""
    found = []
    for key, concept in LEX.properties.items():
        for value, others in concept.excludes:
            found += [(key, value)] if value not in dict(concept.enumeration) else []
            found += [(key, o) for o in others if o not in LEX.properties or not any(
                concept.fits(g) and LEX.properties[o].fits(g) for g in LEX.groups)]
    assert found == []


@pytest.mark.parametrize("key, value, other", [
    ("EnergySource", "ELECTRICITY", "BoilerOperatingMode"), ("SprinklerActivation", "FUSIBLESOLDER", "BulbLiquidColour"),
    ("InsulationStandardClass", "CLASSIIAPPLIANCE", "HasProtectiveEarth"), ("ToiletPanType", "SQUAT", "PanMounting"),
])
def test_a_value_rules_out_an_item_beside_it_either_way_round(key, value, other):
    from idsbench.synth.plan import Equals, OneOf, Presence, Requirement, Text
    from idsbench.synth.requirements import compatible, compatible_all

    def req(k, v):
        return Requirement("standard", k, Text.same("Pset_X"), Text.same(k), "IFCLABEL", v)
    ruling, plain, other_req = req(key, Equals(value)), req(key, Equals("OTHER")), req(other, Presence())
    assert not compatible(other_req, [ruling]) and not compatible(ruling, [other_req])
    assert not compatible(other_req, [req(key, OneOf(("OTHER", value), (None, None)))])
    assert compatible(other_req, [plain]) and compatible_all([ruling, other_req]) == (ruling,)


FAMILIES = {  # a noun naming a family of objects in a gloss -> the classes it may be said of
    "duct": ("IFCDUCTSEGMENT", "IFCDUCTFITTING", "IFCDAMPER"), "ダクト": ("IFCDUCTSEGMENT", "IFCDUCTFITTING", "IFCDAMPER"),
    "pipe": ("IFCPIPESEGMENT", "IFCPIPEFITTING"), "配管": ("IFCPIPESEGMENT", "IFCPIPEFITTING"),
    "tray": ("IFCCABLECARRIERSEGMENT",), "トレイ": ("IFCCABLECARRIERSEGMENT",),
    "cable": ("IFCCABLECARRIERSEGMENT", "IFCCABLESEGMENT"), "ケーブル": ("IFCCABLECARRIERSEGMENT", "IFCCABLESEGMENT"),
    "valve": ("IFCVALVE",), "弁": ("IFCVALVE", "IFCFIRESUPPRESSIONTERMINAL"),  # 感熱体 of a sprinkler's valve
    "tank": ("IFCTANK",), "タンク": ("IFCTANK",), "boiler": ("IFCBOILER",), "ボイラ": ("IFCBOILER",),
    "pump": ("IFCPUMP",), "ポンプ": ("IFCPUMP",), "fan": ("IFCFAN",), "送風機": ("IFCFAN",),
    "吹出口": ("IFCAIRTERMINAL",),  # a supply terminal only: never a gloss of every air terminal
}


def _family_clashes(group, phrases) -> list:
    words = re.compile(r"\b(" + "|".join(k for k in FAMILIES if k.isascii()) + r")s?\b")
    found = [m.group(1) for p in phrases for m in words.finditer(p.lower())]
    found += [k for k in FAMILIES if not k.isascii() and any(k in p for p in phrases)]
    return [(group.key, k) for k in found if group.ifc_class not in FAMILIES[k] and not (k == "吹出口" and
                                                                                          group.key.endswith("/DIFFUSER"))]


def test_no_gloss_names_another_family_of_objects_than_the_group_it_is_asked_of():
    """"Duct shape" of a grille, 「ダクトの形状」 of a diffuser: a gloss follows the template's definition."""
    found = []
    for group in LEX.groups:
        for concept in _applicable(group):
            if concept.fits(group):
                words = concept.words_of(group)
                found += [(concept.key, *c) for c in _family_clashes(group, (*words.en, *words.ja))]
    assert found == []


def test_the_family_lint_flags_a_duct_word_on_an_air_terminal():
    grille = LEX.group("IFCAIRTERMINAL/GRILLE")
    assert _family_clashes(grille, ("duct shape",)) == [("IFCAIRTERMINAL/GRILLE", "duct")]
    assert _family_clashes(grille, ("ダクトの形状",)) == [("IFCAIRTERMINAL/GRILLE", "ダクト")]
    assert _family_clashes(LEX.group("IFCDUCTSEGMENT"), ("duct shape",)) == []


USUAL = {  # the everyday word for predefined types the lexicon has no group of (en, ja), as trades write them
    "IFCVALVE": {"STOPCOCK": ("stopcock", "止水"), "SAFETYCUTOFF": ("safety cut-off", "緊急遮断"),
                 "PRESSURERELIEF": ("relief valve", "逃し弁"), "GASCOCK": ("gas cock", "ガス栓"),
                 "DRAWOFFCOCK": ("drain cock", "水抜き"), "FAUCET": ("faucet", "給水栓"),
                 "MIXING": ("mixing valve", "混合弁"), "REGULATING": ("regulating valve", "調整弁"),
                 "ANTIVACUUM": ("vacuum breaker", "真空破壊"), "FLUSHING": ("flush valve", "洗浄弁")},
    "IFCTANK": {"FEEDANDEXPANSION": ("feed and expansion", "開放式膨張"), "PRESSUREVESSEL": ("pressure vessel", "圧力容器"),
                "BREAKPRESSURE": ("break tank", "中継水槽")},
    "IFCSANITARYTERMINAL": {"SINK": ("sink", "流し"), "CISTERN": ("cistern", "ロータンク"), "SHOWER": ("shower", "シャワー")},
    "IFCAIRTERMINAL": {"REGISTER": ("register", "レジスター"), "LOUVRE": ("louvre", "ガラリ")},
    "IFCWASTETERMINAL": {"GULLYTRAP": ("gully trap", "トラップ桝"), "FLOORTRAP": ("floor trap", "床排水トラップ")},
}
PAREN = re.compile(r"[（(].*?[）)]")


def _defining_words(cls: str) -> dict[str, tuple[str, str]]:
    """A predefined type's defining word per language: its plainest phrase (without a gloss in brackets), or the
    everyday word of a type the lexicon has no group of."""
    own = {g.predefined_type: (PAREN.sub("", g.words.en[0]).strip(), PAREN.sub("", g.words.ja[0]).strip())
           for g in LEX.groups if g.ifc_class == cls and g.predefined_type}
    return {**USUAL.get(cls, {}), **own}


def _sibling_words(group) -> list:
    found = []
    for ptype, (en, ja) in _defining_words(group.ifc_class).items():
        if ptype not in group.predefined_type:  # a combination type (FIRESMOKEDAMPER) says its parts
            found += [(group.key, p, ptype) for p in group.words.en if en.lower() in p.lower()]
            found += [(group.key, p, ptype) for p in group.words.ja if ja in p]
    return found


def test_no_word_of_a_predefined_type_is_the_word_of_a_sibling_type():
    """「止水用の弁」 for isolating valves reads as a stopcock (止水栓, STOPCOCK): a type's words never contain the
    defining word of another type of its class's enumeration."""
    found = [f for g in LEX.groups if g.predefined_type for f in _sibling_words(g)]
    assert found == []


def test_the_sibling_word_check_finds_a_stopcock_word():
    from dataclasses import replace

    from idsbench.synth.lexicon import Words
    isolating = replace(LEX.group("IFCVALVE/ISOLATING"), words=Words(("isolating valves",), ("止水用の弁",)))
    assert _sibling_words(isolating) == [("IFCVALVE/ISOLATING", "止水用の弁", "STOPCOCK")]


def test_usual_words_name_predefined_types_of_the_schema():
    for cls, types in USUAL.items():
        assert set(types) <= set(schema_vocabulary("IFC4X3_ADD2").classes[cls].predefined), cls


QUALIFIERS = {"Gross": (("gross", "total", "overall"), ("総", "開口含む", "壁芯")),
              "Net": (("net", "usable", "deducted"), ("正味", "内法", "有効", "控除"))}


def _qualified_concepts():
    """(concept, qualifier) where a name is Gross*/Net* and its sibling exists in one of its homes' sets."""
    for concept in (*LEX.properties.values(), *LEX.quantities.values()):
        for version, home in {(h.pset, h.name): (v, h) for v, _, h in _homes(concept)}.values():
            for qualifier, other in (("Gross", "Net"), ("Net", "Gross")):
                sibling = other + home.name[len(qualifier):]
                if home.name.startswith(qualifier) and sibling in property_sets(version, "latest")[home.pset].properties:
                    yield concept, qualifier


def test_gross_and_net_are_said_in_every_language():
    """"Plan area of the wall" is GrossFootPrintArea and NetFootPrintArea alike: the qualifier is in every gloss."""
    found = set()
    for concept, qualifier in _qualified_concepts():
        en, ja = QUALIFIERS[qualifier]
        found |= {(concept.key, p) for p in concept.words.en if not any(q in p.lower() for q in en)}
        found |= {(concept.key, p) for p in concept.words.ja if not any(q in p for q in ja)}
    assert sorted(found) == []
    assert {c.key for c, _ in _qualified_concepts()} >= {"GrossFootprintArea", "NetSideArea", "GrossVolume"}


def test_code_prefixes_are_kept_for_groups_and_classes_of_the_lexicon():
    known = {g.key for g in LEX.groups} | {g.ifc_class for g in LEX.groups} | {"default"}
    assert set(LEX.prefixes) <= known
    owners = {p: k for k, ps in LEX.prefixes.items() for p in ps}
    assert owners["MH"] == "IFCDISTRIBUTIONCHAMBERELEMENT"  # a manhole's letters are its own


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


# The noun a predefined type's definition opens with ("A blind with adjustable horizontal slats ..." -> blind).
DEFINED_AS = re.compile(r"^(?:An?|The)\s+(?:[a-z-]+\s+){0,2}?([a-z-]+?)(?:\s+(?:with|for|that|which|of|used|in|to|on|"
                        r"is|installed|made|designed)\b|[,.;(])")


def _type_words(ifc_class: str, versions) -> set[str]:
    """The name and defining noun of each predefined type of the class, but for the class's own word (the
    DOOR of IfcDoor, the ELEMENT of a proxy): a label using one of them names that type, not the class."""
    import ifcopenshell.ifcopenshell_wrapper as wrapper
    from ifcopenshell.util.doc import get_predefined_type_doc

    own, found = ifc_class.lower(), set()
    for version in versions:
        name = wrapper.schema_by_name(version).declaration_by_name(ifc_class).name()
        for value in schema_vocabulary(version).classes[ifc_class].predefined:
            doc = get_predefined_type_doc(version.replace("_ADD2", ""), name, value) or ""
            head = DEFINED_AS.match(doc.strip())
            found |= {value.lower(), head.group(1).lower() if head else ""}
    return {w for w in found if w and w not in own and w not in ("userdefined", "notdefined")}


def _naming_a_type(group, labels) -> list[str]:
    words = _type_words(group.ifc_class, group.versions)
    return [label for label in labels if words & {_singular(w) for w in re.findall(r"[a-z]+", label.lower())}]


def test_class_wide_labels_name_no_predefined_type_of_the_class():
    """"Blinds" of IfcShadingDevice would be as right with JALOUSIE: a whole class is named by class-wide words."""
    assert _naming_a_type(LEX.group("IFCSHADINGDEVICE"), ["blinds", "shutters and awnings", "shading devices"]) == [
        "blinds", "shutters and awnings"]
    assert [(g.key, p) for g in LEX.groups if not g.predefined_type for p in _naming_a_type(g, g.words.en)] == []
    # nor do the Japanese ones list examples of some types (「ブラインド・オーニング等」), which English cannot mirror
    assert [(g.key, p) for g in LEX.groups if not g.predefined_type for p in g.words.ja if "等" in p] == []


@pytest.mark.parametrize("one, other", [("TileLength", "TileWidth"), ("RiserHeight", "TreadLength"),
                                        ("NumberOfRiser", "NumberOfTreads"), ("LiftClearDepth", "LiftClearWidth")])
def test_properties_tied_to_each_other_are_not_bounded_apart_on_one_group(one, other):
    """Drawn apart, a tile width of at least 600 beside a length under 600 contradicts itself."""
    props = LEX.properties
    assert other in props[one].not_with or one in props[other].not_with


def test_the_two_bar_covers_are_never_asked_of_one_group():
    """Drawn apart, the link cover could exceed the main-bar cover, which sits a link's diameter further in."""
    from idsbench.synth.requirements import clashes
    links = [o for g in LEX.groups for o in _options_of(g) if o.key == "ConcreteCoverAtLinks"]
    assert links and all(clashes(o, {"ConcreteCoverAtMainBars"}) for o in links)


def _options_of(group):
    from idsbench.synth.requirements import options
    return options(group.versions, group, None) if group.versions else []


_WASTE_SIBLINGS = ("FLOORWASTE", "FLOORTRAP", "GULLYTRAP", "GULLYSUMP", "ROOFDRAIN", "WASTETRAP")


@pytest.mark.parametrize("group", [g for g in LEX.groups if g.ifc_class == "IFCWASTETERMINAL"],
                         ids=lambda g: g.key)
def test_waste_terminal_words_pick_one_predefined_type(group):
    """A bare "floor drain" is as much a FLOORTRAP as a FLOORWASTE; the words must carry what the definitions
    tell apart (the trap: in the fitting or apart from it)."""
    import ifcopenshell.util.doc as doc
    text = " ".join(group.words.en).lower()
    definition = doc.get_predefined_type_doc("IFC4", "IfcWasteTerminalType", group.predefined_type).lower()
    if "separate trap" in definition:
        assert "trap" in text and ("separate" in text or "without" in text or "untrapped" in text)
    assert not any(w in text for w in ("floor drain", "floor gull")), text
