"""Outside submissions: a folder with predictions.jsonl + metadata.json, checked, then re-scored here.

`check` never scores: it lists every problem (ids missing, unknown or duplicated; lines that are not
JSON; metadata fields missing or of the wrong type; a prompt text whose hash disagrees). `rescore` runs the
scorer on the predictions exactly as `ids-bench score` does and writes the results file (per-example
rows inline), with the submission's metadata as provenance.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from idsbench.locations import find_checkout
from idsbench.pipeline import score
from idsbench.progress import progress_bar
from idsbench.records import InputError, check_predictions, load_predictions, load_references, problem_list
from idsbench.report.signature import package_version

from .results import ResultsError, parse_signature, results_from_run, schema_problems, write_results
from .stats import Bootstrap

PREDICTIONS, METADATA = "predictions.jsonl", "metadata.json"
SCHEMA = Path(__file__).resolve().parent / "schema" / "submission.schema.json"
PACKAGES = ("ifcopenshell", "ifctester", "lxml", "xmlschema", "numpy", "datasets", "huggingface_hub")


@dataclass(frozen=True)
class SubmissionCheck:
    folder: Path
    problems: list[str] = field(default_factory=list)
    metadata: dict | None = None
    predictions: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_text(self) -> str:
        if self.ok:
            return f"{self.folder}: ok ({self.predictions} predictions, model {self.metadata['model']!r})"
        listed = problem_list(self.problems).replace("\n", "\n  ")
        return f"{self.folder}: {len(self.problems)} problem(s)\n  {listed}"


def prompt_sha256(text: str) -> str:
    """The harness's prompt hash: sha256 of the prompt as sent (surrounding whitespace stripped)."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def read_metadata(folder: Path) -> tuple[dict | None, list[str]]:
    path = folder / METADATA
    try:
        metadata = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, [f"{path}: missing"]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [f"{path}: cannot read: {exc}"]
    except json.JSONDecodeError as exc:
        return None, [f"{path}:{exc.lineno}: not JSON: {exc.msg} (column {exc.colno})"]
    problems = [f"{path}: {p}" for p in schema_problems(metadata, SCHEMA)]
    prompt = metadata.get("prompt") if isinstance(metadata, dict) else None
    if not problems and "text" in prompt and "sha256" in prompt and prompt_sha256(prompt["text"]) != prompt["sha256"]:
        problems.append(f"{path}: prompt.sha256 is not the sha256 of prompt.text (stripped, UTF-8)")
    return (metadata if not problems else None), problems


def check_submission(folder: Path | str, data: Path | None = None) -> SubmissionCheck:
    """Every problem of a submission folder, without scoring it."""
    folder = Path(folder)
    if not folder.is_dir():
        return SubmissionCheck(folder, [f"{folder}: not a folder"])
    metadata, problems = read_metadata(folder)
    references = load_references(data)  # our own data: a problem here is ours, so it raises
    count = 0
    if not (folder / PREDICTIONS).is_file():
        problems.append(f"{folder / PREDICTIONS}: missing")
    else:
        try:
            found, listed = check_predictions(folder / PREDICTIONS, [r.id for r in references])
        except InputError as exc:  # not a text file at all: one problem
            found, listed = {}, [str(exc)]
        count, problems = len(found), problems + listed
    return SubmissionCheck(folder, problems, metadata, count)


def git_commit(root: Path | None = None) -> str | None:
    """The commit of the checkout in use (the code that re-scored), or None outside a git checkout."""
    root = root or find_checkout()
    if root is None:
        return None
    try:
        done = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


def provenance(metadata: dict, folder: Path, signature: str) -> dict:
    """summary.json provenance of a re-scored submission (read back by results_from_run)."""
    prompt = metadata["prompt"]
    extra = {k: metadata[k] for k in ("team", "contact", "url", "license", "notes") if k in metadata}
    return {
        "model": metadata["model"], "system": metadata.get("system", "submission"),
        "endpoint": metadata["endpoint"], "sampling": metadata["sampling"],
        "prompt": {"name": prompt.get("name"), "sha256": prompt.get("sha256") or prompt_sha256(prompt["text"])},
        "data_hash": parse_signature(signature).get("data"),
        "packages": {name: package_version(name) for name in PACKAGES},
        "git_commit": git_commit(), "date": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
        "submission": str(folder), "generation_date": metadata.get("date"), **extra,
    }


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-").lower() or "submission"


def rescore_submission(folder: Path | str, out: Path | str, *, data: Path | None = None,
                       audit_profile: str | None = None, settings: Bootstrap = Bootstrap(),
                       overwrite: bool = False, progress: bool = False) -> Path:
    """Check, score and write `out/<model>.json` (the results file, per-example rows inline); returns it.

    The run folder the results file is built from is a private temporary one: re-scoring several
    submissions into one --out never mixes their files. An existing results file of the same name
    is replaced only with `overwrite`."""
    folder, out = Path(folder), Path(out)
    checked = check_submission(folder, data)
    if not checked.ok:
        raise ResultsError(checked.to_text())
    target = out / f"{slug(checked.metadata['model'])}.json"
    if target.exists() and not overwrite:
        raise ResultsError(f"{target} exists (a results file for the same model name); remove it, choose "
                           "another --out, or add --overwrite")
    references = load_references(data)
    raw = load_predictions(folder / PREDICTIONS, [r.id for r in references])
    run = score([raw[r.id] for r in references], references, audit_profile=audit_profile,
                progress=progress_bar(progress, len(references), "re-scoring"))
    summary = run.summary(**provenance(checked.metadata, folder, run.signature))
    with tempfile.TemporaryDirectory(prefix="ids-bench-rescore-") as scratch:
        run_dir = Path(scratch)
        (run_dir / "results.jsonl").write_text(
            "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in run.results), encoding="utf-8")
        (run_dir / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n",
                                              encoding="utf-8")
        document = results_from_run(run_dir, settings=settings, name=checked.metadata["model"])
    document["provenance"]["source"] = str(folder)  # not the scratch folder, gone by now
    return write_results(document, target)
