"""Bad harness input is one clear, compact error before anything is written: predictions files (a missing
key, a wrong type, a binary file, thousands of bad lines) for `score` and `submission check|rescore`, an
empty folder for `audit` and `leaderboard build`, and XML syntax errors that name their position once."""
import json
import random

import pytest

from idsbench.audit import audit
from idsbench.audit.cli import format_finding
from idsbench.cli import main
from idsbench.records import MAX_LISTED, problem_list
from smalldata import GOLD, IDS, write_data, write_predictions

ROWS = [{"id": i, "prediction": GOLD[i]} for i in IDS]


def lines(*rows) -> bytes:
    return b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in rows)


# (case, file content, what the error says, at most this many lines of error)
BAD_FILES = [
    ("missing key", lines(*ROWS[:2], {"id": IDS[2]}, ROWS[3]), ':3: no "prediction" (use null', 1),
    ("wrong type", lines(*ROWS[:3], {"id": IDS[3], "prediction": 5}), ':4: "prediction" must be a string or null, '
     "not int", 1),
    ("id not a string", lines(*ROWS, {"id": 7, "prediction": None}), ':5: expected an object with a string "id"', 1),
    ("duplicate", lines(*ROWS, ROWS[0]), f":5: duplicate id '{IDS[0]}'", 1),
    ("unknown id", lines(*ROWS, {"id": "zz-en", "prediction": None}), "ids not in the data: zz-en", 1),
    ("missing ids", lines(*ROWS[:2]), f"missing predictions for: {IDS[2]}, {IDS[3]}; to score only", 1),
    ("binary", random.Random(0).randbytes(2_000_000), "not a JSON Lines file: binary data (a NUL byte", 1),
    ("UTF-16", "\ufeff".encode("utf-16-le") + lines(*ROWS).decode().encode("utf-16-le"), "UTF-16 text", 1),
    ("gzip", b"\x1f\x8b\x08\x00" + bytes(100), "gzip-compressed", 1),
    ("many bad lines", b"not json\n" * 500, f"… and {500 - MAX_LISTED + 1} more (501 problems in all)",
     MAX_LISTED + 1),
]


@pytest.fixture
def data(tmp_path):
    return write_data(tmp_path / "data")


def error_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


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


def test_problem_list_shows_the_first_twenty_and_a_count():
    assert problem_list([f"p{i}" for i in range(3)]) == "p0\np1\np2"
    shown = problem_list([f"p{i}" for i in range(45)]).splitlines()
    assert shown[:MAX_LISTED] == [f"p{i}" for i in range(MAX_LISTED)] and shown[-1] == "… and 25 more (45 problems in all)"


def test_audit_of_a_folder_without_ids_files_is_an_error(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not an IDS", encoding="utf-8")
    assert main(["audit", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert f"no .ids files found in {tmp_path}" in captured.err and "Completed with status: Ok" not in captured.out


def test_leaderboard_build_of_an_empty_folder_is_an_error(tmp_path, capsys):
    (tmp_path / "results").mkdir()
    assert main(["leaderboard", "build", str(tmp_path / "results"), "--out", str(tmp_path / "site")]) == 2
    assert "no results files (*.json) found" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()


XML_ERRORS = {  # the case: lxml's message, then its position, then the position again
    "tag mismatch": GOLD[IDS[0]].replace("</applicability>", "", 1),
    "truncated": GOLD[IDS[0]][:400],
}


@pytest.mark.parametrize("document", XML_ERRORS.values(), ids=XML_ERRORS.keys())
def test_an_xml_syntax_error_names_its_position_once(document):
    finding = next(f for f in audit(document).findings if f.code == 502)
    text = format_finding(finding)
    assert finding.line and finding.column and ", line " not in finding.message
    assert text.endswith(f" (line {finding.line}, column {finding.column})") and text.count("column") == 1
