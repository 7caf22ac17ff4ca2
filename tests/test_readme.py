"""Every Python example of the README runs as written (placeholders filled in) and gives the expected answer."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

BLOCKS = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(encoding="utf-8"), re.M | re.S)
PLACEHOLDERS = {  # what a reader would put in place of the README's names for their own things
    '"path/to/this/checkout"': repr(str(ROOT)),
    "my_outputs": 'data["gold_ids"]',
}
PRELUDE = """
from ids_metric.records import load_references as _load
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


def test_the_readme_has_its_examples():
    assert len(BLOCKS) == len(CHECKS)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i + 1}" for i in range(len(BLOCKS))])
def test_readme_python_example_runs(block, tmp_path):
    code = block
    for placeholder, value in PLACEHOLDERS.items():
        code = code.replace(placeholder, value)
    checks = [check for name, check in CHECKS.items() if re.search(rf"^{name} = ", code, re.M)]
    assert len(checks) == 1, "every README example needs exactly one check here"
    env = {**os.environ, "HF_HOME": str(tmp_path / "hf"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PRELUDE + code + "\n" + checks[0]], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
