"""Witness models: deterministic, cached faithfully, and the proof can fail."""
from tests.behaviour.golds import gold_text
from idsbench.behaviour import cache
from idsbench.behaviour.check import load_ids
from idsbench.behaviour.prove import prove
from idsbench.behaviour.score import score_document


def _models(witnesses) -> dict[str, str]:
    out = {v: vm.model.to_string() for v, vm in witnesses.models.items()}
    out.update({k: m.to_string() for k, m in witnesses.cardinality_models.items()})
    return out


def test_models_are_identical_when_rebuilt():
    gold = gold_text("s001-en")
    first, second = (prove(load_ids(gold), "seed") for _ in range(2))
    assert _models(first) == _models(second)
    assert first.verdicts == second.verdicts
    for vm in first.models.values():
        ids = [r.GlobalId for r in vm.model.by_type("IfcRoot")]
        assert len(ids) == len(set(ids))


def test_cache_round_trip_gives_the_same_scores(tmp_path):
    gold = gold_text("s012-en")
    built = cache.witnesses_for(gold, cache_dir=tmp_path)
    cache._MEMORY.clear()
    loaded = cache.witnesses_for(gold, cache_dir=tmp_path)
    assert loaded is not built and loaded.verdicts == built.verdicts
    variant = gold.replace('cardinality="required"', 'cardinality="optional"', 1)
    assert score_document(variant, loaded) == score_document(variant, built)
    described = cache.describe(loaded)
    assert described["proven"] and all(w["designed"] == w["gold"] for w in described["witnesses"])


CONTRADICTION = """<?xml version="1.0" encoding="UTF-8"?>
<ids xmlns="http://standards.buildingsmart.org/IDS" xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <info><title>contradiction</title></info>
  <specifications>
    <specification name="A" ifcVersion="IFC4">
      <applicability minOccurs="1" maxOccurs="unbounded"><entity><name><simpleValue>IFCDOOR</simpleValue></name></entity></applicability>
      <requirements><property dataType="IFCLABEL" cardinality="required"><propertySet><simpleValue>Pset_DoorCommon</simpleValue></propertySet>
        <baseName><simpleValue>FireRating</simpleValue></baseName><value><simpleValue>EI30</simpleValue></value></property></requirements>
    </specification>
    <specification name="B" ifcVersion="IFC4">
      <applicability minOccurs="1" maxOccurs="unbounded"><entity><name><simpleValue>IFCDOOR</simpleValue></name></entity></applicability>
      <requirements><property dataType="IFCLABEL" cardinality="required"><propertySet><simpleValue>Pset_DoorCommon</simpleValue></propertySet>
        <baseName><simpleValue>FireRating</simpleValue></baseName><value><simpleValue>EI60</simpleValue></value></property></requirements>
    </specification>
  </specifications>
</ids>"""


def test_a_contradictory_gold_is_not_proven():
    witnesses = prove(load_ids(CONTRADICTION), "seed")
    assert not witnesses.proven
    assert any("satisfy" in f and "the gold rejects it" in f for f in witnesses.failures)


def test_every_witness_records_what_it_is_for():
    witnesses = prove(load_ids(gold_text("s081-en")), "seed")
    kinds = {w.kind for w in witnesses.witnesses} | {m.kind for m in witnesses.model_witnesses}
    assert {"satisfy", "boundary", "violate", "near-miss", "prohibited-present", "no-applicable"} <= kinds
    assert all(w.purpose and w.expected in ("accepted", "rejected") for w in witnesses.witnesses)
    assert all(w.facet is not None for w in witnesses.witnesses if w.kind == "violate")
