"""Command line: `python -m ids_metric score|audit …`."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .audit_cli import configure_parser as configure_audit_parser
from .audit_cli import run as run_audit
from .isolation import DEFAULT_TIME_LIMIT
from .records import DEFAULT_DATA, InputError, index_predictions, load_references, read_predictions
from .scoring import DEFAULT_PROFILE, score

EPILOG_SCORE = """examples:
  python -m ids_metric score --predictions examples/predictions-gold.jsonl
  python -m ids_metric score --predictions my-model.jsonl --out runs/my-model --audit-profile ids-tool-latest
  python -m ids_metric score --predictions untrusted.jsonl --workers 2 --time-limit 30
predictions file: one JSON object per line, {"id": "s001-en", "prediction": "<raw model output>"}
(a null prediction is a failed generation and scores 0)."""


def _progress(enabled: bool, total: int | None = None):
    if not enabled:
        return iter
    from tqdm import tqdm  # noqa: PLC0415  (only the CLI needs it)

    tqdm.monitor_interval = 0  # no monitor thread: scoring may fork worker processes
    return lambda items: tqdm(items, total=total, desc="scoring", unit="ex", file=sys.stderr, disable=None)


def _positive_number(value: str) -> float:
    number = float(value)
    if not number > 0:
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return number


def _positive_int(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


def add_isolation_arguments(p: argparse.ArgumentParser) -> None:
    """--workers / --time-limit, shared by `score` and `run`."""
    p.add_argument("--workers", type=_positive_int, default=1,
                   help="score in N worker processes (default: 1, in this process)")
    p.add_argument("--time-limit", type=_positive_number, metavar="SECONDS",
                   help="per-example limit for audit + facet scoring; an example over it scores 0 with "
                        f"'timeout after Ns' (runs in worker processes; default: {DEFAULT_TIME_LIMIT:g} with "
                        "--workers > 1, none otherwise)")


def cmd_score(args: argparse.Namespace) -> int:
    references = load_references(args.data)
    ids = [r.id for r in references]
    offsets = index_predictions(args.predictions, ids)  # checks the whole file; keeps no outputs
    profile = None if args.audit_profile == "none" else args.audit_profile
    out = Path(args.out or Path("runs") / Path(args.predictions).stem)
    out.mkdir(parents=True, exist_ok=True)
    # Streamed: each prediction is read when its turn comes and each result written when ready,
    # so memory holds the references and compact per-example results, never all the outputs.
    with open(out / "results.jsonl", "w", encoding="utf-8") as handle:
        run = score(read_predictions(args.predictions, offsets, ids), references, audit_profile=profile,
                    progress=_progress(not args.no_progress, len(ids)), workers=args.workers,
                    time_limit=args.time_limit,
                    on_result=lambda r: handle.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n"))
    summary = run.summary(predictions=str(args.predictions), data=str(args.data))
    (out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=2, ensure_ascii=False) if args.json else run.table())
    print(f"wrote {out / 'results.jsonl'} and {out / 'summary.json'}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m ids_metric", description="Ishigaki-IDS-Bench scoring tools.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = commands.add_parser("score", help="score a predictions file against the data",
                            epilog=EPILOG_SCORE, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--predictions", required=True, type=Path, help="predictions JSONL")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="data JSONL file or folder (default: %(default)s)")
    p.add_argument("--out", type=Path, help="output folder (default: runs/<predictions name>)")
    p.add_argument("--audit-profile", default=DEFAULT_PROFILE,
                   help="Stage 1 profile: ids-tool-1.0.96 (paper, default), ids-tool-latest, or none")
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of the table")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_isolation_arguments(p)
    p.set_defaults(func=cmd_score)
    a = commands.add_parser("audit", help="audit IDS files like buildingSMART's IDS-Audit-tool (Stage 1)",
                            formatter_class=argparse.RawDescriptionHelpFormatter,
                            epilog="examples:\n  python -m ids_metric audit my.ids\n"
                                   "  python -m ids_metric audit data/scenarios --json\n"
                                   "exit code: the validator's status number (0 Ok, 8 structure, 16 content, 24 both, 1 not an IDS)")
    configure_audit_parser(a)
    a.set_defaults(func=run_audit)
    # The harness and leaderboard live beside the library; imported here so `ids_metric` itself
    # (the evaluate module and its Space) never depends on them.
    from harness.cli import register_harness_commands  # noqa: PLC0415
    from leaderboard.cli import register_leaderboard_commands  # noqa: PLC0415

    register_harness_commands(commands)  # run, generate
    register_leaderboard_commands(commands)  # compare, failures, leaderboard, publish, submission
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
