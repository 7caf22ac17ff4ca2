"""The version-3 gates (m-q) on the example scenario in tests/dataset/v3-fixture (s004, roof lights), the
steering detector, check --scenario, the facets helper and the trap kinds of the skills column."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import ishigaki_ids_bench as bench
from idsbench.dataset import adversarial, gates
from idsbench.dataset.review3 import content_hash
from idsbench.dataset.scenarios import read_all
from idsbench.dataset.steering import steering_in
from tests.dataset.test_dataset import assert_caught, make_checkout, replace_in

V3_FIXTURE = Path(__file__).with_name("v3-fixture")
S004 = "data/scenarios/s004/"


@pytest.fixture
def checkout(tmp_path) -> Path:
    root = make_checkout(tmp_path / "v3-checkout")
    shutil.copytree(V3_FIXTURE / "s004", root / "data" / "scenarios" / "s004")
    return root


def review(root: Path) -> dict:
    return json.loads((root / S004 / "scenario.json").read_text(encoding="utf-8"))


def write_review(root: Path, meta: dict) -> None:
    (root / S004 / "scenario.json").write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def test_the_example_passes_every_per_scenario_gate(checkout):
    report = gates.run_checks(checkout, "abcdehjlmnop", scenarios=["s004"])
    assert report.ok and report.n_scenarios == 1, report.to_text()
    assert [g.status for g in report.gates] == ["ok"] * 12, report.to_text()


def test_the_example_is_the_version_its_record_says(checkout):
    sc = next(s for s in read_all(checkout)[0] if s.scenario_id == "s004")
    assert review(checkout)["review"]["adversarial"]["rounds"][0]["data"] == content_hash(sc)


def edit_review(path: list, value):
    def edit(meta: dict) -> None:
        target = meta["review"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


BROKEN_REVIEWS = [
    # (gate, edit of scenario.json, expected substring of a problem)
    ("m", edit_review(["traps"], []), "0 trap(s); a single-turn example needs at least 2"),
    ("m", edit_review(["traps", 0, "fact"], "ptype:IFC4:IFCWINDOW.ROOFHATCH"), "is not in the catalogue"),
    ("m", edit_review(["traps", 1, "facet"], "S1.r.property:Pset_WindowCommon.FireRating"), "is not a facet of"),
    ("m", edit_review(["traps", 2, "why"], ""), "why missing"),
    ("m", edit_review(["traps", 1, "fact"], "unit:IFCPRESSUREMEASURE"), "is not about facet"),
    ("m", edit_review(["traps", 0, "fact"], "ptype:IFC4:IFCWINDOW.LIGHTDOME"), "is not about facet"),
    ("o", edit_review(["definitions", 0, "text"], "A roof window."), "IFCWINDOW.SKYLIGHT in IFC4: the text is not"),
    ("o", edit_review(["definitions"], []), "lacks Pset_WindowCommon.GlazingAreaFraction in IFC4"),
    ("o", edit_review(["author"], "writer A"), "review.author 'writer A' must be a role id"),
    ("o", edit_review(["adversarial", "rounds", 0, "results", 1, "solver"], "solver-1"), "1 solver(s) on the final"),
    ("o", edit_review(["adversarial", "rounds", 0, "data"], "000000000000"), "0 solver(s) on the final version"),
    ("o", edit_review(["adversarial", "rounds", 0, "results", 0, "misses", 0, "judgement"], "data_problem"),
     "a data problem is unresolved"),
    ("o", edit_review(["adversarial", "rounds", 0, "results", 0, "misses", 0, "judge"], "solver-1"),
     "judged by its own solver"),
    ("o", edit_review(["adversarial", "rounds", 0, "results", 0, "misses"], []), "lists no miss"),
    ("o", edit_review(["adversarial", "rounds", 0, "results", 0, "facet_f1"], 1), "fully right"),
    ("o", edit_review(["adversarial", "rounds", 0, "results", 1, "example"], "s001-en"), "is not one of"),
]


@pytest.mark.parametrize("gate, edit, needle", BROKEN_REVIEWS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BROKEN_REVIEWS)])
def test_each_review_problem_is_caught(checkout, gate, edit, needle):
    meta = review(checkout)
    edit(meta)
    write_review(checkout, meta)
    result = gates.run_checks(checkout, gate, scenarios=["s004"]).gate(gate)
    assert result.status == "failed" and any(needle in p for p in result.problems), result.problems


BROKEN_TEXTS = [
    # (gate, file, old, new, expected substring): a changed text also invalidates the adversarial round
    ("n", "en/01-user.txt", "roof lights in the pitched roof", "roof lights, SKYLIGHT, not a property set",
     "phrase 'not a property set'"),
    ("n", "ja/01-user.txt", "勾配屋根のトップライト", "勾配屋根のIfcWindow", "IFC class IfcWindow"),
    ("p", "en/01-user.txt", "U-value of the whole unit", "ThermalTransmittance in Pset_WindowCommon", "leakage"),
    ("o", "en/01-user.txt", "at most 1.4", "at most 1.3", "0 solver(s) on the final version"),
]


@pytest.mark.parametrize("gate, rel, old, new, needle", BROKEN_TEXTS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BROKEN_TEXTS)])
def test_each_request_problem_is_caught(checkout, gate, rel, old, new, needle):
    assert_caught(checkout, gate, f"s004/{rel}", old, new, needle)


def test_a_multi_turn_version3_scenario_names_its_revision(checkout):
    meta = review(checkout)
    meta["turn_type"] = "multi_turn"
    meta["review"]["revision"] = {"kinds": ["added-requirement"], "what": "adds the fire rating"}
    write_review(checkout, meta)
    problems = gates.run_checks(checkout, "m", scenarios=["s004"]).gate("m").problems
    assert any("beyond an added requirement" in p for p in problems)
    assert not any("trap(s)" in p for p in problems)  # traps are counted on single-turn examples


@pytest.mark.parametrize("text, found", [
    ("Walls need a fire rating of EI 60.", []),
    ("Use its own attributes, not a property set.", ["phrase 'its own attributes, not a property set'",
                                                     "phrase 'not a property set'"]),
    ("Stairs: STRAIGHT_RUN_STAIR only.", ["enumeration value STRAIGHT_RUN_STAIR"]),
    ("Roof light type LIGHTDOME; LED lamps; FM team.", ["enumeration value LIGHTDOME"]),
    ("Doors (IfcDoor) carry Pset_DoorCommon values.", ["IFC class IfcDoor", "set name Pset_DoorCommon"]),
    ("壁はプロパティセットではなく属性として記入", ["phrase 'プロパティセットではなく'", "phrase '属性として'"]),
    ("IDS Version: IFC4X3_ADD2\n\nKerbs must have a height.", []),
    ("AssetTag | IfcIdentifier | – ; DesignLoad | IfcForceMeasure | kN", []),  # a data dictionary's types
])
def test_steering_detector(text, found):
    assert steering_in(text) == sorted(found)


def test_a_checklist_ifc_class_column_is_not_steering():
    request = ("IDS Version: IFC4\n\nElement,IFC class,Item,Value\nDoors,IfcDoor,fire rating,EI30\n"
               "Windows,IfcWindow,U-value,1.4\nWalls,IfcWall,fire rating,EI60")
    assert steering_in(request) == []
    assert steering_in(request + "\nNote: IfcSlab is out of scope") == ["IFC class IfcSlab"]


def test_check_scenario_runs_only_per_scenario_gates_and_names_unknown_ones(checkout, capsys):
    report = gates.run_checks(checkout, "dfgkq", scenarios=["s004"])
    assert [g.status for g in report.gates] == ["ok", "skipped", "skipped", "skipped", "info"]
    with pytest.raises(ValueError, match="no scenario s099"):
        gates.run_checks(checkout, "a", scenarios=["s099"])
    assert bench.main(["check", "--root", str(checkout), "--scenario", "s099", "--gates", "a"]) == 2
    assert "no scenario s099" in capsys.readouterr().err


def test_pooled_leakage_is_information_for_some_scenarios(checkout):
    replace_in(checkout / S004 / "en/01-user.txt", "U-value of the whole unit", "ThermalTransmittance")
    assert gates.run_checks(checkout, "p", scenarios=["s004"]).gate("p").status == "info"


def test_size_gate_caps_specifications_and_counts_later(checkout):
    result = gates.run_checks(checkout, "q").gate("q")
    assert result.status == "info" and "counts apply once all are version 3" in result.note


def test_version2_rules_leave_version3_walls_to_the_request():
    from idsbench.dataset.conventions import problems
    from idsbench.synthetic.documents import entity, ids, spec

    gold = ids(spec(entity("IFCWALL"), name="Walls", version="IFC2X3"), title="t")
    assert any("IFC2X3 walls" in p for p in problems(gold, ("IFC2X3",), edition=2))
    assert not any("IFC2X3 walls" in p for p in problems(gold, ("IFC2X3",), edition=3))


def test_facets_helper_prints_keys_and_a_skeleton(checkout, capsys):
    assert bench.main(["facets", "s004", "--root", str(checkout)]) == 0
    out = capsys.readouterr().out
    assert "S1.a.entity:IFCWINDOW/SKYLIGHT" in out and "dataType=IFCPOSITIVERATIOMEASURE" in out
    assert bench.main(["facets", "s004", "--root", str(checkout), "--skeleton"]) == 0
    skeleton = json.loads(capsys.readouterr().out)
    assert skeleton["data"] == review(checkout)["review"]["adversarial"]["rounds"][0]["data"]
    assert skeleton["definitions"] == review(checkout)["review"]["definitions"] and len(skeleton["traps"]) == 2
    assert bench.main(["facets", str(checkout / S004 / "en/02-assistant.ids"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["facets"][0]["key"] == "S1.a.entity:IFCWINDOW/SKYLIGHT"
    assert bench.main(["facets", "s077", "--root", str(checkout)]) == 2
    answer = checkout / "answer.txt"  # a raw model output is read as the scorer reads it (the fence)
    answer.write_text("```ids\n" + (checkout / S004 / "en/02-assistant.ids").read_text(encoding="utf-8") + "\n```\n",
                      encoding="utf-8")
    assert bench.main(["facets", str(answer), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["facets"][0]["key"] == "S1.a.entity:IFCWINDOW/SKYLIGHT"
    answer.write_text("not XML", encoding="utf-8")
    assert bench.main(["facets", str(answer)]) == 2


def test_skills_name_the_trap_kinds(checkout):
    bench.build(checkout)
    rows = [json.loads(line) for line in (checkout / "data" / "test-en-natural_language-single_turn.jsonl")
            .read_text(encoding="utf-8").splitlines()]
    skills = next(r["skills"] for r in rows if r["id"] == "s004-en")
    assert {"trap-predefined-type", "trap-unit", "trap-data-type"} <= set(skills)
    assert not any(s.startswith("trap-") for r in rows if r["id"] != "s004-en" for s in r["skills"])


def test_the_package_names_its_functions_after_their_modules_are_imported():
    import idsbench.dataset.build
    import idsbench.dataset.load  # noqa: F401
    from idsbench.dataset import build, load

    assert callable(build) and callable(load) and build is bench.build and load is bench.load


def test_the_card_figures_count_only_the_final_versions_answers(checkout):
    meta = review(checkout)
    rounds = meta["review"]["adversarial"]["rounds"]
    stale = json.loads(json.dumps(rounds[0]))
    stale.update(round=0, data="000000000000")
    for result in stale["results"]:
        result.update(facet_f1=0.0, content=0)
    meta["review"]["adversarial"]["rounds"] = [stale, *rounds]
    write_review(checkout, meta)
    sc = next(s for s in read_all(checkout)[0] if s.scenario_id == "s004")
    final = rounds[0]["results"]
    figures = adversarial.card_figures([sc])
    assert figures["adv_rounds"] == "2" and figures["adv_answers"] == str(len(final))
    assert figures["adv_facet_score"] == f"{100 * sum(r['facet_f1'] for r in final) / len(final):.1f}"
    assert figures["adv_data_problem"] == "0"
