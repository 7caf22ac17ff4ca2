"""No generated task makes the same scored choices as a benchmark gold."""
from __future__ import annotations

from idsbench.records import iter_records
from idsbench.synth import generate as generation
from idsbench.synth.gold import gold_ids
from idsbench.synth.overlap import benchmark_choices, choices_of, plan_choices, shares_choices
from idsbench.synth.sample import sample_task


def test_the_benchmark_golds_are_read_and_give_choice_sets():
    found = benchmark_choices()
    assert len(found) >= 83 and all(found)
    assert ("IFCSPACE", "", "Qto_SpaceBaseQuantities", "NetFloorArea") in set().union(*found)


def test_choices_read_from_a_plan_are_those_of_its_gold():
    for index in range(12):
        plan = sample_task(4, index, "mixed")
        for language in ("en", "ja"):
            assert plan_choices(plan, language) == choices_of(gold_ids(plan, plan.final, language)), index


def test_a_task_that_matches_a_benchmark_gold_is_drawn_again():
    first = sample_task(5, 0, "easy")
    benchmark = frozenset({plan_choices(first, "en")})
    assert shares_choices(first, ("en",), benchmark)
    plan, redrawn = generation._plan(5, 0, "easy", ("en",), benchmark)
    assert redrawn >= 1 and not shares_choices(plan, ("en",), benchmark)


def test_no_generated_task_shares_its_choices_with_the_benchmark(small_folder):
    folder, tally = small_folder
    benchmark = benchmark_choices()
    assert [r["id"] for _, _, r in iter_records(folder) if choices_of(r["gold_ids"]) in benchmark] == []


def test_the_near_duplicate_signature_keeps_classes_and_standard_items_only():
    from idsbench.synth.overlap import signature

    basins = ("IFCSANITARYTERMINAL", "WASHHANDBASIN")
    status = (*basins, "Pset_SanitaryTerminalTypeCommon", "Status")
    with_code = frozenset({status, (*basins, "OwnerData", "SupplierReference")})
    assert signature(with_code) == signature(frozenset({status})) == frozenset({status, (*basins, "", "")})
    assert signature(frozenset({(*basins, "@attribute", "Tag")})) == frozenset({(*basins, "", "")})
    assert signature(frozenset({status})) != signature(frozenset({(*basins, "Qto_SanitaryTerminalBaseQuantities",
                                                                   "GrossWeight")}))
