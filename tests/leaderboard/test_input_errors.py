"""Submissions with a broken predictions file get the same compact list as `score` from `submission check`
and `submission rescore` (which writes nothing then, and only `<model>.json` otherwise); `leaderboard
build` of an empty folder is an error."""
import json

import pytest

from idsbench.cli import main
from tests.support.bad_predictions import BAD_FILES, ROWS, error_lines, lines
from tests.support.smalldata import write_data


@pytest.fixture
def data(tmp_path):
    return write_data(tmp_path / "data")


def make_submission(folder, content: bytes):
    folder.mkdir(parents=True)
    (folder / "predictions.jsonl").write_bytes(content)
    (folder / "metadata.json").write_text(json.dumps({
        "model": "Acme IDS 7B", "endpoint": None, "sampling": {"temperature": 0.0},
        "prompt": {"name": "acme-v1", "text": "Answer with one IDS document."}}), encoding="utf-8")
    return folder


@pytest.mark.parametrize("case, content, message, most", [c for c in BAD_FILES if c[0] != "missing ids"],
                         ids=[c[0] for c in BAD_FILES if c[0] != "missing ids"])
def test_submission_check_and_rescore_list_the_same_problems(tmp_path, data, capsys, case, content, message, most):
    folder = make_submission(tmp_path / "acme", content)
    assert main(["submission", "check", str(folder), "--data", str(data)]) == 1
    out = capsys.readouterr().out
    assert message in out and len(error_lines(out)) <= most + 1  # + the heading line
    results = tmp_path / "results"
    assert main(["submission", "rescore", str(folder), "--data", str(data), "--out", str(results),
                 "--audit-profile", "none", "--resamples", "10"]) == 2
    assert message in capsys.readouterr().err and not results.exists()


def test_a_good_submission_still_rescores(tmp_path, data, capsys):
    folder = make_submission(tmp_path / "acme", lines(*ROWS))
    assert main(["submission", "check", str(folder), "--data", str(data)]) == 0
    results = tmp_path / "results"
    assert main(["submission", "rescore", str(folder), "--data", str(data), "--out", str(results),
                 "--audit-profile", "none", "--resamples", "10"]) == 0
    assert [p.name for p in results.iterdir()] == ["acme-ids-7b.json"]  # no scratch folder beside it
    # a second submission under the same model name does not silently replace the first
    assert main(["submission", "rescore", str(folder), "--data", str(data), "--out", str(results),
                 "--audit-profile", "none", "--resamples", "10"]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert main(["submission", "rescore", str(folder), "--data", str(data), "--out", str(results),
                 "--audit-profile", "none", "--resamples", "10", "--overwrite"]) == 0


def test_leaderboard_build_of_an_empty_folder_is_an_error(tmp_path, capsys):
    (tmp_path / "results").mkdir()
    assert main(["leaderboard", "build", str(tmp_path / "results"), "--out", str(tmp_path / "site")]) == 2
    assert "no results files (*.json) found" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()
