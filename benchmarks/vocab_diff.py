"""Compare the ifcopenshell-derived audit vocabulary with the audit tool 1.0.96 tables.

The tool's embedded tables are reference data in ../shared (never copied into this
repository); this script only measures the differences and prints counts + examples:

    python -m benchmarks.vocab_diff [--examples N]
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path


from idsbench.vocabulary.psets import property_sets
from idsbench.vocabulary.schema import SCHEMAS, schema_vocabulary

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
REFERENCE = SHARED / "reference-data" / "ids-tool-1.0.96-vocab"
_TOOL_SCHEMA = {"IFC2X3": "Ifc2x3", "IFC4": "Ifc4", "IFC4X3_ADD2": "Ifc4x3"}


def _load(name: str):
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


def _report(label: str, only_ours, only_tool, examples: int) -> tuple[int, int]:
    ours, tool = sorted(only_ours), sorted(only_tool)
    print(f"  {label:<34} only ours: {len(ours):>4}  only tool: {len(tool):>4}")
    if ours:
        print(f"      ours e.g. {ours[:examples]}")
    if tool:
        print(f"      tool e.g. {tool[:examples]}")
    return len(ours), len(tool)


def _class_rows(schema: str) -> dict[str, tuple]:
    vocab = schema_vocabulary(schema)
    return {u: (c.parent, c.abstract, c.predefined, frozenset(c.attributes)) for u, c in vocab.classes.items()}


def _tool_class_rows(ref: list[dict]) -> dict[str, tuple]:
    return {c["name"].upper(): ((c["parent"] or "").upper(), c["type"] == "Abstract",
                                tuple(c["predefined"]), frozenset(c["attributes"])) for c in ref}


def diff_classes(schema: str, ref, examples: int) -> None:
    ours, tool = _class_rows(schema), _tool_class_rows(ref[schema])
    _report("class names", ours.keys() - tool.keys(), tool.keys() - ours.keys(), examples)
    common = ours.keys() & tool.keys()
    for idx, label in enumerate(("parent", "abstract", "predefined types", "attribute names")):
        bad = {n for n in common if ours[n][idx] != tool[n][idx]}
        _report(f"{label} differ", bad, set(), examples)


def diff_attributes(schema: str, ref, examples: int) -> None:
    vocab = schema_vocabulary(schema)
    tool = ref[schema]
    _report("attribute names", vocab.attributes.keys() - tool.keys(), tool.keys() - vocab.attributes.keys(), examples)
    common = vocab.attributes.keys() & tool.keys()
    cls = {n for n in common if vocab.attributes[n].classes != frozenset(tool[n]["all"])}
    _report("attribute class sets differ", cls, set(), examples)
    xsd = {f"{n}:{list(vocab.attributes[n].xsd_types)}!={tool[n]['xsd_types'] or []}" for n in common
           if sorted(vocab.attributes[n].xsd_types) != sorted(tool[n]["xsd_types"] or [])}
    _report("attribute XSD types differ", xsd, set(), examples)


def diff_data_types(schema: str, ref, examples: int) -> None:
    ours = schema_vocabulary(schema).data_types
    tool = {d["name"]: d["backing"] for d in ref if _TOOL_SCHEMA[schema] in d["schemas"]}
    _report("dataType names", ours.keys() - tool.keys(), tool.keys() - ours.keys(), examples)
    bad = {f"{n}:{ours[n]}!={tool[n]}" for n in ours.keys() & tool.keys() if ours[n] != tool[n]}
    _report("dataType backing differs", bad, set(), examples)


def _tool_psets(rows: list[dict]) -> dict[str, dict]:
    return {p["name"]: p for p in rows}


def diff_psets(schema: str, ref, examples: int, variant: str) -> None:
    ours, tool = property_sets(schema, variant), _tool_psets(ref[schema])
    _report("property set names", ours.keys() - tool.keys(), tool.keys() - ours.keys(), examples)
    only_ours, only_tool, types, applic = set(), set(), set(), set()
    for name in ours.keys() & tool.keys():
        mine = ours[name].properties
        theirs = {p["name"]: p for p in tool[name]["properties"]}
        only_ours |= {f"{name}.{p}" for p in mine.keys() - theirs.keys()}
        only_tool |= {f"{name}.{p}" for p in theirs.keys() - mine.keys()}
        types |= {f"{name}.{p}" for p in mine.keys() & theirs.keys()
                  if list(mine[p].data_types) != theirs[p]["dataTypes"]}
        if set(ours[name].applicable) != {a.upper() for a in tool[name]["applicable"]}:
            applic.add(name)
    _report("properties", only_ours, only_tool, examples)
    _report("property dataTypes differ", types, set(), examples)
    _report("applicable classes differ", applic, set(), examples)


def diff_object_types(schema: str, ref, examples: int) -> None:
    vocab = schema_vocabulary(schema)
    ours = {(o, t) for o, ts in vocab.object_types.items() for t in ts}
    tool = {(a, b) for a, b in ref[schema]}
    _report("occurrence -> type relations", ours - tool, tool - ours, examples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=4, help="examples printed per difference")
    parser.add_argument("--variant", default="tool-1.0.96", choices=("tool-1.0.96", "latest"))
    args = parser.parse_args(argv)
    if not REFERENCE.is_dir():
        print(f"reference vocabulary not found at {REFERENCE}: nothing to compare (shared/ is absent).")
        return 0
    refs = {n: _load(n) for n in ("classes.json", "attributes.json", "datatypes.json", "psets.json",
                                  "relation_types.json")}
    for schema in SCHEMAS:
        print(f"== {schema}")
        diff_classes(schema, refs["classes.json"], args.examples)
        diff_attributes(schema, refs["attributes.json"], args.examples)
        diff_data_types(schema, refs["datatypes.json"], args.examples)
        diff_psets(schema, refs["psets.json"], args.examples, args.variant)
        diff_object_types(schema, refs["relation_types.json"], args.examples)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
