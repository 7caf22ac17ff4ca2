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
from .failures import Failures, one_line
from .prompt import DEFAULT_PROMPT, load_prompt
from .protocol import DEFAULT_PROTOCOL, RunProtocol, endpoint_config as protocol_endpoint, load_protocol, \
    protocol_names, resolve
from .systems import BASELINES, SYSTEMS, SystemUnreachable

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
  ids-bench run --protocol paper-0shot --model Qwen/Qwen3-8B --base-url http://localhost:8000/v1 \\
      --api-key-env none          # the paper's prompt (fetched, verified) and sampling, thinking on
  ids-bench run --protocol paper-0shot --prompt ishigaki-ids-bench_0shot.txt --model m --base-url ...  # offline
  ids-bench run --protocol repair-3 --model m --base-url http://localhost:8000/v1 --api-key-env none
Protocols (--protocol): ishigaki-detailed-v1 (default; this project's prompt, NOT the paper's protocol),
paper-0shot (the paper's; the only one comparable with it); repair-3 and paper-repair-3 (on those two: the
audit's findings sent back, up to 3 repair rounds, scores per round); fewshot-3 and paper-fewshot-3 (3 solved
examples from other scenarios first). Flags such as --temperature override the protocol; the run records
each override and its signature says protocol:NAME+overrides.
Endpoint flags (--base-url, --api-key-env, --protocol, --prompt, sampling and request flags) need --model.
Requests are retried on 429/5xx, timeouts and dropped connections; a connection that cannot be made
(refused, unknown host, TLS) is not: at the first request it stops the run, with the error.
Interrupted? Run the same command again: finished examples are kept and skipped ("resuming: ..."); under a
repair protocol an unfinished example resumes at the round it reached.
Writes <out>/predictions.jsonl, results.jsonl, summary.json (signature + provenance) and report.html;
results in <out> written by another command are kept unless --overwrite.
exit codes: 0 done, 2 bad input (e.g. an endpoint flag without --model), 3 the endpoint cannot be reached
(stopped at the first request) or most generations failed (the last line says why; --allow-failures
gives 0), 130 interrupted"""
EPILOG_GENERATE = """examples:
  ids-bench generate --system rule-based --out runs/rule-based/predictions.jsonl
  ids-bench generate --model gpt-4o-mini --concurrency 8 --retries 6 --out runs/gpt-4o-mini/predictions.jsonl
  ids-bench generate --model m --base-url http://localhost:8000/v1 --api-key-env none --ids s001-en,s001-ja
then: ids-bench score --predictions runs/gpt-4o-mini/predictions.jsonl
Rows: {"id", "prediction" (null on failure), "finish_reason", "usage", "error", "latency_s", "attempts", ...},
appended as they arrive; rerunning resumes (ids already in the file are skipped).
exit codes: 0 done, 2 bad input, 3 the endpoint cannot be reached (stopped at the first request) or most
generations failed (--allow-failures gives 0), 130 interrupted"""


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
    e.add_argument("--api-key-env", help="env var holding the key (default: OPENAI_API_KEY); 'none' for no key")
    e.add_argument("--protocol", metavar="NAME|FILE", help=f"generation protocol: {', '.join(protocol_names())} "
                   f"or a protocol file (default: {DEFAULT_PROTOCOL}, which is not the paper's protocol)")
    e.add_argument("--prompt", type=Path, help=f"system prompt file (default: the protocol's; {DEFAULT_PROMPT.name} "
                   "for the default). With paper-0shot: the official prompt file, checked against its sha256")
    s = p.add_argument_group("sampling and requests (default: the protocol's; a flag given overrides it)")
    s.add_argument("--temperature", type=float)
    s.add_argument("--top-p", type=float)
    s.add_argument("--top-k", type=int, help="sent in the request body (vLLM, SGLang)")
    s.add_argument("--min-p", type=float, help="sent in the request body (vLLM, SGLang)")
    s.add_argument("--max-tokens", type=int)
    s.add_argument("--seed", type=int)
    s.add_argument("--thinking", choices=("on", "off", "server-default"),
                   help="request thinking as chat_template_kwargs.enable_thinking (vLLM, SGLang), or send nothing")
    s.add_argument("--reasoning-effort", metavar="LEVEL", help="request thinking OpenAI-style instead, e.g. high")
    s.add_argument("--extra-body", type=_json_object, help="JSON merged into each request body, last")
    s.add_argument("--timeout", type=float, help="seconds per request")
    s.add_argument("--retries", type=at_least(0), help="retries on 429/5xx, timeouts and dropped connections (never "
                   "on a connection that cannot be made)")
    e.add_argument("--concurrency", type=at_least(1), default=1, help="parallel requests (default: %(default)s)")
    p.add_argument("--overwrite", action="store_true", help="start again instead of resuming, replacing what "
                   "is in the output folder")
    p.add_argument("--retry-failed", action="store_true", help="when resuming, redo examples that failed")
    p.add_argument("--allow-failures", action="store_true", help="exit 0 even when most generations failed")
    add_progress(p)


ENDPOINT_FLAGS = ("base_url", "api_key_env", "protocol", "prompt", "temperature", "top_p", "top_k", "min_p",
                  "max_tokens", "seed", "thinking", "reasoning_effort", "extra_body", "timeout", "retries")


def endpoint_flags(args: argparse.Namespace) -> list[str]:
    """The endpoint-only flags given on the command line."""
    return [f"--{key.replace('_', '-')}" for key in ENDPOINT_FLAGS if getattr(args, key) is not None]


def system_name(args: argparse.Namespace) -> str:
    """The system to run; endpoint flags without --model are an error, never a silent baseline run."""
    name = args.system or ("endpoint" if args.model else "rule-based")
    if name == "endpoint" and not args.model:
        raise InputError("--system endpoint needs --model")
    if name in BASELINES and args.model:
        raise InputError(f"--model is for endpoints; --system {name} is an offline baseline")
    flags = [] if args.model else endpoint_flags(args)
    if flags and args.system in BASELINES:
        raise InputError(f"{flags[0]} is for endpoints; --system {name} is an offline baseline")
    if flags:
        one = len(flags) == 1
        raise InputError(f"{', '.join(flags)} {'needs' if one else 'need'} --model: add --model NAME (the model the "
                         f"endpoint serves), or leave {'it' if one else 'them'} out to run the offline rule-based "
                         "baseline")
    return name


THINKING = {"on": True, "off": False, "server-default": None}


def run_protocol(args: argparse.Namespace, system: str) -> RunProtocol | None:
    """The protocol of an endpoint run with the explicit flags applied; None for the offline baselines."""
    if system != "endpoint":
        return None
    flags = {"temperature": args.temperature, "top_p": args.top_p, "top_k": args.top_k, "min_p": args.min_p,
             "max_tokens": args.max_tokens, "seed": args.seed, "reasoning_effort": args.reasoning_effort,
             "extra_body": args.extra_body, "timeout_s": args.timeout, "retries": args.retries}
    flags = {k: v for k, v in flags.items() if v is not None}  # flags not given keep the protocol's value
    if args.thinking is not None:
        flags["thinking"] = THINKING[args.thinking]
    return resolve(load_protocol(args.protocol or DEFAULT_PROTOCOL), flags, prompt_file=args.prompt)


def endpoint_config(args: argparse.Namespace, protocol: RunProtocol | None) -> EndpointConfig | None:
    if not args.model or protocol is None:
        return None
    key = args.api_key_env or "OPENAI_API_KEY"
    return protocol_endpoint(protocol, model=args.model, base_url=args.base_url,
                             api_key_env=None if key.lower() == "none" else key)


def prompt_of(args: argparse.Namespace, protocol: RunProtocol | None):
    return protocol.prompt if protocol is not None else load_prompt(args.prompt)


def selection(args: argparse.Namespace) -> Selection:
    return Selection(args.ids, args.limit, {k: getattr(args, k) for k in FILTER_KEYS})


def default_out(name: str, args: argparse.Namespace) -> Path:
    label = name if name != "endpoint" else args.model.replace("/", "_").replace(":", "_")
    return Path("runs") / label


def cmd_generate(args: argparse.Namespace) -> int:
    from .generate import generate  # noqa: PLC0415
    from .run import RunConfig, generation_stats, make_system, plan_for  # noqa: PLC0415

    name = system_name(args)
    out = args.out or default_out(name, args) / "predictions.jsonl"
    data = args.data or default_data()
    everything = load_examples(data)
    examples = select(everything, selection(args))
    protocol = run_protocol(args, name)
    config = RunConfig(data, out.parent, name, prompt_of(args, protocol), endpoint_config(args, protocol),
                       protocol=protocol)
    try:
        report = generate(examples, make_system(config), out, concurrency=args.concurrency,
                          overwrite=args.overwrite, retry_failed=args.retry_failed, progress=not args.no_progress,
                          plan=plan_for(config, everything))
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except SystemUnreachable as exc:
        return unreachable(exc)
    print(f"{out}: {report.written} written ({report.failed} failed), {report.skipped} already there",
          file=sys.stderr)
    ids = [e.id for e in examples]
    return failure_verdict(Failures.from_stats(generation_stats(out, ids), len(ids)), args.allow_failures)


def unreachable(exc: SystemUnreachable) -> int:
    print(f"error: cannot reach the endpoint: {one_line(exc)}\nStopped at the first request (nothing recorded "
          "for it): check --base-url and that the server is up, then run the same command again.", file=sys.stderr)
    return EXIT_GENERATIONS_FAILED


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
    protocol = run_protocol(args, name)
    config = RunConfig(
        data=data, out=args.out or default_out(name, args), system=name, prompt=prompt_of(args, protocol),
        endpoint=endpoint_config(args, protocol), protocol=protocol, selection=selection(args),
        concurrency=args.concurrency,
        audit_profile=audit_profile(args),
        workers=args.workers, time_limit=args.time_limit, behaviour=args.behaviour,
        overwrite=args.overwrite, retry_failed=args.retry_failed, progress=not args.no_progress)
    try:
        outcome = run(config)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except SystemUnreachable as exc:
        return unreachable(exc)
    print(json.dumps(outcome.summary, indent=2, ensure_ascii=False) if args.json else outcome.table())
    if protocol is not None and not protocol.to_json()["paper"]:
        print(f"protocol {protocol.signature_part()}: not the paper's protocol, so these scores are not comparable "
              "with the paper's (--protocol paper-0shot runs its prompt and sampling)", file=sys.stderr)
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
