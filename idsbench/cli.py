"""The command line: `ids-bench COMMAND` (or `python -m idsbench COMMAND`).

Each package registers its own subcommands: score (here), audit (idsbench.audit.cli), run and generate
(idsbench.harness.cli), compare, failures, leaderboard, publish and submission (idsbench.leaderboard.cli),
integrations (idsbench.integrations.cli), synth and synth-sample (idsbench.synth.cli).
This module sits above all of them; nothing imports it. It imports them only inside `main`, so that
Ctrl-C while they load (half a second) ends the command like Ctrl-C at any other time: exit 130, one line.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path

from idsbench import __version__

EXIT_INTERRUPTED = 130

EPILOG_SCORE = """examples:
  ids-bench score --predictions my-model.jsonl                 # writes runs/my-model-score/
  ids-bench score --predictions first-10.jsonl --subset        # only the ids in the file
  ids-bench score --predictions runs/rule-based/predictions.jsonl --audit-profile ids-tool-latest
  ids-bench score --predictions untrusted.jsonl --workers 2 --time-limit 30
  ids-bench score --predictions my-model.jsonl --behaviour     # adds the Behaviour column
predictions file: one JSON object per line, {"id": "s001-en", "prediction": "<raw model output>"}
(a null prediction is a failed generation and scores 0). Every problem of the file is listed before
anything is written. Results already in --out from another command or file are kept unless --overwrite.
exit codes: 0 done, 2 bad input (named on stderr), 130 interrupted (Ctrl-C)"""


def cmd_score(args: argparse.Namespace) -> int:
    from idsbench.locations import default_data, describe_data  # noqa: PLC0415 (see the module's docstring)
    from idsbench.options import audit_profile  # noqa: PLC0415
    from idsbench.outputs import Writer, claim_output, score_folder  # noqa: PLC0415
    from idsbench.pipeline import score  # noqa: PLC0415
    from idsbench.progress import progress_bar  # noqa: PLC0415
    from idsbench.records import index_predictions, load_references, read_predictions  # noqa: PLC0415

    data = args.data or default_data()
    references = load_references(data)
    # The whole file is checked before anything is written; no output is kept in memory.
    offsets = index_predictions(args.predictions, [r.id for r in references], subset=args.subset,
                                missing_hint="; to score only the ids present, add --subset")
    of = len(references) if len(offsets) < len(references) else None
    references = [r for r in references if r.id in offsets]
    ids = [r.id for r in references]
    out = args.out or score_folder(args.predictions)
    claim_output(out, Writer("score", args.predictions), overwrite=args.overwrite)
    out.mkdir(parents=True, exist_ok=True)
    # Streamed: each prediction is read when its turn comes and each result written when ready, into a
    # temporary file that replaces results.jsonl only once scoring is complete.
    partial = out / "results.jsonl.partial"
    with open(partial, "w", encoding="utf-8") as handle:
        run = score(read_predictions(args.predictions, offsets, ids), references, audit_profile=audit_profile(args),
                    progress=progress_bar(not args.no_progress, len(ids)), workers=args.workers,
                    time_limit=args.time_limit, behaviour=args.behaviour,
                    on_result=lambda r: handle.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n"))
    os.replace(partial, out / "results.jsonl")
    run = replace(run, of=of)
    summary = run.summary(predictions=str(args.predictions), data=str(data))
    table = run.table()
    rounds = _repair_rounds(args, offsets, ids, references, run)
    if rounds:
        from idsbench.harness.rounds import rounds_table  # noqa: PLC0415

        summary["rounds"] = [r.to_json(run.signature) for r in rounds]
        table += "\n\n" + rounds_table(rounds, "from the predictions file")
    (out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=2, ensure_ascii=False) if args.json else table)
    print(f"data: {describe_data(data)}\nwrote {out / 'results.jsonl'} and {out / 'summary.json'}", file=sys.stderr)
    return 0


def _repair_rounds(args: argparse.Namespace, offsets, ids, references, final) -> list:
    """A repair protocol's predictions file (rows with `rounds`): the scores at every round, the last being
    the file's score (as `ids-bench run` reports them)."""
    from idsbench.harness.rounds import score_rounds  # noqa: PLC0415
    from idsbench.options import audit_profile  # noqa: PLC0415
    from idsbench.records import read_rounds  # noqa: PLC0415

    rows = read_rounds(args.predictions, offsets, ids)
    if not rows:
        return []
    last = max(len(r["rounds"] or [None]) for r in rows.values()) - 1
    return score_rounds(rows, ids, references, last, final, audit_profile=audit_profile(args), workers=args.workers,
                        time_limit=args.time_limit)


def build_parser() -> argparse.ArgumentParser:
    from idsbench.audit.cli import configure_parser as configure_audit_parser  # noqa: PLC0415
    from idsbench.audit.cli import run as run_audit  # noqa: PLC0415
    from idsbench.harness.cli import register_harness_commands  # noqa: PLC0415
    from idsbench.integrations.cli import register_integration_commands  # noqa: PLC0415
    from idsbench.leaderboard.cli import register_leaderboard_commands  # noqa: PLC0415
    from idsbench.synth.cli import register_synth_commands  # noqa: PLC0415
    from idsbench.options import (add_audit_profile, add_behaviour, add_data, add_isolation,  # noqa: PLC0415
                                  add_progress)

    parser = argparse.ArgumentParser(prog="ids-bench", description="Ishigaki-IDS-Bench: generate, score, audit, "
                                     "compare and publish IDS files written by language models.",
                                     epilog="Each command's --help lists its exit codes; every command exits 2 on "
                                     "bad options and 130 when interrupted (Ctrl-C).")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = commands.add_parser("score", help="score a predictions file against the data",
                            epilog=EPILOG_SCORE, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--predictions", required=True, type=Path, help="predictions JSONL")
    add_data(p)
    p.add_argument("--subset", action="store_true",
                   help="score only the ids in the file (a quick look); the signature's n and data hash are the "
                        "subset's, so it is never taken for a full run")
    p.add_argument("--out", type=Path, help="output folder (default: runs/<predictions name>-score)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace results in --out written by another command or from another predictions file")
    add_audit_profile(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of the table")
    add_progress(p)
    add_isolation(p)
    add_behaviour(p)
    p.set_defaults(func=cmd_score)
    a = commands.add_parser("audit", help="audit IDS files like buildingSMART's IDS-Audit-tool (Stage 1)")
    configure_audit_parser(a)
    a.set_defaults(func=run_audit)
    register_harness_commands(commands)  # run, generate
    register_leaderboard_commands(commands)  # compare, failures, leaderboard, publish, submission
    register_integration_commands(commands)  # integrations
    register_synth_commands(commands)  # synth, synth-sample
    return parser


def chosen_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The (sub)command parser that `args` went through, e.g. that of `submission check`."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and getattr(args, action.dest, None) in action.choices:
            return chosen_parser(action.choices[getattr(args, action.dest)], args)
    return parser


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The arguments; an option the chosen command does not take is refused in that command's words
    (argparse would name the umbrella command only)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        chosen_parser(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(argv)
    except KeyboardInterrupt:
        newline = "\n" if sys.stderr.isatty() else ""  # after the ^C a terminal echoes
        print(f"{newline}ids-bench: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _run(argv: list[str] | None) -> int:
    from idsbench.records import InputError  # noqa: PLC0415

    args = parse(argv)
    try:
        return args.func(args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
