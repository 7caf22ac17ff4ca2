"""Wheel build hook: bundle the built data files, so that `ids-bench run` works outside a checkout.

data/test-*.jsonl and .huggingface.yaml go to idsbench/_data/ with the checkout's layout, so the copy
loads with `datasets.load_dataset` exactly as the checkout does (idsbench.locations finds it).
"""
from __future__ import annotations

from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class DataFilesHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return  # an editable install reads the checkout itself
        root = Path(self.root)
        files = sorted((root / "data").glob("test-*.jsonl"))
        if not files:
            raise RuntimeError(f"{root / 'data'}: no test-*.jsonl to bundle; run `python ishigaki_ids_bench.py build`")
        for path in files:
            build_data["force_include"][str(path)] = f"idsbench/_data/data/{path.name}"
        build_data["force_include"][str(root / ".huggingface.yaml")] = "idsbench/_data/.huggingface.yaml"
