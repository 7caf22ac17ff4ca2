"""Ishigaki-IDS-Bench dataset: record schema, configs, loader, and the maintainers' build/check/report.

Library (the code lives in idsbench.dataset; install the project first, `pip install .`):
    import ishigaki_ids_bench as bench
    ds = bench.load("ja", domain="civil", ifc_version="IFC4X3_ADD2")           # this checkout
    ds = bench.load(source="ONESTRUCTION/Ishigaki-IDS-Bench")                  # official release (Hub)

Maintainers (see --help of each):
    python ishigaki_ids_bench.py build    # data/scenarios/* -> data/test-*.jsonl, .huggingface.yaml, dataset_card.md
    python ishigaki_ids_bench.py check    # quality gates a-l
    python ishigaki_ids_bench.py report   # composition table (markdown)

The data itself loads without this file: datasets >= 4 reads the YAML configs in .huggingface.yaml.
This file must never be named after the checkout folder (datasets would refuse it as a loading script).
"""
from __future__ import annotations

import sys

import idsbench.dataset as _dataset
from idsbench.dataset import __all__  # noqa: F401  (this module is the dataset's public API)
from idsbench.dataset.cli import main


def __getattr__(name: str):
    # Resolved on first use, as in idsbench.dataset: `facts` runs without importing `datasets`.
    return getattr(_dataset, name)


if __name__ == "__main__":
    sys.exit(main())
