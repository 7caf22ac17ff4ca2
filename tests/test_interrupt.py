"""Ctrl-C ends every command with exit 130 and one line, during start-up (the imports of the commands take
half a second) as later. SIGINT is sent by the process to itself when a chosen module starts loading, the way
the `ids-bench` script starts (import idsbench.cli, then main)."""
import os
import subprocess
import sys

import pytest

from idsbench.cli import main
from tests.paths import ROOT

AS_THE_SCRIPT = """
import os, signal, sys
from importlib.abc import MetaPathFinder

signal.signal(signal.SIGINT, signal.default_int_handler)  # as on a terminal (a background job ignores SIGINT)

class Interrupt(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == AT:
            os.kill(os.getpid(), signal.SIGINT)
        return None

AT = sys.argv[1]

sys.meta_path.insert(0, Interrupt())
from idsbench.cli import main
sys.argv = ["ids-bench", *sys.argv[2:]]
sys.exit(main())
"""
CASES = [  # (module whose loading is interrupted, the command)
    ("idsbench.audit", ["audit", "--explain", "101"]),  # start-up: the commands are being registered
    ("idsbench.harness.cli", ["run", "--system", "gold", "--limit", "1"]),
    ("idsbench.records", ["score", "--predictions", "p.jsonl"]),  # the first import main makes
    ("idsbench.leaderboard.board", ["leaderboard", "build", "results", "--out", "site"]),  # the command's own work
]


@pytest.mark.parametrize("module, argv", CASES, ids=[c[1][0] for c in CASES])
def test_ctrl_c_exits_130_with_one_line(tmp_path, module, argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", AS_THE_SCRIPT, module, *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip().splitlines() == ["ids-bench: interrupted"] and done.stdout == ""


def test_interrupted_command_in_process(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr("idsbench.leaderboard.cli.cmd_compare", interrupted)
    assert main(["compare", "a", "b"]) == 130
    assert capsys.readouterr().err == "ids-bench: interrupted\n"
