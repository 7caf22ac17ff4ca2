"""`ids-bench run|generate`: the harness subcommands, registered into the umbrella parser (idsbench.cli)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from idsbench.locations import default_data, describe_data
from idsbench.options import (add_audit_profile, add_behaviour, add_data, add_isolation, add_progress, at_least,
                              audit_profile)
from idsbench.records import InputError

from .endpoint import EndpointConfig
from .examples import FILTER_KEYS, Selection, load_examples, select
from .failures import Failures
from .prompt import DEFAULT_PROMPT, load_prompt
from .systems import BASELINES, SYSTEMS

EXIT_INTERRUPTED = 130
EXIT_GENERATIONS_FAILED = 3
EPILOG_RUN = """examples:
  ids-bench run                                   # rule-based baseline, all data, no network
  ids-bench run --system gold --limit 10          # sanity check: scores 100
  ids-bench run --model gpt-4o-mini --concurrency 8
  ids-bench run --model qwen2.5-coder --base-url http://localhost:8000/v1 --api-key-env none \\
      --language ja --input-format csv --max-tokens 8192
  ids-bench run --model my-model --base-url http://localhost:8000/v1 --audit-profile none
  ids-bench run --system rule-based --behaviour   # adds Behaviour (witness IFC models) to the table
Interrupted? Run the same command again: finished examples are kept and skipped.
Writes <out>/predictions.jsonl, results.jsonl, summary.json (signature + provenance) and report.html;
results in <out> written by another command are kept unless --overwrite.
exit codes: 0 done, 2 bad input, 3 most generations failed (the last line says why; --allow-failures
gives 0), 130 interrupted"""
EPILOG_GENERATE = """examples:
  ids-bench generate --system rule-based --out runs/rule-based/predictions.jsonl
  ids-bench generate --model gpt-4o-mini --concurrency 8 --retries 6 --out runs/gpt-4o-mini/predictions.jsonl
  ids-bench generate --model m --base-url http://localhost:8000/v1 --api-key-env none --ids s001-en,s001-ja
then: ids-bench score --predictions runs/gpt-4o-mini/predictions.jsonl
Rows: {"id", "prediction" (null on failure), "finish_reason", "usage", "error", "latency_s", "attempts", ...},
appended as they arrive; rerunning resumes (ids already in the file are skipped).
exit codes: 0 done, 2 bad input, 3 most generations failed (--allow-failures gives 0), 130 interrupted"""


def _csv(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(",") if v.strip())


def _json_object(value: str) -> dict:
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"--extra-body is not JSON: {exc}") from exc
    if not isinstance(parsed, dict):
        raise argparse.ArgumentTypeError("--extra-body must be a JSON object")
    return parsed


def add_generation_arguments(p: argparse.ArgumentParser) -> None:
    add_data(p)
    p.add_argument("--system", choices=SYSTEMS, help="offline baseline or 'endpoint' (default: endpoint when "
                   "--model is given, else rule-based)")
    g = p.add_argument_group("selection (quick runs)")
    g.add_argument("--limit", type=at_least(1), help="only the first N selected examples (in id order)")
    g.add_argument("--ids", type=_csv, default=(), help="comma-separated example ids, e.g. s001-en,s002-ja")
    for key in FILTER_KEYS:
        g.add_argument(f"--{key.replace('_', '-')}", type=_csv, default=(), help=f"comma-separated {key} values")
    e = p.add_argument_group("endpoint (any OpenAI-compatible chat API)")
    e.add_argument("--model", help="model name sent to the endpoint")
    e.add_argument("--base-url", help="e.g. http://localhost:8000/v1 (default: the OpenAI API)")
    e.add_argument("--api-key-env", default="OPENAI_API_KEY", help="env var holding the key; 'none' for no key")
    e.add_argument("--prompt", type=Path, help=f"system prompt file (default: {DEFAULT_PROMPT.name}, installed "
                   "with the package)")
    e.add_argument("--temperature", type=float, default=0.0, help="(default: %(default)s)")
    e.add_argument("--top-p", type=float)
    e.add_argument("--max-tokens", type=int)
    e.add_argument("--seed", type=int)
    e.add_argument("--extra-body", type=_json_object, default={}, help="JSON merged into each request body")
    e.add_argument("--concurrency", type=at_least(1), default=1, help="parallel requests (default: %(default)s)")
    e.add_argument("--timeout", type=float, default=600.0, help="seconds per request (default: %(default)s)")
    e.add_argument("--retries", type=at_least(0), default=4, help="retries on 429/5xx/timeouts (default: %(default)s)")
    p.add_argument("--overwrite", action="store_true", help="start again instead of resuming, replacing what "
                   "is in the output folder")
    p.add_argument("--retry-failed", action="store_true", help="when resuming, redo examples that failed")
    p.add_argument("--allow-failures", action="store_true", help="exit 0 even when most generations failed")
    add_progress(p)


def system_name(args: argparse.Namespace) -> str:
    name = args.system or ("endpoint" if args.model else "rule-based")
    if name == "endpoint" and not args.model:
        raise InputError("--system endpoint needs --model")
    if name in BASELINES and args.model:
        raise InputError(f"--model is for endpoints; --system {name} is an offline baseline")
    return name


def endpoint_config(args: argparse.Namespace) -> EndpointConfig | None:
    if not args.model:
        return None
    return EndpointConfig(
        model=args.model, base_url=args.base_url,
        api_key_env=None if args.api_key_env.lower() == "none" else args.api_key_env,
        temperature=args.temperature, top_p=args.top_p, max_tokens=args.max_tokens, seed=args.seed,
        extra_body=args.extra_body, timeout=args.timeout, retries=args.retries)


def selection(args: argparse.Namespace) -> Selection:
    return Selection(args.ids, args.limit, {k: getattr(args, k) for k in FILTER_KEYS})


def default_out(name: str, args: argparse.Namespace) -> Path:
    label = name if name != "endpoint" else args.model.replace("/", "_").replace(":", "_")
    return Path("runs") / label


def cmd_generate(args: argparse.Namespace) -> int:
    from .generate import generate  # noqa: PLC0415
    from .run import RunConfig, generation_stats, make_system  # noqa: PLC0415

    name = system_name(args)
    out = args.out or default_out(name, args) / "predictions.jsonl"
    data = args.data or default_data()
    examples = select(load_examples(data), selection(args))
    config = RunConfig(data, out.parent, name, load_prompt(args.prompt), endpoint_config(args))
    try:
        report = generate(examples, make_system(config), out, concurrency=args.concurrency,
                          overwrite=args.overwrite, retry_failed=args.retry_failed, progress=not args.no_progress)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    print(f"{out}: {report.written} written ({report.failed} failed), {report.skipped} already there",
          file=sys.stderr)
    ids = [e.id for e in examples]
    return failure_verdict(Failures.from_stats(generation_stats(out, ids), len(ids)), args.allow_failures)


def failure_verdict(failures: Failures, allowed: bool) -> int:
    """The exit code, after one last line on stderr when generations failed."""
    if not failures.failed:
        return 0
    if failures.mostly and not allowed:
        print(f"error: {failures.line()}; fix the cause and rerun with --retry-failed (or --allow-failures to "
              "accept the result)", file=sys.stderr)
        return EXIT_GENERATIONS_FAILED
    print(f"warning: {failures.line()}; they score 0 (rerun with --retry-failed to redo them)", file=sys.stderr)
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from .run import RunConfig, run  # noqa: PLC0415

    name = system_name(args)
    data = args.data or default_data()
    config = RunConfig(
        data=data, out=args.out or default_out(name, args), system=name, prompt=load_prompt(args.prompt),
        endpoint=endpoint_config(args), selection=selection(args), concurrency=args.concurrency,
        audit_profile=audit_profile(args),
        workers=args.workers, time_limit=args.time_limit, behaviour=args.behaviour,
        overwrite=args.overwrite, retry_failed=args.retry_failed, progress=not args.no_progress)
    try:
        outcome = run(config)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    print(json.dumps(outcome.summary, indent=2, ensure_ascii=False) if args.json else outcome.scores.table())
    print(f"data: {describe_data(data)}\nwrote {', '.join(str(p) for p in outcome.files.values())}", file=sys.stderr)
    return failure_verdict(outcome.failures, args.allow_failures)


def register_harness_commands(commands) -> None:
    """Add `generate` and `run` to the `ids-bench` subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = commands.add_parser("run", help="generate with a baseline or endpoint, score, and report (main job)",
                            epilog=EPILOG_RUN, formatter_class=fmt)
    add_generation_arguments(p)
    p.add_argument("--out", type=Path, help="output folder (default: runs/<system or model>)")
    add_audit_profile(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of the table")
    add_isolation(p)
    add_behaviour(p)
    p.set_defaults(func=cmd_run)
    p = commands.add_parser("generate", help="only generate a predictions JSONL (resumable)",
                            epilog=EPILOG_GENERATE, formatter_class=fmt)
    add_generation_arguments(p)
    p.add_argument("--out", type=Path, help="predictions file (default: runs/<system or model>/predictions.jsonl)")
    p.set_defaults(func=cmd_generate)
