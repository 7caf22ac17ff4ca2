"""What a request asks for makes sense: rules over many drawn plans, each check a property of the plan or
of its request text (the dictionary it mentions exists, one jurisdiction, formats on fields they fit)."""
from __future__ import annotations

from functools import lru_cache

import pytest

from idsbench.synth import render_en, render_ja
from idsbench.synth.compose import purposes
from idsbench.synth.lexicon import lexicon
from idsbench.synth.narrow import CLASHES
from idsbench.synth.plan import OneOf
from idsbench.synth.render import client_rows
from idsbench.synth.request import user_messages
from idsbench.synth.revise import touched
from idsbench.synth.sample import sample_task
from idsbench.synth.values import Format

WRITERS = {"en": render_en, "ja": render_ja}
DICTIONARY_WORDS = {"en": "dictionary", "ja": "データ辞書"}


@lru_cache(maxsize=1)
def plans():
    """Enough plans of every difficulty to meet each rule many times, drawn once for the module."""
    return tuple(sample_task(3, i, d) for d in ("easy", "medium", "hard") for i in range(60))


def _requirements(plan):
    return [(s, r) for turn in plan.turns for s in turn.specs for r in s.requirements + ((s.filter,) if s.filter else ())]


@pytest.mark.parametrize("language", ("en", "ja"))
def test_a_request_that_mentions_a_dictionary_has_one(language):
    mentioned = 0
    for plan in plans():
        text = user_messages(plan, language)[0]
        has_table = WRITERS[language].DICTIONARY[1] in text
        if DICTIONARY_WORDS[language] in text:
            mentioned += 1
            assert has_table and client_rows(plan), plan.index
        if plan.client_set and not client_rows(plan):
            quoted = f"'{plan.client_set.en}'" if language == "en" else f"「{plan.client_set.ja}」"
            assert quoted not in text, plan.index
    assert mentioned > 0


def test_a_revision_message_touches_each_item_once():
    messages = 0
    for plan in plans():
        for turn in plan.turns[1:]:
            states = [*turn.steps, turn]
            befores = [plan.turns[plan.turns.index(turn) - 1], *states[:-1]]
            seen = [pair for before, after in zip(befores, states) for pair in touched(before, after)]
            assert len(seen) == len(set(seen)), plan.index
            messages += len(states) > 1
    assert messages > 0


def test_no_filter_contradicts_what_its_group_may_carry():
    for plan in plans():
        for spec in plan.final.specs:
            if spec.filter and spec.filter.key in CLASHES:
                assert not {r.key for r in spec.requirements} & set(CLASHES[spec.filter.key]), plan.index


def test_storey_codes_lead_only_tags_and_names_of_building_objects():
    storeys = 0
    for plan in plans():
        for spec, req in _requirements(plan):
            if isinstance(req.value, Format) and any(t.kind == "storey" for t in req.value.tokens):
                storeys += 1
                assert req.source == "attribute" and req.key in ("Name", "Tag", "RoomNumber"), plan.index
                assert spec.group.domain != "civil", plan.index
    assert storeys > 0


def test_every_standards_class_of_a_task_comes_from_its_one_jurisdiction():
    normed = 0
    props = lexicon().properties
    for plan in plans():
        for _, req in _requirements(plan):
            if req.normed:
                normed += 1
                codes = dict(props[req.key].norms)[plan.jurisdiction]
                golds = req.value.gold if isinstance(req.value, OneOf) else (req.value.gold,)
                assert set(golds) <= set(codes), (plan.index, golds)
        if plan.normed():
            for language in ("en", "ja"):
                sentences = WRITERS[language].NORMS[plan.jurisdiction]
                assert any(s in user_messages(plan, language)[0] for s in sentences), plan.index
    assert normed > 0


def test_the_purpose_fits_every_group_of_the_request():
    for plan in plans():
        assert purposes(plan), plan.index
        families = {s.group.family for s in plan.turns[0].specs}
        if "bridge-inspection" in purposes(plan):
            assert families == {"bridge"}, plan.index


def test_no_group_is_asked_two_items_a_brief_keeps_apart():
    props = lexicon().properties
    apart = 0
    for plan in plans():
        for turn in plan.turns:
            for spec in turn.specs:
                keys = {r.key for r in spec.requirements if r.source == "standard"}
                assert not any(set(props[k].not_with) & keys for k in keys), plan.index
                apart += "ConcreteCover" in keys
    assert apart > 0


def test_a_one_sided_limit_lies_inside_the_range_a_brief_writes_in():
    from idsbench.synth.values import Range

    for plan in plans():
        for spec, req in _requirements(plan):
            if not isinstance(req.value, Range) or req.source not in ("standard",):
                continue
            typical = lexicon().properties[req.key].typical_for(spec.group)
            shown = req.value.bounds[0].shown
            assert not (req.value.phrase == "more than" and typical and shown >= typical.high), plan.index
            assert not (req.value.phrase == "less than" and typical and shown <= typical.low), plan.index


def test_roles_select_objects_and_statuses_asked_of_every_object_are_new_ones():
    """"main distribution boards", "existing doors": a role or an old status narrows the group; what every
    object of a group must carry is its new status, and new-build purposes narrow to no existing objects."""
    props = lexicon().properties
    roles = filtered = 0
    for plan in plans():
        for spec, req in _requirements(plan):
            is_filter = req is spec.filter
            if req.source == "standard" and props[req.key].role:
                roles += 1
                assert is_filter, plan.index
            if req.key == "Status" and not is_filter:
                golds = req.value.gold if isinstance(req.value, OneOf) else (getattr(req.value, "gold", "NEW"),)
                assert set(golds) <= {"NEW"}, plan.index
            if req.key == "Status" and is_filter and req.value.gold != "NEW":
                filtered += 1
                assert not {"fabrication", "commissioning"} & set(purposes(plan)), plan.index
    assert roles > 0 and filtered > 0


def test_client_properties_are_asked_only_of_the_classes_they_are_kept_for():
    clients = lexicon().client_properties
    asked = 0
    for plan in plans():
        for spec, req in _requirements(plan):
            if req.source in ("client", "any-set"):
                asked += 1
                assert clients[req.key].fits(spec.group), (plan.index, req.key, spec.group.key)
    assert asked > 0
    assert not clients["DesignTemperature"].fits(lexicon().group("IFCSANITARYTERMINAL/URINAL"))


@pytest.mark.parametrize("language", ("en", "ja"))
def test_a_remark_comes_from_the_requests_own_trade(language):
    writer = WRITERS[language]
    others = {d: [n for n in writer.NOISE[d] if all(n not in writer.NOISE[o] for o in writer.NOISE if o != d)]
              for d in writer.NOISE}
    remarks = 0
    for plan in plans():
        text = user_messages(plan, language)[0]
        for domain, remarks_of in others.items():
            if any(r in text for r in remarks_of):
                remarks += 1
                assert domain == plan.domain, plan.index
    assert remarks > 0


@pytest.mark.parametrize("language", ("en", "ja"))
def test_a_dropped_yes_no_item_is_named_as_an_item(language):
    dropped = 0
    for plan in plans() + tuple(sample_task(5, i, "medium") for i in range(30)):  # the case is rare
        for turn, text in zip(plan.turns[1:], user_messages(plan, language)[1:]):
            for change in turn.changes:
                if change.kind == "remove-requirement" and change.old.flag:
                    dropped += 1
                    assert ("The item '" if language == "en" else "」の項目") in text, plan.index
    assert dropped > 0


def test_a_purpose_about_one_topic_asks_mostly_of_it_and_a_design_stage_one_nothing_bought():
    """A fire-safety review of GTINs and serial numbers, or a design check asking for warranties, reads wrong."""
    from idsbench.synth.compose import AS_BUILT, DESIGN_STAGE, TOPICS

    fire = design = 0
    for plan in plans():
        items = [r for _, r in _requirements(plan)]
        keys = [r.key for r in items if r.source == "standard"]
        if "fire-review" in purposes(plan):
            fire += 1
            assert 2 * sum(k in TOPICS["fire-review"] for k in keys) > len(items), plan.index
        if DESIGN_STAGE & set(purposes(plan)):
            design += 1
            assert not AS_BUILT & set(keys), plan.index
    assert fire > 0 and design > 0


def test_no_u_value_or_g_value_is_asked_of_internal_objects():
    from idsbench.synth.plan import Equals, Requirement, Text
    from idsbench.synth.requirements import compatible

    internal = Requirement("standard", "IsExternal", Text.same("Pset_WindowCommon"), Text.same("IsExternal"),
                           "IFCBOOLEAN", Equals("false"))
    u_value = Requirement("standard", "ThermalTransmittance", Text.same("Pset_WindowCommon"),
                          Text.same("ThermalTransmittance"), "IFCTHERMALTRANSMITTANCEMEASURE", Equals("1"))
    assert not compatible(internal, [u_value]) and not compatible(u_value, [internal])
    assert compatible(u_value, [Requirement(**{**internal.__dict__, "value": Equals("true")})])
    envelope = {k for k, c in lexicon().properties.items() if c.envelope}
    assert {"ThermalTransmittance", "SolarHeatGainTransmittance"} <= envelope
    for key in ("IFCSLAB/LANDING", "IFCWALL/PARTITIONING", "IFCCOVERING/CEILING", "IFCSLAB/FLOOR"):
        assert not lexicon().properties["ThermalTransmittance"].fits(lexicon().group(key)), key
    for plan in plans():
        for turn in plan.turns:
            for spec in turn.specs:
                inside = spec.filter is not None and spec.filter.key == "IsExternal" and spec.filter.value.gold == "false"
                assert not (inside and envelope & {r.key for r in spec.requirements}), plan.index


def test_no_japanese_request_says_a_noun_twice_across_no():
    """「洗面器の洗面器の取付方式」: a group joined to an item that already names it."""
    from idsbench.synth.render_ja import DOUBLED, _of_group

    assert DOUBLED.search("洗面器の洗面器の取付方式") and not DOUBLED.search("洗面器の取付方式")
    assert _of_group("洗面器", "洗面器の取付方式") == "洗面器の取付方式"
    assert _of_group("外部の洗面器", "洗面器の取付方式") == "外部の洗面器について、洗面器の取付方式"
    assert _of_group("壁", "耐火性能") == "壁の耐火性能"
    for plan in plans():
        for message in user_messages(plan, "ja"):
            assert not DOUBLED.search(message), (plan.index, DOUBLED.search(message).group(0))


def test_enumerated_values_are_ones_the_group_has_and_one_of_takes_neighbouring_grades():
    """Detectors are extra-low-voltage (Class III), radiators burn no fuel, criticality "low or medium"."""
    props = lexicon().properties
    adjacent = 0
    for plan in plans():
        for spec, req in _requirements(plan):
            concept = props.get(req.key) if req.source == "standard" else None
            if concept is None or not concept.enumeration or req is spec.filter:
                continue
            golds = req.value.gold if isinstance(req.value, OneOf) else (getattr(req.value, "gold", None),)
            allowed = concept.asked_of(spec.group)
            assert allowed is None or None in golds or set(golds) <= set(allowed), (plan.index, req.key)
            if isinstance(req.value, OneOf) and concept.scale:
                grades = sorted(concept.scale.index(g) for g in golds)
                assert grades[1] - grades[0] == 1, (plan.index, golds)
                adjacent += 1
    assert adjacent > 0


def test_one_of_several_codes_takes_neighbours_on_the_codes_scale():
    """"Fc24 or Fc30", "IP44, IP54 or IP55": a run of the listed scale, never its ends without the middle."""
    props, runs = lexicon().properties, 0
    for plan in plans():
        for spec, req in _requirements(plan):
            concept = props.get(req.key) if req.source == "standard" else None
            if concept is None or concept.enumeration or not isinstance(req.value, OneOf):
                continue
            codes = concept.codes_for(plan.jurisdiction)
            start = codes.index(req.value.gold[0])
            assert codes[start:start + len(req.value.gold)] == req.value.gold, (plan.index, req.value.gold)
            runs += 1
    assert runs > 0


@pytest.mark.parametrize("language", ("en", "ja"))
def test_a_request_says_the_model_has_no_standard_case_subtypes(language):
    """IFC4 walls, doors, beams ...: the entity facet matches the class only, and the request says so."""
    from idsbench.synth.render import standard_cases

    said = 0
    marker = {"en": "without the standard-case subtype", "ja": "StandardCase サブタイプを用いずに"}[language]
    for plan in plans():
        first = user_messages(plan, language)[0]
        assert (marker in first) == bool(standard_cases(plan)), plan.index
        said += bool(standard_cases(plan))
    assert said > 0


def _responsible(row: list[str], extras: tuple[str, ...]) -> int:
    """The row's responsible party as a place in the language's list (-1: the row still to be decided)."""
    return extras.index(row[-1]) if row[-1] in extras else -1


def test_checklists_list_the_same_rows_in_both_languages():
    import csv
    import io

    tables = 0
    for plan in plans():
        if plan.input_format != "csv":
            continue
        rows = {}
        for language in ("en", "ja"):
            text = user_messages(plan, language)[0]
            lines = [ln for ln in text.splitlines() if ln.count(",") >= 7]
            rows[language] = list(csv.reader(io.StringIO("\n".join(lines))))[1:]
        assert len(rows["en"]) == len(rows["ja"]), plan.index
        assert [_responsible(r, render_en.EXTRAS) for r in rows["en"]] == \
            [_responsible(r, render_ja.EXTRAS) for r in rows["ja"]], plan.index
        tables += 1
    assert tables > 0


@pytest.mark.parametrize("language", ("en", "ja"))
def test_the_specification_name_uses_the_requests_term_for_the_group(language):
    from idsbench.synth.gold import group_term, spec_name

    for plan in plans():
        text = "\n".join(user_messages(plan, language))
        for spec in plan.turns[0].specs:
            if not plan.spelled:
                assert group_term(plan, spec.group, language).lower() in text.lower(), plan.index
            name = spec_name(plan, spec, language)
            assert group_term(plan, spec.group, language).lower() in name.lower(), plan.index


def test_no_value_rules_out_another_item_of_its_group():
    from idsbench.synth.requirements import compatible

    for plan in plans():
        for turn in plan.turns:
            for spec in turn.specs:
                reqs = list(spec.requirements) + ([spec.filter] if spec.filter else [])
                assert all(compatible(r, reqs[:i]) for i, r in enumerate(reqs)), plan.index


@pytest.mark.parametrize("language", ("en", "ja"))
def test_a_split_states_each_new_groups_presence_and_the_gold_follows(language):
    writer = WRITERS[language]
    said = 0
    for plan in plans():
        for before, after in zip(plan.turns, plan.turns[1:]):
            for step in (*after.steps, after):
                change = step.change
                if change is None or change.kind != "group-split":
                    continue
                first, second = step.specs[change.spec], step.specs[change.spec + 1]
                assert first.occurrence == second.occurrence, plan.index
                text = "\n".join(user_messages(plan, language)[1:])
                assert writer.SPLIT_PRESENCE[first.occurrence] in text, plan.index
                said += 1
    assert said > 0


def test_a_quantity_take_off_asks_for_a_quantity_in_its_first_letter():
    offered = 0
    for plan in plans():
        if "take-off" in purposes(plan):
            offered += 1
            assert any(r.source == "quantity" for s in plan.turns[0].specs for r in s.requirements), plan.index
    assert offered > 0


def test_the_standard_case_sentence_is_only_for_versions_exporters_write_the_subtypes_in():
    from idsbench.synth.render import standard_cases

    for plan in plans():
        if all(v == "IFC4X3_ADD2" for turn in plan.turns for v in turn.versions):
            assert standard_cases(plan) == (), plan.index


def test_codes_start_with_their_objects_letters():
    """No manhole prefix on a ceiling: a format's literal lead is one of the group's prefixes."""
    from idsbench.synth.values import Format

    lex = lexicon()
    checked = 0
    for plan in plans():
        for spec, req in _requirements(plan):
            if isinstance(req.value, Format) and req.value.tokens[0].kind == "literal":
                assert req.value.tokens[0].text in lex.prefixes_of(spec.group), plan.index
                checked += 1
    assert checked > 0
    assert "MH" not in lex.prefixes_of(lex.group("IFCCOVERING/CEILING")) + lex.prefixes_of(lex.group("IFCBOILER"))
