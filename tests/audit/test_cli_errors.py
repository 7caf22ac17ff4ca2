"""The audit command's input errors: a folder without .ids files is exit 2, not "0 files processed ... Ok"; a
missing file is the validator's NotFoundError (4), also as a JSON line; the help lists every exit code;
an XML syntax error names its position once (lxml's message, then the position, then the position again
was the old text)."""
import json

import pytest

from idsbench.audit import audit
from idsbench.audit.cli import format_finding
from idsbench.audit.result import STATUS_NAMES, STATUS_WORDS
from idsbench.cli import main
from tests.support.smalldata import GOLD, IDS


def test_audit_of_a_folder_without_ids_files_is_an_error(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not an IDS", encoding="utf-8")
    assert main(["audit", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert f"no .ids files found in {tmp_path}" in captured.err and "Completed with status: Ok" not in captured.out


XML_ERRORS = {
    "tag mismatch": GOLD[IDS[0]].replace("</applicability>", "", 1),
    "truncated": GOLD[IDS[0]][:400],
}


@pytest.mark.parametrize("document", XML_ERRORS.values(), ids=XML_ERRORS.keys())
def test_an_xml_syntax_error_names_its_position_once(document):
    finding = next(f for f in audit(document).findings if f.code == 502)
    text = format_finding(finding)
    assert finding.line and finding.column and ", line " not in finding.message
    assert text.endswith(f" (line {finding.line}, column {finding.column})") and text.count("column") == 1


@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_a_missing_file_is_not_found_in_text_and_json(tmp_path, capsys, json_flag):
    missing = tmp_path / "nope.ids"
    assert main(["audit", str(missing), *json_flag]) == 4
    captured = capsys.readouterr()
    assert f"Invalid input source '{missing}' (no such file or folder)" in captured.err
    if json_flag:
        row = json.loads(captured.out)
        assert row["file"] == str(missing) and row["status"] == 4 and row["status_text"] == "NotFoundError"
        assert row["findings"] == [] and row["error"] == "no such file or folder"


def test_audit_help_lists_every_exit_code(capsys):
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for flag, words in STATUS_WORDS.items():
        assert f"{int(flag)} {words} ({STATUS_NAMES[flag]})" in text
    assert "0 Ok" in text and "130 interrupted" in text


NOT_IDS = {"empty": b"", "binary": b"\x00\x01\x02\xff binary", "junk": b"junk text\n", "json": b'{"a": 1}'}


@pytest.mark.parametrize("content", NOT_IDS.values(), ids=NOT_IDS.keys())
def test_a_file_that_is_not_an_ids_says_so_in_words(tmp_path, capsys, content):
    (tmp_path / "x.ids").write_bytes(content)
    assert main(["audit", str(tmp_path / "x.ids")]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "Completed with status: NotImplementedError (not an IDS document)."


GOOD = GOLD[IDS[0]]
UTF16_DECLARED = GOOD.replace('encoding="UTF-8"', 'encoding="UTF-16"', 1)
RAW_OUTPUTS = {  # raw model outputs: the scorer extracts think spans and the first fence
    "fenced": f"Here is the IDS:\n```xml\n{GOOD}\n```\nAnything else?",
    "thinking": f"<think>maybe ```xml <junk/>```</think>\n```ids\n{GOOD}```",
    "bare": GOOD,
    "truncated in a fence": f"```xml\n{GOOD[:300]}\n```",
    "fence without a close": f"```xml\n{GOOD}",
    "a think span only": "<think>no answer</think>",
    "declares UTF-16": f"```xml\n{UTF16_DECLARED}\n```",  # unreadable once written out as UTF-8
}


@pytest.mark.parametrize("raw", RAW_OUTPUTS.values(), ids=RAW_OUTPUTS.keys())
def test_extract_audits_raw_outputs_as_the_scorer_does(tmp_path, capsys, raw):
    from idsbench.example import Reference
    from idsbench.pipeline import evaluate_one, make_auditor

    (tmp_path / "raw.txt").write_text(raw, encoding="utf-8")
    status = evaluate_one(raw, Reference("x", GOOD, {}), make_auditor()).audit.status
    scored = 1 if status is None else status  # an empty candidate is not audited by the scorer: not an IDS
    assert main(["audit", "--extract", str(tmp_path / "raw.txt")]) == scored
    if raw.startswith("Here"):
        assert scored == 0 and main(["audit", str(tmp_path / "raw.txt")]) == 1


def test_extract_refuses_a_file_that_is_not_text(tmp_path, capsys):
    (tmp_path / "raw.txt").write_bytes(b"\xff\xfe<\x00i\x00")
    assert main(["audit", "--extract", str(tmp_path / "raw.txt")]) == 2
    assert "is not (byte 0); audit it without --extract" in capsys.readouterr().err
