"""A four-example dataset in the published record schema, for tests of the commands that need data
but not the 166 examples (English and Japanese, CSV and natural language, two IFC versions)."""
from __future__ import annotations

import json
import socket
from pathlib import Path

from idsbench.synthetic.documents import attribute, entity, ids, prop, spec

WALLS = ids(spec([entity("IFCWALL")], [prop("Pset_WallCommon", "FireRating", "EI60"),
                                       prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN")], name="Walls"))
DOORS = ids(spec([entity("IFCDOOR")], [attribute("Name"), prop("Pset_DoorCommon", "FireRating")], name="Doors",
                 version="IFC2X3"))
WALLS_CSV = "Element,Property set,Property,Value\nWall,Pset_WallCommon,FireRating,EI60\n" \
            "Wall,Pset_WallCommon,IsExternal,true\n"
DOORS_TEXT = "Every door needs a Name and its FireRating in Pset_DoorCommon."
# (id, user message, gold, language, input format, IFC version)
EXAMPLES = (("t01-en", WALLS_CSV, WALLS, "en", "csv", "IFC4"), ("t01-ja", WALLS_CSV, WALLS, "ja", "csv", "IFC4"),
            ("t02-en", DOORS_TEXT, DOORS, "en", "natural_language", "IFC2X3"),
            ("t02-ja", DOORS_TEXT, DOORS, "ja", "natural_language", "IFC2X3"))
IDS = [e[0] for e in EXAMPLES]
GOLD = {e[0]: e[2] for e in EXAMPLES}


def record(example_id: str, user: str, gold: str, language: str, input_format: str, version: str) -> dict:
    return {"id": example_id, "scenario_id": example_id.split("-")[0],
            "messages": [{"role": "user", "content": f"IDS Version: {version}\n\n{user}"},
                         {"role": "assistant", "content": gold}],
            "language": language, "input_format": input_format, "turn_type": "single_turn",
            "domain": "architectural", "ifc_versions": [version], "gold_ids": gold}


def write_jsonl(path: Path, rows) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def examples(copies: int = 1) -> list[tuple]:
    """EXAMPLES, or `copies` of them with ids t01-en, t01-en-2, …"""
    return [(e[0] if c == 1 else f"{e[0]}-{c}", *e[1:]) for c in range(1, copies + 1) for e in EXAMPLES]


def write_data(folder: Path, copies: int = 1) -> Path:
    write_jsonl(folder / "test-small.jsonl", [record(*e) for e in examples(copies)])
    return folder


def write_predictions(path: Path, predictions: dict[str, str | None] | None = None) -> Path:
    """A predictions file; by default every gold, in id order."""
    chosen = GOLD if predictions is None else predictions
    return write_jsonl(path, [{"id": i, "prediction": p} for i, p in chosen.items()])


def refused_url() -> str:
    """An OpenAI-style base URL on 127.0.0.1 where nothing listens: every connection is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
