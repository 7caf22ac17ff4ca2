"""`ids-bench synth` (generate tasks) and `ids-bench synth-sample` (N per difficulty, for probes and reviews)."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from idsbench.options import add_progress, at_least
from idsbench.progress import progress_bar
from idsbench.records import InputError, iter_records
from idsbench.report.signature import data_hash

from .config import Options
from .evalset import EVAL_SETS, eval_set
from .settings import DIFFICULTIES, MIXED

EPILOG = """examples:
  ids-bench synth --n 10000 --seed 0 --out synth/                 # training tasks, both languages, mixed difficulty
  ids-bench synth --n 500 --seed 1 --difficulty hard --language ja --out synth-hard-ja/
  ids-bench synth --n 200 --seed 2 --prove --out proven/           # also prove every gold on its witness models
  ids-bench synth --eval-set synth-eval-v1 --out synth-eval-v1/    # the pinned evaluation set, checked by its hash
  ids-bench run --data synth-eval-v1/ --system rule-based          # score on it like on the benchmark
The folder loads with datasets.load_dataset(DIR) (configs all, easy, medium, hard, en, ja, csv,
natural_language, single_turn, multi_turn) and feeds idsbench.integrations.rewards.training_rows.
Every gold is audited under both audit profiles; a task with a finding, or one whose gold fails its
witnesses (--prove), is dropped and counted. No task makes the same scored choices as a benchmark gold.
Ctrl-C stops the run: written tasks stay, and a rerun with the same options starts again from the first
task (with --prove, proofs already made are read from the folder's ledger).
exit codes: 0 done, 2 bad options or an output folder holding something else, 3 an evaluation set whose
data hash differs from the pinned one (the generator or the IFC vocabulary changed), 130 interrupted"""
EPILOG_SAMPLE = """examples:
  ids-bench synth-sample --from synth-eval-v1/ --per-difficulty 24 --seed 0 --out probe/
  ids-bench synth-sample --from synth/ --per-difficulty 10 --seed 3 --out review/    # 30 tasks for a review
exit codes: 0 done, 2 bad options or a source that is not a generated folder, 130 interrupted"""


def _languages(value: str) -> tuple[str, ...]:
    return ("en", "ja") if value == "both" else (value,)


def options_of(args: argparse.Namespace) -> Options:
    if args.eval_set:
        given = [f for f in ("n", "difficulty", "language", "split") if getattr(args, f) is not None]
        if given or args.seed is not None:
            raise InputError(f"--eval-set fixes n, seed, difficulty, language and split; leave out "
                             f"--{', --'.join(given + (['seed'] if args.seed is not None else []))}")
        return eval_set(args.eval_set).options
    if args.n is None:
        raise InputError("give --n (the number of tasks) or --eval-set NAME")
    return Options(n=args.n, seed=args.seed or 0, difficulty=args.difficulty or MIXED,
                   languages=_languages(args.language or "both"), split=args.split or "train", prove=args.prove)


def report(tally, options: Options, out: Path) -> str:
    rate = options.n / tally.seconds if tally.seconds else 0.0
    lines = [f"wrote {tally.written} tasks ({tally.records} records) to {out}: "
             + ", ".join(f"{d} {c}" for d, c in sorted(tally.difficulties.items())),
             f"time {tally.seconds:.1f} s, {rate:.0f} tasks/s ({options.workers} worker"
             f"{'s' if options.workers > 1 else ''})",
             f"benchmark overlap: 0 of {tally.written} tasks make the same scored choices as a benchmark gold "
             f"({tally.resampled} draws were made again for that)",
             f"duplicates: {tally.duplicates} tasks were drawn again as they asked what an earlier task asked",
             f"dropped: {len(tally.dropped_audit)} failing the audit, {len(tally.dropped_proof)} failing their "
             f"witnesses{'' if options.prove else ' (not proven: add --prove)'}"]
    lines += [f"  {line}" for line in (tally.dropped_audit + tally.dropped_proof)[:5]]
    return "\n".join(lines)


def cmd_synth(args: argparse.Namespace) -> int:
    from .generate import generate  # noqa: PLC0415 - datasets and the audit load only for this command

    options = options_of(args)
    options = Options(**{**options.__dict__, "workers": args.workers})
    bar = progress_bar(not args.no_progress, options.n, desc="tasks")()
    tally = generate(options, args.out, overwrite=args.overwrite, progress=bar.update)
    bar.close()
    print(report(tally, options, args.out))
    golds = [rec["gold_ids"] for _, _, rec in iter_records(args.out)]
    found = data_hash(golds)
    print(f"data hash (the signature's data: part when scoring this folder): {found}")
    if args.eval_set and eval_set(args.eval_set).data_hash not in ("", found):
        print(f"error: {args.eval_set} should have data hash {eval_set(args.eval_set).data_hash}, got {found}: the "
              "generator, its lexicon or the IFC vocabulary changed; scores on this folder are not comparable",
              file=sys.stderr)
        return 3
    return 0


def cmd_sample(args: argparse.Namespace) -> int:
    from .pick import pick  # noqa: PLC0415

    manifest = pick(args.source, args.per_difficulty, args.seed, args.out, overwrite=args.overwrite)
    print(f"wrote {manifest['tasks']} tasks ({manifest['records']} records) to {args.out}")
    return 0


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument("--overwrite", action="store_true", help="replace what the output folder holds")


def register_synth_commands(commands) -> None:
    p = commands.add_parser("synth", help="generate requirement -> IDS tasks with verified golds",
                            epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=at_least(1), help="number of tasks")
    p.add_argument("--seed", type=int, help="random seed (default 0); task i is the same whatever --n")
    p.add_argument("--difficulty", choices=(*DIFFICULTIES, MIXED), help="default mixed: the three in turn")
    p.add_argument("--language", choices=("en", "ja", "both"), help="records per task (default both)")
    p.add_argument("--split", choices=("train", "test"), help="split name of the data files (default train)")
    p.add_argument("--prove", action="store_true", help="prove every final gold on its witness models")
    p.add_argument("--eval-set", choices=tuple(EVAL_SETS), help="make a pinned evaluation set")
    p.add_argument("--workers", type=at_least(1), default=min(4, os.cpu_count() or 1),
                   help="worker processes (default: the cores, up to 4); the output does not depend on it")
    _add_common(p)
    add_progress(p)
    p.set_defaults(func=cmd_synth)
    s = commands.add_parser("synth-sample", help="N generated tasks per difficulty, for probes and reviews",
                            epilog=EPILOG_SAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--from", dest="source", type=Path, required=True, help="a folder written by ids-bench synth")
    s.add_argument("--per-difficulty", type=at_least(1), required=True, help="tasks per difficulty")
    s.add_argument("--seed", type=int, default=0, help="which tasks (default 0)")
    _add_common(s)
    s.set_defaults(func=cmd_sample)
