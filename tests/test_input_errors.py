"""Bad predictions files are one clear, compact error before anything is written: a missing key, a wrong
type, a binary file, thousands of bad lines (`score`; the same cases for `submission check|rescore` are in
tests/leaderboard/test_input_errors.py)."""
import pytest

from idsbench.cli import main
from idsbench.records import MAX_LISTED, problem_list
from tests.support.bad_predictions import BAD_FILES, ROWS, error_lines, lines
from tests.support.smalldata import write_data


@pytest.fixture
def data(tmp_path):
    return write_data(tmp_path / "data")


@pytest.mark.parametrize("case, content, message, most", BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_score_lists_every_problem_compactly_and_writes_nothing(tmp_path, data, capsys, case, content, message,
                                                                most):
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_bytes(content)
    out = tmp_path / "out"
    assert main(["score", "--predictions", str(predictions), "--data", str(data), "--out", str(out),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert len(error_lines(err)) <= most
    assert not out.exists()


def test_problem_list_shows_the_first_twenty_and_a_count():
    assert problem_list([f"p{i}" for i in range(3)]) == "p0\np1\np2"
    shown = problem_list([f"p{i}" for i in range(45)]).splitlines()
    assert shown[:MAX_LISTED] == [f"p{i}" for i in range(MAX_LISTED)] and shown[-1] == "… and 25 more (45 problems in all)"


@pytest.mark.parametrize("subset", [[], ["--subset"]], ids=["all", "subset"])
def test_a_utf8_byte_order_mark_is_accepted(tmp_path, data, subset):
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_bytes(b"\xef\xbb\xbf" + lines(*(ROWS[:1] if subset else ROWS)))
    out = tmp_path / "out"
    assert main(["score", "--predictions", str(predictions), "--data", str(data), "--out", str(out),
                 "--no-progress", *subset]) == 0
    rows = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(rows) == (1 if subset else len(ROWS)) and '"f1": 1.0' in rows[0]
