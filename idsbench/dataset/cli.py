"""The maintainers' commands behind `python ishigaki_ids_bench.py build|check|report`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

from .build import build, report
from .gates import GATE_TITLES, run_checks

DESCRIPTION = "Ishigaki-IDS-Bench dataset: build the data files and card, run the quality gates, report."
EPILOG = """examples:
  python ishigaki_ids_bench.py build                 # rebuild data/test-*.jsonl, .huggingface.yaml, dataset_card.md
  python ishigaki_ids_bench.py build --skip-broken   # while scenarios are being written: leave broken ones out
  python ishigaki_ids_bench.py check                 # all gates; exit 1 if one fails
  python ishigaki_ids_bench.py check --gates acd --json
  python ishigaki_ids_bench.py report > composition.md

exit codes: 0 ok, 1 a gate failed, 2 bad input (e.g. scenario sources that cannot be built)"""
ALL_GATES = "".join(GATE_TITLES)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ishigaki_ids_bench.py", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    for name, help_text in (("build", "scenario sources -> data files, .huggingface.yaml and dataset_card.md"),
                            ("check", f"run the quality gates {ALL_GATES[0]}-{ALL_GATES[-1]} and print a report"),
                            ("report", "print the composition table (markdown)")):
        cmd = sub.add_parser(name, help=help_text, description=help_text, epilog=EPILOG,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
        cmd.add_argument("--root", type=Path, help="checkout folder (default: the one you are in)")
        if name == "build":
            cmd.add_argument("--skip-broken", action="store_true",
                             help="build from the readable scenarios only, listing the skipped ones")
        if name == "check":
            cmd.add_argument("--gates", default=ALL_GATES, help="subset of gates to run, e.g. acd (default: all)")
            cmd.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "check" and not (args.gates and set(args.gates) <= set(ALL_GATES)):
        parser.error(f"--gates takes letters from {ALL_GATES}, got {args.gates!r}")
    try:
        if args.command == "report":
            print(report(args.root), end="")
            return 0
        if args.command == "check":
            result = run_checks(args.root, args.gates)
            print(result.to_json() if args.json else result.to_text())
            return 0 if result.ok else 1
        done = build(args.root, skip_broken=args.skip_broken)
    except ValueError as e:  # BuildError, or a template/composition file problem: both name the file
        print(e, file=sys.stderr)
        return 2
    for key in ("written", "unchanged", "removed", "skipped"):
        print(f"{key:9} {len(done[key]):3}  " + " ".join(done[key]))
    return 0
