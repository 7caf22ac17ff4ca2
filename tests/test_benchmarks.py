"""The benchmark scripts stay runnable: each answers --help (their figures are not tested). They run as
a user runs them, `python -m benchmarks.NAME` in the checkout, all at once."""
import subprocess
import sys

from tests.paths import ROOT

SCRIPTS = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if p.stem != "__init__")


def test_the_scripts_are_found():
    assert {"throughput", "parallel", "scaling", "run_all", "fuzz", "audit_throughput"} <= set(SCRIPTS)


def test_every_script_answers_help():
    running = {name: subprocess.Popen([sys.executable, "-m", f"benchmarks.{name}", "--help"], cwd=ROOT,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for name in SCRIPTS}
    for name, process in running.items():
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0 and "usage:" in out, (name, err[-2000:])
