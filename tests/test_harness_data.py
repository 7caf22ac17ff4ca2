"""Harness input: dataset records -> Examples, selection, and the resumable predictions file.

Also the fixture dataset the other harness tests import (`write_dataset`, `FIXTURE`).
"""
import json

import pytest

from harness.examples import Selection, load_examples, select
from harness.predictions import Generation, PredictionWriter, prediction_row, prepare, read_existing
from ids_metric.records import InputError
from idsdocs import attribute, entity, ids, prop, spec

WALLS_CSV_EN = ("IDS Version: IFC4\nfilename: fx-walls.ids\n\n"
                "Element,Property set,Property,Value,Unit,Notes\n"
                "Wall,Pset_WallCommon,FireRating,EI60,,fire strategy\n"
                "Wall,Pset_WallCommon,IsExternal,true,,\n"
                "Wall,Pset_WallCommon,AcousticRating,TBD,,waiting for the acoustician\n")
WALLS_CSV_JA = ("IDS Version: IFC4\nfilename: fx-walls.ids\n\n"
                "対象,プロパティセット,プロパティ名,値,単位,備考\n"
                "壁,Pset_WallCommon,FireRating,EI60,,防火\n"
                "壁,Pset_WallCommon,IsExternal,true,,\n"
                "壁,Pset_WallCommon,AcousticRating,未定,,音響担当の確認待ち\n")
WALLS_GOLD = ids(spec([entity("IFCWALL")], [prop("Pset_WallCommon", "FireRating", "EI60"),
                                             prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN")],
                      name="Walls"), title="fx-walls")
DOORS_NL_EN = ("IDS Version: IFC2X3\nfilename: fx-doors.ids\n\n"
               "Hi, every door needs a Name and its FireRating in Pset_DoorCommon before the fire review.")
DOORS_NL_JA = ("IDS Version: IFC2X3\nfilename: fx-doors.ids\n\n"
               "すべてのドアに名称（Name）と、Pset_DoorCommon の FireRating を入力すること。")
DOORS_GOLD = ids(spec([entity("IFCDOOR")], [attribute("Name"), prop("Pset_DoorCommon", "FireRating")],
                      name="Doors", version="IFC2X3"), title="fx-doors")
WALLS_REVISED = ids(spec([entity("IFCWALL")], [prop("Pset_WallCommon", "FireRating", "EI60"),
                                                prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN"),
                                                prop("Pset_WallCommon", "AcousticRating")],
                         name="Walls"), title="fx-walls")


def record(example_id, messages, language="en", input_format="csv", turn_type="single_turn", version="IFC4"):
    return {"id": example_id, "scenario_id": example_id.split("-")[0], "messages": messages,
            "language": language, "input_format": input_format, "turn_type": turn_type,
            "domain": "architectural", "ifc_versions": [version], "gold_ids": messages[-1]["content"]}


def conversation(*texts):
    return [{"role": "user" if i % 2 == 0 else "assistant", "content": t} for i, t in enumerate(texts)]


FIXTURE = [
    record("fx1-en", conversation(WALLS_CSV_EN, WALLS_GOLD)),
    record("fx1-ja", conversation(WALLS_CSV_JA, WALLS_GOLD), language="ja"),
    record("fx2-en", conversation(DOORS_NL_EN, DOORS_GOLD), input_format="natural_language", version="IFC2X3"),
    record("fx2-ja", conversation(DOORS_NL_JA, DOORS_GOLD), language="ja", input_format="natural_language",
           version="IFC2X3"),
    record("fx3-en", conversation(WALLS_CSV_EN, f"```ids\n{WALLS_GOLD}\n```",
                                  "Please also require AcousticRating in Pset_WallCommon.", WALLS_REVISED),
           turn_type="multi_turn"),
]


def write_dataset(folder, records=FIXTURE):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "test-fixture.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return folder


@pytest.fixture
def dataset(tmp_path):
    return write_dataset(tmp_path / "data")


def test_examples_hold_the_conversation_without_the_gold(dataset):
    examples = {e.id: e for e in load_examples(dataset)}
    assert sorted(examples) == sorted(r["id"] for r in FIXTURE)
    multi = examples["fx3-en"]
    assert [m["role"] for m in multi.messages] == ["user", "assistant", "user"]
    assert multi.gold == WALLS_REVISED and multi.without_gold().gold is None
    assert examples["fx1-ja"].metadata["language"] == "ja"


@pytest.mark.parametrize("selection, expected", [
    (Selection(ids=("fx2-ja", "fx1-en")), ["fx1-en", "fx2-ja"]),
    (Selection(limit=2), ["fx1-en", "fx1-ja"]),
    (Selection(filters={"language": ("ja",)}), ["fx1-ja", "fx2-ja"]),
    (Selection(filters={"input_format": ("natural_language",), "language": ("en",)}), ["fx2-en"]),
    (Selection(filters={"turn_type": ("multi_turn",)}), ["fx3-en"]),
])
def test_selection(dataset, selection, expected):
    assert [e.id for e in select(load_examples(dataset), selection)] == expected


@pytest.mark.parametrize("selection, message", [
    (Selection(ids=("nope-en",)), "nope-en"),
    (Selection(filters={"language": ("fr",)}), "available: en, ja"),
    (Selection(limit=0), "selection is empty"),
])
def test_bad_selection_is_an_input_error(dataset, selection, message):
    with pytest.raises(InputError, match=message):
        select(load_examples(dataset), selection)


def test_bad_records_name_file_and_line(tmp_path):
    bad = dict(FIXTURE[0], messages=[{"role": "user", "content": "only a question"}])
    folder = write_dataset(tmp_path / "data", [FIXTURE[1], bad, FIXTURE[1]])
    with pytest.raises(InputError) as info:
        load_examples(folder)
    text = str(info.value)
    assert "test-fixture.jsonl:2:" in text and "gold" in text and "duplicate id 'fx1-ja'" in text


def _rows(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_truncated_last_line_is_dropped_and_redone(tmp_path):
    path = tmp_path / "p.jsonl"
    with PredictionWriter(path) as writer:
        writer.write(prediction_row("a", Generation("x"), {"run_config": "c1"}))
    path.write_text(path.read_text() + '{"id": "b", "predic', encoding="utf-8")  # a crash mid-write
    kept = prepare(path, "c1")
    assert list(kept) == ["a"] and path.read_text().endswith("\n")
    with PredictionWriter(path) as writer:
        writer.write(prediction_row("b", Generation("y"), {"run_config": "c1"}))
    assert [r["id"] for r in _rows(path)] == ["a", "b"]


def test_damage_in_the_middle_is_an_input_error(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "prediction": "x"}\nnot json\n{"id": "b", "prediction": "y"}\n')
    with pytest.raises(InputError, match=r"p.jsonl:2"):
        read_existing(path)


def test_resume_refuses_another_configuration(tmp_path):
    path = tmp_path / "p.jsonl"
    with PredictionWriter(path) as writer:
        writer.write(prediction_row("a", Generation("x"), {"run_config": "c1"}))
    with pytest.raises(InputError, match="another configuration"):
        prepare(path, "c2")
    assert prepare(path, "c2", overwrite=True) == {}


def test_retry_failed_rewrites_without_failures(tmp_path):
    path = tmp_path / "p.jsonl"
    with PredictionWriter(path) as writer:
        writer.write(prediction_row("a", Generation("x"), {"run_config": "c"}))
        writer.write(prediction_row("b", Generation(None, error="HTTP 500"), {"run_config": "c"}))
    assert sorted(prepare(path, "c")) == ["a", "b"]
    assert sorted(prepare(path, "c", retry_failed=True)) == ["a"]
    assert [r["id"] for r in _rows(path)] == ["a"]
