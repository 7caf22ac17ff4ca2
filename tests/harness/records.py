"""A small dataset for the harness tests: records in the published schema, written as a JSONL folder."""
import json

from idsbench.synthetic.documents import attribute, entity, ids, prop, spec

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
