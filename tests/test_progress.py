"""Progress everywhere: a tqdm bar on a terminal; on a pipe or in a CI log, one line per interval with the
count, rate and time left, then a last line; nothing with --no-progress. Time is a fake clock here."""
import io
import os
import re
import subprocess
import sys

from tqdm import tqdm

from idsbench.progress import LineProgress, progress_bar
from tests.support.smalldata import write_data, write_predictions


class Terminal(io.StringIO):
    def isatty(self):
        return True


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_terminal_gets_a_tqdm_bar_and_a_pipe_gets_lines():
    assert isinstance(progress_bar(True, 3, stream=Terminal())(), tqdm)
    assert isinstance(progress_bar(True, 3, stream=io.StringIO())(), LineProgress)
    off = progress_bar(False, 3, stream=io.StringIO())()
    assert isinstance(off, tqdm) and off.disable


def test_one_line_per_interval_with_count_rate_and_time_left():
    stream, clock = io.StringIO(), Clock()
    bar = LineProgress(total=100, desc="scoring", stream=stream, interval=30, clock=clock)
    for _ in range(100):
        clock.now += 1.0  # one example a second
        bar.update(1)
        if bar.n == 50:
            bar.set_postfix(failed=2)
    bar.close()
    assert stream.getvalue().splitlines() == [
        "scoring: 30/100 (30%), 1.0 ex/s, about 1:10 left",
        "scoring: 60/100 (60%), 1.0 ex/s, about 0:40 left [failed=2]",
        "scoring: 90/100 (90%), 1.0 ex/s, about 0:10 left [failed=2]",
        "scoring: 100 done in 1:40 [failed=2]",
    ]


def test_short_work_prints_nothing_and_wrapping_an_iterable_counts_it():
    stream, clock = io.StringIO(), Clock()
    assert list(LineProgress(range(5), total=5, desc="x", stream=stream, interval=30, clock=clock)) == list(range(5))
    assert stream.getvalue() == ""


def test_score_on_a_pipe_prints_progress_lines(tmp_path):
    data = write_data(tmp_path / "data")
    predictions = write_predictions(tmp_path / "p.jsonl")
    env = {**os.environ, "IDS_BENCH_PROGRESS_SECONDS": "0"}
    command = [sys.executable, "-m", "idsbench", "score", "--predictions", str(predictions), "--data", str(data),
               "--audit-profile", "none"]
    shown = subprocess.run([*command, "--out", str(tmp_path / "a")], capture_output=True, text=True, env=env,
                           cwd=tmp_path, check=True).stderr
    assert re.search(r"^scoring: 1/4 \(25%\), [\d.]+ ex/s, about \d+:\d\d left$", shown, re.M), shown
    assert re.search(r"^scoring: 4 done in \d+:\d\d$", shown, re.M)
    quiet = subprocess.run([*command, "--out", str(tmp_path / "b"), "--no-progress"], capture_output=True, text=True,
                           env=env, cwd=tmp_path, check=True).stderr
    assert "scoring:" not in quiet
