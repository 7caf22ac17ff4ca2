"""Publishing to the Hub: the dataset, the metric Space and the leaderboard Space.

Each target is first a Plan: the exact list of files (path in repo -> bytes) to upload. `--dry-run` prints
the plan; a push creates the repo if needed and uploads the plan as one commit of explicit operations, so
nothing outside the plan is ever sent (no folder walk with ignore patterns that could pick up stray files).
"""
from __future__ import annotations

import hashlib
import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import yaml

from .board import board_from_folder, to_markdown
from .html import render_page
from .hubformats import eval_yaml
from .results import ResultsError, dumps

SKIP_PARTS = ("__pycache__", ".ipynb_checkpoints")
SKIP_SUFFIXES = (".pyc", ".pyo")
LEADERBOARD_CARD = """---
title: Ishigaki-IDS-Bench leaderboard
emoji: 🏗️
colorFrom: blue
colorTo: green
sdk: static
app_file: index.html
pinned: false
license: apache-2.0
short_description: LLMs turning BIM requirements into buildingSMART IDS files
tags:
- leaderboard
- submission:manual
- test:public
- judge:function
- modality:text
---

# Ishigaki-IDS-Bench leaderboard

The page (`index.html`) is self-contained. `board.json` and `board.md` hold the same table; `results/` holds
every results file behind it, with its signature and provenance. Reference rows are figures reported in the
paper on the official data and are never ranked.
"""


@dataclass(frozen=True)
class Upload:
    path_in_repo: str
    data: bytes
    origin: str  # the local file it comes from, or what generated it


@dataclass(frozen=True)
class Plan:
    target: str  # dataset | metric | leaderboard
    repo_id: str
    repo_type: str
    uploads: tuple[Upload, ...]
    space_sdk: str | None = None

    def paths(self) -> list[str]:
        return [u.path_in_repo for u in self.uploads]


def _file(root: Path, path: Path, path_in_repo: str | None = None) -> Upload:
    return Upload(path_in_repo or path.relative_to(root).as_posix(), path.read_bytes(), str(path))


def split_front_matter(text: str) -> tuple[dict, str]:
    """(YAML front matter, body) of a card; ({}, text) when it has none."""
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 4)
    if end < 0:
        raise ResultsError("card front matter is not closed by a '---' line")
    return yaml.safe_load(text[4:end]) or {}, text[end + 4:].lstrip("\n")


def dataset_readme(root: Path) -> bytes:
    """dataset_card.md as the Hub README; .huggingface.yaml's configs/dataset_info merged in only if missing."""
    card_path, hub_yaml = root / "dataset_card.md", root / ".huggingface.yaml"
    if not card_path.is_file():
        raise ResultsError(f"{card_path}: missing (build it with `python ishigaki_ids_bench.py build`)")
    text = card_path.read_text(encoding="utf-8")
    front, body = split_front_matter(text)
    extra = yaml.safe_load(hub_yaml.read_text(encoding="utf-8")) if hub_yaml.is_file() else {}
    missing = {k: v for k, v in (extra or {}).items() if k not in front}
    if not missing:
        return text.encode("utf-8")
    merged = yaml.safe_dump({**front, **missing}, sort_keys=False, allow_unicode=True)
    return f"---\n{merged}---\n\n{body}".encode("utf-8")


def card_configs(readme: bytes) -> list[dict]:
    front, _ = split_front_matter(readme.decode("utf-8"))
    return list(front.get("configs") or [])


def dataset_plan(repo_id: str, root: Path, *, include_sources: bool = False) -> Plan:
    """README.md (the card), data/test-*.jsonl, eval.yaml; the scenario sources only when asked."""
    data_files = sorted((root / "data").glob("test-*.jsonl"))
    if not data_files:
        raise ResultsError(f"{root / 'data'}: no test-*.jsonl data files to publish")
    readme = dataset_readme(root)
    default = next((c["config_name"] for c in card_configs(readme) if c.get("default")), "all")
    uploads = [Upload("README.md", readme, str(root / "dataset_card.md")),
               Upload("eval.yaml", eval_yaml(config=default).encode("utf-8"), "generated: leaderboard.hubformats")]
    uploads += [_file(root, path) for path in data_files]
    if include_sources:
        uploads += [_file(root, p) for p in sorted((root / "data" / "scenarios").rglob("*")) if _wanted(p)]
    return Plan("dataset", repo_id, "dataset", tuple(uploads))


def _wanted(path: Path) -> bool:
    return path.is_file() and not any(part in SKIP_PARTS for part in path.parts) and path.suffix not in SKIP_SUFFIXES


def metric_plan(repo_id: str, root: Path) -> Plan:
    """The checkout's ids_metric/ folder as it is (its Space card, app.py, and requirements.txt, which
    installs the scorer)."""
    folder = root / "ids_metric"
    files = sorted(p for p in folder.rglob("*") if _wanted(p))
    if not (folder / "README.md").is_file():
        raise ResultsError(f"{folder}: no README.md (the Space card)")
    front, _ = split_front_matter((folder / "README.md").read_text(encoding="utf-8"))
    return Plan("metric", repo_id, "space", tuple(_file(folder, p) for p in files), str(front.get("sdk") or "gradio"))


PYPI = "https://pypi.org"  # IDS_BENCH_PYPI_URL points the check at a mirror (or a test's stand-in)
FIX = ("the Space's build will fail: publish the distribution first (python -m build && twine upload dist/*), "
       "or name a commit of its repository instead (NAME @ git+https://github.com/ORG/REPO@COMMIT)")


def space_requirement_warnings(requirements: str, index: str | None = None, timeout: float = 5.0) -> list[str]:
    """What may stop a Space from installing its requirements.txt: a distribution with no release on
    PyPI that its line accepts, and what to do about it. Lines with a URL, a path or an option are left
    alone; a check that cannot be made says so."""
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415

    index = (index or os.environ.get("IDS_BENCH_PYPI_URL") or PYPI).rstrip("/")
    warnings = []
    for line in requirements.splitlines():
        text = line.split("#", 1)[0].strip()
        if not text or text.startswith("-"):
            continue
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            continue  # a path or a URL: pip's business
        problem = None if requirement.url else _release_problem(requirement, index, timeout)
        if problem:
            warnings.append(f"requirements.txt asks for {text}: {problem}")
    return warnings


def _release_problem(requirement, index: str, timeout: float) -> str | None:
    """Why PyPI cannot satisfy `requirement`, or None when a release there does."""
    url = f"{index}/pypi/{requirement.name}/json"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            releases = json.load(response).get("releases") or {}
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return f"{requirement.name} is not on PyPI; " + FIX.replace("NAME", requirement.name)
        return f"could not check PyPI ({url}: HTTP {exc.code}); make sure a matching release is published"
    except (OSError, ValueError) as exc:
        return f"could not check PyPI ({url}: {exc}); make sure a matching release is published"
    published = [v for v, files in releases.items() if any(not f.get("yanked") for f in files or [])]
    if list(requirement.specifier.filter(published, prereleases=True)):
        return None
    shown = ", ".join(published[-5:]) or "none"
    return f"no release on PyPI matches (published: {shown}); " + FIX.replace("NAME", requirement.name)


def metric_warnings(root: Path) -> list[str]:
    """Warnings about the metric Space's requirements.txt (see space_requirement_warnings)."""
    path = root / "ids_metric" / "requirements.txt"
    return space_requirement_warnings(path.read_text(encoding="utf-8")) if path.is_file() else []


def leaderboard_plan(repo_id: str, results_dir: Path) -> Plan:
    """A static Space: index.html, board.json, board.md, README.md and the results files it was built from."""
    board = board_from_folder(results_dir)
    document = board.to_json()
    uploads = [Upload("README.md", LEADERBOARD_CARD.encode("utf-8"), "generated: leaderboard.publish"),
               Upload("index.html", render_page(document).encode("utf-8"), f"generated from {results_dir}"),
               Upload("board.json", dumps(document).encode("utf-8"), f"generated from {results_dir}"),
               Upload("board.md", to_markdown(board).encode("utf-8"), f"generated from {results_dir}")]
    accepted = {row["file"] for row in document["rows"]}
    uploads += [_file(results_dir, results_dir / name, f"results/{name}") for name in sorted(accepted)]
    return Plan("leaderboard", repo_id, "space", tuple(uploads), "static")


def describe(plan: Plan) -> str:
    """The dry-run listing: every file that would be uploaded, its size and sha256 prefix."""
    kind = plan.repo_type + (f", sdk {plan.space_sdk}" if plan.space_sdk else "")
    lines = [f"{plan.target}: {len(plan.uploads)} files -> {plan.repo_id} ({kind})"]
    for u in plan.uploads:
        digest = hashlib.sha256(u.data).hexdigest()[:12]
        lines.append(f"  {u.path_in_repo:<48} {len(u.data):>9} B  sha256:{digest}  <- {u.origin}")
    return "\n".join(lines)


def push(plan: Plan, *, token: str | None = None, endpoint: str | None = None, private: bool | None = None,
         commit_message: str | None = None):
    """Create the repo if needed and upload the plan as one commit; returns huggingface_hub's CommitInfo."""
    from huggingface_hub import CommitOperationAdd, HfApi  # noqa: PLC0415

    # HF_ENDPOINT is read now, not at import: huggingface_hub freezes it when first imported.
    api = HfApi(endpoint=endpoint or os.environ.get("HF_ENDPOINT") or None, token=token)
    api.create_repo(plan.repo_id, repo_type=plan.repo_type, space_sdk=plan.space_sdk, private=private,
                    exist_ok=True)
    operations = [CommitOperationAdd(path_in_repo=u.path_in_repo, path_or_fileobj=u.data) for u in plan.uploads]
    return api.create_commit(plan.repo_id, operations=operations, repo_type=plan.repo_type,
                             commit_message=commit_message or f"Publish {plan.target} ({len(operations)} files)")
