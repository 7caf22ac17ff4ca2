"""The commands' default output folders, and every folder the README writes to with --out, are git-ignored."""
import re

from tests.paths import ROOT

DEFAULTS = {"runs", "results", "site", "hub"}  # run/score, leaderboard results, leaderboard build, hub-formats


def ignored_folders() -> set[str]:
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    return {line.strip().strip("/") for line in lines if line.strip().endswith("/") and not line.startswith("#")}


def test_output_folders_are_ignored():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    written = set(re.findall(r"--out ([A-Za-z][\w.-]*)/", readme))
    assert {"results", "site"} <= written  # the README's own examples
    assert DEFAULTS | written <= ignored_folders()
