"""The benchmark scripts stay runnable: each answers --help (their figures are not tested). They run as
`python -m benchmarks.NAME` runs them (as __main__, from the checkout), one interpreter for all."""
import json
import subprocess
import sys

from tests.paths import ROOT

SCRIPTS = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if p.stem != "__init__")
DRIVER = """
import contextlib, io, json, runpy, sys
answers = {}
for name in sys.argv[1:]:
    sys.argv = [name, "--help"]
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_module(f"benchmarks.{name}", run_name="__main__", alter_sys=True)
        code = None
    except SystemExit as stop:
        code = stop.code
    answers[name] = [code, "usage:" in out.getvalue()]
print(json.dumps(answers))
"""


def test_the_scripts_are_found():
    assert {"throughput", "parallel", "scaling", "run_all", "fuzz", "audit_throughput"} <= set(SCRIPTS)


def test_every_script_answers_help():
    done = subprocess.run([sys.executable, "-c", DRIVER, *SCRIPTS], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    answers = json.loads(done.stdout.strip().splitlines()[-1])
    assert answers == {name: [0, True] for name in SCRIPTS}
