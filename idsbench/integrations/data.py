"""The benchmark's records for a framework: from local data files (never the Hub), one config's subset."""
from __future__ import annotations

from pathlib import Path

from idsbench.dataset.schema import CONFIGS
from idsbench.harness.examples import example_from_record
from idsbench.locations import default_data
from idsbench.records import InputError, load_records


def records_of(data: str | Path | None = None, subset: str = "all") -> list[dict]:
    """Records sorted by id; `data` a JSONL file or folder (default: the checkout's data/, else the copy
    installed with the package), `subset` a dataset config (all, en, ja, csv, natural_language, ...)."""
    if subset not in CONFIGS:
        raise InputError(f"unknown subset {subset!r}; choose one of {', '.join(CONFIGS)}")
    rule = CONFIGS[subset]
    records = sorted((r for _, _, r in load_records(Path(data) if data else default_data())), key=lambda r: r["id"])
    for record in records:
        example_from_record(record)  # the checks of `ids-bench run`: a bad record is named before any request
    return [r for r in records if not rule.column or r.get(rule.column) == rule.value]
