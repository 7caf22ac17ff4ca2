"""The maintainers' commands behind `python ishigaki_ids_bench.py build|check|report|facts|facets`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

from . import factlist

DESCRIPTION = ("Ishigaki-IDS-Bench dataset: build the data files and card, run the quality gates, report; for "
               "authors, the catalogue of hard facts and the facets of a gold.")
EPILOG = """examples:
  python ishigaki_ids_bench.py build                 # rebuild data/test-*.jsonl, .huggingface.yaml, dataset_card.md
  python ishigaki_ids_bench.py build --skip-broken   # while scenarios are being written: leave broken ones out
  python ishigaki_ids_bench.py check                 # all gates; exit 1 if one fails
  python ishigaki_ids_bench.py check --gates acd --json
  python ishigaki_ids_bench.py check --scenario s012 --scenario s013   # one author's scenarios, nothing rebuilt
  python ishigaki_ids_bench.py report > composition.md
  python ishigaki_ids_bench.py facts --kind home --grep Pset_Condition   # the catalogue of hard facts
  python ishigaki_ids_bench.py facets s012 --skeleton                   # facet keys to fill the review record

exit codes: 0 ok, 1 a gate failed (facts: nothing matched), 2 bad input (e.g. scenario sources that cannot
be built, an unknown scenario)"""


def _gate_titles() -> dict[str, str]:
    from .gates import GATE_TITLES

    return GATE_TITLES


def _parser() -> argparse.ArgumentParser:
    gates = "".join(_gate_titles())
    p = argparse.ArgumentParser(prog="ishigaki_ids_bench.py", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    for name, help_text in (("build", "scenario sources -> data files, .huggingface.yaml and dataset_card.md"),
                            ("check", f"run the quality gates {gates[0]}-{gates[-1]} and print a report"),
                            ("report", "print the composition table (markdown)")):
        cmd = sub.add_parser(name, help=help_text, description=help_text, epilog=EPILOG,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
        cmd.add_argument("--root", type=Path, help="checkout folder (default: the one you are in)")
        if name == "build":
            cmd.add_argument("--skip-broken", action="store_true",
                             help="build from the readable scenarios only, listing the skipped ones")
        if name == "check":
            cmd.add_argument("--gates", default=gates, help="subset of gates to run, e.g. acd (default: all)")
            cmd.add_argument("--json", action="store_true", help="print the report as JSON")
            cmd.add_argument("--scenario", action="append", metavar="SNNN",
                             help="only the per-scenario gates, only for this scenario (repeat for more); "
                                  "the data files are not rebuilt")
    factlist.add_parser(sub)
    _add_facets_parser(sub)
    return p


def _add_facets_parser(sub) -> None:
    from .facetlist import EPILOG as FACETS_EPILOG, add_arguments

    cmd = sub.add_parser("facets", help="print the facet keys and facets of a scenario's golds (or an IDS file)",
                         description="The facets of a scenario's golds, with the keys review.facets and "
                                     "review.traps use, or of one IDS file.",
                         epilog=FACETS_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(cmd)


def main(argv: Optional[list[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["facts"]:  # answered without importing the rest (and `datasets`)
        return factlist.main(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    gates = "".join(_gate_titles())
    if args.command == "check" and not (args.gates and set(args.gates) <= set(gates)):
        parser.error(f"--gates takes letters from {gates}, got {args.gates!r}")
    try:
        return _run(args)
    except ValueError as e:  # BuildError, or a template/composition file problem: both name the file
        print(e, file=sys.stderr)
        return 2


def _run(args) -> int:
    from .build import build, report
    from .gates import run_checks

    if args.command == "facets":
        from .facetlist import run

        return run(args)
    if args.command == "report":
        print(report(args.root), end="")
        return 0
    if args.command == "check":
        result = run_checks(args.root, args.gates, scenarios=args.scenario)
        print(result.to_json() if args.json else result.to_text())
        return 0 if result.ok else 1
    done = build(args.root, skip_broken=args.skip_broken)
    for key in ("written", "unchanged", "removed", "skipped"):
        print(f"{key:9} {len(done[key]):3}  " + " ".join(done[key]))
    return 0
