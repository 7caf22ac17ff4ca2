"""`python ishigaki_ids_bench.py facts`: the catalogue of hard facts (idsbench.vocabulary.facts) for authors,
as a table or as JSON Lines."""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from idsbench.vocabulary.facts import KINDS, VERSIONS, Fact, catalogue

SHORT_VERSIONS = {"IFC2X3": "2X3", "IFC4": "4", "IFC4X3_ADD2": "4X3"}
EPILOG = """kinds:
""" + "\n".join(f"  {k:<9} {v}" for k, v in KINDS.items()) + """

examples:
  python ishigaki_ids_bench.py facts --kind home --grep Pset_Condition
  python ishigaki_ids_bench.py facts --kind home --absent IFC2X3 --grep Pset_Space   # sets an IFC2X3 model lacks
  python ishigaki_ids_bench.py facts --kind ptype --version IFC4X3_ADD2 --grep IFCCOLUMN.
  python ishigaki_ids_bench.py facts --kind datatype --grep identifier --json > identifiers.jsonl
  python ishigaki_ids_bench.py facts --id unit:IFCTHERMODYNAMICTEMPERATUREMEASURE

Cite a fact in a scenario's review.traps by its id (docs/dataset-authoring.md).

exit codes: 0 facts printed, 1 no fact matched, 2 bad arguments"""


HELP = "list the catalogue of hard facts mined from ifcopenshell"
DESCRIPTION = ("The catalogue of hard facts mined from ifcopenshell: version homes, data types, enumerations, "
               "quantity sets, predefined types, units.")


def add_parser(sub) -> argparse.ArgumentParser:
    cmd = sub.add_parser("facts", help=HELP, description=DESCRIPTION, epilog=EPILOG,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(cmd)
    return cmd


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="ishigaki_ids_bench.py facts", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))


def add_arguments(cmd) -> None:
    cmd.add_argument("--kind", choices=sorted(KINDS), help="only facts of this kind")
    cmd.add_argument("--version", choices=VERSIONS, help="only facts that hold in this IFC version")
    cmd.add_argument("--absent", choices=VERSIONS, metavar="VERSION",
                     help="only facts that do not hold in this IFC version (with --kind home: what it lacks)")
    cmd.add_argument("--grep", metavar="TEXT", help="only facts whose id, note, definition or values contain TEXT "
                                                    "(any case)")
    cmd.add_argument("--id", dest="fact_id", metavar="ID", help="one fact by its id")
    cmd.add_argument("--json", action="store_true", help="JSON Lines, one fact a line, every field")


def selected(kind: str | None, version: str | None, grep: str | None, fact_id: str | None,
             absent: str | None = None) -> tuple[Fact, ...]:
    found = catalogue().select(kind, version, grep, absent)
    return tuple(f for f in found if f.id == fact_id) if fact_id else found


def table(facts: tuple[Fact, ...]) -> str:
    """id, versions and what an author reads, one fact a line (values of enum and qto facts after the note)."""
    width = max((len(f.id) for f in facts), default=2)
    lines = [f"{'id':<{width}}  {'versions':<11}  note"]
    for f in facts:
        versions = ",".join(SHORT_VERSIONS[v] for v in f.versions)
        extra = f" — {' '.join(f.values)}" if f.kind in ("enum", "qto") else ""
        lines.append(f"{f.id:<{width}}  {versions:<11}  {f.note}{extra}")
    return "\n".join(lines)


def json_lines(facts: tuple[Fact, ...]) -> str:
    return "\n".join(json.dumps(asdict(f), ensure_ascii=False) for f in facts)


def run(args) -> int:
    facts = selected(args.kind, args.version, args.grep, args.fact_id, args.absent)
    if facts:
        try:
            print(json_lines(facts) if args.json else table(facts))
        except BrokenPipeError:  # `facts ... | head`: the reader has what it wanted
            sys.stderr.close()
            return 0
    total = len(catalogue())
    print(f"{len(facts)} of {total} facts" + ("" if facts else ": none matched; widen --grep or drop a filter"),
          file=sys.stderr)
    return 0 if facts else 1
