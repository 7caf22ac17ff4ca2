"""Named generation protocols: prompt + sampling + thinking + request policy, stored as versioned files.

A protocol file (protocols/NAME.json, or any file of the same format) says how outputs were generated.
`resolve` turns it and the explicit command-line flags into the settings of one run; each flag that
changes a value is an override, recorded with the run, and marks its signature part
(`protocol:paper-0shot+overrides`). Whether two runs used the same protocol is then visible in their
signatures, the way the audit profile is.

A protocol may name a `base` protocol whose prompt, sampling, thinking and request settings it takes, and
add a `repair` loop (repair.py: rounds, the audit profile that judges each answer, the feedback template)
and/or `fewshot` examples (fewshot.py: k, seed). Such protocols are never the paper's.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from idsbench.audit.profiles import DEFAULT_PROFILE, PROFILES
from idsbench.records import InputError

from .endpoint import EndpointConfig
from .feedback import load_feedback
from .fewshot import FewShot
from .pinned import PromptSpec, pinned_prompt
from .prompt import PROMPTS, Prompt, load_prompt
from .repair import MAX_ROUNDS, Repair

PROTOCOLS = Path(__file__).resolve().parent / "protocols"
FORMAT = "ishigaki-ids-bench/protocol@1"
DEFAULT_PROTOCOL = "ishigaki-detailed-v1"
SAMPLING_KEYS = ("temperature", "top_p", "top_k", "min_p", "max_tokens", "seed")
OVERRIDE_KEYS = (*SAMPLING_KEYS, "thinking", "reasoning_effort", "timeout_s", "retries", "extra_body", "prompt")
INHERITED = ("prompt", "sampling", "thinking", "request")  # what a protocol takes from its base
KEYS = ("format", "name", "version", "summary", "paper", "base", "repair", "fewshot", *INHERITED)


@dataclass(frozen=True)
class Protocol:
    name: str
    version: int
    summary: str
    paper: bool  # the paper's published configuration
    prompt: PromptSpec
    sampling: Mapping[str, Any]
    thinking: bool | None  # None: nothing sent, the server's default
    timeout_s: float
    retries: int
    file_sha256: str  # of the protocol file (and its base's): two runs of one name and version share it
    base: str | None = None
    repair: Repair | None = None
    fewshot: FewShot | None = None


def protocol_names() -> list[str]:
    return sorted(p.stem for p in PROTOCOLS.glob("*.json"))


def _problem(doc: Any) -> str | None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return f'expected a JSON object with "format": "{FORMAT}"'
    for key, kind in (("name", str), ("version", int), ("prompt", dict), ("sampling", dict), ("request", dict)):
        if not isinstance(doc.get(key), kind):
            return f"{key!r} must be a {kind.__name__}"
    unknown = sorted(set(doc["sampling"]) - set(SAMPLING_KEYS))
    if unknown:
        return f"unknown sampling keys {unknown}; known: {', '.join(SAMPLING_KEYS)}"
    if doc.get("thinking") not in (True, False, None):
        return "'thinking' must be true, false or null"
    if doc["prompt"].get("source") not in ("pinned", "packaged"):
        return "prompt 'source' must be 'pinned' (fetched and verified) or 'packaged'"
    return _loop_problem(doc)


def _loop_problem(doc: dict) -> str | None:
    unknown = sorted(set(doc) - set(KEYS))
    if unknown:
        return f"unknown keys {unknown}; known: {', '.join(KEYS)}"
    repair, fewshot = doc.get("repair"), doc.get("fewshot")
    if repair is not None and not (isinstance(repair, dict) and isinstance(repair.get("rounds"), int)
                                   and 1 <= repair["rounds"] <= MAX_ROUNDS):
        return f"'repair' must be an object with 'rounds' from 1 to {MAX_ROUNDS}"
    if repair is not None and repair.get("audit_profile", DEFAULT_PROFILE) not in PROFILES:
        return f"repair 'audit_profile' must be one of {', '.join(PROFILES)}"
    if fewshot is not None and not (isinstance(fewshot, dict) and isinstance(fewshot.get("k"), int)
                                    and fewshot["k"] >= 1 and isinstance(fewshot.get("seed", 0), int)):
        return "'fewshot' must be an object with 'k' (at least 1) and an integer 'seed'"
    if doc.get("paper") and (repair or fewshot):
        return "'paper' is only for the paper's zero-shot configuration"
    return None


def _prompt_spec(raw: Mapping[str, Any]) -> PromptSpec:
    where = f"{raw.get('repository')}@{raw.get('commit')}:{raw.get('path')}" if raw.get("repository") else ""
    return PromptSpec(raw["source"], raw["file_name"], raw["sha256"], raw.get("bytes"), tuple(raw.get("urls", ())),
                      where)


def _beside(path: Path, folder: Path | None) -> Path:
    """A path a protocol file names is relative to that file's folder."""
    return folder / path if folder is not None and not path.is_absolute() else path


def _path(name_or_path: str | Path, folder: Path | None = None) -> Path:
    """A packaged protocol by name, or a protocol file by path (relative to `folder` when given)."""
    path = Path(name_or_path)
    if path.suffix:
        return _beside(path, folder)
    path = PROTOCOLS / f"{name_or_path}.json"
    if not path.is_file():
        raise InputError(f"unknown protocol {name_or_path!r}; choose one of {', '.join(protocol_names())} "
                         "or give a protocol file")
    return path


def _read(path: Path) -> tuple[bytes, Any]:
    try:
        raw = path.read_bytes()
        return raw, json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: cannot read the protocol: {exc}") from exc


def _with_base(path: Path, raw: bytes, doc: Any) -> tuple[bytes, Any]:
    """The document with its base's settings filled in, and the bytes its hash covers (base and own)."""
    if not isinstance(doc, dict) or doc.get("base") is None:
        return raw, doc
    base_path = _path(doc["base"], path.parent)
    base_raw, base = _read(base_path)
    if not isinstance(base, dict) or base.get("base") is not None or base.get("repair") or base.get("fewshot"):
        raise InputError(f"{path}: base {doc['base']!r} must be a plain protocol (no base, repair or fewshot)")
    return base_raw + b"\n" + raw, {**{k: base[k] for k in INHERITED if k in base}, **doc}


def _repair(doc: dict, folder: Path) -> Repair | None:
    spec = doc.get("repair")
    if spec is None:
        return None
    feedback = Path(spec.get("feedback", "repair-feedback-v1"))  # a packaged template's name, or a file
    return Repair(spec["rounds"], spec.get("audit_profile", DEFAULT_PROFILE),
                  load_feedback(_beside(feedback, folder) if feedback.suffix else feedback))


def load_protocol(name_or_path: str | Path) -> Protocol:
    """A packaged protocol by name, or a protocol file by path; problems raise InputError."""
    path = _path(name_or_path)
    hashed, doc = _with_base(path, *_read(path))
    problem = _problem(doc)
    if problem:
        raise InputError(f"{path}: {problem}")
    try:
        spec = _prompt_spec(doc["prompt"])
    except KeyError as exc:
        raise InputError(f"{path}: prompt needs {exc}") from exc
    request, fewshot = doc["request"], doc.get("fewshot")
    return Protocol(doc["name"], doc["version"], doc.get("summary", ""), bool(doc.get("paper")), spec,
                    dict(doc["sampling"]), doc.get("thinking"), float(request.get("timeout_s", 600)),
                    int(request.get("retries", 0)), hashlib.sha256(hashed).hexdigest(), doc.get("base"),
                    _repair(doc, path.parent), FewShot(fewshot["k"], fewshot.get("seed", 0)) if fewshot else None)


@dataclass(frozen=True)
class RunProtocol:
    """What one run sends: the protocol with the explicit flags applied (`overrides`: only changed values)."""

    protocol: Protocol
    prompt: Prompt
    sampling: Mapping[str, Any]
    thinking: bool | None
    reasoning_effort: str | None
    timeout_s: float
    retries: int
    extra_body: Mapping[str, Any] = field(default_factory=dict)
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def signature_part(self) -> str:
        return self.protocol.name + ("+overrides" if self.overrides else "")

    def to_json(self) -> dict[str, Any]:
        p = self.protocol
        loop = {k: v for k, v in (("base", p.base), ("repair", p.repair and p.repair.to_json()),
                                  ("fewshot", p.fewshot and p.fewshot.to_json())) if v is not None}
        return {"name": p.name, "version": p.version, "paper": p.paper and not self.overrides,
                "file_sha256": p.file_sha256, "signature": self.signature_part(),
                "overrides": dict(self.overrides), **loop}


def _prompt(protocol: Protocol, prompt_file: Path | None, cache: Path | None) -> tuple[Prompt, bool]:
    """(prompt, overridden). A pinned prompt may only be supplied as the verified file itself."""
    spec = protocol.prompt
    if spec.source == "pinned":
        return pinned_prompt(spec, prompt_file=prompt_file, cache=cache), False
    if prompt_file is not None:
        prompt = load_prompt(prompt_file)
        return prompt, prompt.sha256 != spec.sha256
    prompt = load_prompt(PROMPTS / spec.file_name)
    if prompt.sha256 != spec.sha256:
        raise InputError(f"{PROMPTS / spec.file_name}: sha256 {prompt.sha256} but protocol {protocol.name} "
                         f"pins {spec.sha256}: a changed prompt needs a new protocol version")
    return prompt, False


def resolve(protocol: Protocol, flags: Mapping[str, Any] | None = None, *, prompt_file: Path | None = None,
            cache: Path | None = None) -> RunProtocol:
    """The run's settings: `flags` holds the explicitly given values only (thinking=None: send nothing)."""
    flags = dict(flags or {})
    unknown = sorted(set(flags) - set(OVERRIDE_KEYS))
    if unknown:
        raise ValueError(f"unknown protocol settings {unknown}")
    base = {**protocol.sampling, "thinking": protocol.thinking, "reasoning_effort": None,
            "timeout_s": protocol.timeout_s, "retries": protocol.retries, "extra_body": {}}
    overrides = {k: v for k, v in flags.items() if base.get(k) != v}
    prompt, prompt_overridden = _prompt(protocol, prompt_file, cache)
    if prompt_overridden:
        overrides["prompt"] = {"name": prompt.name, "sha256": prompt.sha256}
    merged = {**base, **flags}
    return RunProtocol(protocol, prompt, {k: merged[k] for k in SAMPLING_KEYS if merged.get(k) is not None},
                       merged["thinking"], merged["reasoning_effort"], float(merged["timeout_s"]),
                       int(merged["retries"]), dict(merged["extra_body"]), overrides)


def endpoint_config(run: RunProtocol, *, model: str, base_url: str | None, api_key_env: str | None) -> EndpointConfig:
    """The endpoint settings of a run under `run`'s protocol."""
    s = run.sampling
    return EndpointConfig(model=model, base_url=base_url, api_key_env=api_key_env, temperature=s.get("temperature"),
                          top_p=s.get("top_p"), top_k=s.get("top_k"), min_p=s.get("min_p"),
                          max_tokens=s.get("max_tokens"), seed=s.get("seed"), thinking=run.thinking,
                          reasoning_effort=run.reasoning_effort, extra_body=dict(run.extra_body),
                          timeout=run.timeout_s, retries=run.retries)
