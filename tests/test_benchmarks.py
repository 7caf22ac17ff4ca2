"""The benchmark scripts stay runnable: each imports and answers --help (their figures are not tested)."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

SCRIPTS = sorted(p.stem for p in (Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py")
                 if p.stem not in {"__init__", "corpus", "mutations"})


def test_the_scripts_are_found():
    assert {"throughput", "parallel", "scaling", "run_all", "fuzz", "audit_throughput"} <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_answers_help(name, capsys):
    module = importlib.import_module(f"benchmarks.{name}")
    with pytest.raises(SystemExit) as stop:
        module.main(["--help"])
    assert stop.value.code == 0 and "usage:" in capsys.readouterr().out
