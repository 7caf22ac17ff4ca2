"""The behavioural score: equivalent variants of golds score 1, meaning changes score below 1."""
import pytest

from tests.behaviour.golds import gold_text
from idsbench.behaviour import behaviour, witnesses_for
from idsbench.behaviour.score import BehaviourScore, compare
from tests.behaviour.variants import (applicability, data_type, digit_escape, drop_last_enumeration_value, drop_requirement,
                      entity, first_required_property_optional, merge_predefined_types, move_first_bound,
                      numeric_literals, one_specification_per_requirement, one_value_enumeration, optional_specifications, renamed_specifications,
                      requirement_cardinality, reversed_enumerations, reversed_specifications,
                      split_class_enumerations, variant)

EQUIVALENT = [
    ("s063-en", "numeric literal style (1.0 -> 1)", [numeric_literals]),
    ("s012-en", "\\d instead of [0-9]", [digit_escape]),
    ("s081-en", "entity names as one-value enumerations", [one_value_enumeration]),
    ("s063-en", "specifications in reverse order", [reversed_specifications]),
    ("s063-en", "enumeration values in reverse order", [reversed_enumerations]),
    ("s081-en", "renamed specifications", [renamed_specifications]),
    ("s026-en", "one specification per requirement", [one_specification_per_requirement]),
    ("s069-en", "two meter specifications merged by predefined type, all optional",
     [optional_specifications, merge_predefined_types(0, 1)]),
]

# (example, what changes, edits applied to the gold, edits that make the gold itself first)
CHANGED = [
    ("s012-en", "a dropped facet (LongName)", [drop_requirement(0, 1)]),
    ("s063-en", "a moved bound (x1.2)", [move_first_bound(1.2)]),
    ("s012-en", "a required property made optional", [first_required_property_optional]),
    ("s063-en", "an enumeration value removed", [drop_last_enumeration_value]),
    ("s012-en", "another class (IFCZONE)", [entity(0, name="IFCZONE")]),
    ("s081-en", "another predefined type (FIXED_END for TENSIONING_END)", [entity(1, predefined_type="FIXED_END")]),
    ("s012-en", "applicability 1..unbounded -> 0..unbounded", [applicability(0, "0")]),
    ("s012-en", "another data type (IFCREAL for IFCAREAMEASURE)", [data_type("IFCAREAMEASURE", "IFCREAL")]),
    ("s081-en", "the forbidden couplers made required", [applicability(3, "1")]),
    ("s012-en", "LongName prohibited instead of required", [requirement_cardinality(0, 1, "prohibited")]),
    ("s069-en", "two required meter specifications merged by predefined type", [merge_predefined_types(0, 1)]),
]


@pytest.mark.parametrize("example,what,edits", EQUIVALENT, ids=[f"{e}: {w}" for e, w, _ in EQUIVALENT])
def test_meaning_preserving_variants_score_one(example, what, edits):
    gold = gold_text(example)
    if edits[0] is optional_specifications:  # the gold of this row is the optional version
        gold, edits = variant(gold, optional_specifications), edits[1:]
    result = behaviour(variant(gold, *edits), gold)
    assert result.value == 1.0, (what, result)


def test_split_of_a_two_class_specification_is_equivalent_when_optional():
    gold = variant(gold_text("s001-en"), optional_specifications)
    result = behaviour(variant(gold, split_class_enumerations), gold)
    assert result.value == 1.0, result


@pytest.mark.parametrize("example,what,edits", CHANGED, ids=[f"{e}: {w}" for e, w, _ in CHANGED])
def test_meaning_changing_variants_score_below_one(example, what, edits):
    gold = gold_text(example)
    result = behaviour(variant(gold, *edits), gold)
    assert result.reason is None, result.reason  # scored, not failed to check
    assert result.value is not None and result.value < 1.0, (what, result)
    assert result.disagreements, "a lower score names the witnesses judged differently"


SAMPLE = ["s001-en", "s012-en", "s012-ja", "s031-en", "s063-ja", "s069-en", "s081-en", "s002-ja"]


@pytest.mark.parametrize("example", SAMPLE)
def test_gold_against_itself_is_one_and_its_witnesses_are_proven(example):
    gold = gold_text(example)
    witnesses = witnesses_for(gold)
    assert witnesses.proven, witnesses.failures[:5] + witnesses.unsupported[:5]
    result = behaviour(gold, gold)
    assert result.value == 1.0 and result.recall == 1.0 and result.specificity == 1.0
    assert result.rejected > 0 and result.accepted > 0


@pytest.mark.parametrize("output,reason", [
    ("", "empty output"),
    ("no XML here", "unparsable"),
    ("<ids/>", "cannot read"),
    ('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY b "bbbbbbbbbb"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">'
     '<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">'
     '<!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">'
     '<!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;"><!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">]><a>&i;</a>',
     ""),
])
def test_broken_predictions_score_zero_with_a_reason(output, reason):
    result = behaviour(output, gold_text("s012-en"))
    assert result.value == 0.0 and result.reason and reason in result.reason


def test_a_pattern_that_is_no_regex_makes_the_prediction_uncheckable():
    gold = gold_text("s012-en")
    broken = gold.replace('value="([0-9]{2}|B[1-3])-[0-9]{3}"', 'value="([0-9"')
    assert broken != gold
    result = behaviour(broken, gold)
    assert result.value == 0.0 and "not a regular expression" in result.reason


def test_the_any_set_pattern_is_evaluated():
    """ifctester 0.9 raises on ^(?!(Pset_|Qto_)).+ (not XSD); the witnesses evaluate it with the
    .NET semantics, so a set named Pset_... fails it and a custom set passes."""
    gold = next(gold_text(e) for e in ("s002-en", "s010-en", "s019-en") if "^(?!(Pset_|Qto_)).+" in gold_text(e))
    witnesses = witnesses_for(gold)
    assert witnesses.proven
    excluded = [w for w in witnesses.witnesses if "which the set pattern excludes" in w.purpose]
    assert excluded and all(witnesses.verdicts[w.id] for w in excluded)
    free_set = gold.replace("^(?!(Pset_|Qto_)).+", ".+")
    assert behaviour(free_set, gold).value < 1.0


def test_score_is_youden_j_floored_at_zero():
    gold = {"a": True, "b": True, "c": False, "d": False}
    assert compare({"a": True, "b": True, "c": True, "d": True}, gold).value == 0.0  # rejects everything
    assert compare({"a": False, "b": False, "c": False, "d": False}, gold).value == 0.0  # accepts everything
    assert compare({"a": False, "b": False, "c": True, "d": True}, gold).value == 0.0  # inverted: floored
    half = compare({"a": True, "b": False, "c": False, "d": False}, gold)
    assert (half.recall, half.specificity, half.value) == (0.5, 1.0, 0.5)
    assert half.disagreements == ("b",)
    assert isinstance(half, BehaviourScore)
