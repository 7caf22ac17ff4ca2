"""Offline baselines: gold scores 1.0, copy-previous, and the rule-based baseline (which never sees the gold)."""
import json

import pytest
from lxml import etree

from idsbench.extract import extract_candidate
from idsbench.harness.baselines import copy_previous, gold, parse_request
from idsbench.harness.examples import example_from_record
from idsbench.harness.generate import call_system
from idsbench.harness.rulebased import generate_ids
from idsbench.harness.rulebased.values import make_property, parse_constraint
from idsbench.harness.systems import baseline_system
from idsbench.locations import default_data
from idsbench.pipeline import score
from tests.harness.records import FIXTURE, WALLS_GOLD

NS = {"ids": "http://standards.buildingsmart.org/IDS"}
EXAMPLES = [example_from_record(r) for r in FIXTURE]


def parse(raw):
    return etree.fromstring(extract_candidate(raw).encode("utf-8"))


def test_gold_scores_one():
    raws = [gold(e) for e in EXAMPLES]
    run = score(raws, [e.reference for e in EXAMPLES], audit_profile=None)
    assert all(r.facets.f1 == 1.0 for r in run.results) and run.overall.facet_f1 == 1.0


@pytest.mark.parametrize("make", [gold, copy_previous, generate_ids], ids=["gold", "copy-previous", "rule-based"])
def test_baselines_pass_the_audit(make):
    run = score([make(e) for e in EXAMPLES], [e.reference for e in EXAMPLES])
    assert run.overall.content == 1.0, [(r.id, r.audit) for r in run.results if r.verdict[2] == 0]


def test_only_the_gold_baseline_is_shown_the_gold():
    seen = {}

    def spying(system):
        def call(example):
            seen[system.name] = example.gold
            return system.call(example)
        return type(system)(system.name, call, system.settings, system.needs_gold)

    for name in ("gold", "copy-previous", "rule-based"):
        call_system(spying(baseline_system(name)), EXAMPLES[0])
    assert seen == {"gold": WALLS_GOLD, "copy-previous": None, "rule-based": None}


def blanked(record):
    """The record with every trace of the gold removed."""
    messages = [dict(m) for m in record["messages"]]
    messages[-1]["content"] = "(blank)"
    return dict(record, messages=messages, gold_ids="(blank)")


@pytest.mark.parametrize("record", FIXTURE, ids=[r["id"] for r in FIXTURE])
def test_rule_based_never_reads_the_gold(record):
    assert generate_ids(example_from_record(blanked(record))) == generate_ids(example_from_record(record))


def test_rule_based_on_the_fixture():
    run = score([generate_ids(e) for e in EXAMPLES], [e.reference for e in EXAMPLES], audit_profile=None)
    f1 = {r.id: r.facets.f1 for r in run.results}
    # CSV en/ja (the TBD row left out), the prose request in both languages, and the revision.
    assert f1 == {"fx1-en": 1.0, "fx1-ja": 1.0, "fx2-en": 1.0, "fx2-ja": 1.0, "fx3-en": 1.0}


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_rule_based_follows_the_conventions(example):
    root = parse(generate_ids(example))
    header = parse_request(example.messages[0]["content"])
    assert root.findtext("ids:info/ids:title", namespaces=NS) == header.filename.removesuffix(".ids")
    specs = root.findall(".//ids:specification", NS)
    assert specs and all(s.get("ifcVersion") == header.ifc_version for s in specs)
    assert all(a.get("maxOccurs") in ("unbounded", "0") and a.get("minOccurs") in ("0", "1")
               for a in root.findall(".//ids:applicability", NS))


def test_copy_previous():
    multi = EXAMPLES[-1]
    assert copy_previous(multi) == multi.messages[1]["content"]
    root = parse(copy_previous(EXAMPLES[2]))  # single-turn: a skeleton with the header's version and title
    assert root.findtext("ids:info/ids:title", namespaces=NS) == "fx-doors"
    assert [s.get("ifcVersion") for s in root.findall(".//ids:specification", NS)] == ["IFC2X3"]


def test_any_set_convention_when_no_set_is_named():
    record = dict(FIXTURE[2], messages=[{"role": "user", "content": "IDS Version: IFC4\n\nEach door must have an "
                                         "AcousticRatingClass property, any property set."},
                                        FIXTURE[2]["messages"][-1]])
    root = parse(generate_ids(example_from_record(record)))
    pattern = root.find(".//ids:property/ids:propertySet/{http://www.w3.org/2001/XMLSchema}restriction/"
                        "{http://www.w3.org/2001/XMLSchema}pattern", NS)
    assert pattern is not None and pattern.get("value") == "^(?!(Pset_|Qto_)).+"
    assert root.findtext("ids:info/ids:title", namespaces=NS)  # invented when no filename is given


@pytest.mark.parametrize("cell, unit, pset, name, expected", [
    ("min. 30", "mm", "Pset_ConcreteElementGeneral", "ConcreteCoverAtMainBars", ("minInclusive", "0.03")),
    ("1,100mm以上", None, "Pset_RailingCommon", "Height", ("minInclusive", "1.1")),
    ("30", "kN", "ACME", "DesignLoad", "30000"),
    ("20", "℃", "ACME", "SetPoint", "293.15"),
    ("min 0.5", "%", "Pset_PipeSegmentOccurrence", "Gradient", ("minInclusive", "0.005")),
    ("600～1000", "mm", "Qto_SignBaseQuantities", "Width", ("maxInclusive", "1")),
    ("XC1 または XC3", None, "STR", "ExposureClass", ("enumeration", "XC3")),
    ("RS-数字5桁", None, "ACME", "Code", ("pattern", "RS-[0-9]{5}")),
])
def test_values_are_converted_to_si(cell, unit, pset, name, expected):
    value = make_property(["IFC4X3_ADD2"], pset, name, parse_constraint(cell), unit).value
    if isinstance(expected, str):
        assert value == expected
    else:
        assert expected in value.items


@pytest.mark.parametrize("cell", ["n/a", "TBD", "未定", "対象外", "TBD - supplier to confirm"])
def test_rows_to_leave_out(cell):
    assert parse_constraint(cell).kind == "skip"


@pytest.mark.skipif(not list(default_data().glob("test-*.jsonl")), reason="data files not built")
def test_rule_based_writes_xml_for_every_example_of_the_data():
    from idsbench.harness.examples import load_examples

    for example in load_examples(default_data()):
        root = parse(generate_ids(example.without_gold()))
        assert root.tag == "{http://standards.buildingsmart.org/IDS}ids", example.id
        json.dumps(example.id)


@pytest.mark.parametrize("header, expected", [
    ("Entity,Property set,Property,Value,Unit,Data type,Required",
     {"entity": 0, "pset": 1, "property": 2, "value": 3, "unit": 4, "datatype": 5, "cardinality": 6}),
    ("対象,プロパティセット,プロパティ名,値,単位,データ型,必須",
     {"element": 0, "pset": 1, "property": 2, "value": 3, "unit": 4, "datatype": 5, "cardinality": 6}),
    ("IFCクラス,Pset,属性名,許容値,備考", {"entity": 0, "pset": 1, "property": 2, "value": 3}),
    ("#,Element,Condition,Pset / Qto,Property,Requirement,Unit",
     {"element": 1, "pset": 3, "property": 4, "value": 5, "unit": 6}),
])
def test_csv_header_synonyms(header, expected):
    from idsbench.harness.rulebased.csvrules import column_roles

    assert column_roles(header.split(",")) == expected
