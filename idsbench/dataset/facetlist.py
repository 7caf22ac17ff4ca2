"""`python ishigaki_ids_bench.py facets`: the facets of a scenario's golds, with the keys the review record
uses (review.facets, review.traps), or of one IDS file; `--skeleton` prints the review entries to fill."""
from __future__ import annotations

import json
from pathlib import Path

from .golds import Facet, Gold, Value, parse_gold
from .review3 import MIN_TRAPS, content_hash, expected_definitions
from .scenarios import Scenario, read_scenario
from .schema import LANGUAGES

EPILOG = """examples:
  python ishigaki_ids_bench.py facets s012                 # every IDS turn of both languages, facet by facet
  python ishigaki_ids_bench.py facets s012 --skeleton      # review.facets, definitions, traps to fill (JSON)
  python ishigaki_ids_bench.py facets my-draft.ids         # one IDS file
  python ishigaki_ids_bench.py facets s012 --json

The skeleton's definitions are quoted from ifcopenshell (review them against the request); its `data` is
the content hash that an adversarial round on the current texts records.

exit codes: 0 printed, 2 no such scenario or file, or not XML"""


def add_arguments(cmd) -> None:
    cmd.add_argument("target", metavar="SNNN|FILE.ids", help="a scenario id, or the path of an IDS file")
    cmd.add_argument("--root", type=Path, help="checkout folder (default: the one you are in)")
    group = cmd.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true", help="the facets as JSON")
    group.add_argument("--skeleton", action="store_true",
                       help="the review entries a version-3 scenario needs, as JSON to fill in")


def value_text(value: Value) -> str:
    parts = [" | ".join(value.simple)] if value.simple else []
    parts += [f"one of {{{', '.join(value.enumeration)}}}"] if value.enumeration else []
    parts += [f"pattern {p}" for p in value.patterns]
    parts += [f"{name} {bound}" for name, bound in value.bounds]
    return " ".join(parts)


def facet_row(f: Facet) -> dict:
    """A facet's key and what it says, parameter by parameter."""
    row = {"key": f.key}
    row.update({name: value_text(v) for name, v in f.params.items() if value_text(v)})
    row.update({k: v for k, v in f.attrib.items() if k in ("dataType", "cardinality")})
    return row


def gold_rows(gold: Gold) -> list[dict]:
    return [{"specification": s.index, "ifcVersion": s.attrib.get("ifcVersion", ""),
             "applicability": {k: s.applicability.get(k, "") for k in ("minOccurs", "maxOccurs")},
             "facets": [facet_row(f) for f in s.facets]} for s in gold.specs]


def text_of(rows: list[dict]) -> str:
    lines = []
    for spec in rows:
        occurs = spec["applicability"]
        lines.append(f"  S{spec['specification']}  ifcVersion {spec['ifcVersion']}  applicability "
                     f"{occurs['minOccurs'] or '-'}..{occurs['maxOccurs'] or '-'}")
        for facet in spec["facets"]:
            rest = "  ".join(f"{k}={v}" for k, v in facet.items() if k != "key")
            lines.append(f"    {facet['key']}  {rest}")
    return "\n".join(lines)


def skeleton(sc: Scenario) -> dict:
    keys = list(dict.fromkeys(f.key for lang in LANGUAGES for f in parse_gold(sc.examples[lang][-1].content).facets))
    traps = [] if sc.meta.get("turn_type") != "single_turn" else [
        {"fact": "", "facet": "", "obvious": "", "why": ""} for _ in range(MIN_TRAPS)]
    out = {"version": 3, "data": content_hash(sc),
           "facets": [{"facet": k, "en": "", "ja": ""} for k in keys],
           "definitions": [{"name": n, "version": v, "text": t} for (n, v), t in expected_definitions(sc).items()],
           "traps": traps}
    if sc.meta.get("turn_type") == "multi_turn":
        out["revision"] = {"kinds": [], "what": ""}
    return out


def _scenario(root: Path, sid: str) -> Scenario:
    from .build import checkout

    folder = checkout(root) / "data" / "scenarios" / sid
    if not folder.is_dir():
        raise ValueError(f"no scenario {sid} under {folder.parent}")
    sc, problems = read_scenario(folder, checkout(root))
    if sc is None:
        raise ValueError(f"{sid} cannot be read:\n  " + "\n  ".join(problems))
    return sc


def run(args) -> int:
    path = Path(args.target)
    if args.target.endswith(".ids") or path.is_file():
        if not path.is_file():
            raise ValueError(f"{path}: no such file")
        rows = gold_rows(_parsed(path.read_text(encoding="utf-8"), str(path)))
        print(json.dumps(rows, ensure_ascii=False, indent=2) if args.json else text_of(rows))
        return 0
    sc = _scenario(args.root, args.target)
    if args.skeleton:
        print(json.dumps(skeleton(sc), ensure_ascii=False, indent=2))
        return 0
    turns = {m.path: gold_rows(_parsed(m.content, m.path)) for lang in LANGUAGES for m in sc.examples[lang]
             if m.role == "assistant"}
    print(json.dumps(turns, ensure_ascii=False, indent=2) if args.json
          else "\n".join(f"{where}\n{text_of(rows)}" for where, rows in turns.items()))
    return 0


def _parsed(text: str, where: str) -> Gold:
    try:
        return parse_gold(text)
    except ValueError as e:
        raise ValueError(f"{where}: not XML ({e})") from e
