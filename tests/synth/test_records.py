"""A generated record's derived columns come from the gold's document; they equal those of the parsed gold."""
from __future__ import annotations

from idsbench.dataset.golds import parse_gold
from idsbench.dataset.ids_analysis import summarize
from idsbench.synth.analysis import as_gold
from idsbench.synth.gold import document, gold_ids
from idsbench.synth.records import record, restriction_kinds
from idsbench.synth.sample import sample_task


def test_the_gold_from_the_document_is_the_parsed_gold():
    for index in range(24):
        plan = sample_task(2, index, "mixed")
        for turn in plan.turns:
            for language in ("en", "ja"):
                assert as_gold(document(plan, turn, language)) == parse_gold(gold_ids(plan, turn, language)), index


def test_derived_columns_are_those_the_dataset_build_gives():
    for index in range(12):
        rec = record(sample_task(3, index, "mixed"), "en")
        summary = summarize(rec["gold_ids"])
        assert rec["n_specifications"] == summary.n_specifications
        assert rec["facet_kinds"] == list(summary.facet_kinds)
        assert rec["restriction_kinds"] == list(summary.restriction_kinds)
        assert restriction_kinds(parse_gold(rec["gold_ids"])) == rec["restriction_kinds"]
