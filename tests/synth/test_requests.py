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
