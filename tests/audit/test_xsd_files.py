"""The IDS schema that the fast XSD validator imports is a file: kept once per user in the project's cache
folder, so a run killed with SIGKILL leaves nothing in the temporary folder; with the cache off it is a private
temporary folder that the process removes when it exits."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPILE = """
import os, signal, sys
from idsbench.audit.xsd import fast_schema
fast_schema("1.0"); fast_schema("0.9.7")
print("compiled", flush=True)
if sys.argv[1] == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _compile(tmp_path: Path, cache: str, end: str) -> subprocess.CompletedProcess:
    (tmp_path / "tmp").mkdir(exist_ok=True)
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"), IDS_BENCH_CACHE=cache, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", COMPILE, end], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("end", ["kill", "exit"])
def test_the_schema_lives_in_the_cache_and_no_temporary_file_is_left(tmp_path, end):
    cache = tmp_path / "cache"
    for _ in range(2):  # the second process reuses the files of the first
        done = _compile(tmp_path, str(cache), end)
        assert "compiled" in done.stdout and done.returncode == (-signal.SIGKILL if end == "kill" else 0), done.stderr
        assert os.listdir(tmp_path / "tmp") == []
        assert len(list((cache / "xsd").glob("ids-*.xsd"))) == 2 and not list((cache / "xsd").glob("*.tmp"))


def test_with_the_cache_off_the_private_copy_is_removed_at_exit(tmp_path):
    done = _compile(tmp_path, "off", "exit")
    assert "compiled" in done.stdout and done.returncode == 0, done.stderr
    assert os.listdir(tmp_path / "tmp") == []
