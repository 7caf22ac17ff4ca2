"""The results file: one JSON document per scored run, validated against schema/results.schema.json.

A run folder (summary.json + results.jsonl, as `ids-bench run` or `score` writes them) becomes
a results file: paper metrics with 95% intervals (Wilson for the pass rates, percentile bootstrap for the
rest) overall and per metadata value, the signature (scoring signature + interval settings), provenance,
and the per-example rows (inline, or a path).
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from idsbench.records import InputError, read_jsonl
from idsbench.report.aggregate import PAPER_METRICS

from .stats import PASS_RATE_INTERVAL, Bootstrap, bootstrap_group, groups_of

FORMAT = "ishigaki-ids-bench/results@1"
SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "results.schema.json"
SUMMARY_CORE = ("signature", "overall", "breakdowns", "provenance")
TOLERANCE = 1e-9
# Provenance fields and the names a run's summary.json may use for them (top level or under "provenance").
ALIASES: dict[str, tuple[str, ...]] = {
    "model": ("model", "model_name"),
    "system": ("system",),
    "endpoint": ("endpoint", "base_url"),
    "sampling": ("sampling", "sampling_settings"),
    "prompt": ("prompt", "prompt_hash", "prompt_sha256"),
    "data_hash": ("data_hash",),
    "packages": ("packages", "package_versions", "versions"),
    "git_commit": ("git_commit", "commit", "git"),
    "date": ("date", "created", "timestamp"),
}


class ResultsError(InputError):
    """A results file, run folder or submission that is not what it should be (names the file)."""


@lru_cache(maxsize=None)
def _validator(schema_path: Path = SCHEMA_PATH):
    import jsonschema  # noqa: PLC0415  (only reading/writing results needs it)

    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_problems(document: Any, schema_path: Path = SCHEMA_PATH) -> list[str]:
    """Every schema violation as `at <json path>: <message>`, in a stable order."""
    errors = sorted(_validator(schema_path).iter_errors(document), key=lambda e: (list(map(str, e.path)), e.message))
    return [f"at {e.json_path}: {e.message}" for e in errors]


def validate(document: Any, where: str, schema_path: Path = SCHEMA_PATH) -> None:
    problems = schema_problems(document, schema_path)
    if problems:
        shown = problems[:10] + ([f"(+{len(problems) - 10} more)"] if len(problems) > 10 else [])
        raise ResultsError(f"{where}: not a valid results document:\n  " + "\n  ".join(shown))


def parse_signature(signature: str) -> dict[str, str]:
    """`a:1|b:2` -> {"a": "1", "b": "2"} (a value may itself contain colons or commas)."""
    return dict(part.split(":", 1) if ":" in part else (part, "") for part in signature.split("|"))


def results_signature(scoring_signature: str, settings: Bootstrap) -> str:
    return f"{scoring_signature}|{settings.signature_part()}|rates:{PASS_RATE_INTERVAL}"


# ------------------------------------------------------------------------------------------ provenance

def _lookup(summary: Mapping, names: Sequence[str]) -> Any:
    nested = summary.get("provenance") if isinstance(summary.get("provenance"), Mapping) else {}
    for source in (summary, nested):
        for name in names:
            if source.get(name) is not None:
                return source[name]
    return None


def _as_text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Mapping):  # e.g. {"base_url": …, "model": …}
        return _as_text(value.get("base_url") or value.get("url") or value.get("commit") or value.get("name"))
    return str(value)


def _endpoint(value: Any) -> str | None:
    """A harness endpoint config is a dict; with no base_url it was the client's default (OpenAI) API."""
    if isinstance(value, Mapping) and not (value.get("base_url") or value.get("url")):
        return "default API of the OpenAI client"
    return _as_text(value)


def _prompt(value: Any) -> dict:
    if isinstance(value, Mapping):
        return {"name": _as_text(value.get("name")), "sha256": _as_text(value.get("sha256") or value.get("hash"))}
    return {"name": None, "sha256": _as_text(value)}


def provenance_from_summary(summary: Mapping, *, fallback_model: str, data_hash: str, source: str) -> dict:
    """The results file's provenance: known fields normalised, anything else kept under `extra`."""
    found = {field: _lookup(summary, names) for field, names in ALIASES.items()}
    known = {name for names in ALIASES.values() for name in names} | set(SUMMARY_CORE)
    nested = summary.get("provenance") if isinstance(summary.get("provenance"), Mapping) else {}
    extra = {k: v for source_ in (summary, nested) for k, v in source_.items() if k not in known}
    for name in ("endpoint", "git"):  # structured values: the text goes in the field, the whole stays here
        if isinstance(summary.get(name), Mapping):
            extra[name] = summary[name]
    packages = found["packages"] if isinstance(found["packages"], Mapping) else {}
    return {
        "model": _as_text(found["model"]) or fallback_model,
        "system": _as_text(found["system"]),
        "endpoint": _endpoint(found["endpoint"]),
        "sampling": dict(found["sampling"]) if isinstance(found["sampling"], Mapping) else {},
        "prompt": _prompt(found["prompt"]),
        "data_hash": _as_text(found["data_hash"]) or data_hash,
        "packages": {str(k): str(v) for k, v in sorted(packages.items())},
        "git_commit": _as_text(found["git_commit"]),
        "date": _as_text(found["date"]),
        "source": source,
        "extra": extra,
    }


# ------------------------------------------------------------------------------------------ building

def group_json(rows: Sequence[Mapping], settings: Bootstrap, stream: str) -> dict:
    intervals = bootstrap_group(rows, settings, stream)
    metrics = {name: intervals[name].to_json() for name in PAPER_METRICS}
    if intervals["behaviour"].value is not None:  # beyond the paper: present only when computed
        metrics["behaviour"] = intervals["behaviour"].to_json()
    return {"n": len(rows), "metrics": metrics}


def _check_against_summary(document: dict, summary: Mapping, where: str) -> None:
    """The recomputed point values must be the scorer's own (a results.jsonl from another run fails here)."""
    expected = summary.get("overall") or {}
    for name in PAPER_METRICS:
        mine, theirs = document["overall"]["metrics"][name]["value"], expected.get(name)
        if theirs is None and mine is None:
            continue
        if theirs is None or mine is None or not math.isclose(mine, theirs, abs_tol=TOLERANCE):
            raise ResultsError(f"{where}: overall {name} is {theirs} in summary.json but {mine} from "
                               "results.jsonl; the two files come from different runs")


def build_results(rows: Sequence[Mapping], *, name: str, scoring_signature: str, provenance: dict,
                  settings: Bootstrap = Bootstrap(), examples_path: str | None = None) -> dict:
    """A results document (stable key order) from per-example rows."""
    if not rows:
        raise ResultsError(f"{name}: no per-example rows")
    document = {
        "format": FORMAT,
        "name": name,
        "signature": results_signature(scoring_signature, settings),
        "scoring_signature": scoring_signature,
        "bootstrap": {**settings.to_json(), "pass_rates": PASS_RATE_INTERVAL},
        "provenance": provenance,
        "overall": group_json(rows, settings, "all"),
        "breakdowns": {key: {value: group_json(members, settings, f"{key}={value}")
                             for value, members in groups.items()}
                       for key, groups in groups_of(rows).items()},
    }
    if examples_path is None:
        document["examples"] = [dict(row) for row in rows]
    else:
        document["examples_path"] = examples_path
    return document


def _read_summary(folder: Path) -> dict:
    path = folder / "summary.json"
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ResultsError(f"{folder}: not a run folder (no summary.json)") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ResultsError(f"{path}: cannot read: {exc}") from exc
    if not isinstance(summary, dict) or not isinstance(summary.get("signature"), str):
        raise ResultsError(f"{path}: expected an object with a string \"signature\"")
    return summary


def read_rows(path: Path) -> list[dict]:
    """results.jsonl rows; each must be an object with an id, ids unique (errors name file:line)."""
    rows, seen, problems = [], {}, []
    for number, row in read_jsonl(path):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            problems.append(f"{path}:{number}: expected an object with a string \"id\"")
        elif row["id"] in seen:
            problems.append(f"{path}:{number}: duplicate id {row['id']!r} (first on line {seen[row['id']]})")
        else:
            seen[row["id"]] = number
            rows.append(row)
    if problems:
        raise ResultsError.listing(problems)
    return rows


def results_from_run(folder: Path | str, *, settings: Bootstrap = Bootstrap(), name: str | None = None,
                     inline: bool = True) -> dict:
    """Build (and validate) the results document of a run folder: summary.json + results.jsonl."""
    folder = Path(folder)
    summary = _read_summary(folder)
    rows = read_rows(folder / "results.jsonl")
    signature = summary["signature"]
    declared_n = parse_signature(signature).get("n")
    if declared_n is not None and declared_n != str(len(rows)):
        raise ResultsError(f"{folder / 'results.jsonl'}: {len(rows)} rows but the signature says n:{declared_n}")
    provenance = provenance_from_summary(summary, fallback_model=folder.name, source=str(folder),
                                         data_hash=parse_signature(signature).get("data", "unknown"))
    document = build_results(rows, name=name or provenance["model"], scoring_signature=signature,
                             provenance=provenance, settings=settings,
                             examples_path=None if inline else str((folder / "results.jsonl").resolve()))
    _check_against_summary(document, summary, str(folder))
    validate(document, str(folder))
    return document


# ------------------------------------------------------------------------------------------ files

def dumps(document: Mapping) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_results(document: Mapping, path: Path | str) -> Path:
    """Validate, then write; nothing is written for an invalid document."""
    path = Path(path)
    validate(document, str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    if "examples_path" in document and Path(document["examples_path"]).is_absolute():
        # stored relative to the results file, so a results folder can be moved with its run folders
        document = {**document, "examples_path": os.path.relpath(document["examples_path"], path.parent.resolve())}
    path.write_text(dumps(document), encoding="utf-8")
    return path


@dataclass(frozen=True)
class LoadedResults:
    path: Path
    document: dict
    rows: list[dict]

    @property
    def name(self) -> str:
        return self.document["name"]

    @property
    def signature(self) -> str:
        return self.document["signature"]


def read_results(path: Path | str) -> LoadedResults:
    """Read and validate a results file; rows come inline or from `examples_path` (relative to it)."""
    path = Path(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{path}: cannot read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise ResultsError(f"{path}:{exc.lineno}: not JSON: {exc.msg} (column {exc.colno})") from exc
    validate(document, str(path))
    rows = document.get("examples") or read_rows(path.parent / document["examples_path"])
    return LoadedResults(path, document, rows)


def load_any(path: Path | str, settings: Bootstrap = Bootstrap()) -> LoadedResults:
    """A results file or a run folder, as loaded results (a run folder is converted on the fly)."""
    path = Path(path)
    if path.is_dir():
        document = results_from_run(path, settings=settings)
        return LoadedResults(path, document, document["examples"])
    return read_results(path)
