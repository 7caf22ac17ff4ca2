"""The main job: select examples -> generate (baseline or endpoint) -> score -> table + four files.

Scoring goes through `idsbench.pipeline.score`, the function behind `ids-bench score`, and the files
have the same format as that command's (results.jsonl rows are `ExampleResult.to_json()`).
"""
from __future__ import annotations

import datetime as dt
import json
import platform
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from idsbench import __version__
from idsbench.audit.profiles import DEFAULT_PROFILE, NO_AUDIT
from idsbench.locations import find_checkout
from idsbench.outputs import Writer, claim_output
from idsbench.pipeline import ScoreRun, score
from idsbench.progress import progress_bar
from idsbench.records import InputError, read_jsonl
from idsbench.report.signature import VERSION, package_version

from .conversation import Plan
from .endpoint import EndpointConfig, describe, endpoint_system
from .failures import Failures, one_line
from .examples import Example, Selection, inputs_hash, load_examples, select
from .generate import GenerateReport, generate
from .html_report import write_report
from .prompt import Prompt
from .protocol import RunProtocol
from .rounds import RoundScore, rounds_table, score_rounds
from .systems import BASELINES, System, baseline_system

PACKAGES = ("ifcopenshell", "ifctester", "lxml", "openai", "datasets", "tqdm")


@dataclass(frozen=True)
class RunConfig:
    data: Path
    out: Path
    system: str  # a baseline name or "endpoint"
    prompt: Prompt
    endpoint: EndpointConfig | None = None
    protocol: RunProtocol | None = None  # endpoint runs: recorded in provenance, rows and the signature
    selection: Selection = field(default_factory=Selection)
    concurrency: int = 1
    audit_profile: str | None = DEFAULT_PROFILE
    workers: int = 1  # scoring processes (see idsbench.isolation)
    time_limit: float | None = None  # seconds per example when scoring
    behaviour: bool = False  # also the behavioural agreement on witness models (beyond the paper)
    overwrite: bool = False
    retry_failed: bool = False
    progress: bool = True


@dataclass(frozen=True)
class RunOutcome:
    scores: ScoreRun
    summary: dict[str, Any]
    generation: GenerateReport
    files: dict[str, Path]
    failures: Failures
    rounds: list[RoundScore] = field(default_factory=list)  # repair protocols: the scores per round

    def table(self) -> str:
        """The run's table, and under a repair protocol the table of its rounds."""
        if not self.rounds:
            return self.scores.table()
        return f"{self.scores.table()}\n\n{rounds_table(self.rounds, self.summary['protocol']['signature'])}"


def plan_for(config: RunConfig, everything: list[Example]) -> Plan:
    """How conversations unfold: the protocol's repair loop and few-shot examples (drawn from all the data)."""
    protocol = config.protocol.protocol if config.protocol is not None and config.system == "endpoint" else None
    if protocol is None:
        return Plan()
    return Plan(protocol.repair, protocol.fewshot, tuple(everything) if protocol.fewshot else ())


def make_system(config: RunConfig) -> System:
    if config.system in BASELINES:
        return baseline_system(config.system)
    if config.system != "endpoint" or config.endpoint is None:
        raise InputError(f"--system {config.system}: choose one of {', '.join(BASELINES)}, or give --model")
    return endpoint_system(config.endpoint, config.prompt, config.protocol and config.protocol.signature_part())


def predictions_for(path: Path, ids: list[str]) -> list[str | None]:
    """Raw outputs in `ids` order; the file may hold more ids (an earlier, larger run)."""
    rows = {row["id"]: row.get("prediction") for _, row in read_jsonl(path) if isinstance(row, dict) and "id" in row}
    missing = [i for i in ids if i not in rows]
    if missing:
        raise InputError(f"{path}: no prediction for {', '.join(missing[:20])}")
    return [rows[i] for i in ids]


def generation_stats(path: Path, ids: list[str]) -> dict[str, Any]:
    """Failures, finish reasons, token usage and latency of the selected rows (for provenance)."""
    wanted = set(ids)
    rows = [row for _, row in read_jsonl(path) if isinstance(row, dict) and row.get("id") in wanted]
    reasons: dict[str, int] = {}
    usage: dict[str, int] = {}
    for row in rows:
        reasons[str(row.get("finish_reason"))] = reasons.get(str(row.get("finish_reason")), 0) + 1
        for key, value in (row.get("usage") or {}).items():
            if isinstance(value, int):
                usage[key] = usage.get(key, 0) + value
    latencies = sorted(float(row.get("latency_s") or 0) for row in rows)
    failed = sorted((row for row in rows if row.get("prediction") is None), key=lambda row: row["id"])
    return {
        "failed_ids": [row["id"] for row in failed],
        "first_error": {"id": failed[0]["id"], "error": one_line(failed[0].get("error"))} if failed else None,
        "finish_reasons": dict(sorted(reasons.items())), "usage": usage,
        "latency_s": {"median": latencies[len(latencies) // 2], "max": latencies[-1]} if latencies else None,
    }


def git_state() -> dict[str, Any] | None:
    """Commit and dirty flag of the checkout in use, when it is a git repository (read-only commands)."""
    root = find_checkout()
    if root is None:
        return None
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5)
        status = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    if commit.returncode != 0:
        return None
    return {"commit": commit.stdout.strip(), "dirty": bool(status.stdout.strip())}


def provenance(config: RunConfig, system: System, examples: list[Example], report: GenerateReport,
               stats: dict[str, Any]) -> dict[str, Any]:
    """Everything needed to reproduce or compare the run: system, model, endpoint, sampling, prompt hash,
    data hash, package versions, git commit, date."""
    selection = {"ids": list(config.selection.ids), "limit": config.selection.limit,
                 **{k: list(v) for k, v in config.selection.filters.items() if v}}
    return {
        "system": system.name, "model": system.model, "run_config": system.run_config,
        "endpoint": describe(config.endpoint) if config.endpoint and system.name == "endpoint" else None,
        "sampling": system.settings.get("sampling"),
        "prompt": {**config.prompt.to_json(), "used": system.name == "endpoint"},
        "protocol": config.protocol.to_json() if config.protocol and system.name == "endpoint" else None,
        "data": {"path": str(config.data), "inputs_hash": inputs_hash(examples), "n": len(examples),
                 "selection": selection},
        "generation": {"skipped_existing": report.skipped, "written": report.written, "failed": len(stats["failed_ids"]),
                       **stats},
        "audit_profile": config.audit_profile or NO_AUDIT,
        "packages": {"ids_metric": VERSION, "ishigaki-ids-bench": __version__, "python": platform.python_version(),
                     **{name: package_version(name) for name in PACKAGES}},
        "git": git_state(), "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "command": sys.argv,
    }


def write_outputs(out: Path, scores: ScoreRun, summary: dict, predictions: list[str | None],
                  rows: dict[str, dict], rounds: list[RoundScore] = ()) -> dict[str, Path]:
    files = {"predictions": out / "predictions.jsonl", "results": out / "results.jsonl",
             "summary": out / "summary.json", "report": out / "report.html"}
    with open(files["results"], "w", encoding="utf-8") as handle:
        for result in scores.results:
            handle.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    files["summary"].write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write_report(files["report"], scores, summary, predictions, rows, rounds)
    return files


def run(config: RunConfig) -> RunOutcome:
    """Everything `ids-bench run` does, as a library call (no printing of the table)."""
    everything = load_examples(config.data)
    examples = select(everything, config.selection)
    system = make_system(config)
    claim_output(config.out, Writer("run"), overwrite=config.overwrite)
    config.out.mkdir(parents=True, exist_ok=True)
    path = config.out / "predictions.jsonl"
    plan = plan_for(config, everything)
    report = generate(examples, system, path, concurrency=config.concurrency, overwrite=config.overwrite,
                      retry_failed=config.retry_failed, progress=config.progress, plan=plan)
    ids = [e.id for e in examples]
    raws = predictions_for(path, ids)
    references = [e.reference for e in examples]
    scoring = {"audit_profile": config.audit_profile, "workers": config.workers, "time_limit": config.time_limit}
    scores = score(raws, references, progress=progress_bar(config.progress, len(raws)), behaviour=config.behaviour,
                   **scoring)
    scores = replace(scores, of=len(everything) if len(examples) < len(everything) else None)
    if config.protocol is not None and system.name == "endpoint":
        scores = replace(scores, signature=f"{scores.signature}|protocol:{config.protocol.signature_part()}")
    stats = generation_stats(path, ids)
    summary = scores.summary(**provenance(config, system, examples, report, stats))
    rows = {row["id"]: row for _, row in read_jsonl(path) if isinstance(row, dict) and row.get("id") in set(ids)}
    rounds = score_rounds(rows, ids, references, plan.repair.rounds, scores, **scoring) if plan.repair else []
    if rounds:
        summary["rounds"] = [r.to_json(scores.signature) for r in rounds]
    files = write_outputs(config.out, scores, summary, raws, rows, rounds)
    return RunOutcome(scores, summary, report, files, Failures.from_stats(stats, len(ids)), rounds)
