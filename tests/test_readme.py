"""The README: every Python example runs as written (placeholders filled in) from outside the checkout
and gives the expected answer; the layout table names every module of the package, and only paths that
exist."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.paths import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```python\n(.*?)^```", README, re.M | re.S)
PLACEHOLDERS = {  # what a reader would put in place of the README's names for their own things
    "path/to/this/checkout": str(ROOT),
    "my_outputs": 'data["gold_ids"]',
}
PRELUDE = """
from idsbench import load_references as _load
outputs = [r.gold for r in _load()]                       # a perfect system
gold_ids = model_output = outputs[0]
"""
CHECKS = {  # a line that each block's result must satisfy, by a name the block defines
    "results": 'assert results["facet_f1"] == 1.0 and results["content"] == 1.0, results',
    "run": "assert run.overall.facet_f1 == 1.0 and run.overall.n == 166",
    "reward": "assert reward == 1.0, result",
    "rewards": "assert rewards == [1.0, 1.0], rewards",
    "bulk": 'assert bulk["ag_facet_f1"] == 1.0 and bulk["content"] == 1.0, bulk',
}
LAYOUT = README[README.index("## Project layout"):README.index("## Submitting results")]


def test_the_readme_has_its_examples():
    assert len(BLOCKS) == len(CHECKS)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i + 1}" for i in range(len(BLOCKS))])
def test_readme_python_example_runs(block, tmp_path):
    code = block
    for placeholder, value in PLACEHOLDERS.items():
        code = code.replace(placeholder, value)
    checks = [check for name, check in CHECKS.items() if re.search(rf"^{name} = ", code, re.M)]
    assert len(checks) == 1, "every README example needs exactly one check here"
    env = {**os.environ, "HF_HOME": str(tmp_path / "hf")}
    done = subprocess.run([sys.executable, "-c", PRELUDE + code + "\n" + checks[0]], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_layout_table_names_only_paths_that_exist():
    named = {path for cell in re.findall(r"^\| (.*?) \|", LAYOUT, re.M) for path in re.findall(r"`([^`]+)`", cell)}
    assert [path for path in named if not any(ROOT.glob(path.rstrip("/")))] == []


SUBPACKAGES_BY_MODULE = ("audit", "facets", "regex", "vocabulary", "report", "synthetic", "dataset")


def test_the_layout_table_names_every_module_of_the_package():
    package = ROOT / "idsbench"
    entries = [p for p in package.iterdir() if p.name not in ("__pycache__", "_data", "__init__.py")]
    assert [p.name for p in entries if f"`idsbench/{p.name}{'/' if p.is_dir() else ''}`" not in LAYOUT] == []
    for sub in SUBPACKAGES_BY_MODULE:  # these rows name each of their modules
        row = next(line for line in LAYOUT.splitlines() if line.startswith(f"| `idsbench/{sub}/`"))
        modules = [m.name for m in (package / sub).glob("*.py") if m.name != "__init__.py" or sub == "audit"]
        assert [m for m in modules if f"`{m}`" not in row] == [], sub


def test_the_checkout_has_dataset_card_metadata(capfd):
    """`load_dataset(checkout)` reads README.md as the dataset card: its YAML block must exist (else every
    call warns "Repo card metadata block was not found") and agree with the published card's."""
    from huggingface_hub import DatasetCard

    from idsbench.leaderboard.publish import split_front_matter

    card = DatasetCard.load(ROOT / "README.md")
    assert "metadata block was not found" not in capfd.readouterr().err
    published, _ = split_front_matter((ROOT / "dataset_card.md").read_text(encoding="utf-8"))
    mine = card.data.to_dict()
    assert mine and all(published.get(key) == value for key, value in mine.items()), mine


def test_ci_runs_the_readmes_test_command_and_install():
    """CI must run the same install and test command the README gives (command 2)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if line.endswith("-m pytest") and "venv" in line)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -e '.[test]'" in command and "pip install --quiet -e '.[test]'" in ci
    assert '"$work/newest/bin/python" -m pytest\n' in ci
    assert "-r requirements.txt" in next(line for line in readme.splitlines() if line.endswith("ids-bench run"))
