"""`ids-bench compare|failures|leaderboard|publish|submission`, registered into the umbrella parser
(idsbench.cli)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from idsbench.locations import default_data, find_checkout
from idsbench.options import add_audit_profile, add_data, add_progress, audit_profile
from idsbench.records import InputError
from idsbench.report.aggregate import PAPER_METRICS

RAW = argparse.RawDescriptionHelpFormatter

EPILOG_COMPARE = """examples:
  ids-bench compare runs/model-a runs/model-b
  ids-bench compare results/a.json results/b.json --metric facet_f1 --metric content --json
  ids-bench compare runs/model-a runs/model-b --metric behaviour     # both scored with --behaviour
A and B are run folders (summary.json + results.jsonl) or results files, on the same example ids.
Per metric: A − B with a paired-bootstrap interval and a two-sided sign-flip permutation test.
exit codes: 0 done, 2 bad input (unreadable file, different example ids), 130 interrupted (Ctrl-C)"""

EPILOG_FAILURES = """examples:
  ids-bench failures runs/my-model
  ids-bench failures runs/my-model --json > failures.json
  ids-bench failures results/my-model.json            # audit tallies only (no predictions)
Facet blocks missed/spurious need the raw outputs: RUN/predictions.jsonl (or --predictions) and the data.
exit codes: 0 done, 2 bad input (an unreadable run, results or predictions file), 130 interrupted (Ctrl-C)"""

EPILOG_BOARD = """examples:
  ids-bench leaderboard results runs/my-model --out results/my-model.json
  ids-bench leaderboard build results/ --out site/
  ids-bench leaderboard build results/ --out site/ --sort content
  ids-bench leaderboard hub-formats results/my-model.json --dataset-id org/ishigaki-ids-bench --out hub/
build writes site/index.html (self-contained), site/board.md and site/board.json; results whose signature
differs from the board's are listed as rejected, with the reason (the build still exits 0).
exit codes: 0 done, 2 bad input (an unreadable run folder, results file or folder), 130 interrupted (Ctrl-C)"""

EPILOG_PUBLISH = """examples:
  ids-bench publish dataset --repo-id org/ishigaki-ids-bench --dry-run
  ids-bench publish metric --repo-id org/ids_metric
  ids-bench publish leaderboard --repo-id org/ids-bench-leaderboard --results-dir results/
The token comes from HF_TOKEN or `hf auth login`; HF_ENDPOINT selects another Hub.
publish metric checks on PyPI that the Space's requirements.txt can install (IDS_BENCH_PYPI_URL: a mirror)
and warns when it cannot.
--dry-run prints exactly the files that would be uploaded and sends nothing.
exit codes: 0 uploaded (or listed, with --dry-run), 1 the upload failed (the Hub's error is shown),
2 bad input (no checkout, missing files), 130 interrupted (Ctrl-C)"""

EPILOG_SUBMISSION = """examples:
  ids-bench submission check submissions/acme-model
  ids-bench submission rescore submissions/acme-model          # writes results/<model>.json
A submission folder holds predictions.jsonl ({"id", "prediction"} per line, one per example) and
metadata.json ({"model", "endpoint", "sampling", "prompt": {"text" | "sha256"}, …}); see the README,
"Submitting results".
exit codes: 0 ok, 1 the submission has problems (listed), 2 bad input (options, our own data),
130 interrupted (Ctrl-C)"""


def _bootstrap_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: %(default)s)")
    parser.add_argument("--confidence", type=float, default=0.95, help="interval level (default: %(default)s)")


def _settings(args: argparse.Namespace):
    from .stats import Bootstrap  # noqa: PLC0415  (numpy only when a command runs)

    try:
        return Bootstrap(args.resamples, args.seed, args.confidence)
    except ValueError as exc:
        raise InputError(f"{exc} (--resamples >= 1, --seed >= 0, 0 < --confidence < 1)") from exc


def _emit(document: dict | None, text: str, as_json: bool) -> None:
    print(json.dumps(document, indent=2, ensure_ascii=False) if as_json else text)


# ------------------------------------------------------------------------------------------ commands

def cmd_compare(args: argparse.Namespace) -> int:
    from .compare import compare_runs, format_comparison  # noqa: PLC0415
    from .results import load_any  # noqa: PLC0415

    settings = _settings(args)
    comparison = compare_runs(load_any(args.a, settings), load_any(args.b, settings), settings,
                              metrics=args.metric, permutations=args.permutations)
    _emit(comparison.to_json(), format_comparison(comparison), args.json)
    return 0


def run_data(document: dict) -> Path:
    """The data a run was scored on, as its provenance records it (harness: data.path; score: data)."""
    extra = document["provenance"].get("extra", {})
    recorded = extra.get("data")
    recorded = recorded.get("path") if isinstance(recorded, dict) else recorded
    return Path(recorded) if isinstance(recorded, str) and Path(recorded).exists() else default_data()


def cmd_failures(args: argparse.Namespace) -> int:
    from .failures import failure_report, format_report, run_diffs  # noqa: PLC0415
    from .results import load_any  # noqa: PLC0415

    loaded = load_any(args.run)
    predictions = args.predictions or (args.run / "predictions.jsonl" if args.run.is_dir() else None)
    diffs, note = None, None
    if predictions is not None and predictions.is_file():
        diffs = run_diffs(predictions, args.data or run_data(loaded.document), ids=[r["id"] for r in loaded.rows])
    else:
        note = "no predictions.jsonl: facet blocks missed/spurious not computed"
    report = failure_report(loaded.name, loaded.rows, diffs, note)
    _emit(report.to_json(), format_report(report, args.top), args.json)
    return 0


def cmd_results(args: argparse.Namespace) -> int:
    from .results import results_from_run, write_results  # noqa: PLC0415

    document = results_from_run(args.run, settings=_settings(args), name=args.name)
    out = args.out or Path("results") / f"{args.run.name}.json"
    write_results(document, out)
    print(f"wrote {out}  ({document['name']}, n={document['overall']['n']}, signature {document['signature']})")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    from .board import board_from_folder, to_markdown  # noqa: PLC0415
    from .html import render_page  # noqa: PLC0415
    from .results import dumps  # noqa: PLC0415

    board = board_from_folder(args.results_dir, sort=args.sort, signature=args.signature,
                              with_references=not args.no_references)
    args.out.mkdir(parents=True, exist_ok=True)
    document = board.to_json()
    (args.out / "board.json").write_text(dumps(document), encoding="utf-8")
    (args.out / "board.md").write_text(to_markdown(board), encoding="utf-8")
    (args.out / "index.html").write_text(render_page(document), encoding="utf-8")
    print(to_markdown(board))
    print(f"wrote {args.out / 'index.html'}, board.md, board.json: {len(board.rows)} ranked, "
          f"{len(board.references)} reference, {len(board.rejected)} rejected", file=sys.stderr)
    return 0


def cmd_hub_formats(args: argparse.Namespace) -> int:
    from .hubformats import eval_results_filename, eval_results_yaml, eval_yaml  # noqa: PLC0415
    from .results import read_results  # noqa: PLC0415

    loaded = read_results(args.results)
    files = {"eval.yaml": eval_yaml(),
             eval_results_filename(args.dataset_id): eval_results_yaml(
                 loaded.document, dataset_id=args.dataset_id, revision=args.revision, source_url=args.source_url)}
    for name, text in files.items():
        path = args.out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


def _checkout(args: argparse.Namespace) -> Path:
    root = args.root or find_checkout()
    if root is None:
        raise InputError(f"publish {args.target} needs a checkout: run it inside one, or give --root")
    return root


def _publish_plan(args: argparse.Namespace):
    from . import publish  # noqa: PLC0415

    if args.target == "dataset":
        return publish.dataset_plan(args.repo_id, _checkout(args), include_sources=args.include_sources)
    if args.target == "metric":
        root = _checkout(args)
        for warning in publish.metric_warnings(root):
            print(f"warning: {warning}", file=sys.stderr)
        return publish.metric_plan(args.repo_id, root)
    return publish.leaderboard_plan(args.repo_id, args.results_dir)


def cmd_publish(args: argparse.Namespace) -> int:
    from .publish import describe, push  # noqa: PLC0415

    plan = _publish_plan(args)
    print(describe(plan))
    if args.dry_run:
        print("dry run: nothing uploaded")
        return 0
    try:
        info = push(plan, private=args.private or None)
    except Exception as exc:  # noqa: BLE001  (network/auth/Hub errors: one clear line, non-zero exit)
        print(f"error: publishing to {args.repo_id} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"uploaded {len(plan.uploads)} files: {info.commit_url}")
    return 0


def cmd_submission(args: argparse.Namespace) -> int:
    from .submission import check_submission, rescore_submission  # noqa: PLC0415

    if args.action == "check":
        checked = check_submission(args.folder, args.data)
        print(checked.to_text())
        return 0 if checked.ok else 1
    path = rescore_submission(args.folder, args.out or Path("results"), data=args.data,
                              audit_profile=audit_profile(args), settings=_settings(args), overwrite=args.overwrite,
                              progress=not args.no_progress)
    print(f"wrote {path}")
    return 0


# ------------------------------------------------------------------------------------------ parser

def register_leaderboard_commands(commands) -> None:
    """Add this package's subcommands to `ids-bench` (called from idsbench.cli.build_parser)."""
    p = commands.add_parser("compare", help="paired comparison of two runs (bootstrap CI + permutation test)",
                            epilog=EPILOG_COMPARE, formatter_class=RAW)
    p.add_argument("a", type=Path, help="run folder or results file A")
    p.add_argument("b", type=Path, help="run folder or results file B")
    p.add_argument("--metric", action="append", choices=(*PAPER_METRICS, "behaviour"),
                   help="metric(s) to compare, each computed by both runs (default: all that both computed; "
                        "behaviour: runs scored with --behaviour)")
    p.add_argument("--permutations", type=int, default=10000, help="sign-flip permutations (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print JSON")
    _bootstrap_args(p)
    p.set_defaults(func=cmd_compare)

    p = commands.add_parser("failures", help="failure-mode analysis of a run", epilog=EPILOG_FAILURES,
                            formatter_class=RAW)
    p.add_argument("run", type=Path, help="run folder or results file")
    p.add_argument("--predictions", type=Path, help="predictions JSONL (default: RUN/predictions.jsonl)")
    p.add_argument("--data", type=Path, help="data folder or file (default: the one the run recorded, else the "
                   "default of --data elsewhere)")
    p.add_argument("--top", type=int, default=10, help="rows per tally in the text report (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print JSON (every tally, every group)")
    p.set_defaults(func=cmd_failures)

    board = commands.add_parser("leaderboard", help="results files, leaderboard page, Hub formats",
                                epilog=EPILOG_BOARD, formatter_class=RAW)
    actions = board.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = actions.add_parser("results", help="run folder -> results file", epilog=EPILOG_BOARD, formatter_class=RAW)
    p.add_argument("run", type=Path, help="run folder (summary.json + results.jsonl)")
    p.add_argument("--out", type=Path, help="results file (default: results/<run name>.json)")
    p.add_argument("--name", help="row name (default: the model in the run's provenance)")
    _bootstrap_args(p)
    p.set_defaults(func=cmd_results)
    p = actions.add_parser("build", help="results folder -> index.html, board.md, board.json",
                           epilog=EPILOG_BOARD, formatter_class=RAW)
    p.add_argument("results_dir", type=Path, help="folder of results files (*.json)")
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument("--sort", choices=PAPER_METRICS, default="facet_f1", help="ranking metric (default: %(default)s)")
    p.add_argument("--signature", help="board signature (default: the most common one among the files)")
    p.add_argument("--no-references", action="store_true", help="leave out the paper's reported figures")
    p.set_defaults(func=cmd_build)
    p = actions.add_parser("hub-formats", help="results file -> eval.yaml + .eval_results/*.yaml",
                           epilog=EPILOG_BOARD, formatter_class=RAW)
    p.add_argument("results", type=Path, help="results file")
    p.add_argument("--dataset-id", required=True, help="the benchmark dataset on the Hub, ORG/NAME")
    p.add_argument("--revision", help="dataset commit the run used")
    p.add_argument("--source-url", help="where the run's logs or results live")
    p.add_argument("--out", type=Path, default=Path("hub"), help="output folder (default: %(default)s)")
    p.set_defaults(func=cmd_hub_formats)

    _register_publish(commands)
    _register_submission(commands)


# Each target and action takes only the options it uses: an option that would be ignored is refused.
PUBLISH_TARGETS = {"dataset": "the data files, the card and eval.yaml, as a dataset repo",
                   "metric": "the ids_metric/ folder, as a Space", "leaderboard": "the leaderboard page, as a Space"}


def _register_publish(commands) -> None:
    publish = commands.add_parser("publish", help="push the dataset, metric Space or leaderboard Space to the Hub",
                                  epilog=EPILOG_PUBLISH, formatter_class=RAW)
    targets = publish.add_subparsers(dest="target", required=True, metavar="TARGET")
    for target, what in PUBLISH_TARGETS.items():
        p = targets.add_parser(target, help=what, epilog=EPILOG_PUBLISH, formatter_class=RAW)
        p.add_argument("--repo-id", required=True, help="ORG/NAME on the Hub")
        p.add_argument("--dry-run", action="store_true", help="list the files that would be uploaded; send nothing")
        p.add_argument("--private", action="store_true", help="create the repo private")
        if target == "leaderboard":
            p.add_argument("--results-dir", type=Path, required=True, help="the results files the page is built from")
        else:
            p.add_argument("--root", type=Path, help="checkout to publish from (default: the one you are in)")
        if target == "dataset":
            p.add_argument("--include-sources", action="store_true", help="also upload data/scenarios/")
        p.set_defaults(func=cmd_publish)


def _register_submission(commands) -> None:
    submission = commands.add_parser("submission", help="check or re-score an outside submission",
                                     epilog=EPILOG_SUBMISSION, formatter_class=RAW)
    actions = submission.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = actions.add_parser("check", help="list every problem of a submission folder (scores nothing)",
                           epilog=EPILOG_SUBMISSION, formatter_class=RAW)
    p.add_argument("folder", type=Path, help="submission folder (predictions.jsonl + metadata.json)")
    add_data(p)
    p.set_defaults(func=cmd_submission)
    p = actions.add_parser("rescore", help="score a submission here and write its results file",
                           epilog=EPILOG_SUBMISSION, formatter_class=RAW)
    p.add_argument("folder", type=Path, help="submission folder (predictions.jsonl + metadata.json)")
    p.add_argument("--out", type=Path, help="folder of the results file <model>.json (default: results/, the folder "
                   "`leaderboard build` reads)")
    p.add_argument("--overwrite", action="store_true", help="replace a results file of the same name")
    add_data(p)
    add_audit_profile(p)
    _bootstrap_args(p)
    add_progress(p)
    p.set_defaults(func=cmd_submission)
