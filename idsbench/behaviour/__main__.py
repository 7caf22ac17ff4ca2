"""Write the witness models of a gold IDS to a folder, to open in an IFC viewer.

    python -m idsbench.behaviour gold.ids --out witnesses/   # models, witnesses.json, proof summary
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .cache import gold_key, save, witnesses_for
from .check import Unchecked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m idsbench.behaviour", description=__doc__.splitlines()[0])
    parser.add_argument("gold", type=Path, help="an IDS file")
    parser.add_argument("--out", type=Path, help="folder to write the models and witnesses.json to")
    args = parser.parse_args(argv)
    try:
        text = args.gold.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        parser.error(f"{args.gold}: {exc}")
    if args.out and args.out.exists() and any(args.out.iterdir()):
        parser.error(f"{args.out} is not empty")
    witnesses = witnesses_for(text)
    if isinstance(witnesses, Unchecked):
        print(f"{args.gold}: cannot be checked: {witnesses.reason}", file=sys.stderr)
        return 2
    print(f"{args.gold}: {len(witnesses.verdicts)} witnesses, "
          f"{'proven' if witnesses.proven else 'NOT proven'} (key {gold_key(text)[:12]})")
    for line in witnesses.unsupported + witnesses.failures:
        print(f"  {line}")
    if args.out:
        save(witnesses, args.out)
        print(f"written to {args.out}/")
    return 0 if witnesses.proven else 1


if __name__ == "__main__":
    raise SystemExit(main())
